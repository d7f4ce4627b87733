"""How often one may try a password (docs/accounts.md): sign-in (and whatever else checks a
password) 20 attempts a minute per address, right or wrong; per name, 5 failures a minute from
addresses that never signed in to that account (a stranger's failures never hold back the
right password from an address the account has used); sign-up 5 an hour per address.

With several processes (``--redis``) the buckets are shared in Redis, so the limits hold
whichever process is asked; while Redis is away each process keeps its own."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from ...i18n import N_
from ..cluster.limits import SharedLimiter
from ..common.errors import ServerError, too_soon

if TYPE_CHECKING:
    from ..cluster.redis_cluster import Cluster

SIGN_IN_PER_NAME = 5  # a minute
SIGN_IN_PER_ADDRESS = 20  # a minute
SIGN_UP_PER_ADDRESS = 5  # an hour


class AccountLimits:
    def __init__(self, cluster: Cluster | None = None) -> None:
        self.by_name = SharedLimiter(SIGN_IN_PER_NAME / 60, SIGN_IN_PER_NAME, cluster)
        self.by_address = SharedLimiter(SIGN_IN_PER_ADDRESS / 60, SIGN_IN_PER_ADDRESS, cluster)
        self.sign_ups = SharedLimiter(SIGN_UP_PER_ADDRESS / 3600, SIGN_UP_PER_ADDRESS, cluster)

    async def attempt(self, address: str) -> None:
        """Spend an attempt of the address, or ServerError ``rate_limited`` with the seconds
        to wait."""
        await self._take(self.by_address, f"account signin-address {address}")

    async def strangers_may_try(self, key: str) -> None:
        """ServerError ``rate_limited`` while the name (its look-alike key) has had its
        strangers' failures for now; nothing is spent."""
        await self._take(self.by_name, f"account signin-name {key}", spend=False)

    async def stranger_failed(self, key: str) -> None:
        """A failure of the name from an address that never signed in to it."""
        with contextlib.suppress(ServerError):  # (spent to the last already)
            await self._take(self.by_name, f"account signin-name {key}")

    async def sign_up(self, address: str) -> None:
        await self._take(self.sign_ups, f"account signup {address}")

    async def _take(self, limiter: SharedLimiter, key: str, spend: bool = True) -> None:
        wait = await limiter.wait(key, spend)
        if wait is not None:
            raise too_soon(N_("too many attempts; try again in {seconds:.0f} s"), wait)
