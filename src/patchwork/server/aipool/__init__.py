"""The AI's processes: moves, hints, analyses and review positions computed in a process
pool, people's work ahead of reviews, so a thinking AI never blocks the server."""
