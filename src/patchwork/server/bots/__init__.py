"""Bots (docs/bots.md): programs that play on the server with an account's API token, as
lichess's Bot API lets them. An account becomes a bot once and for good (accounts); this
domain gives every account what a program needs besides the games' own HTTP API: a stream
of its events (challenges, games starting and ending) and a stream per game, both as
newline-delimited JSON over one long HTTP response (http/bots.py)."""
