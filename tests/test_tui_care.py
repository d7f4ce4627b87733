"""The terminal app's care for words and looks, played through Textual's pilot: the move log's
grammar in every language, the figures under the quilts whatever the numbers, q asking before
it quits, --load resuming a game as it was saved, the seats' names and the hint line."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len, set_cell_size
from textual.pilot import Pilot
from textual.widgets import Button

import patchwork as pw
from patchwork import i18n
from patchwork.ai import SearchResult
from patchwork.ai.levels import DEFAULT_LEVEL
from patchwork.i18n import fmt, pgettext
from patchwork.tui import describe, panels
from patchwork.tui.app import PatchworkApp, build_parser, setup
from patchwork.tui.game_screen import GameScreen
from patchwork.tui.screens import EndScreen, PathScreen, QuitScreen
from patchwork.tui.seats import make_seats
from patchwork.tui.session import Session
from test_tui_app import (
    human_move,
    keep_screenshot,
    log_text,
    make_app,
    pick_move,
    play,
    screen_text,
    settle,
    type_path,
)

LANGS = i18n.LANGUAGES
FULL = "/".join(["x" * 9] * 7 + ["x" * 8 + "1", "x" * 7 + "2"])
EMPTY = "/".join(["9"] * 9)
# Player 0 on space 52 with 105 buttons and income 30; player 1 on 53, empty board: -162.
EXTREME = f"revised:rf 1,2,3,4,5 52,105,30,{FULL} 53,0,0,{EMPTY} 1 0 1 - -"


def from_cell(row: str, x: int) -> str:
    """What a screen row shows from its ``x``-th cell on (a Chinese character takes two)."""
    cells = 0
    for i, ch in enumerate(row):
        if cells >= x:
            return row[i:]
        cells += cell_len(ch)
    return ""


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


# -- the move log -------------------------------------------------------------------------

# How each language says that you, and that someone else ({name}: the AI's name in that
# language), bought a patch (the log's words).
BOUGHT = {
    "en": ("You bought patch", "{name} bought patch"),
    "fa": ("را خریدید", "را خرید ("),
    "pt": ("Você comprou o pedaço", "{name} comprou o pedaço"),
    "ru": ("Вы покупаете лоскуток", "{name} покупает лоскуток"),
    "fi": ("Ostit tilkun", "{name} osti tilkun"),
    "de": ("Du hast Flicken", "{name} hat Flicken"),
    "fr": ("Vous avez acheté la pièce", "{name} a acheté la pièce"),
    "es": ("Compraste el parche", "{name} compró el parche"),
    "it": ("Hai comprato la pezza", "{name} ha comprato la pezza"),
    "zh": ("你购买了布块", "{name} 购买了布块"),
    "ja": ("あなたはパッチ", "{name}はパッチ"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_move_log_says_you_bought_never_you_buys(lang: str) -> None:
    i18n.set_language(lang)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        rng = random.Random(4)

        def bought(player: int) -> bool:
            played = zip(session.game.movers(), session.game.moves, strict=True)
            return any(p == player and isinstance(m, pw.Buy) for p, m in played)

        for _turn in range(40):
            if (bought(0) and bought(1)) or session.state.is_terminal():
                break
            await human_move(pilot, app, pick_move(session, rng, buy_share=0.9))
            await settle(pilot, app)
        assert bought(0) and bought(1)
        log = log_text(app)
        you, other = BOUGHT[lang]
        other = other.format(name=describe.name(session.seats, 1))
        other = other[:1].upper() + other[1:]  # a sentence starts with a capital
        assert you in log and other in log, log
        for p, move in zip(session.game.movers(), session.game.moves, strict=True):
            line = describe.move_sentence(session.seats, p, move)
            assert line in log  # every move has its line, in its own person
            if p == 0 and isinstance(move, pw.Buy):
                template = pgettext("move log", "You bought patch {id} ({move}).")
                assert line == fmt(template, id=move.patch_id, move=str(move))
        assert "You buys" not in log and "Вы покупает " not in log
        if lang in ("en", "ru"):
            keep_screenshot(app, f"care-log-{lang}")

    play(make_app(seed=6), script)


def test_two_people_are_player_1_and_player_2() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        shown = screen_text(app)
        assert "Player 1" in shown and "Player 2" in shown and "Player 0" not in shown
        assert "Player 1 to move: the start player." in shown
        for _ in range(2):
            await human_move(pilot, app, pw.Advance())
        log = log_text(app)
        assert "Player 1 advanced (A)." in log and "Player 2 advanced (A)." in log
        assert app.session.record().players == ("Player 1", "Player 2")

    play(make_app(("human", "human"), seed=1), script)


def test_two_same_agents_are_told_apart() -> None:
    seats = make_seats(["level2", "level2"], 1)
    labels = [seat.label(p) for p, seat in enumerate(seats)]
    assert labels == ["AI level 2 (1)", "AI level 2 (2)"]
    assert [seat.record_name for seat in seats] == ["level2 1", "level2 2"]


# -- the figures under the quilts ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_figures_under_the_quilts_fit_whatever_the_numbers(
    lang: str, size: tuple[int, int]
) -> None:
    i18n.set_language(lang)
    state = pw.State.from_text(EXTREME)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        session = app.session
        rows = screen_text(app).splitlines()
        for q in (0, 1):
            lines = panels.info_lines(session, q)
            assert len(lines) == 4
            info = app.game_screen.query_one(f"#info{q}")
            assert info.size.height == 4 and info.size.width == panels.INFO_WIDTH
            for i, line in enumerate(lines):
                assert cell_len(line) <= panels.INFO_WIDTH, line
                # On screen where the widget is (aligned right in Persian): one line each,
                # nothing wrapped.
                y, x = info.region.y + i, info.region.x
                shown = set_cell_size(from_cell(rows[y], x), panels.INFO_WIDTH)
                assert shown.strip() == line, (rows[y], line)
            # The number ends its line, after a space: figures never run together.
            numbers = [line.rsplit(" ", 1)[1] for line in lines]
            me = state.players[q]
            expected = [fmt("{n}", n=v) for v in (me.buttons, me.income)]
            # No score yet on an empty quilt (only its penalty): a dash instead.
            score = "–" if q == 1 else fmt("{n}", n=state.scores()[q])
            expected += [score, fmt("{n}", n=session.projection()[q])]
            assert numbers == expected
        # Between the two players' figures, a blank column at least.
        x0 = app.game_screen.query_one("#info0").region
        x1 = app.game_screen.query_one("#info1").region
        assert x1.x >= x0.right + 1
        if size == (80, 24):
            keep_screenshot(app, f"care-figures-{lang}")

    play(make_app(state=state), script, size=size)


def test_a_label_too_long_is_cut_never_the_number() -> None:
    session = Session(pw.Game(pw.State.from_text(EXTREME)), make_seats(["human", "level1"], 1))
    lines = panels.info_lines(session, 1, width=8)
    assert all(cell_len(line) <= 8 for line in lines)
    assert lines[3].endswith(" -162") and "…" in lines[3]


# -- q asks before it quits ---------------------------------------------------------------


async def one_move(pilot: Pilot[None], app: PatchworkApp) -> None:
    await human_move(pilot, app, pw.Advance())
    await settle(pilot, app)


def test_q_asks_and_enter_or_escape_cancel() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await one_move(pilot, app)
        for key in ("enter", "escape"):
            await pilot.press("q")
            assert isinstance(app.screen, QuitScreen)
            shown = screen_text(app)
            assert "Quit the game?" in shown and "Save and quit" in shown
            assert "Quit without saving" in shown and "Cancel" in shown
            assert "Enter or Esc: back to the game" in shown
            if key == "enter":
                keep_screenshot(app, "care-quit")
            await pilot.press(key)  # the safe answer: back to the game
            assert isinstance(app.screen, GameScreen) and app.is_running
        await pilot.press("q", "d")
        await pilot.pause()
        assert not app.is_running and not app.save_on_exit

    play(make_app(seed=2), script)


def test_q_save_and_quit_asks_for_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await one_move(pilot, app)
        await pilot.press("q", "s")
        assert isinstance(app.screen, PathScreen)
        await type_path(pilot, "left.json")
        await pilot.pause()
        assert not app.is_running

    app = make_app(seed=2)
    play(app, script)
    record = pw.Record.load(tmp_path / "left.json")
    assert pw.Game.from_record(record).state == app.session.state


def test_q_with_save_given_saves_there_on_leaving() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await one_move(pilot, app)
        await pilot.press("q")
        assert "Save it to game.json" in screen_text(app)
        await pilot.press("s")
        await pilot.pause()
        assert not app.is_running and app.save_on_exit  # the command writes --save

    play(make_app(seed=2, save_path="game.json"), script)


def test_q_quits_at_once_when_nothing_would_be_lost() -> None:
    async def fresh(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("q")  # nothing played yet
        await pilot.pause()
        assert not app.is_running

    play(make_app(seed=2), fresh)
    state = pw.State.from_text(f"revised:rf 1,2 53,10,0,{EMPTY} 53,10,0,{EMPTY} 0 - 1 - -")

    async def over(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape", "q")  # the game is over
        await pilot.pause()
        assert not app.is_running

    play(make_app(state=state), over)


# -- --load resumes the game as it was -----------------------------------------------------


def saved_game(path: Path, kinds: tuple[str, str], lang: str) -> pw.Record:
    i18n.set_language(lang)
    session = Session(pw.Game(pw.new_game(seed=9)), make_seats(kinds, 9))
    session.play(session.legal_moves()[0])
    session.save(str(path))
    i18n.set_language("en")
    return pw.Record.load(path)


def test_load_resumes_with_the_saved_seats_names_and_language(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    record = saved_game(path, ("level3", "human"), "fi")
    assert record.seats == ("level3", "human") and record.language == "fi"
    assert json.loads(path.read_text("utf-8"))["version"] == 3
    session, options = setup(build_parser().parse_args(["--load", str(path)]))
    assert [s.kind for s in session.seats] == ["level3", "human"]
    assert options.human_seat == 1 and i18n.base_language(i18n.language()) == "fi"
    assert session.state == pw.Game.from_record(record).state

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        shown = screen_text(app)
        assert "taso 3" in shown and "Vihje" in shown  # the opponent, in Finnish

    play(PatchworkApp(session, options), script)


def test_options_on_the_command_line_override_the_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    saved_game(path, ("human", "level3"), "ru")

    def kinds(*argv: str) -> list[str]:
        session, _options = setup(build_parser().parse_args(["--load", str(path), *argv]))
        return [s.kind for s in session.seats]

    assert kinds("--opponent", "level1") == ["human", "level1"]
    assert kinds("--seat", "1") == ["level3", "human"]
    assert kinds("--agents", "level1", "level2") == ["level1", "level2"]
    i18n.set_language("pt")
    setup(build_parser().parse_args(["--load", str(path), "--lang", "pt"]))
    assert i18n.language() == "pt"  # --lang stands: the saved Russian does not replace it
    assert kinds() == ["human", "level3"]


def test_an_old_record_loads_with_the_command_line_seats(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    game = pw.Game(pw.new_game(seed=3))
    game.to_record(players=("Ann", "level2")).save(path)
    assert json.loads(path.read_text("utf-8"))["version"] == 1
    session, _options = setup(build_parser().parse_args(["--load", str(path)]))
    assert [s.kind for s in session.seats] == ["human", f"level{DEFAULT_LEVEL}"]
    # A person's name from the record is shown as it is; an agent is named by what it is.
    assert session.seats[0].label(0) == "Ann"
    assert session.seats[1].label(1) == f"AI level {DEFAULT_LEVEL}"
    assert describe.turn_text(session.state, session.seats).startswith("Ann to move")


# -- the hint line ------------------------------------------------------------------------


def test_the_hint_says_each_thing_once() -> None:
    state = pw.new_game(seed=5)
    buy = next(m for m in state.legal_moves() if isinstance(m, pw.Buy))
    then = [pw.Advance(), pw.Advance()]
    result = SearchResult(
        player=0,
        best_move=buy,
        win_probability=0.55,
        margin=2.5,
        principal_line=[buy, *then],
        candidates=[],
        iterations=100,
        nodes=100,
        seconds=0.1,
    )
    text = describe.hint_text(result)
    assert (
        text
        == f"Hint: buy patch {buy.patch_id} ({buy}): win chance 55%, expected margin +2.5; then A A"
    )
    assert text.count(str(buy)) == 1 and text.count("Hint") == 1
    for lang in LANGS[1:]:
        i18n.set_language(lang)
        assert describe.hint_text(result).count(str(buy)) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_every_button_of_the_end_and_quit_dialogs_shows_in_every_language(lang: str) -> None:
    i18n.set_language(lang)
    state = pw.State.from_text(f"revised:rf 1,2 53,30,0,{EMPTY} 53,10,0,{EMPTY} 0 - 0 - -")

    def labels(app: PatchworkApp) -> list[str]:
        return [str(button.label) for button in app.screen.query(Button)]

    async def end(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert isinstance(app.screen, EndScreen)
        shown = screen_text(app)
        assert len(labels(app)) == 5 and all(label in shown for label in labels(app))
        assert describe.game_over_title(app.session.seats, 0) in shown
        if lang in ("fi", "ru"):
            keep_screenshot(app, f"care-end-{lang}")

    play(make_app(state=state), end)

    async def leave(pilot: Pilot[None], app: PatchworkApp) -> None:
        await one_move(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, QuitScreen)
        shown = screen_text(app)
        assert len(labels(app)) == 3 and all(label in shown for label in labels(app))
        if lang in ("fa", "fi"):
            keep_screenshot(app, f"care-quit-{lang}")
        await pilot.press("escape")

    play(make_app(seed=2), leave)


def test_while_looking_for_a_hint_the_screen_says_so_once() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        screen = app.game_screen
        screen.action_hint()  # what h does; looked at before the search can end
        assert screen.hinting is not None
        status = panels.status_text(app.session, False, True, False, 0).plain
        said = status + "\n" + screen.notice.plain
        assert said.lower().count("looking for a hint") == 1, said
        await settle(pilot, app)
        shown = screen_text(app)
        assert shown.count("Hint:") == 1 and "looking for a hint" not in shown.lower()

    play(make_app(seed=3, hint_time=1.0), script)


def test_l_in_the_app_also_goes_on_with_the_saved_players(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    record = saved_game(tmp_path / "g.json", ("human", "level3"), "en")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("l")
        await type_path(pilot, "g.json")
        await settle(pilot, app)
        assert [s.kind for s in app.session.seats] == ["human", "level3"]
        assert app.session.game.moves[: len(record.moves)] == pw.Game.from_record(record).moves
        shown = screen_text(app)
        assert "AI level 3" in shown and "level 1" not in shown and "Loaded g.json" in shown
        assert len(app.session.game) > len(record.moves)  # level 3 has played on
        await pilot.press("q")  # so there is something to lose: q asks
        assert isinstance(app.screen, QuitScreen)
        await pilot.press("d")
        await pilot.pause()
        assert not app.is_running

    play(make_app(("human", "level1"), seed=2), script)
