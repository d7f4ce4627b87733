"""The ladder's table (docs/strength.md): each AI level against the one below.

    python benchmarks/strength.py run --games 200 --workers 2 --seed 37000 2-12
    python benchmarks/strength.py run --games 40 --workers 1 --seed 37000 13
    python benchmarks/strength.py table

``run`` plays level N against level N-1 for each step N asked for (``2-12``, ``5``, ``2,4``),
a paired `patchwork tournament` (each circle twice, seats swapped) on the seed SEED + N, and
saves every game in benchmarks/results/ladder/levelN_vs_levelM_seedS.json; ``table`` turns the
saved matches into the markdown rows of docs/strength.md. Every level but the top is set in
iterations, so its games do not depend on how busy the machine is; the top level thinks 5 s a
move on two processes, so its match names the iterations that comes to on an idle core here
(``--top-iterations``, 300,000 in all) and is reproducible too.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from patchwork.ai.levels import LEVELS
from patchwork.server.ratings.rating import elo_difference
from patchwork.tournament import run_tournament

RESULTS = Path(__file__).parent / "results" / "ladder"
TOP_ITERATIONS = 300_000  # what level 13's two processes search in 5 s here, together


def steps(text: str) -> list[int]:
    """``"2-12"``, ``"5"`` or ``"2,4"``: the levels whose step up is played."""
    chosen: list[int] = []
    for part in text.split(","):
        lo, _dash, hi = part.partition("-")
        chosen += range(int(lo), int(hi or lo) + 1)
    if not chosen or min(chosen) <= min(LEVELS) or max(chosen) > max(LEVELS):
        raise SystemExit(f"steps are levels {min(LEVELS) + 1}-{max(LEVELS)}, not {text!r}")
    return chosen


def run(args: argparse.Namespace) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    for n in steps(args.steps):
        upper = f"level{n}"
        if n == max(LEVELS):
            upper += f"@iterations={args.top_iterations}"
        seed = args.seed + n
        out = RESULTS / f"level{n}_vs_level{n - 1}_seed{seed}.json"
        result = run_tournament(
            [upper, f"level{n - 1}"], args.games, workers=args.workers, seed=seed, out=str(out)
        )
        print(f"{upper} vs level{n - 1}: {result.wins()} over {len(result.games)} games -> {out}")


def elo(rate: float) -> str:
    """The Elo difference a win rate means, as the AI levels' ratings read it."""
    return "beyond ±690" if rate in (0.0, 1.0) else f"{elo_difference(rate):+.0f}"


def table() -> None:
    print("| step | match | seed | games | wins | win rate (95% CI) | Elo | mean margin | s/move |")
    print("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    rows = []
    for path in RESULTS.glob("level*_vs_level*_seed*.json"):
        data = json.loads(path.read_text())
        first, second = data["summary"]["players"][:2]
        lo, hi = first["win_ci95"]
        seed = int(path.stem.rpartition("_seed")[2])
        step = int(path.stem.split("_")[0].removeprefix("level"))
        rows.append((step, (
            f"| {step - 1} → {step} | {first['name']} vs {second['name']} | {seed} | "
            f"{first['games']} | {first['wins']} | {100 * first['win_rate']:.1f}% "
            f"({100 * lo:.0f}-{100 * hi:.0f}%) | {elo(first['win_rate'])} | "
            f"{first['mean_margin']:+.1f} | {first['seconds_per_move']:.3f} |"
        )))  # fmt: skip
    for _step, row in sorted(rows):
        print(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("run", help="play steps of the ladder and save every game")
    play.add_argument("steps", help="levels whose step up to play: 2-12, 5 or 2,4")
    play.add_argument("--games", type=int, default=200, help="games per step (default 200)")
    play.add_argument("--workers", type=int, default=2, help="games at once (default 2)")
    play.add_argument("--seed", type=int, default=37_000, help="step N plays on SEED + N")
    play.add_argument(
        "--top-iterations", type=int, default=TOP_ITERATIONS,
        help="the top level's search, in all (default 300,000: its 5 s here)",
    )  # fmt: skip
    sub.add_parser("table", help="the saved matches as markdown rows")
    args = parser.parse_args()
    run(args) if args.command == "run" else table()


if __name__ == "__main__":
    sys.exit(main())
