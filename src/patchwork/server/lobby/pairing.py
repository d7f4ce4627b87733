"""Quick pairing: who a player waiting for "Play someone now" may meet. Ratings must be close,
and the window widens the longer both wait."""

from __future__ import annotations

from .store import SeekRow

QUICK_WINDOW = 200.0  # quick pairing: ratings this close at first...
QUICK_WIDEN = 100.0  # ...and this much further...
QUICK_STEP = 10.0  # ...every this many seconds of waiting
GUEST_RATING = 1500.0  # a guest's rating for casual quick pairing and ranges


def window(row: SeekRow, now: float) -> float:
    """How far apart quick pairing lets ratings be for a player waiting since ``row``."""
    waited = max(0.0, now - row.created_at.timestamp())
    return QUICK_WINDOW + QUICK_WIDEN * (waited // QUICK_STEP)


def quick_partner(me: SeekRow, rows: list[SeekRow], now: float) -> SeekRow | None:
    """The longest-waiting quick seeker ``me`` may be paired with: the same kind of game
    (rated or casual), another person, ratings within the wider of the two windows."""
    mine = GUEST_RATING if me.rating is None else me.rating
    for other in rows:
        if other.id == me.id or not other.quick or not other.open or other.rated != me.rated:
            continue
        if me.user_id is not None and other.user_id == me.user_id:
            continue
        theirs = GUEST_RATING if other.rating is None else other.rating
        if abs(mine - theirs) <= max(window(me, now), window(other, now)):
            return other
    return None


# -- the service ------------------------------------------------------------------------------
