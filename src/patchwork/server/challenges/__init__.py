"""Challenges to a named player (docs/server.md "Challenges"): made, accepted (the game starts
once), declined with a reason, cancelled or lapsed, each change told live to both players on
their own sockets (people/); a rematch between two accounts is one too."""
