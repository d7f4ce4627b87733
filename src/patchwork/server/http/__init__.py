"""The HTTP and websocket layer: the app factory that wires the domains, middleware, who asks
(auth), what every websocket shares, and each domain's routes and sockets. Thin: it turns
requests into calls of a domain and answers into JSON."""
