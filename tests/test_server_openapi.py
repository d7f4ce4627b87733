"""The OpenAPI description at /docs says what the server really answers (issue 35: errors the
guard, a body or a path can cause, the text record, the form of a user name), and a 405 says
which methods there are."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from patchwork.server.accounts.names import is_valid
from patchwork.server.common.config import Settings
from patchwork.server.http.app import create_app


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = Path(tmp_path_factory.mktemp("openapi")) / "games.db"
    with TestClient(create_app(Settings(db_url=f"sqlite:///{db}", ai_workers=1))) as c:
        yield c


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    found: dict[str, Any] = client.get("/openapi.json").json()
    return found


def operations(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            yield method.upper(), path, op


def test_every_error_a_route_can_answer_is_declared(spec: dict[str, Any]) -> None:
    missing = []
    for method, path, op in operations(spec):
        codes = set(op["responses"])
        needed = {"429"}  # the guard's rate limit, in front of every route
        if "requestBody" in op:
            needed |= {"400", "413", "422"}  # not JSON, too large, not of the right shape
        if "{" in path:
            needed |= {"404"}  # no such game, player or language
        missing += [f"{method} {path}: {code}" for code in sorted(needed - codes)]
    assert missing == []


def test_the_text_record_is_declared_as_text(spec: dict[str, Any], client: TestClient) -> None:
    op = spec["paths"]["/api/games/{game_id}/record.txt"]["get"]
    assert list(op["responses"]["200"]["content"]) == ["text/plain"]
    made = client.post("/api/games", json={"mode": "ai", "level": 1}).json()
    r = client.get(f"/api/games/{made['game_id']}/record.txt")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")


def test_unknown_languages_are_404_as_declared(client: TestClient) -> None:
    for path in ("/api/i18n/xx", "/howto/xx"):
        r = client.get(path)
        assert r.status_code == 404, (path, r.status_code)


@pytest.mark.parametrize("name", ["Ann", "a1", "x" * 21, "1abc", "abc-d_e", "ab", "Zoë", "a b c"])
def test_the_documented_name_form_is_the_one_checked(spec: dict[str, Any], name: str) -> None:
    field = spec["components"]["schemas"]["Credentials"]["properties"]["name"]
    documented = (
        field["minLength"] <= len(name) <= field["maxLength"]
        and re.search(field["pattern"], name) is not None
    )
    assert documented == is_valid(name)


def test_a_method_not_allowed_says_which_are(client: TestClient) -> None:
    r = client.delete("/api/leaderboard")
    assert r.status_code == 405 and r.json()["error"]["code"] == "not_allowed"
    assert r.headers["allow"] == "GET"


def test_expensive_reads_are_rate_limited(tmp_path: Path) -> None:
    """Profiles, the leaderboard and above all rating charts cost the server: each client gets
    its share (issue 35: 4 clients drew 26 charts a second on 0.9 of a core)."""
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'g.db'}", ai_workers=1, http_read_rate=0.5, http_read_burst=5
    )
    with TestClient(create_app(settings)) as c:
        r = c.post("/api/account/signup", json={"name": "Charter", "password": "a long password"})
        assert r.status_code == 201
        start = time.monotonic()
        codes = [c.get("/api/leaderboard").status_code]
        while codes[-1] == 200 and len(codes) < 60:
            codes.append(c.get("/api/leaderboard").status_code)
        # 5 at once, then one every 2 s
        assert codes[-1] == 429 and 5 <= len(codes) - 1 <= 6 + (time.monotonic() - start) / 2
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'g.db'}", ai_workers=1)
    with TestClient(create_app(settings)) as c:
        # 10 at once, then 1 a second: drawing takes its time (more on a busy machine), so
        # the charts drawn before the first refusal are 10 and those the seconds refilled.
        start = time.monotonic()
        codes = [c.get("/api/players/Charter/rating.svg").status_code]
        while codes[-1] == 200 and len(codes) < 60:
            codes.append(c.get("/api/players/Charter/rating.svg").status_code)
        assert codes[-1] == 429 and 10 <= len(codes) - 1 <= 11 + (time.monotonic() - start)
        assert c.get("/api/players/Charter").status_code == 200  # other reads go on


def test_one_client_cannot_flood_the_reviews(tmp_path: Path) -> None:
    """Reviews cost minutes of the AI pool: a client starts a few, then waits (issue 35: 60
    reviews in 0.6 s from one address)."""
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'g.db'}", ai_workers=1, review_burst=2, http_rate=0
    )
    with TestClient(create_app(settings)) as c:
        codes = []
        for _ in range(3):
            made = c.post("/api/games", json={"mode": "local"}).json()
            auth = {"authorization": f"Bearer {made['token']}"}
            assert c.post(f"/api/games/{made['game_id']}/resign", headers=auth).status_code == 200
            r = c.post(f"/api/games/{made['game_id']}/review")
            codes.append(r.status_code)
        assert codes[:2] != [429, 429] and codes[2] == 429, codes
        body = r.json()["error"]
        assert body["code"] == "rate_limited" and int(r.headers["retry-after"]) >= 1
