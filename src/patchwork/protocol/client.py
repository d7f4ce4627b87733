"""Drive any program that speaks the engine protocol: ``Engine.popen(command)``.

    with Engine.popen("patchwork engine") as engine:
        move = engine.play(state, Limit(time=0.5))
        report = engine.analyse(state, Limit(iterations=20_000))

Every read has a deadline. A program that dies, stays silent past its time, or answers
something that is not the protocol raises :class:`EngineError` saying which, with the last
lines of its error output; the program is then stopped.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
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
        wait = self.timeout if timeout is None else timeout
        end = time.monotonic() + wait
        while True:
            line = self._read_until(end, wait, "readyok")
            if line.strip() == "readyok":
                return
            self._other(line, "readyok")

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
        if state.is_terminal():
            raise EngineError("the game is over: there is nothing to search")
        lim = Limit.of(limit, Limit())
        params = GoParams(movetime=lim.time, iterations=lim.iterations)
        deadline = (lim.time if lim.time is not None else SEARCH_TIMEOUT) + self.timeout
        self._send(position_command(state))
        self._send(params.line())
        infos: list[Info] = []
        end = time.monotonic() + deadline
        while True:
            line = self._read_until(end, deadline, "bestmove", stop_on_timeout=True)
            tokens = words(line)
            if tokens[:1] == ["info"]:
                try:
                    info = Info.parse(line)
                except ProtocolError as e:
                    self._fail(f"sent a bad info line: {e}")
                infos.append(info)
                if on_info is not None:
                    on_info(info)
                continue
            if tokens[:1] == ["bestmove"]:
                if len(tokens) != 2:
                    self._fail(f"sent a bad bestmove line: {line!r}")
                return self._analysis(state, tokens[1], infos)
            self._other(line, "info or bestmove")

    def _analysis(self, state: State, text: str, infos: list[Info]) -> Analysis:
        try:
            best = Move.parse(text, state)
        except PatchworkError as e:
            self._fail(f"answered the move {text!r}, which is not allowed here: {e}")
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
        )

    # -- the pipes -------------------------------------------------------------------------------

    def _send(self, line: str) -> None:
        if self._broken is not None:
            raise EngineError(f"{self.name} can no longer be used ({self._broken})")
        self._child.send(line + "\n")

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

    def _nonsense(self, line: str, expected: str) -> None:
        shown = line if len(line) <= 200 else line[:200] + "..."
        self._fail(f"answered nonsense: {shown!r} (expected {expected})")

    def _fail(self, message: str) -> NoReturn:
        text = f"engine {self.name!r} {message}"
        self._broken = message
        self._child.stop(0.5)
        raise EngineError(text)
