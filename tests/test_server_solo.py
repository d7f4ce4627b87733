"""Solo games against the official Automa on the game server, SQLite and PostgreSQL: the
contract (rules.solo, Automa's side, its turns in each move's outcome), what is kept secret
(the deck's order in no message or answer), storage across a restart, replays, spectators,
the AI's help, and the options refused."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures")

import patchwork.engine as pw  # noqa: E402
from patchwork.engine import automa as A  # noqa: E402
from patchwork.engine.moves import parse_move  # noqa: E402
from patchwork.engine.position import is_public_text  # noqa: E402
from patchwork.server.http import game_socket  # noqa: E402
from server_fixtures import VIEWS, Client, ServerProcess, legal_moves  # noqa: E402

pytest_plugins = ["server_fixtures"]

SOLO = {"level": 3, "deck": "tactical"}


def create_solo(server: ServerProcess, seed: int, **solo: Any) -> dict[str, Any]:
    return server.create(mode="solo", seed=seed, rules={"solo": {**SOLO, **solo}})


def engine_state(game: dict[str, Any], seed: int) -> pw.State:
    """The game of a seeded solo game as the engine plays it here, hidden deck and all
    (what the server keeps): the same circle and deck from the same seed."""
    solo = game["rules"]["solo"]
    rules = pw.Rules(solo=A.Automa(solo["level"], solo["deck"]))
    state = pw.new_game(circle=pw.standard_circle(seed), rules=rules, automa_seed=A.deck_seed(seed))
    for h in game["history"]:
        state = state.apply(parse_move(h["move"]))
    return state


def secret_runs(state: pw.State) -> list[list[int]]:
    """What the person may not know of Automa's deck: the order of the cards still in it."""
    hidden = A.hidden_part(state)
    assert hidden is not None
    return [list(hidden.deck)] if len(hidden.deck) >= 2 else []


def int_lists(value: Any) -> list[list[int]]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in int_lists(v)]
    if isinstance(value, list):
        own = [value] if value and all(isinstance(x, int) for x in value) else []
        return own + [x for v in value for x in int_lists(v)]
    return []


def contains_run(lists: list[list[int]], run: list[int]) -> bool:
    n = len(run)
    return any(xs[i : i + n] == run for xs in lists for i in range(len(xs) - n + 1))


def assert_no_secret(text: str, state: pw.State) -> None:
    """``text`` (a message or an answer) tells neither the deck's seed nor its order."""
    hidden = A.hidden_part(state)
    assert hidden is not None
    assert str(hidden.seed) not in text
    data = json.loads(text)
    for run in secret_runs(state):
        assert not contains_run(int_lists(data), run), run
    assert "/" + str(hidden.seed) not in text


def play_to_end(c: Client, rng: random.Random) -> dict[str, Any]:
    while True:
        assert c.game is not None
        if c.game["status"] == "finished":
            return c.game
        assert c.game["to_move"] == 0  # the engine plays Automa's turns inside each move
        assert c.move(rng.choice(legal_moves(c.game)))["type"] == "ack"


# -- the contract ---------------------------------------------------------------------------


def test_a_solo_game_has_one_person_and_automa(server: ServerProcess) -> None:
    created = create_solo(server, 5)
    g = created["game"]
    assert created["seat"] == 0 and created["invite_code"] is None
    assert g["mode"] == "solo" and g["status"] == "active" and g["to_move"] == 0
    assert g["rules"]["solo"] == SOLO
    assert [s["kind"] for s in g["seats"]] == ["human", "automa"]
    assert g["seats"][1] == {
        "seat": 1,
        "kind": "automa",
        "name": "Automa",
        "level": 3,
        "joined": True,
        "account": False,
        "bot": False,
    }
    assert is_public_text(g["position"])  # the public form: no deck in it (D6)
    automa = g["automa"]
    assert automa["level_name"] == "Fellow" and automa["deck"] == "tactical"
    assert automa["marker"] == A.LEVELS[3].marker and automa["position"] == 0
    assert automa["card"] is None and automa["cards_in_deck"] == 10 and automa["cards_seen"] == []
    assert isinstance(automa["next_budget"], int)
    assert [p["column"] for p in automa["score_parts"]] == list(A.LEVELS[3].scores)
    normal = create_solo(server, 5, deck="normal")["game"]["automa"]
    assert normal["next_budget"] is None  # only the tactical deck shows its next budget
    levels = server.get("/api/meta").json()["automa_levels"]
    assert [lv["name"] for lv in levels] == ["Intern", "Apprentice", "Fellow", "Master", "Legend"]


def test_each_move_carries_automas_turns(server: ServerProcess) -> None:
    created = create_solo(server, 8)
    gid, token = created["game_id"], created["token"]
    rng = random.Random(8)
    state = engine_state(created["game"], 8)
    with server.client(gid, token) as c:
        for _ in range(6):
            assert c.game is not None
            move = rng.choice(legal_moves(c.game))
            turns = state.automa_replies(parse_move(move))
            state = state.apply(parse_move(move))
            reply = c.move(move)
            assert reply["type"] == "ack"
            update = next(m for m in reversed(c.messages) if m["type"] == "update")
            said = update["entry"]["outcome"]["automa_turns"]
            assert [(t["card"]["number"], t["patch"], t["decided_by"], t["end"]) for t in said] == [
                (t.card, t.patch, t.decided_by, t.end) for t in turns
            ]
            for t, mine in zip(said, turns, strict=True):
                assert t["card"]["budget"] == mine.budget and t["affordable"] == list(
                    mine.affordable
                )
                assert (t["income"], t["bonus"], t["reshuffled"]) == (
                    mine.income,
                    mine.bonus,
                    mine.reshuffled,
                )
            view = c.state_at(reply["version"])
            assert view["automa"]["position"] == state.automa.position  # type: ignore[union-attr]
            assert view["players"][1]["position"] == state.automa.position  # type: ignore[union-attr]
        assert any(h["outcome"]["automa_turns"] for h in server.game(gid)["history"])
        for text in c.received:  # every message is one of the closed set, field for field
            message = game_socket.server_messages.validate_json(text)
            assert message.model_dump(mode="json") == json.loads(text)


def test_the_deck_order_is_in_no_message_or_answer(server: ServerProcess) -> None:
    created = create_solo(server, 21)
    gid, token = created["game_id"], created["token"]
    state = engine_state(created["game"], 21)
    assert_no_secret(json.dumps(created), state)
    rng = random.Random(21)
    with server.client(gid, token) as c, server.client(gid) as watcher:
        seen = 0
        while c.game is not None and c.game["status"] == "active":
            move = rng.choice(legal_moves(c.game))
            state = state.apply(parse_move(move))
            reply = c.move(move)
            assert reply["type"] == "ack"
            watcher.state_at(reply["version"])
            for text in [*c.received[seen:], server.get(f"/api/games/{gid}").text]:
                assert_no_secret(text, state)
            seen = len(c.received)
            if len(c.game["history"]) == 4:  # mid-game: everything else one may read
                for path in ("replay", "events", "review"):
                    assert_no_secret(server.get(f"/api/games/{gid}/{path}").text, state)
                assert_no_secret(server.get("/api/games").text, state)
                hint = server.post(f"/api/games/{gid}/hint", token=token)
                assert hint.status_code == 200, hint.text
                assert_no_secret(hint.text, state)
                for kind in ("json", "txt"):  # the record's setup holds the deck's seed
                    r = server.get(f"/api/games/{gid}/record.{kind}")
                    assert r.status_code == 403 and r.json()["error"]["code"] == "not_allowed"
        assert c.game is not None and c.game["status"] == "finished"
        for text in watcher.received:
            assert_no_secret(text, state)
    assert c.game["result"]["scores"] == list(state.scores())
    assert c.game["result"]["winner"] == state.winner()
    # Once the game is over its record may tell everything: it replays to the same end.
    record = pw.Record.from_json(server.get(f"/api/games/{gid}/record.json").text)
    assert record.rules.solo == A.Automa(3, "tactical")
    assert record.replay().state == state


# -- storage, replays, spectators -------------------------------------------------------------


@pytest.mark.both_backends
def test_a_solo_game_survives_a_restart(server: ServerProcess) -> None:
    created = create_solo(server, 33, level=5, deck="normal")
    gid, token = created["game_id"], created["token"]
    rng = random.Random(33)
    with server.client(gid, token) as c:
        for _ in range(5):
            assert c.game is not None
            assert c.move(rng.choice(legal_moves(c.game)))["type"] == "ack"
    before = server.game(gid)
    server.kill()
    server.start()
    after = server.game(gid)
    for key in ("automa", "players", "circle", "history", "rules", "seats", "legal", "scores"):
        assert after[key] == before[key], key
    with server.client(gid, token, last_version=before["version"]) as c:
        assert c.first is not None and c.first["type"] == "sync"
        game = play_to_end(c, rng)
    state = engine_state(game, 33)
    assert game["result"]["scores"] == list(state.scores())


def test_replays_spectators_undo_and_rematch(server: ServerProcess) -> None:
    created = create_solo(server, 44, level=1)
    gid, token = created["game_id"], created["token"]
    rng = random.Random(44)
    with server.client(gid) as watcher:
        assert watcher.welcome is not None and watcher.welcome["role"] == "spectator"
        assert watcher.game is not None and watcher.game["automa"]["level"] == 1
        with server.client(gid, token) as c:
            for _ in range(3):
                assert c.game is not None
                assert c.move(rng.choice(legal_moves(c.game)))["type"] == "ack"
            version = c.game["version"]  # type: ignore[index]
        watched = watcher.state_at(version)
        assert watched["automa"] == server.game(gid)["automa"]
        assert watched["history"][-1]["outcome"]["automa_turns"]
    replay = server.get(f"/api/games/{gid}/replay").json()
    assert all(is_public_text(f["position"]) for f in replay["frames"])
    assert replay["frames"][0]["automa"]["card"] is None
    assert replay["frames"][-1]["automa"] == server.game(gid)["automa"]
    assert replay["seats"][1]["kind"] == "automa"
    # Undo takes back the person's last move and Automa's turns after it.
    game = server.game(gid)
    r = server.post(f"/api/games/{gid}/undo", {"version": game["version"]}, token=token)
    assert r.status_code == 200, r.text
    undone = r.json()["game"]
    assert len(undone["history"]) == 2
    assert undone["automa"] == replay["frames"][2]["automa"]
    # Resigning ends it; a rematch is another solo game at the same level, the person first.
    assert server.post(f"/api/games/{gid}/resign", token=token).status_code == 200
    r = server.post(f"/api/games/{gid}/rematch", {"action": "offer"}, token=token)
    assert r.status_code == 200, r.text
    new = server.game(r.json()["game_id"])
    assert new["mode"] == "solo" and new["rules"]["solo"] == {"level": 1, "deck": "tactical"}
    assert new["to_move"] == 0 and new["automa"]["cards_in_deck"] == 10


def test_a_solo_game_is_reviewed_and_analysed(server: ServerProcess) -> None:
    # Against Automa there is no one to help: a game in play is reviewed to its last move.
    created = create_solo(server, 55)
    gid, token = created["game_id"], created["token"]
    r = server.post(f"/api/games/{gid}/analysis", {"ply": 0}, token=token)
    assert r.status_code == 200, r.text
    assert r.json()["best_move"] in legal_moves(created["game"])
    rng = random.Random(55)
    with server.client(gid, token) as c:
        for _ in range(3):
            assert c.game is not None
            reply = c.move(rng.choice(legal_moves(c.game)))
            assert reply["type"] == "ack"
            c.state_at(reply["version"])
        r = server.post(f"/api/games/{gid}/review", token=token)
        assert r.status_code == 202, r.text
        m = c.recv_until(lambda m: m["type"] in ("review", "error"), 60)
    assert m["type"] == "review", m
    review = m["review"]
    assert [p["seat"] for p in review["plies"]] == [0, 0, 0]  # only the person's moves
    assert not review["finished"] and not review["stored"]
    assert_no_secret(json.dumps(review), engine_state(server.game(gid), 55))


# -- bad options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"mode": "solo"}, "a solo game needs rules.solo"),
        ({"mode": "ai", "rules": {"solo": {"level": 2}}}, "rules.solo is for mode solo"),
        ({"mode": "solo", "rules": {"solo": {"level": 0}}}, "greater than or equal to 1"),
        ({"mode": "solo", "rules": {"solo": {"level": 6}}}, "less than or equal to 5"),
        ({"mode": "solo", "rules": {"solo": {"level": "2"}}}, "valid integer"),
        ({"mode": "solo", "rules": {"solo": {"level": True}}}, "valid integer"),
        ({"mode": "solo", "rules": {"solo": {}}}, "rules.solo.level: Field required"),
        ({"mode": "solo", "rules": {"solo": {"level": 2, "deck": "easy"}}}, "'normal' or"),
        ({"mode": "solo", "rules": {"solo": {"level": 2, "seed": 1}}}, "Extra inputs"),
        ({"mode": "solo", "seat": 1, "rules": {"solo": {"level": 2}}}, "seat 0 and move first"),
        (
            {"mode": "solo", "first_player": "random", "rules": {"solo": {"level": 2}}},
            "seat 0 and move first",
        ),
    ],
)
def test_bad_solo_options_are_refused_clearly(
    server: ServerProcess, body: dict[str, Any], words: str
) -> None:
    r = server.post("/api/games", body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_request" and words in error["message"], error


def test_two_player_games_have_no_automa(server: ServerProcess) -> None:
    g = server.create(mode="local", seed=2)["game"]
    assert g["automa"] is None and g["rules"]["solo"] is None
    assert isinstance(g["position"], str)
    assert all(h["outcome"]["automa_turns"] == [] for h in g["history"])


@pytest.mark.both_backends
def test_views_of_a_finished_solo_game_are_read_back_from_the_database(
    server: ServerProcess,
) -> None:
    created = create_solo(server, 66, level=2, deck="normal")
    gid, token = created["game_id"], created["token"]
    with server.client(gid, token) as c:
        game = play_to_end(c, random.Random(66))
    assert game["automa"]["score_parts"][0]["column"] == "bonus"
    total = sum(p["points"] for p in game["automa"]["score_parts"])
    assert game["scores"][1] == total
    assert [m for m in c.messages if m["type"] in VIEWS]
