"""What the AI processes run: plain functions of position text, so nothing heavy is pickled.

These run in the runner's worker processes, never on the server's event loop.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from multiprocessing import util as mp_util
from typing import Any

from ..ai import Agent, Limit, MCTSAgent, analyse, level
from ..ai.review import Value, value
from ..ai.warmup import warm_up_levels
from ..engine import Buy, State, square_name

# The searching levels keep their agent (and its trees and pools) between moves.
_AGENTS: dict[int, Agent] = {}
WATCH_SECONDS = 1.0


def init_worker(server_pid: int) -> None:
    """Set up a worker: Ctrl-C is the server's to handle, and the worker ends when the
    server is gone, even if it was killed (a pool worker holds both ends of its own task
    pipe, so it would never see the server go and would wait forever). Whichever way the
    worker ends, the processes of its agents' own pools end first: a pool worker waits for
    its children before it exits, and they would wait for work forever."""
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


def choose_move(position: str, level_number: int, seed: int) -> str:
    """The move (in the notation) that AI ``level_number`` plays in ``position``."""
    state = State.from_text(position)
    if level_number <= 2:
        return str(level(level_number, seed=seed).choose(state))
    agent = _AGENTS.get(level_number)
    if agent is None:
        agent = _AGENTS[level_number] = level(level_number, seed=seed)
    return str(agent.choose(state))


def _squares(move: Any) -> list[str]:
    return [square_name(r, c) for r, c in sorted(move.squares)]


def analyse_position(position: str, seconds: float, seed: int) -> dict[str, Any]:
    """The searcher's view of ``position`` for the player to move, as JSON-ready data."""
    state = State.from_text(position)
    result = analyse(state, Limit(time=seconds), seed=seed)
    return {
        "player": result.player,
        "best_move": str(result.best_move),
        "squares": _squares(result.best_move),
        "win_probability": round(result.win_probability, 4),
        "margin": round(result.margin, 2),
        "principal_line": [str(m) for m in result.principal_line],
        "exact": result.exact,
        "iterations": result.iterations,
        "seconds": round(result.seconds, 3),
        "candidates": [
            {
                "move": str(c.move),
                "patch": c.patch_id
                if c.patch_id is not None
                else (c.move.patch_id if isinstance(c.move, Buy) else None),
                "visits": c.visits,
                "win_probability": round(c.win_probability, 4),
                "margin": round(c.margin, 2),
                "line": [str(m) for m in c.line],
            }
            for c in result.candidates
        ],
    }


def value_position(position: str, iterations: int, seed: int) -> Value:
    """One position of a game review: its value for player 0 and the searcher's move."""
    return value(State.from_text(position), Limit(iterations=iterations), seed)


def close_agents() -> None:
    for agent in list(_AGENTS.values()):
        if isinstance(agent, MCTSAgent):
            agent.close()
    _AGENTS.clear()
