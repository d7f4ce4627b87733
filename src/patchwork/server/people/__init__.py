"""People (docs/server.md, "People"): each account's own socket on every page (``/ws/me``),
who is online, follows and blocks. Other domains reach a person through it: the challenges,
chat and notifications domains deliver to an account's sockets on any process here, and ask
here whether one person blocked another."""
