"""Notifications' routes (docs/server.md, "Notifications"): the signed-in account's list,
newest first, and marking it read. New ones arrive on the account's socket (``/ws/me``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from ..notifications import store
from ..notifications.schemas import NotificationPage, ReadRequest, ReadResult
from ..notifications.service import Notifications
from .accounts import ERRORS
from .auth import SignedIn

router = APIRouter(tags=["notifications"])


def _notifications(request: Request) -> Notifications:
    found: Notifications = request.app.state.notifications
    return found


@router.get("/api/notifications", response_model=NotificationPage, responses=ERRORS)
async def notifications(
    request: Request,
    session: SignedIn,
    before: Annotated[
        int | None, Query(ge=1, le=2**53, description="only older than this id")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=store.PAGE)] = 20,
) -> NotificationPage:
    """Your notifications, newest first (``before``: the page after the one ending there),
    with how many are unread."""
    return await _notifications(request).page(session.user.id, before, limit)


@router.post("/api/notifications/read", response_model=ReadResult, responses=ERRORS)
async def read(body: ReadRequest, request: Request, session: SignedIn) -> ReadResult:
    """Mark some of your notifications read (``ids``), or all of them (``all``: true); your
    other pages are told (``notifications_read`` on ``/ws/me``)."""
    ids = None if body.all else sorted(set(body.ids or []))
    unread = await _notifications(request).mark_read(session.user.id, ids)
    return ReadResult(unread=unread)
