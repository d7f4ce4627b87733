"""Tournaments for people (issue 41): Swiss events and arenas on the server.

Today the package holds only the pure rules, so that the service built on them (storage,
leases, routes, pages) can call them with plain data and tests can run thousands of events in
seconds: ``swiss.py`` (one round's pairs and bye, by a maximum weight matching),
``standings.py`` (the Swiss table with Buchholz and Sonneborn-Berger, and the players of the
next round read from the games played) and ``arena.py`` (lichess-style points with streaks,
the arena's table and its pairing of waiting players). Nothing here reads a database, imports
another part of the server or does I/O."""
