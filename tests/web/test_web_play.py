"""The web client as people use it, in headless Chromium: a whole game against the AI with
drag-and-drop, turning and flipping; a refused drop; the keyboard alone; a reload."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from conftest import (
    advance,
    cell_point,
    drag_move,
    game_id,
    keyboard_place,
    parse_square,
    placements,
    shot,
    shown_version,
    start_game,
    view,
    wait_my_turn,
    wait_version_above,
)
from server_fixtures import ServerProcess, legal_moves


def pick(g: dict[str, Any], want: str) -> tuple[str, list[str]] | None:
    """A legal buy whose orientation starts with ``want`` ("r90", "f"), or None."""
    for move, squares in placements(g).items():
        if move[0].isdigit() and move.split("@")[0].lstrip("0123456789").startswith(want):
            return move, squares
    return None


def test_a_whole_game_against_the_ai(page: Page, web_server: ServerProcess) -> None:
    shot_taken = False
    page.goto(f"{web_server.url}/")
    expect(page.locator("#start-form")).to_be_visible()
    shot(page, "start")
    gid = start_game(page, web_server, "ai", level=1)
    dragged: list[str] = []
    keyboard = 0
    while True:
        g = wait_my_turn(page, web_server, gid)
        if g["status"] == "finished":
            break
        before = g["version"]
        if g["pending_specials"]:
            # Announced as it happens, visibly (and in the live region).
            expect(page.locator(".toast").last).to_contain_text("special patch")
            square = legal_moves(g)[0].split("@")[1]
            keyboard_place(page, ".offer-card.special", [square], None)
            keyboard += 1
        else:
            choice = None
            if not dragged:
                choice = pick(g, "r90") or pick(g, "r270")
            elif len(dragged) == 1:
                choice = pick(g, "f")
            elif len(dragged) < 4:
                choice = pick(g, "r")
            if choice is not None:
                move, squares = choice
                if not shot_taken:
                    # The highlight before the drop: hold the patch over the board.
                    drag_hold_and_shoot(page, move, squares)
                    shot_taken = True
                else:
                    drag_move(page, move, squares)
                dragged.append(move)
            elif keyboard < 2 and (k := pick(g, "r0")) is not None:
                patch = k[0].split("r")[0]
                keyboard_place(page, f'.offer-card[data-patch="{patch}"]', k[1], k[0])
                keyboard += 1
            else:
                expect(page.locator("#advance")).to_contain_text(str(g["advance"]["buttons"]))
                advance(page)
        wait_version_above(page, before)
        after = view(web_server, gid)
        assert len(after["history"]) > len(g["history"]), "the move was not made"
        if len(dragged) == 1 and after["history"][len(g["history"])]["move"] == dragged[0]:
            shot(page, "game")
    assert len(dragged) >= 3 and any("f" in m.split("@")[0] for m in dragged), dragged
    assert keyboard >= 1
    end = page.locator("#end-screen")
    expect(end).to_be_visible()
    g = view(web_server, gid)
    table = page.locator("#score-table")
    for seat in (0, 1):
        row = table.locator(f'tr[data-seat="{seat}"]')
        expect(row.locator("td.total")).to_have_text(str(g["scores"][seat]))
        expect(row.locator("td").first).to_have_text(str(g["score_parts"][seat]["buttons"]))
    expect(end).to_contain_text("Empty squares")
    shot(page, "end")
    # The replay: step through the moves.
    page.click("#replay-link")
    expect(page.locator("#replay-caption")).to_contain_text("starting position")
    page.click("#replay-next")
    expect(page.locator("#replay-caption")).to_contain_text(g["history"][0]["move"])
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-caption")).to_contain_text(g["history"][1]["move"])
    page.keyboard.press("End")
    expect(page.locator("#replay-caption")).to_contain_text(g["history"][-1]["move"])
    shot(page, "replay")
    # Back to the finished game, and a rematch: a new game with the same seat.
    page.click("#replay-back")
    page.click("#rematch")
    page.wait_for_url(lambda url: "/play/" in url and gid not in url)
    new = game_id(page)
    expect(page.locator("main")).to_have_attribute("data-status", "active")
    assert view(web_server, new)["parent_id"] == gid
    expect(page.locator(".player.first .player-name")).to_contain_text("(you)")


def drag_hold_and_shoot(page: Page, move: str, squares: list[str]) -> None:
    """drag_move, with a screenshot of the highlighted placement before the drop."""

    def hold(page: Page) -> None:
        expect(page.locator("#place-status")).to_contain_text(move)
        shot(page, "placement", full_page=False)

    drag_move(page, move, squares, before_drop=hold)


def test_a_drop_where_it_does_not_fit_is_refused(page: Page, web_server: ServerProcess) -> None:
    gid = start_game(page, web_server, "ai", level=1)
    g = wait_my_turn(page, web_server, gid)
    first = next(m for m in placements(g) if m[0].isdigit())
    drag_move(page, first, placements(g)[first])
    g = wait_my_turn(page, web_server, gid, since=g["version"])
    assert g["history"][0]["move"] == first
    # Another patch, as printed, dropped inside the board but over the one just sewn on.
    taken = {parse_square(q) for q in g["history"][0]["squares"]}
    offer = next(o for o in g["offer"] if o["buyable"])
    cells = [
        (r, c) for r, line in enumerate(offer["shape"]) for c, ch in enumerate(line) if ch == "#"
    ]
    h, w = len(offer["shape"]), len(offer["shape"][0])
    anchor = next(
        (r, c)
        for r in range(10 - h)
        for c in range(10 - w)
        if any((r + dr, c + dc) in taken for dr, dc in cells)
    )
    card = page.locator(f'.offer-card[data-patch="{offer["patch"]}"]')
    box = card.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 10, box["y"] + 10, steps=3)
    x, y = cell_point(
        page, ".board-focus.active", anchor[0] + (h - 1) // 2, anchor[1] + (w - 1) // 2
    )
    page.mouse.move(x, y, steps=6)
    status = page.locator("#place-status")
    expect(status).to_have_attribute("data-kind", "blocked")
    expect(status).to_contain_text("would overlap what is already sewn on at")
    version = shown_version(page)
    page.mouse.up()
    # The preview said it in the engine's plain words before the drop; after it, the
    # engine's reason in plain words in the status line and a toast, the notation only in
    # their small details line; nothing changed.
    expect(status.locator(".status-text")).to_contain_text("would overlap what is already sewn")
    expect(status.locator(".status-details")).to_contain_text("is not allowed")
    assert "@" not in status.locator(".status-text").inner_text()
    notice = page.locator(".toast.warn")
    expect(notice).to_contain_text("would overlap what is already sewn on at")
    expect(notice.locator(".toast-details")).to_contain_text("is not allowed")
    shot(page, "refused", full_page=False)
    after = view(web_server, gid)
    assert after["version"] == g["version"] and len(after["history"]) == len(g["history"])
    assert shown_version(page) == version


def test_keyboard_only_and_a_reload_keep_the_game(page: Page, web_server: ServerProcess) -> None:
    gid = start_game(page, web_server, "ai", level=1)
    g = wait_my_turn(page, web_server, gid)
    move = next(m for m in placements(g) if m[0].isdigit() and "r90" in m) or ""
    patch = move.split("r")[0]
    # Tab reaches the patch; Enter picks it up, R turns it, arrows and Enter place it.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.patch") == patch:
            break
    else:
        raise AssertionError("Tab never reached the patch")
    assert page.evaluate("document.activeElement.matches(':focus-visible')")
    keyboard_place(page, f'.offer-card[data-patch="{patch}"]', placements(g)[move], move)
    g2 = wait_my_turn(page, web_server, gid, since=g["version"])
    assert g2["history"][0]["move"] == move
    moves_before = page.locator("#move-list li").count()
    page.reload()
    expect(page.locator("#move-list li")).to_have_count(moves_before)
    assert game_id(page) == gid
    # Still our seat after the reload: we can move again.
    expect(page.locator("#headline")).to_have_text("Your turn")
    before = view(web_server, gid)["version"]
    advance(page)
    wait_version_above(page, before)
    assert view(web_server, gid)["history"][len(g2["history"])]["move"] == "A"
    # The AI's help: a hint marks its squares; then take the advance back.
    wait_my_turn(page, web_server, gid)
    page.click("#hint")
    # Long enough for a worker that must first compile the searcher (a cold Numba cache).
    expect(page.locator("#place-status")).to_have_attribute("data-kind", "hint", timeout=90_000)
    expect(page.locator("#place-status")).to_contain_text("Hint")
    # Said in words, as the terminal says it; the notation only as the small details line.
    words = page.locator("#place-status .status-text").inner_text()
    assert "@" not in words and "Your chance of winning" in words, words
    details = page.locator("#place-status .status-details")
    if details.count():
        move = details.inner_text()
        assert re.fullmatch(r"\d+[rf]\d+@[a-i][1-9]|S@[a-i][1-9]", move), move
        if move.startswith("S@"):
            assert f"sew the special patch on {move[2:]}" in words, words
        else:
            patch = re.match(r"\d+", move).group()  # type: ignore[union-attr]
            assert f"buy patch {patch} and sew it on where the dots show" in words, words
            expect(page.locator(f'.offer-card.hinted[data-patch="{patch}"]')).to_have_count(1)
    else:
        assert words.startswith("Hint: advance."), words
    before = view(web_server, gid)
    page.click("#undo")
    wait_version_above(page, before["version"])
    assert len(view(web_server, gid)["history"]) < len(before["history"])
    # A right click turns the chosen patch.
    card = page.locator(".offer-card:not(.dimmed)").first
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")
    page.locator(".board-focus.active").click(button="right")
    expect(card).to_have_attribute("data-orientation", "1")
