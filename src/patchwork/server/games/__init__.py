"""Games (docs/server.md): the game service, the one place where games change, and its parts:
the games in memory, changes (store, then broadcast), clocks and AI turns, catching up with
other processes; creation, views, the websocket hub, presence and messages."""
