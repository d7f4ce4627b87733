"""Immutable game states: a thin Python face over the kernels' state vector."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from . import automa as A
from . import automa_kernels as AK
from . import data
from . import kernels as K
from . import layout as L
from .errors import N_, IllegalMoveError, InvalidSetupError
from .lending import Lent
from .moves import Buy, Move, PlaceSpecial, Square, move_from_code, square_name
from .rules import Rules
from .tables import EDITION_INDEX, bits_of, squares_of


@dataclass(frozen=True, slots=True)
class Quilt:
    """A player's 9x9 quilt board (the two 64-bit words of the kernels)."""

    lo: int
    hi: int

    @classmethod
    def from_squares(cls, squares: Iterable[Square]) -> Quilt:
        """The quilt board with ``squares`` (``(row, col)``) covered."""
        return cls(*bits_of(squares))

    @property
    def squares(self) -> frozenset[Square]:
        """The covered squares as ``(row, col)``."""
        return squares_of(self.lo, self.hi)

    @property
    def empty_squares(self) -> int:
        return data.BOARD_SIZE**2 - self.lo.bit_count() - self.hi.bit_count()

    @property
    def bits(self) -> int:
        """The covered squares as one integer, square (row, col) at bit ``9*row + col``."""
        return L.quilt_bits(self.lo, self.hi)

    def __contains__(self, square: object) -> bool:
        return square in self.squares

    def rows(self) -> list[str]:
        covered = self.squares
        size = range(data.BOARD_SIZE)
        return ["".join("#" if (r, c) in covered else "." for c in size) for r in size]

    def __str__(self) -> str:
        return "\n".join(self.rows())


@dataclass(frozen=True, slots=True)
class Player:
    """One player's side of a state."""

    buttons: int
    position: int
    income: int
    quilt: Quilt

    def income_from(self, start: int) -> int:
        """What the income marks paid this player's token on its way here from ``start``,
        at its income now (after a purchase, the income that includes the patch bought)."""
        return int(K.income_due(start, self.position, self.income))

    @property
    def next_income_mark(self) -> int | None:
        """The first button-income mark ahead of this player's time token, if any is left."""
        return next((mark for mark in data.INCOME_SPACES if mark > self.position), None)


class State:
    """A position: immutable; ``apply`` returns a new state.

    In a solo game (``rules.solo``) the person is player 0 and Automa player 1; Automa's
    turns are part of ``apply`` (the engine plays them), so the person is always the one to
    move. Automa's deck is a private part (``_solo``) that no public property shows (D6):
    front ends read ``automa``, an ``AutomaView``.
    """

    __slots__ = ("_solo", "_v", "rules")

    def __init__(self, vector: np.ndarray, rules: Rules, solo: A.Solo | None = None) -> None:
        # Internal: states come from new_game(), apply() or State.from_text().
        v = np.array(vector, dtype=np.int64)
        v.setflags(write=False)
        self._v = v
        self.rules = rules
        self._solo = solo

    # -- reading -------------------------------------------------------------------------

    @property
    def vector(self) -> np.ndarray:
        """The kernels' state vector (read-only)."""
        return self._v

    @property
    def current_player(self) -> int | None:
        """The player to move, or None once the game is over."""
        p = int(K.current_player(self._v))
        return None if p < 0 else p

    @property
    def players(self) -> tuple[Player, Player]:
        v = self._v
        a, b = (
            Player(
                buttons=int(v[L.BUTTONS + p]),
                position=int(v[L.POSITION + p]),
                income=int(v[L.INCOME + p]),
                quilt=Quilt(int(v[L.QUILT_LO + p]), int(v[L.QUILT_HI + p])),
            )
            for p in (0, 1)
        )
        return a, b

    @property
    def circle(self) -> tuple[int, ...]:
        """The patches left, clockwise from the first one offered."""
        n = int(self._v[L.CIRCLE_LEN])
        return tuple(int(x) for x in self._v[L.CIRCLE : L.CIRCLE + n])

    @property
    def offered(self) -> tuple[int, ...]:
        """The (up to three) patches that can be bought now."""
        return self.circle[: data.OFFERED_PATCHES]

    @property
    def bonus_owner(self) -> int | None:
        owner = int(self._v[L.BONUS])
        return None if owner < 0 else owner

    @property
    def first_to_finish(self) -> int | None:
        """Who reached the final space first (the tie-break), if anyone has."""
        first = int(self._v[L.FIRST])
        return None if first < 0 else first

    @property
    def on_top(self) -> int:
        """Whose time token is on top when both share a space."""
        return int(self._v[L.TOP])

    @property
    def pending_specials(self) -> int:
        """Special patches the player to move must place before anything else."""
        return int(self._v[L.PENDING])

    @property
    def special_spaces_left(self) -> tuple[int, ...]:
        """Spaces whose special patch still lies on the time board."""
        mask = int(self._v[L.SPECIALS])
        return tuple(s for i, s in enumerate(self.rules.special_spaces) if mask >> i & 1)

    def is_terminal(self) -> bool:
        return bool(K.is_terminal(self._v))

    def scores(self) -> tuple[int, int]:
        """Buttons + 7 for the bonus tile - 2 per empty square (also before the end); in a
        solo game Automa's score is its level's columns (rule 17, ``automa.score_parts``)."""
        if self._solo is not None:
            return int(K.score(self._v, 0)), sum(v for _k, v in self._automa().score_parts)
        return int(K.score(self._v, 0)), int(K.score(self._v, 1))

    def score_parts(self, player: int) -> tuple[int, int, int]:
        """What ``scores()[player]`` is made of: (buttons, bonus points, empty squares); the
        score is buttons + bonus - EMPTY_PENALTY x empty squares. For Automa "buttons" is
        its score without the tile (``automa.score_parts`` takes it apart)."""
        me = self.players[player]
        bonus = data.BONUS_POINTS if self.bonus_owner == player else 0
        if self._solo is not None and player == A.AUTOMA:
            return self.scores()[player] - bonus, bonus, 0
        return me.buttons, bonus, me.quilt.empty_squares

    def winner(self) -> int | None:
        """The winner of a finished game (ties go to the first to reach the end; rule 18
        in a solo game: the person wins with strictly more points, else by the tie-break)."""
        if not self.is_terminal():
            return None
        if self._solo is None:
            return int(K.winner(self._v))
        person, automa = self.scores()
        return 0 if AK.person_wins(person, automa, int(self._v[L.FIRST])) else 1

    # -- solo -----------------------------------------------------------------------------

    @property
    def automa(self) -> A.AutomaView | None:
        """What the person may know of Automa in a solo game (None in a two-player game)."""
        return None if self._solo is None else self._automa()

    def _automa(self) -> A.AutomaView:
        assert self._solo is not None and self.rules.solo is not None
        return A.view(self._v, self._solo, self.rules.solo)

    def automa_replies(self, move: Move) -> tuple[A.Turn, ...]:
        """The turns Automa plays after the person's ``move`` (empty in a two-player game)."""
        return self._apply_code(self.check_legal(move))[1]

    # -- moving ---------------------------------------------------------------------------

    def legal_move_codes(self) -> np.ndarray:
        """The legal moves as kernel codes (what the AI layer uses)."""
        out = np.empty(K.MAX_MOVES, dtype=np.int64)
        n = K.legal_moves(self._v, out)
        return out[:n]

    def legal_moves(self) -> list[Move]:
        """Every legal move, each distinct footprint once."""
        return [move_from_code(int(c)) for c in self.legal_move_codes()]

    def is_legal(self, move: Move) -> bool:
        try:
            self.check_legal(move)
        except IllegalMoveError:
            return False
        return True

    def check_legal(self, move: Move) -> int:
        """The move's kernel code, or IllegalMoveError saying why it is not allowed here."""
        if not isinstance(move, Move):
            raise IllegalMoveError(N_("{move} is not a move"), move=repr(move))
        code = move.code(self.rules.mode)
        if K.is_legal(self._v, code):
            return code
        template, plain, params = self._why_illegal(move)
        raise IllegalMoveError(template, move=str(move), plain=plain, **params)

    def _why_illegal(self, move: Move) -> tuple[str, str, dict[str, Any]]:
        # Only explains a verdict the kernel has already given; it decides nothing. One whole
        # sentence per reason (translators see each one complete), filled in with {move},
        # and the same reason in plain words for the person who tried it (no notation).
        p = self.current_player
        if p is None:
            return (
                N_("{move} is not allowed: the game is over"),
                N_("The game is over: no more moves."),
                {},
            )
        me = self.players[p]
        if self.pending_specials:
            if not isinstance(move, PlaceSpecial):
                return (
                    N_(
                        "{move} is not allowed: player {player} must first place a special "
                        "patch on an empty square"
                    ),
                    N_("First sew the special patch onto an empty square of your quilt."),
                    {"player": p},
                )
            return (
                N_("{move} is not allowed: {square} is already covered"),
                N_("That square is already covered ({square})."),
                {"square": square_name(move.row, move.col)},
            )
        if isinstance(move, PlaceSpecial):
            return (
                N_("{move} is not allowed: there is no special patch to place"),
                N_("There is no special patch to place."),
                {},
            )
        if isinstance(move, Buy):
            patch = data.PATCHES[move.patch_id]
            if not self.offered:
                return (
                    N_("{move} is not allowed: no patch is on offer any more"),
                    N_("No patch is on offer any more."),
                    {},
                )
            if move.patch_id not in self.offered:
                return (
                    # TRANSLATORS: {offered} is a list of patch numbers, like "1, 2, 3".
                    N_("{move} is not allowed: patch {patch} is not on offer (offered: {offered})"),
                    # TRANSLATORS: {offered} is a list of patch numbers, like "1, 2, 3".
                    N_("Patch {patch} is not on offer: you may buy {offered}."),
                    {"patch": move.patch_id, "offered": tuple(self.offered)},
                )
            if patch.buttons > me.buttons:
                return (
                    # TRANSLATORS: {price} and {buttons} are numbers of buttons (any number).
                    N_(
                        "{move} is not allowed: patch {patch} costs more buttons than player "
                        "{player} has (price: {price}, buttons: {buttons})"
                    ),
                    # TRANSLATORS: {price} and {buttons} are numbers of buttons (any number).
                    N_("You cannot afford patch {patch}: it costs {price} and you have {buttons}."),
                    {"patch": move.patch_id, "player": p, "price": patch.buttons,
                     "buttons": me.buttons},
                )  # fmt: skip
            overlap = sorted(move.squares & me.quilt.squares)
            return (
                # TRANSLATORS: {squares} are square names, like "b1 c1".
                N_("{move} is not allowed: it would overlap patches already sewn on at {squares}"),
                # TRANSLATORS: {squares} are square names, like "b1 c1".
                N_("That patch would overlap what is already sewn on at {squares}."),
                {"squares": " ".join(square_name(r, c) for r, c in overlap)},
            )
        return (
            N_("{move} is not allowed: the rules do not allow it here"),
            N_("The rules do not allow that move here."),
            {},
        )

    def apply(self, move: Move) -> State:
        """The state after ``move``; an illegal move raises IllegalMoveError."""
        return self.apply_code(self.check_legal(move))

    def apply_code(self, code: int) -> State:
        """The state after a legal kernel move code (unchecked: for the AI layer)."""
        if self._solo is None:
            v = self._v.copy()
            K.apply_move(v, code)
            return State(v, self.rules)
        return self._apply_code(code)[0]

    def _apply_code(self, code: int) -> tuple[State, tuple[A.Turn, ...]]:
        v = self._v.copy()
        K.apply_move(v, code)
        solo, automa = self._solo, self.rules.solo
        if solo is None or automa is None:
            return State(v, self.rules), ()
        turns = []
        while K.current_player(v) == A.AUTOMA:  # rule 4: Automa may take several turns
            solo, turn = A.play_turn(v, solo, automa, self.rules.special_spaces)
            turns.append(turn)
        return State(v, self.rules, solo), tuple(turns)

    # -- text -----------------------------------------------------------------------------

    def to_text(self, public: bool = False) -> str:
        """The one-line position text (see docs/notation.md). In a solo game it holds
        Automa's deck order, as a saved game must; ``public`` writes what the person sees
        instead (D6), the form to hand an engine or a hint (docs/solo.md)."""
        return POSITION_TEXT().write(self, public)

    @staticmethod
    def from_text(text: str, seed: int = 0) -> State:
        """Read a position text; a malformed one raises InvalidPositionError saying why.

        A public solo text gives a state whose Automa deck is drawn from ``seed`` among
        those consistent with it: a guess, not the game's deck (same text and seed, same
        state)."""
        return POSITION_TEXT().read(text, seed)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.rules == other.rules
            and self._solo == other._solo
            and bool(np.array_equal(self._v, other._v))
        )

    def __hash__(self) -> int:
        return hash((self.rules, self._solo, self._v.tobytes()))

    def __repr__(self) -> str:
        return f"State.from_text({self.to_text()!r})"


class PositionText(NamedTuple):
    """The position text's writer and reader, lent by ``engine/position.py`` (which sits
    over this module) when it loads."""

    write: Callable[[State, bool], str]  # (state, public)
    read: Callable[[str, int], State]  # (text, seed of a public solo text's drawn deck)


POSITION_TEXT: Lent[PositionText] = Lent("patchwork.engine.position")
MAX_AUTOMA_SEED = 2**32 - 1  # deck seeds are 32-bit, as position text writes them


def standard_circle(seed: Any = None) -> list[int]:
    """A random standard setup: patches 1-32 shuffled, the starting patch 0 last."""
    others = list(range(1, data.NUM_PATCHES))
    random.Random(seed).shuffle(others)
    return [*others, data.STARTING_PATCH]


def make_state(
    rules: Rules,
    circle: Sequence[int],
    buttons: Sequence[int] = (data.STARTING_BUTTONS, data.STARTING_BUTTONS),
    positions: Sequence[int] = (0, 0),
    incomes: Sequence[int] = (0, 0),
    boards: Sequence[tuple[int, int]] = ((0, 0), (0, 0)),
    on_top: int = 0,
    bonus_owner: int = -1,
    first_to_finish: int = -1,
    pending: int = 0,
    pending_player: int = 0,
    specials_left: Sequence[int] | None = None,
    solo: A.Solo | None = None,
) -> State:
    """Assemble a state vector from its parts (no validation: callers check their input)."""
    v = np.full(L.STATE_SIZE, -1, dtype=np.int64)
    for p in (0, 1):
        v[L.QUILT_LO + p], v[L.QUILT_HI + p] = boards[p]
        v[L.BUTTONS + p] = buttons[p]
        v[L.POSITION + p] = positions[p]
        v[L.INCOME + p] = incomes[p]
    v[L.TOP] = on_top
    v[L.BONUS] = bonus_owner
    v[L.FIRST] = first_to_finish
    v[L.PENDING] = pending
    v[L.PENDING_PLAYER] = pending_player
    v[L.EDITION] = EDITION_INDEX[rules.edition]
    v[L.MODE] = rules.mode
    spaces = rules.special_spaces
    left = spaces if specials_left is None else specials_left
    v[L.SPECIALS] = sum(1 << i for i, space in enumerate(spaces) if space in left)
    v[L.CIRCLE_LEN] = len(circle)
    v[L.CIRCLE : L.CIRCLE + len(circle)] = circle
    return State(v, rules, solo)


def check_circle(circle: object, complete: bool = True) -> list[int]:
    """Validate a circle: distinct patch ids (all 33 of them when ``complete``)."""
    if isinstance(circle, np.ndarray):
        circle = circle.tolist()
    if isinstance(circle, str | bytes) or not isinstance(circle, Sequence):
        raise InvalidSetupError("the circle must be a list of patch ids")
    ids: list[int] = []
    for x in circle:
        if isinstance(x, bool) or not isinstance(x, int | np.integer):
            raise InvalidSetupError(f"circle entry {x!r} is not a patch id")
        if not 0 <= x < data.NUM_PATCHES:
            raise InvalidSetupError(
                f"circle entry {x} is not a patch id (0-{data.NUM_PATCHES - 1})"
            )
        ids.append(int(x))
    repeated = sorted({x for x in ids if ids.count(x) > 1})
    if repeated:
        raise InvalidSetupError(f"patch(es) {repeated} appear more than once in the circle")
    if complete and len(ids) != data.NUM_PATCHES:
        missing = sorted(set(range(data.NUM_PATCHES)) - set(ids))
        raise InvalidSetupError(
            f"the circle must hold all {data.NUM_PATCHES} patches; missing {missing}"
        )
    return ids


def new_game(
    seed: Any = None,
    circle: Sequence[int] | None = None,
    rules: Rules | None = None,
    first_player: int = 0,
    automa_seed: int | None = None,
) -> State:
    """The opening state: from an explicit ``circle`` (33 ids clockwise from the first one
    offered), or a standard random circle from ``seed`` (reproducible), or a fresh one.

    A solo game (``rules.solo``) also shuffles Automa's deck (rule 2) from ``automa_seed``,
    or from one ``seed`` gives; the person moves first (rule 4)."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidSetupError("rules must be a patchwork.Rules")
    if (
        not isinstance(first_player, int | np.integer)
        or isinstance(first_player, bool)
        or (first_player not in (0, 1))
    ):
        raise InvalidSetupError(f"first_player must be 0 or 1, not {first_player!r}")
    if circle is not None and seed is not None:
        raise InvalidSetupError("give a seed or a circle, not both")
    ids = check_circle(circle) if circle is not None else standard_circle(seed)
    if rules.solo is None:
        if automa_seed is not None:
            raise InvalidSetupError("automa_seed is for solo games (Rules(solo=Automa(...)))")
        return make_state(rules, ids, on_top=first_player)
    if first_player != 0:
        raise InvalidSetupError("in a solo game the person (player 0) moves first")
    if automa_seed is None:
        automa_seed = A.deck_seed(seed)
    elif (
        isinstance(automa_seed, bool)
        or not isinstance(automa_seed, int)
        or not 0 <= automa_seed <= MAX_AUTOMA_SEED
    ):
        raise InvalidSetupError(
            f"automa_seed must be a whole number 0-{MAX_AUTOMA_SEED}, not {automa_seed!r}"
        )
    solo = A.new_solo(rules.solo, automa_seed)
    return make_state(rules, ids, buttons=(data.STARTING_BUTTONS, 0), solo=solo)
