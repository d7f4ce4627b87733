"""The game server against a real uvicorn process and a real database, SQLite and PostgreSQL:
whole games over websockets (against the AI, between two clients, watched), reconnection,
clocks, the AI's help, records, and a SIGKILL in the middle of games."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

from websockets.exceptions import ConnectionClosed  # noqa: E402

import patchwork as pw  # noqa: E402
from patchwork import i18n  # noqa: E402
from patchwork.tui.app import build_parser, setup  # noqa: E402
from patchwork.tui.seats import close_agent  # noqa: E402
from server_fixtures import VIEWS, Client, ServerProcess, fetch, http_client, legal_moves  # noqa: E402

pytest_plugins = ["server_fixtures"]


def play_against_ai(c: Client, seat: int, rng: random.Random, plies: int = 500) -> dict[str, Any]:
    """Play random legal moves for ``seat`` until the game ends (or ``plies`` of ours)."""
    for _ in range(plies):
        assert c.game is not None
        g = c.game
        if g["status"] == "finished":
            return g
        if g["to_move"] != seat:
            c.recv_until(
                lambda m: (
                    m["type"] in VIEWS
                    and (m["game"]["status"] == "finished" or m["game"]["to_move"] == seat)
                )
            )
            continue
        reply = c.move(rng.choice(legal_moves(g)))
        assert reply["type"] == "ack", reply
        c.state_at(reply["version"])
    assert c.game is not None
    return c.game


def play_between(clients: dict[int, Client], rng: random.Random, plies: int) -> dict[str, Any]:
    """Two seats on their own connections play ``plies`` random legal moves (or to the end)."""
    views = [c.game for c in clients.values() if c.game is not None]
    game = max(views, key=lambda g: g["version"])
    for _ in range(plies):
        if game["status"] == "finished":
            break
        c = clients[game["to_move"]]
        g = c.state_at(game["version"])
        reply = c.move(rng.choice(legal_moves(g)))
        assert reply["type"] == "ack", reply
        game = c.state_at(reply["version"])
    return game


def online_game(server: ServerProcess, **options: Any) -> tuple[str, str, str]:
    """An online game with both seats taken: (id, seat 0's token, seat 1's token)."""
    created = server.create(mode="online", name="Ann", **options)
    r = server.post(f"/api/games/{created['game_id']}/join", {"invite": created["invite_code"]})
    assert r.status_code == 200, r.text
    joined = r.json()
    tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
    return created["game_id"], tokens[0], tokens[1]


# -- the server itself ----------------------------------------------------------------------------


def test_health_docs_and_meta(server: ServerProcess) -> None:
    health = server.get("/healthz").json()
    assert health["status"] == "ok" and health["database"] == "ok"
    assert server.get("/docs").status_code == 200
    paths = server.get("/openapi.json").json()["paths"]
    assert "/api/games" in paths and "/api/games/{game_id}/moves" in paths
    meta = server.get("/api/meta").json()
    assert len(meta["patches"]) == len(pw.PATCHES)
    assert meta["patches"][17]["buttons"] == pw.PATCHES[17].buttons


@pytest.mark.both_backends
def test_migrations_match_the_models(backend: str, fresh_db: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from patchwork.server.storage import tournament_tables  # noqa: F401 (its tables)
    from patchwork.server.storage.migrate import current_revision, head_revision, upgrade
    from patchwork.server.storage.models import metadata
    from patchwork.server.storage.store import make_engine

    engine = make_engine(fresh_db)
    try:
        upgrade(engine)
        upgrade(engine)  # a second start finds nothing to do
        assert current_revision(engine) == head_revision()
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        engine.dispose()


@pytest.mark.both_backends
def test_migration_0005_makes_the_look_alike_keys_anew(backend: str, fresh_db: str) -> None:
    import datetime as dt

    from sqlalchemy import insert, select

    from patchwork.server.storage.migrate import upgrade
    from patchwork.server.storage.models import users
    from patchwork.server.storage.store import make_engine

    engine = make_engine(fresh_db)
    t0 = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    # Keys as the old rule made them: "xvvv" then its look-alike "xvw", which the old rule let in.
    old = [("u1", "xvvv", "xwv"), ("u2", "xvw", "xvw"), ("u3", "vwv", "vwv"), ("u4", "Ann", "ann")]
    try:
        upgrade(engine, "0004")
        with engine.begin() as conn:
            for i, (uid, name, key) in enumerate(old):
                conn.execute(
                    insert(users).values(
                        id=uid,
                        name=name,
                        name_key=key,
                        password_hash="x",
                        created_at=t0 + dt.timedelta(minutes=i),
                        rating=1500.0,
                        rd=350.0,
                        volatility=0.06,
                        people_games=0,
                    )
                )
        upgrade(engine)
        with engine.connect() as conn:
            keys = dict(conn.execute(select(users.c.name, users.c.name_key)).all())
    finally:
        engine.dispose()
    # The older of the two look-alikes keeps the key; the younger keeps its old one.
    assert keys == {"xvvv": "xwv", "xvw": "xvw", "vwv": "ww", "Ann": "ann"}


# -- whole games ----------------------------------------------------------------------------------


def test_whole_game_against_the_ai_over_websockets(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1, seed=11, rules={"edition": "original"})
    gid, token = created["game_id"], created["token"]
    assert created["seat"] == 0 and created["game"]["seats"][1]["kind"] == "ai"
    with server.client(gid, token) as c:
        assert c.welcome is not None and c.welcome["seats"] == [0]
        game = play_against_ai(c, 0, random.Random(1))
    assert game["status"] == "finished" and game["result"]["termination"] == "finished"
    assert legal_moves(game) == [] and game["to_move"] is None
    # The record replays through the engine to the same end.
    record = pw.Record.from_json(server.get(f"/api/games/{gid}/record.json").text)
    replayed = record.replay()
    assert [str(m) for m in replayed.moves] == [h["move"] for h in game["history"]]
    assert record.result is not None and record.result["winner"] == replayed.state.winner()
    assert game["result"]["winner"] == replayed.state.winner()
    assert list(replayed.state.scores()) == game["scores"] == game["result"]["scores"]
    assert record.rules == pw.Rules(edition="original")
    text = server.get(f"/api/games/{gid}/record.txt").text
    assert pw.Record.parse(text).moves == record.moves
    replay = server.get(f"/api/games/{gid}/replay").json()
    assert len(replay["frames"]) == len(record.moves) + 1
    assert replay["frames"][-1]["position"] == game["position"]
    events = server.get(f"/api/games/{gid}/events?since=0").json()
    assert events["events"][0]["kind"] == "created" and events["complete"]
    assert sum(e["kind"] == "move" for e in events["events"]) == len(record.moves)


def test_online_game_between_two_clients_with_a_spectator(server: ServerProcess) -> None:
    created = server.create(
        mode="online", name="Ann", seat=1, clock={"kind": "correspondence", "days": 3}
    )
    gid = created["game_id"]
    assert created["game"]["status"] == "waiting" and created["seat"] == 1
    assert created["invite_url"].endswith(f"#invite={created['invite_code']}")
    with server.client(gid, created["token"]) as ann:
        # Nobody moves before the second player is in.
        assert ann.move("A")["code"] == "game_not_started"
        bad = server.post(f"/api/games/{gid}/join", {"invite": "not-it"})
        assert bad.status_code == 403 and bad.json()["error"]["code"] == "invite_invalid"
        r = server.post(f"/api/games/{gid}/join", {"invite": created["invite_code"], "name": "Bob"})
        assert r.status_code == 200
        bob_token = r.json()["token"]
        again = server.post(f"/api/games/{gid}/join", {"invite": created["invite_code"]})
        assert again.status_code == 409 and again.json()["error"]["code"] == "seat_taken"
        ann.state_at(2)
        assert ann.game is not None and ann.game["status"] == "active"
        assert ann.game["seats"][0]["name"] == "Bob"
        with server.client(gid, bob_token) as bob, server.client(gid) as watcher:
            assert watcher.welcome is not None and watcher.welcome["role"] == "spectator"
            assert (
                watcher.request({"type": "move", "move": "A", "version": 2})["code"] == "read_only"
            )
            assert watcher.request({"type": "resign"})["code"] == "read_only"
            game = play_between({0: bob, 1: ann}, random.Random(2), 500)
            assert game["status"] == "finished"
            seen = watcher.state_at(game["version"])
            assert seen["history"] == game["history"]
            # Every state the game went through reached the spectator, in order.
            versions = [m["version"] for m in watcher.messages if m["type"] in VIEWS]
            assert versions == sorted(versions) and versions[-1] == game["version"]
    clock = game["clock"]
    assert clock["kind"] == "correspondence" and clock["running"] is None
    record = pw.Record.from_json(server.get(f"/api/games/{gid}/record.json").text)
    assert record.players == ("Bob", "Ann")
    assert len(record.moves) == len(game["history"])


def test_local_game_one_token_plays_both_seats(server: ServerProcess) -> None:
    created = server.create(mode="local", name="Ann", opponent_name="Bob", first_player=1)
    assert created["seat"] is None
    gid, token = created["game_id"], created["token"]
    with server.client(gid, token) as c:
        assert c.welcome is not None and c.welcome["seats"] == [0, 1]
        game = play_between({0: c, 1: c}, random.Random(3), 6)
        assert game["history"][0]["seat"] == 1
        reply = c.request({"type": "undo"})
        assert reply["type"] == "ack"
        after = c.state_at(reply["version"])
        assert after["history"] == game["history"][:-1]
        assert after["position"] == game_position_after(game["history"][:-1], created["game"])


def test_a_downloaded_record_resumes_against_the_same_opponent(
    server: ServerProcess, tmp_path: Path
) -> None:
    # The record names what played each seat, and the reader's language: the terminal app's
    # --load then plays on against the same level, in that language.
    created = server.create(mode="ai", level=3, seat=1, first_player=1, name="Ann")
    gid = created["game_id"]
    r = fetch("GET", f"{server.url}/api/games/{gid}/record.json", headers={"accept-language": "fi"})
    record = pw.Record.from_json(r.text)
    assert record.seats == ("level3", "human") and record.language == "fi"
    assert record.players[1] == "Ann"
    assert pw.Record.parse(server.get(f"/api/games/{gid}/record.txt?lang=ru").text).seats == (
        "level3",
        "human",
    )
    path = tmp_path / "downloaded.json"
    path.write_text(r.text, encoding="utf-8")
    try:
        session, options = setup(build_parser().parse_args(["--load", str(path)]))
        assert [s.kind for s in session.seats] == ["level3", "human"]
        assert options.human_seat == 1 and i18n.base_language(i18n.language()) == "fi"
        for seat in session.seats:
            close_agent(seat.agent)
    finally:
        i18n.set_language("en")
    local = server.create(mode="local", name="Ann", opponent_name="Bob")
    both = pw.Record.from_json(server.get(f"/api/games/{local['game_id']}/record.json").text)
    assert both.seats == ("human", "human") and both.language == "en"


def test_people_who_give_no_name_are_named_by_seat(server: ServerProcess) -> None:
    # "Player 1" and "Player 2" by seat, as the terminal app names them, whoever created
    # the game; the computer's seat by its level.
    created = server.create(mode="ai", level=2, seat=1)
    assert [s["name"] for s in created["game"]["seats"]] == ["AI level 2", "Player 2"]
    replay = server.get(f"/api/games/{created['game_id']}/replay").json()
    assert replay["seats"] == created["game"]["seats"]  # the replay names seats as the game does
    online = server.create(mode="online", seat=1)
    r = server.post(f"/api/games/{online['game_id']}/join", {"invite": online["invite_code"]})
    assert r.status_code == 200, r.text
    game = server.get(f"/api/games/{online['game_id']}").json()
    assert [s["name"] for s in game["seats"]] == ["Player 1", "Player 2"]
    local = server.create(mode="local", name="Ann")
    assert [s["name"] for s in local["game"]["seats"]] == ["Ann", "Player 2"]


def without_time(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "updated_at"}


def game_position_after(history: list[dict[str, Any]], start: dict[str, Any]) -> str:
    state = pw.State.from_text(start["position"])
    for h in history:
        state = state.apply(pw.Move.parse(h["move"], state))
    return state.to_text()


# -- reconnection ---------------------------------------------------------------------------------


def test_reconnect_gets_what_it_missed(server: ServerProcess) -> None:
    gid, t0, t1 = online_game(server)
    rng = random.Random(4)
    a = server.client(gid, t0)
    b = server.client(gid, t1)
    # Play until it is seat 1's turn, then seat 0 drops.
    game = play_between({0: a, 1: b}, rng, 2)
    while game["to_move"] != 1:
        game = play_between({0: a, 1: b}, rng, 1)
    last_seen = a.state_at(game["version"])["version"]
    a.close()
    gone = b.recv_until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"])
    assert gone["seats"][0]["claim_from"] is not None
    missed = []
    while game["to_move"] == 1 and game["status"] == "active":
        reply = b.move(rng.choice(legal_moves(game)))
        assert reply["type"] == "ack"
        game = b.state_at(reply["version"])
        missed.append(game["history"][-1]["move"])
    with server.client(gid, t0, last_version=last_seen) as back:
        sync = back.first
        assert sync is not None and sync["type"] == "sync" and sync["since"] == last_seen
        assert [e["move"] for e in sync["events"]] == missed
        assert [e["version"] for e in sync["events"]] == list(
            range(last_seen + 1, game["version"] + 1)
        )
        # The view built from updates is the whole view, but for the time of the last change.
        assert without_time(sync["game"]) == without_time(b.state_at(game["version"]))
        b.recv_until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"])
        if game["status"] == "active":
            reply = back.move(rng.choice(legal_moves(sync["game"])))
            assert reply["type"] == "ack"
            b.state_at(reply["version"])
    # Without a version, or with one the server never had, the full state comes.
    with server.client(gid, t1) as fresh:
        assert fresh.first is not None and fresh.first["type"] == "state"
    with server.client(gid, t1, last_version=10**6) as odd:
        assert odd.first is not None and odd.first["type"] == "state"
    b.close()


def test_dropped_player_can_be_claimed_after_the_grace_period(server: ServerProcess) -> None:
    gid, t0, t1 = online_game(server)
    a = server.client(gid, t0)
    with server.client(gid, t1) as b:
        b.recv_until(lambda m: m["type"] == "presence" and m["seats"][0]["connected"])
        assert b.request({"type": "claim"})["code"] == "not_allowed"  # Ann is here
        a.close()
        b.recv_until(lambda m: m["type"] == "presence" and not m["seats"][0]["connected"])
        early = b.request({"type": "claim"})
        assert early["code"] == "claim_too_early" and early["retry_after"] > 0
        # The server announces when the grace period is over.
        b.recv_until(lambda m: m["type"] == "presence" and m["seats"][0]["claimable"])
        reply = b.request({"type": "claim"})
        assert reply["type"] == "ack"
        game = b.state_at(reply["version"])
    assert game["result"] == {"termination": "abandoned", "winner": 1, "scores": game["scores"]}
    record = pw.Record.from_json(server.get(f"/api/games/{gid}/record.json").text)
    assert record.result is not None and record.result["termination"] == "abandoned"


# -- clocks, AI help, rematches -------------------------------------------------------------------


def test_fischer_clock_runs_out(server: ServerProcess) -> None:
    created = server.create(
        mode="ai", level=1, clock={"kind": "fischer", "initial": 1, "increment": 2}
    )
    clock = created["game"]["clock"]
    assert clock["remaining_ms"] == [1000, 1000] and clock["running"] == 0
    assert clock["flag_at"] == pytest.approx(clock["turn_started"] + 1.0)
    with server.client(created["game_id"], created["token"]) as c:
        c.wait_game(lambda g: g["status"] == "finished")
        assert c.game is not None
        assert c.game["result"]["termination"] == "time" and c.game["result"]["winner"] == 1
        assert c.game["clock"]["remaining_ms"][0] == 0 and c.game["clock"]["running"] is None
        assert c.move("A")["code"] == "game_over"


def test_undo_hint_analysis_resign_and_rematch_against_the_ai(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=2, seed=5)
    gid, token = created["game_id"], created["token"]
    with server.client(gid, token) as c:
        assert c.request({"type": "undo"})["code"] == "nothing_to_undo"
        hint = c.request({"type": "hint"})
        assert hint["type"] == "hint" and hint["move"] in legal_moves(c.state_at(1))
        assert c.move(hint["move"])["type"] == "ack"
        assert len(c.wait_game(lambda g: g["to_move"] == 0)["history"]) >= 2
        analysis = c.request({"type": "analysis", "ply": 1})
        assert analysis["type"] == "analysis" and analysis["ply"] == 1
        assert analysis["candidates"] and 0 <= analysis["win_probability"] <= 1
        assert c.request({"type": "analysis", "ply": 999})["code"] == "not_found"
        reply = c.request({"type": "undo"})
        assert reply["type"] == "ack"
        undone = c.state_at(reply["version"])
        assert undone["history"] == []
        assert undone["position"] == created["game"]["position"]
        reply = c.request({"type": "resign"})
        game = c.state_at(reply["version"])
        assert game["result"]["termination"] == "resigned" and game["result"]["winner"] == 1
        assert c.request({"type": "hint"})["code"] == "game_over"
        rematch = c.request({"type": "rematch"})
        assert rematch["type"] == "ack" and rematch["game_id"]
        assert c.state_at(rematch["version"])["rematch"]["game_id"] == rematch["game_id"]
    # The same token plays the new game, in which the AI moves first.
    with server.client(rematch["game_id"], token) as c2:
        assert c2.welcome is not None and c2.welcome["seats"] == [0]
        new = c2.wait_game(lambda g: g["to_move"] == 0)
        assert new["first_player"] == 1
        assert new["history"][0]["seat"] == 1 and new["parent_id"] == gid


def test_a_thinking_ai_blocks_no_other_game(server: ServerProcess) -> None:
    ai = server.create(mode="ai", level=13)  # thinks five seconds a move
    other = server.create(mode="local")
    with (
        server.client(ai["game_id"], ai["token"]) as thinking,
        server.client(other["game_id"], other["token"]) as c,
    ):
        assert thinking.move("A")["type"] == "ack"
        game = play_between({0: c, 1: c}, random.Random(8), 3)
        done_at = c.messages[-2]["server_time"]  # the last state before its ack
        assert game["version"] == 4
        # (Five seconds of thought, on two processes that a loaded machine may start slowly.)
        answer = thinking.recv_until(lambda m: m["type"] in VIEWS and m["version"] == 3, 60)
        # The other game was served while the AI thought, not after it.
        assert answer["server_time"] > done_at


def test_the_top_level_thinks_on_the_persons_time(server: ServerProcess) -> None:
    before = server.get("/healthz").json()
    ai = server.create(mode="ai", level=13)
    with server.client(ai["game_id"], ai["token"]) as c:
        game = ai["game"]
        # The person advances past the AI, which answers, then ponders on the person's time.
        # A request from an earlier test's game still running in this module's server stops a
        # ponder (as any request does), so on a loaded machine a later turn may be the first
        # answered from one: up to four turns.
        for turn in range(5):
            if turn:
                time.sleep(1.0)  # the person's time (a loaded machine may start pondering late)
            v = game["version"]
            assert c.move("A", version=v)["type"] == "ack"
            game = c.wait_game(lambda g, v=v: g["to_move"] == 0 and g["version"] > v + 1, 60)
            after = server.get("/healthz").json()
            if after["ai_ponder_hits"] > before["ai_ponder_hits"] or game["status"] != "active":
                break
    # It pondered after an answer, and answered the person's next move from it.
    assert after["ai_ponders"] > before["ai_ponders"]
    assert after["ai_ponder_hits"] > before["ai_ponder_hits"]


def test_online_rematch_needs_both_players(server: ServerProcess) -> None:
    gid, t0, t1 = online_game(server)
    assert (
        server.post(f"/api/games/{gid}/rematch", token=t0).json()["error"]["code"]
        == "game_not_over"
    )
    assert server.post(f"/api/games/{gid}/resign", token=t1).status_code == 200
    offer = server.post(f"/api/games/{gid}/rematch", {"action": "offer"}, token=t0).json()
    assert offer["game_id"] is None and offer["offered_by"] == 0
    decline = server.post(f"/api/games/{gid}/rematch", {"action": "decline"}, token=t1).json()
    assert decline["offered_by"] is None
    nothing = server.post(f"/api/games/{gid}/rematch", {"action": "accept"}, token=t1)
    assert nothing.json()["error"]["code"] == "no_rematch_offer"
    server.post(f"/api/games/{gid}/rematch", {"action": "offer"}, token=t1)
    accepted = server.post(f"/api/games/{gid}/rematch", {"action": "accept"}, token=t0).json()
    new_id = accepted["game_id"]
    assert new_id and accepted["game"]["rematch"]["game_id"] == new_id
    new = server.game(new_id)
    assert new["status"] == "active" and new["first_player"] == 1
    first = server.post(f"/api/games/{new_id}/moves", {"move": "A", "version": 1}, token=t1)
    assert first.status_code == 200 and first.json()["version"] == 2


def test_http_play_and_polling(server: ServerProcess) -> None:
    created = server.create(mode="local")
    gid, token = created["game_id"], created["token"]
    moves: list[str] = []
    version = 1
    for _ in range(3):
        game = server.game(gid)
        move = legal_moves(game)[len(moves) % len(legal_moves(game))]
        r = server.post(f"/api/games/{gid}/moves", {"move": move, "version": version}, token=token)
        assert r.status_code == 200, r.text
        version = r.json()["version"]
        moves.append(r.json()["game"]["history"][-1]["move"])
    polled = server.get(f"/api/games/{gid}/events?since=2").json()
    assert [e["move"] for e in polled["events"]] == moves[1:]
    assert server.post(f"/api/games/{gid}/resign", token=token).status_code == 200
    listed = server.get("/api/games?limit=200").json()
    assert any(g["id"] == gid and g["result"]["termination"] == "resigned" for g in listed)


# -- concurrency ----------------------------------------------------------------------------------


@pytest.mark.both_backends
def test_two_clicks_never_make_two_moves(server: ServerProcess) -> None:
    from concurrent.futures import ThreadPoolExecutor

    created = server.create(mode="local")
    gid, token = created["game_id"], created["token"]

    def post(_: int) -> int:
        return server.post(
            f"/api/games/{gid}/moves", {"move": "A", "version": 1}, token=token
        ).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = sorted(pool.map(post, range(8)))
    assert codes == [200] + [409] * 7
    assert server.game(gid)["version"] == 2
    # The same over two websockets of one seat, sent back to back.
    with server.client(gid, token) as one, server.client(gid, token) as two:
        for c in (one, two):
            c.send({"type": "move", "move": "A", "version": 2, "id": "x"})
        replies = [c.recv_until(lambda m: m.get("ref") == "x") for c in (one, two)]
    kinds = sorted(r["type"] if r["type"] == "ack" else r["code"] for r in replies)
    assert kinds == ["ack", "stale_version"]
    game = server.game(gid)
    assert game["version"] == 3 and len(game["history"]) == 2


# -- bad input ------------------------------------------------------------------------------------


def test_bad_websocket_messages_get_errors_and_change_nothing(server: ServerProcess) -> None:
    gid, t0, t1 = online_game(server)
    before = server.game(gid)
    with server.client(gid, t0) as c, server.client(gid, t1) as other:
        c.send("{not json")
        c.error("bad_json")
        c.send("[1, 2]")
        c.error("invalid_message")
        c.send({"type": "teleport", "id": 7})
        assert c.error("invalid_message")["ref"] == 7
        c.send({"type": "move", "id": "m"})
        assert "version" in c.error("invalid_message")["message"]
        c.send(b"\x00\x01binary")
        c.error("invalid_message")
        c.send({"type": "hello"})
        c.error("invalid_message")
        c.send("x" * 10_000)
        c.error("too_large")
        assert c.move("banana")["code"] == "invalid_move"
        assert c.move("99r0@a1")["code"] == "invalid_move"
        assert c.move("S@e5")["code"] == "illegal_move"
        assert c.move("A", version=before["version"] - 1)["code"] == "stale_version"
        # Seat 1 may not move for seat 0, whose turn it is.
        assert other.move("A")["code"] == "not_your_turn"
        assert c.request({"type": "undo"})["code"] == "not_allowed"
        assert c.request({"type": "hint"})["code"] == "not_allowed"
        assert c.request({"type": "ping"})["type"] == "pong"
    after = server.game(gid)
    assert after["version"] == before["version"] and after["history"] == []
    # A wrong token is refused at hello; a message far over the frame limit closes the socket.
    raw = Client.raw(f"{server.ws_url}/ws/games/{gid}")
    raw.send({"type": "hello", "token": "not-a-token"})
    assert raw.error("bad_token")
    with pytest.raises(ConnectionClosed):
        raw.recv(5)
    big = Client.raw(f"{server.ws_url}/ws/games/{gid}")
    big.send({"type": "hello"})
    big.send("y" * (2 << 20))
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            big.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert server.game(gid)["version"] == before["version"]


def test_unknown_games_and_missing_hello(server: ServerProcess) -> None:
    r = server.get("/api/games/nope-nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "game_not_found"
    assert server.get("/api/games/..%2F..%2Fetc").status_code == 404
    r = server.post("/api/games/nope-nope/moves", {"move": "A", "version": 1}, token="x")
    assert r.status_code == 404
    c = Client.raw(f"{server.ws_url}/ws/games/nope-nope")
    assert c.error("game_not_found")
    with pytest.raises(ConnectionClosed) as closed:
        c.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    created = server.create(mode="ai", level=1)
    c = Client.raw(f"{server.ws_url}/ws/games/{created['game_id']}")
    c.send({"type": "move", "move": "A", "version": 1})
    c.error("hello_required")
    c.close()
    assert server.game(created["game_id"])["version"] == 1


def test_bad_http_requests(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1)
    gid, token = created["game_id"], created["token"]
    url = f"{server.url}/api/games"

    r = fetch("POST", url, content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
    r = server.post("/api/games", {"mode": "chess"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"
    r = server.post("/api/games", {"mode": "ai", "circle": [1, 2, 3]})
    assert r.status_code == 422 and "circle" in r.json()["error"]["message"]
    r = server.post("/api/games", {"mode": "ai", "clock": {"kind": "fischer"}})
    assert r.status_code == 422
    r = fetch(
        "POST",
        url,
        content=b"{" + b" " * 100_000 + b"}",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    move = f"/api/games/{gid}/moves"
    assert server.post(move, {"move": "A", "version": 1}).json()["error"]["code"] == "missing_token"
    r = server.post(move, {"move": "A", "version": 1}, token="wrong")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
    r = server.post(move, {"move": "S@a1", "version": 1}, token=token)
    assert r.status_code == 409 and "special patch" in r.json()["error"]["message"]
    assert server.game(gid)["version"] == 1


def test_floods_are_rate_limited(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1)
    gid = created["game_id"]
    with server.client(gid, created["token"]) as c:
        for i in range(90):
            c.send({"type": "ping", "id": i})
        replies = [c.recv_until(lambda m: m["type"] in ("pong", "error")) for _ in range(90)]
        limited = [r for r in replies if r["type"] == "error"]
        assert limited and all(r["code"] == "rate_limited" for r in limited)
        assert sum(r["type"] == "pong" for r in replies) >= 60
    with server.client(gid) as flood, pytest.raises(ConnectionClosed) as closed:
        for i in range(400):
            flood.send({"type": "ping", "id": i})
        while True:
            flood.recv(5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    with http_client(base_url=server.url, timeout=15) as http:
        codes = [http.post(f"/api/games/{gid}/resign").status_code for _ in range(150)]
    assert 429 in codes and set(codes) <= {401, 429}
    assert server.game(gid)["status"] == "active"


# -- durability -----------------------------------------------------------------------------------


@pytest.mark.both_backends
def test_sigkill_mid_game_loses_nothing(server: ServerProcess) -> None:
    gid, t0, t1 = online_game(server)
    a, b = server.client(gid, t0), server.client(gid, t1)
    game = play_between({0: a, 1: b}, random.Random(6), 6)
    acked = [h["move"] for h in game["history"]]
    # The top level thinks for five seconds: the server dies while the AI is thinking.
    ai = server.create(mode="ai", level=13)
    with server.client(ai["game_id"], ai["token"]) as c:
        assert c.move(legal_moves(ai["game"])[0])["type"] == "ack"
        server.kill()
    for c in (a, b):
        with pytest.raises(ConnectionClosed):
            while True:
                c.recv(5)
    server.start()
    # The players come back with the last version they saw and carry on.
    a = server.client(gid, t0, last_version=game["version"])
    b = server.client(gid, t1, last_version=game["version"])
    assert a.first is not None and a.first["type"] == "sync" and a.first["events"] == []
    assert [h["move"] for h in a.first["game"]["history"]] == acked
    assert a.first["game"]["position"] == game["position"]
    more = play_between({0: a, 1: b}, random.Random(7), 2)
    assert more["version"] == game["version"] + 2
    a.close()
    b.close()
    # The game that waited for the AI gets its move once the server is back.
    with server.client(ai["game_id"], ai["token"]) as c:
        answered = c.wait_game(lambda g: g["to_move"] == 0, timeout=30)
        assert len(answered["history"]) >= 2
