"""The engine's refusals in every language: each error carries an English template and its
values (``str(e)`` stays English), and :func:`patchwork.i18n.error_text` shows it in the
reader's language, numbers in that language's digits, notation and squares as they are."""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Iterator

import pytest

import patchwork as pw
from helpers import EMPTY_QUILT, circle_starting, position
from patchwork import i18n
from patchwork.i18n import error_text, fill, translator
from test_i18n_catalogs import CODE

LANGS = tuple(code for code in i18n.LANGUAGES if code != "en")
PENDING = position(
    f"26,12,0,x8/{'/'.join(['9'] * 8)}", f"25,5,0,{EMPTY_QUILT}", pending="1@0", circle="2,3,4"
)
OVERLAP = position(f"0,20,0,xx7/{'/'.join(['9'] * 8)}", f"1,0,0,{EMPTY_QUILT}", circle="13,2,3")
DEAR = pw.new_game(circle=circle_starting(22, 24, 28))
START = pw.new_game(circle=circle_starting(1, 2, 3))


def illegal(state: pw.State, text: str) -> Callable[[], object]:
    return lambda: state.check_legal(pw.parse_move(text))


# One way to meet each of the engine's messages for people (and what it says in English).
REFUSALS: dict[str, tuple[Callable[[], object], str]] = {
    "undo": (lambda: pw.Game().pop(), "there is no move to take back"),
    "square": (lambda: pw.parse_move("17r90@j4"), "bad square 'j4': use a column a-i"),
    "off": (lambda: pw.PlaceSpecial(9, 0), "square (9, 0) is off the quilt board"),
    "int": (lambda: pw.PlaceSpecial(1.5, 0), "row must be a whole number, not 1.5"),  # type: ignore[arg-type]
    "patch": (lambda: pw.parse_move("40r0@a1"), "no patch 40: patches are numbered 0-32"),
    "orientation": (lambda: pw.Buy(3, 8, 0, 0), "orientation 8 is not one of 0-7"),
    "sticks": (lambda: pw.parse_move("3r0@a8"), "patch 3 in r0 at a8 sticks out"),
    "flip": (
        illegal(pw.new_game(seed=1, rules=pw.Rules(flip=False)), "3f0@a1"),
        "3f0@a1: orientation f0 needs flipping patches",
    ),
    "turn": (
        illegal(pw.new_game(seed=1, rules=pw.Rules(rotation=False)), "3r90@a1"),
        "3r90@a1: orientation r90 needs turning patches",
    ),
    "text": (lambda: pw.parse_move(17), "a move is text, not int"),  # type: ignore[arg-type]
    "read": (lambda: pw.parse_move("zz"), "cannot read move 'zz': write A to advance"),
    "move": (lambda: START.check_legal("A"), "'A' is not a move"),  # type: ignore[arg-type]
    "over": (
        illegal(position(f"53,5,0,{EMPTY_QUILT}", f"53,5,0,{EMPTY_QUILT}", first="0"), "A"),
        "A is not allowed: the game is over",
    ),
    "first": (illegal(PENDING, "A"), "A is not allowed: player 0 must first place a special"),
    "covered": (illegal(PENDING, "S@a1"), "S@a1 is not allowed: a1 is already covered"),
    "special": (illegal(START, "S@a1"), "S@a1 is not allowed: there is no special patch"),
    "none": (
        illegal(position(f"10,5,0,{EMPTY_QUILT}", f"12,5,0,{EMPTY_QUILT}", circle="-"), "3r0@a1"),
        "3r0@a1 is not allowed: no patch is on offer any more",
    ),
    "offer": (
        illegal(START, "4r0@a1"),
        "4r0@a1 is not allowed: patch 4 is not on offer (offered: 1, 2, 3)",
    ),
    "dear": (
        illegal(DEAR, "22r0@a1"),
        "22r0@a1 is not allowed: patch 22 costs more buttons than player 0 has "
        "(price: 10, buttons: 5)",
    ),
    "overlap": (
        illegal(OVERLAP, "13r90@a1"),
        "13r90@a1 is not allowed: it would overlap patches already sewn on at a1",
    ),
}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def refusal(name: str) -> pw.PatchworkError:
    make, _english = REFUSALS[name]
    with pytest.raises(pw.PatchworkError) as info:
        make()
    return info.value


@pytest.mark.parametrize("name", list(REFUSALS))
def test_the_english_text_is_the_template_filled_in(name: str) -> None:
    e = refusal(name)
    assert REFUSALS[name][1] in str(e)
    assert name == "undo" or (e.params and e.template != str(e))
    assert error_text(e) == error_text(e, translator("en")) == str(e)
    copy = pickle.loads(pickle.dumps(e))  # e.g. from a worker process
    assert (type(copy), copy.template, copy.params, str(copy)) == (
        type(e),
        e.template,
        e.params,
        str(e),
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_is_translated(lang: str) -> None:
    t = translator(lang)
    for name in REFUSALS:
        e = refusal(name)
        shown = error_text(e, t)
        assert shown != str(e) and t.gettext(e.template) != e.template, (lang, name)
        for value in e.params.values():  # notation, squares and names are kept as they are
            if isinstance(value, str):
                assert value in shown, (lang, name, value)
        i18n.set_language(lang)
        assert error_text(e) == shown  # the current language, as the terminal programs use
        i18n.set_language("en")


def test_persian_refusals_write_their_numbers_in_persian_digits() -> None:
    t = translator("fa")
    shown = error_text(refusal("dear"), t)
    assert shown == (
        "حرکت 22r0@a1 مجاز نیست: قیمت وصلهٔ ۲۲ بیش از دکمه‌های بازیکن ۰ است (قیمت: ۱۰، دکمه‌ها: ۵)"
    )
    assert error_text(refusal("offer"), t).endswith("وصلهٔ ۴ در پیشنهاد نیست (پیشنهادی‌ها: ۱، ۲، ۳)")
    for name in REFUSALS:  # ASCII digits only in notation, squares and what was typed
        e = refusal(name)
        rest = error_text(e, t)
        for value in e.params.values():
            rest = rest.replace(value, "") if isinstance(value, str) else rest
        assert not re.search(r"[0-9]", CODE.sub("", rest)), (name, rest)


def test_russian_and_the_list_of_offered_patches() -> None:
    assert error_text(refusal("offer"), translator("ru")) == (
        "ход 4r0@a1 недопустим: лоскутка 4 нет среди предложенных (предложены: 1, 2, 3)"
    )
    assert error_text(refusal("read"), translator("pt")).startswith(
        "não foi possível ler o lance 'zz': escreva A para avançar"
    )


def test_other_errors_are_shown_as_they_are() -> None:
    t = translator("ru")
    assert error_text(ValueError("plain {x}"), t) == "plain {x}"
    assert error_text(pw.PatchworkError("already {translated}"), t) == "already {translated}"
    assert error_text(pw.PatchworkError(), t) == ""
    e = pw.InvalidSetupError("give a seed or a circle, not both")  # developer-facing: English
    assert error_text(e, t) == str(e) == e.template and e.params == {}


PLAIN = {
    "flip": "Flipping patches is off in this game (house rule).",
    "turn": "Turning patches is off in this game (house rule).",
    "over": "The game is over: no more moves.",
    "first": "First sew the special patch onto an empty square of your quilt.",
    "covered": "That square is already covered (a1).",
    "special": "There is no special patch to place.",
    "none": "No patch is on offer any more.",
    "offer": "Patch 4 is not on offer: you may buy 1, 2, 3.",
    "dear": "You cannot afford patch 22: it costs 10 and you have 5.",
    "overlap": "That patch would overlap what is already sewn on at a1.",
}


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_every_refused_move_is_also_said_in_plain_words(lang: str) -> None:
    # What a table shows a player: the same reason, without the move's notation (which
    # stays in the template, shown as details).
    t = translator(lang)
    for name, english in PLAIN.items():
        e = refusal(name)
        assert isinstance(e, pw.IllegalMoveError)
        assert e.plain_text == english, name
        words = fill(e.plain, e.params, t)
        assert e.params["move"] not in words and "{" not in words, (lang, name, words)
        assert lang == "en" or words != english, (lang, name)
        if lang == "fa":
            assert not re.search(r"[0-9]", CODE.sub("", words).replace("a1", "")), words
    copy = pickle.loads(pickle.dumps(refusal("dear")))
    assert isinstance(copy, pw.IllegalMoveError) and copy.plain == refusal("dear").plain
