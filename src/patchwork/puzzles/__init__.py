"""Puzzles: positions where one kind of move is clearly best, each with its proof: the exact
endgame search near the end, a large search's clear margin earlier (docs/puzzles.md).
``patchwork puzzles generate`` finds them; ``patchwork puzzle`` and the browser's puzzle page
ask them."""

from .proof import Outcome, outcomes
from .puzzle import THEMES, Puzzle, Verdict, by_id, daily, load, matching, starter
from .search_proof import Estimate, SearchProof, choice

__all__ = [
    "THEMES",
    "Estimate",
    "Outcome",
    "Puzzle",
    "SearchProof",
    "Verdict",
    "by_id",
    "choice",
    "daily",
    "load",
    "matching",
    "outcomes",
    "starter",
]
