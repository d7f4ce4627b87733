"""The strength table of the README: each level against greedy and against the level below.

    python benchmarks/strength.py run level3:level2:200 level4:level3:200 ...  # play, save JSON
    python benchmarks/strength.py run --workers 2 level5@iterations=300000:level4:40
    python benchmarks/strength.py table                                       # markdown rows

Each match is a `patchwork tournament` of paired setups (seats swapped, seed 2026); its JSON
lands in benchmarks/results/A_vs_B.json (settings after `@` left out of the file name), and
`table` turns every saved result into a README row. Levels 3 and 4 are set in iterations, so
their games do not depend on how busy the machine is; level 5 is timed, so its matches name an
iteration count instead (what its two processes search in 5 s on idle cores here, in all).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from patchwork.tournament import run_tournament

RESULTS = Path(__file__).parent / "results"


def run(matches: list[str]) -> None:
    RESULTS.mkdir(exist_ok=True)
    workers = 1
    if matches[:1] == ["--workers"]:
        workers, matches = int(matches[1]), matches[2:]
    for match in matches:
        a, b, games = match.split(":")
        out = RESULTS / f"{a.split('@')[0]}_vs_{b.split('@')[0]}.json"
        result = run_tournament([a, b], int(games), workers=workers, seed=2026, out=str(out))
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
