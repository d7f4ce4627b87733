"""What the AI processes run: plain functions of position text, so nothing heavy is pickled.

These run in the runner's worker processes, never on the server's event loop.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import threading
import time
from multiprocessing import util as mp_util
from typing import Any

from ...ai import Agent, Limit, MCTSAgent, analyse, level
from ...ai.analysis import as_dict
from ...ai.review import Value, value
from ...ai.warmup import warm_up_levels
from ...engine import State

# The searching levels keep their agent (and its trees and pools) between moves.
_AGENTS: dict[int, Agent] = {}
WATCH_SECONDS = 1.0
# The runner's words to a pondering worker, (ponder id, position after the person's reply or
# None to stop, seed); set by init_worker.
_inbox: Any = None


def init_worker(server_pid: int, inbox: Any = None) -> None:
    """Set up a worker: Ctrl-C is the server's to handle, and the worker ends when the
    server is gone, even if it was killed (a pool worker holds both ends of its own task
    pipe, so it would never see the server go and would wait forever). Whichever way the
    worker ends, the processes of its agents' own pools end first: a pool worker waits for
    its children before it exits, and they would wait for work forever."""
    global _inbox
    _inbox = inbox
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A broken pool terminates its other workers (SIGTERM), which runs no finalizer.
    signal.signal(signal.SIGTERM, _terminated)
    mp_util.Finalize(None, end_children, exitpriority=100)
    threading.Thread(target=_watch, args=(server_pid,), daemon=True).start()


def _watch(server_pid: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            end_children()
            os._exit(0)
        except PermissionError:  # alive, as someone else
            pass


def _terminated(signum: int, _frame: Any) -> None:
    end_children()
    os._exit(128 + signum)


def end_children() -> None:
    """Stop the processes this worker started (its searchers' pools) as it ends: they only
    compute, so they are killed rather than asked (asking waits on a pool that may be in
    the middle of a search, or already gone)."""
    children = multiprocessing.active_children()
    for child in children:
        child.kill()
    for child in children:
        child.join(5)


def warm_up() -> bool:
    """Load the compiled kernels before the first real request is timed."""
    warm_up_levels()
    return True


def _agent(level_number: int, seed: int) -> Agent:
    """The level's agent: a searching level's is kept, with its tree, between moves."""
    if level_number <= 2:
        return level(level_number, seed=seed)
    agent = _AGENTS.get(level_number)
    if agent is None:
        agent = _AGENTS[level_number] = level(level_number, seed=seed)
    return agent


def choose_move(position: str, level_number: int, seed: int) -> str:
    """The move (in the notation) that AI ``level_number`` plays in ``position``."""
    return str(_agent(level_number, seed).choose(State.from_text(position)))


class _Word:
    """A ponder's stop signal: set once the runner's word for this ponder has come (words
    for earlier ponders, sent after they had ended, are dropped)."""

    def __init__(self, ponder_id: int) -> None:
        self.ponder_id = ponder_id
        self.word: tuple[int, str | None, int] | None = None

    def is_set(self) -> bool:
        while self.word is None:
            try:
                word = _inbox.get_nowait()
            except queue.Empty:
                return False
            if word[0] == self.ponder_id:
                self.word = word
        return True


def ponder(position: str, level_number: int, ponder_id: int) -> tuple[str | None, int]:
    """Think on the person's time in ``position`` (their turn) if the level ponders, until
    the runner's word: the position after their reply (then answer it at once from the grown
    tree) or a stop. Returns (the AI's move or None, the iterations pondered); None also when
    pondering reached its bound before any word came."""
    agent = _agent(level_number, seed=ponder_id)
    if not isinstance(agent, MCTSAgent):
        return None, 0
    word = _Word(ponder_id)
    iterations = agent.ponder(State.from_text(position), word)
    _, after, seed = word.word or (ponder_id, None, 0)
    if after is None:  # told to stop, or pondered to the bound before any word
        return None, iterations
    return choose_move(after, level_number, seed), iterations


def analyse_position(position: str, seconds: float, seed: int) -> dict[str, Any]:
    """The searcher's view of ``position`` for the player to move, as JSON-ready data."""
    return as_dict(analyse(State.from_text(position), Limit(time=seconds), seed=seed))


def value_position(position: str, iterations: int, seed: int) -> Value:
    """One position of a game review: its value for player 0 and the searcher's move."""
    return value(State.from_text(position), Limit(iterations=iterations), seed)


def close_agents() -> None:
    for agent in list(_AGENTS.values()):
        if isinstance(agent, MCTSAgent):
            agent.close()
    _AGENTS.clear()
