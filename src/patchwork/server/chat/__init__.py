"""Chat (docs/server.md, "Chat"): the lobby's room, each game's players' room and its
spectators' room; messages stored first, then announced to every process; limits, presets,
blocks, reports and site-wide mutes (``patchwork admin reports``)."""
