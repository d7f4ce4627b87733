"""How often one may try a password: sign-in (and whatever else checks a password) 5 a minute
per name and 20 a minute per address, sign-up 5 an hour per address (docs/accounts.md).

With several processes (``--redis``) the buckets are shared in Redis, so the limits hold
whichever process is asked; while Redis is away each process keeps its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from ...i18n import N_
from ..common.errors import ServerError
from ..common.ratelimit import KeyedLimiter

if TYPE_CHECKING:
    from ..cluster.redis_cluster import Cluster

SIGN_IN_PER_NAME = 5  # a minute
SIGN_IN_PER_ADDRESS = 20  # a minute
SIGN_UP_PER_ADDRESS = 5  # an hour


class AccountLimits:
    def __init__(self, cluster: Cluster | None = None) -> None:
        self.cluster = cluster
        self.by_name = KeyedLimiter(SIGN_IN_PER_NAME / 60, SIGN_IN_PER_NAME)
        self.by_address = KeyedLimiter(SIGN_IN_PER_ADDRESS / 60, SIGN_IN_PER_ADDRESS)
        self.sign_ups = KeyedLimiter(SIGN_UP_PER_ADDRESS / 3600, SIGN_UP_PER_ADDRESS)

    async def sign_in(self, key: str, address: str) -> None:
        """Spend an attempt of the address and of the name (its look-alike key), or
        ServerError ``rate_limited`` with the seconds to wait."""
        await self._take(self.by_address, f"account signin-address {address}")
        await self._take(self.by_name, f"account signin-name {key}")

    async def sign_up(self, address: str) -> None:
        await self._take(self.sign_ups, f"account signup {address}")

    async def _take(self, limiter: KeyedLimiter, key: str) -> None:
        wait = await self._shared(limiter, key) if self.cluster is not None else False
        if wait is False:  # one process, or Redis away: this process's own bucket
            wait = limiter.check(key)
        if wait is not None:
            raise ServerError(
                "rate_limited",
                N_("too many attempts; try again in {seconds:.0f} s"),
                {"seconds": max(1.0, wait)},
                retry_after=round(wait, 3),
            )

    async def _shared(self, limiter: KeyedLimiter, key: str) -> float | bool | None:
        """The seconds to wait by the bucket in Redis (None: allowed), or False if Redis
        did not answer."""
        assert self.cluster is not None
        try:
            return await self.cluster.take(key, limiter.rate, limiter.burst)
        except (RedisError, OSError, TimeoutError):
            return False
