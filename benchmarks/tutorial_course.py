"""How the guided first game goes for a beginner: which lessons go on in the learner's own
game, how long each waits for its moment, and how long the whole course is.

    python benchmarks/tutorial_course.py [--learners 200] [--seed 0]

Each learner plays as the course's opponent, AI level 2 (the former level 1), would when its
move meets the step, and otherwise a move chosen at random among those that do (a beginner
following the task); while a lesson waits it plays that level's move. Prints, for each
lesson, the share of learners whose own game it went on in (not the prepared game's) and
the free moves it waited on average, then the learner's moves in all and the final scores.
The figures are in docs/learn.md.
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics
import sys
import time

from patchwork.ai.levels import level
from patchwork.engine import Move
from patchwork.tutorial import LESSONS, Progress, attempt, begin, replay
from patchwork.tutorial.course import OPPONENT_LEVEL, meets


def choose(progress: Progress, rng: random.Random, seed: int) -> Move:
    state = replay(progress.moves).state
    liked = level(OPPONENT_LEVEL, seed=seed).choose(state)
    if progress.free or meets(progress.task, state, liked):
        return liked
    return rng.choice([m for m in state.legal_moves() if meets(progress.task, state, m)])


def learner(seed: int) -> tuple[dict[str, bool], dict[str, int], int, tuple[int, int]]:
    """One learner's course: per lesson whether it went on in their own game and its free
    moves; their moves in all; the final scores."""
    rng = random.Random(seed)
    progress = begin()
    own: dict[str, bool] = {LESSONS[0].id: True}
    waited: dict[str, int] = collections.Counter()
    moves = 0
    while not progress.finished:
        lesson = progress.current.id
        waited[lesson] += progress.free
        tried = attempt(progress, str(choose(progress, rng, seed * 1000 + moves)))
        assert tried.met
        moves += 1
        nxt = tried.progress
        if not nxt.finished and nxt.lesson != progress.lesson:
            own[nxt.current.id] = not nxt.jumped
        progress = nxt
    scores = replay(progress.moves).state.scores()
    return own, waited, moves, scores


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--learners", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    start = time.perf_counter()
    own: dict[str, list[bool]] = collections.defaultdict(list)
    waited: dict[str, list[int]] = collections.defaultdict(list)
    lengths, margins = [], []
    for n in range(args.learners):
        o, w, moves, (mine, theirs) = learner(args.seed + n)
        for lesson in LESSONS:
            own[lesson.id].append(o[lesson.id])
            waited[lesson.id].append(w[lesson.id])
        lengths.append(moves)
        margins.append(mine - theirs)
        print(f"\r{n + 1}/{args.learners}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{args.learners} learners in {time.perf_counter() - start:.0f} s\n")
    print("| lesson | in the learner's own game | free moves waited (mean) |")
    print("| --- | --- | --- |")
    for lesson in LESSONS:
        share = 100 * sum(own[lesson.id]) / args.learners
        print(f"| {lesson.id} | {share:.0f}% | {statistics.mean(waited[lesson.id]):.2f} |")
    print(
        f"\nlearner's moves: median {statistics.median(lengths):.0f}, "
        f"range {min(lengths)}-{max(lengths)}; final margin mean {statistics.mean(margins):+.1f}, "
        f"won {sum(m > 0 for m in margins)} of {args.learners}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
