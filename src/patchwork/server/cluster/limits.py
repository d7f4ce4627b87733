"""Rate limits that hold across processes: a token bucket per key, kept in Redis while it
answers (so every process spends from one bucket), and in this process while it does not."""

from __future__ import annotations

from redis.exceptions import RedisError

from ..common.ratelimit import KeyedLimiter
from .redis_cluster import Cluster


class SharedLimiter:
    """``rate`` tokens a second per key, up to ``burst`` (a rate of 0: no limit)."""

    def __init__(self, rate: float, burst: int, cluster: Cluster | None = None) -> None:
        self.own = KeyedLimiter(rate, burst)  # this process's buckets, while Redis is away
        self.cluster = cluster

    @property
    def enabled(self) -> bool:
        return self.own.enabled

    async def wait(self, key: str, spend: bool = True) -> float | None:
        """Spend a token of ``key``'s bucket (or only look, ``spend`` False): None if allowed,
        else the seconds to wait."""
        if not self.enabled:
            return None
        if self.cluster is not None:
            try:
                return await self.cluster.take(key, self.own.rate, self.own.burst, spend)
            except (RedisError, OSError, TimeoutError):
                pass
        return self.own.check(key, spend)
