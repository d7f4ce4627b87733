"""The contract between the server and its clients: every message the server sends is one of
the closed set ``ServerMessage`` and validates against its model, whatever a real game over
the websocket makes it send; and docs/server.md names every message and every field."""

from __future__ import annotations

import json
import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

pytest.register_assert_rewrite("server_fixtures")

from patchwork.server.games.schemas import Event, GameView  # noqa: E402
from patchwork.server.http import game_socket  # noqa: E402
from server_fixtures import Client, ServerProcess, legal_moves  # noqa: E402

pytest_plugins = ["server_fixtures"]

DOCS = Path(__file__).resolve().parent.parent / "docs" / "server.md"
SENT = {
    "welcome",
    "state",
    "update",
    "sync",
    "ack",
    "error",
    "presence",
    "hint",
    "analysis",
    "review_progress",
    "review",
    "pong",
    "chat",
    "chat_ack",
}


def members(union: Any) -> list[type[BaseModel]]:
    """The models of an ``Annotated[A | B | ..., Field(discriminator=...)]`` union."""
    inner = typing.get_args(union)[0]
    return list(typing.get_args(inner))


def literal_values(model: type[BaseModel], field: str) -> list[str]:
    return list(typing.get_args(model.model_fields[field].annotation))


def test_the_set_of_server_messages_is_closed() -> None:
    kinds = [v for m in members(game_socket.ServerMessage) for v in literal_values(m, "type")]
    assert sorted(kinds) == sorted(SENT)  # each once: the discriminator tells them apart
    assert set(typing.get_args(game_socket.Message)) == set(members(game_socket.ServerMessage))
    with pytest.raises(ValueError):
        game_socket.server_messages.validate_python({"type": "gossip"})


def test_every_message_a_game_sends_validates(server: ServerProcess) -> None:
    created = server.create(mode="ai", level=1, seed=11)
    gid, token = created["game_id"], created["token"]
    seen: dict[str, int] = {}
    clients: list[Client] = []
    rng = random.Random(11)
    with server.client(gid, token) as c:
        clients.append(c)
        assert c.request({"type": "ping"})["type"] == "pong"
        assert c.move("not a move")["type"] == "error"
        assert c.request({"type": "hint"})["type"] == "hint"
        for _ in range(3):  # moves bring updates (the AI answers too)
            g = c.wait_game(lambda g: g["to_move"] == 0 or g["status"] == "finished")
            assert c.move(rng.choice(legal_moves(g)))["type"] == "ack"
        assert c.request({"type": "analysis", "ply": 1})["type"] == "analysis"
        reply = c.request({"type": "undo"})  # answered with the whole game, in a state
        assert reply["type"] == "ack"
        last = c.state_at(reply["version"])["version"]
        # A review of the game so far: its progress, then the review itself.
        assert server.post(f"/api/games/{gid}/review", token=token).status_code == 202
        c.expect("review", timeout=60)
    with server.client(gid, token, last_version=last - 1) as back:
        clients.append(back)
        assert back.first is not None and back.first["type"] == "sync"
        back.send({"type": "sync"})  # answered with the whole game
        back.expect("state")
    # The players of a game between people chat: the room's latest lines, then an ack.
    online = server.create(mode="online", name="Ann")
    with server.client(online["game_id"], online["token"]) as talk:
        clients.append(talk)
        talk.expect("chat")
        assert talk.request({"type": "chat", "preset": "gl"})["type"] == "chat_ack"
    for c in clients:
        for text in c.received:
            message = game_socket.server_messages.validate_json(text)
            # Nothing beyond the model: what it writes back is the message, field for field.
            assert message.model_dump(mode="json") == json.loads(text)
            seen[message.type] = seen.get(message.type, 0) + 1
    assert set(seen) == SENT, seen


def test_an_update_is_what_the_whole_view_says(server: ServerProcess) -> None:
    """A client that applies each update over its view holds the server's whole view."""
    created = server.create(mode="local", seed=3)
    with server.client(created["game_id"], created["token"]) as c:
        rng = random.Random(3)
        for _ in range(8):
            assert c.game is not None
            reply = c.move(rng.choice(legal_moves(c.game)))
            assert reply["type"] == "ack"
            mine = c.state_at(reply["version"])
            full = GameView.model_validate(server.game(created["game_id"])).model_dump()
            assert {k: v for k, v in mine.items() if k != "updated_at"} == {
                k: v for k, v in full.items() if k != "updated_at"
            }
        updates = [m for m in c.messages if m["type"] == "update"]
        assert len(updates) == 8 and all(u["since"] == u["version"] - 1 for u in updates)


# -- the documentation ----------------------------------------------------------------------------


def documented_rows() -> dict[str, str]:
    """The rows of docs/server.md's table of server messages: type -> the row's text."""
    text = DOCS.read_text()
    section = text.split("### Every message the server sends", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)` \|", line)
        if m:
            rows[m.group(1)] = line
    return rows


@pytest.mark.parametrize("model", members(game_socket.ServerMessage), ids=lambda m: m.__name__)
def test_docs_name_every_message_and_its_fields(model: type[BaseModel]) -> None:
    rows = documented_rows()
    (kind,) = literal_values(model, "type")
    assert kind in rows, f"docs/server.md does not list the {kind!r} message"
    for field in model.model_fields:
        assert f"`{field}`" in rows[kind], f"docs/server.md: {kind} lacks the field {field!r}"


def test_docs_name_every_event_kind_and_its_fields() -> None:
    text = DOCS.read_text()
    section = text.split("Event kinds:", 1)[1].split("\n\n", 1)[0]
    for model in members(Event):
        for kind in literal_values(model, "kind"):
            assert f"`{kind}`" in section, kind
        for field in model.model_fields:
            if field not in ("kind", "version"):
                assert f"`{field}`" in section, (model.__name__, field)


def test_docs_name_every_field_of_the_game_view() -> None:
    text = DOCS.read_text()
    section = text.split("### The game view", 1)[1].split("\n## ", 1)[0]
    for field in GameView.model_fields:
        assert f"`{field}`" in section, field
