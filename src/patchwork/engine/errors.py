"""The package's own exceptions: every mistake a user can make raises one of these."""


class PatchworkError(ValueError):
    """Base class: something given to the engine was wrong; nothing was changed."""


class InvalidSetupError(PatchworkError):
    """A circle, seed, first player or rules option that does not describe a game."""


class InvalidMoveError(PatchworkError):
    """Move text that cannot be read."""


class IllegalMoveError(PatchworkError):
    """A well-formed move that the rules do not allow in this position."""


class InvalidPositionError(PatchworkError):
    """Position text that cannot be read or describes no reachable kind of state."""


class InvalidRecordError(PatchworkError):
    """A game record that cannot be read or does not replay."""
