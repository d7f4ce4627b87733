"""The package's own exceptions: every mistake a user can make raises one of these.

A message a person may read is an English template marked with :func:`N_` plus the values
that fill it, e.g. ``IllegalMoveError(N_("{move} is not allowed: {square} is already
covered"), move="S@a1", square="a1")``. ``str(e)`` is the English text; a program showing
the error in another language looks ``e.template`` up in its catalog and fills in
``e.params`` itself (``patchwork.i18n.error_text``), so the engine needs no catalog of its
own and states each rule once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogs; it is translated where shown."""
    return message


def fill_in(template: str, params: Mapping[str, Any]) -> str:
    """``template`` filled in with ``params`` in English: a tuple is a list (``1, 2, 3``)."""
    if not params:
        return template
    values = {k: ", ".join(map(str, v)) if isinstance(v, tuple) else v for k, v in params.items()}
    return template.format(**values)


class PatchworkError(ValueError):
    """Base class: something given to the engine was wrong; nothing was changed.

    ``message`` is the English text, or with ``params`` an English template of ``{name}``
    fields (``str.format`` syntax) that they fill in: numbers as int, text (notation, square
    names) as str, a list of numbers as a tuple. ``str(e)`` is the filled-in English text."""

    template: str
    params: dict[str, Any]

    def __init__(self, message: str = "", /, **params: Any) -> None:
        self.template = message
        self.params = params
        super().__init__(fill_in(message, params))


class InvalidSetupError(PatchworkError):
    """A circle, seed, first player or rules option that does not describe a game."""


class InvalidMoveError(PatchworkError):
    """Move text that cannot be read."""


class IllegalMoveError(PatchworkError):
    """A well-formed move that the rules do not allow in this position.

    ``plain`` is the same reason as a sentence for the person who tried the move, without
    move notation (``"That square is already covered"``), filled from the same ``params``:
    a table shows it and keeps the notation version (``template``) as details."""

    plain: str

    def __init__(self, message: str = "", /, *, plain: str = "", **params: Any) -> None:
        super().__init__(message, **params)
        self.plain = plain or message

    @property
    def plain_text(self) -> str:
        """``plain`` filled in, in English."""
        return fill_in(self.plain, self.params)


class InvalidPositionError(PatchworkError):
    """Position text that cannot be read or describes no reachable kind of state."""


class InvalidRecordError(PatchworkError):
    """A game record that cannot be read or does not replay."""
