"""The full-screen game, played the way a person plays it: keys and clicks through Textual's
pilot, on an 80x24 screen. The moves a person 'chooses' are taken from the engine's legal
moves; the app is only ever driven through its keys and the mouse."""

from __future__ import annotations

import asyncio
import io
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import RichLog

import patchwork as pw
from patchwork import i18n
from patchwork.ai import Limit, MCTSAgent
from patchwork.tui.app import PatchworkApp, build_parser, setup
from patchwork.tui.game_screen import GameScreen
from patchwork.tui.options import AppOptions
from patchwork.tui.placement import Ghost, mirrored, rotated
from patchwork.tui.quilt import CELL, HEADER_ROWS, LABEL_WIDTH
from patchwork.tui.screens import (
    ConfirmScreen,
    EndScreen,
    NewGameScreen,
    PathScreen,
    mode_options,
)
from patchwork.tui.seats import Seat, make_seats
from patchwork.tui.session import Session, advance_only_end
from test_i18n import catalog

SIZE = (80, 24)
OUT = Path(__file__).resolve().parent.parent / "test-output"
Run = Callable[[Pilot[None], PatchworkApp], Awaitable[None]]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def make_app(
    kinds: tuple[str, str] = ("human", "level1"),
    seed: int = 3,
    state: pw.State | None = None,
    **options: object,
) -> PatchworkApp:
    start = pw.new_game(seed=seed) if state is None else state
    session = Session(pw.Game(start), make_seats(kinds, seed))
    settings = AppOptions(rules=start.rules, seed=seed, **options)  # type: ignore[arg-type]
    return PatchworkApp(session, settings)


def play(app: PatchworkApp, script: Run, wait: bool = True, size: tuple[int, int] = SIZE) -> None:
    """Run the app on an 80x24 screen (or ``size``) and drive it with ``script`` (once the
    agents have made their first moves, when ``wait``)."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            if wait:
                await settle(pilot, app)
            await script(pilot, app)

    asyncio.run(main())


def screen_text(app: PatchworkApp) -> str:
    """The screen as plain text, exactly as drawn (what an SVG screenshot shows)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def log_text(app: PatchworkApp) -> str:
    """Everything written to the game's log (also what has scrolled out of sight)."""
    log = app.game_screen.query_one("#log", RichLog)
    return "\n".join(line.text for line in log.lines)


def keep_screenshot(app: PatchworkApp, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    app.save_screenshot(f"{name}.svg", path=str(OUT))
    (OUT / f"{name}.txt").write_text(screen_text(app), encoding="utf-8")


async def settle(pilot: Pilot[None], app: PatchworkApp) -> None:
    """Wait until no agent (nor hint) is thinking and every message is handled."""
    screen = app.game_screen
    for _ in range(2000):
        await pilot.pause()
        if screen.thinking is None and screen.hinting is None:
            await pilot.pause()
            if screen.thinking is None and screen.hinting is None:
                return
        await app.workers.wait_for_complete()
    raise AssertionError("the agents never finished thinking")


def game_screen(app: PatchworkApp) -> GameScreen:
    return app.game_screen


def key_path(session: Session, move: pw.Buy) -> list[str]:
    """The keys a person presses to put the held patch on ``move``: mirror and turn it as
    needed (each key keeps the patch on the board), then walk it there with the arrows."""
    held = session.ghost
    assert held is not None and held.patch_id == move.patch_id
    target = Ghost(move.patch_id, move.orientation).cells
    for flips in (0, 1):
        for turns in range(4):
            ghost, keys = held, ["f"] * flips + ["r"] * turns
            for key in keys:
                change = mirrored if key == "f" else rotated
                ghost = ghost.turned(change(ghost.orientation))
            if ghost.cells == target:
                d_row, d_col = move.row - ghost.row, move.col - ghost.col
                keys += ["down" if d_row > 0 else "up"] * abs(d_row)
                keys += ["right" if d_col > 0 else "left"] * abs(d_col)
                return keys
    raise AssertionError(f"cannot turn the held patch into {move}")


async def buy_with_keys(pilot: Pilot[None], app: PatchworkApp, move: pw.Buy) -> None:
    session = app.game_screen.session
    slot = session.state.offered.index(move.patch_id)
    await pilot.press(str(slot + 1))
    await pilot.press(*key_path(session, move))
    assert session.ghost is not None and session.ghost.move == move
    await pilot.press("enter")


async def special_with_keys(pilot: Pilot[None], app: PatchworkApp, move: pw.PlaceSpecial) -> None:
    ghost = app.game_screen.session.ghost
    assert ghost is not None and ghost.is_special
    d_row, d_col = move.row - ghost.row, move.col - ghost.col
    keys = ["down" if d_row > 0 else "up"] * abs(d_row)
    keys += ["right" if d_col > 0 else "left"] * abs(d_col)
    await pilot.press(*keys, "enter")


async def advance_with_keys(pilot: Pilot[None], app: PatchworkApp) -> None:
    """``a``, then Enter where the table asks first (a person's first games; never the lessons)."""
    table = app.screen
    assert isinstance(table, GameScreen)
    asks = table.asks_before_advancing()
    await pilot.press("a")
    assert isinstance(app.screen, ConfirmScreen) == asks
    if asks:
        await pilot.press("enter")


async def human_move(pilot: Pilot[None], app: PatchworkApp, move: pw.Move) -> None:
    """Make ``move`` the way a person does: keys only."""
    if isinstance(move, pw.Buy):
        await buy_with_keys(pilot, app, move)
    elif isinstance(move, pw.PlaceSpecial):
        await special_with_keys(pilot, app, move)
    else:
        await advance_with_keys(pilot, app)


def pick_move(session: Session, rng: random.Random, buy_share: float = 0.7) -> pw.Move:
    """A legal move a person might make (from the engine's list): a special patch when one
    must be placed, else mostly a buy within a few key presses of where the patch is picked
    up, of a patch that takes long (so the game, and the test, stay short), sometimes an
    advance."""
    legal = session.legal_moves()
    specials = [m for m in legal if isinstance(m, pw.PlaceSpecial)]
    if specials:
        return rng.choice(specials)
    buys = [m for m in legal if isinstance(m, pw.Buy)]
    if not buys or rng.random() >= buy_share:
        return pw.Advance()
    saved = session.ghost
    try:
        near = []
        for move in rng.sample(buys, min(len(buys), 40)):
            session.select(move.patch_id)
            if len(key_path(session, move)) <= 3:
                near.append(move)
        if not near:
            return rng.choice(buys)
        longest = max(pw.PATCHES[m.patch_id].time for m in near)
        return rng.choice([m for m in near if pw.PATCHES[m.patch_id].time == longest])
    finally:
        session.ghost = saved


async def click_square(pilot: Pilot[None], player: int, row: int, col: int) -> None:
    await pilot.click(f"#quilt{player}", offset=(LABEL_WIDTH + CELL * col, HEADER_ROWS + row))


# -- a whole game -------------------------------------------------------------------------


def test_whole_game_against_level_1_by_keys(tmp_path: Path) -> None:
    rng = random.Random(5)
    seen: dict[str, int] = {"buy": 0, "advance": 0, "special": 0, "ai": 0}

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        screen = game_screen(app)
        session = screen.session
        keep_screenshot(app, "tui-start")
        start = screen_text(app)
        assert "Your move" in start and "AI level 1" in start
        for _turn in range(200):
            if session.state.is_terminal():
                break
            assert session.human_to_move, "the AI's turn should have been played"
            before = len(session.game)
            move = pick_move(session, rng)
            await human_move(pilot, app, move)
            assert session.game.moves[before] == move
            kind = {pw.Buy: "buy", pw.PlaceSpecial: "special"}.get(type(move), "advance")
            seen[kind] += 1
            movers = session.game.movers()
            seen["ai"] += movers[before + 1 :].count(1)
            await settle(pilot, app)
            if len(session.game) == 12:
                keep_screenshot(app, "tui-midgame")
        assert session.state.is_terminal()
        assert isinstance(app.screen, EndScreen)
        keep_screenshot(app, "tui-end")
        end = screen_text(app)
        scores = session.state.scores()
        winner = session.state.winner()
        assert f"= {scores[0]}" in end and f"= {scores[1]}" in end
        assert (
            ("You win by" in end or "AI level 1 wins by" in end) if scores[0] != scores[1] else True
        )
        assert "You wins" not in end
        assert winner is not None
        # Escape looks at the final boards; e brings the scores back.
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        assert "The game is over" in screen_text(app)
        await pilot.press("e")
        assert isinstance(app.screen, EndScreen)
        await pilot.press("q")

    app = make_app(seed=11)
    play(app, script)
    assert seen["buy"] >= 3 and seen["advance"] >= 1 and seen["ai"] >= 5
    record = app.session.record()
    assert record.result is not None and record.result["termination"] == "finished"
    replayed = pw.Game.from_record(record)
    assert replayed.state == app.session.state


def test_end_screen_explains_the_tie_break() -> None:
    # Both on the final space with equal scores; player 1 got there first and wins.
    quilt = "9/9/9/9/9/9/9/9/9"
    text = f"revised:rf 1,2,3,0 53,20,0,{quilt} 53,20,0,{quilt} 0 - 1 - -"
    state = pw.State.from_text(text)
    assert state.is_terminal() and state.winner() == 1

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert isinstance(app.screen, EndScreen)
        shown = screen_text(app)
        assert "Game over: AI level 1 wins!" in shown
        assert "You: 20 + 0 - 2 x 81 = -142" in shown
        assert "AI level 1: 20 + 0 - 2 x 81 = -142" in shown
        # The sentence may wrap (at a space) in the dialog: read the dialog's words.
        inside = [ln[ln.index("│") + 1 : ln.rindex("│")] for ln in shown.splitlines() if "│" in ln]
        words = " ".join(" ".join(inside).split())
        assert "Tied on -142: AI level 1 wins the tie-break, having reached space 53 first." in (
            words
        )
        keep_screenshot(app, "tui-tie")

    play(make_app(state=state), script)


def test_watching_two_agents_plays_to_the_end() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        for _ in range(300):
            await settle(pilot, app)
            if isinstance(app.screen, EndScreen):
                break
        assert app.session.state.is_terminal()
        text = screen_text(app)
        assert "wins" in text
        await pilot.press("escape", "u")  # nothing to take back when only agents played
        assert app.session.state.is_terminal()
        assert "Nothing to take back" in screen_text(app)

    play(make_app(("level1", "level2"), seed=4, delay=0.0), script)


def test_pause_while_watching() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("space")
        await settle(pilot, app)
        paused_at = len(app.session.game)
        await pilot.pause(0.1)
        await settle(pilot, app)
        assert len(app.session.game) == paused_at
        assert "Paused" in screen_text(app)
        await pilot.press("space")
        for _ in range(100):
            await pilot.pause(0.02)
            if len(app.session.game) > paused_at:
                break
        assert len(app.session.game) > paused_at
        await pilot.press("space")

    play(make_app(("level1", "level1"), seed=2, delay=0.05), script, wait=False)


# -- placing ------------------------------------------------------------------------------


def test_placing_with_rotation_and_flip() -> None:
    # Patch 30 (.# / .# / ## / #.) has no symmetry: its eight orientations all differ.
    circle = [30, *[i for i in range(1, 33) if i != 30], 0]
    state = pw.new_game(circle=circle)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        await pilot.press("1")
        ghost = session.ghost
        assert ghost is not None and ghost.patch_id == 30 and ghost.orientation == 0
        assert ghost.squares == {(0, 1), (1, 1), (2, 0), (2, 1), (3, 0)}
        await pilot.press("r")  # a quarter turn clockwise: ##.. / .###
        assert session.ghost is not None and session.ghost.orientation == 1
        assert session.ghost.squares == {(0, 0), (0, 1), (1, 1), (1, 2), (1, 3)}
        assert session.ghost.squares == pw.Buy(30, 1, 0, 0).squares
        await pilot.press("f")  # mirrored left-right as shown: ..## / ###.
        assert session.ghost is not None and session.ghost.orientation == 7
        assert session.ghost.squares == {(0, 2), (0, 3), (1, 0), (1, 1), (1, 2)}
        lines = screen_text(app).splitlines()
        assert "30f270@a1" in "\n".join(lines)
        quilt = [line[:20] for line in lines[4:15]]  # title, letters, rows 1-9
        assert quilt[2][2:10] == "+ + [][]" and quilt[3][2:10] == "[][][]+ "
        await pilot.press("down", "down", "right", "right", "right")
        assert session.ghost is not None and (session.ghost.row, session.ghost.col) == (2, 3)
        keep_screenshot(app, "tui-placing")
        await pilot.press("enter")
        await settle(pilot, app)
        move = session.game.moves[0]
        assert str(move) == "30f270@d3"
        assert session.state.players[0].quilt.squares == pw.Buy(30, 7, 2, 3).squares
        assert "You bought patch 30 (30f270@d3)." in log_text(app)

    play(make_app(state=state), script)


def test_placing_with_the_mouse() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        slot, pid = next(
            (i, pid) for i, pid in enumerate(session.state.offered) if pid in session.buyable()
        )
        await pilot.click(f"#card{slot}")
        assert session.ghost is not None and session.ghost.patch_id == pid
        await click_square(pilot, 0, 4, 4)
        ghost = session.ghost
        assert ghost is not None
        expected = Ghost(pid, ghost.orientation).at(4, 4)
        assert (ghost.row, ghost.col) == (expected.row, expected.col)
        await click_square(pilot, 0, expected.row, expected.col)  # the same square again
        await settle(pilot, app)
        assert session.game.moves[0] == expected.move
        assert session.state.players[0].quilt.squares == expected.squares

    play(make_app(seed=8), script)


def test_an_illegal_placement_is_refused_with_the_reason() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        first = next(
            m for m in session.legal_moves() if isinstance(m, pw.Buy) and m.squares & {(0, 0)}
        )
        await buy_with_keys(pilot, app, first)
        await settle(pilot, app)
        assert session.human_to_move
        covered = session.state.players[0].quilt.squares
        before = session.state
        # Pick up a patch that can be bought and drag it over the patch already sewn on.
        slot = next(i for i, pid in enumerate(session.state.offered) if pid in session.buyable())
        await pilot.press(str(slot + 1))
        await pilot.press(*["up"] * 9, *["left"] * 9)
        ghost = session.ghost
        assert ghost is not None and ghost.squares & covered
        assert not session.state.is_legal(ghost.move)
        await pilot.press("enter")
        assert session.state == before  # nothing happened
        text = screen_text(app)
        assert "It does not fit there" in text and "overlap" in text
        assert "XX" in text  # the overlapping squares are marked
        keep_screenshot(app, "tui-refused")
        # Where it does fit, Enter sews it on.
        await pilot.press("n", "enter")
        await settle(pilot, app)
        assert len(session.game) > 2

    play(make_app(seed=6), script)


def test_a_patch_you_cannot_pay_for_is_shown_and_refused() -> None:
    circle = [22, 8, 13, *[i for i in range(1, 33) if i not in (22, 8, 13)], 0]

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        text = screen_text(app)
        assert text.count("can't pay") == 3  # costs 10, 6 and 7 against 5 buttons
        await pilot.press("1")
        assert app.session.ghost is None
        assert "costs 10 buttons" in screen_text(app)

    play(make_app(state=pw.new_game(circle=circle)), script)


def test_no_rotation_rules_refuse_turning() -> None:
    rules = pw.Rules(rotation=False, flip=False)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("1", "r")
        assert app.session.ghost is not None and app.session.ghost.orientation == 0
        assert "do not allow turning" in screen_text(app)
        await pilot.press("f")
        assert "do not allow mirroring" in screen_text(app)

    play(make_app(state=pw.new_game(seed=3, rules=rules)), script)


def test_special_patch_is_placed_like_a_patch() -> None:
    # Player 0 on 25, player 1 on 30: advancing to 31 crosses the special patch on 26.
    quilt = "9/9/9/9/9/9/9/9/9"
    text = f"revised:rf 1,2,3,4,5,6,7,8,9,10,0 25,5,0,{quilt} 30,5,0,{quilt} 0 - - - 26,32,38,44,50"
    state = pw.State.from_text(text)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        await pilot.press("a", "enter")
        await settle(pilot, app)
        assert session.state.pending_specials == 1 and session.human_to_move
        ghost = session.ghost
        assert ghost is not None and ghost.is_special
        assert "must place a special patch" in screen_text(app)
        await pilot.press("right", "down", "enter")
        await settle(pilot, app)
        assert str(session.game.moves[1]) == "S@b2"
        assert session.state.players[0].quilt.squares == {(1, 1)}

    play(make_app(state=state), script)


# -- advancing, undo, hints ---------------------------------------------------------------


def test_advance_asks_first_and_shows_the_buttons() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        await pilot.press("1")  # pick up a patch...
        await pilot.press("escape")  # ...and put it down again
        assert session.ghost is None
        await pilot.press("a")
        assert isinstance(app.screen, ConfirmScreen)
        assert "+1 button" in screen_text(app)  # from 0 to 1, past the opponent on 0
        await pilot.press("escape")
        assert len(session.game) == 0 and isinstance(app.screen, GameScreen)
        await pilot.press("a", "y")
        await settle(pilot, app)
        assert session.game.moves[0] == pw.Advance()
        assert session.state.players[0].buttons == 6

    play(make_app(seed=3), script)


def test_undo_against_the_ai() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        start = session.state
        await pilot.press("u")
        assert "Nothing to take back" in screen_text(app)
        move = next(m for m in session.legal_moves() if isinstance(m, pw.Buy))
        await buy_with_keys(pilot, app, move)
        await settle(pilot, app)
        assert session.human_to_move and len(session.game) >= 2  # the AI has answered
        after_reply = session.state
        await pilot.press("u")
        await settle(pilot, app)
        assert session.state == start and len(session.game) == 0
        assert "Took back" in screen_text(app)
        # Playing the same move again, the (seeded) game goes on from there.
        await buy_with_keys(pilot, app, move)
        await settle(pilot, app)
        assert session.state.players[0] == after_reply.players[0]

    play(make_app(seed=9), script)


def test_undo_between_two_people_takes_back_one_move() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        await pilot.press("a", "enter")
        await pilot.press("a", "enter")
        assert len(session.game) == 2 and "Player 1" in screen_text(app)
        assert "Player 0" not in screen_text(app)
        await pilot.press("u")
        assert len(session.game) == 1 and session.player == 1

    play(make_app(("human", "human"), seed=1), script)


def test_hint_shows_the_suggestion_and_its_evaluation() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("h")
        await settle(pilot, app)
        text = screen_text(app)
        assert "Hint:" in text and "win chance" in text and "margin" in text
        ghost = app.session.ghost
        notice = str(game_screen(app).notice)
        assert ghost is None or str(ghost.move) in notice
        if ghost is not None:  # the suggestion is held, ready to sew on
            await pilot.press("enter")
            await settle(pilot, app)
            assert len(app.session.game) >= 1

    play(make_app(seed=3, hint_time=0.05), script)


def test_quitting_while_the_ai_thinks_is_prompt() -> None:
    slow = MCTSAgent(limit=Limit(time=30.0), seed=1, name="slow")
    session = Session(
        pw.Game(pw.new_game(seed=2)),
        (Seat("mcts", "slow", slow), Seat("human", "human")),
    )
    app = PatchworkApp(session, AppOptions(seed=2))
    elapsed = 0.0

    async def main() -> None:
        nonlocal elapsed
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause(0.3)
            assert app.game_screen.thinking is not None
            assert "thinking" in screen_text(app)
            started = time.monotonic()
            await pilot.press("q")
        elapsed = time.monotonic() - started

    asyncio.run(main())
    assert elapsed < 5.0
    assert len(session.game) == 0  # the interrupted search played nothing


def test_a_timed_ai_thinks_on_your_time() -> None:
    """Against a searcher set in seconds the AI ponders while you think, keeps what it found
    for its move, and stops when you move or quit; levels set in iterations never ponder."""
    timed = MCTSAgent(limit=Limit(time=0.2), seed=1, name="timed")
    session = Session(
        pw.Game(pw.new_game(seed=3)),
        (Seat("human", "human"), Seat("mcts", "timed", timed)),
    )
    app = PatchworkApp(session, AppOptions(seed=3))
    workers = []

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.game_screen
            await pilot.pause(1.0)
            assert screen.pondering is not None and screen.thinking is None
            workers.append(screen.pondering)
            await pilot.press("a", "y")  # the AI's turn: it stops pondering and moves
            await settle(pilot, app)
            assert workers[0].is_finished
            assert len(session.game) >= 2 and session.state.current_player == 0
            await pilot.pause(0.5)  # your turn again: it ponders again, till you quit
            assert screen.pondering is not None and screen.pondering is not workers[0]
            workers.append(screen.pondering)
            await pilot.press("q")

    asyncio.run(main())
    assert all(worker.is_finished for worker in workers)
    assert timed._tree is not None
    visits = int(timed._tree.visits[timed._tree.root])
    time.sleep(0.3)
    assert int(timed._tree.visits[timed._tree.root]) == visits  # no search goes on

    async def level11(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.pause(0.3)
        assert app.game_screen.pondering is None  # set in iterations: it never ponders

    play(make_app(("human", "level11"), seed=3), level11)


# -- records ------------------------------------------------------------------------------


async def type_path(pilot: Pilot[None], path: str) -> None:
    await pilot.press("home", "ctrl+k", *path, "enter")


def test_save_and_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    saved: list[pw.State] = []

    async def first(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        rng = random.Random(1)
        for _ in range(3):
            await human_move(pilot, app, pick_move(session, rng))
            await settle(pilot, app)
        await pilot.press("s")
        assert isinstance(app.screen, PathScreen)
        await type_path(pilot, "g.json")
        assert isinstance(app.screen, GameScreen)
        assert "Saved the game record to g.json" in screen_text(app)
        await pilot.press("s")
        await type_path(pilot, "g.txt")
        saved.append(session.state)
        # A bad file is refused inside the dialog, which stays open.
        Path("bad.json").write_text("{not json", encoding="utf-8")
        await pilot.press("l")
        await type_path(pilot, "bad.json")
        assert isinstance(app.screen, PathScreen)
        assert "Cannot load bad.json" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)

    play(make_app(seed=12), first)
    record = pw.Record.load(tmp_path / "g.json")
    assert pw.Game.from_record(record).state == saved[0]
    assert pw.Game.from_record(pw.Record.load(tmp_path / "g.txt")).state == saved[0]
    assert record.players == ("Player 1", "level1") and record.seats == ("human", "level1")

    async def second(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert len(app.session.game) == 0
        await pilot.press("l")
        await type_path(pilot, "g.txt")
        await settle(pilot, app)
        assert app.session.state == saved[0]
        assert "Loaded g.txt" in screen_text(app)
        # The loaded game goes on: the person can play, undo works on it.
        await pilot.press("u")
        await settle(pilot, app)
        assert len(app.session.game) < len(record.moves)

    play(make_app(seed=12), second)


def test_new_game_dialog_changes_the_opponent() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("N")
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("down", "down", "enter")  # "You against AI level 3"
        await settle(pilot, app)
        assert isinstance(app.screen, GameScreen)
        assert app.session.seats[1].kind == "level3"
        assert "AI level 3" in screen_text(app)
        assert "You against AI level 3" in mode_options(0)[2][0]

    play(make_app(seed=1), script)


# -- looks ---------------------------------------------------------------------------------


def test_everything_shows_at_80x24() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        text = screen_text(app)
        lines = text.splitlines()
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        state = session.state
        for pid in state.offered:  # the three patches on offer, with their numbers
            patch = pw.PATCHES[pid]
            assert f"#{pid}" in text
            assert f"cost {patch.buttons}" in text and f"time {patch.time}" in text
        assert "◉" in text  # the neutral token before them
        assert text.count("▼") == 1 and text.count("▲") == 1  # both time tokens
        assert text.count("■") == len(state.special_spaces_left)
        assert text.count("●") == 9  # income marks
        assert "buttons   5" in text and "income    0" in text
        assert text.count("score now –") == 2  # no score before a patch is sewn on
        end = advance_only_end(state).scores()
        assert f"end ≈     {end[0]}" in text and f"end ≈     {end[1]}" in text
        assert "Your move: you are the start player" in text
        await pilot.press("question_mark")
        assert "Keys and mouse" in screen_text(app)
        await pilot.press("escape")

    play(make_app(seed=3), script)


def test_texts_go_through_the_language_layer(tmp_path: Path) -> None:
    root = catalog(
        tmp_path, "fi", {"Hint": "Vihje", "The game is over.": "Peli on ohi.", "Quit": "Lopeta"}
    )
    i18n.set_language("fi", localedir=root)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        text = screen_text(app)
        assert "Vihje" in text and "Lopeta" in text
        assert "Advance" in text  # not translated in this catalog: English source text

    play(make_app(seed=3), script)


def test_command_line_options() -> None:
    args = build_parser().parse_args(["--opponent", "level4", "--seat", "1", "--seed", "5"])
    session, options = setup(args)
    assert [s.kind for s in session.seats] == ["level4", "human"]
    assert options.human_seat == 1 and session.state == pw.new_game(seed=5)
    args = build_parser().parse_args(["--agents", "level1", "level2", "--no-flip", "--lang", "fi"])
    session, options = setup(args)
    assert session.mode == "watch" and not options.rules.flip and args.lang == "fi"
    help_text = build_parser().format_help()
    assert "--plain" in help_text and "--load" in help_text and "--lang" in help_text
