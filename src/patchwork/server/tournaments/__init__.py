"""Tournaments for people (issue 41): Swiss events on the server (arenas to come).

The pure rules, which read no database and do no I/O, so that tests can run thousands of
events in seconds: ``swiss.py`` (one round's pairs and bye, by a maximum weight matching),
``standings.py`` (the Swiss table with Buchholz and Sonneborn-Berger, and the players of the
next round read from the games played) and ``arena.py`` (lichess-style points with streaks,
the arena's table and its pairing of waiting players). On them the service: ``store.py`` (the
tables of storage/tournament_tables.py), ``schemas.py``, ``service.py`` (create, join,
withdraw, list, one event's view) and ``director.py`` (each event started, paired round by
round and finished by one process at a time: docs/server.md "Tournaments")."""
