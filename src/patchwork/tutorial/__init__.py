"""The guided first game: lessons in order, each asking for a move the engine checks, in a
game against a gentle opponent (``lessons``, ``course``; ``prepare`` makes its data)."""

from .course import Attempt, Progress, attempt, begin, record, replay
from .lessons import LESSONS, Lesson, Step

__all__ = [
    "LESSONS",
    "Attempt",
    "Lesson",
    "Progress",
    "Step",
    "attempt",
    "begin",
    "record",
    "replay",
]
