"""Solo Patchwork against Automa in the full-screen app, played through Textual's pilot on
an 80x24 screen: Automa's side of the table, its turns said like an opponent's, undo, the
hint, save and --load (full-screen and plain), and the end screen's scores by the level's
columns. What the screen should say is read from the engine (``State.automa``,
``State.automa_replies``) and from the words of tui/solo.py."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len
from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import RichLog

import patchwork as pw
from patchwork import i18n
from patchwork.ai.levels import DEFAULT_LEVEL
from patchwork.engine.automa import Automa
from patchwork.tui import colours, panels, solo, text
from patchwork.tui.app import PatchworkApp, build_parser, main, setup
from patchwork.tui.game_screen import GameScreen
from patchwork.tui.options import AppOptions
from patchwork.tui.quilt import PLAYER_COLOURS
from patchwork.tui.screens import EndScreen, NewGameScreen, PathScreen
from patchwork.tui.seats import AUTOMA, HUMAN, game_record, make_seats
from patchwork.tui.session import Session
from patchwork.tui.timeboard import MARKER, NAME_WIDTH, TimeBoard
from test_tui_app import (
    buy_with_keys,
    keep_screenshot,
    log_text,
    make_app,
    play,
    screen_text,
    settle,
    type_path,
)


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def solo_app(*argv: str) -> PatchworkApp:
    """The app as ``patchwork play --solo ...`` starts it (hint searches kept short)."""
    session, options = setup(build_parser().parse_args([*argv, "--hint-time", "0.05"]))
    return PatchworkApp(session, options)


def first_buy(session: Session) -> pw.Buy:
    return next(m for m in session.legal_moves() if isinstance(m, pw.Buy))


async def advance(pilot: Pilot[None], app: PatchworkApp) -> None:
    await pilot.press("a", "enter")
    await settle(pilot, app)


def automa_line(app: PatchworkApp) -> str:
    """Automa's line of the time board (the third), as drawn."""
    return screen_text(app).splitlines()[3]


def check_fits(app: PatchworkApp) -> None:
    lines = screen_text(app).splitlines()
    width, height = app.size
    assert len(lines) == height and all(cell_len(line) <= width for line in lines)


# -- starting ------------------------------------------------------------------------------


def test_solo_opens_the_full_screen_game() -> None:
    session, options = setup(build_parser().parse_args(["--solo", "3", "--seed", "5"]))
    assert [s.kind for s in session.seats] == [HUMAN, AUTOMA]
    assert options.rules.solo == Automa(3, "normal") and session.state.automa is not None
    assert session.mode == "versus" and session.human_to_move
    # The deck, the seed and the rules options reach the game; the seats are not to choose.
    session, _options = setup(
        build_parser().parse_args(["--solo", "5", "--deck", "tactical", "--no-flip"])
    )
    assert session.state.rules.solo == Automa(5, "tactical") and not session.state.rules.flip
    for extra in (["--opponent", "level1"], ["--seat", "1"], ["--agents", "level1", "level2"]):
        with pytest.raises(pw.PatchworkError, match="leave out --opponent"):
            setup(build_parser().parse_args(["--solo", "3", *extra]))
    assert "--solo" in build_parser().format_help() and "--deck" in build_parser().format_help()


def test_the_command_no_longer_sends_solo_to_the_plain_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--solo", "3"]) == 2  # under pytest there is no terminal to draw on
    err = capsys.readouterr().err
    assert "needs a terminal" in err and "solo play is in the plain game" not in err
    assert main(["--solo", "9"]) == 2  # a level that does not exist: argparse says so
    assert "invalid choice" in capsys.readouterr().err


def test_automas_side_shows_what_the_person_may_know() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        check_fits(app)
        shown = screen_text(app)
        view = session.state.automa
        assert view is not None and view.marker == 41
        for words in ("Automa", "level 3, Fellow", "tactical deck", "no card played yet"):
            assert words in shown
        assert f"next budget {view.next_budget}" in shown
        assert "with buttons: none" in shown and "without buttons:" in shown
        assert "end ≈" in shown and shown.count("end ≈") == 1  # the person's only (D6)
        # The 7x7 marker on Automa's line of the time board, at its space.
        assert automa_line(app)[NAME_WIDTH + 41] == MARKER
        keep_screenshot(app, "tui-solo-start")

        await buy_with_keys(pilot, app, first_buy(session))
        await settle(pilot, app)
        view = session.state.automa
        assert view is not None and view.card is not None
        card = view.card
        shown = screen_text(app)
        assert f"card {card.number}: budget {card.budget}" in shown
        for line in solo.filter_lines(card):
            assert line in shown
        ids = " ".join(str(x) for x in view.with_buttons) or "none"
        assert f"with buttons: {ids}" in shown
        assert f"buttons     {view.buttons}" in shown
        assert f"income      {card.income}" in shown
        assert f"score now   {session.state.scores()[1]}" in shown
        assert f"next budget {view.next_budget}" in shown
        check_fits(app)

    play(solo_app("--solo", "3", "--deck", "tactical", "--seed", "5"), script)


def test_the_normal_deck_shows_no_next_budget() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await buy_with_keys(pilot, app, first_buy(app.session))
        await settle(pilot, app)
        shown = screen_text(app)
        assert "normal deck" in shown and "level 1, Intern" in shown
        assert "next budget" not in shown
        assert automa_line(app)[NAME_WIDTH + 52] == MARKER

    play(solo_app("--solo", "1", "--seed", "2"), script)


# -- Automa's turns -----------------------------------------------------------------------


def test_automas_turns_are_said_like_an_opponents() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        move = first_buy(session)
        turns = session.state.automa_replies(move)
        assert len(turns) >= 2  # this seed: Automa plays twice in a row after this move
        await buy_with_keys(pilot, app, move)
        await settle(pilot, app)
        assert session.automa_turns == turns
        log = " ".join(log_text(app).split())  # as written, before the log wrapped it
        assert "You bought patch" in log
        for turn in turns:  # every turn, every sentence, in the log
            for line in solo.turn_lines(turn):
                assert line in log
        notice = str(app.game_screen.notice)
        assert all(solo.turn_lines(turn)[0] in notice for turn in turns)
        assert notice.startswith("Automa had ")
        # In the log they read in Automa's colour, like an opponent's moves.
        last = app.game_screen.query_one("#log", RichLog).lines[-1]
        automa = Color.parse(PLAYER_COLOURS[1])
        assert any(seg.style is not None and seg.style.color == automa for seg in last)
        keep_screenshot(app, "tui-solo-turns")

    play(solo_app("--solo", "3", "--deck", "tactical", "--seed", "5"), script)


def test_undo_takes_back_your_move_and_automas_turns() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        start = session.state
        await pilot.press("u")
        assert "Nothing to take back" in screen_text(app)
        await buy_with_keys(pilot, app, first_buy(session))
        await settle(pilot, app)
        await advance(pilot, app)
        after = session.state
        assert after.automa is not None and after.automa.position > 0
        await pilot.press("u")
        await settle(pilot, app)
        assert len(session.game) == 1 and session.automa_turns == ()
        assert "Took back 1 move and Automa's turns after it." in screen_text(app)
        await pilot.press("u")
        await settle(pilot, app)
        assert session.state == start and start.automa is not None
        assert "no card played yet" in screen_text(app)

    play(solo_app("--solo", "2", "--seed", "8"), script)


def test_the_hint_works_in_a_solo_game() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("h")
        await settle(pilot, app)
        notice = str(app.game_screen.notice)
        assert notice.startswith("Hint:") and "win chance" in notice
        ghost = app.session.ghost
        if ghost is not None:  # the suggestion is held: sew it on
            await pilot.press("enter")
        else:
            await pilot.press("a", "enter")
        await settle(pilot, app)
        assert len(app.session.game) == 1 and app.session.human_to_move

    play(solo_app("--solo", "3", "--seed", "4"), script)


# -- the end -------------------------------------------------------------------------------


def test_a_solo_game_to_its_end_shows_both_scores_taken_apart() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        for _ in range(80):
            if session.state.is_terminal():
                break
            if session.state.pending_specials:
                await pilot.press("enter")  # the special patch is held where it fits
                await settle(pilot, app)
            else:
                await advance(pilot, app)
        state = session.state
        assert state.is_terminal() and isinstance(app.screen, EndScreen)
        shown = screen_text(app)
        check_fits(app)
        person, automa = state.scores()
        buttons, bonus, empty = state.score_parts(0)
        assert (
            f"Your score: buttons {buttons} + bonus {bonus} - 2 x {empty} empty = {person}" in shown
        )
        assert "Automa (level 4, Master) scores bonus tile" in shown
        assert f"= {automa}" in shown and "buttons printed" in shown
        end = app.screen
        assert isinstance(end, EndScreen) and end.lines == solo.score_lines(state, session.seats)
        assert end.lines[1].endswith(f" = {automa}") and "on its patches" in end.lines[1]
        title = "Game over: you win!" if state.winner() == 0 else "Game over: Automa wins!"
        assert title in shown
        keep_screenshot(app, "tui-solo-end")
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
        assert MARKER not in automa_line(app)  # Automa has passed its marker
        # Late in the game both piles are still there, cut short if need be.
        panel = panels.automa_panel(session).plain.splitlines()
        assert len(panel) == panels.PANEL_HEIGHT - 1  # the normal deck: no next budget
        assert any(line.startswith("with buttons:") for line in panel)
        assert any(line.startswith("without buttons:") for line in panel)
        assert panel[-1].startswith("score now") and "next budget" not in "".join(panel)
        # Undo from the end goes back into the game, Automa's last turns too.
        await pilot.press("u")
        await settle(pilot, app)
        assert not session.state.is_terminal()

    play(solo_app("--solo", "4", "--seed", "6"), script)


def tied_end() -> pw.State:
    """A finished solo game (Intern: Automa scores 7 for the tile), the person's buttons
    set so that both score the same; the person reached space 53 first."""
    state = pw.new_game(seed=1, rules=pw.Rules(solo=Automa(1)))
    while not state.is_terminal():
        legal = state.is_legal(pw.Advance())
        state = state.apply(pw.Advance() if legal else state.legal_moves()[0])
    fields = state.to_text().split(" ")
    person = fields[2].split(",")
    person[1] = str(int(person[1]) + state.scores()[1] - state.scores()[0])
    fields[2] = ",".join(person)
    return pw.State.from_text(" ".join(fields))


def test_the_end_screen_says_the_solo_tie_break() -> None:
    state = tied_end()
    assert state.scores() == (7, 7) and state.winner() == 0

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert isinstance(app.screen, EndScreen)
        shown = screen_text(app)
        assert "Automa (level 1, Intern) scores bonus tile 7 = 7" in shown
        assert "Tied on 7: you win the tie-break, having reached space 53 first." in shown
        assert "Game over: you win!" in shown

    session = Session(pw.Game(state), make_seats([HUMAN, AUTOMA]))
    play(PatchworkApp(session, AppOptions(rules=state.rules)), script)


# -- records -------------------------------------------------------------------------------


def test_save_and_resume_a_solo_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    saved: list[pw.State] = []

    async def first(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        await buy_with_keys(pilot, app, first_buy(session))
        await settle(pilot, app)
        await advance(pilot, app)
        await pilot.press("s")
        assert isinstance(app.screen, PathScreen)
        await type_path(pilot, "solo.json")
        assert "Saved the game record to solo.json" in screen_text(app)
        saved.append(session.state)

    play(solo_app("--solo", "3", "--deck", "tactical", "--seed", "5"), first)
    d = json.loads((tmp_path / "solo.json").read_text("utf-8"))
    assert d["version"] == 3 and d["rules"]["solo"] == {
        "level": 3,
        "deck": "tactical",
        "takes_specials": False,
    }
    assert d["seats"] == [HUMAN, AUTOMA] and len(d["moves"]) == 2

    # patchwork play --load solo.json: the full-screen game goes on, solo.
    session, options = setup(build_parser().parse_args(["--load", "solo.json"]))
    assert [s.kind for s in session.seats] == [HUMAN, AUTOMA]
    assert session.state == saved[0] and options.rules.solo == Automa(3, "tactical")
    with pytest.raises(pw.PatchworkError, match="leave out --solo"):
        setup(build_parser().parse_args(["--load", "solo.json", "--solo", "2"]))
    with pytest.raises(pw.PatchworkError, match="leave out --opponent"):
        setup(build_parser().parse_args(["--load", "solo.json", "--opponent", "level1"]))

    async def resumed(pilot: Pilot[None], app: PatchworkApp) -> None:
        shown = screen_text(app)
        assert "level 3, Fellow" in shown and "tactical deck" in shown
        await advance(pilot, app)
        assert len(app.session.game) == 3
        await pilot.press("u", "u")
        await settle(pilot, app)
        assert len(app.session.game) == 1  # undo reaches into the loaded moves

    play(PatchworkApp(session, options), resumed)

    # l in a two-player game loads the solo record: the game goes on against Automa.
    async def loaded(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("l")
        await type_path(pilot, "solo.json")
        await settle(pilot, app)
        assert [s.kind for s in app.session.seats] == [HUMAN, AUTOMA]
        assert app.session.state == saved[0]
        shown = screen_text(app)
        assert "Loaded solo.json" in shown and "level 3, Fellow" in shown
        # and a two-player record without seats loaded now goes on against an AI.
        pw.Game(pw.new_game(seed=3)).to_record().save(tmp_path / "two.json")
        await pilot.press("l")
        await type_path(pilot, "two.json")
        await settle(pilot, app)
        assert [s.kind for s in app.session.seats] == [HUMAN, f"level{DEFAULT_LEVEL}"]
        assert app.session.state.automa is None and "level 3, Fellow" not in screen_text(app)

    play(make_app(seed=1), loaded)


def test_the_plain_game_loads_a_solo_record(tmp_path: Path) -> None:
    rules = pw.Rules(solo=Automa(2, "tactical"))
    game = pw.Game(pw.new_game(seed=7, rules=rules))
    game.push(pw.Advance())
    path = tmp_path / "solo.txt"
    game_record(game, make_seats([HUMAN, AUTOMA])).save(path)
    out = io.StringIO()
    typed = iter(["A", "quit"])
    code = text.main(
        ["--load", str(path), "--save", str(tmp_path / "after.json"), "--lang", "en"],
        input_fn=lambda _prompt: next(typed),
        out=out,
    )
    shown = out.getvalue()
    assert code == 0
    assert "level 2, Apprentice" in shown and "next budget:" in shown
    assert "You advanced (A)." in shown and "Automa had " in shown
    after = pw.Record.load(tmp_path / "after.json")
    assert after.rules.solo == Automa(2, "tactical") and len(after.moves) == 2
    assert after.seats == (HUMAN, AUTOMA)
    replay = pw.Game.from_record(after)
    assert replay.moves[0] == pw.Advance() and replay.state.automa is not None
    # --solo with --load, or a seat option with a solo record, is refused clearly.
    assert text.main(["--load", str(path), "--solo", "3"], input_fn=lambda _p: "quit") == 1
    assert text.main(["--load", str(path), "--opponent", "greedy"], input_fn=lambda _p: "q") == 1
    assert text.main(["--load", str(tmp_path / "none.json")], input_fn=lambda _p: "q") == 1


def test_the_plain_game_loads_a_two_player_record(tmp_path: Path) -> None:
    path = tmp_path / "two.json"
    game = pw.Game(pw.new_game(seed=3))
    game.push(pw.Advance())
    pw.Record.from_game(game, players=("Ann", "greedy"), seats=(HUMAN, "greedy")).save(path)
    out = io.StringIO()
    code = text.main(["--load", str(path), "--lang", "en"], input_fn=lambda _p: "quit", out=out)
    assert code == 0 and "Ann" in out.getvalue() and "Automa" not in out.getvalue()


# -- new games and looks -------------------------------------------------------------------


def test_new_game_offers_solo_again_and_two_player_games() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("N")
        assert isinstance(app.screen, NewGameScreen)
        assert "You against Automa: level 2, Apprentice, normal deck" in screen_text(app)
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.session.state.rules.solo == Automa(2) and len(app.session.game) == 0
        await pilot.press("N", "down", "enter")  # "You against AI level 1"
        await settle(pilot, app)
        assert [s.kind for s in app.session.seats] == [HUMAN, "level1"]
        assert app.session.state.rules.solo is None
        assert "Apprentice" not in screen_text(app) and "▶" in screen_text(app)

    play(solo_app("--solo", "2", "--seed", "3"), script)


def _colours_of(text_: Text) -> set[str]:
    found = set()
    for span in text_.spans:
        style = span.style if isinstance(span.style, Style) else Style.parse(span.style)
        if style.color is not None:
            found.add(style.color.name)
    return found


def test_the_solo_screen_keeps_to_the_16_colours() -> None:
    palette = {
        getattr(colours, name).lower()
        for name in dir(colours)
        if name.isupper()
        if isinstance(getattr(colours, name), str)
    }

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await buy_with_keys(pilot, app, first_buy(app.session))
        await settle(pilot, app)
        used = _colours_of(panels.automa_panel(app.session))
        used |= _colours_of(app.game_screen.query_one(TimeBoard).render())
        assert used and used <= palette, used - palette
        assert PLAYER_COLOURS[1].lower() in used and colours.NOTE.lower() in used

    play(solo_app("--solo", "3", "--deck", "tactical", "--seed", "5"), script)


@pytest.mark.parametrize("lang", ["fa", "pt", "ru", "fi"])
def test_automas_side_fits_in_every_language(lang: str) -> None:
    i18n.set_language(lang)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await buy_with_keys(pilot, app, first_buy(app.session))
        await settle(pilot, app)
        check_fits(app)
        panel = panels.automa_panel(app.session).plain.splitlines()
        assert len(panel) == panels.PANEL_HEIGHT
        assert all(cell_len(line) <= panels.INFO_WIDTH for line in panel)
        view = app.session.state.automa
        assert view is not None and panel[-1].endswith(i18n.fmt("{n}", n=view.next_budget))
        assert "Automa" in panel[0]

    play(solo_app("--solo", "3", "--deck", "tactical", "--seed", "5", "--lang", lang), script)


@pytest.mark.parametrize("lang", ["en", "fa", "pt", "ru", "fi"])
def test_the_help_of_a_solo_game_names_the_marker_and_fits(lang: str) -> None:
    i18n.set_language(lang)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("question_mark")
        shown = screen_text(app)
        assert "◆" in shown and MARKER == "◆"
        # The dialog's last line shows: nothing of the help was cut off at 80x24.
        assert i18n._("Esc: back to the game") in shown
        check_fits(app)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)

    play(solo_app("--solo", "2", "--seed", "3", "--lang", lang), script)
