"""A dropped connection: the server is killed (SIGKILL) under a game in progress and started
again; the page says it lost the connection, reconnects by itself, catches up with a move it
missed and plays on. And a page that falls behind (its tab busy while many moves are made)
catches up at once, drawing the newest position rather than each move in turn; a page that
opens a game draws it once, though it comes twice (its request, then its socket)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from conftest import advance, running_server, start_game, view, wait_version_above, watch_errors
from server_fixtures import ServerProcess, legal_moves


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


# From its next task on, holds the page's only thread (as a long task or a starved tab does)
# until the server's game reaches a version, asking with synchronous requests, which let no
# other task run: the moves' messages wait in the socket meanwhile.
BUSY_UNTIL = """([url, version]) => setTimeout(() => {
  const until = performance.now() + 60000;
  while (performance.now() < until) {
    const r = new XMLHttpRequest();
    r.open("GET", url, false);
    r.send();
    if (JSON.parse(r.responseText).version >= version) return;
  }
}, 0)"""

# From the page's start (an init script), counts its drawings of the game: each sets the
# version shown on <main> (whichever <main> the page has by then).
COUNT_DRAWINGS = """window.drawings = [];
new MutationObserver((records) => {
  for (const r of records) {
    if (r.target.matches("main")) window.drawings.push(r.target.dataset.version);
  }
}).observe(document, { attributes: true, attributeFilter: ["data-version"], subtree: true });"""


def test_a_page_that_fell_behind_draws_the_newest_position_once(
    browser: Browser, own_server: ServerProcess
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.add_init_script(COUNT_DRAWINGS)
        gid = start_game(page, own_server, "local", name="Ann")
        expect(page.locator("#connection")).to_have_attribute("data-status", "online")
        seat = json.loads(page.evaluate(f"localStorage.getItem('patchwork.seat.{gid}')") or "null")
        g = view(own_server, gid)
        moves = 30
        page.evaluate("window.drawings = []")  # from here on
        # The page is busy from now until the 30th move is stored; they are made over HTTP.
        page.evaluate(BUSY_UNTIL, [f"/api/games/{gid}", g["version"] + moves])
        for _ in range(moves):
            legal = legal_moves(g)
            move = "A" if "A" in legal else legal[0]
            r = own_server.post(
                f"/api/games/{gid}/moves", {"move": move, "version": g["version"]}, seat["token"]
            )
            assert r.status_code == 200, r.text
            g = view(own_server, gid)
        # Free again, the page shows the game as it is now, the 30 moves listed...
        expect(page.locator(f"main[data-version='{g['version']}']")).to_be_attached()
        expect(page.locator("#move-list li")).to_have_count(len(g["history"]))
        last = g["history"][-1]
        expect(page.locator("[data-last-move]")).to_have_attribute("data-ply", str(last["ply"]))
        # ...drawn once, or a few times should a frame fall while it reads the messages: not
        # once for each of the 30 (as it did, a tenth of a second each on a slow machine).
        drawings = page.evaluate("window.drawings")
        assert drawings[-1] == str(g["version"])
        assert len(drawings) <= 5, drawings
        assert not errors, errors
    finally:
        ctx.close()


def test_an_opened_game_is_drawn_once(browser: Browser, own_server: ServerProcess) -> None:
    """The page asks for the game, then its socket sends the same game: drawn once, not twice
    (each drawing of the table costs a slow phone a tenth of a second, and rebuilt the patch
    under a finger)."""
    created = own_server.create(mode="local", seed=5, name="Ann", opponent_name="Bob")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        page.add_init_script(COUNT_DRAWINGS)
        page.goto(f"{own_server.url}/play/{created['game_id']}")
        expect(page.locator("#connection")).to_have_attribute("data-status", "online")
        # The socket's state has come by now; give its frame time to be drawn.
        page.wait_for_timeout(1000)
        assert page.evaluate("window.drawings") == [str(created["game"]["version"])]
        assert not errors, errors
    finally:
        ctx.close()
