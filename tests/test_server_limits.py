"""The server's limits, without a server: what names and numbers are refused, the new options,
and docs/server.md naming every option and error code."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from patchwork.server.common.errors import STATUS
from patchwork.server.common.limits import MAX_COUNT, check_name
from patchwork.server.common.ratelimit import ConnectionCount
from patchwork.server.games.creation import new_game_data
from patchwork.server.games.requests import CreateGame, HelloMsg, MoveIn
from patchwork.server.run import build_parser, settings_from
from patchwork.server.storage.models import EventData
from patchwork.server.storage.store import AddEvent, InsertGame, Store

DOCS = (Path(__file__).parent.parent / "docs" / "server.md").read_text()


@pytest.mark.parametrize(
    "name", ["Ann", "میرا", "\u0645\u06cc\u200c\u0631\u0627", 'a "b" [c]', "Zoë"]
)
def test_names_people_have_are_accepted(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name", ["a\x00", "a\nb", "a\rb", "\t", "\x7f", "a\u2028", "a\u2029", "\x85"]
)
def test_names_a_record_cannot_carry_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="control characters"):
        check_name(name)


@pytest.mark.parametrize("name", ["Ann\u202e", "\u202enna", "a\u2066b\u2069", "\u202d"])
def test_names_that_turn_the_text_around_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="text direction controls"):
        check_name(name)


@pytest.mark.parametrize("name", ["\u200b", "\u200c\u200d", " ", "\u3000\u00a0", "\u2060\u00ad"])
def test_names_nobody_can_see_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match="can be seen"):
        check_name(name)


def test_counts_stop_where_the_columns_do() -> None:
    assert MoveIn(move="A", version=MAX_COUNT).version == MAX_COUNT
    for bad in (MAX_COUNT + 1, -1, "1", True, 1.0):
        with pytest.raises(ValidationError):
            MoveIn.model_validate({"move": "A", "version": bad})
    with pytest.raises(ValidationError):
        HelloMsg.model_validate({"type": "hello", "last_version": 2**63})
    with pytest.raises(ValidationError):
        CreateGame.model_validate({"mode": "ai", "level": True})


def test_connections_are_counted_per_address() -> None:
    counts = ConnectionCount(2)
    assert counts.acquire("a") and counts.acquire("a") and not counts.acquire("a")
    assert counts.acquire("b")
    counts.release("a")
    assert counts.acquire("a")
    assert all(ConnectionCount(0).acquire("a") for _ in range(100))


def test_the_new_options() -> None:
    args = build_parser().parse_args(
        [
            "--games-cache",
            "7",
            "--waiting-expiry",
            "60",
            "--max-ws-per-address",
            "3",
            "--header-timeout",
            "2",
            "--body-timeout",
            "4",
            "--http-read-rate",
            "1.5",
            "--http-read-burst",
            "9",
            "--forwarded-allow-ips",
            "10.0.0.1",
        ]
    )
    s = settings_from(args)
    assert (s.games_cache, s.waiting_expiry, s.max_ws_per_address) == (7, 60, 3)
    assert (s.header_timeout, s.body_timeout, s.http_read_rate, s.http_read_burst) == (2, 4, 1.5, 9)
    assert args.forwarded_allow_ips == "10.0.0.1"
    assert build_parser().parse_args([]).forwarded_allow_ips == ""  # no proxy is trusted


def test_docs_name_every_option_and_error_code() -> None:
    table = DOCS.split("| option |", 1)[1].split("\n\n", 1)[0]
    for action in build_parser()._actions:
        for flag in action.option_strings:
            if flag.startswith("--") and flag not in ("--help", "--lang"):
                assert f"`{flag}" in table, flag
    codes = set(re.findall(r"^\| `(\w+)` \| (\d{3}) \|", DOCS, re.M))
    assert codes == {(code, str(status)) for code, status in STATUS.items()}


def test_only_games_still_waiting_are_deleted(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    store.migrate()
    playing = new_game_data(CreateGame(mode="ai")).data
    waiting = new_game_data(CreateGame(mode="online")).data
    store.write(
        [InsertGame(playing), InsertGame(waiting)]
        + [AddEvent(EventData(g.id, 1, "created", {"mode": g.mode})) for g in (playing, waiting)]
    )
    later = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)
    assert store.waiting_since(later) == [waiting.id]
    assert store.waiting_since(later - dt.timedelta(hours=1)) == []
    assert not store.delete_waiting(playing.id)
    assert store.load(playing.id) is not None and store.events_since(playing.id, 0, 10)
    assert store.delete_waiting(waiting.id)
    assert store.load(waiting.id) is None and store.events_since(waiting.id, 0, 10) == []
    store.close()
