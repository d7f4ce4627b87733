"""Live-server fixtures for the server tests: a real uvicorn process on a free loopback port
with a real database (a SQLite file, or a PostgreSQL database made for the test session),
and a small synchronous websocket client with bounded waits."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

PG_ADMIN = os.environ.get("PATCHWORK_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
PG_START = "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
BACKENDS = ["sqlite", "postgresql"]
# A server warms the engine up as it starts: on a busy machine (two test processes, each
# starting servers) that can take a minute or more.
START_TIMEOUT = 180.0
WAIT = 15.0  # the longest any single expected event may take


# httpx builds a TLS context for every client it makes (27 ms of CPU: it reads the certificate
# bundle), and httpx.get() makes a client per call. The tests call their plain-http servers
# thousands of times, many of them polling, so every client here shares one context.
TLS = ssl.create_default_context()


def http_client(**options: Any) -> httpx.Client:
    """``httpx.Client(**options)`` with the shared TLS context."""
    return httpx.Client(verify=TLS, **options)


def fetch(method: str, url: str, *, cookies: Any = None, **options: Any) -> httpx.Response:
    """What ``httpx.request`` does (a client of its own, given ``cookies`` and keeping none,
    a new connection) with the shared TLS context."""
    with http_client(cookies=cookies) as client:
        return client.request(method, url, **options)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


# -- databases ------------------------------------------------------------------------------


class PostgresDatabase:
    """A database of its own for one test session, dropped afterwards."""

    def __init__(self) -> None:
        import psycopg

        self.name = f"pw_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
        try:
            with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
        except psycopg.OperationalError as e:
            pytest.fail(
                f"PostgreSQL is not reachable at {PG_ADMIN} ({e}). The server tests need it; "
                f"start it with: {PG_START}",
                pytrace=False,
            )
        base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://")
        self.url = f"{base}/{self.name}"

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def database_url(backend: str, tmp: Path) -> tuple[str, Callable[[], None]]:
    if backend == "sqlite":
        return f"sqlite:///{tmp / 'games.db'}", lambda: None
    db = PostgresDatabase()
    return db.url, db.drop


# -- the server process -----------------------------------------------------------------------


class ServerProcess:
    """``python -m patchwork.server`` on a free port; restartable on the same port and data."""

    def __init__(self, db_url: str, workdir: Path, *args: str, ai_on_demand: bool = True) -> None:
        self.db_url = db_url
        self.workdir = workdir
        # Most of the suite's servers never play the AI: its processes start when first
        # needed, not at each of the suite's hundred server starts (a CPU second and a half).
        self.args = [*args, "--ai-on-demand"] if ai_on_demand else list(args)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = workdir / f"server-{self.port}.log"
        self.starts = 0
        self.env: dict[str, str] = {}  # set in the process's environment besides the suite's

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, *extra: str) -> ServerProcess:
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1
        cmd = [
            sys.executable,
            "-m",
            "patchwork.server",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--no-access-log",
            "--log-level",
            "warning",
            # Password hashes of 1 MiB, not 64: the same argon2id, a fifth of a CPU second
            # less at each of the suite's many sign-ups and sign-ins.
            "--password-memory",
            "1",
            *self.args,
            *extra,
        ]
        log = self.log_path.open("ab")
        log.write(f"\n=== start {self.starts}: {' '.join(cmd)}\n".encode())
        log.flush()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir, env=env
        )
        log.close()
        self.wait_healthy()
        return self

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                pytest.fail(f"the server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                r = fetch("GET", f"{self.url}/healthz", timeout=2)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)  # polling a starting process: there is no event to await
        pytest.fail(f"the server did not become healthy in {START_TIMEOUT} s:\n{self.log()}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-6000:]
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    # -- HTTP helpers -------------------------------------------------------------------------

    def post(self, path: str, json_body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return fetch("POST", f"{self.url}{path}", json=json_body, headers=headers, timeout=WAIT)

    def get(self, path: str) -> httpx.Response:
        return fetch("GET", f"{self.url}{path}", timeout=WAIT)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/games", body)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def game(self, game_id: str) -> dict[str, Any]:
        r = self.get(f"/api/games/{game_id}")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    def client(
        self, game_id: str, token: str | None = None, last_version: int | None = None
    ) -> Client:
        return Client(f"{self.ws_url}/ws/games/{game_id}", token, last_version)


# -- reading game views ---------------------------------------------------------------------------

VIEWS = ("state", "sync", "update")  # the messages that bring the game to a new version
ORIENTATIONS = ("r0", "r90", "r180", "r270", "f0", "f90", "f180", "f270")


def square_names(square_set: str | None) -> list[str]:
    """The squares of a view's square set (hexadecimal, bit 9 * row + col)."""
    bits = 0 if square_set is None else int(square_set, 16)
    return [f"{'abcdefghi'[i % 9]}{i // 9 + 1}" for i in range(81) if bits >> i & 1]


def legal_moves(game: dict[str, Any]) -> list[str]:
    """Every legal move of a game view, in the notation (its ``legal``, spelled out)."""
    legal = game["legal"]
    moves = ["A"] if legal["advance"] else []
    moves += [f"S@{sq}" for sq in square_names(legal["special"])]
    for p in legal["buy"]:
        moves += [f"{p['patch']}{p['orientation']}@{sq}" for sq in square_names(p["anchors"])]
    return moves


def apply_update(game: dict[str, Any] | None, update: dict[str, Any]) -> dict[str, Any] | None:
    """The view after an ``update`` message, or None unless ``game`` is at its ``since``."""
    if game is None or game["version"] != update["since"]:
        return None
    return {
        **game,
        **update["changes"],
        "version": update["version"],
        "history": [*game["history"], update["entry"]],
    }


# -- a websocket client -------------------------------------------------------------------------


def _connect(url: str) -> ClientConnection:
    # Entering the context gives the open connection on every websockets version (newer
    # ones warn when connect() is used without it); Client.close() closes it.
    connection: ClientConnection = connect(
        url, proxy=None, open_timeout=WAIT, close_timeout=2, max_size=None
    ).__enter__()
    return connection


def receive_until(
    recv: Callable[[float], dict[str, Any]],
    pred: Callable[[dict[str, Any]], bool],
    timeout: float,
    tail: Callable[[], object],
) -> dict[str, Any]:
    """The first message ``recv`` brings for which ``pred`` holds, within ``timeout`` seconds
    (else TimeoutError, saying ``tail()``: what came last)."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no such message within {timeout} s; got {tail()}")
        message = recv(left)
        if pred(message):
            return message


class Client:
    """A game's websocket: sends hello, keeps the latest game view it has seen (an ``update``
    message gets the view it leads to as its ``game``, for the tests' convenience; ``raw``
    keeps every message as it came)."""

    def __init__(self, url: str, token: str | None = None, last_version: int | None = None):
        self.ws: ClientConnection = _connect(url)
        self.messages: list[dict[str, Any]] = []
        self.received: list[str] = []
        self.game: dict[str, Any] | None = None
        self.welcome: dict[str, Any] | None = None
        self.first: dict[str, Any] | None = None
        self.send({"type": "hello", "token": token, "last_version": last_version})
        self.welcome = self.expect("welcome")
        self.first = self.recv_until(lambda m: m["type"] in ("state", "sync"))

    @classmethod
    def raw(cls, url: str) -> Client:
        """A connection that has sent nothing yet."""
        self = cls.__new__(cls)
        self.ws = _connect(url)
        self.messages, self.game, self.welcome, self.first = [], None, None, None
        self.received = []
        return self

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.received.append(text)
        message: dict[str, Any] = json.loads(text)
        self.messages.append(message)
        if message["type"] == "update":
            game = apply_update(self.game, message)
            assert game is not None, f"an update from {message['since']}, not {self.tail()}"
            message["game"] = game
        if message["type"] in VIEWS:
            self.game = message["game"]
        return message

    def recv_until(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        return receive_until(self.recv, pred, timeout, self.tail)

    def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        return self.recv_until(lambda m: m["type"] == kind, timeout)

    def error(self, code: str, timeout: float = WAIT) -> dict[str, Any]:
        message = self.expect("error", timeout)
        assert message["code"] == code, message
        return message

    def state_at(self, version: int, timeout: float = WAIT) -> dict[str, Any]:
        """Wait until the game is at ``version`` or later; the latest view."""
        if self.game is not None and self.game["version"] >= version:
            return self.game
        self.recv_until(
            lambda m: m["type"] in VIEWS and m["game"]["version"] >= version,
            timeout,
        )
        assert self.game is not None
        return self.game

    def wait_game(
        self, pred: Callable[[dict[str, Any]], bool], timeout: float = WAIT
    ) -> dict[str, Any]:
        """The latest view once ``pred`` holds for it (checking the one already seen first)."""
        if self.game is None or not pred(self.game):
            self.recv_until(lambda m: m["type"] in VIEWS and pred(m["game"]), timeout)
        assert self.game is not None
        return self.game

    def request(self, message: dict[str, Any], timeout: float = WAIT) -> dict[str, Any]:
        """Send with an id and return the reply (ack, error or answer) carrying that ref."""
        ref = uuid.uuid4().hex[:8]
        self.send({**message, "id": ref})
        return self.recv_until(lambda m: m.get("ref") == ref, timeout)

    def move(self, move: str, version: int | None = None) -> dict[str, Any]:
        assert self.game is not None
        v = self.game["version"] if version is None else version
        return self.request({"type": "move", "move": move, "version": v})

    def tail(self) -> str:
        return json.dumps(
            [{k: m.get(k) for k in ("type", "code", "version")} for m in self.messages[-5:]]
        )

    def close(self) -> None:
        self.ws.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- accounts -----------------------------------------------------------------------------------

PASSWORD = "correct horse battery"
# Each test's accounts are started with the server's forwarded-for addresses trusted, so
# that every account comes from an address of its own and no per-address limit is shared.
TRUST_FORWARDED = ("--forwarded-allow-ips", "127.0.0.1")


def client_address() -> str:
    """A random address in 10.0.0.0/8, sent as x-forwarded-for (nothing is sent to it)."""
    return "10." + ".".join(str(b) for b in uuid.uuid4().bytes[:3])


def eventually(check: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Poll ``check`` until it returns something true (its value), or fail after ``timeout``:
    for what another process does in its own time, with no event to wait on."""
    end = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < end, f"timed out after {timeout} s"
        time.sleep(0.1)
    return found


class Account:
    """A signed-up account: its name, id and cookie, and an HTTP client with its cookie and
    CSRF token (of a server started with :data:`TRUST_FORWARDED`)."""

    def __init__(self, server: ServerProcess, name: str | None = None) -> None:
        self.server = server
        self.name = name or f"A{uuid.uuid4().hex[:10]}"
        self.http = http_client(
            base_url=server.url, headers={"x-forwarded-for": client_address()}, timeout=WAIT
        )
        r = self.http.post("/api/account/signup", json={"name": self.name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.id: str = r.json()["id"]
        self.cookie: str = r.cookies["pw_session"]
        self.http.headers["x-csrf-token"] = r.json()["csrf_token"]

    def on(self, server: ServerProcess) -> Account:
        """This account's requests go to ``server`` from now on (another process)."""
        self.server = server
        self.http.base_url = httpx.URL(server.url)
        return self

    def get(self, path: str, **params: Any) -> Any:
        r = self.http.get(path, params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def me(self, server: ServerProcess | None = None) -> ClientConnection:
        """A /ws/me socket (on ``server``, or this account's) that said hello and was welcomed."""
        target = server or self.server
        ws = connect(
            f"{target.ws_url}/ws/me",
            proxy=None,
            open_timeout=WAIT,
            close_timeout=2,
            additional_headers={"origin": target.url, "cookie": f"pw_session={self.cookie}"},
        ).__enter__()
        ws.send(json.dumps({"type": "hello", "lang": "en"}))
        welcome = json.loads(ws.recv(timeout=WAIT))
        assert welcome["type"] == "welcome" and welcome["name"] == self.name, welcome
        return ws

    def close(self) -> None:
        self.http.close()


# -- fixtures -----------------------------------------------------------------------------------

# The shared server: short grace period and cheap AI help, so tests can wait for them.
SHARED_ARGS = (
    "--ai-workers",
    "1",
    "--grace",
    "1.5",
    "--hint-seconds",
    "0.2",
    "--analysis-seconds",
    "0.3",
    "--board-seconds",
    "0.4",
    "--review-iterations",
    "200",
    "--review-burst",
    "0",  # the tests review many games from one address...
    "--seeks-per-minute",
    "0",  # ...and make many seeks
    "--ws-rate",
    "100",
    "--ws-burst",
    "60",
    "--http-rate",
    "20",
    "--http-burst",
    "40",
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each server test runs on PostgreSQL, the store of many processes; one marked
    ``both_backends`` tests storage itself (a restart or kill -9, a migration, writes at once,
    a column's limits, expiry) and runs on SQLite too. The rest is the same SQLAlchemy code on
    both, and the browser tests (tests/web) serve every page over SQLite."""
    if "backend" not in metafunc.fixturenames or any(
        "backend" in mark.args[0] for mark in metafunc.definition.iter_markers("parametrize")
    ):
        return
    both = metafunc.definition.get_closest_marker("both_backends") is not None
    metafunc.parametrize(
        "backend", BACKENDS if both else ["postgresql"], indirect=True, scope="session"
    )


@pytest.fixture(scope="session")
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@contextlib.contextmanager
def running_server(backend: str, tmp: Path, *args: str) -> Iterator[ServerProcess]:
    """A server process with ``args`` over a database of its own, stopped and dropped after."""
    url, drop = database_url(backend, tmp)
    proc = ServerProcess(url, tmp, *args)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()
        drop()


@pytest.fixture(scope="session")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(
        backend, tmp_path_factory.mktemp(f"server-{backend}"), *SHARED_ARGS
    ) as proc:
        yield proc


@pytest.fixture
def fresh_db(backend: str, tmp_path: Path) -> Iterator[str]:
    """A database of its own for a test that starts its own server."""
    url, drop = database_url(backend, tmp_path)
    try:
        yield url
    finally:
        drop()


# -- several processes over one PostgreSQL database and Redis (--redis) -------------------------

REDIS_URL = os.environ.get("PATCHWORK_TEST_REDIS", "redis://127.0.0.1:6379/0")


class RedisPrefix:
    """Keys and channels of one test's cluster in the shared Redis, deleted afterwards (never
    FLUSHALL: other tests and helpers use the same server)."""

    def __init__(self, url: str = REDIS_URL) -> None:
        import redis

        self.url = url
        self.prefix = f"pwtest-{os.getpid()}-{uuid.uuid4().hex[:8]}:"
        self.client = redis.Redis.from_url(url, socket_connect_timeout=3, decode_responses=True)
        try:
            self.client.ping()
        except redis.RedisError as e:
            pytest.fail(f"Redis is not reachable at {url} ({e})", pytrace=False)

    def args(self) -> tuple[str, ...]:
        return ("--redis", self.url, "--redis-prefix", self.prefix)

    def get(self, *parts: str) -> str | None:
        value = self.client.get(self.prefix + ":".join(parts))
        return None if value is None else str(value)

    def clean(self) -> None:
        import redis

        with contextlib.suppress(redis.RedisError):
            for key in self.client.scan_iter(match=self.prefix + "*", count=500):
                self.client.delete(key)
        self.client.close()


class RedisServer:
    """A redis-server of a test's own, on a free port, without persistence: it can be
    stopped and started again (empty) on the same port."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        import redis

        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=1).ping()
                return self
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)  # a starting process: there is no event to await

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@contextlib.contextmanager
def cluster(db_url: str, tmp: Path, n: int, *args: str) -> Iterator[list[ServerProcess]]:
    """``n`` server processes over one database with ``args`` (--redis ... among them)."""
    procs = [ServerProcess(db_url, tmp, *args) for _ in range(n)]
    try:
        for proc in procs:
            proc.start()
        yield procs
    finally:
        for proc in procs:
            proc.stop()
