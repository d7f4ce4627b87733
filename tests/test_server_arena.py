"""Arenas and the no-show rule on the server (issue 41; docs/server.md "Tournaments").

An arena of bots through its whole (one-minute) duration with a short Fischer clock: bot
accounts, each a thread playing random legal moves over the API, are paired again as soon as
they finish a game; one pauses and comes back, one joins while it runs, one never shows up
and loses its game when --tournament-no-show passes. Then a Swiss event's no-show, and the
tournament notifications. On SQLite (the arena) and on both databases (the no-show)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from patchwork.server.tournaments.arena import game_points  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    Account,
    eventually,
    fetch,
    legal_moves,
    running_server,
)

pytest_plugins = ["server_fixtures"]

ARGS = ("--tournament-lead", "1", "--tournament-no-show", "3")
CLOCK = {"kind": "fischer", "initial": 60, "increment": 1}
ARENA_END = 100.0  # an arena of one minute is over, its last games played out
SOON = 4.0  # seconds ahead an event starts: the server asks 1, a busy machine may take 2 to answer


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    tmp = tmp_path_factory.mktemp("arena")
    with running_server("sqlite", tmp, *SHARED_ARGS, *TRUST_FORWARDED, *ARGS) as p:
        yield p


def create(acc: Account, **terms: Any) -> dict[str, Any]:
    body = {"name": "Blitz", "starts_at": time.time() + SOON, "clock": CLOCK, **terms}
    r = acc.http.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    found: dict[str, Any] = r.json()
    return found


def post(acc: Account, tournament_id: str, action: str) -> dict[str, Any]:
    r = acc.http.post(f"/api/tournaments/{tournament_id}/{action}")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def view(acc: Account, tournament_id: str) -> dict[str, Any]:
    found: dict[str, Any] = acc.get(f"/api/tournaments/{tournament_id}")
    return found


def games_of(event: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [
        p
        for r in event["rounds_played"]
        for p in r["pairings"]
        if name in (p["first"], p["second"])
    ]


class Bot(threading.Thread):
    """An account that plays its tournament games with random legal moves until told to stop."""

    def __init__(self, acc: Account, tournament_id: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.acc = acc
        self.tournament_id = tournament_id
        self.random = random.Random(seed)
        self.stop = threading.Event()
        self.moves = 0
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                if not self._play_once():
                    time.sleep(0.2)
        except BaseException as e:  # reported by the test
            self.failure = e

    def _play_once(self) -> bool:
        event = view(self.acc, self.tournament_id)
        mine = [p for p in games_of(event, self.acc.name) if p["result"] is None]
        assert len(mine) <= 1, mine  # never in two games at once
        if not mine or mine[0]["game_id"] is None:
            return False
        game_id = mine[0]["game_id"]
        seat = 0 if mine[0]["first"] == self.acc.name else 1
        while not self.stop.is_set():
            r = self.acc.http.get(f"/api/games/{game_id}")
            if r.status_code == 404:
                return False  # made in a moment
            game = r.json()
            if game["status"] != "active":
                return True
            if game["to_move"] != seat:
                time.sleep(0.1)  # (a look ten times a second: the arena is not a load test)
                continue
            time.sleep(0.15)  # a moment's thought: fewer, slower games test the same
            move = self.random.choice(legal_moves(game))
            body = {"move": move, "version": game["version"]}
            answer = self.acc.http.post(f"/api/games/{game_id}/moves", json=body)
            assert answer.status_code in (200, 409), answer.text  # 409: the game just ended
            self.moves += 1
        return True


def test_an_arena_of_bots_runs_its_whole_duration(sqlite_server: Any) -> None:
    host = Account(sqlite_server)
    early = [Account(sqlite_server) for _ in range(4)]
    absent = Account(sqlite_server)
    late = Account(sqlite_server)
    made = create(host, kind="arena", minutes=1, bots_allowed=True)
    tid = made["id"]
    assert (made["kind"], made["minutes"], made["rounds"]) == ("arena", 1, 0)
    assert made["ends_at"] == pytest.approx(made["starts_at"] + 60, abs=0.01)
    for acc in (*early, absent):
        post(acc, tid, "join")
    bots = [Bot(acc, tid, seed) for seed, acc in enumerate(early)]
    for bot in bots:
        bot.start()
    try:
        event = eventually(lambda: (v := view(host, tid))["status"] == "running" and v, 15)
        # The absent player's first game is lost when its 3 s pass, and it is paused.
        lost = eventually(
            lambda: [
                p
                for p in games_of(view(host, tid), absent.name)
                if p["result"] is not None and p["game_id"] is not None
            ],
            20,
        )
        first = lost[0]
        assert first["result"] == (0.0 if first["first"] == absent.name else 1.0)
        game = host.get(f"/api/games/{first['game_id']}")
        assert game["result"]["termination"] == "abandoned"
        event = view(host, tid)
        (me,) = [p for p in event["players"] if p["name"] == absent.name]
        assert me["paused"] and not me["withdrawn"]
        notes = absent.get("/api/notifications")["notifications"]
        told = [n["about"] for n in notes if n["about"]["kind"] == "tournament"]
        assert told and told[-1]["game_id"] == first["game_id"]
        assert told[-1]["arena"] is True
        assert told[-1]["tournament"] == "Blitz" and told[-1]["opponent"] in {a.name for a in early}
        # A latecomer joins the running arena and plays.
        post(late, tid, "join")
        bots.append(Bot(late, tid, 99))
        bots[-1].start()
        # One takes a break: once its game is over it is not paired until it comes back.
        pauser = bots[0]
        post(pauser.acc, tid, "pause")
        eventually(
            lambda: all(
                p["result"] is not None for p in games_of(view(host, tid), pauser.acc.name)
            ),
            30,
        )
        count = len(games_of(view(host, tid), pauser.acc.name))
        time.sleep(3)
        assert len(games_of(view(host, tid), pauser.acc.name)) == count
        post(pauser.acc, tid, "resume")
        eventually(lambda: len(games_of(view(host, tid), pauser.acc.name)) > count, 20)
        # After its minute the arena pairs nobody; its last games finish, then it does.
        event = eventually(lambda: (v := view(host, tid))["status"] == "finished" and v, ARENA_END)
    finally:
        for bot in bots:
            bot.stop.set()
        for bot in bots:
            bot.join(10)
    for bot in bots:
        assert bot.failure is None, bot.failure
    assert event["finished_at"] >= event["ends_at"]
    assert event["round"] == len(event["rounds_played"]) >= 6
    assert all(p["result"] is not None for r in event["rounds_played"] for p in r["pairings"])
    assert all(p["second"] is not None for r in event["rounds_played"] for p in r["pairings"])
    table = event["arena_standings"]
    assert [row["place"] for row in table] == list(range(1, len(table) + 1))
    for row in table:  # the points are the streak rule's, from the games in order
        assert row["points"] == sum(game_points(row["results"]))
        assert row["games"] == len(games_of(event, row["name"]))
    points = [(-row["points"], row["games"]) for row in table]
    assert points == sorted(points)
    assert sum(bot.moves for bot in bots) > 0
    assert all(len(games_of(event, bot.acc.name)) >= 2 for bot in bots[1:4])
    assert event["standings"] == []
    for acc in (host, *early, absent, late):
        acc.close()


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    tmp = tmp_path_factory.mktemp(f"noshow-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED, *ARGS) as p:
        yield p


def test_a_swiss_no_show_loses_and_is_withdrawn(server: Any) -> None:
    """Three players: the one who never moves loses their game by no-show and is not paired
    again; the other two play on; everyone paired hears of it (the bye too)."""
    ann, bob, cy = (Account(server) for _ in range(3))
    tid = create(ann, rounds=2)["id"]
    for acc in (ann, bob, cy):
        post(acc, tid, "join")
    by_name = {a.name: a for a in (ann, bob, cy)}
    event = eventually(lambda: (v := view(ann, tid))["round"] == 1 and v, 20)
    (round1,) = event["rounds_played"]
    games = [p for p in round1["pairings"] if p["game_id"] is not None]
    byes = [p for p in round1["pairings"] if p["game_id"] is None]
    assert len(games) == 1 and len(byes) == 1
    played, bye = games[0], byes[0]
    # The first player shows up and plays one move; the second never does.
    first = by_name[played["first"]]
    url = f"/api/games/{played['game_id']}"
    game = eventually(lambda: (r := first.http.get(url)).status_code == 200 and r.json(), 10)
    r = first.http.post(
        f"/api/games/{played['game_id']}/moves",
        json={"move": legal_moves(game)[0], "version": game["version"]},
    )
    assert r.status_code == 200, r.text
    absent = played["second"]
    game = eventually(
        lambda: (g := ann.get(f"/api/games/{played['game_id']}"))["status"] == "finished" and g,
        20,
    )
    assert game["result"]["termination"] == "abandoned" and game["result"]["winner"] == 0
    event = eventually(lambda: (v := view(ann, tid))["round"] == 2 and v, 20)
    (gone,) = [p for p in event["players"] if p["name"] == absent]
    assert gone["withdrawn"]
    round2 = event["rounds_played"][1]["pairings"]
    assert all(absent not in (p["first"], p["second"]) for p in round2)
    assert {p["first"] for p in round2} | {p["second"] for p in round2} == {
        played["first"],
        bye["first"],
    }
    # The game knows its event (its page offers the way back); another game does not.
    of = ann.get(f"/api/tournaments/of-game/{played['game_id']}")
    assert of == {"tournament_id": tid, "name": "Blitz", "kind": "swiss", "status": "running"} | {
        "round": 1
    }
    r = ann.http.get("/api/tournaments/of-game/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "tournament_not_found"
    # Everyone paired was told: the bye's player of the bye, the others of their game.
    for name, acc in by_name.items():
        about = [
            n["about"]
            for n in acc.get("/api/notifications")["notifications"]
            if n["about"]["kind"] == "tournament" and n["about"]["round"] == 1
        ]
        assert len(about) == 1, (name, about)
        if name == bye["first"]:
            assert about[0]["game_id"] is None and about[0]["opponent"] is None
        else:
            assert about[0]["game_id"] == played["game_id"]
        assert about[0]["arena"] is False
    for acc in (ann, bob, cy):
        acc.close()


def test_pausing_entry_and_cancelling(server: Any) -> None:
    ann, bob = Account(server), Account(server)
    swiss = create(ann, rounds=1, starts_at=time.time() + 600)["id"]
    post(ann, swiss, "join")
    r = ann.http.post(f"/api/tournaments/{swiss}/pause")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_allowed"
    arena = create(ann, kind="arena", minutes=5, starts_at=time.time() + 600)["id"]
    r = bob.http.post(f"/api/tournaments/{arena}/pause")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_joined"
    post(bob, arena, "join")
    assert [p["paused"] for p in post(bob, arena, "pause")["players"]] == [True]
    assert [p["paused"] for p in post(bob, arena, "resume")["players"]] == [False]
    r = fetch("POST", f"{server.url}/api/tournaments/{arena}/pause", timeout=10)
    assert r.status_code == 401
    # An event for established ratings refuses a new account.
    rated = create(ann, rounds=1, starts_at=time.time() + 600, entry="rated")["id"]
    r = bob.http.post(f"/api/tournaments/{rated}/join")
    assert r.status_code == 403 and "established" in r.json()["error"]["message"]
    # Its creator, and nobody else, calls off an event before its start.
    r = bob.http.post(f"/api/tournaments/{rated}/cancel")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_allowed"
    assert post(ann, rated, "cancel")["status"] == "cancelled"
    r = ann.http.post(f"/api/tournaments/{rated}/cancel")
    assert r.status_code == 409 and r.json()["error"]["code"] == "tournament_closed"
    r = bob.http.post(f"/api/tournaments/{rated}/join")
    assert r.status_code == 409 and "cancelled" in r.json()["error"]["message"]
    ann.close()
    bob.close()
