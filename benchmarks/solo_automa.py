"""The searcher against the official Automa: win rate and mean margin for each level and deck.

    python benchmarks/solo_automa.py [--games 200] [--iterations 2000] [--workers 2]
                                     [--levels 1 2 3 4 5] [--decks normal tactical] [--seed 7]

Each game is a fresh solo setup (its seed from --seed and the game's number), the searcher
(`MCTSAgent`, the hints' searcher, at a fixed iteration count so a busy machine plays the same
games) playing the person's side; Automa's turns are the engine's. Prints a table (Markdown,
for the README) and writes every game (its setup seed, scores and moves) to
benchmarks/results/solo_automa.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import patchwork as pw
from patchwork.ai import Limit
from patchwork.ai.search import MCTSAgent
from patchwork.engine.automa import LEVELS, Automa

RESULTS = Path(__file__).with_name("results") / "solo_automa.json"


def play(level: int, deck: str, seed: int, iterations: int) -> dict[str, object]:
    """One solo game to the end; what it came to."""
    state = pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(level, deck)))
    agent = MCTSAgent(limit=Limit(iterations=iterations), seed=seed, reuse=False)
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
    kept = {"iterations": args.iterations, "seed": args.seed, "games": games}
    args.out.write_text(json.dumps(kept, separators=(",", ":")) + "\n")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--levels", type=int, nargs="+", default=sorted(LEVELS))
    ap.add_argument("--decks", nargs="+", default=["normal", "tactical"])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    jobs = [
        (
            level,
            deck,
            args.seed * 1_000_000 + 1000 * level + g + (500 if deck == "tactical" else 0),
            args.iterations,
        )
        for level in args.levels
        for deck in args.decks
        for g in range(args.games)
    ]
    start = time.perf_counter()
    games: list[dict[str, object]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for i, game in enumerate(pool.map(play, *zip(*jobs, strict=True), chunksize=4), 1):
            games.append(game)
            if i % 20 == 0 or i == len(jobs):  # kept as it goes: a long run can be cut short
                save(args, games)
                seconds = time.perf_counter() - start
                print(f"{i}/{len(jobs)} games, {seconds:.0f} s", file=sys.stderr)
    print(f"searcher at {args.iterations} iterations a move, seed {args.seed}\n")
    print("| level | deck | games | searcher wins | mean margin | median margin |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for level in args.levels:
        for deck in args.decks:
            rows = [g for g in games if g["level"] == level and g["deck"] == deck]
            margins = [int(g["person"]) - int(g["automa"]) for g in rows]  # type: ignore[call-overload]
            wins = sum(bool(g["won"]) for g in rows)
            print(
                f"| {level} {LEVELS[level].name} | {deck} | {len(rows)} | "
                f"{100 * wins / len(rows):.1f}% | {statistics.mean(margins):+.1f} | "
                f"{statistics.median(margins):+.0f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
