"""``patchwork cg-host``: referee a game with CodinGame Patchwork bots as players.

Each bot is a program that reads exactly what the CodinGame referee sends and answers one
line a turn. The host applies the arena's conventions (original edition board, its patch
ids, an invalid PLAY played as SKIP, a SKIP while holding a special patch placing it on the
first free square), times every answer against the arena's limits (1000 ms for a bot's first
turn, 100 ms after; ``--relax-time`` multiplies them, or lifts them), and writes a game record.
An opponent behind the engine protocol is held to the same limits. The rules themselves are
the engine's: the host only translates.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..ai import Agent, Limit, agent_names, get_agent
from ..engine import Game, Move, PatchworkError, Record, State, new_game
from ..engine.play import play_out
from ..i18n.commandline import RawDescriptionHelpFormatter
from .agent import EngineAgent, EngineTimeError
from .client import EngineError
from .codingame import (
    FIRST_TURN_SECONDS,
    MAX_TURNS,
    RULES,
    TURN_SECONDS,
    command_text,
    init_lines,
    logged_command,
    parse_command,
    referee_move,
    turn_lines,
)
from .process import Child, ReadTimeout

BOT_PREFIX = "cmd:"
ENGINE_PREFIX = "engine:"
HARD_TIMEOUT = 30.0  # seconds: even with the limits lifted, silence this long loses
STARTUP_GRACE = 5.0  # seconds of a bot's start-up that its first turn does not pay for
ENGINE_MARGIN = 0.03  # seconds of its limit that an engine opponent's movetime leaves for pipes


def turn_limit(first: bool, time_factor: float) -> float | None:
    """The seconds an answer may take (None: not enforced, only a hard timeout)."""
    if math.isinf(time_factor):
        return None
    return (FIRST_TURN_SECONDS if first else TURN_SECONDS) * time_factor


@dataclass
class Turn:
    """What happened on one turn: the move played (None when the seat forfeited)."""

    move: Move | None
    said: str | None = None  # the bot's line, as it was written
    note: str | None = None  # how the referee's conventions changed it
    seconds: float = 0.0
    forfeit: tuple[str, str] | None = None  # (termination, reason)
    logged: str | None = None  # what the opponent's log shows (default: the move's command)


class Seat(Protocol):
    name: str
    times: list[float]

    def turn(self, state: State, opponent_moves: Sequence[str]) -> Turn: ...

    def close(self) -> None: ...


class BotSeat:
    """A CodinGame bot program: fed the referee's input, timed, its answer translated."""

    def __init__(
        self,
        command: str,
        name: str | None = None,
        time_factor: float = 1.0,
        startup_grace: float = STARTUP_GRACE,
        hard_timeout: float = HARD_TIMEOUT,
        stderr: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name or command
        self.time_factor = time_factor
        self.startup_grace = startup_grace
        self.hard_timeout = hard_timeout
        # The host's own compiled code (drawing a position for a bot) loads before the bot
        # starts, not while its clock runs: with --startup-grace 0 the first input then goes
        # out as the bot starts, as the arena's does.
        turn_lines(new_game(seed=0, rules=RULES), [])
        self.child = Child(command, stderr_echo=stderr)
        self.times: list[float] = []
        self._first = True

    def turn(self, state: State, opponent_moves: Sequence[str]) -> Turn:
        first, self._first = self._first, False
        lines = (init_lines(state.rules) if first else []) + turn_lines(state, opponent_moves)
        self.child.send("\n".join(lines) + "\n")
        sent = time.monotonic()
        limit = turn_limit(first, self.time_factor)
        if limit is None:
            wait = self.hard_timeout
        elif first:  # start-up time (up to the grace) does not count against the first turn
            wait = limit + max(0.0, self.child.started + self.startup_grace - sent)
        else:
            wait = limit
        line: str | None = ""
        try:
            line = self.child.read(wait)
            arrived = self.child.stdout.arrived
            seconds = max(0.0, arrived - sent)
            late = seconds > wait
        except ReadTimeout:
            seconds, late = time.monotonic() - sent, True
        if line is not None and not late and arrived < sent:
            # Written before this turn's input: a second line of an earlier answer (or words
            # before the first input). One line a turn, as the arena's referee demands.
            shown = line if len(line) <= 80 else line[:80] + "..."
            why = "a line before its first input" if first else "two lines in one turn"
            return Turn(
                None,
                said=line,
                forfeit=("abandoned", f"the bot wrote {why} ({shown!r}); one line a turn"),
            )
        if late:
            shown = "no limit" if limit is None else f"the limit is {1000 * limit:.0f} ms"
            return Turn(
                None,
                seconds=seconds,
                forfeit=("time", f"no answer within {1000 * wait:.0f} ms ({shown})"),
            )
        self.times.append(seconds)
        if line is None:
            return Turn(
                None,
                seconds=seconds,
                forfeit=("abandoned", f"the bot {self.child.describe_exit()}"),
            )
        command = parse_command(line)
        if command is None:
            shown = line if len(line) <= 80 else line[:80] + "..."
            return Turn(
                None,
                said=line,
                seconds=seconds,
                forfeit=("abandoned", f"unrecognised command {shown!r} (expected PLAY or SKIP)"),
            )
        move, note = referee_move(command, state)
        return Turn(
            move, said=line, note=note, seconds=seconds, logged=logged_command(command, state)
        )

    def close(self) -> None:
        self.child.stop(1.0)


class AgentSeat:
    """One of our agents (or an engine program behind the engine protocol)."""

    def __init__(self, agent: Agent, name: str | None = None) -> None:
        self.agent = agent
        self.name = name or agent.name
        self.times: list[float] = []

    def turn(self, state: State, opponent_moves: Sequence[str]) -> Turn:
        return self._turn(state, None)

    def _turn(self, state: State, limit: Limit | None) -> Turn:
        start = time.monotonic()
        move = self.agent.choose(state, limit)
        seconds = time.monotonic() - start
        self.times.append(seconds)
        return Turn(move, said=command_text(move, state), seconds=seconds)

    def close(self) -> None:
        close = getattr(self.agent, "close", None)
        if callable(close):
            close()


class EngineSeat(AgentSeat):
    """A program speaking the engine protocol, held to the bot's limits: it is sent ``go
    movetime`` (the limit less ENGINE_MARGIN), and loses on time when its ``bestmove`` arrives
    after the limit (counted from ``go``), as a bot does; one that fails otherwise loses the
    game. It starts here, so its start-up is not counted."""

    def __init__(
        self, command: str, seed: int, time_factor: float = 1.0, name: str | None = None
    ) -> None:
        agent = EngineAgent(command, seed=seed, time_margin=ENGINE_MARGIN)
        super().__init__(agent, name)
        agent.start()
        self.time_factor = time_factor
        self._first = True

    def turn(self, state: State, opponent_moves: Sequence[str]) -> Turn:
        first, self._first = self._first, False
        limit = turn_limit(first, self.time_factor)
        try:
            return self._turn(state, None if limit is None else Limit(time=limit - ENGINE_MARGIN))
        except EngineTimeError as e:
            return Turn(None, forfeit=("time", str(e)))
        except EngineError as e:
            return Turn(None, forfeit=("abandoned", str(e)))


@dataclass
class HostResult:
    game: Game
    names: tuple[str, str]
    termination: str  # "finished", "time", "abandoned"
    winner: int | None
    reason: str | None = None
    notes: list[tuple[int, int, str]] = field(default_factory=list)  # (ply, player, note)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    @property
    def scores(self) -> tuple[int, int]:
        return self.game.state.scores()

    def record(self) -> Record:
        if self.termination == "finished":
            record = self.game.to_record(players=self.names, event="cg-host")
        else:
            record = Record.from_game(
                self.game,
                players=self.names,
                event="cg-host",
                termination=self.termination,
                winner=self.winner,
            )
        if self.reason and record.result is not None:
            record.result["reason"] = self.reason
        return record


def host_game(
    seats: Sequence[Seat],
    seed: int | None = None,
    max_turns: int = MAX_TURNS,
    on_turn: Callable[[int, int, Turn], None] | None = None,
) -> HostResult:
    """Referee one game between ``seats`` (seat 0 moves first) on a circle from ``seed``."""
    game = Game(new_game(seed=seed, rules=RULES))
    logs: tuple[list[str], list[str]] = ([], [])  # each player's moves the other has not seen
    names = (seats[0].name, seats[1].name)
    notes: list[tuple[int, int, str]] = []
    forfeits: list[tuple[int, tuple[str, str]]] = []  # (player, (termination, reason))

    def ask(state: State) -> Move | None:
        player = state.current_player
        assert player is not None
        seen, logs[1 - player][:] = list(logs[1 - player]), []
        turn = seats[player].turn(state, seen)
        if on_turn is not None:
            on_turn(len(game) + 1, player, turn)
        if turn.move is None:
            assert turn.forfeit is not None
            forfeits.append((player, turn.forfeit))
            return None
        if turn.note is not None:
            notes.append((len(game) + 1, player, turn.note))
        logs[player].append(turn.logged or command_text(turn.move, state))
        return turn.move

    def turn_limit(game: Game) -> bool:
        return bool(max_turns) and len(game) >= max_turns

    termination, winner, reason = "finished", None, None
    if play_out(game, (ask, ask), stop=turn_limit):
        winner = game.state.winner()
    elif forfeits:
        player, (termination, why) = forfeits[0]
        winner = 1 - player
        reason = f"player {player} ({names[player]}) lost: {why}"
    else:
        termination, reason = "abandoned", f"the turn limit ({max_turns}) was reached"
    return HostResult(
        game=game,
        names=names,
        termination=termination,
        winner=winner,
        reason=reason,
        notes=notes,
        times=(seats[0].times, seats[1].times),
    )


# -- the command ----------------------------------------------------------------------------------

EPILOG = """\
The bot reads exactly what the CodinGame Patchwork referee sends (docs/protocol.md) and is held
to the arena's time limits: 1000 ms for its first turn, 100 ms for each later one, measured
from the moment its input is written; start-up before the first turn is not counted, up to
--startup-grace seconds. --relax-time F multiplies the limits by F; --relax-time alone lifts
them (an answer must still come within --hard-timeout seconds). A bot that is too slow loses
on time; one that exits or answers something other than PLAY or SKIP loses the game. An
engine:COMMAND opponent is held to the same limits: it is sent go movetime (the limit less
{margin:g} ms) and loses on time when its bestmove arrives after the limit; agents think as
their level does.

opponents (--vs): an agent ({names}),
cmd:COMMAND for another CodinGame bot, or engine:COMMAND for a program speaking the engine
protocol
"""


def _factor(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value >= 1:
        raise argparse.ArgumentTypeError(f"the factor must be at least 1, not {text}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork cg-host",
        description="Referee a game with a CodinGame Patchwork bot as a player.",
        epilog=EPILOG.format(names=", ".join(agent_names()), margin=1000 * ENGINE_MARGIN),
        formatter_class=RawDescriptionHelpFormatter,
    )
    p.add_argument("bot", metavar="BOT_COMMAND", help="the bot's command line (one argument)")
    p.add_argument(
        "--vs",
        default="level8",
        metavar="OPPONENT",
        help="an agent name, cmd:OTHER_BOT or engine:COMMAND (default level8)",
    )
    p.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=0,
        help="the bot's seat: 0 moves first (default), 1 second",
    )
    p.add_argument("--seed", type=int, default=None, help="seed of the circle (default random)")
    p.add_argument(
        "--relax-time",
        type=_factor,
        nargs="?",
        const=math.inf,
        default=1.0,
        metavar="FACTOR",
        help="multiply the time limits (alone: lift them)",
    )
    p.add_argument(
        "--startup-grace",
        type=float,
        default=STARTUP_GRACE,
        metavar="S",
        help=f"start-up seconds the first turn does not pay for ({STARTUP_GRACE:g})",
    )
    p.add_argument(
        "--hard-timeout",
        type=float,
        default=HARD_TIMEOUT,
        metavar="S",
        help=f"longest wait for any answer ({HARD_TIMEOUT:g})",
    )
    p.add_argument(
        "--max-turns",
        type=int,
        default=MAX_TURNS,
        metavar="N",
        help=f"end the game after N turns, as the arena does ({MAX_TURNS}; 0: none)",
    )
    p.add_argument("--record", metavar="FILE", help="write the game record (.json or text)")
    p.add_argument("--show-stderr", action="store_true", help="pass the bots' stderr through")
    p.add_argument("--quiet", action="store_true", help="only the result, not every move")
    return p  # fmt: skip


def _seat(spec: str, seed: int, args: argparse.Namespace, label: str) -> Seat:
    echo = _stderr_echo(label) if args.show_stderr else None
    if spec.startswith(BOT_PREFIX):
        return BotSeat(
            spec[len(BOT_PREFIX) :].strip(),
            time_factor=args.relax_time,
            startup_grace=args.startup_grace,
            hard_timeout=args.hard_timeout,
            stderr=echo,
        )
    if spec.startswith(ENGINE_PREFIX):
        command = spec[len(ENGINE_PREFIX) :].strip()
        return EngineSeat(command, seed, args.relax_time, name=spec)
    return AgentSeat(get_agent(spec, seed=seed), name=spec)


def _stderr_echo(label: str) -> Callable[[str], None]:
    def echo(line: str) -> None:
        print(f"[{label}] {line}", file=sys.stderr, flush=True)

    return echo


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms"


def _print_turn(names: tuple[str, str]) -> Callable[[int, int, Turn], None]:
    def show(ply: int, player: int, turn: Turn) -> None:
        said = "" if turn.said is None else f"{turn.said!r} "
        what = str(turn.move) if turn.move is not None else "forfeit"
        print(f"{ply:3}. P{player} {names[player]}: {said}-> {what} ({_ms(turn.seconds)})")
        if turn.note:
            print(f"     note: {turn.note}")

    return show


def _summary(result: HostResult) -> list[str]:
    a, b = result.scores
    who = "nobody" if result.winner is None else f"player {result.winner}"
    lines = [
        f"result: {result.termination}, {who} wins; scores {a} {b} after {len(result.game)} moves"
    ]
    if result.reason:
        lines.append(result.reason)
    for p in (0, 1):
        times = result.times[p]
        if times:
            text = f"player {p} ({result.names[p]}): {len(times)} answers, first {_ms(times[0])}"
            later = times[1:]
            if later:
                text += f"; later mean {_ms(sum(later) / len(later))}, slowest {_ms(max(later))}"
            lines.append(text)
    if result.notes:
        lines.append(f"{len(result.notes)} move(s) changed by the referee's conventions")
    return lines


def main(argv: list[str] | None = None) -> int:
    """``patchwork cg-host``: 0 when a game was played (whoever won, forfeits included),
    1 when it could not be played, 2 for bad arguments."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    seats: list[Seat] = []
    try:
        seats.append(_seat(f"{BOT_PREFIX}{args.bot}", seed, args, "bot"))
        seats.append(_seat(args.vs, seed + 1, args, "opponent"))
        if args.seat == 1:
            seats.reverse()
        names = (seats[0].name, seats[1].name)
        result = host_game(
            seats,
            seed=seed,
            max_turns=args.max_turns,
            on_turn=None if args.quiet else _print_turn(names),
        )
    except (PatchworkError, ValueError) as e:
        print(f"patchwork cg-host: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for seat in seats:
            seat.close()
    for line in _summary(result):
        print(line)
    if args.record:
        try:
            result.record().save(args.record)
        except (OSError, PatchworkError) as e:
            print(f"patchwork cg-host: cannot write {args.record}: {e}", file=sys.stderr)
            return 1
        print(f"record written to {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
