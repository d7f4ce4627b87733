"""The analysis board in the browser: opened from a finished game's replay at its ply, moves
played for both sides (a candidate of the engine, the board's own placement, advancing),
stepping back and branching, the other line kept and gone back to; the engine's view
streamed step by step and its best move marked; a candidate's table holding still under a
pressed pointer; a position pasted in (a bad one refused in plain words); the engine's socket
closed when the page is left."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Browser, Page, WebSocket, expect

import patchwork as pw
from conftest import (
    assert_fits_a_phone,
    finished_game,
    keyboard_place,
    phone,
    placements,
    running_server,
    shot,
    watch_errors,
)
from server_fixtures import ServerProcess, fetch, legal_moves


def board_moves(page: Page) -> list[str]:
    """The moves of the board as its address keeps them (so a board can be shared)."""
    query = parse_qs(urlparse(page.url).query)
    return query.get("moves", [""])[0].split()


def server_board(server: ServerProcess, start: str, moves: list[str]) -> dict[str, Any]:
    r = fetch(
        "POST",
        f"{server.url}/api/analysis/board",
        json={"position": start, "moves": moves},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_final(page: Page) -> None:
    """The engine's last step is in (the page marks each step it shows)."""
    expect(page.locator("#engine[data-step='5']")).to_be_attached(timeout=30_000)


def test_a_replay_opens_the_board_where_it_is_and_moves_branch(
    page: Page, web_server: ServerProcess
) -> None:
    gid, game = finished_game(web_server, seed=41)
    played = [e["move"] for e in game["history"]]
    sockets: list[WebSocket] = []
    page.on("websocket", lambda ws: sockets.append(ws) if "/ws/analysis" in ws.url else None)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{web_server.url}/play/{gid}?replay=1")
    page.locator("#replay-slider").fill("10")
    page.click("#replay-analyse")  # "Analyse this position"
    expect(page.locator("main[data-version='10']")).to_be_attached()
    assert board_moves(page) == played[:10]
    start = parse_qs(urlparse(page.url).query)["position"][0]
    expect(page.locator("#move-list li")).to_have_count(len(played))  # the game's line
    expect(page.locator("#move-list li.current")).to_have_attribute("data-ply", "10")
    # The engine: candidates of this position, step by step to the last; its best on the board.
    here = server_board(web_server, start, played[:10])
    wait_final(page)
    shown = page.eval_on_selector_all(
        "#engine-candidates tr[data-move]", "rows => rows.map(r => r.dataset.move)"
    )
    assert shown and set(shown) <= set(legal_moves(here))
    best = shown[0]
    squares = pw.parse_move(best).squares
    marked = page.locator(".board-focus .overlay rect").count()
    assert marked == len(squares)
    shot(page, "analysis-board", full_page=False)
    # Back a move with the arrow key, forward with the button.
    page.locator("body").press("ArrowLeft")
    expect(page.locator("main[data-version='9']")).to_be_attached()
    page.click("#board-next")
    expect(page.locator("main[data-version='10']")).to_be_attached()
    # Branch: a move other than the game's next one; the game's line is kept as another line.
    # (Clicked once the engine's table stands: each step it shows redraws the table, and a
    # click whose press and release fall on either side of a redraw is lost.)
    wait_final(page)
    others = [m for m in shown if m != played[10]]
    assert others, "the engine lists more than one candidate"
    other = others[0]
    page.click(f"#engine-candidates tr[data-move='{other}'] .play-candidate")
    expect(page.locator("main[data-version='11']")).to_be_attached()
    assert board_moves(page) == [*played[:10], other]
    expect(page.locator("#move-list li")).to_have_count(11)
    expect(page.locator(".other-lines li")).to_have_count(1)
    # A move placed by hand on the board (the keyboard's way), then back to the game's line.
    now = server_board(web_server, start, board_moves(page))
    if now["status"] == "active":
        buys = {m: sq for m, sq in placements(now).items() if not m.startswith("S@")}
        if buys and now["pending_specials"] == 0:
            move, squares = next(iter(buys.items()))
            patch = move.split("r")[0].split("f")[0]
            keyboard_place(page, f'.offer-card[data-patch="{patch}"]', squares, move)
            expect(page.locator("main[data-version='12']")).to_be_attached()
            assert board_moves(page)[-1] == move
    page.click(".other-lines li button")
    expect(page.locator("main[data-version='11']")).to_be_attached()
    assert board_moves(page) == played[:11]
    expect(page.locator(".other-lines li")).to_have_count(1)  # the branch, kept in turn
    # Leaving the page closes the engine's socket (its search ends with it).
    assert sockets and not sockets[-1].is_closed()
    page.click(".brand")
    page.wait_for_function("() => location.pathname === '/'")
    page.wait_for_timeout(300)
    assert all(ws.is_closed() for ws in sockets)


def test_a_candidate_pressed_while_the_engine_searches_is_played(
    browser: Browser, tmp_path: Path
) -> None:
    """A person presses a candidate while the search still streams its steps: the table holds
    still until the button is released (a step that reordered it would put another move under
    the pointer), and the move pressed is played. A server of its own, searching 4 s (the
    steps 0.25 s to 4 s), so that the press surely falls before the last step."""
    with running_server(tmp_path, "--board-seconds", "4") as server:
        ctx = browser.new_context(viewport={"width": 1366, "height": 900})
        try:
            page = ctx.new_page()
            errors = watch_errors(page)
            position = pw.new_game(seed=12).to_text()
            page.goto(f"{server.url}/analysis?position={position}")
            expect(page.locator("main[data-version='0']")).to_be_attached()
            engine = page.locator("#engine")
            page.wait_for_function(
                "() => Number(document.querySelector('#engine').dataset.step) >= 1",
                polling="raf",
            )
            box = page.locator("#engine-candidates .play-candidate").first.bounding_box()
            assert box
            # Near the button's start: a step drawn before the press may put a shorter move
            # ("A") first, and every row's button starts where the first one did.
            x, y = box["x"] + 3, box["y"] + box["height"] / 2
            page.mouse.move(x, y)
            page.mouse.down()
            step = engine.get_attribute("data-step")
            pressed = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('.play-candidate')"
                " && document.elementFromPoint(x, y).closest('tr').dataset.move",
                [x, y],
            )
            assert pressed, "the press is on a candidate's button"
            assert step is not None and int(step) < 5, f"pressed at step {step}: too late"
            # The search goes on to its last step; the table drawn stays the one pressed on.
            expect(engine).to_have_attribute("data-searched", "5", timeout=30_000)
            expect(engine).to_have_attribute("data-step", step)
            page.mouse.up()
            expect(page.locator("main[data-version='1']")).to_be_attached()
            assert board_moves(page) == [pressed]
            # Released, the engine searches the new position; its table drawn again.
            wait_final(page)
            assert not errors, errors
        finally:
            ctx.close()


def test_a_pasted_position_opens_and_a_bad_one_is_refused_in_words(
    page: Page, web_server: ServerProcess
) -> None:
    page.goto(f"{web_server.url}/analysis")
    page.fill("#position-text", "not a position")
    page.click("#position-open")
    expect(page.locator("#position-error")).to_contain_text("position text has 3 fields")
    expect(page.locator("#position-text")).to_have_value("not a position")
    shot(page, "analysis-paste-error", full_page=False)
    position = pw.new_game(seed=9).to_text()
    page.fill("#position-text", position)
    page.click("#position-open")
    expect(page.locator("main[data-version='0']")).to_be_attached()
    wait_final(page)
    # The engine switched off stays off (remembered), and on again searches again.
    page.click("#engine-on")
    expect(page.locator("#engine")).to_contain_text("The engine is off.")
    page.reload()
    expect(page.locator("#engine")).to_contain_text("The engine is off.")
    page.click("#engine-on")
    wait_final(page)


def test_the_board_on_a_phone(browser: Browser, web_server: ServerProcess) -> None:
    with phone(browser) as page:
        position = pw.new_game(seed=10).to_text()
        page.goto(f"{web_server.url}/analysis?position={position}")
        expect(page.locator("main[data-version='0']")).to_be_attached()
        wait_final(page)
        assert_fits_a_phone(page)
        page.locator("#engine").scroll_into_view_if_needed()
        shot(page, "analysis-phone", full_page=False)
