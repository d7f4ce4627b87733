"""People's routes (docs/server.md "People"): who is online, a player's standing with you,
follow and block."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ...i18n import N_
from ..common.errors import ServerError
from ..people import relations, seen
from ..people.hub import People
from ..people.schemas import Online, PersonView, Standing
from ..ratings import rating
from ..storage.models import UserData, blocks, follows
from .auth import MaybeSession, SignedIn
from .games import ERRORS, Service

router = APIRouter(tags=["people"])


def _people(request: Request) -> People:
    hub: People = request.app.state.people
    return hub


async def _player(svc: Service, name: str) -> UserData:
    user = await svc.store.call(rating.find_user, svc.store.engine, name)
    if user is None:
        raise ServerError("not_found", N_("there is no player {name!r}"), {"name": name})
    return user


@router.get("/api/people/online", response_model=Online, responses=ERRORS)
async def online(
    request: Request, svc: Service, limit: Annotated[int, Query(ge=1, le=100)] = 50
) -> Online:
    """The accounts with a page of the site open now, on any process."""
    ids = await _people(request).online()
    found = await svc.store.call(relations.users_by_id, svc.store.engine, ids, limit)
    players = await svc.store.call(relations.views, svc.store.engine, found, ids)
    return Online(count=len(ids), players=players)


@router.get("/api/players/{name}/standing", response_model=Standing, responses=ERRORS)
async def standing(name: str, request: Request, svc: Service, session: MaybeSession) -> Standing:
    """Whether the player is online and playing, when last seen, and (signed in) whether you
    follow or blocked them."""
    user = await _player(svc, name)
    engine = svc.store.engine
    is_online = user.id in await _people(request).online()
    now = await svc.store.call(relations.playing, engine, [user.id])

    following = blocked = False
    if session is not None:
        following, blocked = await svc.store.call(
            relations.relation, engine, session.user.id, user.id
        )
    return Standing(
        name=user.name,
        online=is_online,
        playing=now.get(user.id),
        last_seen=await svc.store.call(seen.when, engine, user.id),
        following=following,
        blocked=blocked,
    )


@router.get("/api/me/following", response_model=list[PersonView], responses=ERRORS)
async def following(request: Request, svc: Service, session: SignedIn) -> list[PersonView]:
    """The players you follow, by name: who of them is online and playing."""
    engine = svc.store.engine
    found = await svc.store.call(relations.listed, engine, follows, session.user.id)
    ids = await _people(request).online()
    return await svc.store.call(relations.views, engine, found, ids)


@router.get("/api/me/blocked", response_model=list[str], responses=ERRORS)
async def blocked_players(svc: Service, session: SignedIn) -> list[str]:
    """The names of the players you blocked."""
    found = await svc.store.call(relations.listed, svc.store.engine, blocks, session.user.id)
    return [u.name for u in found]


@router.put("/api/players/{name}/follow", status_code=204, responses=ERRORS)
async def follow(name: str, svc: Service, session: SignedIn) -> None:
    """Follow the player (you see when they are online and playing)."""
    target = await _player(svc, name)
    await svc.store.call(relations.follow, svc.store.engine, session.user, target)


@router.delete("/api/players/{name}/follow", status_code=204, responses=ERRORS)
async def unfollow(name: str, svc: Service, session: SignedIn) -> None:
    target = await _player(svc, name)
    await svc.store.call(relations.remove, svc.store.engine, follows, session.user.id, target.id)


@router.put("/api/players/{name}/block", status_code=204, responses=ERRORS)
async def block(name: str, svc: Service, session: SignedIn) -> None:
    """Block the player: no challenges and no chat from them; the follows between you end."""
    target = await _player(svc, name)
    await svc.store.call(relations.block, svc.store.engine, session.user, target)


@router.delete("/api/players/{name}/block", status_code=204, responses=ERRORS)
async def unblock(name: str, svc: Service, session: SignedIn) -> None:
    target = await _player(svc, name)
    await svc.store.call(relations.remove, svc.store.engine, blocks, session.user.id, target.id)
