"""A dropped connection: the server is killed (SIGKILL) under a game in progress and started
again; the page says it lost the connection, reconnects by itself, catches up with a move it
missed and plays on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from conftest import advance, running_server, start_game, view, wait_version_above, watch_errors
from server_fixtures import ServerProcess


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with running_server(tmp_path) as proc:
        yield proc


def test_the_page_reconnects_and_catches_up(browser: Browser, own_server: ServerProcess) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.set_default_timeout(20_000)
        gid = start_game(page, own_server, "local", name="Ann")
        expect(page.locator("#connection")).to_have_attribute("data-status", "online")
        g = view(own_server, gid)
        advance(page)
        wait_version_above(page, g["version"])
        own_server.kill()
        expect(page.locator("#connection")).to_have_attribute("data-status", "offline")
        expect(page.locator("#connection")).to_contain_text("reconnecting")
        own_server.start()
        # A move the page did not make (the same seat token, over HTTP).
        seat = json.loads(page.evaluate(f"localStorage.getItem('patchwork.seat.{gid}')") or "null")
        g = view(own_server, gid)
        r = own_server.post(
            f"/api/games/{gid}/moves", {"move": "A", "version": g["version"]}, seat["token"]
        )
        assert r.status_code == 200, r.text
        # Reconnection attempts back off to one every 5 s; the restart itself takes seconds.
        expect(page.locator("#connection")).to_have_attribute(
            "data-status", "online", timeout=30_000
        )
        wait_version_above(page, g["version"])
        expect(page.locator("#move-list li")).to_have_count(2)
        # And play goes on from the page.
        g = view(own_server, gid)
        advance(page)
        wait_version_above(page, g["version"])
        assert [h["move"] for h in view(own_server, gid)["history"]] == ["A", "A", "A"]
        assert not errors, errors
    finally:
        ctx.close()
