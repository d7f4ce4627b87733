"""Notifications (docs/server.md, "Notifications"): each signed-in account's list on the site
(challenges, your turn, game over, someone you follow started a game), delivered live over
its own socket (people/hub.py) and marked read. A game's notifications are stored in the
same transaction as the change that causes them (games/changes.py ``Changes.hooks``), so
they are never lost nor made twice."""
