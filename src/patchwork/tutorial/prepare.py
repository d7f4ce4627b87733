"""Make the prepared game of the guided first game (``data/game.json``).

    python -m patchwork.tutorial.prepare [--first-seed N] [--tries N]

A game is played from seed after seed, the learner's seat by AI level 3 and the opponent's
by the gentle level 1, until one offers every lesson a start in order: a position, later
than the previous lesson's, where the learner is to move and some move meets the lesson's
first step. The final count starts once both time tokens are within ``END_SPACES`` of the
end. The same options make the same file.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..ai.levels import former, level
from ..engine import Game, new_game
from ..engine.data import FINAL_SPACE
from .course import DATA, LEARNER, OPPONENT_LEVEL, can_meet
from .lessons import LESSONS

LEARNER_LEVEL = former(3)
END_SPACES = 10


def play(seed: int) -> Game:
    agents = {
        LEARNER: level(LEARNER_LEVEL, seed=seed),
        1 - LEARNER: level(OPPONENT_LEVEL, seed=seed),
    }
    game = Game(new_game(seed=seed))
    while not game.state.is_terminal():
        mover = game.state.current_player
        assert mover is not None
        game.push(agents[mover].choose(game.state))
    return game


def starts(game: Game) -> list[int] | None:
    """Each lesson's start in ``game``, in order; None if some lesson finds none."""
    states = game.states
    found: list[int] = []
    ply = 0
    for lesson in LESSONS:
        while ply < len(states):
            s = states[ply]
            ready = s.current_player == LEARNER and s.pending_specials == 0
            if lesson.id == "end":
                ready = ready and min(p.position for p in s.players) >= FINAL_SPACE - END_SPACES
            if ready and can_meet(lesson.steps[0], s):
                break
            ply += 1
        else:
            return None
        found.append(ply)
        ply += 1
    return found


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m patchwork.tutorial.prepare")
    p.add_argument("--first-seed", type=int, default=1)
    p.add_argument("--tries", type=int, default=50)
    args = p.parse_args(argv)
    for seed in range(args.first_seed, args.first_seed + args.tries):
        game = play(seed)
        found = starts(game)
        print(f"seed {seed}: {'starts ' + str(found) if found else 'not every lesson'}")
        if found is None:
            continue
        data = {
            "seed": seed,
            "line": [str(m) for m in game.moves],
            "starts": {lesson.id: ply for lesson, ply in zip(LESSONS, found, strict=True)},
        }
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(data, indent=1) + "\n", "utf-8")
        print(f"written to {DATA}")
        return 0
    print("no seed tried gives every lesson a start", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
