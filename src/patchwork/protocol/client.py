"""Drive any program that speaks the engine protocol: ``Engine.popen(command)``.

    with Engine.popen("patchwork engine") as engine:
        move = engine.play(state, Limit(time=0.5))
        report = engine.analyse(state, Limit(iterations=20_000))
        with engine.analysis(state) as search:  # until stopped: info lines as they come
            for info in search:
                ...

Every read has a deadline. A program that dies, stays silent past its time, or answers
something that is not the protocol raises :class:`EngineError` saying which, with the last
lines of its error output; the program is then stopped.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import NoReturn

from ..ai import Limit
from ..engine import Move, PatchworkError, State
from .engine_protocol import (
    HANDSHAKE,
    HANDSHAKE_OK,
    GoParams,
    Info,
    OptionSpec,
    ProtocolError,
    position_command,
    words,
)
from .process import Child, ReadTimeout

_INTEGER = re.compile(r"-?[0-9]+")
DEFAULT_TIMEOUT = 10.0  # seconds for any answer, on top of the search time asked for
READY_TIMEOUT = 120.0  # isready may load (or compile) the engine's code
SEARCH_TIMEOUT = 300.0  # a search without a time limit (iterations, or the engine's default)


class EngineError(PatchworkError):
    """The engine program failed: it died, fell silent, or answered nonsense."""


@dataclass(frozen=True)
class Analysis:
    """What an engine reported about a position, for the player to move."""

    best_move: Move
    win_probability: float | None
    margin: float | None
    principal_line: list[Move]
    iterations: int | None
    seconds: float
    exact: bool = False
    infos: list[Info] = field(default_factory=list)
    # From sending ``go`` to the arrival of ``bestmove``, by our clock: what a time limit is
    # judged on (``seconds`` is the engine's own report).
    answered_after: float = 0.0


@dataclass(frozen=True)
class Shown:
    """A position as an engine's ``show`` wrote it back: what it understood."""

    text: str  # position text
    to_move: int | None  # None once the game is over
    winner: int | None  # None until then
    scores: tuple[int, int]


class AnalysisStream:
    """A search under way (:meth:`Engine.analysis`): iterating yields its info lines as they
    come, until its ``bestmove``; :meth:`stop` ends it early. Leaving a ``with`` block stops
    it, so the engine is free for the next command."""

    def __init__(self, engine: Engine, state: State, limit: Limit | float | None) -> None:
        if state.is_terminal():
            raise EngineError("the game is over: there is nothing to search")
        lim = Limit.of(limit, Limit())
        params = GoParams(movetime=lim.time, iterations=lim.iterations, infinite=limit is None)
        engine._send(position_command(state))
        engine._send(params.line())
        self._sent = time.monotonic()
        engine._running = self
        self.infos: list[Info] = []
        self.result: Analysis | None = None  # once bestmove has come
        self._engine, self._state = engine, state
        self._stopping = False
        # A bounded search must answer in time; one until stop may take that long a line.
        self._allowed = (SEARCH_TIMEOUT if lim.time is None else lim.time) + engine.timeout
        self._end = None if params.infinite else self._sent + self._allowed

    def __iter__(self) -> Iterator[Info]:
        return self

    def __next__(self) -> Info:
        engine = self._engine
        while self.result is None:
            end = self._end or time.monotonic() + self._allowed
            line = engine._read_until(end, self._allowed, "bestmove", stop_on_timeout=True)
            tokens = words(line)
            if tokens[:1] == ["info"]:
                try:
                    info = Info.parse(line)
                except ProtocolError as e:
                    engine._fail(f"sent a bad info line: {e}")
                self.infos.append(info)
                return info
            if tokens[:1] == ["bestmove"]:
                if len(tokens) != 2:
                    engine._fail(f"sent a bad bestmove line: {line!r}")
                answered_after = engine._child.stdout.arrived - self._sent
                self.result = engine._analysis(self._state, tokens[1], self.infos, answered_after)
                engine._running = None
            else:
                engine._other(line, "info or bestmove")
        raise StopIteration

    def wait(self) -> Analysis:
        """Read the search to its end (a search until stop ends only with :meth:`stop`)."""
        for _ in self:
            pass
        assert self.result is not None
        return self.result

    def stop(self) -> Analysis:
        """End the search now: what it has found."""
        if self.result is None and not self._stopping:
            self._stopping = True
            self._engine._send("stop")
            self._allowed = self._engine.timeout
            self._end = time.monotonic() + self._allowed
        return self.wait()

    def __enter__(self) -> AnalysisStream:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.result is None and self._engine._broken is None:
            self.stop()


class Engine:
    """A running engine program; build one with :meth:`popen`."""

    def __init__(self, child: Child, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._child = child
        self.timeout = timeout
        self.name = child.label
        self.version = ""
        self.protocol = ""
        self.options: dict[str, OptionSpec] = {}
        self._broken: str | None = None
        self._running: AnalysisStream | None = None  # an analysis not read to its end

    # -- starting and stopping -----------------------------------------------------------------

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        ready_timeout: float = READY_TIMEOUT,
        options: dict[str, object] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        stderr: Callable[[str], None] | None = None,
    ) -> Engine:
        """Start ``command`` (a string is split like a shell would), shake hands, set
        ``options`` and wait until it is ready. ``stderr`` sees each line of its error output."""
        try:
            child = Child(command, cwd=cwd, env=env, stderr_echo=stderr)
        except ValueError as e:
            raise EngineError(str(e)) from None
        engine = cls(child, timeout)
        try:
            engine._handshake()
            for name, value in (options or {}).items():
                engine.set_option(name, value)
            engine.is_ready(ready_timeout)
        except BaseException:
            engine.close()
            raise
        return engine

    def _handshake(self) -> None:
        self._send(HANDSHAKE)
        end = time.monotonic() + self.timeout
        while True:
            line = self._read_until(end, self.timeout, f"the handshake ({HANDSHAKE_OK})")
            tokens = words(line)
            if not tokens:
                continue
            if line.strip() == HANDSHAKE_OK:
                return
            if tokens[:1] == ["id"] and len(tokens) >= 2:
                value = line.strip().split(None, 2)[2] if len(tokens) > 2 else ""
                if tokens[1] == "name":
                    self.name = value
                elif tokens[1] == "version":
                    self.version = value
                elif tokens[1] == "protocol":
                    self.protocol = value
                continue
            if tokens[:1] == ["option"]:
                try:
                    spec = OptionSpec.parse(line)
                except ProtocolError as e:
                    self._fail(f"sent a bad option declaration: {e}")
                self.options[spec.name.lower()] = spec
                continue
            self._nonsense(line, f"id, option or {HANDSHAKE_OK}")

    def quit(self, timeout: float = 2.0) -> int | None:
        """Ask the program to quit and wait for it (then terminate it); its exit status."""
        if self._broken is None:
            self._send("quit")
        self._broken = self._broken or "quit"
        return self._child.stop(timeout)

    close = quit

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.quit()

    def __del__(self) -> None:
        child = getattr(self, "_child", None)
        if child is not None and child.alive():
            child.proc.kill()

    # -- commands --------------------------------------------------------------------------------

    def set_option(self, name: str, value: object) -> None:
        spec = self.options.get(name.lower())
        if spec is None:
            known = ", ".join(s.name for s in self.options.values()) or "none"
            raise EngineError(f"{self.name} has no option {name!r} (it offers: {known})")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            text = spec.check(text)
        except ProtocolError as e:
            raise EngineError(str(e)) from None
        self._send(f"setoption name {spec.name} value {text}")

    def is_ready(self, timeout: float | None = None) -> None:
        """Wait for ``readyok`` (which also shows every earlier command was taken in)."""
        self._send("isready")
        self._answer("readyok", timeout)

    def new_game(self) -> None:
        """Tell the engine a new game starts (it forgets what it learnt in the last one)."""
        self._send("newgame")

    def play(self, state: State, limit: Limit | float | None = None) -> Move:
        """The engine's move in ``state`` (checked against the rules)."""
        return self.analyse(state, limit).best_move

    def analyse(
        self,
        state: State,
        limit: Limit | float | None = None,
        on_info: Callable[[Info], None] | None = None,
    ) -> Analysis:
        """Search ``state`` within ``limit`` (seconds, a Limit, or None for the engine's own
        default) and report the best move, the last win probability, margin and line."""
        search = AnalysisStream(self, state, Limit.of(limit, Limit()))
        for info in search:
            if on_info is not None:
                on_info(info)
        return search.wait()

    def analysis(self, state: State, limit: Limit | float | None = None) -> AnalysisStream:
        """Start searching ``state`` within ``limit``, or with None until stopped (``go
        infinite``), and read what the engine says as it thinks, as python-chess's
        ``analysis`` does: ``with engine.analysis(state) as search: for info in search: ...``."""
        return AnalysisStream(self, state, limit)

    def legal(self, state: State) -> list[Move]:
        """The moves the engine holds legal in ``state`` (each one checked against the rules)."""
        self._send(position_command(state))
        self._send("legal")
        return [self._move(text, state, "listed") for text in words(self._answer("legal"))[1:]]

    def show(self, state: State) -> Shown:
        """``state`` as the engine read it: its position text and status, to check that it
        understood the position (a solo game's is the public form it was sent)."""
        self._send(position_command(state))
        self._send("show")
        text = " ".join(words(self._answer("position"))[1:])
        status = self._answer("status")
        match words(status):
            case ["status", "tomove", player, "scores", a, b] if _integers(player, a, b):
                return Shown(text, int(player), None, (int(a), int(b)))
            case ["status", "over", "winner", player, "scores", a, b] if _integers(player, a, b):
                return Shown(text, None, int(player), (int(a), int(b)))
        self._nonsense(status, "status tomove P scores A B, or status over winner W scores A B")

    def _analysis(
        self, state: State, text: str, infos: list[Info], answered_after: float
    ) -> Analysis:
        best = self._move(text, state, "answered")
        last = next((i for i in reversed(infos) if i.string is None), Info())
        line: list[Move] = []
        s = state
        for t in last.pv:  # keep the principal line as far as it is legal
            try:
                m = Move.parse(t, s)
            except PatchworkError:
                break
            line.append(m)
            s = s.apply(m)
            if s.is_terminal():
                break
        if not line or line[0] != best:
            line = [best]
        return Analysis(
            best_move=best,
            win_probability=last.win_probability,
            margin=last.margin,
            principal_line=line,
            iterations=last.iterations,
            seconds=last.seconds or 0.0,
            exact=last.exact,
            infos=infos,
            answered_after=answered_after,
        )

    def _move(self, text: str, state: State, verb: str) -> Move:
        try:
            return Move.parse(text, state)
        except PatchworkError as e:
            self._fail(f"{verb} the move {text!r}, which is not allowed here: {e}")

    # -- the pipes -------------------------------------------------------------------------------

    def _send(self, line: str) -> None:
        if self._broken is not None:
            raise EngineError(f"{self.name} can no longer be used ({self._broken})")
        if self._running is not None and line not in ("stop", "quit"):
            raise EngineError(f"{self.name} is still searching: stop its analysis first")
        self._child.send(line + "\n")

    def _answer(self, word: str, wait: float | None = None) -> str:
        """The next line that starts with ``word``, within ``wait`` seconds (the timeout)."""
        wait = self.timeout if wait is None else wait
        end = time.monotonic() + wait
        while True:
            line = self._read_until(end, wait, word)
            if words(line)[:1] == [word]:
                return line
            self._other(line, word)

    def _read_until(
        self, end: float, allowed: float, waiting_for: str, stop_on_timeout: bool = False
    ) -> str:
        """The next line, if it comes before ``end`` (``allowed`` seconds after the request)."""
        try:
            line = self._child.read(max(0.0, end - time.monotonic()))
        except ReadTimeout:
            if stop_on_timeout:
                self._child.send("stop\n")  # a courtesy before the program is stopped
            self._fail(f"did not answer within {allowed:g} s while we waited for {waiting_for}")
        if line is None:
            self._fail(f"stopped while we waited for {waiting_for}: {self._child.describe_exit()}")
        return line

    def _other(self, line: str, expected: str) -> None:
        """A line that is not what we wait for: an error report, chatter, or nonsense."""
        tokens = words(line)
        if not tokens or tokens[0] == "info":
            return
        if tokens[0] == "error":
            self._fail(f"reported an error: {line.strip()[6:].strip()}")
        self._nonsense(line, expected)

    def _nonsense(self, line: str, expected: str) -> NoReturn:
        shown = line if len(line) <= 200 else line[:200] + "..."
        self._fail(f"answered nonsense: {shown!r} (expected {expected})")

    def _fail(self, message: str) -> NoReturn:
        text = f"engine {self.name!r} {message}"
        self._broken = message
        self._child.stop(0.5)
        raise EngineError(text)


def _integers(*texts: str) -> bool:
    return all(_INTEGER.fullmatch(t) for t in texts)
