"""The CodinGame Patchwork arena's input and output, and its conventions, over our engine.

What a bot reads (see docs/protocol.md, "CodinGame"):

    incomeEvents / incomeTime... / patchEvents / patchTime...      once, before its first turn
    myButtons myTime myEarning, 9 quilt rows, the same for the opponent,
    patches, one line per patch left (id earning price time shape), specialPatchId,
    opponentMoves, one line per opponent move                     every turn

and what it answers: ``SKIP`` or ``PLAY patchId x y horizontalFlip rotations`` (then, optionally,
a chat message). The arena plays the original edition's time board and numbers patches its own
way (``Patch.codingame_id``); its shapes are drawn in their own orientation, which for most
patches is not the one printed in ``patches.json``, so a CodinGame (flip, rotations) pair is
mapped onto our orientation by comparing the squares covered, never by arithmetic.

Legality always comes from the engine: the referee's conventions (an invalid PLAY becomes
SKIP; SKIP while holding a special patch places it on the first free square in row-major
order) are implemented by asking the engine which moves are legal.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

from ..engine import (
    PATCHES,
    Advance,
    Buy,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    PatchworkError,
    PlaceSpecial,
    Quilt,
    Rules,
    State,
    hidden,
)
from ..engine import kernels as K
from ..engine.data import BOARD_SIZE, FINAL_SPACE, INCOME_SPACES
from ..engine.position import quilt_text

RULES = Rules(edition="original", rotation=True, flip=True)
FIRST_TURN_SECONDS = 1.0
TURN_SECONDS = 0.1
MAX_TURNS = 80
ORIENTATIONS = 8

# The arena's own drawing of every patch, by its patch id ('O' covered, rows joined by '|').
# Numbers (earning, price, time) are not repeated here: they are ours, by codingame_id.
SHAPES: dict[int, str] = {
    0: "OO.|.OO",
    1: "OO.|.OO|OO.",
    2: "OO.|.OO|..O",
    3: "OOOO|O...",
    4: "O...|OOOO|O...",
    5: "OO.|.OO|.OO",
    6: "..O..|OOOOO|..O..",
    7: "OO.|.OO",
    8: ".O..|OOOO|.O..",
    9: "OOOO",
    10: "O...|OOOO|...O",
    11: "OOO|OO.",
    12: "OOO|.O.|.O.",
    13: "OOOO|.O..",
    14: "OOO|O.O",
    15: "OOOO|OO..",
    16: "OOO.|..OO",
    17: "OOO|.O.",
    18: "OOO",
    19: "OOO|O..",
    20: "O.O|OOO|O.O",
    21: ".OO.|OOOO|.OO.",
    22: "OOO.|.OOO",
    23: ".O..|OOOO|..O.",
    24: "OOOOO",
    25: "OOOO|O..O",
    26: "OO|OO",
    27: ".O.|OOO|.O.",
    28: ".OO.|OOOO",
    29: "..O|OOO",
    30: "OO|.O",
    31: "O.|OO",
    32: "OO",
}

TO_OURS: dict[int, int] = {p.codingame_id: p.id for p in PATCHES}
TO_CODINGAME: dict[int, int] = {p.id: p.codingame_id for p in PATCHES}

Cells = frozenset[tuple[int, int]]


class CodinGameError(PatchworkError):
    """Input or output that does not follow the CodinGame format."""


# -- shapes and orientations ----------------------------------------------------------------


def shape_cells(shape: str) -> Cells:
    """The squares of a shape string, ``(row, col)`` from its top-left corner."""
    return frozenset(
        (r, c) for r, row in enumerate(shape.split("|")) for c, ch in enumerate(row) if ch == "O"
    )


def cells_shape(cells: Cells) -> str:
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    return "|".join(
        "".join("O" if (r, c) in cells else "." for c in range(width)) for r in range(height)
    )


def _turn_clockwise(cells: Cells) -> Cells:
    height = 1 + max(r for r, _ in cells)
    return frozenset((c, height - 1 - r) for r, c in cells)


def _mirror(cells: Cells) -> Cells:
    width = 1 + max(c for _, c in cells)
    return frozenset((r, width - 1 - c) for r, c in cells)


def codingame_cells(codingame_id: int, flip: bool, rotations: int) -> Cells:
    """The squares the arena's patch covers after mirroring (if ``flip``), then ``rotations``
    clockwise quarter turns, from the top-left corner of the result's bounding box."""
    cells = shape_cells(SHAPES[codingame_id])
    if flip:
        cells = _mirror(cells)
    for _ in range(rotations % 4):
        cells = _turn_clockwise(cells)
    return cells


@cache
def _our_cells(patch_id: int, orientation: int) -> Cells:
    # The engine says which squares each of our orientations covers (anchored on a1).
    return Buy(patch_id, orientation, 0, 0).squares


@cache
def to_orientation(codingame_id: int, flip: bool, rotations: int) -> int:
    """Our orientation (0-7) covering what the arena's (flip, rotations) covers."""
    target = codingame_cells(codingame_id, flip, rotations)
    patch = TO_OURS[codingame_id]
    for orientation in range(ORIENTATIONS):
        if _our_cells(patch, orientation) == target:
            return orientation
    raise AssertionError(f"no orientation of patch {patch} matches codingame patch {codingame_id}")


@cache
def to_flip_rotations(patch_id: int, orientation: int) -> tuple[int, int]:
    """The arena's (horizontalFlip, rotations) covering what our orientation covers."""
    target = _our_cells(patch_id, orientation)
    codingame_id = TO_CODINGAME[patch_id]
    for flip in (0, 1):
        for rotations in range(4):
            if codingame_cells(codingame_id, bool(flip), rotations) == target:
                return flip, rotations
    raise AssertionError(f"no codingame orientation matches {patch_id} in {orientation}")


# -- commands (the bot's output) ------------------------------------------------------------

_INT = re.compile(r"[+-]?\d{1,10}")  # numbers in the referee's input (the bot's side)
_INT_RANGE = 2**31


@dataclass(frozen=True)
class Play:
    """``PLAY patchId x y [horizontalFlip rotations]``: x is the column, y the row.

    ``rotations`` is what the arena keeps of the bot's number: its remainder modulo 4 with
    the number's sign (Kotlin's ``%``), so -3 to 3."""

    patch_id: int
    x: int
    y: int
    flip: bool = False
    rotations: int = 0
    message: str = ""

    def __str__(self) -> str:
        text = self.logged()
        return f"{text} {self.message}" if self.message else text

    def logged(self) -> str:
        """The command as the arena reports it to the opponent: no chat, the flip as 0 or 1."""
        return f"PLAY {self.patch_id} {self.x} {self.y} {int(self.flip)} {self.rotations}"


@dataclass(frozen=True)
class Skip:
    message: str = ""

    def __str__(self) -> str:
        return f"SKIP {self.message}" if self.message else "SKIP"


Command = Play | Skip


def arena_int(token: str) -> int | None:
    """A token read as the arena reads a number (Kotlin's ``toIntOrNull``): an optional sign,
    then decimal digits of any script, within 32 bits; None otherwise."""
    digits = token[1:] if token[:1] in ("+", "-") else token
    if not digits or not digits.isdecimal():
        return None
    value = 0
    for ch in digits:
        value = 10 * value + unicodedata.decimal(ch)
        if value > _INT_RANGE:
            return None
    value = -value if token[0] == "-" else value
    return value if -_INT_RANGE <= value < _INT_RANGE else None


def _remainder(value: int, modulus: int) -> int:
    """``value % modulus`` as Kotlin computes it: the sign of ``value``."""
    rest = abs(value) % modulus
    return -rest if value < 0 else rest


def parse_command(line: str) -> Command | None:
    """Read a bot's answer as the arena does; None for an unrecognised command (which loses).

    The line (less its line ending) is split on single spaces, nothing trimmed, so a line
    starting with a space is unrecognised. After ``PLAY`` the id, x and y must be numbers;
    the fifth token is the flip (only 1 flips) and the sixth the rotations, each read when it
    is a number (the rotations even when the flip is not), rotations modulo 4 keeping their
    sign; the chat message is what follows the last number read in order.
    """
    tokens = line.split(" ")
    if tokens[0] == "SKIP":
        return Skip(" ".join(tokens[1:]))
    if tokens[0] != "PLAY" or len(tokens) < 4:
        return None
    patch_id, x, y = (arena_int(t) for t in tokens[1:4])
    if patch_id is None or x is None or y is None:
        return None
    flip = arena_int(tokens[4]) if len(tokens) > 4 else None
    rotations = arena_int(tokens[5]) if len(tokens) > 5 else None
    used = 4 if flip is None else 5 if rotations is None else 6
    return Play(
        patch_id=patch_id,
        x=x,
        y=y,
        flip=flip == 1,
        rotations=_remainder(rotations or 0, 4),
        message=" ".join(tokens[used:]),
    )


def special_patch_id(state: State) -> int:
    """The arena's id for the special patch the player to move must place (0 if none).

    The arena numbers its special patches minus their time-board space and hands them out in
    that order: the next one is the first not yet placed.
    """
    if not state.pending_specials:
        return 0
    spaces = state.rules.special_spaces
    gone = len(spaces) - len(state.special_spaces_left)
    placed = gone - state.pending_specials
    return -spaces[min(max(placed, 0), len(spaces) - 1)]


def _where(play: Play) -> str:
    return f"x={play.x} y={play.y}"


def _refusal(play: Play, state: State, patch: int) -> str:
    """Why the engine refused a buy, told in the arena's terms (its ids, x and y); the
    engine has decided, this only explains, in the order the arena checks."""
    if patch not in state.offered:
        offered = ", ".join(str(TO_CODINGAME[i]) for i in state.offered)
        return f"patch {play.patch_id} is not among the first three ({offered})"
    price, player = PATCHES[patch].buttons, state.current_player
    buttons = state.players[player].buttons if player is not None else 0
    if price > buttons:
        return f"patch {play.patch_id} costs {price} buttons, the bot has {buttons}"
    turned = f"flip {int(play.flip)} rotations {play.rotations}"
    return f"patch {play.patch_id} ({turned}) at {_where(play)} sticks out or would overlap"


def move_of_play(play: Play, state: State) -> Move:
    """Our move for a PLAY, or IllegalMoveError/InvalidMoveError saying in the arena's terms
    why the arena would refuse it (an unknown id, a patch not on offer, too dear, off the
    board, overlapping).

    The arena turns a patch through the list of its eight orientations, the flip's four
    first: a negative remainder with the flip reaches back into the unflipped four (flip 1
    and -1 rotations is 3 rotations unflipped). Where the arena's own referee fails (a
    negative x or y, or negative rotations without the flip, index its arrays out of
    range), the PLAY is taken as invalid."""
    if play.x < 0 or play.y < 0 or play.x >= BOARD_SIZE or play.y >= BOARD_SIZE:
        raise InvalidMoveError(f"{_where(play)} is off the quilt board (0-8)")
    if play.rotations < 0 and not play.flip:
        raise InvalidMoveError(
            f"rotations {play.rotations} without the flip (the arena's referee fails on it)"
        )
    flip, rotations = (
        (False, 4 + play.rotations) if play.rotations < 0 else (play.flip, play.rotations)
    )
    special = special_patch_id(state)
    if special:
        if play.patch_id != special:
            raise IllegalMoveError(f"special patch {special} must be placed first")
        move: Move = PlaceSpecial(play.y, play.x)
        if not state.is_legal(move):
            raise IllegalMoveError(f"{_where(play)} is already covered")
        return move
    patch = TO_OURS.get(play.patch_id)
    if patch is None:
        raise InvalidMoveError(f"there is no patch {play.patch_id}")
    try:
        move = Buy(patch, to_orientation(play.patch_id, flip, rotations), play.y, play.x)
    except InvalidMoveError:
        raise InvalidMoveError(_refusal(play, state, patch)) from None
    if not state.is_legal(move):
        raise IllegalMoveError(_refusal(play, state, patch))
    return move


def skip_move(state: State) -> Move:
    """SKIP as the arena plays it: advance, or with a special patch to place, place it on the
    first free square in row-major order (the first such legal move the engine lists)."""
    if not state.pending_specials:
        return Advance()
    places = [m for m in state.legal_moves() if isinstance(m, PlaceSpecial)]
    if not places:
        raise IllegalMoveError("a special patch is pending but the engine offers no square")
    return min(places, key=lambda m: (m.row, m.col))


def referee_move(command: Command, state: State) -> tuple[Move, str | None]:
    """The move the arena plays for a command, and a note (in the arena's terms) when it was
    not the one asked for."""
    if isinstance(command, Play):
        try:
            return move_of_play(command, state), None
        except PatchworkError as e:
            move = skip_move(state)
            return move, f"invalid PLAY ({e}): played as SKIP{_skip_result(move)}"
    move = skip_move(state)
    if isinstance(move, PlaceSpecial):
        return move, f"SKIP while holding a special patch{_skip_result(move)}"
    return move, None


def _skip_result(move: Move) -> str:
    if isinstance(move, PlaceSpecial):
        return f", which places it on the first free square, x={move.col} y={move.row}"
    return ""


def logged_command(command: Command, state: State) -> str:
    """The opponent's log line for a command played in ``state``, as the arena writes it:
    a PLAY it accepted as the bot gave it (its flip and rotations, not ours), otherwise the
    move the referee made of it."""
    move, note = referee_move(command, state)
    if isinstance(command, Play) and note is None:
        return command.logged()
    return command_text(move, state)


def command_of_move(move: Move, state: State) -> Play | Skip:
    """The arena's command for one of our moves in ``state`` (before it is played)."""
    if isinstance(move, Advance):
        return Skip()
    if isinstance(move, PlaceSpecial):
        return Play(special_patch_id(state), move.col, move.row, False, 0)
    if isinstance(move, Buy):
        flip, rotations = to_flip_rotations(move.patch_id, move.orientation)
        return Play(TO_CODINGAME[move.patch_id], move.col, move.row, bool(flip), rotations)
    raise CodinGameError(f"{move!r} is not a move")


def command_text(move: Move, state: State) -> str:
    """``SKIP`` or ``PLAY id x y flip rotations`` (as logged in opponentMove lines)."""
    return str(command_of_move(move, state))


# -- the referee's input ----------------------------------------------------------------------


def init_lines(rules: Rules = RULES) -> list[str]:
    """The lines sent once, before a bot's first turn."""
    specials = rules.special_spaces
    return [
        str(len(INCOME_SPACES)),
        " ".join(str(s) for s in INCOME_SPACES),
        str(len(specials)),
        " ".join(str(s) for s in specials),
    ]


def patch_line(patch_id: int) -> str:
    """``id earning price time shape`` for one of our patches, in the arena's terms."""
    patch = PATCHES[patch_id]
    cg = patch.codingame_id
    return f"{cg} {patch.income} {patch.buttons} {patch.time} {SHAPES[cg]}"


def _side_lines(state: State, player: int) -> list[str]:
    p = state.players[player]
    rows = [row.replace("#", "O") for row in p.quilt.rows()]
    return [f"{p.buttons} {p.position} {p.income}", *rows]


def turn_lines(state: State, opponent_moves: Sequence[str]) -> list[str]:
    """The lines the player to move in ``state`` reads this turn."""
    me = state.current_player
    if me is None:
        raise CodinGameError("the game is over: nobody reads a turn")
    circle = state.circle
    return [
        *_side_lines(state, me),
        *_side_lines(state, 1 - me),
        str(len(circle)),
        *(patch_line(i) for i in circle),
        str(special_patch_id(state)),
        str(len(opponent_moves)),
        *opponent_moves,
    ]


# -- reading that input (the bot's side) --------------------------------------------------------


@dataclass(frozen=True)
class InitView:
    income_spaces: tuple[int, ...]
    special_spaces: tuple[int, ...]


@dataclass(frozen=True)
class SideView:
    buttons: int
    time: int
    earning: int
    rows: tuple[str, ...]


@dataclass(frozen=True)
class PatchView:
    id: int
    earning: int
    price: int
    time: int
    shape: str


@dataclass(frozen=True)
class TurnView:
    me: SideView
    opponent: SideView
    patches: tuple[PatchView, ...]
    special_id: int
    opponent_moves: tuple[str, ...]


LineSource = Callable[[], str]  # the next input line; raises EOFError at the end


def _ints(line: str, count: int, what: str) -> list[int]:
    tokens = line.split()
    if len(tokens) != count or not all(_INT.fullmatch(t) for t in tokens):
        raise CodinGameError(f"expected {what} ({count} whole numbers), got {line!r}")
    return [int(t) for t in tokens]


def _count(line: str, what: str, most: int) -> int:
    (n,) = _ints(line, 1, what)
    if not 0 <= n <= most:
        raise CodinGameError(f"{what} {n} is out of range (0-{most})")
    return n


def read_init(next_line: LineSource) -> InitView:
    n = _count(next_line(), "incomeEvents", FINAL_SPACE)
    income = tuple(_ints(next_line(), n, "incomeTime values"))  # an empty line when n is 0
    m = _count(next_line(), "patchEvents", FINAL_SPACE)
    specials = tuple(_ints(next_line(), m, "patchTime values"))
    return InitView(income, specials)


def _read_side(next_line: LineSource, who: str) -> SideView:
    buttons, time, earning = _ints(next_line(), 3, f"{who}Buttons {who}Time {who}Earning")
    rows = []
    for r in range(BOARD_SIZE):
        row = next_line().strip()
        if len(row) != BOARD_SIZE or set(row) - {"O", "."}:
            raise CodinGameError(f"{who} quilt row {r}: expected 9 of 'O' and '.', got {row!r}")
        rows.append(row)
    return SideView(buttons, time, earning, tuple(rows))


def read_turn(next_line: LineSource) -> TurnView:
    me = _read_side(next_line, "my")
    opponent = _read_side(next_line, "opponent")
    n = _count(next_line(), "patches", len(PATCHES))
    patches = []
    for _ in range(n):
        line = next_line()
        tokens = line.split()
        if len(tokens) != 5 or not all(_INT.fullmatch(t) for t in tokens[:4]):
            raise CodinGameError(f"expected 'patchId earning price time shape', got {line!r}")
        pid, earning, price, time = (int(t) for t in tokens[:4])
        patches.append(PatchView(pid, earning, price, time, tokens[4]))
    (special,) = _ints(next_line(), 1, "specialPatchId")
    k = _count(next_line(), "opponentMoves", 1000)
    moves = tuple(next_line().strip() for _ in range(k))
    return TurnView(me, opponent, tuple(patches), special, moves)


# -- a state from what a bot sees -------------------------------------------------------------


def _quilt_field(rows: Sequence[str]) -> str:
    return quilt_text(Quilt.from_squares(shape_cells("|".join(rows))))


def state_from_view(view: TurnView, me: int, hint: State | None = None) -> State:
    """The position a bot sees, with ``me`` (0 or 1) to move.

    The input does not say whose token is on top, who took the bonus tile first when both
    quilts have a 7x7, or who reached space 53 first; ``hint`` (the state the bot expects,
    e.g. its last one with the opponent's moves played) settles those when it agrees with the
    input, and otherwise the most likely reading is taken. When everything agrees the hint
    itself is returned.
    """
    rules = RULES
    unknown = [p.id for p in view.patches if p.id not in TO_OURS]
    if unknown:
        raise CodinGameError(f"unknown patch id(s) {unknown}")
    circle = ",".join(str(TO_OURS[p.id]) for p in view.patches) or "-"
    sides = {me: view.me, 1 - me: view.opponent}
    positions = {p: sides[p].time for p in (0, 1)}
    for p, side in sides.items():
        if not 0 <= side.time <= FINAL_SPACE:
            raise CodinGameError(f"time {side.time} is off the time board (0-{FINAL_SPACE})")
        if side.buttons < 0 or side.earning < 0:
            raise CodinGameError(f"player {p}'s buttons and earning cannot be negative")
    players = [
        f"{sides[p].time},{sides[p].buttons},{sides[p].earning},{_quilt_field(sides[p].rows)}"
        for p in (0, 1)
    ]
    # What the rules do not settle comes from the hint, or else the likeliest reading: apart,
    # the opponent on top (a fresh game has the first player on top).
    tokens = (positions[0], positions[1])
    top = hidden.on_top(tokens, me)
    if top is None:
        top = hint.on_top if hint is not None else 1 - me
    first = hidden.first_to_finish(tokens, me)
    spaces = rules.special_spaces
    reached = max(positions.values())
    left = [s for s in spaces if s > reached]
    pending = ""
    if view.special_id:
        if -view.special_id not in spaces:
            raise CodinGameError(f"special patch id {view.special_id} is not minus a patch space")
        placed = spaces.index(-view.special_id)
        count = max(len(spaces) - len(left) - placed, 1)
        pending = f"{count}@{me}"
    fields = [
        f"{rules.edition}:rf",
        circle,
        *players,
        str(top),
        "-",
        "-" if first is None else str(first),
        pending or "-",
        ",".join(str(s) for s in left) or "-",
    ]
    try:
        state = State.from_text(" ".join(fields))
    except PatchworkError as e:
        raise CodinGameError(f"the input describes no position: {e}") from None
    covers = [p for p in (0, 1) if K.covers_bonus_square(state.vector, p)]
    owner = None
    if len(covers) == 1:
        owner = covers[0]
    elif len(covers) == 2:
        owner = hint.bonus_owner if hint is not None and hint.bonus_owner is not None else 1 - me
    if owner is not None:
        fields[5] = str(owner)
        state = State.from_text(" ".join(fields))
    if state.current_player != me:
        raise CodinGameError("the input does not make it this bot's turn")
    if hint is not None and hint == state:
        return hint
    return state
