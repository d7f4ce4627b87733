"""Storing changes: the store's group commit (lists of writes submitted together share one
transaction, and a refused one fails alone while the others are stored), and a move the
database refuses is taken back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from patchwork.server.games.creation import new_game_data
from patchwork.server.games.requests import CreateGame
from patchwork.server.storage.models import EventData
from patchwork.server.storage.store import AddEvent, InsertGame, StaleWrite, Store, UpdateGame


def test_writes_submitted_together_commit_together_and_fail_alone(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.migrate()
    games = [new_game_data(CreateGame(mode="local")).data for _ in range(6)]
    for g in games:
        store.write([InsertGame(g)])

    def bump(i: int, expected: int) -> list[UpdateGame | AddEvent]:
        g = games[i]
        return [
            UpdateGame(g.id, expected, {"version": expected + 1}),
            AddEvent(EventData(g.id, expected + 1, "resign", {"seat": 0})),
        ]

    async def run() -> list[BaseException | None]:
        # Game 3 is written as if at version 5: stale, so refused; the rest go through.
        lists = [bump(i, 5 if i == 3 else games[i].version) for i in range(6)]
        results = await asyncio.gather(*(store.commit(w) for w in lists), return_exceptions=True)
        return [r if isinstance(r, BaseException) else None for r in results]

    errors = asyncio.run(run())
    assert [type(e) for e in errors] == [type(None)] * 3 + [StaleWrite] + [type(None)] * 2
    for i, g in enumerate(games):
        loaded = store.load(g.id)
        assert loaded is not None
        assert loaded[0].version == g.version + (0 if i == 3 else 1)
        assert [e.kind for e in store.events_since(g.id, g.version, 10)] == (
            [] if i == 3 else ["resign"]
        )
    store.close()


def test_a_write_that_fails_raises_for_its_caller(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.migrate()
    with pytest.raises(StaleWrite):
        asyncio.run(store.commit([UpdateGame("nosuchgame", 1, {"version": 2})]))
    store.close()


def test_a_move_the_database_refuses_is_taken_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine judges a move once, as the game pushes it; if it cannot be stored, it is
    popped again: nothing changed, and the same move can be made once the database is back."""
    from fastapi.testclient import TestClient

    from patchwork.server.common.config import Settings
    from patchwork.server.http.app import create_app

    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'games.db'}", ai_workers=1))
    with TestClient(app) as client:
        created = client.post("/api/games", json={"mode": "local", "seed": 1}).json()
        gid, token = created["game_id"], created["token"]
        auth = {"authorization": f"Bearer {token}"}
        store = app.state.service.store
        real = store.commit

        async def broken(writes: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(store, "commit", broken)
        r = client.post(f"/api/games/{gid}/moves", json={"move": "A", "version": 1}, headers=auth)
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        game = client.get(f"/api/games/{gid}").json()
        assert game["version"] == 1 and game["history"] == []
        assert game["position"] == created["game"]["position"]
        monkeypatch.setattr(store, "commit", real)
        r = client.post(f"/api/games/{gid}/moves", json={"move": "A", "version": 1}, headers=auth)
        assert r.status_code == 200 and [h["move"] for h in r.json()["game"]["history"]] == ["A"]
        illegal = client.post(
            f"/api/games/{gid}/moves", json={"move": "S@a1", "version": 2}, headers=auth
        )
        assert illegal.status_code == 409 and illegal.json()["error"]["code"] == "illegal_move"
        assert len(client.get(f"/api/games/{gid}").json()["history"]) == 1
