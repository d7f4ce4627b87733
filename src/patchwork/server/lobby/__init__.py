"""The lobby (docs/server.md, "Lobby"): open seeks and quick pairing, shared by every
process; the games it pairs are started by the game service."""
