"""Who sits at each side of the table: a person or an agent, with the names shown and recorded."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from .. import i18n
from ..ai import Agent, MCTSAgent, agent_names, get_agent
from ..ai.levels import DEFAULT_LEVEL
from ..engine import Game, PatchworkError, Record, Rules
from ..i18n import _, digits, fmt
from ..i18n.commandline import add_lang_option
from ..options import add_rules_options

HUMAN = "human"
AUTOMA = "automa"  # the seat of the official solo opponent: the engine plays it (State.apply)
AUTOMA_NAME = "Automa"  # a name, the same in every language


@dataclass(frozen=True)
class Seat:
    """A seat: ``kind`` is "human" or an agent name; ``agent`` is None for a person.

    People are "you" when one sits at the table and "Player 1", "Player 2" (by seat) when
    two do, in every front end; a seat ``named`` by a loaded record shows that name instead."""

    kind: str
    record_name: str
    agent: Agent | None = None
    humans: int = 1  # people at the table (names "you" or "Player N")
    twin: bool = False  # both seats hold the same agent: each is numbered by its seat
    named: bool = False  # record_name is a name the game was given (shown as it is)

    @property
    def is_human(self) -> bool:
        return self.agent is None and self.kind != AUTOMA

    @property
    def is_you(self) -> bool:
        """The one person at the keyboard, spoken to as "you" (sentences for "you" have
        their own templates: "You bought", never "You buys")."""
        return self.agent is None and self.humans == 1 and not self.named

    def label(self, player: int) -> str:
        """The seat's name on screen, in the current language."""
        if self.named:
            return self.record_name
        if self.agent is None:
            return _("You") if self.humans == 1 else fmt(_("Player {n}"), n=player + 1)
        if self.kind.startswith("level") and self.kind[5:].isdigit():
            base = fmt(_("AI level {n}"), n=int(self.kind[5:]))
        else:
            base = self.kind
        return f"{base} ({digits(player + 1)})" if self.twin else base


def add_game_options(parser: argparse.ArgumentParser, opponent: str, watch: str) -> None:
    """The options both terminal games share: who plays, the seed, the rules, the language and
    a record to go on with. ``--opponent``
    and ``--seat`` are None unless given, so that a loaded game keeps its own seats."""
    kinds = [HUMAN, *agent_names()]
    parser.set_defaults(default_opponent=opponent)
    parser.add_argument(
        "--opponent",
        choices=kinds,
        help=fmt(
            _("who plays against you (default {opponent}; 'human' for two people)"),
            opponent=opponent,
        ),
    )
    parser.add_argument(
        "--seat",
        type=int,
        choices=(0, 1),
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
    add_lang_option(parser)
    parser.add_argument(
        "--load",
        metavar="FILE",
        help=_(
            "continue the game of a record (.json/.txt) with the players and language it was "
            "saved with (--opponent, --agents, --seat and --lang still choose)"
        ),
    )


def seat_kinds(args: argparse.Namespace, saved: Sequence[str] | None = None) -> list[str]:
    """Who plays each seat, from the options of :func:`add_game_options`: ``--agents`` for
    both, else a person in ``--seat`` against ``--opponent``. A saved game's seats (``saved``,
    a loaded record's) stand where the options do not say otherwise: ``--seat`` alone moves
    the person, ``--opponent`` alone changes the opponent."""
    if args.agents:
        return list(args.agents)
    if saved is not None and args.opponent is None and args.seat is None:
        return list(saved)
    seat, opponent = 0, args.default_opponent
    if saved is not None and list(saved).count(HUMAN) == 1:
        seat = list(saved).index(HUMAN)
        opponent = saved[1 - seat]
    seat = seat if args.seat is None else args.seat
    opponent = opponent if args.opponent is None else args.opponent
    kinds = [HUMAN, HUMAN]
    kinds[1 - seat] = opponent
    return kinds


def kinds_for(
    rules: Rules,
    saved: Sequence[str] | None,
    current: Sequence[str],
    opponent: str = f"level{DEFAULT_LEVEL}",
) -> tuple[str, str]:
    """Who plays a loaded game: the seats it was saved with, else the ones playing now. A
    solo game is always you against Automa; a two-player game never has Automa in it (the
    person keeps the seat and plays ``opponent``)."""
    if rules.solo is not None:
        return HUMAN, AUTOMA
    kinds = list(saved if saved is not None else current)
    if AUTOMA in kinds:
        kinds = [HUMAN, opponent]
    return kinds[0], kinds[1]


def default_record_name(kind: str, player: int, twin: bool) -> str:
    """The name a record gives a seat: "Player N" (by seat) for a person, the agent's name
    (numbered by seat when both seats hold it) for an agent."""
    if kind == HUMAN:
        return f"Player {player + 1}"
    return f"{kind} {player + 1}" if twin else kind


def make_seats(
    kinds: Sequence[str], seed: int | None = None, names: Sequence[str] | None = None
) -> tuple[Seat, Seat]:
    """Seats from two kinds ("human", "automa" or an agent name); agents get seeds derived
    from ``seed``. ``names`` (a loaded record's players) name the people where they differ
    from the default; an agent and Automa are always named by what they are."""
    if len(kinds) != 2:
        raise PatchworkError(_("a game needs exactly two players"))
    if AUTOMA in kinds and list(kinds) != [HUMAN, AUTOMA]:
        raise PatchworkError(_("a solo game is you (the first seat) against Automa"))
    humans = sum(kind == HUMAN for kind in kinds)
    twin = kinds[0] == kinds[1] and kinds[0] != HUMAN
    seats = []
    for p, kind in enumerate(kinds):
        record_name = default_record_name(kind, p, twin)
        named = kind == HUMAN and names is not None and names[p] != record_name
        if named and names is not None:
            record_name = names[p]
        if kind == AUTOMA:
            seats.append(Seat(AUTOMA, AUTOMA_NAME, None, humans, named=True))
            continue
        agent = None
        if kind != HUMAN:
            agent = get_agent(kind, seed=None if seed is None else seed + 1 + p)
        seats.append(Seat(kind, record_name, agent, humans, twin, named))
    return seats[0], seats[1]


def game_record(game: Game, seats: Sequence[Seat], termination: str | None = None) -> Record:
    """The record of a game played at these seats: the names, what played each seat and the
    language of the texts, so that ``--load`` resumes it as it was."""
    if game.state.is_terminal():
        termination = None
    return Record.from_game(
        game,
        players=(seats[0].record_name, seats[1].record_name),
        event="patchwork play",
        termination=termination,
        seats=(seats[0].kind, seats[1].kind),
        language=i18n.base_language(i18n.language()),
    )


def ponderer(seats: Sequence[Seat]) -> MCTSAgent | None:
    """The AI seat that thinks on its opponent's time (``MCTSAgent.ponders``), if any."""
    for seat in seats:
        agent = seat.agent
        if isinstance(agent, MCTSAgent) and agent.ponders:
            return agent
    return None


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
