"""Token buckets: a steady rate with room for a burst."""

from __future__ import annotations

import time
from collections import OrderedDict


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; ``take`` spends one if there is one."""

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = time.monotonic()

    def _refill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self) -> bool:
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def has_token(self) -> bool:
        """Whether ``take`` would succeed now (nothing is spent)."""
        self._refill()
        return self._tokens >= 1.0

    def retry_after(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1.0 - self._tokens) / self.rate) if self.rate > 0 else 60.0


class KeyedLimiter:
    """One bucket per key (client address and path), the least recently used forgotten."""

    def __init__(self, rate: float, burst: int, max_keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return self.rate > 0

    def check(self, key: str, spend: bool = True) -> float | None:
        """None if allowed (a token spent, unless ``spend`` is False), else the seconds to
        wait."""
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        if bucket.take() if spend else bucket.has_token():
            return None
        return bucket.retry_after()


class ConnectionCount:
    """How many connections each client address holds, up to ``limit`` (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: dict[str, int] = {}

    def acquire(self, address: str) -> bool:
        """Count one more connection for ``address``; False (and nothing counted) at the limit."""
        held = self._held.get(address, 0)
        if self.limit > 0 and held >= self.limit:
            return False
        self._held[address] = held + 1
        return True

    def release(self, address: str) -> None:
        held = self._held.get(address, 0) - 1
        if held > 0:
            self._held[address] = held
        else:
            self._held.pop(address, None)
