"""Fixtures for the browser tests: a real server (uvicorn, SQLite) and Debian's Chromium
driven by Playwright, plus helpers that act as a person does (drag, keys, taps) and read
the game back from the server to know what is legal."""

from __future__ import annotations

import json
import os
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
pytest.register_assert_rewrite("server_fixtures", "mail_fixtures")

from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Page,
    Playwright,
    expect,
    sync_playwright,
)

import patchwork as pw  # noqa: E402
from server_fixtures import ServerProcess, fetch, legal_moves  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ENDLESS = 10_000  # more moves than any game has: random_moves plays to the end
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
# Screenshots to look at, taken when asked (`make shots`): a full-page picture costs the
# browser about a seventh of a web test's time, for pictures nobody opens in a plain run.
TAKE_SHOTS = os.environ.get("PATCHWORK_SHOTS") == "1"
TIMEOUT_MS = 30_000
# Assertions wait as long as actions do: a busy 2-core machine is slow, not wrong (a wait
# that succeeds costs only its own time; CI on a loaded machine has run past 15 s).
expect.set_options(timeout=TIMEOUT_MS)
SERVER_ARGS = (
    "--ai-workers",
    "1",
    "--grace",
    "2",
    "--hint-seconds",
    "0.2",
    "--board-seconds",
    "0.4",
    "--review-iterations",
    "200",
    "--review-burst",
    "0",  # the tests review many games from one address...
    "--seeks-per-minute",
    "0",  # ...and make many seeks
    "--http-rate",
    "0",
    "--ws-rate",
    "200",
    "--ws-burst",
    "200",
)


@contextmanager
def running_server(folder: Path, *extra: str) -> Iterator[ServerProcess]:
    """A server process with its SQLite database in ``folder``, stopped afterwards; ``extra``
    arguments after (and over) the tests' own."""
    proc = ServerProcess(f"sqlite:///{folder / 'games.db'}", folder, *SERVER_ARGS, *extra)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server of the test module's own (its accounts and games apart from the others')."""
    with running_server(tmp_path_factory.mktemp("own-server")) as proc:
        yield proc


PASSWORD = "quilted-squares-9"


def person(browser: Browser, server: ServerProcess, prefix: str, **kw: Any) -> tuple[Page, str]:
    """A new browser (context options ``kw``) signed up through the site's own form: its page
    and the account's name (``prefix`` and letters, so that no two tests share one)."""
    options: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}, "locale": "en-GB"}
    ctx = browser.new_context(**{**options, **kw})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = ctx.new_page()
    return page, signed_up(page, server, prefix)


def signed_up(page: Page, server: ServerProcess, prefix: str) -> str:
    """Sign the page up through the site's form as a new account: its name."""
    name = prefix + uuid.uuid4().hex[:8].replace("0", "a").replace("1", "b")
    page.goto(f"{server.url}/signup")
    page.fill("#field-name", name)
    page.fill("#field-password", PASSWORD)
    page.click("#signup-form-submit")
    expect(page.locator("#head-me")).to_contain_text(name)
    return name


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("web-server")) as proc:
        yield proc


# One Playwright (and one Chromium) per test module, not per session: while it runs, its
# event loop counts as running in this thread, and a later test's asyncio.run() would fail
# (a worker of `pytest -n` runs other modules after a web module).
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"the browser tests need Debian's Chromium at {CHROMIUM}: run `make browser` "
            "(or `sudo apt-get install chromium`); no browser is ever downloaded",
            pytrace=False,
        )
    b = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    ctx.set_default_timeout(TIMEOUT_MS)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    p = context.new_page()
    errors = watch_errors(p)
    yield p
    assert not errors, f"the page reported errors: {errors}"


@contextmanager
def phone(browser: Browser, locale: str = "en-GB") -> Iterator[Page]:
    """A page on a phone's touch screen, 390x844, that reports no errors (closed after)."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale=locale
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        yield page
        assert not errors, f"the page reported errors: {errors}"
    finally:
        ctx.close()


def assert_fits_a_phone(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"


def watch_errors(page: Page) -> list[str]:
    """Uncaught exceptions in the page; a test fails when there are any."""
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def shot(page: Page, name: str, full_page: bool = True) -> None:
    """The page as a person sees it, in ``SHOTS`` (only when ``TAKE_SHOTS``)."""
    if not TAKE_SHOTS:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


# -- games played over HTTP, and a seat kept as the start page keeps it ----------------------


def keep_seat(page: Page, gid: str, token: str, seat: int | None) -> None:
    """The seat's token in the browser's storage, as the start page keeps it."""
    seat_json = json.dumps({"token": token, "seat": seat})
    page.add_init_script(f"localStorage.setItem('patchwork.seat.{gid}', {json.dumps(seat_json)})")


def random_moves(
    server: ServerProcess, gid: str, token: str, g: dict[str, Any], n: int, seed: int | None = None
) -> Any:
    """Up to ``n`` random legal moves over HTTP (``seed``, default ``n``), fewer if the game
    ends: the token plays every move the game gives it (both seats of a game at one screen)."""
    rng = random.Random(n if seed is None else seed)
    for _ in range(n):
        if g["status"] != "active":
            break
        r = server.post(
            f"/api/games/{gid}/moves",
            {"move": rng.choice(legal_moves(g)), "version": g["version"]},
            token,
        )
        assert r.status_code == 200, r.text
        g = r.json()["game"]
    return g


def finished_game(server: ServerProcess, seed: int) -> tuple[str, dict[str, Any]]:
    """A game at one screen played to its end over HTTP with random legal moves."""
    created = server.create(mode="local", seed=seed, name="Ann", opponent_name="Bob")
    gid = created["game_id"]
    g = random_moves(server, gid, created["token"], created["game"], ENDLESS, seed)
    assert g["status"] == "finished"
    return gid, g


# -- reading the game ----------------------------------------------------------------------


def game_id(page: Page) -> str:
    path = page.url.split("#")[0].split("?")[0]
    assert "/play/" in path, page.url
    return path.rsplit("/", 1)[1]


def view(server: ServerProcess, gid: str) -> dict[str, Any]:
    r = fetch("GET", f"{server.url}/api/games/{gid}", timeout=10)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def placements(g: dict[str, Any]) -> dict[str, list[str]]:
    """Every legal buy or special patch of a view and the squares it covers, as the engine
    says (the page works them out from the view's compact ``legal`` itself)."""
    out = {}
    for move in legal_moves(g):
        squares = pw.parse_move(move).squares
        if squares:
            out[move] = [pw.square_name(r, c) for r, c in sorted(squares)]
    return out


def shown_version(page: Page) -> int:
    return int(page.get_attribute("main", "data-version") or -1)


def wait_version_above(page: Page, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('main').dataset.version || -1) > v", arg=version
    )


def wait_my_turn(page: Page, server: ServerProcess, gid: str, since: int = -1) -> dict[str, Any]:
    """Wait until it is the page's turn (or the game is over) at a version after ``since``
    (a move just sent may not have reached the server yet); the server's view then."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while time.monotonic() < deadline:
        g = view(server, gid)
        if g["version"] > since and (
            g["status"] == "finished"
            or (g["to_move"] is not None and g["seats"][g["to_move"]]["kind"] == "human")
        ):
            page.wait_for_function(
                "v => Number(document.querySelector('main').dataset.version || -1) >= v",
                arg=g["version"],
            )
            return g
        time.sleep(0.05)
    raise AssertionError("the AI did not move in time")


# -- acting ----------------------------------------------------------------------------------


def parse_square(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, "abcdefghi".index(name[0])


def cell_point(page: Page, seat_board: str, row: int, col: int) -> tuple[float, float]:
    """The centre on screen of square (row, col) of the active quilt board."""
    box = page.locator(f"{seat_board} svg.quilt").bounding_box()
    assert box is not None
    vb = page.evaluate(
        "sel => { const b = document.querySelector(sel).viewBox.baseVal;"
        " return [b.x, b.y, b.width, b.height]; }",
        f"{seat_board} svg.quilt",
    )
    x = box["x"] + (col * 10 + 5 - vb[0]) / vb[2] * box["width"]
    y = box["y"] + (row * 10 + 5 - vb[1]) / vb[3] * box["height"]
    return x, y


def turns_for(move: str) -> tuple[int, bool]:
    """R presses and whether F is needed for a move's orientation (r90 -> 1, False)."""
    orientation = move.split("@")[0].lstrip("0123456789")
    return int(orientation[1:]) // 90, orientation[0] == "f"


def pointer_cell(squares: list[str]) -> tuple[int, int]:
    """Where to hold the pointer so the patch covers ``squares``: the client centres the
    piece on the pointer (the bounding box's middle, rounded up-left)."""
    cells = [parse_square(s) for s in squares]
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    return r0 + (r1 - r0) // 2, c0 + (c1 - c0) // 2


def drag_move(
    page: Page,
    move: str,
    squares: list[str],
    board: str = ".board-focus.active",
    before_drop: Callable[[Page], None] | None = None,
) -> None:
    """Drag the patch of ``move`` from the offer onto the quilt, turning (R) and flipping
    (F) it on the way, and drop it (``before_drop`` sees the page while it is held there)."""
    patch = move.split("r")[0].split("f")[0]
    card = page.locator(f'.offer-card[data-patch="{patch}"]')
    box = card.bounding_box()
    assert box is not None
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 20, y0 + 20, steps=3)
    turns, flip = turns_for(move)
    if flip:
        page.keyboard.press("f")
    for _ in range(turns):
        page.keyboard.press("r")
    row, col = pointer_cell(squares)
    x, y = cell_point(page, board, row, col)
    page.mouse.move(x, y, steps=8)
    page.wait_for_selector('#place-status[data-kind="fits"]')
    if before_drop is not None:
        before_drop(page)
    page.mouse.up()


def keyboard_place(page: Page, card_selector: str, squares: list[str], move: str | None) -> None:
    """Pick a piece with Enter, turn/flip it with R/F, walk it with the arrow keys from
    where it starts to the target, and sew it on with Enter."""
    if not page.evaluate(
        "sel => document.activeElement === document.querySelector(sel)", card_selector
    ):
        page.focus(card_selector)
    page.keyboard.press("Enter")
    if move is not None and "@" in move and not move.startswith("S@"):
        turns, flip = turns_for(move)
        if flip:
            page.keyboard.press("f")
        for _ in range(turns):
            page.keyboard.press("r")
    assert page.evaluate("document.activeElement.classList.contains('board-focus')")
    # The preview's top-left square is the anchor: step from there to the target's.
    cells = [parse_square(s) for s in squares]
    tr, tc = min(r for r, _ in cells), min(c for _, c in cells)
    for _ in range(20):
        anchor = page.evaluate(ANCHOR_JS)
        dr, dc = tr - anchor[0], tc - anchor[1]
        if dr == 0 and dc == 0:
            break
        if dr:
            page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
        if dc:
            page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    page.wait_for_selector('#place-status[data-kind="fits"]')
    page.keyboard.press("Enter")


# The previewed patch's top-left square (row, col), read from the board overlay.
ANCHOR_JS = """() => {
  const cells = [...document.querySelectorAll('.board-focus.active .overlay rect')];
  const xs = cells.map(c => +c.getAttribute('x'));
  const ys = cells.map(c => +c.getAttribute('y'));
  return [Math.min(...ys) / 10, Math.min(...xs) / 10];
}"""


def advance(page: Page) -> None:
    """Advance, confirming where the page asks first (its first games: docs/web.md)."""
    page.click("#advance")
    if page.locator("dialog.confirm[open]").count():
        page.click("#confirm-ok")


def start_game(
    page: Page,
    server: ServerProcess,
    mode: str = "ai",
    level: int = 1,
    name: str = "Ann",
    seed: int = 7,
) -> str:
    """Start a game from the start screen (a fixed circle: `/?seed=`); its id."""
    page.goto(f"{server.url}/?seed={seed}")
    page.check(f'input[name="mode"][value="{mode}"]')
    if mode == "ai":
        page.check(f'input[name="level"][value="{level}"]')
    page.fill('input[name="name"]', name)
    page.click("#start-game")
    page.wait_for_selector("main[data-version]")
    return game_id(page)


def play_in_page(page: Page, server: ServerProcess, gid: str, seat: int, timeout: float) -> None:
    """The person plays her game in the page until it ends (she advances; a special patch is
    placed with the keys), the other side answering as it will."""
    seen = -1
    deadline = time.monotonic() + timeout
    while True:
        g = view(server, gid)
        if g["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the game did not end"
        if g["to_move"] == seat and g["version"] > seen and shown_version(page) >= g["version"]:
            if g["pending_specials"]:
                square = legal_moves(g)[0].split("@")[1]
                keyboard_place(page, ".offer-card.special", [square], None)
            else:
                expect(page.locator("#headline")).to_have_text("Your turn")
                advance(page)
            seen = g["version"]
        else:
            time.sleep(0.05)
    expect(page.locator("#end-screen")).to_be_visible()
