"""The lobby's bots in the browser (issue 39; docs/web.md "The lobby"), as a person meets
them: a fresh server's lobby is never empty, it lists the five AI levels as bots with their
ratings; "Play someone now" counts down and then offers the bot nearest the player's rating;
"Keep waiting" keeps looking for a person (a guest who comes is paired with the player), and
taking the offer starts a rated game against that level.

The module has a server of its own, fresh, that offers the bot after 2 s instead of 20
(``--bot-offer-after``: the wait is the server's to say, in the lobby's welcome)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import SERVER_ARGS, TIMEOUT_MS, game_id, shot, view, watch_errors
from patchwork.ai.levels import LEVELS
from patchwork.server.ratings.rating import LEVEL_RATINGS, nearest_level
from server_fixtures import ServerProcess

NEAR = nearest_level(1500)  # the bot offered to a new account (and to a guest)

PASSWORD = "quilted-squares-9"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("lobby-bots-web")
    db = f"sqlite:///{folder / 'games.db'}"
    proc = ServerProcess(db, folder, *SERVER_ARGS, "--bot-offer-after", "2")
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


def new_context(browser: Browser, **kw: Any) -> BrowserContext:
    ctx = browser.new_context(
        **{"viewport": {"width": 1280, "height": 900}, "locale": "en-GB", **kw}
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


def to_lobby(page: Page, server: ServerProcess) -> None:
    page.goto(f"{server.url}/lobby")
    expect(page.locator("#lobby-connection")).to_have_attribute("data-status", "online")


def sign_up(page: Page, server: ServerProcess) -> str:
    """From the start page's header: Sign up, the form, and back; the name taken."""
    name = "Ann" + uuid.uuid4().hex[:8].replace("0", "a").replace("1", "b")
    page.goto(f"{server.url}/")
    page.click("#head-signup")
    page.fill("#field-name", name)
    page.fill("#field-password", PASSWORD)
    page.click("#signup-form-submit")
    expect(page.locator("#head-me")).to_contain_text(name)
    return name


def test_bots_are_always_there_and_offered_when_nobody_comes(
    browser: Browser, server: ServerProcess
) -> None:
    ann_ctx, guest_ctx = new_context(browser), new_context(browser)
    try:
        ann, guest = ann_ctx.new_page(), guest_ctx.new_page()
        errors = watch_errors(ann) + watch_errors(guest)
        name = sign_up(ann, server)
        ann.click("#lobby-link")
        expect(ann.locator("#lobby-connection")).to_have_attribute("data-status", "online")
        # Nobody has come yet, and the lobby is not empty: five bots, each with its rating.
        expect(ann.locator("#seek-list")).to_contain_text("No open challenges")
        bots = ann.locator("#bot-list li.bot")
        expect(bots).to_have_count(len(LEVELS))
        for row, n in zip(bots.all(), LEVELS, strict=True):
            expect(row.locator(".seek-name")).to_have_text(f"AI level {n}")
            expect(row.locator(".bot-tag")).to_have_text("bot")
            expect(row.locator(".seek-rating")).to_have_text(str(round(LEVEL_RATINGS[n])))
            expect(row.locator(".tag.rated")).to_have_text("Rated")  # she has met no people
            expect(row.get_by_role("button", name=f"Play AI level {n}")).to_be_enabled()
        shot(ann, "lobby-bots")

        # Play someone now (casual): a countdown, then the bot nearest her 1500.
        ann.uncheck("#quick-rated")
        ann.click("#quick-play")
        expect(ann.locator("#bot-offer .countdown")).to_contain_text("offered in")
        offer = ann.locator("#bot-offer .bot-offer")
        expect(offer).to_contain_text(
            f"No one yet. Play AI level {NEAR} ({round(LEVEL_RATINGS[NEAR])}) instead?"
        )
        expect(offer.locator(".tag")).to_have_text("Casual")
        shot(ann, "lobby-bot-offer")
        # Keep waiting: she still looks for a person, and a guest who comes gets her.
        ann.click("#offer-wait")
        expect(offer).to_have_count(0)
        expect(ann.locator("#quick-wait")).to_contain_text("Looking for an opponent")
        to_lobby(guest, server)
        expect(guest.locator("#bot-list .tag.casual")).to_have_count(len(LEVELS))
        guest.click("#quick-play")
        ann.wait_for_url("**/play/*")
        guest.wait_for_url("**/play/*")
        assert game_id(ann) == game_id(guest)
        met = view(server, game_id(ann))
        assert met["mode"] == "online" and name in [s["name"] for s in met["seats"]]

        # Back in the lobby, rated this time: she takes the offer, a rated game at level 3.
        to_lobby(ann, server)
        expect(ann.locator("#quick-rated")).to_be_checked()
        ann.click("#quick-play")
        expect(offer.locator(".tag")).to_have_text("Rated")
        ann.click("#offer-play")
        ann.wait_for_url("**/play/*")
        g = view(server, game_id(ann))
        assert g["mode"] == "ai" and g["rated"] is True
        kinds = {s["kind"]: s for s in g["seats"]}
        assert kinds["ai"]["level"] == NEAR and kinds["human"]["name"] == name
        assert kinds["human"]["account"] is True
        expect(ann.locator("body")).to_contain_text(f"AI level {NEAR}")
        assert not errors, errors
    finally:
        ann_ctx.close()
        guest_ctx.close()
