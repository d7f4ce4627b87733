"""The rules options of a game: which printing of the time board, and the house rules."""

from __future__ import annotations

from dataclasses import dataclass

from . import data
from .automa import Automa
from .errors import InvalidSetupError
from .tables import EDITION_INDEX, mode_of


@dataclass(frozen=True, slots=True)
class Rules:
    """``edition``: "revised" (specials at 26 32 38 44 50) or "original" (20 26 32 44 50).

    ``rotation`` and ``flip`` allow turning and mirroring patches; with both off a patch is
    placed only as printed. ``solo`` makes it a solo game against the official Automa
    (engine/automa.py): the person is player 0, Automa player 1.
    """

    edition: str = "revised"
    rotation: bool = True
    flip: bool = True
    solo: Automa | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.edition, str) or self.edition not in EDITION_INDEX:
            raise InvalidSetupError(
                f"unknown edition {self.edition!r}: choose one of {', '.join(data.EDITIONS)}"
            )
        for name in ("rotation", "flip"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidSetupError(f"{name} must be True or False")
        if self.solo is not None and not isinstance(self.solo, Automa):
            raise InvalidSetupError("solo must be an Automa(level, deck) or None")

    @property
    def mode(self) -> int:
        """Index of the allowed-orientation set in the placement tables."""
        return mode_of(self.rotation, self.flip)

    @property
    def special_spaces(self) -> tuple[int, ...]:
        return data.SPECIAL_SPACES[self.edition]

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {"edition": self.edition, "rotation": self.rotation}
        d["flip"] = self.flip
        if self.solo is not None:  # only solo games name it: two-player dicts stay as before
            d["solo"] = self.solo.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: object) -> Rules:
        if not isinstance(d, dict):
            raise InvalidSetupError("rules must be an object with edition, rotation and flip")
        unknown = set(d) - {"edition", "rotation", "flip", "solo"}
        if unknown:
            raise InvalidSetupError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        options = dict(d)
        if "solo" in options:
            options["solo"] = Automa.from_dict(options["solo"])
        return cls(**options)
