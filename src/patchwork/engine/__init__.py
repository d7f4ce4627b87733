"""The rules of two-player Patchwork and nothing else (numpy + numba only).

Inside, the core (``layout``, ``tables``, ``kernels``, ``moves``, ``state``) never imports
its satellites; each satellite imports the core and, where the core offers its service as a
method, lends it when it loads (see ``lending``):

    position   the one-line position text (State.to_text, State.from_text)
    game       a state plus its history (push, pop)
    record     game records as JSON and text (Game.to_record, Game.from_record)
    playout    compiled random games
    hidden     what the rules settle about what a player's view leaves out
"""

from . import position  # noqa: F401  (lends State its text form)
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
