"""Who sits at each side of the table: a person or an agent, with the names shown and recorded."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from ..ai import Agent, agent_names, get_agent
from ..engine import PatchworkError
from ..i18n import _, fmt
from ..options import add_rules_options

HUMAN = "human"


@dataclass(frozen=True)
class Seat:
    """A seat: ``kind`` is "human" or an agent name; ``agent`` is None for a person."""

    kind: str
    record_name: str
    agent: Agent | None = None
    humans: int = 1  # people at the table (names "you" or "Player N")

    @property
    def is_human(self) -> bool:
        return self.agent is None

    def label(self, player: int) -> str:
        """The seat's name on screen, in the current language."""
        if self.agent is None:
            return _("You") if self.humans == 1 else fmt(_("Player {n}"), n=player)
        if self.kind.startswith("level") and self.kind[5:].isdigit():
            return fmt(_("level {n}"), n=int(self.kind[5:]))
        return self.kind


def add_game_options(parser: argparse.ArgumentParser, opponent: str, watch: str) -> None:
    """The options both terminal games share: who plays, the seed and the rules."""
    kinds = [HUMAN, *agent_names()]
    parser.add_argument(
        "--opponent",
        choices=kinds,
        default=opponent,
        help=fmt(
            _("who plays against you (default {opponent}; 'human' for two people)"),
            opponent=opponent,
        ),
    )
    parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
        default=0,
        help=_("your seat: 0 moves first (default 0)"),
    )
    parser.add_argument(
        "--agents",
        nargs=2,
        metavar=("P0", "P1"),
        choices=kinds,
        help=fmt(_("set both seats instead, e.g. --agents {agents} to watch a game"), agents=watch),
    )
    parser.add_argument("--seed", type=int, help=_("seed for the setup and the agents"))
    add_rules_options(parser, translate=_)
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_("language of the texts (en, fa, pt, ru, fi; default: the system locale)"),
    )


def seat_kinds(args: argparse.Namespace) -> list[str]:
    """Who plays each seat, from the options of :func:`add_game_options`: ``--agents`` for
    both, else a person in ``--seat`` against ``--opponent``."""
    if args.agents:
        return list(args.agents)
    kinds = [HUMAN, HUMAN]
    kinds[1 - args.seat] = args.opponent
    return kinds


def make_seats(kinds: Sequence[str], seed: int | None = None) -> tuple[Seat, Seat]:
    """Seats from two kinds ("human" or an agent name); agents get seeds derived from ``seed``."""
    if len(kinds) != 2:
        raise PatchworkError(_("a game needs exactly two players"))
    humans = sum(kind == HUMAN for kind in kinds)
    seats = []
    for p, kind in enumerate(kinds):
        record_name = kind if kinds[0] != kinds[1] else f"{kind} {p}"
        agent = None
        if kind != HUMAN:
            agent = get_agent(kind, seed=None if seed is None else seed + 1 + p)
        seats.append(Seat(kind, record_name, agent, humans))
    return seats[0], seats[1]


def stop_agent(agent: Agent | None) -> None:
    """Ask a searching agent to stop thinking now (agents that do not search ignore it)."""
    event = getattr(agent, "stop_event", None)
    if event is not None:
        event.set()


def close_agent(agent: Agent | None) -> None:
    """Release what an agent holds (worker processes), if it holds anything."""
    close = getattr(agent, "close", None)
    if callable(close):
        close()
