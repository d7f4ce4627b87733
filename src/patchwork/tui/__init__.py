"""Terminal play: for now a plain-text game (``tui.text``); a full-screen Textual app later."""
