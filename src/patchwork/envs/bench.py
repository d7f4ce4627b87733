"""How many environment steps per second each adapter runs, with random legal actions.

    python -m patchwork.envs.bench [--seconds 3] [--json]

Every figure plays whole random games (uniform over the legal ids, chosen from the mask the
adapter hands out, as a masked policy would) for about ``--seconds`` of wall-clock time on
one core, after one warm-up game, and keeps the best of ``--repeats`` rounds. A Gymnasium
step is one of your moves plus the opponent's reply (``opponent="random"``); every other
figure counts one move per step. Adapters whose framework is not installed are left out.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from ..engine import new_game
from ..i18n.commandline import HelpFormatter
from . import encoding as E

Runner = Callable[[np.random.Generator], int]  # plays one game, returns its steps


def _engine(rng: np.random.Generator) -> int:
    state = new_game(seed=int(rng.integers(2**31)))
    steps = 0
    while not state.is_terminal():
        codes = state.legal_move_codes()
        state = state.apply_code(int(codes[rng.integers(len(codes))]))
        steps += 1
    return steps


def _encoded(rng: np.random.Generator) -> int:
    # The engine plus what every adapter adds per step: the mask and the observation.
    state = new_game(seed=int(rng.integers(2**31)))
    mask = np.zeros(E.NUM_ACTIONS, dtype=np.int8)
    steps = 0
    while not state.is_terminal():
        E.legal_action_mask(state, mask)
        E.encode_observation(state, state.current_player or 0)
        legal = np.flatnonzero(mask)
        action = int(legal[rng.integers(len(legal))])
        state = state.apply_code(E.action_to_code(state, action))
        steps += 1
    return steps


def _gymnasium(opponent: str) -> Runner | None:
    try:
        from .gymnasium import PatchworkEnv
    except ImportError:
        return None
    env = PatchworkEnv(opponent=opponent)
    first = [True]

    def run(rng: np.random.Generator) -> int:
        seed = int(rng.integers(2**31)) if first[0] else None
        first[0] = False
        _, info = env.reset(seed=seed)
        steps = 0
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(legal[rng.integers(len(legal))])
            done = terminated or truncated
            steps += 1
        return steps

    return run


def _pettingzoo(wrapped: bool) -> Runner | None:
    try:
        from .pettingzoo import env, raw_env
    except ImportError:
        return None
    game = env() if wrapped else raw_env()

    def run(rng: np.random.Generator) -> int:
        game.reset(seed=int(rng.integers(2**31)))
        steps = 0
        for agent in game.agent_iter():
            obs, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            game.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            del agent
        return steps

    return run


def _openspiel(observe: bool) -> Runner | None:
    try:
        import pyspiel

        from . import openspiel  # noqa: F401 - registers the game
    except ImportError:
        return None
    game = pyspiel.load_game("python_patchwork")

    def run(rng: np.random.Generator) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
        return steps

    return run


def _measure(run: Runner, seconds: float, seed: int, repeats: int) -> dict[str, float]:
    """Best of ``repeats`` rounds of ``seconds / repeats`` each (other programs on the
    machine only ever slow a round down)."""
    rng = np.random.default_rng(seed)
    run(rng)  # warm-up (compiles, fills caches)
    best = 0.0
    steps_total = games_total = 0
    for _ in range(repeats):
        steps = games = 0
        start = time.perf_counter()
        while True:
            steps += run(rng)
            games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / repeats:
                break
        best = max(best, steps / elapsed)
        steps_total += steps
        games_total += games
    return {"steps_per_s": best, "games": games_total, "steps": steps_total}


RUNNERS: tuple[tuple[str, str, Callable[[], Runner | None]], ...] = (
    ("engine", "engine only: legal_move_codes + apply_code (a baseline)", lambda: _engine),
    ("encoded", "engine + mask + observation (what every adapter adds)", lambda: _encoded),
    (
        "gymnasium",
        "Gymnasium PatchworkEnv, opponent random (step = move + reply)",
        lambda: _gymnasium("random"),
    ),
    ("gymnasium_self", "Gymnasium PatchworkEnv, self-play", lambda: _gymnasium("self")),
    ("pettingzoo_raw", "PettingZoo raw_env (AEC)", lambda: _pettingzoo(False)),
    ("pettingzoo", "PettingZoo env() with the classic wrappers", lambda: _pettingzoo(True)),
    ("openspiel", "OpenSpiel python_patchwork: legal_actions + apply", lambda: _openspiel(False)),
    ("openspiel_obs", "OpenSpiel, plus observation_tensor each step", lambda: _openspiel(True)),
)


def run_all(
    seconds: float = 3.0,
    seed: int = 0,
    repeats: int = 3,
    progress: Callable[[str], None] | None = None,
) -> dict[str, dict[str, float]]:
    """Steps per second of every adapter that can be imported here."""
    results: dict[str, dict[str, float]] = {}
    for key, label, build in RUNNERS:
        runner = build()
        if runner is None:
            continue
        if progress:
            progress(label)
        results[key] = _measure(runner, seconds, seed, repeats)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        formatter_class=HelpFormatter, description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="rounds per figure (best kept)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results = run_all(args.seconds, args.seed, args.repeats, None if args.json else _say)
    if args.json:
        print(json.dumps({"python": platform.python_version(), "results": results}, indent=2))
        return 0
    labels = {key: label for key, label, _ in RUNNERS}
    print(f"\n{'steps/s':>10}  {'games':>6}  what")
    for key, r in results.items():
        print(f"{r['steps_per_s']:>10,.0f}  {int(r['games']):>6}  {labels[key]}")
    return 0


def _say(label: str) -> None:
    print(f"measuring: {label}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
