"""The store's group commit: lists of writes submitted together share one transaction, and a
refused one (a stale version) fails alone while the others are stored."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from patchwork.server.creation import new_game_data
from patchwork.server.models import EventData
from patchwork.server.schemas import CreateGame
from patchwork.server.store import AddEvent, InsertGame, StaleWrite, Store, UpdateGame


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
