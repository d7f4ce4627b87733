"""Terminal play: the full-screen Textual app (tui.app) and the plain-text game (tui.text)."""
