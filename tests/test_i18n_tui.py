"""The terminal programs in every language: the full-screen app (started in each language,
switched with L, the rules with H, Persian right-aligned with its digits while the boards stay
as drawn), the plain text game and the command line's help."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import redirect_stdout

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown, OptionList, Static

from helpers import position
from patchwork import Game, cli, i18n, new_game
from patchwork.tui import text
from patchwork.tui.app import PatchworkApp
from patchwork.tui.quilt import QuiltView
from patchwork.tui.screens import HowToScreen, LanguageScreen
from patchwork.tui.seats import make_seats
from patchwork.tui.session import Session
from patchwork.tui.timeboard import TimeBoard
from test_tui_app import OUT, keep_screenshot, make_app, play, screen_text

# A text each language shows on the first screen of a game against the AI (the key bar,
# the status line and the panels under the quilts), all read from the catalogs.
FIRST_SCREEN = {
    "en": ("Your move: you are the start player.", "Hint", "score now"),
    "fa": ("نوبت شماست: شما بازیکن شروع‌کننده‌اید.", "راهنمایی", "امتیاز کنونی"),
    "pt": ("Sua vez: você é o jogador inicial.", "Dica", "pontos agora"),
    "ru": ("Ваш ход: вы начинающий игрок.", "Совет", "очки сейчас"),
    "fi": ("Sinun vuorosi: olet aloittava pelaaja.", "Vihje", "pisteet nyt"),
    "de": ("Du bist am Zug: du bist Startspieler.", "Tipp", "Punkte jetzt"),
    "fr": ("À vous\xa0: vous êtes le premier joueur.", "Conseil", "score"),
    "es": ("Te toca: eres el jugador inicial.", "Pista", "puntos ahora"),
    "it": ("Tocca a te: sei il primo giocatore.", "Aiuto", "punti ora"),
    "zh": ("轮到你：你是起始玩家。", "提示", "当前分"),
    "ja": ("あなたの手番：あなたがスタートプレイヤーです。", "ヒント", "現在の得点"),
}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", list(FIRST_SCREEN))
def test_the_app_starts_in_each_language(lang: str) -> None:
    i18n.set_language(lang)

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        shown = screen_text(app)
        for words in FIRST_SCREEN[lang]:
            assert words in shown, (lang, words)
        # Every key of the bar fits 80 columns in every language, the last one too.
        assert i18n.translation(lang).gettext("Quit") in shown.splitlines()[-1]
        assert lang == "en" or not re.search(r"\bQuit\b", shown)
        keep_screenshot(app, f"i18n-{lang}")

    play(make_app(seed=3), script)


def test_persian_is_right_aligned_and_the_boards_are_not_mirrored() -> None:
    i18n.set_language("fa")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        screen = app.game_screen
        assert screen.has_class("-rtl")
        for selector in ("#status", "#notice", "#detail", "#keys", "#advance"):
            assert screen.query_one(selector, Static).styles.text_align == "right", selector
        quilt = screen.query_one("#quilt0", QuiltView)
        assert quilt.styles.text_align != "right"
        lines = quilt.picture_text().plain.split("\n")
        # Columns a-i left to right, rows 1-9 top to bottom, in ASCII: square names.
        assert lines[1].split() == list("abcdefghi")
        assert [line.split()[0] for line in lines[2:11]] == [str(r) for r in range(1, 10)]
        track = TimeBoard().picture
        assert track.positions == (0, 0)
        time_lines = screen.query_one(TimeBoard).render().plain.split("\n")
        assert time_lines[1].rstrip().endswith("۵۳")  # the last space, in Persian digits
        assert time_lines[0].index("▼") < time_lines[1].index("●")  # space 0 on the left
        shown = screen_text(app)
        assert re.search("دکمه +۵\\b", shown)  # five buttons, written in Persian digits
        assert re.search("درآمد +۰", shown)
        circle = screen.query_one("#circle", Static).render()
        assert re.search("[۰-۹]", str(circle)) and not re.search("[0-9]", str(circle))
        keep_screenshot(app, "i18n-fa-rtl")

    play(make_app(seed=3), script)


def test_the_language_switch_re_renders_the_screen() -> None:
    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        assert "Hint" in screen_text(app)
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, LanguageScreen)
        options = app.screen.query_one(OptionList)
        assert options.option_count == len(i18n.LANGUAGES) == 11
        for code in i18n.LANGUAGES:  # all eleven on one 80x24 screen
            assert f"{i18n.language_name(code)}  ({code})" in screen_text(app), code
        options.highlighted = app.screen.codes.index("ru")
        await pilot.press("enter")
        await pilot.pause()
        assert i18n.language() == "ru"
        shown = screen_text(app)
        assert "Совет" in shown and "очки сейчас" in shown and "Язык: Русский" in shown
        assert not app.game_screen.has_class("-rtl")
        await pilot.press("L")
        await pilot.pause()
        options = app.screen.query_one(OptionList)
        assert options.highlighted == app.screen.codes.index("ru")  # the current one
        options.highlighted = app.screen.codes.index("fa")
        await pilot.press("enter")
        await pilot.pause()
        assert app.game_screen.has_class("-rtl") and "راهنمایی" in screen_text(app)
        await pilot.press("L")
        await pilot.pause()
        app.screen.query_one(OptionList).highlighted = app.screen.codes.index("ja")
        await pilot.press("enter")
        await pilot.pause()
        assert not app.game_screen.has_class("-rtl") and "ヒント" in screen_text(app)
        await pilot.press("L", "escape")  # Esc keeps the language
        assert i18n.language() == "ja"

    play(make_app(seed=3), script)


def test_how_to_play_in_the_app() -> None:
    i18n.set_language("pt")

    async def script(pilot: Pilot[None], app: PatchworkApp) -> None:
        await pilot.press("H")
        await pilot.pause()
        assert isinstance(app.screen, HowToScreen)
        assert app.screen.query_one(Markdown) is not None
        shown = screen_text(app)
        assert "Como jogar Patchwork" in shown and "Esc: voltar ao jogo" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.game_screen
        await pilot.press("question_mark")
        assert "H  como jogar (as regras)" in screen_text(app)

    play(make_app(seed=3), script)
    assert OUT.is_dir()


def test_the_plain_game_in_persian_reads_persian_digits() -> None:
    out = io.StringIO()
    typed = iter(["moves ۱۲", "help", "A", "quit"])
    code = text.main(
        ["--lang", "fa", "--opponent", "random", "--seed", "1"],
        input_fn=lambda prompt: next(typed),
        out=out,
    )
    assert code == 0
    shown = out.getvalue()
    assert "\nشما   " in shown and "خانهٔ ۰ از ۵۳" in shown  # "You" over your quilt
    assert "تختهٔ زمان: نشانه‌های درآمد در ۵ ۱۱ ۱۷ ۲۳ ۲۹ ۳۵ ۴۱ ۴۷ ۵۳." in shown
    assert "17r90@c4" in shown and "S@e5" in shown  # the notation, as typed, in ASCII
    assert "پیش رفتید (A)." in shown  # "A" was read as the move: "You advanced (A)."
    assert "   a b c d e f g h i" in shown  # the quilt boards are drawn as in English


def test_the_plain_game_explains_a_refused_move_in_russian() -> None:
    out = io.StringIO()
    typed = iter(["zz", "0r0@a1", "quit"])
    code = text.main(
        ["--lang", "ru", "--opponent", "random", "--seed", "1"],
        input_fn=lambda prompt: next(typed),
        out=out,
    )
    assert code == 0
    shown = out.getvalue()
    offered = ", ".join(str(i) for i in new_game(seed=1).offered)  # 0 is not among them
    assert "не удалось прочитать ход 'zz': напишите A, чтобы продвинуться" in shown
    assert f"ход 0r0@a1 недопустим: лоскутка 0 нет среди предложенных (предложены: {offered})" in (
        shown
    )
    assert "is not allowed" not in shown and "cannot read" not in shown


def test_the_command_line_speaks_the_language() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(["--lang", "ru", "--help"]) == 0
    assert "использование: patchwork КОМАНДА [параметры]" in out.getvalue()
    assert "запустить игровой сервер" in out.getvalue()
    from patchwork.tui.app import build_parser

    i18n.set_language("fi")
    assert "tekstien kieli" in build_parser().format_help()
    i18n.set_language("fa")
    assert "زبان متن‌ها" in text.build_parser().format_help()


def test_a_language_before_a_command_without_lang_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``patchwork --lang fi tournament ...``: the language is the program's; the tournament,
    whose own options have no --lang, is not handed it (it would refuse it)."""
    assert cli.main(["--lang", "fi", "tournament", "random", "random", "--games", "2"]) == 0
    assert "unrecognized arguments" not in capsys.readouterr().err
    assert i18n.language() == "fi"


def test_the_app_gives_the_engine_s_reason_in_the_language() -> None:
    # Player 0 holds a special patch; a1 is already sewn over.
    covered = "/".join(["x8", *["9"] * 8])
    state = position(f"26,12,0,{covered}", "25,5,0,9/9/9/9/9/9/9/9/9", pending="1@0")
    session = Session(Game(state), make_seats(["human", "human"], 1))
    assert session.ghost is not None and session.ghost.is_special
    session.put(0, 0)
    i18n.set_language("ru")
    assert session.verdict() == "ход S@a1 недопустим: клетка a1 уже занята"
    i18n.set_language("fa")
    assert session.verdict() == "حرکت S@a1 مجاز نیست: خانهٔ a1 از پیش پوشیده است"


def test_argparse_s_own_words_speak_the_language_and_fit_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """usage:, options, -h's help and argparse's errors come from our catalogs; the help's
    lines are measured in terminal cells (a Japanese character takes two)."""
    from rich.cells import cell_len

    from patchwork.tui.app import build_parser

    monkeypatch.setenv("COLUMNS", "80")
    i18n.set_language("ja")
    shown = build_parser().format_help()
    assert shown.startswith("使い方：patchwork play") and "このヘルプを表示して終了します" in shown
    assert "オプション:" in shown and "usage" not in shown and "options:" not in shown
    # The usage's lines under its first argument, counted in cells (使い方： takes eight).
    first, second = shown.splitlines()[:2]
    assert cell_len(first[: first.index("[")]) == len(second) - len(second.lstrip())
    # Every line of words fits (argparse never breaks an option's own name and choices).
    assert max(cell_len(line) for line in shown.splitlines() if not line.isascii()) <= 80
    assert cli.main(["--lang", "de", "play", "--opponent", "nobody"]) == 2
    assert "patchwork play: Fehler: Argument --opponent: ungültige Auswahl: 'nobody'" in (
        capsys.readouterr().err
    )
    i18n.set_language("en")  # and back: argparse follows the current language
    shown = build_parser().format_help()
    assert shown.startswith("usage: patchwork play") and "options:" in shown
