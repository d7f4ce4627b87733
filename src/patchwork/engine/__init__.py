"""The rules of two-player Patchwork and nothing else (numpy + numba only)."""

from .data import PATCHES, Patch
from .errors import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidSetupError,
    PatchworkError,
)
from .game import Game
from .moves import Advance, Buy, Move, PlaceSpecial, parse_move, parse_square, square_name
from .record import Record
from .rules import Rules
from .state import Player, Quilt, State, new_game, standard_circle

__all__ = [
    "PATCHES",
    "Advance",
    "Buy",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidSetupError",
    "Move",
    "Patch",
    "PatchworkError",
    "PlaceSpecial",
    "Player",
    "Quilt",
    "Record",
    "Rules",
    "State",
    "new_game",
    "parse_move",
    "parse_square",
    "square_name",
    "standard_circle",
]
