"""The strength table of the README: each level against greedy and against the level below.

    python benchmarks/strength.py run level3:level2:200 level4:level3:60 ...   # play, save JSON
    python benchmarks/strength.py table                                       # markdown rows

Each match is a `patchwork tournament` of paired setups (seats swapped); its JSON lands in
benchmarks/results/A_vs_B.json, and `table` turns every saved result into a README row.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from patchwork.ai.tournament import run_tournament

RESULTS = Path(__file__).parent / "results"


def run(matches: list[str]) -> None:
    RESULTS.mkdir(exist_ok=True)
    for match in matches:
        a, b, games = match.split(":")
        out = RESULTS / f"{a}_vs_{b}.json"
        result = run_tournament([a, b], int(games), workers=1, seed=2026, out=str(out))
        print(f"{a} vs {b}: {result.wins()} over {len(result.games)} games -> {out}")


def table() -> None:
    print("| match | games | wins | win rate (95% CI) | Elo difference | mean margin | s/move |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for path in sorted(RESULTS.glob("*_vs_*.json")):
        data = json.loads(path.read_text())
        first, second = data["summary"]["players"][:2]
        lo, hi = first["win_ci95"]
        elo = -second["elo"] if second["elo"] is not None else float("inf")  # vs the first
        print(
            f"| {first['name']} vs {second['name']} | {first['games']} | {first['wins']} | "
            f"{100 * first['win_rate']:.1f}% ({100 * lo:.0f}-{100 * hi:.0f}%) | {elo:+.0f} | "
            f"{first['mean_margin']:+.1f} | {first['seconds_per_move']:.2f} |"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        run(sys.argv[2:])
    elif sys.argv[1:2] == ["table"]:
        table()
    else:
        sys.exit(__doc__)
