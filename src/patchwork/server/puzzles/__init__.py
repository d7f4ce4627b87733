"""Puzzles on the server (docs/server.md, "Puzzles"): today's puzzle, the next one, and the
verdict on an answer, every verdict proved again by the exact endgame search."""
