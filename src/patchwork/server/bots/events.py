"""A game's start and end told to each account seated in it, live on its event stream and
/ws/me, on every process: a hook on the game's changes (games/changes.py), whose delivery
runs once the change is stored. A delivery lost (a process killed in between) is made good
by the stream itself: it opens with every game under way (service.py)."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from ..games.changes import Change, Extra, Hook
from ..people.hub import People
from .messages import GameBrief, GameFinish, GameStart


def told(change: Change) -> list[tuple[str, BaseModel]]:
    """Who is told what of ``change``: each seated account, of a start or an end."""
    game, before = change.game, change.before
    started = game.status == "active" and (before is None or before.status == "waiting")
    ended = game.status == "finished" and before is not None and before.status != "finished"
    found: list[tuple[str, BaseModel]] = []
    for seat in (0, 1):
        user = game.user(seat)
        if user is None:
            continue
        brief = GameBrief.of(game, seat)
        if started:
            found.append((user, GameStart(game=brief)))
        if ended:
            found.append(
                (user, GameFinish(game=brief, winner=game.winner, termination=game.termination))
            )
    return found


def hook(people: People) -> Hook:
    """The hook to register on ``GameService.changes`` (http/app.py)."""

    def on_change(change: Change) -> Extra | None:
        messages = told(change)
        if not messages:
            return None
        return Extra(then=[_deliver(people, messages)])

    return on_change


def _deliver(people: People, messages: list[tuple[str, BaseModel]]) -> Callable[[], None]:
    def deliver() -> None:
        for user, message in messages:
            people.deliver(user, message)

    return deliver
