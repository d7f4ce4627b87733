"""New games: the row of a game created on request, of a game the lobby paired, of a
rematch, and of a game against the AI played elsewhere (the guided first game's)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from ...engine import PatchworkError, Rules, State, new_game, standard_circle
from ...engine.automa import Automa, deck_seed
from ...i18n import N_
from ..common.errors import ServerError
from ..common.tokens import token_hash
from ..storage.models import GameData, UserData, utcnow
from .clocks import ClockSpec
from .live import rules_of
from .requests import ClockIn, CreateGame


def seat_name(seat: int) -> str:
    """The name of a person who gave none: Player 1, Player 2 by seat, as the terminal app
    names them (stored in English; the web client says it in the page's language)."""
    return f"Player {seat + 1}"


def ai_name(level: int) -> str:
    """The AI's name at ``level``: "AI level 3" (stored in English, as Player 1; the web
    client says it in the page's language)."""
    return f"AI level {level}"


AUTOMA_NAME = "Automa"  # a name, the same in every language (as the terminal app's)


def solo_setup(req: CreateGame) -> dict[str, object] | None:
    """What a solo game's row keeps of Automa: its options and the seed its deck is
    shuffled from (secret: it decides the deck's order, D6). From the request's ``seed``
    when one is given, so that a seeded game is reproducible."""
    solo = req.rules.solo
    if solo is None:
        return None
    seed = deck_seed(req.seed) if req.seed is not None else secrets.randbits(32)
    return {**Automa(solo.level, solo.deck).to_dict(), "seed": seed}


def new_id() -> str:
    return secrets.token_urlsafe(9)


def clock_spec(clock: ClockIn | None) -> ClockSpec | None:
    if clock is None:
        return None
    if clock.kind == "fischer":
        assert clock.initial is not None
        return ClockSpec(
            "fischer",
            initial_ms=round(clock.initial * 1000),
            increment_ms=round(clock.increment * 1000),
        )
    assert clock.days is not None
    return ClockSpec("correspondence", days=clock.days)


def new_row(spec: ClockSpec | None, **fields: Any) -> GameData:
    """A new game's row: a fresh id at version 1, a seed for its AI, the clock (each player
    starting with the whole allowance), and ``fields``."""
    now = utcnow()
    return GameData(
        id=new_id(),
        created_at=now,
        updated_at=now,
        version=1,
        ai_seed=secrets.randbits(62),
        clock=None if spec is None else spec.to_json(),
        remaining0=None if spec is None else spec.allowance_ms,
        remaining1=None if spec is None else spec.allowance_ms,
        **fields,
    )


@dataclass(frozen=True)
class NewGame:
    data: GameData
    token: str  # the creator's secret (the row keeps only its hash)
    seat: int | None  # the creator's seat; None at one screen (both)
    invite: str | None  # online: the code the friend joins with


def new_game_data(req: CreateGame, user: UserData | None = None) -> NewGame:
    """The row of a game created on request; the engine checks the rules and the circle.

    Signed in (``user``), the creator's seat is bound to the account and carries its name
    (a game at one screen is not: its one token plays both seats)."""
    if req.rated and user is None:
        raise ServerError("account_required", N_("sign in to play a rated game"))
    try:
        solo = solo_setup(req)
        r = req.rules
        rules = rules_of(r.edition, r.rotation, r.flip, solo)
        circle = (
            list(req.circle)
            if req.circle is not None
            else standard_circle(req.seed if req.seed is not None else secrets.randbits(62))
        )
        new_game(circle=circle, rules=rules, automa_seed=None if solo is None else solo["seed"])  # type: ignore[arg-type]
    except PatchworkError as e:
        raise ServerError("invalid_request", str(e)) from None
    seat = secrets.randbelow(2) if req.seat == "random" else req.seat
    first = secrets.randbelow(2) if req.first_player == "random" else req.first_player
    token = secrets.token_urlsafe(24)
    kinds = ["human", "human"]
    names = [req.name or seat_name(0), req.opponent_name or seat_name(1)]
    tokens: list[str | None] = [token_hash(token)] * 2
    invite = None
    if req.mode != "local":
        other = 1 - seat
        names = [seat_name(0), seat_name(1)]
        names[seat] = req.name or seat_name(seat)
        tokens[other] = None
        if req.mode == "ai":
            kinds[other] = "ai"
            names[other] = ai_name(req.level)
        elif req.mode == "solo":  # the engine plays Automa's turns: no token, no worker
            kinds[other] = "automa"
            names[other] = AUTOMA_NAME
        else:
            invite = secrets.token_urlsafe(12)
    users: list[str | None] = [None, None]
    bots = [False, False]
    if user is not None and req.mode != "local":
        users[seat] = user.id
        names[seat] = user.name
        bots[seat] = user.bot
    spec = clock_spec(req.clock)
    data = new_row(
        spec,
        mode=req.mode,
        status="waiting" if req.mode == "online" else "active",
        edition=rules.edition,
        rotation=rules.rotation,
        flip=rules.flip,
        circle=circle,
        first_player=first,
        seat0_kind=kinds[0],
        seat1_kind=kinds[1],
        seat0_name=names[0],
        seat1_name=names[1],
        seat0_token=tokens[0],
        seat1_token=tokens[1],
        invite_hash=None if invite is None else token_hash(invite),
        ai_level=req.level if req.mode == "ai" else None,
        solo=solo,
        seat0_user=users[0],
        seat1_user=users[1],
        seat0_bot=bots[0],
        seat1_bot=bots[1],
        rated=req.rated,
    )
    return NewGame(data, token, None if req.mode == "local" else seat, invite)


@dataclass(frozen=True)
class PairedPlayer:
    """One of two people the lobby paired: the name and account their seat gets, and the
    hash of the secret token they play it with."""

    name: str
    user_id: str | None
    token_hash: str | None  # None: an account plays its seat by its session alone


def paired_game_data(
    rules: Rules,
    clock: ClockIn | None,
    rated: bool,
    players: tuple[PairedPlayer, PairedPlayer],
    seat: int | None = None,
    takebacks: bool = False,
) -> tuple[GameData, int]:
    """The row of an online game between two people who met in the lobby or by a challenge:
    started at once (no invitation), ``players[0]`` in ``seat`` (None: drawn at random), seat
    0 first; ``takebacks``: both agreed to takebacks in a rated game. With the seat of
    ``players[0]``."""
    seat = secrets.randbelow(2) if seat is None else seat
    seated = (players[0], players[1]) if seat == 0 else (players[1], players[0])
    spec = clock_spec(clock)
    data = new_row(
        spec,
        mode="online",
        status="active",
        edition=rules.edition,
        rotation=rules.rotation,
        flip=rules.flip,
        circle=standard_circle(secrets.randbits(62)),
        first_player=0,
        seat0_kind="human",
        seat1_kind="human",
        seat0_name=seated[0].name,
        seat1_name=seated[1].name,
        seat0_token=seated[0].token_hash,
        seat1_token=seated[1].token_hash,
        seat0_user=seated[0].user_id,
        seat1_user=seated[1].user_id,
        rated=rated,
        takebacks=rated and takebacks,
    )
    return data, seat


def rematch_data(old: GameData) -> GameData:
    """The same players (tokens, accounts) and settings (rated or not), a new circle, the
    other player first."""
    spec = ClockSpec.from_json(old.clock)
    return new_row(
        spec,
        parent_id=old.id,
        mode=old.mode,
        status="active",
        edition=old.edition,
        rotation=old.rotation,
        flip=old.flip,
        circle=standard_circle(secrets.randbits(62)),
        # Against Automa the person always moves first (rule 4); its deck is shuffled anew.
        first_player=old.first_player if old.solo else 1 - old.first_player,
        solo=None if old.solo is None else {**old.solo, "seed": secrets.randbits(32)},
        seat0_kind=old.seat0_kind,
        seat1_kind=old.seat1_kind,
        seat0_name=old.seat0_name,
        seat1_name=old.seat1_name,
        seat0_token=old.seat0_token,
        seat1_token=old.seat1_token,
        seat0_user=old.seat0_user,
        seat1_user=old.seat1_user,
        seat0_bot=old.seat0_bot,
        seat1_bot=old.seat1_bot,
        rated=old.rated,
        takebacks=old.takebacks,
        ai_level=old.ai_level,
    )


def played_elsewhere_data(start: State, level: int, user: UserData | None) -> GameData:
    """The row of a game against the AI at ``level`` played from ``start`` elsewhere (the
    guided first game): a person in seat 0, bound to ``user`` if signed in, with no token
    (no one plays it here), the AI in seat 1; unrated. Its moves and end are the caller's."""
    rules = start.rules
    return new_row(
        None,
        mode="ai",
        status="active",
        edition=rules.edition,
        rotation=rules.rotation,
        flip=rules.flip,
        circle=list(start.circle),
        first_player=start.on_top,
        seat0_kind="human",
        seat1_kind="ai",
        seat0_name=seat_name(0) if user is None else user.name,
        seat1_name=ai_name(level),
        seat0_user=None if user is None else user.id,
        seat0_bot=user is not None and user.bot,
        ai_level=level,
    )
