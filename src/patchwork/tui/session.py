"""A game being played in the app: the history, the seats and the ghost, without any drawing.

The app's keys and clicks become calls here; everything is checked by the engine (legal
moves, ``check_legal``, ``apply``, scores) and this class only keeps track of the selection.
"""

from __future__ import annotations

import random
from typing import Literal

from ..engine import (
    PATCHES,
    Advance,
    Buy,
    Game,
    IllegalMoveError,
    Move,
    PatchworkError,
    PlaceSpecial,
    Record,
    State,
)
from ..engine import kernels as K
from ..engine.automa import Turn, sample_hidden
from ..i18n import _, error_text, fmt, ngettext
from .placement import Ghost, Square, fitting_anchors, mirrored, rotated
from .seats import Seat, game_record

Mode = Literal["versus", "people", "watch"]
OfferStatus = Literal["ok", "cost", "room", "wait"]
SPECIAL = -1  # in a patch map: a special patch
UNKNOWN = -2  # in a patch map: covered before the game's first recorded move
ADVANCE = Advance()


class Refused(PatchworkError):
    """A legal move this session does not play, saying why (the guided first game's lesson
    asks for another); the screen shows the reason and the person tries again."""


def advance_only_end(state: State) -> State:
    """Where the game ends if from now on nobody buys another patch: both players advance,
    and special patches are placed on the first square the engine allows. The engine plays
    every step, so income, specials and the final space all follow the rules."""
    while not state.is_terminal():
        if state.is_legal(ADVANCE):
            state = state.apply(ADVANCE)
        else:
            state = state.apply(state.legal_moves()[0])
    return state


class Session:
    """The game, who plays each side, and the patch a person is holding over the quilt."""

    def __init__(self, game: Game, seats: tuple[Seat, Seat]) -> None:
        self.game = game
        self.seats = seats
        self.ghost: Ghost | None = None
        self.version = 0  # changes whenever the position does (a move, an undo, a load)
        self._legal: tuple[int, list[Move], frozenset[Move]] | None = None
        self._patch_maps: tuple[int, tuple[dict[Square, int], dict[Square, int]]] | None = None
        self._projection: tuple[int, tuple[int, int]] | None = None
        self.automa_turns: tuple[Turn, ...] = ()  # what Automa did after the last move
        self.prepare_turn()

    # -- reading ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def player(self) -> int | None:
        return self.state.current_player

    @property
    def seat(self) -> Seat | None:
        p = self.player
        return None if p is None else self.seats[p]

    @property
    def human_to_move(self) -> bool:
        seat = self.seat
        return seat is not None and seat.is_human

    @property
    def is_solo(self) -> bool:
        return self.state.automa is not None

    @property
    def mode(self) -> Mode:
        humans = sum(seat.is_human for seat in self.seats)
        return "watch" if humans == 0 else "people" if humans == 2 else "versus"

    def legal_moves(self) -> list[Move]:
        return self._legal_lists()[1]

    def legal_set(self) -> frozenset[Move]:
        return self._legal_lists()[2]

    def _legal_lists(self) -> tuple[int, list[Move], frozenset[Move]]:
        if self._legal is None or self._legal[0] != self.version:
            moves = self.state.legal_moves()
            self._legal = (self.version, moves, frozenset(moves))
        return self._legal

    def buyable(self) -> frozenset[int]:
        """The offered patches the engine has a legal buy for."""
        return frozenset(m.patch_id for m in self.legal_moves() if isinstance(m, Buy))

    def placements(self, patch_id: int | None) -> list[Move]:
        """The engine's legal placements of a patch (None: of a special patch)."""
        if patch_id is None:
            return [m for m in self.legal_moves() if isinstance(m, PlaceSpecial)]
        return [m for m in self.legal_moves() if isinstance(m, Buy) and m.patch_id == patch_id]

    def offer_status(self, patch_id: int) -> OfferStatus:
        """Whether an offered patch can be bought, or why not (the engine's own tests)."""
        p = self.player
        if p is None or self.state.pending_specials:
            return "wait"
        if patch_id in self.buyable():
            return "ok"
        if not K.affordable(self.state.vector, p, patch_id):
            return "cost"
        return "room"

    def why_not_buyable(self, patch_id: int) -> str:
        p = self.player
        status = self.offer_status(patch_id)
        if status == "cost" and p is not None:
            cost = PATCHES[patch_id].buttons
            return fmt(
                ngettext(
                    "Patch {id} costs {cost} button; you have {have}.",
                    "Patch {id} costs {cost} buttons; you have {have}.",
                    cost,
                ),
                id=patch_id,
                cost=cost,
                have=self.state.players[p].buttons,
            )
        if status == "room":
            return fmt(_("Patch {id} fits nowhere on your quilt board."), id=patch_id)
        return _("First place your special patch.")

    def verdict(self) -> str | None:
        """None when the ghost may be sewn on where it is, else the engine's reason."""
        if self.ghost is None:
            return _("Choose a patch first.")
        try:
            self.state.check_legal(self.ghost.move)
        except IllegalMoveError as e:
            return error_text(e)
        return None

    def fits(self) -> frozenset[Square]:
        """Anchors where the ghost fits in its current orientation."""
        if self.ghost is None:
            return frozenset()
        return fitting_anchors(self.ghost, self.legal_set())

    def preview(self) -> State | None:
        """The state the ghost's move leads to, when it is legal."""
        if self.ghost is None or self.verdict() is not None:
            return None
        return self.state.apply(self.ghost.move)

    def projection(self) -> tuple[int, int]:
        """Both final scores if nobody bought another patch (see :func:`advance_only_end`).

        In a solo game only the person's is shown, and it is played out over a deck drawn
        from what the person knows, never the real one (D6): advancing pays the spaces moved
        and the marks crossed whatever Automa draws, so the figure hardly depends on it."""
        if self._projection is None or self._projection[0] != self.version:
            state = self.state
            if state.automa is not None:
                guess = sample_hidden(state.automa, random.Random(self.version))
                state = State(state.vector, state.rules, guess)
            self._projection = (self.version, advance_only_end(state).scores())
        return self._projection[1]

    def patch_maps(self) -> tuple[dict[Square, int], dict[Square, int]]:
        """For each player, which patch covers each covered square (SPECIAL, UNKNOWN)."""
        if self._patch_maps is None or self._patch_maps[0] != self.version:
            maps: tuple[dict[Square, int], dict[Square, int]] = ({}, {})
            for p in (0, 1):
                for square in self.game.start.players[p].quilt.squares:
                    maps[p][square] = UNKNOWN
            for mover, move in zip(self.game.movers(), self.game.moves, strict=True):
                tag = move.patch_id if isinstance(move, Buy) else SPECIAL
                for square in move.squares:
                    maps[mover][square] = tag
            self._patch_maps = (self.version, maps)
        return self._patch_maps[1]

    # -- the ghost --------------------------------------------------------------------------

    def prepare_turn(self) -> None:
        """A fresh turn: a person who must place a special patch holds one at once."""
        self.ghost = None
        if self.human_to_move and self.state.pending_specials:
            first = self.placements(None)
            self.ghost = Ghost.of(first[0]) if first else None

    def select(self, patch_id: int) -> str | None:
        """Pick up an offered patch; returns why not when it cannot be bought."""
        state = self.state
        if state.pending_specials:
            return _("First place your special patch.")
        if patch_id not in state.offered:
            return fmt(_("Patch {id} is not on offer."), id=patch_id)
        options = self.placements(patch_id)
        if not options:
            return self.why_not_buyable(patch_id)
        if self.ghost is not None and self.ghost.patch_id == patch_id:
            return None
        # Start on a placement that fits, in the printed orientation when one does.
        printed = [m for m in options if isinstance(m, Buy) and m.orientation == 0]
        start = Ghost.of(printed[0] if printed else options[0])
        self.ghost = start
        return None

    def cancel(self) -> None:
        if self.ghost is not None and not self.ghost.is_special:
            self.ghost = None

    def nudge(self, d_row: int, d_col: int) -> None:
        if self.ghost is not None:
            self.ghost = self.ghost.moved(d_row, d_col)

    def put(self, row: int, col: int) -> None:
        if self.ghost is not None:
            self.ghost = self.ghost.at(row, col)

    def rotate(self) -> str | None:
        if self.ghost is None or self.ghost.is_special:
            return None
        if not self.state.rules.rotation:
            return _("These rules do not allow turning patches.")
        self.ghost = self.ghost.turned(rotated(self.ghost.orientation))
        return None

    def flip(self) -> str | None:
        if self.ghost is None or self.ghost.is_special:
            return None
        if not self.state.rules.flip:
            return _("These rules do not allow mirroring patches.")
        self.ghost = self.ghost.turned(mirrored(self.ghost.orientation))
        return None

    def cycle(self, step: int) -> None:
        """Jump to the next (or previous) placement where the held patch fits."""
        if self.ghost is None:
            return
        options = self.placements(self.ghost.patch_id)
        if not options:
            return
        current = self.ghost.move
        index = next((i for i, m in enumerate(options) if m == current), -1 if step > 0 else 0)
        ghost = Ghost.of(options[(index + step) % len(options)])
        if ghost is not None:
            self.ghost = ghost

    # -- changing the game ------------------------------------------------------------------

    def commit(self) -> Move:
        """Sew the ghost on; IllegalMoveError (nothing changed) when the engine refuses."""
        if self.ghost is None:
            raise IllegalMoveError(_("Choose a patch first."))
        move = self.ghost.move
        self.play(move)
        return move

    def play(self, move: Move) -> None:
        """Push ``move``; in a solo game the engine plays Automa's turns after it, kept in
        ``automa_turns`` for the screen to say. IllegalMoveError or :class:`Refused` (nothing
        changed) when it is not played."""
        state = self.state
        self.automa_turns = state.automa_replies(move) if state.automa is not None else ()
        self.game.push(move)
        self.version += 1
        self.prepare_turn()

    def can_undo(self) -> bool:
        return self.mode != "watch" and any(self.seats[p].is_human for p in self.game.movers())

    def undo(self) -> list[Move]:
        """Take back to just before the last move a person made; the moves taken back."""
        people = [i for i, p in enumerate(self.game.movers()) if self.seats[p].is_human]
        if not people or self.mode == "watch":
            return []
        taken = [self.game.pop() for _ in range(len(self.game) - people[-1])]
        self.automa_turns = ()
        self.version += 1
        self.prepare_turn()
        return list(reversed(taken))

    def replace(self, game: Game) -> None:
        """Continue with another game (a loaded record) in the same seats."""
        self.game = game
        self.automa_turns = ()
        self.version += 1
        self.prepare_turn()

    def record(self, termination: str | None = None) -> Record:
        return game_record(self.game, self.seats, termination)

    def save(self, path: str) -> None:
        self.record().save(path)

    @staticmethod
    def load_record(path: str) -> Record:
        """A record file, replayed and checked; PatchworkError saying what is wrong."""
        return Record.load(path)

    @staticmethod
    def load(path: str) -> Game:
        """The game of a record file; PatchworkError saying what is wrong."""
        return Game.from_record(Record.load(path))
