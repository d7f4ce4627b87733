"""What the terminal app remembers between runs: whether advancing asks first, and how many
games a person has played to the end (a JSON file in the user's configuration folder).

Advancing asks for a confirmation during a person's first :data:`LEARNING_GAMES` games and
not after (undo takes a move back), unless the person chose with ``c``, which is then kept.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import platformdirs

LEARNING_GAMES = 3  # games during which advancing asks first, unless the person chose
FILE_NAME = "tui.json"


def default_path() -> Path:
    """Where the app keeps its preferences (``$XDG_CONFIG_HOME/patchwork`` on Linux)."""
    return platformdirs.user_config_path("patchwork") / FILE_NAME


@dataclass
class Preferences:
    """The app's remembered settings; ``path`` None: kept for this run only."""

    confirm_advance: bool | None = None  # None: not chosen (ask while still learning)
    games_finished: int = 0  # games with a person at the table, played here to their end
    path: Path | None = None

    @property
    def asks_before_advancing(self) -> bool:
        if self.confirm_advance is not None:
            return self.confirm_advance
        return self.games_finished < LEARNING_GAMES

    @classmethod
    def load(cls, path: Path | None) -> Preferences:
        """The preferences kept at ``path``; the defaults when there are none, or the file
        cannot be read (it is only a convenience: the game goes on)."""
        prefs = cls(path=path)
        if path is None:
            return prefs
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return prefs
        if not isinstance(data, dict):
            return prefs
        confirm = data.get("confirm_advance")
        if isinstance(confirm, bool):
            prefs.confirm_advance = confirm
        games = data.get("games_finished")
        if isinstance(games, int) and not isinstance(games, bool) and games >= 0:
            prefs.games_finished = games
        return prefs

    def save(self) -> None:
        """Write them to ``path`` (quietly nothing when it cannot be written)."""
        if self.path is None:
            return
        data = {k: v for k, v in asdict(self).items() if k != "path"}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        except OSError:
            pass

    def toggle_confirm_advance(self) -> bool:
        """Ask before advancing from now on, or stop asking; the new setting."""
        self.confirm_advance = not self.asks_before_advancing
        self.save()
        return self.confirm_advance

    def game_finished(self) -> None:
        self.games_finished += 1
        self.save()
