"""Solo against the Automa in the browser: chosen on the start page (its level by name, its
deck), Automa's side of the table where a second quilt would be (its card, piles, buttons,
the tactical deck's next budget, the 7x7 marker on the time board), its turns said in the
terminal app's own sentences after each move, and the end screen's score by the level's
columns; on a laptop, and on a phone in Portuguese."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import (
    ENDLESS,
    TIMEOUT_MS,
    advance,
    drag_move,
    game_id,
    keep_seat,
    placements,
    random_moves,
    shot,
    view,
    wait_version_above,
    watch_errors,
)
from patchwork import i18n
from patchwork.engine.automa import LEVELS, Turn
from patchwork.tui.solo import turn_lines
from server_fixtures import ServerProcess


@pytest.fixture
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def said(turn: dict[str, Any]) -> str:
    """What the terminal app says of a turn, from the view's data (the page's words must be
    the same: the same msgids, so the same translations)."""
    t = Turn(
        card=turn["card"]["number"],
        affordable=tuple(turn["affordable"]),
        patch=turn["patch"],
        decided_by=turn["decided_by"],
        start=turn["start"],
        end=turn["end"],
        income=turn["income"],
        bonus=turn["bonus"],
        reshuffled=turn["reshuffled"],
        specials=turn["specials"],
    )
    return " ".join(turn_lines(t))


def short(turns: list[dict[str, Any]]) -> str:
    """Automa's turns after a move in one sentence, as the last-move line and the notice
    give them: the patches it bought and where it is now."""
    bought = [str(t["patch"]) for t in turns if t["patch"] is not None]
    passes = len(turns) - len(bought)
    space = turns[-1]["end"]
    if not bought:
        return f"Automa passed and moved to space {space}."
    if len(bought) == 1:
        patches = f"patch {bought[0]}"
    elif len(bought) == 2:
        patches = f"patches {bought[0]} and {bought[1]}"
    else:
        patches = "patches " + ", ".join(bought[:-1]) + f", and {bought[-1]}"
    text = f"Automa bought {patches} and moved to space {space}."
    if passes:
        text += " It passed once too." if passes == 1 else f" It passed {passes} times too."
    return text


def start_solo(page: Page, server: ServerProcess, level: int, deck: str, seed: int) -> str:
    page.goto(f"{server.url}/?seed={seed}")
    page.check('input[name="mode"][value="solo"]')
    expect(page.locator("fieldset.solo_level")).to_be_visible()
    expect(page.locator("fieldset.first")).to_be_hidden()  # the person moves first
    page.check(f'input[name="solo_level"][value="{level}"]')
    page.check(f'input[name="deck"][value="{deck}"]')
    page.click("#start-game")
    page.wait_for_selector(".player.automa .automa-side")
    return game_id(page)


def expect_automa_side(page: Page, g: dict[str, Any]) -> None:
    a = g["automa"]
    side = page.locator(".player.automa")
    expect(side.locator(".player-name")).to_have_text("Automa")
    expect(side.locator(".figures .buttons-count")).to_have_text(str(a["buttons"]))
    expect(side.locator(".pile.with .pile-patch")).to_have_count(len(a["with_buttons"]))
    expect(side.locator(".pile.without .pile-patch")).to_have_count(len(a["without_buttons"]))
    if a["card"] is not None:
        expect(side.locator(".automa-card")).to_have_attribute(
            "data-card", str(a["card"]["number"])
        )
    board = page.locator(".timeboard [data-marker]")
    if a["marker"] is None:
        expect(board).to_have_count(0)
    else:  # the level's marker on its space while it lies there
        expect(
            page.locator(f'.timeboard [data-space="{a["marker"]}"] [data-marker]')
        ).to_have_count(1)


def test_solo_from_the_start_page_on_a_laptop(
    page: Page, web_server: ServerProcess, english: None
) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{web_server.url}/?seed=7")
    page.check('input[name="mode"][value="solo"]')
    titles = page.locator("fieldset.solo_level .option-title").all_inner_texts()
    assert titles == ["1. Intern", "2. Apprentice", "3. Fellow", "4. Master", "5. Legend"]
    expect(page.locator("fieldset.solo_level .option-detail").nth(0)).to_contain_text(
        f"marker on space {LEVELS[1].marker}"
    )
    expect(page.locator("fieldset.deck")).to_contain_text("Shows Automa's next budget")
    shot(page, "solo-start")
    gid = start_solo(page, web_server, 3, "tactical", 7)
    g = view(web_server, gid)
    assert g["mode"] == "solo" and g["rules"]["solo"] == {"level": 3, "deck": "tactical"}
    expect(page.locator(".player.automa")).to_contain_text("level 3, Fellow")
    expect(page.locator("#next-budget")).to_have_text(f"next budget: {g['automa']['next_budget']}")
    expect(page.locator(".player .quilt")).to_have_count(1)  # Automa has no quilt
    expect_automa_side(page, g)
    # A move of the person's: a buy dragged onto the quilt; Automa's turns follow at once.
    move, squares = next(iter(placements(g).items()))
    drag_move(page, move, squares)
    wait_version_above(page, g["version"])
    g = view(web_server, gid)
    turns = g["history"][-1]["outcome"]["automa_turns"]
    assert turns, "the person bought first: Automa, behind, plays next"
    # In short in the last-move line and the notice, each turn's full sentences (the
    # terminal app's) as its title; the screen reader hears those.
    line = page.locator("[data-last-move] .automa-turns")
    expect(line).to_have_attribute("data-automa-turns", str(len(turns)))
    expect(line.locator(".words")).to_have_text(short(turns))
    expect(line).to_have_attribute("title", "\n".join(said(t) for t in turns))
    expect(page.locator(".toast")).to_have_text(short(turns))
    expect(page.locator(".move-list li.automa-move")).to_have_count(len(turns))
    expect(page.locator("#next-budget")).to_have_text(f"next budget: {g['automa']['next_budget']}")
    expect_automa_side(page, g)
    shot(page, "solo-table", full_page=False)


def test_solo_on_a_phone_in_portuguese(browser: Browser, web_server: ServerProcess) -> None:
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale="pt-BR"
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    errors = watch_errors(page)
    try:
        page.goto(f"{web_server.url}/?seed=3")
        page.check('input[name="mode"][value="solo"]')
        expect(page.locator("fieldset.solo_level .option-title").nth(0)).to_have_text(
            "1. Estagiário"
        )
        gid = start_solo(page, web_server, 1, "normal", 3)
        g = view(web_server, gid)
        expect(page.locator("#next-budget")).to_have_count(0)  # the normal deck shows nothing
        expect_automa_side(page, g)
        advance(page)
        wait_version_above(page, g["version"])
        g = view(web_server, gid)
        turns = g["history"][-1]["outcome"]["automa_turns"]
        assert turns
        i18n.set_language("pt")
        try:
            expected = [said(t) for t in turns]
        finally:
            i18n.set_language("en")
        assert "Automa tirou" in expected[0]
        shown = page.locator("[data-last-move] .automa-turns")
        expect(shown).to_have_attribute("data-automa-turns", str(len(turns)))
        expect(shown).to_have_attribute("title", "\n".join(expected))
        expect_automa_side(page, g)
        # Nothing wider than the phone; Automa's side below the table, in full.
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
        box = page.locator(".player.automa").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 391
        shot(page, "solo-phone")
    finally:
        ctx.close()
    assert not errors, errors


def test_the_end_of_a_solo_game_takes_automas_score_apart(
    page: Page, web_server: ServerProcess, english: None
) -> None:
    created = web_server.create(mode="solo", seed=5, rules={"solo": {"level": 4, "deck": "normal"}})
    gid, token = created["game_id"], created["token"]
    g = random_moves(web_server, gid, token, created["game"], ENDLESS, seed=5)
    assert g["status"] == "finished"
    page.set_viewport_size({"width": 1366, "height": 900})
    keep_seat(page, gid, token, 0)  # the person's seat
    page.goto(f"{web_server.url}/play/{gid}")
    expect(page.locator("#end-screen")).to_be_visible()
    table = page.locator("#automa-score")
    parts = g["automa"]["score_parts"]
    assert [p["column"] for p in parts] == list(LEVELS[4].scores)
    cells = table.locator("tbody td").all_inner_texts()
    assert cells == [str(p["points"]) for p in parts] + [str(g["scores"][1])]
    expect(table.locator("caption")).to_contain_text("Automa (level 4, Master) scores")
    expect(table.locator("caption")).to_contain_text(f"= {g['scores'][1]}")
    expect(page.locator("#score-table tbody tr")).to_have_count(1)  # the person's row only
    # Automa's side says its final score, not "Score now".
    side = page.locator(".end-automa .figures")
    expect(side).to_contain_text("Final score")
    expect(side).not_to_contain_text("Score now")
    expect(page.locator("#review-link")).to_have_count(1)
    winner = g["result"]["winner"]
    expect(page.locator("#end-title")).to_have_text("Automa wins." if winner == 1 else "You win!")
    shot(page, "solo-end")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing wider than it
    expect(page.locator("#automa-score")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    # The replay shows Automa's side at each position.
    page.goto(f"{web_server.url}/play/{gid}?replay=1")
    expect(page.locator(".automa-box .automa-side")).to_be_visible()
    expect(page.locator("#review")).to_have_count(1)  # a "Review this game" button
    # The review judges the person's moves (Automa chooses nothing).
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{web_server.url}/play/{gid}?replay=1&review=1")
    expect(page.locator("#review[data-ready='1']")).to_be_visible(timeout=60_000)
    expect(page.locator("#review-moves li")).to_have_count(len(g["history"]))
    expect(page.locator("#review-chart .point")).to_have_count(len(g["history"]) + 1)
    shot(page, "solo-review")


def two_automa_turns(server: ServerProcess) -> tuple[int, str, list[str]]:
    """A seed and a first buy after which Automa plays two turns in a row (it stays behind
    after its first), found on games thrown away."""
    for seed in range(1, 40):
        g = server.create(mode="solo", seed=seed, rules={"solo": {"level": 1, "deck": "normal"}})
        spots = placements(g["game"])
        tried: set[str] = set()
        for move in sorted(spots, key=lambda m: -len(spots[m])):
            patch = move.split("r")[0].split("f")[0]
            if patch in tried:
                continue
            tried.add(patch)
            trial = server.create(
                mode="solo", seed=seed, rules={"solo": {"level": 1, "deck": "normal"}}
            )
            r = server.post(
                f"/api/games/{trial['game_id']}/moves",
                {"move": move, "version": trial["game"]["version"]},
                trial["token"],
            )
            assert r.status_code == 200, r.text
            if len(r.json()["game"]["history"][-1]["outcome"]["automa_turns"]) >= 2:
                return seed, move, spots[move]
    raise AssertionError("no first move found after which Automa plays twice")


def test_two_automa_turns_take_one_line(
    page: Page, web_server: ServerProcess, english: None
) -> None:
    seed, move, squares = two_automa_turns(web_server)
    created = web_server.create(
        mode="solo", seed=seed, rules={"solo": {"level": 1, "deck": "normal"}}
    )
    gid, token = created["game_id"], created["token"]
    page.set_viewport_size({"width": 1366, "height": 900})
    keep_seat(page, gid, token, 0)
    page.goto(f"{web_server.url}/play/{gid}")
    expect(page.locator("#headline")).to_have_text("Your turn")
    drag_move(page, move, squares)
    wait_version_above(page, created["game"]["version"])
    g = view(web_server, gid)
    turns = g["history"][-1]["outcome"]["automa_turns"]
    assert len(turns) >= 2
    line = page.locator("[data-last-move] .automa-turns")
    expect(line).to_have_attribute("data-automa-turns", str(len(turns)))
    expect(line.locator(".words")).to_have_text(short(turns))
    notice = page.locator(".toast")
    expect(notice).to_have_text(short(turns))
    # Automa's turns take one line of the turn bar, the notice two at most, and the offer
    # stays in view under the quilt: nothing is pushed below the fold.
    one = page.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize) * 1.6", line.element_handle()
    )
    box = line.bounding_box()
    assert box is not None and box["height"] <= one, (box, one)
    nbox = notice.bounding_box()
    assert nbox is not None and nbox["height"] <= 4.2 * 16, nbox
    offer = page.locator(".offer-box").bounding_box()
    assert offer is not None and offer["y"] + offer["height"] <= 900, offer
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    shot(page, "solo-two-turns", full_page=False)
