"""``patchwork train``: fit the playouts' purchase policy (``rollout``) to the searcher's choices.

With ``--solo LEVEL`` the searcher plays the person's side against the Automa instead (never
reading its deck), and the weights fitted are those of a solo game's playouts.

The searcher plays itself at a fixed number of iterations a move (so a run is the same
whatever the machine or ``--workers``: every game carries its own seeds). At each purchase
decision its sampling search made (not a special patch, not the exact endgame, more than one
option) every option's features are recorded with the one the search chose (the most
visited). A conditional logit (a softmax over each decision's options of the weighted
features) is fitted to those choices by Newton's method, and the weights are written as JSON
for ``rollout.load_weights``; the package ships the file in ``patchwork/ai``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import TextIO

import numpy as np

from ..engine import kernels as K
from ..engine.automa import DECKS, LEVELS, Automa
from ..engine.errors import PatchworkError
from ..engine.rules import Rules
from ..engine.state import new_game
from ..i18n.commandline import HelpFormatter
from ..parallel import open_executor
from . import mcts, rollout
from .limit import Limit
from .search import MCTSAgent

HELD_OUT = 0.2  # the share of games kept out of the fit to measure how well it generalises
RIDGE = 1e-3


@dataclass(frozen=True)
class Decision:
    """One purchase decision: each option's features (a row each) and the chosen row."""

    features: np.ndarray
    chosen: int


@dataclass(frozen=True)
class Setup:
    """What one self-play game is: its seed, the searcher's iterations a move and playout
    temperature, and ``solo`` (the Automa it plays against, or None for itself)."""

    seed: int
    iterations: int
    tau: float
    solo: Automa | None = None


def self_play(setup: Setup) -> list[Decision]:
    """One game of the searcher against itself (or, solo, the person's side against the
    Automa, whose deck it never reads): its purchase decisions."""
    agent = MCTSAgent(
        limit=Limit(iterations=setup.iterations),
        # Playouts alone, as when the shipped weights were fitted (the learned value was
        # fitted to this searcher's play in turn).
        params=mcts.Params(rollout_tau=setup.tau, value_mix=0.0),
        seed=setup.seed,
    )
    state = new_game(seed=setup.seed, rules=Rules(solo=setup.solo))
    out = []
    while not state.is_terminal():
        result = agent.search(state, candidates=True)
        if state.pending_specials == 0 and not result.exact and len(result.candidates) > 1:
            v = state.vector
            p = K.current_player(v)
            rows = np.zeros((len(result.candidates), rollout.N_FEATURES))
            for i, c in enumerate(result.candidates):
                slot = -1 if c.patch_id is None else int(K.offered_slot(v, c.patch_id))
                rollout.option_features(v, p, slot, rows[i])
            # Candidates come most visited first: the search's choice is row 0.
            out.append(Decision(rows, 0))
        state = state.apply(result.best_move)
    agent.close()
    return out


def _stack(decisions: list[Decision]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """All options' rows, each decision's first row, its option count, and the choices (0/1)."""
    x = np.concatenate([d.features for d in decisions])
    sizes = np.array([len(d.features) for d in decisions])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    chosen = np.zeros(len(x))
    chosen[starts + np.array([d.chosen for d in decisions])] = 1.0
    return x, starts, sizes, chosen


def _probabilities(
    x: np.ndarray, starts: np.ndarray, sizes: np.ndarray, w: np.ndarray
) -> np.ndarray:
    u = x @ w
    u = u - np.repeat(np.maximum.reduceat(u, starts), sizes)
    e = np.exp(u)
    p: np.ndarray = e / np.repeat(np.add.reduceat(e, starts), sizes)
    return p


def fit(decisions: list[Decision], ridge: float = RIDGE, steps: int = 100) -> np.ndarray:
    """The weights of the conditional logit that makes the chosen options most likely
    (maximum likelihood with a small ridge penalty; the problem is convex)."""
    if not decisions:
        raise PatchworkError("no decisions to fit: play more games")
    x, starts, sizes, chosen = _stack(decisions)
    n = len(decisions)
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = _probabilities(x, starts, sizes, w)
        grad = x.T @ (p - chosen) / n + 2 * ridge * w
        px = p[:, None] * x
        mean = np.add.reduceat(px, starts, axis=0)  # each decision's expected row
        hessian = (x.T @ px - mean.T @ mean) / n + 2 * ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def log_loss(decisions: list[Decision], w: np.ndarray) -> float:
    """The mean negative log-likelihood of the choices (uniform guessing: mean log options)."""
    x, starts, sizes, chosen = _stack(decisions)
    p = _probabilities(x, starts, sizes, w)
    return float(-np.log(p[chosen == 1]).mean())


def agreement(decisions: list[Decision], w: np.ndarray | None = None) -> float:
    """The share of decisions whose best option is the one chosen: by the weights ``w``, or
    without them by the heuristic purchase policy."""
    hits = 0
    for d in decisions:
        values = d.features @ w if w is not None else _heuristic(d.features)
        hits += int(np.argmax(values) == d.chosen)
    return hits / max(len(decisions), 1)


def _heuristic(rows: np.ndarray) -> np.ndarray:
    """The heuristic purchase policy's judgement: advance about 1, a patch its rate."""
    i = rollout.FEATURES.index
    values: np.ndarray = rows[:, i("advance")] + rows[:, i("rate")]
    return values


def train(
    games: int,
    iterations: int,
    seed: int,
    workers: int = 1,
    tau: float = 1.0,
    log: TextIO = sys.stderr,
    solo: tuple[int, tuple[str, ...]] | None = None,
) -> dict[str, object]:
    """Play ``games`` self-play games, fit, and return the weights file's content. With
    ``solo`` (an Automa level and its decks, taken in turn) the games are against the Automa."""
    if games < 2:
        raise PatchworkError("--games must be at least 2 (one is held out to check the fit)")
    if iterations < 1:
        raise PatchworkError("--iterations must be at least 1")
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32)
    automas = [None] if solo is None else [Automa(solo[0], deck) for deck in solo[1]]
    items = [Setup(int(s), iterations, tau, automas[g % len(automas)]) for g, s in enumerate(seeds)]
    per_game: dict[int, list[Decision]] = {}
    start = last = time.perf_counter()
    with open_executor(workers) as executor:
        for i, decisions in enumerate(
            executor.map_unordered(_indexed, list(enumerate(items))), start=1
        ):
            per_game[decisions[0]] = decisions[1]
            now = time.perf_counter()
            if now - last >= 10 or i == games:
                last = now
                elapsed = timedelta(seconds=round(now - start))
                eta = timedelta(seconds=round((now - start) / i * (games - i)))
                n = sum(len(d) for d in per_game.values())
                print(f"games {i}/{games}  decisions {n}  elapsed {elapsed}  eta {eta}", file=log)
    ordered = [per_game[g] for g in range(games)]
    cut = max(1, min(games - 1, round(games * (1 - HELD_OUT))))
    train_set = [d for g in ordered[:cut] for d in g]
    test_set = [d for g in ordered[cut:] for d in g]
    checked = fit(train_set)
    weights = fit(train_set + test_set)
    return {
        "weights": {
            name: round(float(v), 6) for name, v in zip(rollout.FEATURES, weights, strict=True)
        },
        "trained": {
            "games": games,
            "iterations": iterations,
            "seed": seed,
            "playouts": "learned" if tau > 0 else "heuristic",
            **({} if solo is None else {"solo_level": solo[0], "decks": list(solo[1])}),
            "decisions": len(train_set) + len(test_set),
            "held_out_games": games - cut,
            "held_out_agreement": round(agreement(test_set, w=checked), 4),
            "held_out_heuristic_agreement": round(agreement(test_set), 4),
            "held_out_log_loss": round(log_loss(test_set, checked), 4) if test_set else None,
        },
    }


def _indexed(item: tuple[int, Setup]) -> tuple[int, list[Decision]]:
    return item[0], self_play(item[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        formatter_class=HelpFormatter,
        prog="patchwork train",
        description="Fit the search's playout policy to the searcher's own choices in "
        "self-play, and write the weights (JSON).",
        epilog="The package's weights came from: patchwork train --games 400 --iterations 3000 "
        "--playouts heuristic --seed 1 --workers 2 --out src/patchwork/ai/rollout_weights.json. "
        "Weights from --solo are tried with: python benchmarks/solo_automa.py "
        "--agent mcts@solo_weights=FILE",
    )
    parser.add_argument("--games", type=int, default=400, help="self-play games (default 400)")
    parser.add_argument(
        "--iterations", type=int, default=3000, help="search iterations a move (default 3000)"
    )
    parser.add_argument(
        "--playouts",
        choices=("learned", "heuristic"),
        default="learned",
        help="the playouts of the searcher that plays: the shipped learned policy (default) "
        "or the heuristic one it replaced",
    )
    parser.add_argument(
        "--solo",
        type=int,
        choices=sorted(LEVELS),
        metavar="LEVEL",
        help="play the person's side against the Automa at this level (1-5) rather than the "
        "searcher against itself: the weights for solo games' playouts",
    )
    parser.add_argument(
        "--decks",
        nargs="+",
        choices=DECKS,
        default=list(DECKS),
        help="with --solo: Automa's decks, taken in turn (default both)",
    )
    parser.add_argument("--workers", type=int, default=1, help="games played at once (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    parser.add_argument(
        "--out", type=Path, default=Path("rollout_weights.json"), help="where to write the weights"
    )
    args = parser.parse_args(argv)
    try:
        if args.out.suffix != ".json":
            raise PatchworkError(f"--out must name a .json file, not {args.out}")
        if not args.out.parent.is_dir():
            raise PatchworkError(f"--out: no such folder {args.out.parent}")
        tau = 1.0 if args.playouts == "learned" else 0.0
        solo = None if args.solo is None else (args.solo, tuple(args.decks))
        doc = train(args.games, args.iterations, args.seed, args.workers, tau, solo=solo)
    except PatchworkError as e:
        print(f"patchwork train: {e}", file=sys.stderr)
        return 2
    args.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    t = doc["trained"]
    assert isinstance(t, dict)
    print(
        f"{t['decisions']} decisions from {args.games} games; on the {t['held_out_games']} games "
        f"held out the fitted policy picks the search's choice in "
        f"{100 * t['held_out_agreement']:.1f}% of decisions (the heuristic: "
        f"{100 * t['held_out_heuristic_agreement']:.1f}%); weights written to {args.out}"
    )
    return 0
