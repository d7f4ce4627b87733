"""Tournaments in the browser (docs/web.md "Tournaments"): a person finds the page from the
header, creates a Swiss event with the form, finds it among the upcoming ones, joins,
withdraws and joins again (on a laptop, a phone and in Persian); and a whole Swiss event of
five, the person and four bot accounts playing over the API (one withdraws during the first
round, one never plays and loses on the server's no-show rule), the person's page going to
each of her games as its round starts, played to the end in the page, and the final table
with its rounds, the bye, the withdrawals and the tie-breaks. Its own server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tournament_fixtures import EventPlayer, event, my_game, tournament_server

from bot_fixtures import bot_account
from conftest import (
    TIMEOUT_MS,
    assert_fits_a_phone,
    person,
    phone,
    play_in_page,
    shot,
    signed_up,
    watch_errors,
)
from server_fixtures import Account, ServerProcess, eventually

# Long enough for the person's page to answer her turn on a slow, busy machine (a shorter
# window made her the no-show), short enough that the absent bot's game ends soon.
NO_SHOW_SECONDS = 10
ROUNDS = 3
EVENT_WAIT = 120.0  # the whole event of test 2


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with tournament_server(tmp_path_factory.mktemp("tournaments-server"), NO_SHOW_SECONDS) as p:
        yield p


def create_in_page(page: Page, name: str, rounds: int, screenshot: str = "") -> str:
    """Create a Swiss event with the list's form (start: the shortest choice); its id."""
    page.click("#create-tournament")
    dialog = page.locator("dialog.tournament-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#tournament-name").fill(name)
    dialog.locator('label.seg:has(input[name="kind"][value="swiss"])').click()
    dialog.locator('input[name="rounds"]').fill(str(rounds))
    dialog.locator("#tournament-start-in").select_option("1")
    # A tournament's games have a clock: Fischer (the default) or days a move, no "No clock".
    expect(dialog.locator('input[name="clock_kind"]')).to_have_count(2)
    expect(dialog.locator('input[name="clock_kind"][value="fischer"]')).to_be_checked()
    if screenshot:
        shot(page, screenshot, full_page=False)
    dialog.locator("#tournament-create").click()
    page.wait_for_url("**/tournaments/*")
    return page.url.rsplit("/", 1)[1]


def go_to_game(page: Page, gid: str) -> None:
    """Wait for the page to be at game ``gid``: it goes there by itself as the round starts;
    come back to the event's page after the round was paired, it offers the game instead. The
    button is clicked only once it leads to this game: a page loaded just before the last
    round's result reached the event still offers that round's game for a moment."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not page.url.endswith(f"/play/{gid}"):
        assert time.monotonic() < deadline, f"the page did not reach game {gid}: {page.url}"
        # The round's notification may take the page to the game meanwhile: a click that
        # does not wait for the button to stay.
        page.evaluate(
            "(gid) => document.querySelector(`#my-game[href='/play/${gid}']`)?.click()", gid
        )
        page.wait_for_timeout(200)
    page.wait_for_load_state()


def test_a_person_creates_a_swiss_event_and_joins_it(
    browser: Browser, server: ServerProcess
) -> None:
    page, name = person(browser, server, "Tess")
    errors = watch_errors(page)
    page.click("#head-tournaments")
    page.wait_for_url("**/tournaments")
    expect(page.locator("#tab-open")).to_have_attribute("aria-selected", "true")
    tid = create_in_page(page, f"Spring Swiss {name[-4:]}", 3, "tournaments-form")
    # The event's page: its terms, the countdown to the start, nobody in yet.
    expect(page.locator("#tournament-title")).to_have_text(f"Spring Swiss {name[-4:]}")
    head = page.locator(".tournament-head")
    expect(head).to_contain_text("Swiss, 3 rounds")
    expect(head).to_contain_text("Upcoming")
    expect(page.locator("#tournament-countdown")).to_contain_text("Starts in")
    view_now = event(server, tid)
    assert view_now["rounds"] == 3 and view_now["status"] == "open"
    assert 50 <= view_now["starts_at"] - time.time() <= 61, view_now["starts_at"]
    # Among the upcoming events of the list.
    page.click(".tournament-back a")
    item = page.locator(f'.tournament-item[data-tournament="{tid}"]')
    expect(item).to_contain_text(f"Spring Swiss {name[-4:]}")
    expect(item).to_contain_text("Swiss, 3 rounds")
    expect(item).to_contain_text("0 players")
    expect(item.locator(".tournament-status")).to_have_text("Upcoming")
    shot(page, "tournaments-list")
    page.click("#tab-running")
    expect(page.locator("#tournament-list")).to_contain_text("No tournament is being played now.")
    page.click("#tab-open")
    # Join, withdraw, join again.
    item.locator(".tournament-name").click()
    page.click("#tournament-join")
    me = page.locator(f'.t-entrant.me[data-player="{name}"]')
    expect(me).to_be_visible()
    expect(page.locator("#tournament-you")).to_have_text("You are in.")
    expect(page.locator("#players-title")).to_have_text("1 player")
    page.click("#tournament-withdraw")
    expect(page.locator("#tournament-join")).to_be_visible()
    expect(page.locator(f'.t-entrant[data-player="{name}"]:not(.withdrawn)')).to_have_count(0)
    page.click("#tournament-join")
    expect(me).to_be_visible()
    expect(page.locator("#tournament-withdraw")).to_be_visible()
    assert [p["name"] for p in event(server, tid)["players"] if not p["withdrawn"]] == [name]
    shot(page, "tournament-open")
    # The lobby shows it among the events to come, and leads to it.
    page.goto(f"{server.url}/lobby")
    card = page.locator(f'#lobby-tournaments .tournament-item[data-tournament="{tid}"]')
    expect(card).to_contain_text("1 player")
    card.locator(".tournament-name").click()
    page.wait_for_url(f"**/tournaments/{tid}")
    expect(me).to_be_visible()
    assert not errors, errors
    page.context.close()

    # A phone, signed out: the event's page and the list fit, and say how to join.
    with phone(browser) as small:
        small.goto(f"{server.url}/tournaments/{tid}")
        expect(small.locator(f'.t-entrant[data-player="{name}"]')).to_be_visible()
        expect(small.locator(".tournament-actions")).to_contain_text(
            "Sign in to join this tournament."
        )
        assert_fits_a_phone(small)
        shot(small, "tournament-phone")
        small.goto(f"{server.url}/tournaments")
        expect(small.locator(f'.tournament-item[data-tournament="{tid}"]')).to_be_visible()
        assert_fits_a_phone(small)
        shot(small, "tournaments-list-phone")

    # Persian: right to left, the form and the page in Persian words and digits.
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fa-IR")
    ctx.set_default_timeout(TIMEOUT_MS)
    fa = ctx.new_page()
    fa_errors = watch_errors(fa)
    signed_up(fa, server, "Fara")
    fa.goto(f"{server.url}/tournaments")
    expect(fa.locator("html")).to_have_attribute("dir", "rtl")
    expect(fa.locator(f'.tournament-item[data-tournament="{tid}"]')).to_be_visible()
    shot(fa, "fa-tournaments-list")
    fa.click("#create-tournament")
    expect(fa.locator("dialog.tournament-dialog")).to_be_visible()
    shot(fa, "fa-tournaments-form", full_page=False)
    fa.click("#tournament-cancel")
    fa.goto(f"{server.url}/tournaments/{tid}")
    fa.click("#tournament-join")
    expect(fa.locator(".t-entrant.me")).to_be_visible()
    shot(fa, "fa-tournament-open")
    with phone(browser, locale="fa-IR") as small:
        small.goto(f"{server.url}/tournaments/{tid}")
        expect(small.locator(".t-entrant")).to_have_count(2)
        assert_fits_a_phone(small)
        shot(small, "fa-tournament-phone")
    assert not fa_errors, fa_errors
    ctx.close()


# -- a whole event --------------------------------------------------------------------------------


class Bot(EventPlayer):
    """A bot account of the event: against another bot, the one to move resigns at once;
    against the person, a few moves, then it resigns. ``withdraw``: it leaves the event as
    the first round starts (its game of that round goes on); ``no_show``: it joins and is
    never started."""

    def __init__(
        self, server: ServerProcess, person: str, withdraw: bool = False, no_show: bool = False
    ) -> None:
        super().__init__(bot_account(server)[0], person)
        self.withdraw = withdraw
        self.no_show = no_show
        self.withdrawn = False

    def look(self, t: dict[str, Any]) -> None:
        if self.withdraw and not self.withdrawn and t["status"] == "running":
            r = self.account.http.post(f"/api/tournaments/{self.tournament_id}/withdraw")
            assert r.status_code == 200, r.text
            self.withdrawn = True


def test_a_whole_swiss_event_with_a_bye_a_withdrawal_and_a_no_show(
    browser: Browser, server: ServerProcess
) -> None:
    page, name = person(browser, server, "Pia")
    errors = watch_errors(page)
    bots = [
        Bot(server, name),
        Bot(server, name),
        Bot(server, name, withdraw=True),
        Bot(server, name, no_show=True),
    ]
    organiser = Account(server)
    r = organiser.http.post(
        "/api/tournaments",
        json={
            "name": "Quick Swiss",
            "kind": "swiss",
            "rounds": ROUNDS,
            "starts_at": time.time() + 7,
            "rules": {"edition": "revised", "rotation": True, "flip": True},
            "clock": {"kind": "fischer", "initial": 300, "increment": 2},
            "rated": False,
            "bots_allowed": True,
        },
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for bot in bots:
        r = bot.account.http.post(f"/api/tournaments/{tid}/join")
        assert r.status_code == 200, r.text
        bot.tournament_id = tid
    here = f"{server.url}/tournaments/{tid}"
    page.goto(here)
    page.click("#tournament-join")
    expect(page.locator(".t-entrant")).to_have_count(5)
    expect(page.locator(".t-entrant .bot-tag")).to_have_count(4)
    shot(page, "tournament-before-start")
    for bot in bots:
        if not bot.no_show:
            bot.start()
    try:
        games = 0
        deadline = time.monotonic() + EVENT_WAIT
        while True:
            assert time.monotonic() < deadline, f"the event did not finish: {event(server, tid)}"
            for bot in bots:
                assert bot.failure is None, bot.failure
            t = event(server, tid)
            if t["status"] in ("finished", "cancelled"):
                break
            mine = my_game(t, name)
            if mine is None:
                time.sleep(0.2)
                continue
            gid, seat = mine
            go_to_game(page, gid)
            play_in_page(page, server, gid, seat, 45)
            games += 1
            if games == 1:
                shot(page, "tournament-game-end")
            page.goto(here)
        assert t["status"] == "finished", t
        assert games >= 1
    finally:
        for bot in bots:
            bot.stop.set()
        for bot in bots:
            if bot.is_alive():
                bot.join(5)

    # The final table, as the server has it.
    t = eventually(lambda: (v := event(server, tid))["status"] == "finished" and v)
    page.goto(here)
    expect(page.locator(".page.tournament")).to_have_attribute("data-status", "finished")
    rounds = page.locator(".round")
    expect(rounds).to_have_count(len(t["rounds_played"]))
    byes = 0
    for rnd in t["rounds_played"]:
        shown = page.locator(f'.round[data-round="{rnd["round"]}"] .pairing')
        expect(shown).to_have_count(len(rnd["pairings"]))
        byes += sum(p["second"] is None for p in rnd["pairings"])
    assert byes >= 1  # five players, then three
    expect(page.locator(".pairing.bye")).to_have_count(byes)
    expect(page.locator(".pairing.bye").first).to_contain_text("a bye (1 point)")
    # The no-show lost its last game and is out; the bot that withdrew too. (A game where
    # the other bot, moving first, resigned at once was won without a move: played on.)
    no_show = bots[3].name
    *won, lost = [
        p
        for rnd in t["rounds_played"]
        for p in rnd["pairings"]
        if no_show in (p["first"], p["second"]) and p["game_id"]
    ]
    for p in won:
        assert p["result"] == (1 if p["first"] == no_show else 0), p
    assert lost["result"] == (0 if lost["first"] == no_show else 1), lost
    expect(
        page.locator(f'.pairing-link[data-game="{lost["game_id"]}"] .pairing-result')
    ).to_have_text("0–1" if lost["first"] == no_show else "1–0")
    for quitter in (bots[2].name, no_show):
        expect(page.locator(f'.t-entrant[data-player="{quitter}"] .withdrawn-tag')).to_have_text(
            "withdrew"
        )
    # The table: every player, the tie-breaks in their columns, the person's row marked.
    head = page.locator("#standings thead")
    expect(head).to_contain_text("Buchholz")
    expect(head).to_contain_text("Sonneborn-Berger")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(len(t["standings"]))
    for i, s in enumerate(t["standings"]):
        cells = rows.nth(i).locator("td")
        expect(rows.nth(i)).to_have_attribute("data-player", s["name"])
        expect(cells.nth(1)).to_have_text(f"{s['score']:g}")
        expect(cells.nth(2)).to_have_text(f"{s['buchholz']:g}")
        expect(cells.nth(3)).to_have_text(f"{s['sonneborn_berger']:g}")
    expect(page.locator(f'#standings tr.me[data-player="{name}"]')).to_have_count(1)
    shot(page, "tournament-finished")
    # The rounds' notifications are in the bell's list.
    page.click("#head-notes")
    expect(page.locator(".note-tournament").first).to_contain_text("Quick Swiss")
    shot(page, "tournament-notifications", full_page=False)
    assert not errors, errors
    page.context.close()
    with phone(browser) as small:
        small.goto(here)
        expect(small.locator("#standings tbody tr")).to_have_count(len(t["standings"]))
        assert_fits_a_phone(small)
        shot(small, "tournament-finished-phone")
    with phone(browser, locale="fa-IR") as small:
        small.goto(here)
        expect(small.locator(".round")).to_have_count(len(t["rounds_played"]))
        assert_fits_a_phone(small)
        shot(small, "fa-tournament-finished-phone")
    for bot in bots:
        bot.account.close()
    organiser.close()
