"""Ratings against a real server process and a real database, SQLite and PostgreSQL: a rated
game is rated once when it ends (by resignation, on time, by its last move), against the AI
while the player has met no people and between two accounts; the ``rated`` event reaches the
game's clients; a game finished but not rated is rated at the next start; two games ending at
once for one player lose no update; profiles, the leaderboard and the rating chart.

Players sign up through ``/api/account/signup`` and create rated games against the AI as a
person does; an online rated game (the lobby's to start) is inserted into the database with
its first seat bound, and the second player joins it signed in. Players with an established
rating (for the leaderboard) and the games of the store-level tests are rows written to the
test's database."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import secrets
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

import httpx  # noqa: E402
from sqlalchemy import Engine, select, update  # noqa: E402

from patchwork.server.accounts.names import name_key  # noqa: E402
from patchwork.server.games.creation import new_game_data  # noqa: E402
from patchwork.server.games.requests import CreateGame  # noqa: E402
from patchwork.server.ratings import glicko2  # noqa: E402
from patchwork.server.ratings import rating as ratings  # noqa: E402
from patchwork.server.ratings.glicko2 import Rating  # noqa: E402
from patchwork.server.storage.models import EventData, games, rating_history, users  # noqa: E402
from patchwork.server.storage.store import AddEvent, InsertGame, Store  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    VIEWS,
    WAIT,
    Client,
    ServerProcess,
    http_client,
    running_server,
)
from test_server import play_against_ai, play_between  # noqa: E402

pytest_plugins = ["server_fixtures"]

START = Rating()
_addresses = itertools.count(1)


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that believes the tests' X-Forwarded-For, so that every player signs up
    from an address of their own (sign-ups are limited per address)."""
    tmp = tmp_path_factory.mktemp(f"ratings-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, "--forwarded-allow-ips", "127.0.0.1") as p:
        yield p


class Player:
    """A person with a browser of their own: signs up, creates games (cookie and CSRF)."""

    def __init__(self, server: ServerProcess, name: str | None = None) -> None:
        n = next(_addresses)
        self.http = http_client(
            base_url=server.url,
            timeout=WAIT,
            headers={"x-forwarded-for": f"10.9.{n // 256 % 256}.{n % 256}"},
        )
        self.name = name or f"P{secrets.token_hex(5)}"
        r = self.http.post(
            "/api/account/signup", json={"name": self.name, "password": "correct horse"}
        )
        assert r.status_code == 201, r.text
        self.account: dict[str, Any] = r.json()
        self.id: str = self.account["id"]
        self.http.headers["x-csrf-token"] = self.account["csrf_token"]

    def post(self, path: str, body: Any = None) -> httpx.Response:
        return self.http.post(path, json=body)

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.post("/api/games", body)
        assert r.status_code == 201, r.text
        created: dict[str, Any] = r.json()
        return created

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def players(server: ServerProcess) -> Iterator[Any]:
    made: list[Player] = []

    def make(name: str | None = None) -> Player:
        made.append(Player(server, name))
        return made[-1]

    yield make
    for p in made:
        p.close()


@pytest.fixture(scope="module")
def db(server: ServerProcess) -> Iterator[Store]:
    """The shared server's database, as the tests read and write it."""
    store = Store(server.db_url)
    try:
        yield store
    finally:
        store.close()


def add_user(
    store: Store,
    name: str | None = None,
    rating: float = 1500.0,
    rd: float = 350.0,
    people_games: int = 0,
) -> dict[str, Any]:
    """An account written straight to ``users`` (for a rating sign-up cannot give)."""
    name = name or f"P{secrets.token_hex(4)}"
    row = {
        "id": secrets.token_urlsafe(9),
        "name": name,
        "name_key": name_key(name),
        "password_hash": "not-a-hash",
        "created_at": dt.datetime.now(dt.UTC),
        "rating": rating,
        "rd": rd,
        "volatility": 0.06,
        "people_games": people_games,
    }
    with store.engine.begin() as conn:
        conn.execute(users.insert(), row)
    return row


def user(store: Store, user_id: str) -> dict[str, Any]:
    with store.engine.connect() as conn:
        found = conn.execute(select(users).where(users.c.id == user_id)).mappings().one()
    return dict(found)


def game_row(store: Store, game_id: str) -> dict[str, Any]:
    with store.engine.connect() as conn:
        found = conn.execute(select(games).where(games.c.id == game_id)).mappings().one()
    return dict(found)


def history_rows(store: Store, user_id: str) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(rating_history)
            .where(rating_history.c.user_id == user_id)
            .order_by(rating_history.c.id)
        ).mappings()
        return [dict(r) for r in rows]


def rated_game(store: Store, seat_users: tuple[str | None, str | None], **create: Any) -> Any:
    """A rated game whose seats are bound to ``seat_users``, inserted into the database as
    the server (or the lobby) would create it; the server reads it from there when asked."""
    new = new_game_data(CreateGame(**create))
    data = new.data
    data.seat0_user, data.seat1_user = seat_users
    data.rated = True
    if data.clock is not None and data.status == "active":  # the creator's clock runs
        data.turn_started = time.time()
    store.write([InsertGame(data), AddEvent(EventData(data.id, 1, "created", {"mode": data.mode}))])
    return new


def wait_rated(c: Client) -> dict[str, Any]:
    """The state message that announces the game's rating (perhaps received already)."""

    def rated(m: dict[str, Any]) -> bool:
        return m["type"] in VIEWS and (m.get("event") or {}).get("kind") == "rated"

    return next((m for m in c.messages if rated(m)), None) or c.recv_until(rated)


def expected_after(player: Rating, opponent: Rating, score: float) -> Rating:
    return glicko2.rate(player, [glicko2.Game(opponent, score)])


# -- against the AI -----------------------------------------------------------------------------


def test_a_rated_game_against_the_ai_ended_by_resignation(
    server: ServerProcess, db: Store, players: Any
) -> None:
    ann = players()
    created = ann.create(mode="ai", level=4, seed=11, rated=True)
    gid, token = created["game_id"], created["token"]
    assert created["game"]["rated"] is True and created["game"]["ratings"] is None
    with server.client(gid, token) as c:
        reply = c.request({"type": "resign"})
        assert reply["type"] == "ack"
        message = wait_rated(c)
        (finished,) = [
            m["game"] for m in c.messages if m["type"] in VIEWS and m["version"] == reply["version"]
        ]
        assert finished["status"] == "finished" and finished["ratings"] is None
    after = expected_after(START, ratings.ai_rating(4), 0.0)
    assert after.rating < 1500 and after.rd < 350
    event = message["event"]
    assert event["version"] == message["version"] == reply["version"] + 1
    entry = {
        "before": 1500.0,
        "after": round(after.rating, 2),
        "rd": round(after.rd, 2),
        "provisional": True,
        "counted": True,
    }
    assert event["ratings"] == [entry, None]
    assert message["game"]["ratings"] == [entry, None]
    # Stored: the account, its history, the game's mark; the same for anyone who asks.
    stored = user(db, ann.id)
    assert stored["rating"] == pytest.approx(after.rating, abs=1e-9)
    assert stored["rd"] == pytest.approx(after.rd, abs=1e-9)
    assert stored["volatility"] == pytest.approx(after.volatility, abs=1e-12)
    assert stored["people_games"] == 0
    me = ann.http.get("/api/account/me").json()
    assert me["rating"] == pytest.approx(after.rating, abs=0.01) and me["provisional"] is True
    (h,) = history_rows(db, ann.id)
    assert (h["game_id"], h["rating_before"], h["rd_before"], h["score"]) == (gid, 1500, 350, 0)
    assert h["opponent_name"] == "AI level 4" and h["opponent_user"] is None
    assert h["opponent_rating"] == pytest.approx(ratings.LEVEL_RATINGS[4])
    assert game_row(db, gid)["ratings"] == [entry, None]
    assert server.game(gid)["ratings"] == [entry, None]
    # Rating it again does nothing; a client coming back catches up with the event.
    assert ratings.rate_game(db.engine, gid) is None
    assert user(db, ann.id)["rating"] == stored["rating"]
    assert len(history_rows(db, ann.id)) == 1
    with server.client(gid, token, last_version=reply["version"]) as back:
        assert back.first is not None and back.first["type"] == "sync"
        assert [e["kind"] for e in back.first["events"]] == ["rated"]
        assert back.first["game"]["ratings"] == [entry, None]
    kinds = [e["kind"] for e in server.get(f"/api/games/{gid}/events").json()["events"]]
    assert kinds[-2:] == ["resign", "rated"]


def test_a_rated_game_against_the_ai_ended_on_time(
    server: ServerProcess, db: Store, players: Any
) -> None:
    bea = players()
    created = bea.create(
        mode="ai", level=1, seat=1, first_player=1, seed=3, rated=True,
        clock={"kind": "fischer", "initial": 1},
    )  # fmt: skip
    with server.client(created["game_id"], created["token"]) as c:
        message = wait_rated(c)
    assert message["game"]["result"]["termination"] == "time"
    after = expected_after(START, ratings.ai_rating(1), 0.0)
    assert message["event"]["ratings"] == [None, message["game"]["ratings"][1]]
    assert message["event"]["ratings"][1]["after"] == round(after.rating, 2)
    assert user(db, bea.id)["rating"] == pytest.approx(after.rating, abs=1e-9)


# -- between people -----------------------------------------------------------------------------


def set_rating(store: Store, user_id: str, rating: float, rd: float, people_games: int) -> None:
    """A player who has played before (what sign-up cannot give)."""
    with store.engine.begin() as conn:
        conn.execute(
            update(users)
            .where(users.c.id == user_id)
            .values(rating=rating, rd=rd, people_games=people_games)
        )


def test_two_accounts_in_an_online_game_played_to_its_end(
    server: ServerProcess, db: Store, players: Any
) -> None:
    ann, bob = players(), players()
    set_rating(db, ann.id, 1620, 120, 0)
    set_rating(db, bob.id, 1480, 90, 4)
    # The game the lobby starts: Ann's seat bound; Bob joins it signed in.
    new = rated_game(db, (ann.id, None), mode="online", seed=21, name=ann.name)
    gid = new.data.id
    joined = bob.post(f"/api/games/{gid}/join", {"invite": new.invite})
    assert joined.status_code == 200, joined.text
    assert [s["account"] for s in joined.json()["game"]["seats"]] == [True, True]
    with (
        server.client(gid, new.token) as c0,
        server.client(gid, joined.json()["token"]) as c1,
        server.client(gid) as watcher,
    ):
        game = play_between({0: c0, 1: c1}, random.Random(5), 400)
        assert game["status"] == "finished"
        assert game["result"]["termination"] == "finished"
        winner = game["result"]["winner"]
        rated = [wait_rated(c) for c in (c0, c1, watcher)]
    assert len({m["version"] for m in rated}) == 1
    a_before, b_before = Rating(1620, 120), Rating(1480, 90)
    scores = [ratings.score_of(winner, s) for s in (0, 1)]
    a_after = expected_after(a_before, b_before, scores[0])
    b_after = expected_after(b_before, a_before, scores[1])
    entries = rated[0]["event"]["ratings"]
    assert entries[0]["after"] == round(a_after.rating, 2)
    assert entries[1]["after"] == round(b_after.rating, 2)
    assert entries[0]["provisional"] is (a_after.rd > 110)
    assert entries[1]["provisional"] is False and all(e["counted"] for e in entries)
    a, b = user(db, ann.id), user(db, bob.id)
    assert a["rating"] == pytest.approx(a_after.rating, abs=1e-9)
    assert b["rating"] == pytest.approx(b_after.rating, abs=1e-9)
    assert (a["people_games"], b["people_games"]) == (1, 5)
    (ha,) = history_rows(db, ann.id)
    assert ha["opponent_user"] == bob.id and ha["opponent_name"] == bob.name
    assert ha["opponent_rating"] == 1480 and ha["score"] == scores[0]

    # Having met people, Ann's games against the AI no longer count (the result says so).
    created = ann.create(mode="ai", level=1, seed=8, rated=True)
    with server.client(created["game_id"], created["token"]) as c:
        c.request({"type": "resign"})
        entry = wait_rated(c)["event"]["ratings"][0]
    assert entry["counted"] is False and entry["before"] == entry["after"]
    assert user(db, ann.id)["rating"] == a["rating"]
    assert len(history_rows(db, ann.id)) == 1


# -- crash safety and concurrency ----------------------------------------------------------------


def finished_unrated(store: Store, user_id: str, winner: int) -> str:
    """A rated game against the AI that ended, but was not rated (its process died)."""
    new = rated_game(store, (user_id, None), mode="ai", level=2, seed=winner + 40)
    with store.engine.begin() as conn:
        conn.execute(
            update(games)
            .where(games.c.id == new.data.id)
            .values(status="finished", termination="resigned", winner=winner, scores=[0, 0])
        )
    return new.data.id


@pytest.mark.both_backends
def test_a_game_finished_but_not_rated_is_rated_at_the_next_start(
    backend: str, tmp_path: Path
) -> None:
    with running_server(backend, tmp_path, "--ai-workers", "1") as proc:
        store = Store(proc.db_url)
        try:
            cyd = add_user(store)
            proc.stop()  # (the server made the schema; now it is down)
            gid = finished_unrated(store, cyd["id"], winner=0)
            assert game_row(store, gid)["ratings"] is None
            proc.start()
            after = expected_after(START, ratings.ai_rating(2), 1.0)
            assert user(store, cyd["id"])["rating"] == pytest.approx(after.rating, abs=1e-9)
            game = proc.game(gid)
            assert game["ratings"][0]["after"] == round(after.rating, 2) > 1500
            assert [h["game_id"] for h in history_rows(store, cyd["id"])] == [gid]
            proc.stop()
            proc.start()  # rated once: a second start changes nothing
            assert len(history_rows(store, cyd["id"])) == 1
        finally:
            store.close()


@pytest.mark.both_backends
def test_two_games_ending_at_once_for_one_player_lose_no_update(db: Store) -> None:
    dan = add_user(db)
    ids = [finished_unrated(db, dan["id"], winner=w) for w in (0, 1)]
    barrier = threading.Barrier(2)
    results: list[Any] = []

    def rate(game_id: str, engine: Engine) -> None:
        barrier.wait()
        results.append(ratings.rate_game(engine, game_id))

    threads = [threading.Thread(target=rate, args=(gid, db.engine)) for gid in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(r is not None for r in results) and len(results) == 2
    first, second = history_rows(db, dan["id"])
    # The second saw the first's result: the two periods chained, whichever came first.
    assert second["rating_before"] == first["rating"] and second["rd_before"] == first["rd"]
    level2 = ratings.ai_rating(2)
    one = expected_after(START, level2, first["score"])
    two = expected_after(one, level2, second["score"])
    stored = user(db, dan["id"])
    assert stored["rating"] == pytest.approx(two.rating, abs=1e-9)
    assert stored["rd"] == pytest.approx(two.rd, abs=1e-9)
    assert sorted(h["score"] for h in (first, second)) == [0.0, 1.0]
    assert [ratings.rate_game(db.engine, gid) for gid in ids] == [None, None]


# -- profiles, the leaderboard, the chart --------------------------------------------------------


def test_profile_leaderboard_and_chart(server: ServerProcess, db: Store, players: Any) -> None:
    tag = secrets.token_hex(3)
    eve = players(f"Evil{tag}")
    games_played = []
    for level, resign in ((1, False), (2, True)):
        created = eve.create(mode="ai", level=level, seed=level, rated=True)
        with server.client(created["game_id"], created["token"]) as c:
            if resign:
                c.request({"type": "resign"})
            else:  # played to its end
                play_against_ai(c, created["seat"], random.Random(level))
            wait_rated(c)
        games_played.append(created["game_id"])
    # Found regardless of case and look-alikes.
    r = server.get(f"/api/players/EV1L{tag.upper()}")
    assert r.status_code == 200, r.text
    profile = r.json()
    assert profile["name"] == eve.name
    stored = user(db, eve.id)
    assert profile["rating"] == round(stored["rating"], 2)
    assert profile["rd"] == round(stored["rd"], 2) and profile["provisional"] is True
    assert profile["played"] == 2 == profile["won"] + profile["lost"] + profile["drawn"]
    assert profile["lost"] >= 1
    history = profile["history"]
    assert [h["game_id"] for h in history] == games_played
    assert history[1]["rating"] == profile["rating"]
    assert history[0]["change"] == round(history[0]["rating"] - 1500, 2)
    assert history[1]["opponent"] == "AI level 2" and history[1]["score"] == 0
    assert [g["id"] for g in profile["recent"]] == games_played[::-1]
    assert profile["recent"][0]["result"]["termination"] == "resigned"

    chart = server.get(f"/api/players/{eve.name}/rating.svg")
    assert chart.status_code == 200
    assert chart.headers["content-type"].startswith("image/svg+xml")
    root = ET.fromstring(chart.text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert any(True for _ in root.iter("{http://www.w3.org/2000/svg}path"))
    assert "<dc:date>" not in chart.text
    assert server.get(f"/api/players/{eve.name}/rating.svg").text == chart.text

    for path in ("/api/players/nobody_here", "/api/players/nobody_here/rating.svg"):
        missing = server.get(path)
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "not_found"

    # The leaderboard: established ratings only, the highest first.
    top = [add_user(db, name=f"Top{tag}{i}", rating=2900 + i, rd=60 + 10 * i) for i in range(3)]
    add_user(db, name=f"New{tag}", rating=3000, rd=111)  # provisional: left out
    board = server.get("/api/leaderboard?limit=3").json()
    assert [e["name"] for e in board] == [u["name"] for u in top[::-1]]
    assert [e["rank"] for e in board] == [1, 2, 3]
    assert board[0] == {
        "rank": 1,
        "name": top[2]["name"],
        "bot": False,
        "rating": 2902,
        "rd": 80,
        "games": 0,
    }
    assert server.get("/api/leaderboard?limit=0").status_code == 422
