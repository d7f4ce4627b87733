"""What the people domain shares in Redis (``--redis``): one channel carrying messages for an
account's sockets, whichever process holds them, and the set of accounts online.

Online is a sorted set of ``node|user`` members scored by when they lapse: each process
renews its own accounts every few seconds and removes one when its last socket closes, so a
process killed with kill -9 lets its accounts lapse within ``ONLINE_MS``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from ..cluster.redis_cluster import Cluster

ONLINE_MS = 20_000  # an account lapses from the online set this long after its last renewal


async def publish(cluster: Cluster, user_id: str, text: str) -> None:
    """Send ``text`` (an encoded message) to the account's sockets on the other processes."""
    body = json.dumps({"node": cluster.node, "user": user_id, "text": text})
    await cluster.redis.publish(cluster.key("people"), body)


async def listen(cluster: Cluster, on_message: Callable[[str, str], None]) -> None:
    """Call ``on_message(user_id, text)`` for every other process's message; until cancelled.
    (A message published while this process had no subscription is not repeated: each
    domain's socket welcome reads its own state from the database.)"""

    def received(_channel: str, body: dict[str, Any]) -> None:
        user, text = body.get("user"), body.get("text")
        if isinstance(user, str) and isinstance(text, str):
            on_message(user, text)

    async def connected() -> None:
        return None

    await cluster._receive(cluster.key("people"), received, connected, None)


async def mark_online(cluster: Cluster, user_ids: list[str]) -> None:
    if not user_ids:
        return
    lapse = time.time() * 1000 + ONLINE_MS
    await cluster.redis.zadd(
        cluster.key("online"), {f"{cluster.node}|{u}": lapse for u in user_ids}
    )


async def mark_offline(cluster: Cluster, user_id: str) -> None:
    await cluster.redis.zrem(cluster.key("online"), f"{cluster.node}|{user_id}")


async def online(cluster: Cluster) -> set[str]:
    """Every account with a socket open on a living process."""
    key = cluster.key("online")
    now = time.time() * 1000
    await cluster.redis.zremrangebyscore(key, "-inf", now)
    members = await cluster.redis.zrangebyscore(key, now, "+inf")
    return {str(m).split("|", 1)[1] for m in members if "|" in str(m)}
