"""Whether the review's chart can be trusted: every fall lies on a move that is marked.

    python benchmarks/review_consistency.py [--games 40] [--workers 2] [--iterations 30000]

Plays ``--games`` games between the AI levels 2, 4, 8 and 11 (the former levels 1-4, on which
it was measured; every ordered pair of two different levels
in turn, seeds 7000..), reviews each at the review's default limit, and checks on every move
the two promises of docs/strength.md: the value after a move is the value before the next
(no jump between two plies without a move to carry it), and every fall of 0.15 or more in
the mover's win probability lies on a move classed mistake or blunder. Prints those counts,
then for each level its moves' classes and its mean accuracy.
The games and their reviews are kept in benchmarks/results/review_consistency.json.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

import patchwork as pw
from patchwork.ai import Limit
from patchwork.ai.levels import former, level
from patchwork.ai.review import CLASSES, review

OUT = Path(__file__).with_name("results") / "review_consistency.json"
PLAYED = tuple(former(n) for n in (1, 2, 3, 4))
PAIRS = [(a, b) for a in PLAYED for b in PLAYED if a != b]


def play(a: int, b: int, seed: int) -> pw.Game:
    agents = (level(a, seed=seed), level(b, seed=seed + 1))
    game = pw.Game(pw.new_game(seed=seed))
    while not game.state.is_terminal():
        game.push(agents[game.state.current_player].choose(game.state))
    return game


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=30_000)
    args = ap.parse_args()
    jumps = falls = unmarked = 0
    moves: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    accuracy: dict[int, list[float]] = collections.defaultdict(list)
    kept = []
    start = time.perf_counter()
    for g in range(args.games):
        a, b = PAIRS[g % len(PAIRS)]
        game = play(a, b, 7000 + 2 * g)
        result = review(game, Limit(iterations=args.iterations), workers=args.workers)
        curve = result.curve()
        for p, (_, w1, _m1) in zip(result.plies, curve[1:], strict=True):
            lv = (a, b)[p.seat]
            after = w1 if p.seat == 0 else 1 - w1
            jumps += abs(after - p.win_probability_after) > 1e-4
            fall = p.win_probability_before - p.win_probability_after
            if fall >= 0.15:
                falls += 1
                unmarked += p.klass not in ("mistake", "blunder")
            moves[lv][p.klass] += 1
            moves[lv]["moves"] += not p.forced
        for seat, player in enumerate(result.players):
            if player.accuracy is not None:
                accuracy[(a, b)[seat]].append(player.accuracy)
        kept.append({"levels": [a, b], "record": pw.Record.from_game(game).to_text(),
                     "review": result.to_dict()})  # fmt: skip
        print(f"game {g + 1}/{args.games}: level {a} vs {b}, {len(game)} moves, "
              f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)  # fmt: skip
    OUT.write_text(json.dumps(kept) + "\n")
    print(f"{args.games} games, {sum(c['moves'] for c in moves.values())} moves chosen")
    print(f"jumps between plies without a move: {jumps}")
    print(f"falls of 0.15 or more: {falls}, of them not a mistake or blunder: {unmarked}")
    print("level  " + "  ".join(f"{c:>10}" for c in CLASSES) + "  accuracy")
    for lv in sorted(moves):
        c = moves[lv]
        mean = sum(accuracy[lv]) / len(accuracy[lv])
        print(f"{lv:>5}  " + "  ".join(f"{c[k]:>10}" for k in CLASSES) + f"  {mean:8.1f}")
    return 1 if jumps or unmarked else 0


if __name__ == "__main__":
    sys.exit(main())
