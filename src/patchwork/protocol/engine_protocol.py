"""The text engine protocol's vocabulary, shared by the engine and the programs that drive it:
option declarations, ``position`` and ``go`` arguments, ``info`` lines and clock budgeting.

The protocol itself (every command and answer, with a sample session) is in docs/protocol.md.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..engine import Game, Move, PatchworkError, Rules, State, new_game
from ..engine.data import FINAL_SPACE
from ..engine.position import FIELDS, SOLO_FIELDS, is_public_text
from ..engine.state import check_circle

PROTOCOL_VERSION = 1
_SEPARATOR = re.compile(r"[ \t]+")


def words(line: str) -> list[str]:
    """The words of a protocol line: separated by runs of spaces and tabs only (docs/protocol.md),
    so that another kind of space, such as U+2028, is part of a word, never a separator."""
    return [w for w in _SEPARATOR.split(line.strip(" \t\r\n")) if w]


MAX_SEED = 2**62  # the same seeds as the server's games
TEXT_FIELDS = (len(FIELDS), len(FIELDS) + len(SOLO_FIELDS))  # two-player, solo
HANDSHAKE = "patchwork"
HANDSHAKE_OK = "patchworkok"
COMMANDS = (
    "patchwork",
    "isready",
    "setoption",
    "newgame",
    "position",
    "go",
    "ponderhit",
    "stop",
    "show",
    "legal",
    "quit",
)


class ProtocolError(PatchworkError):
    """A protocol line that cannot be read, or asks for something impossible."""


# -- options ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One ``option name N type T default D [min a max b] [var v]...`` declaration."""

    name: str
    type: str  # "spin", "check", "combo" or "string"
    default: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    help: str = ""

    def line(self) -> str:
        parts = ["option", "name", self.name, "type", self.type, "default", self.default]
        if self.type == "spin":
            parts += ["min", str(self.min), "max", str(self.max)]
        for choice in self.choices:
            parts += ["var", choice]
        return " ".join(parts)

    def check(self, value: str) -> str:
        """``value`` in its canonical form, or ProtocolError saying what is allowed."""
        v = value.strip()
        if self.type == "spin":
            try:
                n = int(v)
            except ValueError:
                raise ProtocolError(f"option {self.name} takes a whole number, not {v!r}") from None
            assert self.min is not None and self.max is not None
            if not self.min <= n <= self.max:
                raise ProtocolError(
                    f"option {self.name} must be {self.min}-{self.max}, not {n}"
                ) from None
            return str(n)
        if self.type == "check":
            low = v.lower()
            if low not in ("true", "false"):
                raise ProtocolError(f"option {self.name} is true or false, not {v!r}")
            return low
        if self.type == "combo":
            for choice in self.choices:
                if choice.lower() == v.lower():
                    return choice
            raise ProtocolError(
                f"option {self.name} is one of {', '.join(self.choices)}, not {v!r}"
            )
        return v

    @classmethod
    def parse(cls, line: str) -> OptionSpec:
        """Read a declaration (names may hold spaces; ``type`` ends the name)."""
        tokens = words(line)
        if len(tokens) < 5 or tokens[:2] != ["option", "name"] or "type" not in tokens:
            raise ProtocolError(f"not an option declaration: {line!r}")
        t = tokens.index("type")
        name = " ".join(tokens[2:t])
        rest = tokens[t + 1 :]
        if not name or not rest:
            raise ProtocolError(f"not an option declaration: {line!r}")
        kind, rest = rest[0], rest[1:]
        values: dict[str, str] = {}
        choices: list[str] = []
        i = 0
        while i + 1 < len(rest):
            key, value = rest[i], rest[i + 1]
            if key == "var":
                choices.append(value)
            else:
                values[key] = value
            i += 2
        try:
            low = int(values["min"]) if "min" in values else None
            high = int(values["max"]) if "max" in values else None
        except ValueError:
            raise ProtocolError(f"option {name}: min and max must be numbers") from None
        return cls(name, kind, values.get("default", ""), low, high, tuple(choices))


def parse_setoption(args: Sequence[str]) -> tuple[str, str]:
    """``setoption name N value V`` arguments (after the command) as (name, value). Every
    option takes a value (there are no buttons), so a line without one is refused as
    malformed rather than read as an option named, say, 'Level level3'."""
    if args[:1] != ["name"] or "value" not in args:
        shown = _shown(" ".join(["setoption", *args]))
        raise ProtocolError(f"setoption: write 'setoption name NAME value VALUE', not {shown!r}")
    v = list(args).index("value")
    name, value = " ".join(args[1:v]), " ".join(args[v + 1 :])
    if not name:
        raise ProtocolError("setoption: the option name is missing")
    return name, value


# -- position -------------------------------------------------------------------------------------


class PositionSetup(NamedTuple):
    """A ``position`` command read: the start state, the moves after it, and whether the
    start was a solo position in the public form (its Automa deck then a drawn guess)."""

    start: State
    moves: list[Move]
    public: bool


def parse_position(args: Sequence[str], rules: Rules, deck_seed: int = 0) -> PositionSetup:
    """``position`` arguments as (start state, moves, public), every move checked by the engine.

        position seed 7 [first 1] [moves A 17r90@c4 ...]
        position circle 5,12,...,0 [first 0] [moves ...]
        position text <the 9 fields of a position text, 13 in a solo game> [moves ...]

    A setup from a seed or circle is played under ``rules`` (the engine's options). A solo
    position in the public form gets an Automa deck drawn from ``deck_seed`` (a guess: see
    ``State.from_text``), so it takes only moves that Automa does not answer: its answer
    would come from the guess, not from the game's deck.
    """
    words = list(args)
    moves_at = words.index("moves") if "moves" in words else len(words)
    setup, move_texts = words[:moves_at], words[moves_at + 1 :]
    if not setup:
        missing = "the setup is missing before 'moves'" if words else "the setup is missing"
        raise ProtocolError(f"position: {missing}: give 'seed N', 'circle ID,ID,...' or 'text ...'")
    kind = setup[0]
    public = False
    try:
        if kind == "text":
            fields = setup[1:]
            if len(fields) not in TEXT_FIELDS:
                raise ProtocolError(
                    f"position text: expected the {TEXT_FIELDS[0]} fields of a position text "
                    f"({TEXT_FIELDS[1]} in a solo game), got {len(fields)}"
                )
            text = " ".join(fields)
            public = is_public_text(text)
            start = State.from_text(text, seed=deck_seed)
        elif kind in ("seed", "circle"):
            if len(setup) not in (2, 4) or (len(setup) == 4 and setup[2] != "first"):
                raise ProtocolError(f"position {kind}: write 'position {kind} VALUE [first 0|1]'")
            first = 0
            if len(setup) == 4:
                if setup[3] not in ("0", "1"):
                    raise ProtocolError(f"position: first must be 0 or 1, not {setup[3]!r}")
                first = int(setup[3])
            if kind == "seed":
                seed = _whole(setup[1])
                if seed is None or seed > MAX_SEED:
                    raise ProtocolError(
                        f"position seed: {_shown(setup[1])!r} is not a whole number "
                        f"from 0 to {MAX_SEED} (2^62)"
                    )
                start = new_game(seed=seed, rules=rules, first_player=first)
            else:
                ids = [_whole(x) for x in setup[1].split(",")]
                if any(i is None for i in ids):
                    raise ProtocolError(
                        f"position circle: {_shown(setup[1])!r} is not a comma-separated list "
                        "of ids"
                    )
                start = new_game(circle=check_circle(ids), rules=rules, first_player=first)
        else:
            raise ProtocolError(f"position: unknown setup {kind!r} (use seed, circle or text)")
    except ProtocolError:
        raise
    except PatchworkError as e:
        raise ProtocolError(f"position: {e}") from None
    game = Game(start)
    for i, text in enumerate(move_texts, 1):
        try:
            move = Move.parse(text, game.state)
            if public and game.state.automa_replies(move):
                raise ProtocolError(
                    f"position: move {i} ({text}): Automa would answer it from its deck, "
                    "which a public solo position leaves out: send the position after "
                    "Automa's turns instead"
                )
            game.push(move)
        except ProtocolError:
            raise
        except PatchworkError as e:
            raise ProtocolError(f"position: move {i} ({text}): {e}") from None
    return PositionSetup(start, game.moves, public)


def _whole(text: str) -> int | None:
    """A whole number written in ASCII digits (no sign), or None."""
    if not (text.isascii() and text.isdigit()) or len(text) > 30:
        return None
    return int(text)


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def position_command(state: State) -> str:
    """The ``position`` line that sets up ``state``: exactly, or for a solo game in the
    public form, which leaves out Automa's deck order (D6: an engine may not peek)."""
    return f"position text {state.to_text(public=True)}"


# -- go -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoParams:
    """What a ``go`` asks for: a fixed time, an iteration count, clocks, or until ``stop``."""

    movetime: float | None = None  # seconds
    iterations: int | None = None
    clock: tuple[float, float] | None = None  # seconds left, player 0 and player 1
    increment: tuple[float, float] = (0.0, 0.0)
    movestogo: int | None = None
    infinite: bool = False
    ponder: bool = False  # think on the opponent's time until ponderhit (or stop)

    def line(self) -> str:
        parts = ["go"]
        if self.movetime is not None:
            parts += ["movetime", str(round(self.movetime * 1000))]
        if self.iterations is not None:
            parts += ["iterations", str(self.iterations)]
        if self.clock is not None:
            parts += ["time0", str(round(self.clock[0] * 1000))]
            parts += ["time1", str(round(self.clock[1] * 1000))]
            if any(self.increment):
                parts += ["inc0", str(round(self.increment[0] * 1000))]
                parts += ["inc1", str(round(self.increment[1] * 1000))]
            if self.movestogo is not None:
                parts += ["movestogo", str(self.movestogo)]
        if self.infinite:
            parts.append("infinite")
        if self.ponder:
            parts.append("ponder")
        return " ".join(parts)


_GO_NUMBERS = ("movetime", "iterations", "time0", "time1", "inc0", "inc1", "movestogo")


def parse_go(args: Sequence[str]) -> GoParams:
    values: dict[str, int] = {}
    flags = {"infinite": False, "ponder": False}
    i = 0
    while i < len(args):
        key = args[i]
        if key in flags:
            flags[key] = True
            i += 1
            continue
        if key not in _GO_NUMBERS:
            raise ProtocolError(
                f"go: unknown parameter {key!r} (use movetime, iterations, time0, time1, "
                "inc0, inc1, movestogo, infinite or ponder)"
            )
        if i + 1 >= len(args):
            raise ProtocolError(f"go: {key} needs a value")
        try:
            value = int(args[i + 1])
        except ValueError:
            raise ProtocolError(f"go: {key} takes a whole number, not {args[i + 1]!r}") from None
        low = 1 if key in ("movetime", "iterations", "movestogo") else 0
        if value < low:
            raise ProtocolError(f"go: {key} must be at least {low}, not {value}")
        values[key] = value
        i += 2
    if ("time0" in values) != ("time1" in values):
        raise ProtocolError("go: give both time0 and time1 (milliseconds left for each player)")
    clock = None
    if "time0" in values:
        clock = (values["time0"] / 1000, values["time1"] / 1000)
    elif any(k in values for k in ("inc0", "inc1", "movestogo")):
        raise ProtocolError("go: inc0, inc1 and movestogo go with time0 and time1")
    return GoParams(
        movetime=values["movetime"] / 1000 if "movetime" in values else None,
        iterations=values.get("iterations"),
        clock=clock,
        increment=(values.get("inc0", 0) / 1000, values.get("inc1", 0) / 1000),
        movestogo=values.get("movestogo"),
        infinite=flags["infinite"],
        ponder=flags["ponder"],
    )


def allot_time(
    left: float, increment: float, position: int, movestogo: int | None, overhead: float
) -> float:
    """Seconds to spend on this move with ``left`` seconds on the clock: an even share of what
    is left over the moves still to come (a player makes a move every ~2.5 time-board spaces),
    plus most of the increment, never more than 40% of the clock, minus the overhead."""
    to_go = movestogo if movestogo else max(3, math.ceil((FINAL_SPACE - position) / 2.5))
    share = left / to_go + 0.9 * increment
    budget = min(share, 0.4 * left) - overhead
    return max(budget, 0.005)


# -- info -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Info:
    """One ``info`` line: progress of a search, from the point of view of the player to move."""

    iterations: int | None = None
    seconds: float | None = None
    speed: int | None = None
    nodes: int | None = None
    win_probability: float | None = None
    margin: float | None = None
    exact: bool = False
    pv: tuple[str, ...] = ()
    string: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def line(self) -> str:
        if self.string is not None:
            return f"info string {self.string}"
        parts = ["info"]
        if self.iterations is not None:
            parts += ["iterations", str(self.iterations)]
        if self.seconds is not None:
            parts += ["time", str(round(self.seconds * 1000))]
        if self.speed is not None:
            parts += ["speed", str(self.speed)]
        if self.nodes is not None:
            parts += ["nodes", str(self.nodes)]
        if self.win_probability is not None:
            parts += ["winprob", f"{self.win_probability:.3f}"]
        if self.margin is not None:
            parts += ["margin", f"{self.margin:.1f}"]
        if self.exact:
            parts += ["exact", "yes"]
        if self.pv:
            parts += ["pv", *self.pv]
        return " ".join(parts)

    @classmethod
    def parse(cls, line: str) -> Info:
        tokens = words(line)
        if not tokens or tokens[0] != "info":
            raise ProtocolError(f"not an info line: {line!r}")
        if len(tokens) > 1 and tokens[1] == "string":
            return cls(string=line.split("string", 1)[1].strip())
        values: dict[str, str] = {}
        pv: tuple[str, ...] = ()
        i = 1
        while i < len(tokens):
            key = tokens[i]
            if key == "pv":
                pv = tuple(tokens[i + 1 :])
                break
            if i + 1 >= len(tokens):
                raise ProtocolError(f"info: {key} has no value in {line!r}")
            values[key] = tokens[i + 1]
            i += 2
        try:
            return cls(
                iterations=int(values.pop("iterations")) if "iterations" in values else None,
                seconds=int(values.pop("time")) / 1000 if "time" in values else None,
                speed=int(values.pop("speed")) if "speed" in values else None,
                nodes=int(values.pop("nodes")) if "nodes" in values else None,
                win_probability=float(values.pop("winprob")) if "winprob" in values else None,
                margin=float(values.pop("margin")) if "margin" in values else None,
                exact=values.pop("exact", "no") == "yes",
                pv=pv,
                extra=values,
            )
        except ValueError:
            raise ProtocolError(f"info: a number that does not read as one in {line!r}") from None
