"""How much of the endgame the exact solver (`patchwork.ai.endgame`) solves within a budget.

    python benchmarks/endgame.py [--budget 300000] [--games 40]

The positions: from `--games` self-play games of the searcher at 300 iterations a move (seeds
5000..), the first position where the two tokens together are at most D spaces from the end,
for D = 12 (where the searcher hands over to the solver) to 20. They are kept in
benchmarks/results/endgame_positions.json, so that every version of the solver is measured on
the same ones. Prints, for each D, how many are solved within the budget, the median and
largest node counts of those solved, and the seconds the whole row took.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import patchwork as pw
from patchwork.ai import endgame, get_agent

POSITIONS = Path(__file__).with_name("results") / "endgame_positions.json"
DISTANCES = (12, 14, 16, 18, 20)


def make_positions(games: int) -> dict[str, list[str]]:
    found: dict[int, list[str]] = {d: [] for d in DISTANCES}
    for g in range(games):
        state = pw.new_game(seed=5000 + g)
        agent = get_agent("mcts@iterations=300,exact_endgame=no", seed=g)
        while not state.is_terminal():
            for d in DISTANCES:
                if len(found[d]) <= g and endgame.near_end(state, d):
                    found[d].append(state.to_text())
            state = state.apply(agent.choose(state))
    return {str(d): texts for d, texts in found.items()}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=300_000)
    ap.add_argument("--games", type=int, default=40)
    args = ap.parse_args(argv)
    if not POSITIONS.exists():
        POSITIONS.parent.mkdir(parents=True, exist_ok=True)
        POSITIONS.write_text(json.dumps(make_positions(args.games), indent=0) + "\n")
    suite = json.loads(POSITIONS.read_text())
    line = np.zeros(endgame.MAX_PLIES, dtype=np.int64)
    endgame.solve(pw.new_game(seed=0).vector, 10, line)  # compile before timing
    print(f"budget {args.budget:,} nodes\n")
    print("| D (spaces to the end) | solved | median nodes | most nodes | seconds |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for d, texts in suite.items():
        start = time.perf_counter()
        nodes = []
        for text in texts:
            found = endgame.solve(pw.State.from_text(text).vector, args.budget, line)[2]
            if found >= 0:
                nodes.append(found)
        seconds = time.perf_counter() - start
        median = f"{statistics.median(nodes):,.0f}" if nodes else "-"
        most = f"{max(nodes):,}" if nodes else "-"
        print(f"| {d} | {len(nodes)}/{len(texts)} | {median} | {most} | {seconds:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
