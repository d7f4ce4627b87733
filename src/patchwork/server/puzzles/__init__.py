"""Puzzles on the server (docs/server.md, "Puzzles"): today's puzzle, the next one, and the
verdict on an answer, proved again by the exact endgame search (or, for a puzzle proved by
search, that search's figures); a signed-in player's puzzle rating (Glicko-2, the first
attempt at each puzzle) and the next puzzle at their level; and ``patchwork puzzles generate``
with a database's finished games to read (finished.py)."""
