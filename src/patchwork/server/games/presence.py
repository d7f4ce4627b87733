"""Who is connected to a game, and the grace period of a player who dropped out.

A human seat is *away* from the moment its last connection closes (or the server started);
in an online game the opponent may claim the game once the seat has been away for the grace
period. The server announces a ``presence`` message when a seat comes or goes, and again
when a grace period ends, so clients need no timers of their own.
"""

from __future__ import annotations

import asyncio
import time

from .hub import Hub
from .live import LiveGame
from .messages import PresenceMessage, PresenceSeat


class Presence:
    def __init__(self, hub: Hub, grace_seconds: float) -> None:
        self.hub = hub
        self.grace = grace_seconds

    def start(self, live: LiveGame) -> None:
        """A game comes into memory: its human seats are away until they connect."""
        now = time.time()
        live.away_since = [now if live.data.kind(s) == "human" else None for s in (0, 1)]

    def arrived(self, live: LiveGame, seats: frozenset[int]) -> bool:
        """Seats connected; True if that changed anything (and it was announced)."""
        back = [s for s in seats if live.away_since[s] is not None]
        for seat in back:
            live.away_since[seat] = None
        if back:
            self.arm(live)
            self.hub.broadcast(live.id, self.message(live))
        return bool(back)

    def left(self, live: LiveGame, seats: frozenset[int]) -> None:
        """A connection closed: its seats are away unless another connection holds them."""
        now = time.time()
        gone = [
            s
            for s in seats
            if live.data.kind(s) == "human" and not self.hub.seat_connected(live.id, s)
        ]
        for seat in gone:
            live.away_since[seat] = now
        if gone:
            self.arm(live)
            self.hub.broadcast(live.id, self.message(live))

    def reset(self, live: LiveGame, seat: int) -> None:
        """A seat was just taken (an online game started): its grace period starts now."""
        if not self.hub.seat_connected(live.id, seat):
            live.away_since[seat] = time.time()
        self.arm(live)

    def refresh(self, live: LiveGame) -> None:
        """Who is connected changed on another process: seats connected anywhere are back,
        seats connected nowhere are away from now; announced to the clients here."""
        now = time.time()
        changed = False
        for s in live.human_seats():
            here = self.hub.seat_connected(live.id, s)
            if here and live.away_since[s] is not None:
                live.away_since[s] = None
                changed = True
            elif not here and live.away_since[s] is None:
                live.away_since[s] = now
                changed = True
        if changed:
            self.arm(live)
        self.hub.broadcast(live.id, self.message(live))

    def claim_from(self, live: LiveGame, seat: int) -> float | None:
        """When the game can be claimed against ``seat`` (None while it is connected)."""
        away = live.away_since[seat]
        if away is None or self.hub.seat_connected(live.id, seat):
            return None
        return away + self.grace

    def arm(self, live: LiveGame) -> None:
        """Announce again when an absent player's grace period ends."""
        self.disarm(live)
        if live.data.mode != "online" or live.data.status != "active":
            return
        loop = asyncio.get_running_loop()
        for away in live.away_since:
            if away is not None:
                delay = max(0.0, away + self.grace - time.time()) + 0.01
                live.presence_timers.append(
                    loop.call_later(delay, lambda: self.hub.broadcast(live.id, self.message(live)))
                )

    @staticmethod
    def disarm(live: LiveGame) -> None:
        for timer in live.presence_timers:
            timer.cancel()
        live.presence_timers.clear()

    def message(self, live: LiveGame) -> PresenceMessage:
        now = time.time()
        claimable = live.data.mode == "online" and live.data.status == "active"
        seats = []
        for s in (0, 1):
            away = live.away_since[s]
            claim_from = away + self.grace if away is not None and claimable else None
            seats.append(
                PresenceSeat(
                    seat=s,
                    kind=live.data.kind(s),  # type: ignore[arg-type]
                    connected=away is None,
                    away_since=away,
                    claim_from=claim_from,
                    claimable=claim_from is not None and now >= claim_from,
                )
            )
        return PresenceMessage(
            version=live.version,
            server_time=round(now, 3),
            seats=seats,
            spectators=self.hub.spectators(live.id),
        )
