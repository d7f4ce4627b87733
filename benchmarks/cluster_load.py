"""Load benchmark for several ``patchwork serve --redis`` processes over one PostgreSQL.

    python benchmarks/cluster_load.py                     # 1, 2 and 3 processes, 60 games each
    python benchmarks/cluster_load.py --processes 3 --games 200
    python benchmarks/cluster_load.py --baseline      # first one process without --redis

For each count of processes it makes a PostgreSQL database and a Redis key prefix of its own
(both removed afterwards), starts that many servers with ``--redis``, and plays online games
between bots as benchmarks/server_load.py does (its bots and checks), spread so that the two
players of a game sit on different processes and games are made on each in turn: every move
then reaches the other player through Redis and the other process's catch-up from the
database. It reports moves per second, the move-to-acknowledgement latency (p50/p95/p99) and
the moves lost (the stored games checked against every acknowledged move: must be 0). The
bots run in this one process on the same machine, so they share its cores with the servers.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import GameRun, Totals, bot, free_port, percentile, verify

PG_ADMIN = os.environ.get("PATCHWORK_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


class Servers:
    """``n`` servers over a database and a Redis prefix of their own."""

    def __init__(self, n: int, redis_url: str | None, workers: int) -> None:
        import psycopg

        self.tmp = tempfile.TemporaryDirectory(prefix="patchwork-cluster-load-")
        self.db_name = f"pw_cluster_load_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
        self.redis_url = redis_url
        self.prefix = f"pwload-{uuid.uuid4().hex[:8]}:"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.urls: list[str] = []
        for i in range(n):
            port = free_port()
            cmd = [sys.executable, "-m", "patchwork.server", "--port", str(port)]
            cmd += ["--db", f"{base}/{self.db_name}", "--ai-workers", str(workers)]
            if redis_url is not None:
                cmd += ["--redis", redis_url, "--redis-prefix", self.prefix]
            cmd += ["--http-rate", "0", "--http-read-rate", "0", "--max-ws-per-address", "0"]
            cmd += ["--ws-rate", "1000", "--ws-burst", "1000", "--no-access-log"]
            cmd += ["--log-level", "warning"]
            log = open(Path(self.tmp.name) / f"server{i}.log", "wb")  # noqa: SIM115
            self.procs.append(subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT))
            self.urls.append(f"http://127.0.0.1:{port}")
        deadline = time.monotonic() + 120
        for proc, url in zip(self.procs, self.urls, strict=True):
            while True:
                if proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise SystemExit(f"a server did not start ({url})")
                try:
                    if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)  # polling a starting process

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        import psycopg
        import redis

        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        if self.redis_url is not None:
            client = redis.Redis.from_url(self.redis_url)
            for key in client.scan_iter(match=self.prefix + "*", count=500):
                client.delete(key)
            client.close()
        self.tmp.cleanup()


async def create_games(urls: list[str], games: int, seed: int) -> list[GameRun]:
    """Online games, the i-th made on process i and joined on the next."""
    sem = asyncio.Semaphore(16)
    clients = [httpx.AsyncClient(base_url=u, timeout=60) for u in urls]

    async def one(i: int) -> GameRun:
        async with sem:
            maker, joiner = clients[i % len(urls)], clients[(i + 1) % len(urls)]
            r = await maker.post("/api/games", json={"mode": "online", "seed": seed + i})
            r.raise_for_status()
            created = r.json()
            j = await joiner.post(
                f"/api/games/{created['game_id']}/join", json={"invite": created["invite_code"]}
            )
            j.raise_for_status()
            joined = j.json()
            return GameRun(
                created["game_id"],
                {created["seat"]: created["token"], joined["seat"]: joined["token"]},
            )

    try:
        return list(await asyncio.gather(*[one(i) for i in range(games)]))
    finally:
        for c in clients:
            await c.aclose()


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            pass
    return total


async def run_once(args: argparse.Namespace, servers: Servers) -> dict[str, Any]:
    urls = servers.urls
    runs = await create_games(urls, args.games, args.seed)
    totals = Totals()
    rng = random.Random(args.seed)
    bots = [
        bot(
            urls[(i + seat) % len(urls)].replace("http://", "ws://", 1),
            run,
            seat,
            random.Random(rng.random()),
            totals,
            True,
            args.think / 1000,
        )
        for i, run in enumerate(runs)
        for seat in run.tokens
    ]
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    start = time.perf_counter()
    cpu0 = cpu_seconds(servers.pids())
    done = await asyncio.wait_for(asyncio.gather(*bots, return_exceptions=True), args.timeout)
    seconds = time.perf_counter() - start
    server_cpu = cpu_seconds(servers.pids()) - cpu0
    failures = [repr(x) for x in done if isinstance(x, BaseException)]
    async with httpx.AsyncClient(base_url=urls[-1], timeout=60) as http:
        acked, lost, unfinished = await verify(http, runs)
    lat = [x * 1000 for x in totals.latencies]
    return {
        "processes": len(urls),
        "redis": servers.redis_url is not None,
        "games": len(runs),
        "moves": acked,
        "seconds": round(seconds, 2),
        "moves_per_second": round(acked / seconds, 1) if seconds else None,
        "latency_ms": {
            "p50": round(percentile(lat, 50), 2),
            "p95": round(percentile(lat, 95), 2),
            "p99": round(percentile(lat, 99), 2),
            "mean": round(statistics.fmean(lat), 2) if lat else None,
        },
        "lost_moves": lost,
        "unfinished_games": unfinished,
        "move_errors": totals.errors[:10],
        "client_failures": failures[:10],
        "servers_cpu_ms_per_move": round(1000 * server_cpu / acked, 3) if acked else None,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--processes", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--games", type=int, default=60, help="online games, two bots each (60)")
    p.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    p.add_argument(
        "--baseline", action="store_true", help="first one process without --redis, to compare"
    )
    p.add_argument("--ai-workers", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--think", type=float, default=0, help="mean ms a bot waits before moving")
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--json", type=Path, help="also write the report here")
    args = p.parse_args(argv)
    reports = []
    plan = [(1, None)] if args.baseline else []
    plan += [(n, args.redis) for n in args.processes]
    for n, redis_url in plan:
        servers = Servers(n, redis_url, args.ai_workers)
        try:
            load = os.getloadavg()[0]
            report = asyncio.run(run_once(args, servers))
            report["load_average_before"] = round(load, 2)
        finally:
            servers.stop()
        reports.append(report)
        print(json.dumps(report), flush=True)
    result = {"cpus": os.cpu_count(), "runs": reports}
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n")
    ok = all(
        r["lost_moves"] == 0 and not r["client_failures"] and not r["move_errors"] for r in reports
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
