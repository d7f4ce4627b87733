"""Challenges to a named player (issue 39): made, accepted into one game with its terms,
declined with a reason, cancelled, lapsed; each change heard live on both players' own
sockets (/ws/me); blocks, limits and bad input refused in words; a rematch between two
accounts offered as a challenge. Real server processes on SQLite and PostgreSQL, and two
over Redis (a challenge made on one, accepted on the other; two accepts racing)."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.register_assert_rewrite("server_fixtures")

from sqlalchemy import update  # noqa: E402
from websockets.sync.client import ClientConnection  # noqa: E402

from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    WAIT,
    Account,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    fetch,
    http_client,
    running_server,
)

pytest_plugins = ["server_fixtures"]


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"challenges-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED) as p:
        yield p


class Player(Account):
    """An account and, once ``listen`` is called, its own socket (/ws/me)."""

    ws: ClientConnection | None = None

    def listen(self, server: ServerProcess | None = None) -> Player:
        self.ws = self.me(server)
        return self

    def hear(self, kind: str, challenge_id: str, timeout: float = WAIT) -> dict[str, Any]:
        """The next ``kind`` message about the challenge (others are skipped)."""
        assert self.ws is not None
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg.get("type") == kind and msg["challenge"]["id"] == challenge_id:
                return msg

    def challenge(self, to: Player | str, **body: Any) -> dict[str, Any]:
        r = self.http.post(
            "/api/challenges", json={"to": to if isinstance(to, str) else to.name, **body}
        )
        assert r.status_code == 201, r.text
        view: dict[str, Any] = r.json()
        return view

    def act(self, challenge_id: str, action: str, body: Any = None) -> httpx.Response:
        return self.http.post(f"/api/challenges/{challenge_id}/{action}", json=body)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
        super().close()


@pytest.fixture
def people(server: ServerProcess) -> Iterator[Any]:
    made: list[Player] = []

    def make() -> Player:
        made.append(Player(server))
        return made[-1]

    yield make
    for a in made:
        a.close()


def refused(r: httpx.Response, status: int, code: str, *words: str) -> str:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    for w in words:
        assert w in error["message"], error
    return str(error["message"])


# -- the path of a challenge ------------------------------------------------------------------


def test_accepted_once_into_a_game_with_its_terms(server: ServerProcess, people: Any) -> None:
    ann, bob = people().listen(), people().listen()
    terms = {
        "rules": {"edition": "original", "rotation": False, "flip": True},
        "clock": {"kind": "fischer", "initial": 300, "increment": 3},
        "rated": True,
        "takebacks": True,
        "seat": 1,
    }
    made = ann.challenge(bob.name.lower(), **terms)
    assert made["status"] == "open" and made["challenger"] == ann.name
    assert made["challenged"] == bob.name and made["seat"] == 1
    assert 590 < made["expires_at"] - made["created_at"] <= 600  # a clocked game: 10 minutes
    heard = bob.hear("challenge_new", made["id"])["challenge"]
    assert heard["rules"] == terms["rules"] and heard["clock"]["initial"] == 300
    assert ann.hear("challenge_new", made["id"])["challenge"]["status"] == "open"
    listed = bob.http.get("/api/challenges").json()
    assert [c["id"] for c in listed["incoming"]] == [made["id"]] and listed["outgoing"] == []
    assert [c["id"] for c in ann.http.get("/api/challenges").json()["outgoing"]] == [made["id"]]
    refused(ann.act(made["id"], "accept"), 403, "not_allowed", "challenged player")
    # Bob's list of notifications has it (stored with the challenge).
    notes = bob.http.get("/api/notifications").json()["notifications"]
    assert [n["about"] for n in notes] == [
        {"kind": "challenge", "challenge_id": made["id"], "by": ann.name}
    ]

    r = bob.act(made["id"], "accept")
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    assert r.json()["watch_url"] == f"/play/{game_id}"
    again = bob.act(made["id"], "accept")  # a second click: the same game
    assert again.status_code == 200 and again.json()["game_id"] == game_id
    assert ann.hear("challenge_accepted", made["id"])["game_id"] == game_id
    assert bob.hear("challenge_accepted", made["id"])["challenge"]["game_id"] == game_id
    game = server.game(game_id)
    assert game["status"] == "active" and game["mode"] == "online" and game["rated"] is True
    assert game["rules"]["edition"] == "original" and game["rules"]["rotation"] is False
    assert game["clock"]["initial_ms"] == 300_000 and game["clock"]["increment_ms"] == 3000
    assert [s["name"] for s in game["seats"]] == [bob.name, ann.name]  # Ann asked for seat 1
    assert all(s["account"] for s in game["seats"])
    assert game["takeback"]["allowed"] is True  # rated, both agreed
    assert bob.http.get("/api/challenges").json()["incoming"] == []
    # Each plays their seat with their session alone: Bob, seat 0, moves first.
    r = bob.http.post(f"/api/games/{game_id}/moves", json={"move": "A", "version": 1})
    assert r.status_code == 200, r.text
    r = ann.http.post(f"/api/games/{game_id}/moves", json={"move": "A", "version": 2})
    assert r.status_code == 200, r.text  # then Ann, behind him


def test_a_rated_challenge_without_takebacks_and_a_casual_one(
    server: ServerProcess, people: Any
) -> None:
    ann, bob = people(), people()
    rated = ann.challenge(bob, rated=True)
    assert rated["takebacks"] is False and rated["seat"] == "random"
    game = server.game(bob.act(rated["id"], "accept").json()["game_id"])
    assert game["rated"] is True and game["takeback"]["allowed"] is False
    assert game["clock"] is None and {s["name"] for s in game["seats"]} == {ann.name, bob.name}
    casual = ann.challenge(bob, takebacks=True, clock={"kind": "correspondence", "days": 2})
    assert casual["takebacks"] is False  # only a rated game needs the agreement
    assert casual["expires_at"] - casual["created_at"] == pytest.approx(3 * 86400, abs=2)
    game = server.game(bob.act(casual["id"], "accept").json()["game_id"])
    assert game["rated"] is False and game["takeback"]["allowed"] is True
    assert game["clock"]["kind"] == "correspondence"


def test_declined_with_a_reason_heard_live(server: ServerProcess, people: Any) -> None:
    ann, bob = people().listen(), people()
    made = ann.challenge(bob, clock={"kind": "fischer", "initial": 60, "increment": 0})
    refused(bob.act(made["id"], "decline", {"reason": "bored"}), 422, "invalid_request")
    refused(ann.act(made["id"], "decline"), 403, "not_allowed", "cancel it instead")
    r = bob.act(made["id"], "decline", {"reason": "too_fast"})
    assert r.status_code == 200 and r.json()["status"] == "declined", r.text
    msg = ann.hear("challenge_declined", made["id"])
    assert msg["challenge"]["reason"] == "too_fast"
    assert "too fast" in msg["challenge"]["reason_text"]
    seen = ann.http.get(f"/api/challenges/{made['id']}").json()
    assert seen["status"] == "declined" and seen["reason"] == "too_fast"
    refused(bob.act(made["id"], "accept"), 409, "challenge_closed", "declined")
    assert ann.http.get("/api/challenges").json()["outgoing"] == []
    # Without a body: the generic reason.
    other = ann.challenge(bob)
    assert bob.act(other["id"], "decline").json()["reason"] == "generic"


def test_cancelled_by_the_challenger(server: ServerProcess, people: Any) -> None:
    ann, bob = people(), people().listen()
    made = ann.challenge(bob)
    bob.hear("challenge_new", made["id"])
    refused(bob.act(made["id"], "cancel"), 403, "not_allowed", "decline it instead")
    r = ann.act(made["id"], "cancel")
    assert r.status_code == 200 and r.json()["status"] == "cancelled", r.text
    assert bob.hear("challenge_cancelled", made["id"])["challenge"]["status"] == "cancelled"
    refused(bob.act(made["id"], "accept"), 409, "challenge_closed", "cancelled")
    refused(ann.act(made["id"], "cancel"), 409, "challenge_closed", "cancelled")
    # A stranger learns nothing of it.
    refused(people().act(made["id"], "accept"), 404, "challenge_not_found")


def lapse(server: ServerProcess, challenge_id: str) -> None:
    """Move the challenge's expiry into the past, as the clock would."""
    from patchwork.server.storage.models import challenges
    from patchwork.server.storage.store import make_engine

    engine = make_engine(server.db_url)
    try:
        with engine.begin() as conn:
            past = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
            conn.execute(
                update(challenges).where(challenges.c.id == challenge_id).values(expires_at=past)
            )
    finally:
        engine.dispose()


def test_an_unanswered_challenge_lapses(server: ServerProcess, people: Any) -> None:
    ann, bob = people().listen(), people().listen()
    made = ann.challenge(bob)
    lapse(server, made["id"])
    # Lapsed is lapsed at once, marked or not; the sweeper tells both within seconds.
    refused(bob.act(made["id"], "accept"), 409, "challenge_closed", "expired")
    assert bob.http.get("/api/challenges").json()["incoming"] == []
    assert ann.hear("challenge_expired", made["id"])["challenge"]["status"] == "expired"
    assert bob.hear("challenge_expired", made["id"])["challenge"]["status"] == "expired"
    assert ann.http.get(f"/api/challenges/{made['id']}").json()["status"] == "expired"
    # The pair may meet again.
    assert ann.challenge(bob)["status"] == "open"


# -- refusals ---------------------------------------------------------------------------------


def test_a_blocked_player_cannot_challenge(server: ServerProcess, people: Any) -> None:
    ann, bob = people(), people()
    assert bob.http.put(f"/api/players/{ann.name}/block").status_code == 204
    r = ann.http.post("/api/challenges", json={"to": bob.name})
    message = refused(r, 403, "blocked", "cannot challenge this player")
    assert "block" not in message  # no more said than needed
    r = bob.http.post("/api/challenges", json={"to": ann.name})
    refused(r, 403, "blocked", "you blocked this player")
    assert bob.http.delete(f"/api/players/{ann.name}/block").status_code == 204
    assert ann.challenge(bob)["status"] == "open"


def test_limits_and_bad_input_in_words(server: ServerProcess, people: Any) -> None:
    ann, bob = people(), people()
    ann.challenge(bob)
    refused(ann.http.post("/api/challenges", json={"to": bob.name}), 409, "challenge_open")
    ann.challenge(people())
    ann.challenge(people())
    r = ann.http.post("/api/challenges", json={"to": people().name})
    refused(r, 429, "too_many_challenges", "at most 3")
    r = ann.http.post("/api/challenges", json={"to": ann.name})
    refused(r, 422, "invalid_request", "yourself")
    r = ann.http.post("/api/challenges", json={"to": "nobody-here"})
    refused(r, 404, "not_found", "nobody-here")
    for body, words in [
        ({"to": bob.name, "rated": "yes"}, "rated"),
        ({"to": bob.name, "seat": 2}, "seat"),
        ({"to": bob.name, "clock": {"kind": "fischer"}}, "initial"),
        ({"to": bob.name, "rules": {"edition": "2030"}}, "edition"),
        ({"to": "x" * 41}, "to"),
        ({}, "whom to challenge"),
        ({"to": bob.name, "rematch_of": "abc"}, "rematch_of alone"),
        ({"to": bob.name, "colour": "red"}, "colour"),
    ]:
        refused(ann.http.post("/api/challenges", json=body), 422, "invalid_request", words)
    refused(ann.http.get("/api/challenges/" + "x" * 30), 422, "invalid_request")
    guest = fetch("POST", f"{server.url}/api/challenges", json={"to": bob.name}, timeout=WAIT)
    refused(guest, 401, "not_signed_in")
    refused(fetch("GET", f"{server.url}/api/challenges", timeout=WAIT), 401, "not_signed_in")


def test_challenges_are_limited_per_account(server: ServerProcess, people: Any) -> None:
    cat, dan = people(), people()
    cat.challenge(dan)
    for _ in range(9):  # refused, but each counts
        assert cat.http.post("/api/challenges", json={"to": dan.name}).status_code == 409
    r = cat.http.post("/api/challenges", json={"to": dan.name})
    refused(r, 429, "rate_limited", "many challenges")
    assert int(r.headers["retry-after"]) >= 1


# -- rematches between accounts ---------------------------------------------------------------


def finished_game(ann: Player, bob: Player) -> str:
    made = ann.challenge(bob, seat=0, rated=True, clock={"kind": "correspondence", "days": 1})
    game_id: str = bob.act(made["id"], "accept").json()["game_id"]
    r = ann.http.post(f"/api/games/{game_id}/resign")
    assert r.status_code == 200, r.text
    return game_id


def test_a_rematch_between_accounts_is_a_challenge(server: ServerProcess, people: Any) -> None:
    ann, bob = people().listen(), people().listen()
    old = finished_game(ann, bob)
    r = bob.http.post(f"/api/games/{old}/rematch")  # the in-game offer is for games with guests
    refused(r, 403, "not_allowed", "rematch_of")
    r = people().http.post("/api/challenges", json={"rematch_of": old})
    refused(r, 403, "not_allowed", "only a player")
    r = ann.http.post("/api/challenges", json={"rematch_of": old})
    assert r.status_code == 201, r.text
    offer = r.json()
    assert offer["rematch_of"] == old and offer["challenged"] == bob.name
    assert offer["seat"] == 1 and offer["rated"] is True  # seats swapped, the same terms
    assert offer["clock"] == {"kind": "correspondence", "days": 1, "initial": None, "increment": 0}
    assert bob.hear("challenge_new", offer["id"])["challenge"]["rematch_of"] == old
    # Bob offers the same rematch meanwhile: that accepts Ann's.
    r = bob.http.post("/api/challenges", json={"rematch_of": old})
    assert r.status_code == 201 and r.json()["status"] == "accepted", r.text
    new = r.json()["game_id"]
    assert ann.hear("challenge_accepted", offer["id"])["game_id"] == new
    game = server.game(new)
    assert [s["name"] for s in game["seats"]] == [bob.name, ann.name] and game["rated"] is True
    assert game["clock"]["kind"] == "correspondence"

    def linked() -> bool:
        return bool(server.game(old)["rematch"]["game_id"] == new)

    deadline = 50
    while not linked() and deadline:  # the old game points to it (its page follows)
        deadline -= 1
        threading.Event().wait(0.1)
    assert linked()
    r = ann.http.post("/api/challenges", json={"rematch_of": old})
    refused(r, 409, "challenge_closed", "played already")


def test_a_rematch_needs_the_game_over(server: ServerProcess, people: Any) -> None:
    ann, bob = people(), people()
    made = ann.challenge(bob)
    game_id = bob.act(made["id"], "accept").json()["game_id"]
    r = ann.http.post("/api/challenges", json={"rematch_of": game_id})
    refused(r, 409, "game_not_over")
    r = ann.http.post("/api/challenges", json={"rematch_of": "no-such-game"})
    refused(r, 404, "game_not_found")


# -- several processes ------------------------------------------------------------------------


def accept_on_both(
    who: Player, challenge_id: str, servers: tuple[ServerProcess, ServerProcess]
) -> list[httpx.Response]:
    """``who`` accepts the challenge on both processes at the same moment."""
    clients = [
        http_client(base_url=s.url, headers=dict(who.http.headers), timeout=WAIT) for s in servers
    ]
    results: list[httpx.Response] = []
    start = threading.Barrier(len(clients))

    def go(client: httpx.Client) -> None:
        client.cookies.set("pw_session", who.cookie)
        start.wait()
        results.append(client.post(f"/api/challenges/{challenge_id}/accept"))

    threads = [threading.Thread(target=go, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for c in clients:
        c.close()
    return results


def test_across_processes_heard_live_and_accepted_once(tmp_path: Path) -> None:
    db, keys = PostgresDatabase(), RedisPrefix()
    args = ("--ai-workers", "1", "--forwarded-allow-ips", "127.0.0.1", *keys.args())
    made_accounts: list[Player] = []
    try:
        with cluster(db.url, tmp_path, 2, *args) as (a, b):

            def account(on: ServerProcess) -> Player:
                made_accounts.append(Player(on))
                return made_accounts[-1]

            # Challenged on one process, accepted on the other; the challenger, on the first,
            # hears it.
            ann, bob = account(a).listen(a), account(a).listen(b)
            made = ann.challenge(bob)
            assert bob.hear("challenge_new", made["id"])["challenge"]["challenger"] == ann.name
            r = bob.on(b).act(made["id"], "accept")
            assert r.status_code == 200, r.text
            assert ann.hear("challenge_accepted", made["id"])["game_id"] == r.json()["game_id"]
            r = bob.act(made["id"], "decline")
            refused(r, 409, "challenge_closed", "accepted")

            # Two accepts racing, one on each process: one game.
            for _ in range(3):
                cat, dan = account(a), account(a)
                race = cat.challenge(dan)
                results = accept_on_both(dan, race["id"], (a, b))
                assert [x.status_code for x in results] == [200, 200], [x.text for x in results]
                assert len({x.json()["game_id"] for x in results}) == 1
                games = dan.http.get("/api/account/games")
                assert games.status_code == 200, games.text
                assert len(games.json()) == 1, games.json()
    finally:
        for acc in made_accounts:
            acc.close()
        keys.clean()
        db.drop()
