"""``patchwork cg-bot``: our AI as a CodinGame Patchwork bot (stdin/stdout, one line a turn).

The arena spawns the bot and writes its first input at once: the first answer is due 1000 ms
after the spawn, and Python, NumPy, Numba and our compiled code take most of that to load.
So the bot loads what a turn needs and the playout policy (a move in a millisecond) before it
reads, and the tree search on a thread of its own; the first turn waits for the search only
until its deadline (``--first-margin-ms`` before the arena's limit) and otherwise answers with
the policy. The exact endgame search loads after the first answer, while the opponent thinks.
Each turn is timed from the moment its first input line arrives: the search gets
``--time-ms`` (the arena allows 100 ms), cut short so that the answer leaves ``--margin-ms``
before the arena's limit.

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

from ..ai import Agent, Limit, MCTSAgent, PolicyAgent, agent_names, endgame, get_agent
from ..ai.warmup import numba_without_blas_probe, warm_up_endgame, warm_up_tree_search
from ..engine import Move, PatchworkError, State, new_game
from ..i18n.commandline import HelpFormatter
from .codingame import (
    FIRST_TURN_SECONDS,
    RULES,
    TURN_SECONDS,
    CodinGameError,
    LineSource,
    Play,
    TurnView,
    command_of_move,
    init_lines,
    parse_command,
    read_init,
    read_turn,
    referee_move,
    state_from_view,
    turn_lines,
)

ENDGAME_BUDGET = 20_000  # exact-search nodes a turn: a failed attempt must stay cheap
FALLBACK_SECONDS = 0.01  # what a turn keeps back for the policy when the search is not loaded


class SearchLoader:
    """Loads the search's compiled code on a thread of its own while the bot starts to play.

    The tree search first (on the bot's agent, so that its tree is allocated too), then,
    once the first answer is out, the exact endgame search and the end of a game on positions
    of its own. Until ``search`` is set the bot answers with its policy; until ``endgame`` is
    set it skips the exact search (only ever useful near the end, long after it loaded)."""

    def __init__(self, agent: MCTSAgent) -> None:
        self.agent = agent
        self.search = threading.Event()
        self.endgame = threading.Event()
        self.first_answer = threading.Event()
        self.loaded_at: float | None = None  # time.perf_counter() when the search was ready
        self.error: BaseException | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._load, name="cg-bot-loader", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _load(self) -> None:
        try:
            warm_up_tree_search(RULES, self.agent)
            self.loaded_at = time.perf_counter()
            self.search.set()
            self.first_answer.wait()
            if self._closing:
                return
            warm_up_endgame(RULES)
            self.endgame.set()
        except Exception as e:  # the policy plays on; say why the search never came
            self.error = e
            print(f"cg-bot: the search could not be loaded: {e!r}", file=sys.stderr, flush=True)
        finally:
            gc.freeze()  # what start-up left is permanent: collections stay short
            gc.enable()

    def close(self) -> None:
        """Let the thread end (what it is loading now, it finishes) and wait for it, so that
        the process never exits under a half-loaded kernel."""
        self._closing = True
        self.first_answer.set()
        if self._thread.is_alive():
            self._thread.join(10.0)


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
        first_margin_ms: float | None = None,
        fallback: Agent | None = None,
        loader: SearchLoader | None = None,
    ) -> None:
        self.debug = debug
        self.agent = agent
        self.fallback = fallback
        self.loader = loader
        self.endgame_budget = endgame_budget
        self.time = time_ms / 1000
        self.first_time = first_time_ms / 1000
        self.margin = margin_ms / 1000
        self.first_margin = self.margin if first_margin_ms is None else first_margin_ms / 1000
        self.chat = chat
        self.me: int | None = None
        self.expected: State | None = None  # after our last move
        self._played: tuple[State, Move] | None = None  # our last answer, until it is out
        self.turns = 0
        self.resyncs = 0
        self.fallback_turns = 0  # answered by the policy: the search was not loaded in time
        self.budget = 0.0  # the search time of the last turn
        self.reported_load = False

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
        first = self.turns == 0
        allowed = FIRST_TURN_SECONDS if first else TURN_SECONDS
        budget = self.first_time if first else self.time
        deadline = started + allowed - (self.first_margin if first else self.margin)
        move, note, who = self._choose(state, min(deadline, time.perf_counter() + budget))
        self.turns += 1
        self._played = (state, move)
        command = command_of_move(move, state)
        if self.chat and note:
            command = dataclasses.replace(command, message=note)
        if self.debug:
            now = time.perf_counter()
            print(
                f"cg-bot: turn {self.turns}: {1000 * (now - started):.1f} ms since the input "
                f"came, search budget {1000 * self.budget:.1f} ms, by {who}{self._loaded()}",
                file=sys.stderr,
                flush=True,
            )
        return str(command)

    def _loaded(self) -> str:
        """When the search finished loading, for the first debug line that can tell."""
        loader = self.loader
        if loader is None or loader.loaded_at is None or self.reported_load:
            return ""
        self.reported_load = True
        return f" (the search loaded {1000 * (time.perf_counter() - loader.loaded_at):.0f} ms ago)"

    def answered(self) -> None:
        """The answer is out: note the position it leads to (the opponent's input is checked
        against it next turn) and let what loads later load now."""
        if self._played is not None:
            state, move = self._played
            self.expected = state.apply(move)
            self._played = None
        if self.loader is not None:
            self.loader.first_answer.set()

    def _seconds(self, stop: float) -> float:
        """The search time left until ``stop`` (at least a millisecond)."""
        self.budget = max(0.001, stop - time.perf_counter())
        return self.budget

    def _choose(self, state: State, stop: float) -> tuple[Move, str, str]:
        """The move, the chat note and who chose it, thinking until ``stop`` at most."""
        agent = self.agent
        loader = self.loader
        self.budget = 0.0
        if loader is not None and not loader.search.is_set():
            if loader.error is None:  # wait for it while the policy could still answer in time
                loader.search.wait(max(0.0, stop - FALLBACK_SECONDS - time.perf_counter()))
            if not loader.search.is_set() and self.fallback is not None:
                self.fallback_turns += 1
                return self.fallback.choose(state), "", "the policy (the search is loading)"
        if not isinstance(agent, MCTSAgent):
            return agent.choose(state, Limit(time=self._seconds(stop))), "", agent.name
        # The exact endgame search runs here, not inside agent.search, so that its time
        # comes out of this turn's budget (a failed attempt costs a few milliseconds).
        if loader is None or loader.endgame.is_set():
            solved = endgame.solve_state(state, self.endgame_budget)
            if solved is not None:
                won = solved.winner == state.current_player
                return solved.line[0], "won" if won else "lost", "the exact endgame search"
        result = agent.search(state, Limit(time=self._seconds(stop)))
        return result.best_move, f"{100 * result.win_probability:.0f}%", "the search"


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
        bot.answered()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
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
    p.add_argument(
        "--first-margin-ms", type=float, default=300.0,
        help="answer the first turn at least this long before its limit (300)",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help="seed of the search")
    p.add_argument("--no-chat", action="store_true", help="no win estimate after the move")
    p.add_argument("--no-warmup", action="store_true", help="load nothing early (all on first use)")
    p.add_argument("--debug", action="store_true", help="report each turn's timing on stderr")
    return p


def rehearse(agent: Agent) -> None:
    """Play two turns with ``agent`` on a throwaway bot, the opening and the reply to the
    opponent's move: this loads the compiled code turns need (reading the position, the
    opponent's moves, choosing, applying the move) before any clock runs, so that no turn
    waits for it behind the search loading on its thread."""
    bot = CodinGameBot(agent, 1.0, 1.0, 0.0, chat=False)
    lines = iter(init_lines(RULES) + turn_lines(new_game(seed=0, rules=RULES), []))
    read_init(lambda: next(lines))
    bot.answer(read_turn(lambda: next(lines)), time.perf_counter())
    bot.answered()
    state, moves = bot.expected, []
    while state is not None and not state.is_terminal() and state.current_player != bot.me:
        move = agent.choose(state)
        moves.append(str(command_of_move(move, state)))
        state = state.apply(move)
    if state is not None and not state.is_terminal():
        lines = iter(turn_lines(state, moves))
        bot.answer(read_turn(lambda: next(lines)), time.perf_counter())
        bot.answered()


def main(argv: list[str] | None = None) -> int:
    """``patchwork cg-bot``: 0 when the game ended (input closed), 1 on bad input, 2 usage."""
    gc.disable()  # start-up makes objects that live for good: no collections meanwhile
    started = process_start()
    entered = time.perf_counter()
    first = FirstInput()
    first.watch(sys.stdin, started)  # the first turn's clock may be running already
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
    fallback: Agent | None = None
    loader: SearchLoader | None = None
    if not args.no_warmup:
        with numba_without_blas_probe():
            if isinstance(agent, MCTSAgent):
                fallback = PolicyAgent(seed=args.seed)
                rehearse(fallback)
                loader = SearchLoader(agent)
            else:
                rehearse(agent)
    bot = CodinGameBot(
        agent,
        args.time_ms,
        args.first_time_ms,
        args.margin_ms,
        chat=not args.no_chat,
        debug=args.debug,
        first_margin_ms=args.first_margin_ms,
        fallback=fallback,
        loader=loader,
    )
    if args.debug and started is not None:
        print(
            f"cg-bot: {1000 * (entered - started):.0f} ms to import, ready to answer "
            f"{1000 * (time.perf_counter() - started):.0f} ms after the start",
            file=sys.stderr,
            flush=True,
        )
    if loader is not None:
        loader.start()  # it freezes and re-enables the collector once loaded
    else:
        gc.freeze()  # what start-up left is permanent: collections stay short
        gc.enable()
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # stray bytes read as nonsense, not a crash
    try:
        return play(bot, sys.stdin, sys.stdout, first)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    finally:
        if loader is not None:
            loader.close()
        close = getattr(agent, "close", None)
        if callable(close):
            close()


if __name__ == "__main__":
    sys.exit(main())
