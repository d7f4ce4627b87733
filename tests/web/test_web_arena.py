"""An arena in the browser (docs/web.md "Tournaments"): a person creates an arena with the
list's form, two accounts join it over the API and play each other, the arena starts, the
person joins it while it runs, and her page goes to each of her games as she is paired (the
`tournament` notification says `arena: true`); during the game a line names the event, and
the end screen leads back to it ("Back to the tournament", no Rematch). Back on the event's
page she pauses and resumes, and the table (points, the flame of two wins in a row, each
game's mark) is the server's. On a laptop, a phone and in Persian. The arena is not waited
for to its end (the server's suite plays one to its end). Its own server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from tournament_fixtures import (
    EventPlayer,
    event,
    live_games,
    my_game,
    tournament_server,
)

from conftest import (
    TIMEOUT_MS,
    assert_fits_a_phone,
    person,
    phone,
    play_in_page,
    shot,
    watch_errors,
)
from server_fixtures import Account, ServerProcess, eventually

# A no-show takes 30 s here: the test looks at each page before it moves, and that is no absence.
NO_SHOW_SECONDS = 30
MINUTES = 5  # the arena runs on after the test: it is never waited for
BOT_GAME_SECONDS = 1.5  # how long the two accounts take over a game between themselves


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with tournament_server(tmp_path_factory.mktemp("arena-server"), NO_SHOW_SECONDS) as p:
        yield p


class Player(EventPlayer):
    """An account in the arena: against the other account, the one to move resigns after a
    moment; against the person, a few moves, then it resigns. ``rest``: it pauses (its game
    under way goes on)."""

    def __init__(self, server: ServerProcess, person: str) -> None:
        super().__init__(Account(server), person, between_players=BOT_GAME_SECONDS)
        self.rest = threading.Event()
        self.paused = False

    def look(self, t: dict[str, Any]) -> None:
        if self.rest.is_set() and not self.paused:
            r = self.account.http.post(f"/api/tournaments/{self.tournament_id}/pause")
            assert r.status_code == 200, r.text
            self.paused = True


def create_arena(page: Page, name: str, seconds: int) -> str:
    """Create an arena of MINUTES with the list's form, starting in ``seconds`` (a time
    chosen to the second: the shortest choice of the list, a minute, is too long to wait
    for here); its id."""
    page.click("#create-tournament")
    dialog = page.locator("dialog.tournament-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#tournament-name").fill(name)
    dialog.locator('label.seg:has(input[name="kind"][value="arena"])').click()
    expect(dialog.locator("#tournament-kind-help")).to_contain_text("Paired again as soon")
    expect(dialog.locator('input[name="rounds"]')).to_be_hidden()
    dialog.locator('input[name="minutes_long"]').fill(str(MINUTES))
    dialog.locator("#tournament-start-in").select_option("at")
    # The browser's local time, to the second (a whole minute would lose its seconds).
    at = page.evaluate(
        """(s) => {
          const d = new Date(Date.now() + s * 1000);
          if (d.getSeconds() === 0) d.setSeconds(1);
          d.setMilliseconds(0);
          return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19);
        }""",
        seconds,
    )
    dialog.locator("#tournament-start-at").fill(at)
    dialog.locator("#tournament-create").click()
    page.wait_for_url("**/tournaments/*")
    return page.url.rsplit("/", 1)[1]


def assert_table(page: Page, t: dict[str, Any]) -> None:
    """The arena's table on the page is the server's: order, points, games, the flame and
    each game's mark."""
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(len(t["arena_standings"]))
    letters = {1.0: "W", 0.5: "D", 0.0: "L"}
    for i, s in enumerate(t["arena_standings"]):
        row = rows.nth(i)
        expect(row).to_have_attribute("data-player", s["name"])
        cells = row.locator("td")
        expect(cells.nth(0)).to_have_text(str(s["place"]))
        expect(cells.nth(2)).to_have_text(str(s["games"]))
        expect(cells.nth(3)).to_have_text(str(s["points"]))
        expect(row.locator(".on-fire")).to_have_count(1 if s["on_fire"] else 0)
        expect(row.locator(".result-mark")).to_have_text([letters[r] for r in s["results"]])


def test_a_person_plays_in_an_arena(browser: Browser, server: ServerProcess) -> None:
    started = time.monotonic()
    page, name = person(browser, server, "Ari")
    errors = watch_errors(page)
    page.goto(f"{server.url}/tournaments")
    title = f"Arena {name[-4:]}"
    tid = create_arena(page, title, 6)
    expect(page.locator("#tournament-title")).to_have_text(title)
    expect(page.locator(".tournament-head")).to_contain_text(f"Arena, {MINUTES} minutes")
    expect(page.locator("#tournament-countdown")).to_contain_text("Starts in")
    made = event(server, tid)
    assert made["kind"] == "arena" and made["minutes"] == MINUTES and made["status"] == "open"
    # Two accounts join before the start and play each other as soon as it starts.
    players = [Player(server, name), Player(server, name)]
    for p in players:
        r = p.account.http.post(f"/api/tournaments/{tid}/join")
        assert r.status_code == 200, r.text
        p.tournament_id = tid
        p.start()
    try:
        here = page.url
        expect(page.locator(".page.tournament")).to_have_attribute(
            "data-status", "running", timeout=15_000
        )
        expect(page.locator("#tournament-countdown")).to_contain_text("Ends in")
        # She joins the running arena; when she is paired, the page goes to her game.
        page.click("#tournament-join")
        page.wait_for_url("**/play/*", timeout=15_000)
        gid = page.url.rsplit("/", 1)[1]
        mine = my_game(event(server, tid), name)
        assert mine is not None and mine[0] == gid, mine
        note = eventually(
            lambda: next(
                (
                    n["about"]
                    for n in page.request.get(f"{server.url}/api/notifications").json()[
                        "notifications"
                    ]
                    if n["about"].get("game_id") == gid
                ),
                None,
            )
        )
        assert note["kind"] == "tournament" and note["arena"] is True, note
        assert note["tournament_id"] == tid and note["tournament"] == title, note
        # During the game: a line under the bar names the event and leads to it.
        line = page.locator("#game-tournament")
        expect(line).to_have_text(f"Tournament: {title}")
        expect(line.locator("a")).to_have_attribute("href", f"/tournaments/{tid}")
        shot(page, "arena-game", full_page=False)
        play_in_page(page, server, gid, mine[1], 30)
        # The end screen: the way back to the event, and no rematch.
        back = page.locator("#tournament-link")
        expect(back).to_have_text("Back to the tournament")
        expect(back).to_have_attribute("href", f"/tournaments/{tid}")
        expect(page.locator("#end-tournament")).to_contain_text(title)
        expect(page.locator("#rematch, #accept-rematch")).to_have_count(0)
        expect(line).to_be_hidden()
        shot(page, "arena-game-end")
        first_game = gid

        # She is paired again at once: the end screen offers her next game first of all; a
        # second win puts her on fire.
        # (The event records the first game's result a moment after its end screen shows:
        # until then that game still reads as under way.)
        gid2, seat2 = eventually(
            lambda: (g := my_game(event(server, tid), name)) and g[0] != first_game and g,
            timeout=15,
        )
        for p in players:
            p.rest.set()  # the two pause: nobody is paired after this game
        following = page.locator("#next-tournament-game")
        expect(following).to_have_attribute("href", f"/play/{gid2}")
        expect(following).to_contain_text("Your next game, against")
        expect(following).to_be_in_viewport()
        shot(page, "arena-next-game", full_page=False)
        following.click()
        page.wait_for_url(f"**/play/{gid2}")
        play_in_page(page, server, gid2, seat2, 30)
        expect(page.locator("#tournament-link")).to_be_visible()
        page.click("#tournament-link")
        page.wait_for_url(here)

        # Everyone else paused and no game under way: the table stands still.
        t = eventually(
            lambda: (
                (v := event(server, tid))
                and all(x["paused"] for x in v["players"] if x["name"] != name)
                and not live_games(v)
                and v
            ),
            timeout=15,
        )
        for p in players:
            assert p.failure is None, p.failure
        # Pause and resume.
        page.click("#tournament-pause")
        expect(page.locator("#tournament-you")).to_have_text("You are paused.")
        expect(page.locator(f'.t-entrant.me[data-player="{name}"] .paused-tag')).to_have_text(
            "paused"
        )
        assert next(x for x in event(server, tid)["players"] if x["name"] == name)["paused"]
        page.click("#tournament-resume")
        expect(page.locator("#tournament-you")).to_have_text("You are in.")
        expect(page.locator(".t-entrant.me .paused-tag")).to_have_count(0)
        expect(page.locator("#tournament-pause")).to_be_visible()

        t = event(server, tid)
        assert t["status"] == "running"
        assert not next(x for x in t["players"] if x["name"] == name)["paused"]
        me = next(s for s in t["arena_standings"] if s["name"] == name)
        assert me["results"] == [1.0, 1.0] and me["on_fire"] and me["points"] == 4, me
        assert_table(page, t)
        expect(page.locator(f'#standings tr.me[data-player="{name}"] .on-fire')).to_be_visible()
        games = page.locator(".tournament-rounds .pairing")
        expect(games.first).to_be_visible()
        for gid_done in (first_game, gid2):
            expect(page.locator(f'.pairing-link[data-game="{gid_done}"]')).to_be_visible()
        shot(page, "arena-running")
        assert not errors, errors
    finally:
        for p in players:
            p.stop.set()
        for p in players:
            if p.is_alive():
                p.join(5)
    page.context.close()

    # A phone, signed out, and Persian: the same table, fitting the screen.
    with phone(browser) as small:
        small.goto(here)
        expect(small.locator("#standings tbody tr")).to_have_count(len(t["arena_standings"]))
        assert_fits_a_phone(small)
        shot(small, "arena-phone")
    with phone(browser, locale="fa-IR") as small:
        small.goto(here)
        expect(small.locator("html")).to_have_attribute("dir", "rtl")
        expect(small.locator("#standings tbody tr")).to_have_count(len(t["arena_standings"]))
        assert_fits_a_phone(small)
        shot(small, "fa-arena-phone")
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fa-IR")
    ctx.set_default_timeout(TIMEOUT_MS)
    fa = ctx.new_page()
    fa_errors = watch_errors(fa)
    fa.goto(here)
    expect(fa.locator("#standings tbody tr")).to_have_count(len(t["arena_standings"]))
    shot(fa, "fa-arena")
    # The end screen of her first game, in Persian: the way back, no rematch offered to anyone.
    fa.goto(f"{server.url}/play/{first_game}")
    expect(fa.locator("#tournament-link")).to_have_attribute("href", f"/tournaments/{tid}")
    expect(fa.locator("#end-tournament bdi")).to_have_text(title)
    shot(fa, "fa-arena-game-end")
    assert not fa_errors, fa_errors
    ctx.close()
    for p in players:
        p.account.http.close()
    assert time.monotonic() - started < 60, time.monotonic() - started
