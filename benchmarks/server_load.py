"""Load benchmark for ``patchwork serve``: many simultaneous games over real websockets.

    python benchmarks/server_load.py                      # starts its own server (SQLite)
    python benchmarks/server_load.py --games 200 --db postgresql+psycopg://postgres@127.0.0.1/test
    python benchmarks/server_load.py --url http://127.0.0.1:8000   # a server already running

Every game is an online game between two bot clients, each on its own websocket, that play
random legal moves (taken from the views the server sends: the whole game in ``state`` and
``sync``, what a move changed in ``update``) as fast as the server answers, or after
``--think`` milliseconds on average (exponentially distributed), like people; ``--ai-games``
adds games of a bot against AI level 1. The clients run in this one process, on the same
machine as the server, so they share its cores.

It reports moves per second; the latency from sending a move to its acknowledgement
(p50/p95/p99, which includes the time the server spent on the move, the broadcast of its
update and the clients' own event loop); what the clients received (messages, megabytes, and
bytes per message and per move, counted after permessage-deflate decompression, i.e. the
JSON text); the server process's CPU time over the run and per move (Linux only, for a
server started here); and the load average before the run (other work on the machine skews
every figure). The clients' garbage collector is tuned as the server's is (objects made
during the setup are never scanned again, young ones are collected less often), so that the
clients' own pauses count as little as they can in the server's latency. Then it checks
every game's stored history against the moves that were acknowledged: no acknowledged move
may be lost. Traffic goes to loopback only; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

MAX_PLIES = 300  # a game of Patchwork has well under 100 moves


@dataclass
class GameRun:
    game_id: str
    tokens: dict[int, str]  # seat -> token, for the seats bots play
    acked: list[tuple[int, str]] = field(default_factory=list)  # (version, move)
    finished: bool = False


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    messages: int = 0
    bytes: int = 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class OwnServer:
    """A server of the benchmark's own on a free loopback port (no HTTP rate limit)."""

    def __init__(self, db: str | None, workers: int, compression: bool) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="patchwork-load-")
        self.port = free_port()
        self.db = db or f"sqlite:///{Path(self.tmp.name) / 'load.db'}"
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [
            sys.executable,
            "-m",
            "patchwork.server",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--http-rate",
            "0",
            "--http-read-rate",
            "0",
            "--max-ws-per-address",
            "0",
            "--ws-rate",
            "1000",
            "--ws-burst",
            "1000",
            "--ai-workers",
            str(workers),
            "--no-access-log",
            "--log-level",
            "warning",
            *([] if compression else ["--no-ws-compression"]),
        ]
        self.log = open(Path(self.tmp.name) / "server.log", "wb")  # noqa: SIM115
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited:\n{self.tail()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit("the server did not start within 90 s")

    def tail(self) -> str:
        self.log.flush()
        return (Path(self.tmp.name) / "server.log").read_text(errors="replace")[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
        self.tmp.cleanup()


async def create_games(http: httpx.AsyncClient, online: int, ai: int, seed: int) -> list[GameRun]:
    sem = asyncio.Semaphore(16)

    async def one_online(i: int) -> GameRun:
        async with sem:
            r = await http.post("/api/games", json={"mode": "online", "seed": seed + i})
            r.raise_for_status()
            created = r.json()
            j = await http.post(
                f"/api/games/{created['game_id']}/join", json={"invite": created["invite_code"]}
            )
            j.raise_for_status()
            joined = j.json()
            return GameRun(
                created["game_id"],
                {created["seat"]: created["token"], joined["seat"]: joined["token"]},
            )

    async def one_ai(i: int) -> GameRun:
        async with sem:
            body = {"mode": "ai", "level": 1, "seed": seed + online + i}
            r = await http.post("/api/games", json=body)
            r.raise_for_status()
            created = r.json()
            return GameRun(created["game_id"], {created["seat"]: created["token"]})

    return list(
        await asyncio.gather(
            *[one_online(i) for i in range(online)], *[one_ai(i) for i in range(ai)]
        )
    )


def random_move(game: dict[str, Any], rng: random.Random) -> str:
    """A legal move of a game view, each as likely as any other, in the notation. The view
    lists the moves compactly (``legal``: square sets, bit 9 * row + col); only the move
    drawn is spelled out, so that the bots cost the machine little of what the server needs."""
    legal = game["legal"]
    groups: list[tuple[str, int]] = []  # (notation before the square, square set); A: ("A", 0)
    if legal["advance"]:
        groups.append(("A", 0))
    if legal["special"]:
        groups.append(("S@", int(legal["special"], 16)))
    groups += [(f"{p['patch']}{p['orientation']}@", int(p["anchors"], 16)) for p in legal["buy"]]
    counts = [bits.bit_count() if bits else 1 for _, bits in groups]
    k = rng.randrange(sum(counts))
    for (prefix, bits), count in zip(groups, counts, strict=True):
        if k >= count:
            k -= count
            continue
        if not bits:
            return prefix
        for _ in range(k):
            bits &= bits - 1  # drop the lowest square: the k-th is then the lowest
        i = (bits & -bits).bit_length() - 1
        return f"{prefix}{'abcdefghi'[i % 9]}{i // 9 + 1}"
    raise AssertionError("no legal move in an active game's view")


async def bot(
    ws_base: str,
    run: GameRun,
    seat: int,
    rng: random.Random,
    totals: Totals,
    compression: bool,
    think: float,
) -> None:
    """Play ``seat`` of a game to its end: move whenever the state says it is our turn
    (after ``think`` seconds, on average, like a person; 0: at once)."""
    url = f"{ws_base}/ws/games/{run.game_id}"
    async with connect(
        url, proxy=None, max_size=None, compression="deflate" if compression else None
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": run.tokens[seat]}))
        game: dict[str, Any] | None = None
        pending: tuple[str, float, str] | None = None  # (ref, sent at, move)
        last_sent = -1
        moves = 0
        async for raw in ws:
            totals.messages += 1
            totals.bytes += len(raw)
            m = json.loads(raw)
            kind = m["type"]
            if kind in ("state", "sync"):
                game = m["game"]
            elif kind == "update":
                if game is not None and game["version"] == m["since"]:
                    game = {**game, **m["changes"], "version": m["version"]}
                else:  # missed a version: ask for the whole game
                    await ws.send(json.dumps({"type": "sync"}))
            elif pending is not None and m.get("ref") == pending[0]:
                if kind == "ack":
                    totals.latencies.append(time.perf_counter() - pending[1])
                    run.acked.append((m["version"], pending[2]))
                else:
                    totals.errors.append(f"{run.game_id}: {m.get('code')}: {m.get('message')}")
                pending = None
            if game is None:
                continue
            if game["status"] == "finished":
                run.finished = True
                return
            if (
                pending is None
                and game["to_move"] == seat
                and game["version"] > last_sent
                and moves < MAX_PLIES
            ):
                move = random_move(game, rng)
                if think > 0:
                    await asyncio.sleep(rng.expovariate(1 / think))
                ref = uuid.uuid4().hex[:10]
                last_sent = game["version"]
                moves += 1
                pending = (ref, time.perf_counter(), move)
                message = {"type": "move", "move": move, "version": game["version"], "id": ref}
                await ws.send(json.dumps(message))


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux), or None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


async def verify(http: httpx.AsyncClient, runs: list[GameRun]) -> tuple[int, int, int]:
    """(acknowledged moves, of them missing from the stored games, unfinished games).

    An acknowledged move must be the stored event of the version it was acknowledged with,
    and the stored game must be exactly its move events (the bots never take a move back)."""
    acked = lost = unfinished = 0
    for run in runs:
        r = await http.get(f"/api/games/{run.game_id}")
        r.raise_for_status()
        game = r.json()
        e = await http.get(f"/api/games/{run.game_id}/events", params={"since": 0})
        e.raise_for_status()
        moves = {ev["version"]: ev["move"] for ev in e.json()["events"] if ev["kind"] == "move"}
        history = [h["move"] for h in game["history"]]
        acked += len(run.acked)
        lost += sum(moves.get(version) != move for version, move in run.acked)
        if history != [moves[v] for v in sorted(moves)]:
            lost += 1
        unfinished += game["status"] != "finished"
    return acked, lost, unfinished


async def run_benchmark(
    args: argparse.Namespace, base: str, server_pid: int | None
) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://", 1)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        t0 = time.perf_counter()
        runs = await create_games(http, args.games, args.ai_games, args.seed)
        created_s = time.perf_counter() - t0
        totals = Totals()
        rng = random.Random(args.seed)
        bots = [
            bot(
                ws_base,
                run,
                seat,
                random.Random(rng.random()),
                totals,
                not args.no_compression,
                args.think / 1000,
            )
            for run in runs
            for seat in run.tokens
        ]
        gc.freeze()
        gc.set_threshold(20_000, 50, 100)
        start = time.perf_counter()
        cpu0 = time.process_time()
        server_cpu0 = None if server_pid is None else cpu_seconds(server_pid)
        done = await asyncio.wait_for(
            asyncio.gather(*bots, return_exceptions=True), timeout=args.timeout
        )
        seconds = time.perf_counter() - start
        client_cpu = time.process_time() - cpu0
        server_cpu1 = None if server_pid is None else cpu_seconds(server_pid)
        failures = [repr(x) for x in done if isinstance(x, BaseException)]
        acked, lost, unfinished = await verify(http, runs)
    lat_ms = [x * 1000 for x in totals.latencies]
    server_cpu = (
        server_cpu1 - server_cpu0 if server_cpu0 is not None and server_cpu1 is not None else None
    )
    return {
        "games": len(runs),
        "online_games": args.games,
        "ai_games": args.ai_games,
        "connections": len(bots),
        "moves": acked,
        "seconds": round(seconds, 2),
        "moves_per_second": round(acked / seconds, 1) if seconds else None,
        "latency_ms": {
            "p50": round(percentile(lat_ms, 50), 2),
            "p95": round(percentile(lat_ms, 95), 2),
            "p99": round(percentile(lat_ms, 99), 2),
            "max": round(max(lat_ms), 2) if lat_ms else None,
            "mean": round(statistics.fmean(lat_ms), 2) if lat_ms else None,
        },
        "messages_received": totals.messages,
        "megabytes_received": round(totals.bytes / 1e6, 1),
        "bytes_per_message": round(totals.bytes / totals.messages) if totals.messages else None,
        "bytes_per_move": round(totals.bytes / acked) if acked else None,
        "lost_moves": lost,
        "unfinished_games": unfinished,
        "move_errors": totals.errors[:10],
        "client_failures": failures[:10],
        "setup_seconds": round(created_s, 2),
        "client_cpu_seconds": round(client_cpu, 2),
        "server_cpu_seconds": None if server_cpu is None else round(server_cpu, 2),
        "server_cpu_ms_per_move": (
            round(1000 * server_cpu / acked, 3) if server_cpu is not None and acked else None
        ),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", help="a running server (default: start one on a free port)")
    p.add_argument("--db", help="database URL for the server started here (default: SQLite)")
    p.add_argument("--games", type=int, default=100, help="online games, two bots each (100)")
    p.add_argument("--ai-games", type=int, default=0, help="games of a bot against AI level 1")
    p.add_argument("--ai-workers", type=int, default=2, help="AI processes of the server started")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timeout", type=float, default=600, help="give up after this many seconds")
    p.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    p.add_argument(
        "--think",
        type=float,
        default=0,
        help="mean milliseconds a bot waits before moving (0: flat out, measuring capacity)",
    )
    p.add_argument("--json", type=Path, help="also write the report here")
    args = p.parse_args(argv)
    host = httpx.URL(args.url).host if args.url else "127.0.0.1"
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise SystemExit("this benchmark only talks to a server on this machine (loopback)")
    server = None if args.url else OwnServer(args.db, args.ai_workers, not args.no_compression)
    try:
        base = args.url.rstrip("/") if args.url else server.url  # type: ignore[union-attr]
        load = os.getloadavg()[0]
        report = asyncio.run(run_benchmark(args, base, None if server is None else server.proc.pid))
        report["load_average_before"] = round(load, 2)
    finally:
        if server is not None:
            server.stop()
    report["server"] = args.url or f"own ({'SQLite' if not args.db else args.db})"
    report["cpus"] = os.cpu_count()
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    ok = report["lost_moves"] == 0 and not report["client_failures"] and not report["move_errors"]
    return 0 if ok and report["unfinished_games"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
