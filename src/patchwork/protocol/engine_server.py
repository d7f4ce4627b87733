"""``patchwork engine``: our AI behind the text engine protocol, on stdin and stdout.

One command a line in, answers a line each out (docs/protocol.md has all of them). Searches
run in a thread, so ``stop``, ``isready`` and ``quit`` are answered while one is under way;
a line that cannot be read, or asks for something impossible, gets ``error <why>`` and the
engine carries on.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from typing import IO

from .. import __version__
from ..ai import Agent, Limit, MCTSAgent, SearchResult, get_agent
from ..ai import levels as ai_levels
from ..ai import search as search_module
from ..ai.warmup import warm_up_search
from ..engine import PatchworkError, Rules, State, new_game
from ..engine.data import EDITIONS
from ..i18n.commandline import HelpFormatter
from .engine_protocol import (
    COMMANDS,
    HANDSHAKE_OK,
    PROTOCOL_VERSION,
    GoParams,
    Info,
    OptionSpec,
    ProtocolError,
    allot_time,
    parse_go,
    parse_position,
    parse_setoption,
    words,
)

NAME = "patchwork-game"
MAX_LINE = 1 << 20
NODE_BYTES = 40  # one search tree node (see ai/mcts.py)
LEVELS = tuple(f"level{n}" for n in ai_levels.LEVELS)


def _options() -> dict[str, OptionSpec]:
    specs = [
        OptionSpec("Level", "combo", f"level{ai_levels.former(4)}", choices=LEVELS,
                   help="strength: the AI ladder; a plain go searches as long as the level does"),
        OptionSpec("Threads", "spin", "0", 0, max(64, os.cpu_count() or 1),
                   help="processes searching together (0: the level's own number)"),
        OptionSpec("Hash", "spin", "128", 1, 65536,
                   help="memory for the search tree in MiB (a node takes 40 bytes)"),
        OptionSpec("Edition", "combo", "revised", choices=EDITIONS,
                   help="time board printing for 'position seed' and 'position circle'"),
        OptionSpec("Rotation", "check", "true", help="patches may be turned"),
        OptionSpec("Flip", "check", "true", help="patches may be mirrored"),
        OptionSpec("Seed", "spin", "-1", -1, 2**31 - 1,
                   help="seed of the search's random choices (-1: a fresh one)"),
        OptionSpec("MoveOverhead", "spin", "30", 0, 60000,
                   help="milliseconds kept in reserve per move when playing on a clock"),
    ]  # fmt: skip
    return {s.name.lower(): s for s in specs}


OPTIONS = _options()


class EngineServer:
    """The protocol loop: ``handle(line)`` for each line read; answers go to ``out``."""

    def __init__(self, out: IO[str]) -> None:
        self._out = out
        self._out_lock = threading.Lock()
        self.values = {key: spec.default for key, spec in OPTIONS.items()}
        self.state: State | None = None
        self._public = False  # the position came in the public solo form: show it so
        self._agent: Agent | None = None
        self._warm = False
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._busy = threading.Event()  # set while a search has not answered yet
        self._pondering = threading.Event()  # set from go ponder until ponderhit or stop
        self._ponderhit_at = 0.0
        self._ponder_lock = threading.Lock()
        self._ponder_running = False
        self._infinite = False
        self.closed = False

    # -- output -------------------------------------------------------------------------------

    def emit(self, line: str) -> None:
        with self._out_lock:
            if self.closed:
                return
            try:
                self._out.write(line + "\n")
                self._out.flush()
            except (OSError, ValueError):
                self.closed = True  # nobody is listening any more

    def fall_silent(self) -> None:
        with self._out_lock:
            self.closed = True

    def error(self, message: str) -> None:
        self.emit(f"error {' '.join(message.split())}")

    # -- the loop ---------------------------------------------------------------------------------

    def run(self, stream: IO[bytes]) -> int:
        """Read commands until ``quit`` or the end of input (which lets a search under way
        finish, so ``echo "position seed 1\ngo movetime 500" | patchwork engine`` works)."""
        try:
            while not self.closed:
                line = self._read_line(stream)
                if line is None:
                    self._finish()
                    break
                if not self.handle(line):
                    break
        except KeyboardInterrupt:
            self.shutdown()
            return 130
        self.shutdown()
        return 0

    def _read_line(self, stream: IO[bytes]) -> str | None:
        while True:
            raw = stream.readline(MAX_LINE)
            if not raw:
                return None
            if raw.endswith(b"\n") or len(raw) < MAX_LINE:
                return raw.decode("utf-8", errors="replace")
            self.error(f"line too long (over {MAX_LINE} bytes): ignored")
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_LINE)

    def handle(self, line: str) -> bool:
        """Act on one line; False once the engine should exit."""
        tokens = words(line)
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        handler: Callable[[list[str]], None] | None = getattr(self, f"cmd_{command}", None)
        if command == "quit":
            self.fall_silent()  # quit answers nothing, not even a search's bestmove
            return False
        if command not in COMMANDS or handler is None:
            shown = command if len(command) <= 40 else command[:40] + "..."
            self.error(f"unknown command {shown!r} (commands: {' '.join(COMMANDS)})")
            return True
        try:
            handler(args)
        except PatchworkError as e:
            self.error(str(e))
        except Exception as e:  # a bug of ours: report it and keep serving
            self.error(f"{command}: internal error: {type(e).__name__}: {e}")
        return True

    def _finish(self) -> None:
        if self._thread is not None:
            while self._thread.is_alive():
                if self._infinite:
                    self._stop_search()
                self._thread.join(0.1)

    def shutdown(self) -> None:
        self._stop.set()
        self._stop_search()
        if self._thread is not None:
            self._thread.join()
        self._drop_agent()

    # -- commands --------------------------------------------------------------------------------

    def cmd_patchwork(self, args: list[str]) -> None:
        self.emit(f"id name {NAME}")
        self.emit(f"id version {__version__}")
        self.emit(f"id protocol {PROTOCOL_VERSION}")
        for spec in OPTIONS.values():
            self.emit(spec.line())
        self.emit(HANDSHAKE_OK)

    def cmd_isready(self, args: list[str]) -> None:
        if not self.searching():
            self._warm_up()
        self.emit("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        self._idle("setoption")
        name, value = parse_setoption(args)
        spec = OPTIONS.get(name.lower())
        if spec is None:
            names = ", ".join(s.name for s in OPTIONS.values())
            raise ProtocolError(f"setoption: no option {name!r} (options: {names})")
        self.values[spec.name.lower()] = spec.check(value)
        if spec.name in ("Level", "Threads", "Seed"):
            self._drop_agent()

    def cmd_newgame(self, args: list[str]) -> None:
        self._idle("newgame")
        self._drop_agent()  # a fresh searcher: nothing carried over from the last game
        self.state = None

    def cmd_position(self, args: list[str]) -> None:
        self._idle("position")
        seed = int(self.values["seed"])
        deck_seed = seed if seed >= 0 else random.SystemRandom().randrange(2**32)
        start, moves, public = parse_position(args, self._rules(), deck_seed)
        state = start
        for move in moves:
            state = state.apply(move)
        self.state, self._public = state, public

    def cmd_go(self, args: list[str]) -> None:
        if self.searching():
            raise ProtocolError("go: already searching (send stop first)")
        params = parse_go(args)
        if self.state is None:
            raise ProtocolError("go: no position (send position first)")
        if self.state.is_terminal():
            raise ProtocolError("go: the game is over, there is no move to search")
        agent = self._get_agent()
        self._stop.clear()
        self._infinite = params.infinite
        if params.ponder:
            self._pondering.set()
        self._busy.set()
        self._thread = threading.Thread(
            target=self._search, args=(agent, self.state, params), daemon=True
        )
        self._thread.start()

    def cmd_ponderhit(self, args: list[str]) -> None:
        """The move pondered on was played: the search goes on, now on the clock of ``go``."""
        if not (self.searching() and self._pondering.is_set()):
            raise ProtocolError("ponderhit: not pondering (send go ponder first)")
        with self._ponder_lock:
            self._ponderhit_at = time.perf_counter()
            self._pondering.clear()
            agent = self._agent
            if self._ponder_running and isinstance(agent, MCTSAgent):
                agent.stop_event.set()  # end the pondering search: the timed one follows

    def cmd_stop(self, args: list[str]) -> None:
        self._pondering.clear()
        self._stop_search()

    def cmd_show(self, args: list[str]) -> None:
        if self.state is None:
            raise ProtocolError("show: no position (send position first)")
        s = self.state
        scores = " ".join(str(x) for x in s.scores())
        # A position sent public is shown public: its deck is the engine's guess (D6).
        self.emit(f"position {s.to_text(public=self._public)}")
        if s.is_terminal():
            self.emit(f"status over winner {s.winner()} scores {scores}")
        else:
            self.emit(f"status tomove {s.current_player} scores {scores}")

    def cmd_legal(self, args: list[str]) -> None:
        if self.state is None:
            raise ProtocolError("legal: no position (send position first)")
        self.emit(" ".join(["legal", *(str(m) for m in self.state.legal_moves())]))

    # -- searching -------------------------------------------------------------------------------

    def searching(self) -> bool:
        return self._busy.is_set()

    def _idle(self, command: str) -> None:
        if self.searching():
            raise ProtocolError(f"{command}: not while searching (send stop first)")

    def _stop_search(self) -> None:
        self._stop.set()
        agent = self._agent
        if isinstance(agent, MCTSAgent):
            agent.stop_event.set()

    def _rules(self) -> Rules:
        v = self.values
        return Rules(v["edition"], rotation=v["rotation"] == "true", flip=v["flip"] == "true")

    def _get_agent(self) -> Agent:
        if self._agent is None:
            level = self.values["level"]
            seed = int(self.values["seed"])
            threads = int(self.values["threads"])
            options: dict[str, object] = {"seed": None if seed < 0 else seed}
            if (
                threads
                and ai_levels.LADDER[int(level.removeprefix("level"))].kind == ai_levels.SEARCH
            ):
                options["workers"] = threads
            self._agent = get_agent(level, **options)
        return self._agent

    def _drop_agent(self) -> None:
        agent, self._agent = self._agent, None
        close = getattr(agent, "close", None)
        if callable(close):
            close()

    def _warm_up(self) -> None:
        """Load the compiled code before the first search is timed (isready's job)."""
        agent = self._get_agent()
        if self._warm:
            return
        if isinstance(agent, MCTSAgent):
            warm_up_search(self._rules())
        else:
            agent.choose(new_game(seed=0, rules=self._rules()))
        self._warm = True

    def _capped(self, seconds: float | None = None, iterations: int | None = None) -> Limit:
        """A limit whose trees fit in the Hash (two nodes an iteration at most, in all): with
        neither bound, a search until stop that never drops its tree."""
        cap = int(self.values["hash"]) * 2**20 // NODE_BYTES // 2
        return Limit(time=seconds, iterations=min(iterations or cap, cap))

    def _limit(self, params: GoParams, state: State) -> Limit | None:
        times = []
        if params.movetime is not None:
            times.append(params.movetime)
        if params.clock is not None:
            player = state.current_player
            assert player is not None
            overhead = int(self.values["moveoverhead"]) / 1000
            times.append(
                allot_time(
                    params.clock[player],
                    params.increment[player],
                    state.players[player].position,
                    params.movestogo,
                    overhead,
                )
            )
        seconds = min(times) if times else None
        if seconds is None and params.iterations is None and not params.infinite:
            return None
        return self._capped(seconds, params.iterations)

    def _search(self, agent: Agent, state: State, params: GoParams) -> None:
        try:
            best = self._run_search(agent, state, params)
        except Exception as e:  # a failing search must not take the protocol down
            self._busy.clear()
            self.error(f"search failed: {type(e).__name__}: {e}")
            return
        if params.infinite:
            self._stop.wait()  # an endless search reports its move only when stopped
        # Idle before the answer goes out: a driver may send its next command at once.
        self._busy.clear()
        self.emit(f"bestmove {best}")

    def _run_search(self, agent: Agent, state: State, params: GoParams) -> str:
        limit = self._limit(params, state)
        start = time.perf_counter()
        if not isinstance(agent, MCTSAgent):
            move = agent.choose(state, limit)
            self.emit(Info(seconds=time.perf_counter() - start, pv=(str(move),)).line())
            return str(move)
        if limit is None:
            limit = self._capped(agent.default_limit.time, agent.default_limit.iterations)

        def progress(iterations: int, seconds: float) -> None:
            if self._stop.is_set():  # a stop that came before the search had started
                agent.stop_event.set()
            self.emit(_progress_info(agent, state, iterations, time.perf_counter() - start))

        if params.ponder:
            pondered = self._ponder(agent, state, progress)
            if pondered is not None and self._stop.is_set():  # stop: the pondered move
                self.emit(_result_info(pondered, pondered.seconds).line())
                return str(pondered.best_move)
            # ponderhit: the clock of go runs from then on, on the tree pondering grew.
            if limit.time is not None:
                spent = time.perf_counter() - self._ponderhit_at
                limit = Limit(time=max(limit.time - spent, 0.01), iterations=limit.iterations)
            start = time.perf_counter()
        # One search, one tree: go infinite too runs until stop (or a full Hash).
        result = agent.search(state, limit, on_info=progress, candidates=False)
        self.emit(_result_info(result, time.perf_counter() - start).line())
        return str(result.best_move)

    def _ponder(
        self, agent: MCTSAgent, state: State, progress: Callable[[int, float], None]
    ) -> SearchResult | None:
        """Search until ponderhit or stop: one search (one tree) as long as the Hash allows."""
        with self._ponder_lock:  # a ponderhit from now on ends this search
            self._ponder_running = self._pondering.is_set() and not self._stop.is_set()
        if not self._ponder_running:
            return None
        try:
            result = agent.search(state, self._capped(), on_info=progress, candidates=False)
        finally:
            with self._ponder_lock:  # a ponderhit's stop must not end the timed search
                self._ponder_running = False
                agent.stop_event.clear()
        while self._pondering.is_set() and not self._stop.is_set():
            time.sleep(0.01)  # solved, or the Hash full: nothing to do until the answer is wanted
        return result


def _result_info(result: SearchResult, seconds: float) -> Info:
    return Info(
        iterations=result.iterations,
        seconds=seconds,
        speed=round(result.iterations / seconds) if seconds > 0 else None,
        nodes=result.nodes,
        win_probability=result.win_probability,
        margin=result.margin,
        exact=result.exact,
        pv=tuple(str(m) for m in result.principal_line),
    )


def _progress_info(agent: MCTSAgent, state: State, iterations: int, seconds: float) -> str:
    """An info line from the search tree as it stands (read between two batches)."""
    info = Info(
        iterations=iterations,
        seconds=seconds,
        speed=round(iterations / seconds) if seconds > 0 else None,
    )
    tree = agent._tree
    if tree is None:
        return info.line()
    try:
        stats = search_module.root_stats(tree)
        partial = agent._result(state, tree, stats, iterations, seconds)
    except Exception:  # the tree is the searcher's: if it cannot be read now, say less
        return info.line()
    return _result_info(partial, seconds).line()


# -- the command ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``patchwork engine``: speak the engine protocol on stdin/stdout until ``quit``."""
    parser = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork engine",
        description="Run the AI as a text engine on stdin/stdout (see docs/protocol.md).",
        epilog="Type 'patchwork' for the handshake, then position/go; 'quit' ends.",
    )
    try:
        parser.parse_args(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2
    server = EngineServer(sys.stdout)
    return server.run(sys.stdin.buffer)


if __name__ == "__main__":
    sys.exit(main())
