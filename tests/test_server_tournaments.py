"""Swiss events on the server (issue 41): created, joined, started and played round after
round to the end by real accounts over HTTP (no rematch, one bye a round, the standings'
order); withdrawals, limits and bad input refused in words; and two processes over Redis
whose director is killed in the middle of an event, the other one finishing it with every
round paired once. Real server processes on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.register_assert_rewrite("server_fixtures")

from sqlalchemy import create_engine, text  # noqa: E402

from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    Account,
    PostgresDatabase,
    RedisPrefix,
    ServerProcess,
    cluster,
    eventually,
    fetch,
    running_server,
)

pytest_plugins = ["server_fixtures"]

LEAD = ("--tournament-lead", "1")  # events may start a second after they are made
SOON = 4.0  # seconds from now the test events start (the server asks 1; a busy machine is slow)
ROUND_WAIT = 30.0
CLOCK = {
    "kind": "fischer",
    "initial": 300,
    "increment": 2,
}  # a round: its games created, resigned, recorded and the next one paired


@pytest.fixture(scope="module")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp(f"tournaments-{backend}")
    with running_server(backend, tmp, *SHARED_ARGS, *TRUST_FORWARDED, *LEAD) as p:
        yield p


@pytest.fixture
def people(server: ServerProcess) -> Iterator[Callable[[], Account]]:
    made: list[Account] = []

    def make() -> Account:
        made.append(Account(server))
        return made[-1]

    yield make
    for acc in made:
        acc.close()


def refused(r: httpx.Response, status: int, code: str, words: str = "") -> None:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code, error
    assert words in error["message"], error


def create(acc: Account, **body: Any) -> dict[str, Any]:
    terms = {"name": "Test Swiss", "rounds": 3, "starts_at": time.time() + SOON} | {
        "clock": CLOCK,
        **body,
    }
    r = acc.http.post("/api/tournaments", json=terms)
    assert r.status_code == 201, r.text
    view: dict[str, Any] = r.json()
    return view


def event(acc: Account, tournament_id: str) -> dict[str, Any]:
    found: dict[str, Any] = acc.get(f"/api/tournaments/{tournament_id}")
    return found


def join(acc: Account, tournament_id: str) -> dict[str, Any]:
    r = acc.http.post(f"/api/tournaments/{tournament_id}/join")
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def at_round(acc: Account, tournament_id: str, number: int) -> dict[str, Any]:
    """The event once round ``number`` is paired (or the event is over)."""

    def check() -> dict[str, Any] | None:
        view = event(acc, tournament_id)
        over = view["status"] in ("finished", "cancelled")
        return view if over or (view["round"] >= number and view["rounds_played"]) else None

    found: dict[str, Any] = eventually(check, ROUND_WAIT)
    return found


def resign(player: Account, game_id: str) -> None:
    """The player resigns the game (once it exists: a round's games follow its pairs)."""

    def done() -> bool:
        r = player.http.post(f"/api/games/{game_id}/resign")
        if r.status_code == 404:
            return False
        assert r.status_code == 200, r.text
        return True

    eventually(done)


def play_round(view: dict[str, Any], number: int, by_name: dict[str, Account]) -> None:
    """Every game of the round ends: its first player resigns."""
    (played,) = [r for r in view["rounds_played"] if r["round"] == number]
    for pairing in played["pairings"]:
        if pairing["game_id"] is not None:
            resign(by_name[pairing["first"]], pairing["game_id"])


def play_out(
    acc: Account, tournament_id: str, by_name: dict[str, Account], first: int = 1
) -> dict[str, Any]:
    """Play the rounds from ``first`` on; the event once finished."""
    view = event(acc, tournament_id)
    for number in range(first, view["rounds"] + 1):
        view = at_round(acc, tournament_id, number)
        if view["status"] != "running":
            break
        play_round(view, number, by_name)
    found: dict[str, Any] = eventually(
        lambda: (v := event(acc, tournament_id))["status"] == "finished" and v, ROUND_WAIT
    )
    return found


def check_rounds(view: dict[str, Any], players: int) -> None:
    """No rematch, at most one bye each, one bye a round when the number is odd; every
    result recorded: the second player won (the first resigned), a bye scores 1."""
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for played in view["rounds_played"]:
        seen = []
        round_byes = [p for p in played["pairings"] if p["second"] is None]
        assert len(round_byes) == players % 2, played
        for p in played["pairings"]:
            seen.append(p["first"])
            if p["second"] is None:
                assert p["game_id"] is None and p["result"] == 1.0
                byes.append(p["first"])
                continue
            seen.append(p["second"])
            pair = frozenset((p["first"], p["second"]))
            assert pair not in met, f"a rematch in round {played['round']}: {pair}"
            met.add(pair)
            assert p["result"] == 0.0, p
        assert len(seen) == len(set(seen)), played
    assert len(byes) == len(set(byes)), byes


def check_standings(view: dict[str, Any]) -> None:
    """The table's scores are the results', in the order score, Buchholz, Sonneborn-Berger."""
    scores: dict[str, float] = {p["name"]: 0.0 for p in view["players"]}
    for played in view["rounds_played"]:
        for p in played["pairings"]:
            if p["second"] is None:
                scores[p["first"]] += 1.0
            else:
                scores[p["first"]] += p["result"]
                scores[p["second"]] += 1.0 - p["result"]
    table = view["standings"]
    assert [s["place"] for s in table] == list(range(1, len(scores) + 1))
    assert {s["name"]: s["score"] for s in table} == scores
    keys = [(s["score"], s["buchholz"], s["sonneborn_berger"]) for s in table]
    assert keys == sorted(keys, reverse=True), table


# -- a whole event ------------------------------------------------------------------------------


def test_a_swiss_event_is_played_to_the_end(
    server: ServerProcess, people: Callable[[], Account]
) -> None:
    accounts = [people() for _ in range(5)]
    by_name = {a.name: a for a in accounts}
    made = create(accounts[0], rounds=3)
    assert (made["status"], made["round"], made["entrants"]) == ("open", 0, 0)
    tid = made["id"]
    for acc in accounts:
        join(acc, tid)
    listed = accounts[1].get("/api/tournaments", status="open")["tournaments"]
    assert tid in [t["id"] for t in listed]
    view = play_out(accounts[0], tid, by_name)
    assert (view["round"], view["ended_early"]) == (3, False), view
    assert [r["round"] for r in view["rounds_played"]] == [1, 2, 3]
    check_rounds(view, 5)
    check_standings(view)
    # The games: between the two accounts, the first player in seat 0, over.
    pairing = next(p for p in view["rounds_played"][0]["pairings"] if p["game_id"])
    game = accounts[0].get(f"/api/games/{pairing['game_id']}")
    assert [s["name"] for s in game["seats"]] == [pairing["first"], pairing["second"]]
    assert game["status"] == "finished"
    finished = accounts[1].get("/api/tournaments", status="finished")["tournaments"]
    assert tid in [t["id"] for t in finished]


def test_a_player_who_withdraws_is_not_paired_again(
    server: ServerProcess, people: Callable[[], Account]
) -> None:
    accounts = [people() for _ in range(3)]
    by_name = {a.name: a for a in accounts}
    tid = create(accounts[0], rounds=2)["id"]
    for acc in accounts:
        join(acc, tid)
    view = at_round(accounts[0], tid, 1)
    (game,) = [p for p in view["rounds_played"][0]["pairings"] if p["game_id"]]
    leaver = by_name[game["first"]]
    r = leaver.http.post(f"/api/tournaments/{tid}/withdraw")
    assert r.status_code == 200, r.text
    assert [p["withdrawn"] for p in r.json()["players"] if p["name"] == leaver.name] == [True]
    # Their game goes on.
    r = eventually(lambda: (g := leaver.http.get(f"/api/games/{game['game_id']}")).is_success and g)
    assert r.json()["status"] == "active"
    refused(leaver.http.post(f"/api/tournaments/{tid}/withdraw"), 409, "not_joined")
    play_round(view, 1, by_name)
    view = at_round(accounts[0], tid, 2)
    assert view["round"] == 2, view
    (second,) = view["rounds_played"][1]["pairings"]  # two players left: one game, no bye
    assert leaver.name not in (second["first"], second["second"])
    play_round(view, 2, by_name)
    view = eventually(lambda: (v := event(accounts[0], tid))["status"] == "finished" and v)
    assert not view["ended_early"]


def test_an_event_without_a_round_left_to_pair_ends_early(
    server: ServerProcess, people: Callable[[], Account]
) -> None:
    ann, bob = people(), people()
    tid = create(ann, rounds=3)["id"]
    join(ann, tid)
    join(bob, tid)
    view = play_out(ann, tid, {ann.name: ann, bob.name: bob})
    assert (view["round"], view["ended_early"]) == (1, True), view  # no rematch, ever


def test_an_event_with_one_player_is_cancelled(
    server: ServerProcess, people: Callable[[], Account]
) -> None:
    ann, bob = people(), people()
    tid = create(ann)["id"]
    join(ann, tid)
    eventually(lambda: event(ann, tid)["status"] == "cancelled")
    refused(bob.http.post(f"/api/tournaments/{tid}/join"), 409, "tournament_closed", "cancelled")
    refused(ann.http.post(f"/api/tournaments/{tid}/withdraw"), 409, "tournament_closed")


# -- the rules, in words ------------------------------------------------------------------------


def test_joining_and_withdrawing_before_the_start(
    server: ServerProcess, people: Callable[[], Account]
) -> None:
    ann, bob, robo = people(), people(), people()
    later = time.time() + 3600
    tid = create(ann, starts_at=later)["id"]
    assert join(bob, tid)["entrants"] == 1
    refused(bob.http.post(f"/api/tournaments/{tid}/join"), 409, "already_joined")
    r = bob.http.post(f"/api/tournaments/{tid}/withdraw")
    assert r.status_code == 200 and r.json()["entrants"] == 0, r.text
    refused(bob.http.post(f"/api/tournaments/{tid}/withdraw"), 409, "not_joined")
    assert join(bob, tid)["players"][0]["name"] == bob.name  # back in
    # Bots only where allowed.
    assert robo.http.post("/api/account/bot").status_code == 200
    refused(robo.http.post(f"/api/tournaments/{tid}/join"), 403, "not_allowed", "bots")
    open_to_bots = create(ann, starts_at=later, bots_allowed=True)["id"]
    assert join(robo, open_to_bots)["players"][0]["bot"] is True
    # Unknown events, guests.
    refused(bob.http.post("/api/tournaments/nope/join"), 404, "tournament_not_found")
    refused(bob.http.get("/api/tournaments/nope"), 404, "tournament_not_found")
    guest = fetch("POST", f"{server.url}/api/tournaments/{tid}/join", timeout=10)
    assert guest.status_code == 401, guest.text
    assert fetch("GET", f"{server.url}/api/tournaments/{tid}", timeout=10).status_code == 200


def test_bad_terms_and_too_many_events_are_refused(
    server: ServerProcess, people: Callable[[], Account]
) -> None:
    ann = people()
    now = time.time()

    def post(**body: Any) -> httpx.Response:
        terms = {"name": "Swiss", "rounds": 3, "starts_at": now + 600, "clock": CLOCK, **body}
        return ann.http.post("/api/tournaments", json=terms)

    refused(post(rounds=0), 422, "invalid_request", "rounds")
    refused(post(rounds=16), 422, "invalid_request", "rounds")
    refused(post(name=""), 422, "invalid_request", "name")
    refused(post(name="x" * 61), 422, "invalid_request", "name")
    refused(post(name="   "), 422, "invalid_request", "name")
    refused(post(starts_at=now - 5), 422, "invalid_request", "7 days")
    refused(post(starts_at=now + 8 * 86400), 422, "invalid_request", "7 days")
    refused(post(clock={"kind": "fischer"}), 422, "invalid_request", "initial")
    refused(post(clock=None), 422, "invalid_request", "clock")
    refused(post(rules={"edition": "newest"}), 422, "invalid_request", "edition")
    refused(post(kind="knockout"), 422, "invalid_request", "kind")
    refused(post(kind="arena"), 422, "invalid_request", "minutes")
    refused(post(minutes=30), 422, "invalid_request", "rounds")
    refused(post(kind="arena", rounds=None, minutes=0), 422, "invalid_request", "minutes")
    refused(post(entry="friends"), 422, "invalid_request", "entry")
    guest = fetch(
        "POST",
        f"{server.url}/api/tournaments",
        json={"name": "x", "rounds": 1, "starts_at": now + 60},
    )
    assert guest.status_code == 401, guest.text
    for _ in range(3):
        assert post().status_code == 201
    refused(post(), 429, "too_many_tournaments", "3")
    refused(ann.http.get("/api/tournaments", params={"status": "nope"}), 422, "invalid_request")


# -- two processes: the director dies -----------------------------------------------------------


def test_another_process_takes_over_a_killed_director(tmp_path: Path) -> None:
    db, keys = PostgresDatabase(), RedisPrefix()
    args = ("--ai-workers", "1", *TRUST_FORWARDED, *LEAD, *keys.args())
    accounts: list[Account] = []
    try:
        with cluster(db.url, tmp_path, 2, *args) as (a, b):
            accounts += [Account(a) for _ in range(4)]
            by_name = {acc.name: acc for acc in accounts}
            tid = create(accounts[0], rounds=3)["id"]
            for acc in accounts:
                join(acc, tid)
            view = at_round(accounts[0], tid, 1)
            holder = eventually(lambda: keys.get("tlease", tid))
            nodes = {p.get("/healthz").json()["node"]: p for p in (a, b)}
            director = nodes[holder]
            survivor = b if director is a else a
            for acc in accounts:
                acc.on(survivor)
            play_round(view, 1, by_name)
            director.kill()  # while it records round 1, or pairs round 2
            view = play_out(accounts[0], tid, by_name, first=2)
            assert keys.get("tlease", tid) in (None, survivor.get("/healthz").json()["node"])
    finally:
        for acc in accounts:
            acc.close()
        keys.clean()
    try:
        assert (view["round"], view["ended_early"]) == (3, False), view
        check_rounds(view, 4)
        check_standings(view)
        # Every round paired once: two rows and two games a round, and no other game.
        engine = create_engine(db.url)
        with engine.connect() as conn:
            rows = conn.execute(
                text("SELECT round, game_id FROM tournament_games WHERE tournament_id = :t"),
                {"t": tid},
            ).all()
            ids = [acc.id for acc in accounts]
            made = conn.execute(
                text("SELECT id FROM games WHERE seat0_user = ANY(:ids) OR seat1_user = ANY(:ids)"),
                {"ids": ids},
            ).scalars()
            found = set(made)
        engine.dispose()
        assert sorted(r.round for r in rows) == [1, 1, 2, 2, 3, 3]
        assert found == {r.game_id for r in rows}
    finally:
        db.drop()


# -- the crash window, in one process -----------------------------------------------------------


def test_a_round_written_without_its_games_gets_them_once(tmp_path: Path) -> None:
    """A director that died between storing a round's pairs and creating its games: the next
    one creates the missing games (with the stored ids), never pairs the round again, and a
    second pairing of the same round is refused by the guard."""
    import asyncio
    import datetime as dt
    from types import SimpleNamespace

    from sqlalchemy import insert, select

    from patchwork.server.notifications.service import Notifications
    from patchwork.server.storage.models import games, users, utcnow
    from patchwork.server.storage.store import InsertGame, Store
    from patchwork.server.storage.tournament_tables import (
        tournament_entrants,
        tournament_games,
        tournaments,
    )
    from patchwork.server.tournaments import store
    from patchwork.server.tournaments.director import Director
    from patchwork.server.tournaments.store import PairingRow

    async def scenario() -> None:
        db = Store(f"sqlite:///{tmp_path / 't.db'}")
        await db.call(db.migrate)
        now = utcnow()
        ids = ["u1", "u2", "u3"]
        made: list[str] = []

        async def create_paired(data: Any, claims: list[Any]) -> None:
            made.append(data.id)
            await db.commit([InsertGame(data)])

        with db.engine.begin() as conn:
            for uid in ids:
                conn.execute(
                    insert(users),
                    {"id": uid, "name": uid, "name_key": uid, "password_hash": "x"}
                    | {"created_at": now, "rating": 1500.0, "rd": 350.0}
                    | {"volatility": 0.06, "people_games": 0},
                )
            conn.execute(
                insert(tournaments),
                {"id": "t1", "name": "T", "kind": "swiss", "created_by": "u1"}
                | {"created_at": now, "starts_at": now - dt.timedelta(seconds=1), "rounds": 2}
                | {"edition": "revised", "rotation": True, "flip": True, "clock": None}
                | {"rated": False, "bots_allowed": False, "status": "running", "round": 0},
            )
            for uid in ids:
                conn.execute(
                    insert(tournament_entrants),
                    {"tournament_id": "t1", "user_id": uid, "joined_at": now},
                )
        # The dead director's round 1: its rows, no game yet.
        round1 = [PairingRow(1, "u1", "u2", "g-round-1", None), PairingRow(1, "u3", None, None, 1)]
        nothing = lambda conn: None  # noqa: E731
        assert await db.call(store.write_round, db.engine, "t1", 1, round1, nothing)
        assert not await db.call(store.write_round, db.engine, "t1", 1, round1, nothing)
        svc = SimpleNamespace(store=db, create_paired=create_paired)
        notes = Notifications(db, SimpleNamespace(deliver=lambda *a: None))  # type: ignore[arg-type]
        await Director(svc, None, notes).direct("t1")  # type: ignore[arg-type]
        await Director(svc, None, notes).direct("t1")  # type: ignore[arg-type]
        assert made == ["g-round-1"]
        with db.engine.connect() as conn:
            assert conn.execute(select(games.c.id)).scalars().all() == ["g-round-1"]
            seats = conn.execute(select(games.c.seat0_user, games.c.seat1_user)).one()
            assert tuple(seats) == ("u1", "u2")
            rows = conn.execute(select(tournament_games.c.round)).scalars().all()
            assert sorted(rows) == [1, 1]  # not paired again
        db.close()

    asyncio.run(scenario())
