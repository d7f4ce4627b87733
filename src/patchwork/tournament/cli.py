"""``patchwork tournament``: the command line over :func:`run_tournament` and its report."""

from __future__ import annotations

import argparse
import sys

from ..ai import Limit, agent_names
from ..engine import PatchworkError
from ..i18n import _
from ..i18n.commandline import RawDescriptionHelpFormatter
from ..options import add_rules_options, positive_int, positive_seconds, rules_from_args
from ..parallel import add_ray_option
from ..protocol.agent import TIME_MARGIN
from .report import print_report
from .run import TournamentError, run_tournament

EPILOG = """\
Each pair of players (a round robin for three or more) plays --games games: every random
circle twice, seats swapped; an odd number is rounded up. Circles and agent seeds come from
--seed, so a tournament is reproducible whatever --workers or --ray is (searches limited by
time are the exception). Without --time or --iterations each agent thinks as long as it
normally does (levels 5-12: 13 to 10,000 iterations, level 13: 5 s). Ctrl-C stops:
the finished games are reported and written to --out.

A player that fails forfeits the game and the tournament goes on (--stop-on-fault: the
first failure ends it): one that raises or answers an illegal move, or a cmd: program that
dies, answers nonsense, or answers more than {margin:g} s after --time (measured from `go`
to its `bestmove`). The report counts each player's forfeits.

players: {names};
each with optional settings after @ (level11@iterations=2000,c_uct=0.5);
or cmd:COMMAND, a program speaking the engine protocol (docs/protocol.md), quoted as one
argument: "cmd:./mybot --flag". Each worker process starts it once and stops it at the end;
or py:MODULE:FACTORY[@settings], an agent from a Python module importable from the current
directory (py:benchmarks.baseline:agent, the frozen searcher that benchmarks measure against):
FACTORY(seed=SEED, **settings) in every process that plays it, time= and iterations= as
limit=Limit(...), any other key=value as a number, true/false or text (docs/protocol.md).
"""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork tournament",
        description="Play agents against each other and report win rates and Elo.",
        epilog=EPILOG.format(names=", ".join(agent_names()), margin=TIME_MARGIN),
        formatter_class=RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="two or more agent names, cmd:COMMAND or py:MODULE:FACTORY",
    )
    p.add_argument(
        "--games", type=positive_int, default=10, metavar="N",
        help="games per pair (default 10; an odd number is rounded up)",
    )  # fmt: skip
    p.add_argument(
        "--time", type=positive_seconds, metavar="S", help="seconds per move for every agent"
    )
    p.add_argument(
        "--iterations", type=positive_int, metavar="K",
        help="search iterations per move for every agent (with --time: whichever ends first)",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=positive_int, metavar="W",
        help="games played at once, each in its own process (default 1: in this process; "
        "with --ray: one per CPU of the cluster)",
    )  # fmt: skip
    add_ray_option(
        p,
        _(
            "play the games on a Ray cluster: ADDRESS is auto, HOST:PORT or ray://HOST:PORT; "
            "without one, a Ray of this machine started for the run (needs "
            "patchwork-game[cluster])"
        ),
    )
    p.add_argument("--seed", type=int, default=0, help="tournament seed (default 0)")
    add_rules_options(p)
    p.add_argument("--out", metavar="FILE", help="write the results: FILE.json or FILE.csv")
    p.add_argument(
        "--stop-on-fault", action="store_true",
        help="end the tournament at a player's first failure instead of forfeiting the game",
    )  # fmt: skip
    return p


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """``patchwork tournament``: 0 done, 1 an agent failed (--stop-on-fault) or --out could
    not be written, 2 bad arguments, 130 interrupted (the finished games are still reported
    and written)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help, or argparse's own message for bad options
        return e.code if isinstance(e.code, int) else 2
    limit = None
    if args.time is not None or args.iterations is not None:
        limit = Limit(time=args.time, iterations=args.iterations)
    if args.games % 2:
        _say(
            f"note: {args.games} games per pair is odd; playing {args.games + 1} so that "
            "every circle is played from both seats"
        )
    try:
        rules = rules_from_args(args)
        result = run_tournament(
            args.players,
            args.games,
            limit=limit,
            workers=args.workers if args.ray else args.workers or 1,
            seed=args.seed,
            rules=rules,
            progress=True,
            out=args.out,
            ray=args.ray,
            stop_on_fault=args.stop_on_fault,
        )
    except TournamentError as e:
        if e.result is not None:
            print_report(e.result)
        _say(f"patchwork tournament: {e}")
        return 1
    except PatchworkError as e:
        _say(f"patchwork tournament: {e}")
        return 2
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    print_report(result)
    if args.out:
        _say(f"results written to {args.out}")
    if result.interrupted:
        _say(f"interrupted after {len(result.games)} of {result.planned} games")
        return 130
    return 0
