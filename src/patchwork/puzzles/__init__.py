"""Puzzles: positions where one kind of move is clearly best, each with its proof
(docs/puzzles.md). ``patchwork puzzles generate`` finds them; ``patchwork puzzle`` and the
browser's puzzle page ask them."""

from .proof import Outcome, outcomes
from .puzzle import THEMES, Puzzle, Verdict, daily, load, starter

__all__ = ["THEMES", "Outcome", "Puzzle", "Verdict", "daily", "load", "outcomes", "starter"]
