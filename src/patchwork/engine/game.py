"""A game: a starting state plus its history, with undo.

Records sit over this module (``engine/record.py`` imports ``Game``, never the other way round):
``Game.to_record`` and ``Game.from_record`` use the ``Record`` class that module lends when it
loads. The name below is imported for the type checker only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import N_, PatchworkError
from .lending import Lent
from .moves import Move
from .state import State, new_game

if TYPE_CHECKING:
    from .record import Record

RECORD: Lent[type[Record]] = Lent("patchwork.engine.record")


class Game:
    """A state and the moves that led to it: ``push`` plays, ``pop`` takes back."""

    def __init__(self, start: State | None = None) -> None:
        self.start: State = new_game() if start is None else start
        self._states: list[State] = [self.start]
        self._moves: list[Move] = []

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def moves(self) -> list[Move]:
        """The moves played so far (a copy)."""
        return list(self._moves)

    @property
    def states(self) -> list[State]:
        """Every state of the game, the start first and the current one last (a copy)."""
        return list(self._states)

    def movers(self) -> list[int]:
        """Who made each move: the player to move in the state it was played in."""
        movers = []
        for state in self._states[:-1]:
            player = state.current_player
            assert player is not None  # a move was played there, so someone was to move
            movers.append(player)
        return movers

    def push(self, move: Move | str) -> State:
        """Play a move (or move text); an illegal one raises and changes nothing."""
        if isinstance(move, str):
            move = Move.parse(move, self.state)
        self._states.append(self.state.apply(move))
        self._moves.append(move)
        return self.state

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._moves:
            raise PatchworkError(N_("there is no move to take back"))
        self._states.pop()
        return self._moves.pop()

    def __len__(self) -> int:
        return len(self._moves)

    def to_record(
        self,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        event: str = "",
        date: str | None = None,
    ) -> Record:
        """This game as a record (see ``Record.from_game``)."""
        return RECORD().from_game(self, players=players, event=event, date=date)

    @classmethod
    def from_record(cls, record: Record | str | dict[str, object]) -> Game:
        """Replay a record (a Record, its JSON or text form, or its dict)."""
        kind = RECORD()
        if not isinstance(record, kind):
            record = kind.parse(record) if isinstance(record, str) else kind.from_dict(record)
        return record.replay()
