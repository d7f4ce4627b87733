"""The AI levels in the lobby (issue 39), against real server processes on SQLite and
PostgreSQL: a fresh server's lobby lists the five bots with their fixed ratings; playing one
starts an ordinary game against that level, rated only where docs/accounts.md's rule says a
game against the AI counts (an account that has met no people yet), and withdraws the
player's quick pairing; one address starts only so many at once; bad requests are refused
in words."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from sqlalchemy import update  # noqa: E402

from patchwork.ai.levels import DESCRIPTIONS, LEVELS  # noqa: E402
from patchwork.server.ratings.rating import LEVEL_RATINGS, nearest_level  # noqa: E402
from patchwork.server.storage.models import users  # noqa: E402
from patchwork.server.storage.store import Store  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    WAIT,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    fetch,
    running_server,
)
from test_server_lobby import Lobby  # noqa: E402

pytest_plugins = ["server_fixtures"]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A fresh server of this module's own (nobody has sought anything on it), that believes
    the tests' X-Forwarded-For so that each account signs up from an address of its own."""
    tmp = tmp_path_factory.mktemp(f"bots-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, "--forwarded-allow-ips", "127.0.0.1") as p:
        yield p


def sign_up(server: ServerProcess) -> tuple[str, str]:
    """A new account: its session cookie and id."""
    r = fetch(
        "POST",
        f"{server.url}/api/account/signup",
        json={"name": f"B{secrets.token_hex(5)}", "password": "correct horse battery"},
        headers={"x-forwarded-for": f"10.39.{secrets.randbelow(256)}.{secrets.randbelow(256)}"},
        timeout=WAIT,
    )
    assert r.status_code == 201, r.text
    return r.cookies["pw_session"], r.json()["id"]


def met_people(server: ServerProcess, user_id: str) -> None:
    """The account has played a rated game against a person (what sign-up cannot give)."""
    store = Store(server.db_url)
    try:
        with store.engine.begin() as conn:
            conn.execute(update(users).where(users.c.id == user_id).values(people_games=1))
    finally:
        store.close()


def play(lobby: Lobby, level: int, **fields: Any) -> dict[str, Any]:
    reply = lobby.request({"type": "play_bot", "level": level, **fields})
    assert reply["type"] == "bot_game", reply
    return reply


def test_a_fresh_lobby_lists_every_level_as_a_bot_with_its_rating(server: ServerProcess) -> None:
    with Lobby(server) as guest:
        welcome = guest.welcome
        assert welcome is not None and welcome["seeks"] == []
        bots = welcome["bots"]
        assert [b["level"] for b in bots] == list(LEVELS)
        assert [b["rating"] for b in bots] == [round(LEVEL_RATINGS[n]) for n in LEVELS]
        assert [b["name"] for b in bots] == [f"AI level {n}" for n in LEVELS]
        assert [b["description"] for b in bots] == [DESCRIPTIONS[n] for n in LEVELS]
        assert not any(b["rated"] for b in bots)  # a guest plays them casual
        assert welcome["you"]["nearest_bot"] == nearest_level(1500)  # a guest counts as 1500
        assert welcome["bot_offer_after"] == 20


def test_playing_a_bot_starts_a_game_against_that_level(server: ServerProcess) -> None:
    with Lobby(server) as guest:
        started = play(guest, 4, rated=True)  # asked rated, but a guest's game never is
        assert started["level"] == 4 and started["rated"] is False
        assert started["ws_url"] == f"/ws/games/{started['game_id']}"
    game = server.game(started["game_id"])
    assert game["mode"] == "ai" and game["status"] == "active" and game["rated"] is False
    seats = {s["seat"]: s for s in game["seats"]}
    me, bot = seats[started["seat"]], seats[1 - started["seat"]]
    assert bot["kind"] == "ai" and bot["level"] == 4 and bot["name"] == "AI level 4"
    assert me["kind"] == "human" and me["name"] == (guest.welcome or {})["you"]["name"]
    with server.client(started["game_id"], started["token"]) as c:  # the token plays it
        assert c.welcome is not None and c.welcome["seats"] == [started["seat"]]


def test_a_bot_game_is_rated_while_the_player_has_met_no_people(server: ServerProcess) -> None:
    cookie, user_id = sign_up(server)
    with Lobby(server, cookie) as ann:
        assert ann.welcome is not None and all(b["rated"] for b in ann.welcome["bots"])
        assert ann.welcome["you"]["nearest_bot"] == nearest_level(1500)
        rated = play(ann, 2)
        casual = play(ann, 2, rated=False)  # the player may ask for a casual one
    assert rated["rated"] is True and server.game(rated["game_id"])["rated"] is True
    assert casual["rated"] is False and server.game(casual["game_id"])["rated"] is False
    bound = server.game(rated["game_id"])["seats"][rated["seat"]]
    assert bound["account"] is True
    # Once they have played people, a game against the AI no longer counts: casual.
    met_people(server, user_id)
    with Lobby(server, cookie) as ann:
        assert ann.welcome is not None and not any(b["rated"] for b in ann.welcome["bots"])
        later = play(ann, 2)
    assert later["rated"] is False and server.game(later["game_id"])["rated"] is False


def test_playing_a_bot_withdraws_the_quick_pairing(server: ServerProcess) -> None:
    with Lobby(server) as ann:
        quick = ann.request({"type": "quick"})
        ann.seen(lambda m: m["type"] == "seeks_changed" and m["quick"] == quick["seek_id"])
        play(ann, 1)
        ann.seen(lambda m: m["type"] == "seeks_changed" and m["quick"] is None)
        ann.error({"type": "cancel", "seek_id": quick["seek_id"]}, "seek_not_found")
        with Lobby(server) as bob, Lobby(server) as cat:  # nobody is paired with Ann now
            bob.request({"type": "quick"})
            cat.request({"type": "quick"})
            assert bob.expect("paired")["game_id"] == cat.expect("paired")["game_id"]
        assert not [m for m in ann.messages if m["type"] == "paired"]


def test_every_process_lists_the_bots_and_withdraws_a_wait_for_all(tmp_path: Path) -> None:
    """Two processes over PostgreSQL and Redis: the same bots on both (fixed data, nothing
    shared); a player who waits on A and then plays a bot is nobody's partner on B."""
    db, keys = PostgresDatabase(), RedisPrefix()
    try:
        with (
            cluster(db.url, tmp_path, 2, "--ai-workers", "1", *keys.args()) as (a, b),
            Lobby(a) as ann,
            Lobby(b) as bob,
            Lobby(b) as cat,
        ):
            assert ann.welcome is not None and bob.welcome is not None
            assert ann.welcome["bots"] == bob.welcome["bots"]
            assert ann.request({"type": "quick"})["type"] == "ack"
            play(ann, 1)
            bob.request({"type": "quick"})  # Ann, waiting longer, would be his partner
            cat.request({"type": "quick"})
            assert bob.expect("paired")["game_id"] == cat.expect("paired")["game_id"]
            assert not [m for m in ann.messages if m["type"] == "paired"]
    finally:
        keys.clean()
        db.drop()


def test_bot_games_from_one_address_are_limited(backend: str, tmp_path: Path) -> None:
    """Each game keeps an AI busy: one address starts 10 at once, then 20 a minute (the
    seeks' rate, in a bucket of its own, so playing bots never stops anyone seeking)."""
    with running_server(backend, tmp_path, "--ai-workers", "1") as fresh, Lobby(fresh) as ann:
        for _ in range(10):
            play(ann, 1, rated=False)
        refused = ann.error({"type": "play_bot", "level": 1}, "rate_limited")
        assert "too many games" in refused["message"] and refused["retry_after"] > 0
        ann.seek()


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "play_bot", "level": 0}, "level: Input should be greater than or equal to 1"),
        ({"type": "play_bot", "level": 14}, "level: Input should be less than or equal to 13"),
        ({"type": "play_bot", "level": "3"}, "level: Input should be a valid integer"),
        ({"type": "play_bot", "level": 3.0}, "level: Input should be a valid integer"),
        ({"type": "play_bot"}, "level: Field required"),
        ({"type": "play_bot", "level": 3, "rated": "yes"}, "rated: Input should be a valid"),
    ],
)
def test_bad_bot_requests_are_refused_in_words(
    server: ServerProcess, message: dict[str, Any], words: str
) -> None:
    with Lobby(server) as ann:
        refused = ann.error(message, "invalid_message")
        assert words in refused["message"], refused
        assert ann.request({"type": "ping"})["type"] == "pong"  # the connection stays
