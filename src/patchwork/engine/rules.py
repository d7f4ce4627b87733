"""The rules options of a game: which printing of the time board, and the house rules."""

from __future__ import annotations

from dataclasses import dataclass

from . import data
from .errors import InvalidSetupError
from .tables import EDITION_INDEX, mode_of


@dataclass(frozen=True, slots=True)
class Rules:
    """``edition``: "revised" (specials at 26 32 38 44 50) or "original" (20 26 32 44 50).

    ``rotation`` and ``flip`` allow turning and mirroring patches; with both off a patch is
    placed only as printed.
    """

    edition: str = "revised"
    rotation: bool = True
    flip: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.edition, str) or self.edition not in EDITION_INDEX:
            raise InvalidSetupError(
                f"unknown edition {self.edition!r}: choose one of {', '.join(data.EDITIONS)}"
            )
        for name in ("rotation", "flip"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidSetupError(f"{name} must be True or False")

    @property
    def mode(self) -> int:
        """Index of the allowed-orientation set in the placement tables."""
        return mode_of(self.rotation, self.flip)

    @property
    def special_spaces(self) -> tuple[int, ...]:
        return data.SPECIAL_SPACES[self.edition]

    def to_dict(self) -> dict[str, object]:
        return {"edition": self.edition, "rotation": self.rotation, "flip": self.flip}

    @classmethod
    def from_dict(cls, d: object) -> Rules:
        if not isinstance(d, dict):
            raise InvalidSetupError("rules must be an object with edition, rotation and flip")
        unknown = set(d) - {"edition", "rotation", "flip"}
        if unknown:
            raise InvalidSetupError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        return cls(**d)
