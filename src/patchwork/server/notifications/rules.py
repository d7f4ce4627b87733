"""Which changes of a game notify whom (pure functions of games/changes.py's ``Change``).

Only an online game between two people (both seats ``human``) notifies, and only the seats
bound to an account; an account is never told of its own act:

- ``your_turn``, in a correspondence game only (in a real-time game the player is on the
  page, and the page itself tells them: web/js/notify.js): to the player whose turn it
  became by the other's move, or by the other taking the free seat; and to the first
  player of a correspondence game that starts at once (a lobby pairing, a challenge, a
  rematch: they may be away by then).
- ``game_over``: to both players when the game ends, except the one whose own act ended it
  (the last move, resigning, claiming the win); an ending on time tells both.
- ``follow_started``: when a game between people starts (a paired game, a rematch, an
  invitation taken), to the followers of each player (the first ``store.FAN_OUT`` of each, by
  when they followed; one notification per follower and game), not to the two players.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..games.changes import Change
from ..storage.models import GameData
from .schemas import About, FollowStartedAbout, GameOverAbout, YourTurnAbout

ACTS = ("move", "joined", "resign", "claim")  # the changes a seat makes (data["seat"])


@dataclass
class Planned:
    """What a change notifies: ``direct`` (account, what), and the game whose players'
    followers are told it started (``started``), found in the transaction itself."""

    direct: list[tuple[str, About]] = field(default_factory=list)
    started: GameData | None = None

    def __bool__(self) -> bool:
        return bool(self.direct) or self.started is not None


def between_people(game: GameData) -> bool:
    return game.mode == "online" and game.seat0_kind == "human" and game.seat1_kind == "human"


def correspondence(game: GameData) -> bool:
    return isinstance(game.clock, dict) and game.clock.get("kind") == "correspondence"


def actor(change: Change) -> int | None:
    """The seat whose own request made the change (None: the server's, e.g. a clock)."""
    seat = change.data.get("seat")
    return seat if change.kind in ACTS and seat in (0, 1) else None


def plan(change: Change) -> Planned:
    game = change.game
    planned = Planned()
    if not between_people(game):
        return planned
    before = change.before
    by = actor(change)
    started = game.status == "active" and (before is None or before.status == "waiting")
    if started:
        planned.started = game
    seat = change.to_move
    if (
        seat is not None
        and seat != by
        and correspondence(game)
        and (change.kind in ("move", "joined") or started)
    ):
        user = game.user(seat)
        if user is not None:
            planned.direct.append(
                (user, YourTurnAbout(game_id=game.id, opponent=game.name(1 - seat)))
            )
    if game.status == "finished" and before is not None and before.status != "finished":
        for seat in (0, 1):
            user = game.user(seat)
            if user is not None and seat != by:
                planned.direct.append((user, game_over(game, seat)))
    return planned


def game_over(game: GameData, seat: int) -> GameOverAbout:
    result: Literal["won", "lost", "draw"] = "draw"
    if game.winner is not None:
        result = "won" if game.winner == seat else "lost"
    scores = None if game.scores is None else [game.scores[seat], game.scores[1 - seat]]
    return GameOverAbout(
        game_id=game.id,
        opponent=game.name(1 - seat),
        result=result,
        termination=game.termination or "finished",
        scores=scores,
    )


def follow_started(game: GameData, pairs: list[tuple[str, str]]) -> list[tuple[str, About]]:
    """Each follower's notification of ``game`` from ``pairs`` (follower, followed): one per
    follower (the first player of the game they follow named), none to the players."""
    players = {game.seat0_user: 0, game.seat1_user: 1}
    told: dict[str, About] = {}
    for follower, followed in pairs:
        seat = players.get(followed)
        if seat is None or follower in players or follower in told:
            continue
        told[follower] = FollowStartedAbout(
            game_id=game.id, player=game.name(seat), opponent=game.name(1 - seat)
        )
    return list(told.items())
