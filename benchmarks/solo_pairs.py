"""Two records of ``solo_automa.py`` compared on the setups both played: the paired figures.

    python benchmarks/solo_pairs.py A.json B.json [--parts]

Games of the same setup seed are paired (the same circle, the same deck order), so what tells
the two players apart is the games one won and the other lost, and the mean difference of their
margins with its standard error: a far smaller error than that of either win rate alone. One
table row for each level and deck the two records share. ``--parts`` replays the games and adds
where the points went: the means of each part of Automa's score (rule 17) and of the person's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import patchwork as pw
from patchwork.engine.automa import LEVELS, Automa
from patchwork.engine.errors import PatchworkError
from patchwork.engine.moves import parse_move


class RecordError(ValueError):
    """A file that is not a record of ``solo_automa.py``."""


def load(path: Path) -> tuple[str, dict[int, dict[str, Any]]]:
    """A record's player (its setting and budget) and its games by setup seed."""
    try:
        record = json.loads(path.read_text())
    except OSError as e:
        raise RecordError(f"{path}: cannot be read ({e.strerror})") from e
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RecordError(f"{path}: not JSON ({e})") from e
    games = record.get("games") if isinstance(record, dict) else None
    if not isinstance(games, list):
        raise RecordError(f"{path}: no list of games (is it a record of solo_automa.py?)")
    by_seed: dict[int, dict[str, Any]] = {}
    for i, game in enumerate(games):
        if not isinstance(game, dict) or not _is_game(game):
            raise RecordError(
                f"{path}: game {i} lacks a level, deck, seed, person, automa or won of its kind"
            )
        by_seed[game["seed"]] = game
    budget = f"{record['time']:g} s" if record.get("time") else f"{record.get('iterations')} it"
    who = "ceiling" if record.get("peek") else str(record.get("agent", "?"))
    return f"{who} at {budget}, seed {record.get('seed')}", by_seed


def _is_game(game: dict[str, Any]) -> bool:
    ints = ("level", "seed", "person", "automa")
    return (
        game.get("level") in LEVELS
        and all(isinstance(game.get(k), int) and not isinstance(game.get(k), bool) for k in ints)
        and isinstance(game.get("deck"), str)
        and isinstance(game.get("won"), bool)
    )


Game = dict[str, Any]
Pair = tuple[Game, Game]


def pairs(a: dict[int, Game], b: dict[int, Game]) -> dict[tuple[int, str], list[Pair]]:
    """The games of the setups both records played, by level and deck."""
    grouped: dict[tuple[int, str], list[Pair]] = {}
    for seed in sorted(a.keys() & b.keys()):
        x, y = a[seed], b[seed]
        grouped.setdefault((x["level"], x["deck"]), []).append((x, y))
    return grouped


def margin(game: Game) -> int:
    return int(game["person"]) - int(game["automa"])


def row(level: int, deck: str, games: list[Pair]) -> str:
    """One table row: the games, each side's wins and mean margin, the games only one side
    won, and the mean margin difference (A - B) with its standard error."""
    n = len(games)
    wins_a = sum(x["won"] for x, _ in games)
    wins_b = sum(y["won"] for _, y in games)
    only_a = sum(x["won"] and not y["won"] for x, y in games)
    only_b = sum(y["won"] and not x["won"] for x, y in games)
    diffs = [margin(x) - margin(y) for x, y in games]
    error = statistics.stdev(diffs) / n**0.5 if n > 1 else float("nan")
    mean_a = statistics.mean(margin(x) for x, _ in games)
    mean_b = statistics.mean(margin(y) for _, y in games)
    return (
        f"| {level} {LEVELS[level].name} | {deck} | {n} | {100 * wins_a / n:.1f}%, {mean_a:+.1f} | "
        f"{100 * wins_b / n:.1f}%, {mean_b:+.1f} | {only_a} | {only_b} | "
        f"{statistics.mean(diffs):+.2f} ± {error:.2f} |"
    )


# The parts of a finished game's scores, by the names the table gives them.
PARTS = {
    "buttons": "Automa's buttons",
    "patches_with_buttons": "its patches with buttons",
    "printed_buttons": "buttons printed on them",
    "automa_tile": "its 7x7 tile (share)",
    "person_buttons": "the person's buttons",
    "empty": "empty squares",
    "person_tile": "the person's 7x7 tile (share)",
}


def parts(game: Game) -> dict[str, int]:
    """The game replayed: each part of both scores (the tile as 1 or 0)."""
    state = pw.new_game(seed=game["seed"], rules=pw.Rules(solo=Automa(game["level"], game["deck"])))
    moves = game.get("moves")
    if not isinstance(moves, list):
        raise RecordError(f"setup {game['seed']}: no moves to replay")
    try:
        for text in moves:
            state = state.apply(parse_move(str(text)))
    except PatchworkError as e:
        raise RecordError(f"setup {game['seed']}: its moves do not replay ({e})") from e
    if not state.is_terminal() or state.scores() != (game["person"], game["automa"]):
        raise RecordError(f"setup {game['seed']}: its moves do not come to its scores")
    assert state.automa is not None
    automa = dict(state.automa.score_parts)
    buttons, bonus, empty = state.score_parts(0)
    return {
        "buttons": automa.get("buttons", 0),
        "patches_with_buttons": automa.get("patches_with_buttons", 0),
        "printed_buttons": automa.get("printed_buttons", 0),
        "automa_tile": int(state.bonus_owner == 1),
        "person_buttons": buttons,
        "empty": empty,
        "person_tile": int(bonus > 0),
    }


def parts_rows(level: int, deck: str, games: list[Pair]) -> list[str]:
    """Two table rows, A's and B's: the mean of each part over the setups both played."""
    rows = []
    for side in (0, 1):
        replayed = [parts(pair[side]) for pair in games]
        means = [statistics.mean(p[key] for p in replayed) for key in PARTS]
        cells = " | ".join(f"{m:.2f}" for m in means)
        rows.append(f"| {level} {LEVELS[level].name} | {deck} | {'AB'[side]} | {cells} |")
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path, help="a record of solo_automa.py (player A)")
    ap.add_argument("b", type=Path, help="another, of the same --seed (player B)")
    ap.add_argument(
        "--parts", action="store_true", help="where the points went (replays every game)"
    )
    args = ap.parse_args(argv)
    try:
        (name_a, a), (name_b, b) = load(args.a), load(args.b)
    except RecordError as e:
        print(f"solo_pairs: {e}", file=sys.stderr)
        return 2
    grouped = pairs(a, b)
    if not grouped:
        print("solo_pairs: the two records share no setup (compare runs of the same --seed)",
              file=sys.stderr)  # fmt: skip
        return 1
    print(f"A: {name_a}\nB: {name_b}\n")
    print("| level | deck | setups | A: wins, margin | B: wins, margin | only A won | only B won "
          "| margin A - B |")  # fmt: skip
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (level, deck), games in sorted(grouped.items()):
        print(row(level, deck, games))
    if args.parts:
        print(f"\n| level | deck | player | {' | '.join(PARTS.values())} |")
        print("| --- | --- | --- |" + " ---: |" * len(PARTS))
        try:
            for (level, deck), games in sorted(grouped.items()):
                print("\n".join(parts_rows(level, deck, games)))
        except RecordError as e:
            print(f"solo_pairs: {e}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
