"""The searcher against the official Automa: win rate and mean margin for each level and deck.

    python benchmarks/solo_automa.py [--games 200] [--iterations 2000 | --time 1.0]
                                     [--workers 2] [--levels 1 2 3 4 5] [--decks normal tactical]
                                     [--seed 7] [--agent mcts@SETTINGS] [--peek] [--out FILE]

Each game is a fresh solo setup (its seed from --seed and the game's number), the searcher
(`MCTSAgent`, the hints' searcher) playing the person's side on one core, at a fixed iteration
count (the same games on any machine) or a time a move; Automa's turns are the engine's.
``--peek`` plays the ceiling: the same searcher told Automa's real deck order (one world, the
true one), a player for this benchmark only, never offered to people. Prints a table
(Markdown, for the README) and writes every game (its setup seed, scores and moves) to --out.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import patchwork as pw
from patchwork.ai import Limit, solo
from patchwork.ai.registry import parse_spec
from patchwork.ai.search import MCTSAgent
from patchwork.engine.automa import LEVELS, Automa, hidden_part

RESULTS = Path(__file__).with_name("results") / "solo" / "latest.json"


class PeekingAgent(MCTSAgent):
    """The ceiling: the searcher in the one world that is true (it reads the real deck)."""

    def sample_worlds(self, state: pw.State, rng: random.Random) -> solo.Worlds:
        real = hidden_part(state)
        assert real is not None
        return solo.world_of(state, real)


def agent_for(args: argparse.Namespace, seed: int) -> MCTSAgent:
    """The player: ``--agent``'s searcher (its settings, else --iterations or --time)."""
    _name, options = parse_spec(args.agent)
    options.setdefault(
        "limit", Limit(time=args.time) if args.time else Limit(iterations=args.iterations)
    )
    if args.peek:
        return PeekingAgent(**{**options, "worlds": 1}, seed=seed, reuse=False)
    return MCTSAgent(**options, seed=seed, reuse=False)


def play(level: int, deck: str, seed: int, args: argparse.Namespace) -> dict[str, object]:
    """One solo game to the end; what it came to."""
    state = pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(level, deck)))
    agent = agent_for(args, seed)
    moves = []
    while not state.is_terminal():
        move = agent.choose(state)
        moves.append(str(move))
        state = state.apply(move)
    agent.close()
    person, automa = state.scores()
    return {
        "level": level,
        "deck": deck,
        "seed": seed,
        "person": person,
        "automa": automa,
        "won": state.winner() == 0,
        "moves": moves,
    }


def save(args: argparse.Namespace, games: list[dict[str, object]]) -> None:
    args.out.parent.mkdir(parents=True, exist_ok=True)
    kept = {
        "iterations": None if args.time else args.iterations,
        "time": args.time,
        "agent": args.agent,
        "peek": args.peek,
        "seed": args.seed,
        "games": games,
    }
    args.out.write_text(json.dumps(kept, separators=(",", ":")) + "\n")


def table(args: argparse.Namespace, games: list[dict[str, object]]) -> None:
    player = "the ceiling (told the real deck)" if args.peek else "searcher"
    budget = f"{args.time:g} s" if args.time else f"{args.iterations} iterations"
    print(f"{player} ({args.agent}) at {budget} a move, seed {args.seed}\n")
    print("| level | deck | games | searcher wins | mean margin | median margin |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for level in args.levels:
        for deck in args.decks:
            rows = [g for g in games if g["level"] == level and g["deck"] == deck]
            if not rows:
                continue
            margins = [int(g["person"]) - int(g["automa"]) for g in rows]  # type: ignore[call-overload]
            wins = sum(bool(g["won"]) for g in rows)
            print(
                f"| {level} {LEVELS[level].name} | {deck} | {len(rows)} | "
                f"{100 * wins / len(rows):.1f}% | {statistics.mean(margins):+.1f} | "
                f"{statistics.median(margins):+.0f} |"
            )


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--time", type=float, default=None, help="seconds a move (not iterations)")
    ap.add_argument("--workers", type=int, default=2, help="games at once, one core each")
    ap.add_argument("--levels", type=int, nargs="+", default=sorted(LEVELS))
    ap.add_argument("--decks", nargs="+", default=["normal", "tactical"])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--agent", default="mcts", help="the searcher and its settings, e.g. mcts@worlds=16"
    )
    ap.add_argument("--peek", action="store_true", help="the ceiling: told the real deck order")
    ap.add_argument("--first", type=int, default=0, help="skip each setting's first N games")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    jobs = [
        (level, deck, args.seed * 1_000_000 + 1000 * level + g + (500 if deck == "tactical" else 0))
        for level in args.levels
        for deck in args.decks
        for g in range(args.first, args.first + args.games)
    ]
    start = time.perf_counter()
    games: list[dict[str, object]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play, *job, args) for job in jobs]
        for i, future in enumerate(futures, 1):
            games.append(future.result())
            if i % 20 == 0 or i == len(jobs):  # kept as it goes: a long run can be cut short
                save(args, games)
                seconds = time.perf_counter() - start
                print(f"{i}/{len(jobs)} games, {seconds:.0f} s", file=sys.stderr, flush=True)
    table(args, games)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
