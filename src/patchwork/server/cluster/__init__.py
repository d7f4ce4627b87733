"""Several server processes over one database (``--redis``): what they share in Redis (a
channel per game, leases, presence) and what one process does beside serving its clients."""
