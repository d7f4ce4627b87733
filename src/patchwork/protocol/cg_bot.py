"""``patchwork cg-bot``: our AI as a CodinGame Patchwork bot (stdin/stdout, one line a turn).

The compiled search is loaded and exercised before the first input is read, so that the
clock only sees the search itself. Each turn is timed from the moment its first input line
arrives: the search gets ``--time-ms`` (the arena allows 100 ms; the first turn 1000 ms),
cut short so that the answer leaves ``--margin-ms`` before the arena's limit.

The bot keeps the game it expects (its last position with the opponent's reported moves
played) and checks it against every input; where they disagree the input wins and the
position is rebuilt from it.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import io
import os
import select
import sys
import threading
import time
from typing import IO

from ..ai import Agent, Limit, MCTSAgent, agent_names, endgame, get_agent
from ..ai.warmup import warm_up_search
from ..engine import Move, PatchworkError, State
from .codingame import (
    FIRST_TURN_SECONDS,
    RULES,
    TURN_SECONDS,
    CodinGameError,
    LineSource,
    Play,
    TurnView,
    command_of_move,
    parse_command,
    read_init,
    read_turn,
    referee_move,
    state_from_view,
)

ENDGAME_BUDGET = 20_000  # exact-search nodes a turn: a failed attempt must stay cheap


class CodinGameBot:
    """The bot's memory between turns and its choice of move."""

    def __init__(
        self,
        agent: Agent,
        time_ms: float,
        first_time_ms: float,
        margin_ms: float,
        chat: bool = True,
        endgame_budget: int = ENDGAME_BUDGET,
        debug: bool = False,
    ) -> None:
        self.debug = debug
        self.agent = agent
        self.endgame_budget = endgame_budget
        self.time = time_ms / 1000
        self.first_time = first_time_ms / 1000
        self.margin = margin_ms / 1000
        self.chat = chat
        self.me: int | None = None
        self.expected: State | None = None  # after our last move
        self.turns = 0
        self.resyncs = 0

    def position(self, view: TurnView) -> State:
        """The position to move in: the one we expect if the input agrees, else the input's."""
        if self.me is None:
            # The first player sees no opponent moves on its first turn.
            self.me = 0 if not view.opponent_moves and view.opponent.time == 0 else 1
        hint = self.expected
        if hint is not None:
            for text in view.opponent_moves:
                command = parse_command(text)
                if command is None or hint.is_terminal():
                    hint = None
                    break
                move, note = referee_move(command, hint)
                if note is not None and isinstance(command, Play):
                    hint = None  # the referee logs moves as played: this one was not
                    break
                hint = hint.apply(move)
        state = state_from_view(view, self.me, hint)
        if self.expected is not None and state is not hint:
            self.resyncs += 1
        return state

    def answer(self, view: TurnView, started: float) -> str:
        """The line to print for this turn (``started``: when its input began to arrive)."""
        state = self.position(view)
        allowed = FIRST_TURN_SECONDS if self.turns == 0 else TURN_SECONDS
        budget = self.first_time if self.turns == 0 else self.time
        left = started + allowed - self.margin - time.perf_counter()
        seconds = max(0.001, min(budget, left))
        move, note = self._choose(state, seconds)
        self.turns += 1
        self.expected = state.apply(move)
        command = command_of_move(move, state)
        if self.chat and note:
            command = dataclasses.replace(command, message=note)
        if self.debug:
            now = time.perf_counter()
            print(
                f"cg-bot: turn {self.turns}: {1000 * (now - started):.1f} ms since the input "
                f"came, search budget {1000 * seconds:.1f} ms",
                file=sys.stderr,
                flush=True,
            )
        return str(command)

    def _choose(self, state: State, seconds: float) -> tuple[Move, str]:
        agent = self.agent
        if not isinstance(agent, MCTSAgent):
            return agent.choose(state, Limit(time=seconds)), ""
        # The exact endgame search runs here, not inside agent.search, so that its time
        # comes out of this turn's budget (a failed attempt costs a few milliseconds).
        start = time.perf_counter()
        solved = endgame.solve_state(state, self.endgame_budget)
        if solved is not None:
            won = solved.winner == state.current_player
            return solved.line[0], "won" if won else "lost"
        seconds = max(0.001, seconds - (time.perf_counter() - start))
        result = agent.search(state, Limit(time=seconds))
        return result.best_move, f"{100 * result.win_probability:.0f}%"


def process_start() -> float | None:
    """When this process started, on the ``time.perf_counter`` clock (Linux; else None)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        ticks = int(fields[19])  # field 22, starttime, in clock ticks since boot
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return time.perf_counter() - max(age, 0.0)


class FirstInput:
    """Notes when the first input arrives while the bot is still starting up.

    The arena's first-turn clock starts when it writes the input, which is while a bot is
    still importing and loading its compiled code; a bot that timed its first turn from the
    moment it got round to reading would overrun. A thread watches standard input (without
    reading it) from ``watch()`` on; input that was already waiting then is taken to have
    come when the process started."""

    def __init__(self) -> None:
        self.arrived: float | None = None
        self._done = threading.Event()

    def watch(self, stream: IO[str], started: float | None) -> None:
        try:
            fd = stream.fileno()
            waiting = bool(select.select([fd], [], [], 0)[0])
        except (OSError, ValueError, io.UnsupportedOperation):
            return  # not a pipe or terminal select can watch: time from the first read
        if waiting:
            self.arrived = started if started is not None else time.perf_counter()
            self._done.set()
            return
        threading.Thread(target=self._wait, args=(fd,), daemon=True).start()

    def _wait(self, fd: int) -> None:
        try:
            select.select([fd], [], [])
        except (OSError, ValueError):
            return
        self.arrived = time.perf_counter()
        self._done.set()

    def time(self, read_at: float) -> float:
        """When the first input came: the watcher's note, or ``read_at`` if it has none."""
        if self._done.is_set() and self.arrived is not None:
            return min(self.arrived, read_at)
        return read_at


def _lines(stream: IO[str]) -> tuple[list[float], LineSource]:
    """A line source over ``stream`` that raises EOFError at the end and notes when the
    first line of each turn arrived (``marks[0]``)."""
    marks = [0.0]

    def next_line() -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        if marks[0] == 0.0:
            marks[0] = time.perf_counter()
        return line.rstrip("\r\n")

    return marks, next_line


def play(
    bot: CodinGameBot, stdin: IO[str], stdout: IO[str], first: FirstInput | None = None
) -> int:
    """Play until the input ends; 0 then, 1 for input that is not the arena's. ``first``
    tells when the first input came, if it came before the bot began to read."""
    marks, next_line = _lines(stdin)
    try:
        read_init(next_line)
    except EOFError:
        if marks[0]:
            print("cg-bot: the input ended in the middle of the initialisation", file=sys.stderr)
            return 1
        return 0
    except CodinGameError as e:
        print(f"cg-bot: bad initialisation input: {e}", file=sys.stderr)
        return 1
    # The first turn's clock started with the initialisation (which comes with its input).
    first_turn = first.time(marks[0]) if first is not None else marks[0]
    while True:
        marks[0] = first_turn if bot.turns == 0 else 0.0
        try:
            view = read_turn(next_line)
        except EOFError:
            if marks[0]:
                print(
                    f"cg-bot: the input ended in the middle of turn {bot.turns + 1}",
                    file=sys.stderr,
                )
                return 1
            return 0  # the game is over: the referee closed our input
        except CodinGameError as e:
            print(f"cg-bot: bad input on turn {bot.turns + 1}: {e}", file=sys.stderr)
            return 1
        try:
            line = bot.answer(view, marks[0])
        except PatchworkError as e:
            print(f"cg-bot: cannot play turn {bot.turns + 1}: {e}", file=sys.stderr)
            return 1
        stdout.write(line + "\n")
        stdout.flush()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork cg-bot",
        description="Play as a CodinGame Patchwork bot on stdin/stdout (see docs/protocol.md).",
    )
    p.add_argument("--agent", default="mcts", choices=agent_names(), help="who plays (mcts)")
    p.add_argument("--time-ms", type=float, default=60.0, help="search time a turn (60)")
    p.add_argument("--first-time-ms", type=float, default=500.0, help="on the first turn (500)")
    p.add_argument(
        "--margin-ms", type=float, default=30.0,
        help="answer at least this long before the arena's limit (30)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help="seed of the search")
    p.add_argument("--no-chat", action="store_true", help="no win estimate after the move")
    p.add_argument("--no-warmup", action="store_true", help="skip loading the search early")
    p.add_argument("--debug", action="store_true", help="report each turn's timing on stderr")
    return p


def main(argv: list[str] | None = None) -> int:
    """``patchwork cg-bot``: 0 when the game ended (input closed), 1 on bad input, 2 usage."""
    first = FirstInput()
    first.watch(sys.stdin, process_start())  # the first turn's clock may be running already
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    if args.agent == "mcts":
        agent: Agent = MCTSAgent(
            limit=Limit(time=args.time_ms / 1000),
            seed=args.seed,
            exact_endgame=False,  # the bot runs it itself, on the clock
            name="cg-bot",
        )
    else:
        agent = get_agent(args.agent, seed=args.seed)
    if not args.no_warmup:
        if isinstance(agent, MCTSAgent):
            warm_up_search(RULES, agent)
        gc.collect()
    gc.freeze()  # what the warm-up left is permanent: collections stay short
    bot = CodinGameBot(
        agent,
        args.time_ms,
        args.first_time_ms,
        args.margin_ms,
        chat=not args.no_chat,
        debug=args.debug,
    )
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # stray bytes read as nonsense, not a crash
    try:
        return play(bot, sys.stdin, sys.stdout, first)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()


if __name__ == "__main__":
    sys.exit(main())
