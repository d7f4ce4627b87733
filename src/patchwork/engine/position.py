"""The one-line position text, which round-trips every state (see docs/notation.md).

    revised:rf 5,18,26,...,0 0,5,0,9/9/9/9/9/9/9/9/9 0,5,0,9/9/9/9/9/9/9/9/9 0 - - - 26,32,38,44,50

Nine fields separated by spaces: rules (edition:orientations), the circle from the first
patch offered, player 0 and player 1 (position,buttons,income,quilt), whose token is on top,
the bonus tile's owner, the first to reach the final space, pending special patches (N@P),
and the spaces whose special patch still lies on the time board.
A quilt is nine rows, top first: a digit is a run of empty squares, ``x`` a covered square.

A solo game (against Automa, player 1) adds four fields: Automa's level and deck, its two
piles (with/without buttons), the card just played, and the deck (hidden in play: top
first, then the discard pile, the deck seed and the reshuffles so far).

    ... 0 - - - 26,32,38,44,50 3,normal -/- - 4,1,.../9,2/77/0
"""

from __future__ import annotations

from typing import Any

from . import automa as A
from . import data
from . import kernels as K
from .errors import InvalidPositionError, InvalidSetupError
from .rules import Rules
from .state import POSITION_TEXT, PositionText, Quilt, State, check_circle, make_state
from .tables import FULL_HI, FULL_LO, bits_of

_ORIENTATIONS = {"rf": (True, True), "r": (True, False), "f": (False, True), "-": (False, False)}
FIELDS = (
    "rules",
    "circle",
    "player 0",
    "player 1",
    "on top",
    "bonus owner",
    "first to finish",
    "pending specials",
    "specials left",
)
SOLO_FIELDS = ("automa", "automa's piles", "card played", "automa's deck")
# Numbers are bounded so that no game from an accepted position can leave the bounds (nor
# come near the kernels' 64-bit integers): a player's income plus the income printed on the
# patches still in the circle is at most INCOME_LIMIT, and buttons plus the most the rest of
# the game could pay (one a space up to the final space, INCOME_LIMIT at each income mark
# ahead) at most BUTTON_LIMIT. A game from a fresh setup stays far inside both (at most 38
# income and 5 + 53 + 9 x 38 = 400 buttons).
INCOME_LIMIT = 100
BUTTON_LIMIT = 10_000
_MAX_DIGITS = 5  # every number in position text is below 10^5


def quilt_text(quilt: Quilt) -> str:
    """A quilt board's field: nine rows, top first, between slashes; a digit is a run of
    empty squares, ``x`` a covered square."""
    covered = quilt.squares
    rows = []
    for r in range(data.BOARD_SIZE):
        row, run = "", 0
        for c in range(data.BOARD_SIZE):
            if (r, c) in covered:
                row += (str(run) if run else "") + "x"
                run = 0
            else:
                run += 1
        rows.append(row + (str(run) if run else ""))
    return "/".join(rows)


def _player_or_none(x: int | None) -> str:
    return "-" if x is None else str(x)


def position_text(state: State) -> str:
    rules = state.rules
    orient = next(k for k, v in _ORIENTATIONS.items() if v == (rules.rotation, rules.flip))
    circle = ",".join(str(i) for i in state.circle) or "-"
    players = [f"{p.position},{p.buttons},{p.income},{quilt_text(p.quilt)}" for p in state.players]
    pending = f"{state.pending_specials}@{state.current_player}" if state.pending_specials else "-"
    return " ".join(
        [
            f"{rules.edition}:{orient}",
            circle,
            *players,
            str(state.on_top),
            _player_or_none(state.bonus_owner),
            _player_or_none(state.first_to_finish),
            pending,
            ",".join(str(x) for x in state.special_spaces_left) or "-",
            *_solo_fields(state),
        ]
    )


def _ids(ids: tuple[int, ...]) -> str:
    return ",".join("S" if x == A.SPECIAL else str(x) for x in ids) or "-"


def _solo_fields(state: State) -> list[str]:
    automa, solo = state.rules.solo, A.hidden_part(state)
    if automa is None or solo is None:
        return []
    return [
        f"{automa.level},{automa.deck}" + (",specials" if automa.takes_specials else ""),
        f"{_ids(solo.with_buttons)}/{_ids(solo.without_buttons)}",
        "-" if solo.played is None else str(solo.played),
        f"{_ids(solo.deck)}/{_ids(solo.discard)}/{solo.seed}/{solo.shuffles}",
    ]


def _parse_quilt(text: str, who: str) -> tuple[int, int]:
    rows = text.split("/")
    if len(rows) != data.BOARD_SIZE:
        raise InvalidPositionError(f"{who}'s quilt has {len(rows)} rows, not 9 ('/' between rows)")
    covered = []
    for r, row in enumerate(rows):
        c = 0
        for ch in row:
            if ch == "x":
                covered.append((r, c))
                c += 1
            elif ch in "123456789":
                c += int(ch)
            else:
                raise InvalidPositionError(
                    f"{who}'s quilt row {r + 1} has {ch!r}: use x for covered, digits for empty"
                )
        if c != data.BOARD_SIZE:
            raise InvalidPositionError(f"{who}'s quilt row {r + 1} covers {c} squares, not 9")
    return bits_of(covered)


def _int(text: str, what: str, low: int, high: int, why: str = "") -> int:
    """A number as position text writes it: ASCII digits without leading zeros; ``why``
    explains the bounds when they are not plain facts of the rules."""
    if not text.isascii() or not text.isdigit():
        raise InvalidPositionError(f"{what} {text!r} is not a whole number")
    if len(text) > 1 and text[0] == "0":
        raise InvalidPositionError(f"{what} {text!r}: write numbers without leading zeros")
    if len(text) > _MAX_DIGITS or not low <= int(text) <= high:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise InvalidPositionError(f"{what} {shown} is out of range ({low}-{high}{why})")
    return int(text)


def max_buttons(position: int) -> int:
    """The most buttons a player on ``position`` may hold in position text (see
    BUTTON_LIMIT): what the rest of the game could still pay stays within the limit."""
    marks_ahead = sum(1 for mark in data.INCOME_SPACES if mark > position)
    return BUTTON_LIMIT - (data.FINAL_SPACE - position) - INCOME_LIMIT * marks_ahead


def _check_canonical(text: str, state: State) -> None:
    """Position text has one spelling per state: refuse any other (say where it differs)."""
    canonical = position_text(state)
    if canonical == text:
        return
    names = FIELDS + SOLO_FIELDS
    for name, given, wanted in zip(names, text.split(" "), canonical.split(" "), strict=False):
        if given != wanted:
            raise InvalidPositionError(
                f"the {name} field {given!r} is not written the canonical way: write {wanted!r}"
            )


def _player_field(text: str, what: str) -> int:
    if text == "-":
        return -1
    if text in ("0", "1"):
        return int(text)
    raise InvalidPositionError(f"{what} must be 0, 1 or -, not {text!r}")


def parse_position(text: str) -> State:
    """Read position text; anything malformed raises InvalidPositionError saying what."""
    if not isinstance(text, str):
        raise InvalidPositionError("position text must be a string")
    fields = text.split()
    if len(fields) not in (len(FIELDS), len(FIELDS) + len(SOLO_FIELDS)):
        raise InvalidPositionError(
            f"position text has {len(fields)} fields, not 9 (rules, circle, player 0, "
            "player 1, on top, bonus owner, first to finish, pending specials, specials left) "
            "or 13 for a solo game (then automa, automa's piles, card played, automa's deck)"
        )
    if text != " ".join(fields):
        raise InvalidPositionError(
            "position text separates its fields by single spaces, with none before or after"
        )
    solo_f, fields = fields[len(FIELDS) :], fields[: len(FIELDS)]
    rules_f, circle_f, p0, p1, top_f, bonus_f, first_f, pending_f, specials_f = fields
    edition, _, orient = rules_f.partition(":")
    if orient not in _ORIENTATIONS:
        raise InvalidPositionError(f"rules field {rules_f!r}: write edition:rf, :r, :f or :-")
    try:
        automa = _parse_automa(solo_f[0]) if solo_f else None
        rules = Rules(edition, *_ORIENTATIONS[orient], solo=automa)
        circle = (
            []
            if circle_f == "-"
            else check_circle(
                [_int(x, "circle entry", 0, 10**_MAX_DIGITS - 1) for x in circle_f.split(",")],
                complete=False,
            )
        )
    except InvalidSetupError as e:
        raise InvalidPositionError(str(e)) from None
    circle_income = sum(data.PATCHES[i].income for i in circle)
    players = []
    for who, field in (("player 0", p0), ("player 1", p1)):
        parts = field.split(",")
        if len(parts) != 4:
            raise InvalidPositionError(f"{who} must be position,buttons,income,quilt")
        position = _int(parts[0], f"{who}'s position", 0, data.FINAL_SPACE)
        buttons = _int(
            parts[1],
            f"{who}'s buttons",
            0,
            max_buttons(position),
            f" on space {position}: with what the rest of the game can pay, at most {BUTTON_LIMIT}",
        )
        income = _int(
            parts[2],
            f"{who}'s income",
            0,
            INCOME_LIMIT - circle_income,
            f": with the {circle_income} printed on the patches left in the circle, at most "
            f"{INCOME_LIMIT}",
        )
        players.append((position, buttons, income, _parse_quilt(parts[3], who)))
    top = _player_field(top_f, "on top")
    if top < 0:
        raise InvalidPositionError("on top must be 0 or 1")
    bonus = _player_field(bonus_f, "bonus owner")
    first = _player_field(first_f, "first to finish")
    if first >= 0 and players[first][0] != data.FINAL_SPACE:
        raise InvalidPositionError(f"player {first} cannot have finished first off space 53")
    if first < 0 and any(p[0] == data.FINAL_SPACE for p in players):
        raise InvalidPositionError("a player is on space 53, so first to finish must be given")
    pending, pending_player = 0, 0
    if pending_f != "-":
        count, _, who_f = pending_f.partition("@")
        pending = _int(count, "pending specials", 1, data.SPECIAL_PATCH_COUNT)
        pending_player = _player_field(who_f, "pending player")
        if pending_player < 0:
            raise InvalidPositionError("pending specials must be written N@P, like 1@0")
        lo, hi = players[pending_player][3]
        if (lo, hi) == (FULL_LO, FULL_HI):
            raise InvalidPositionError("pending special patches need an empty square")
    specials_left: list[int] = []
    if specials_f != "-":
        for x in specials_f.split(","):
            space = _int(x, "special patch space", 0, data.FINAL_SPACE)
            if space not in rules.special_spaces or space in specials_left:
                spaces = ",".join(str(s) for s in rules.special_spaces)
                raise InvalidPositionError(
                    f"{space} is not a special patch space of the {rules.edition} edition "
                    f"(listed once each from {spaces})"
                )
            specials_left.append(space)
    solo = _parse_solo(solo_f, rules, circle, players) if solo_f else None
    state = make_state(
        rules,
        circle,
        buttons=[p[1] for p in players],
        positions=[p[0] for p in players],
        incomes=[p[2] for p in players],
        boards=[p[3] for p in players],
        on_top=top,
        bonus_owner=bonus,
        first_to_finish=first,
        pending=pending,
        pending_player=pending_player,
        specials_left=specials_left,
        solo=solo,
    )
    if rules.solo is not None and bonus == A.AUTOMA:
        if players[A.AUTOMA][0] < rules.solo.marker:
            raise InvalidPositionError(
                f"Automa holds the bonus tile before reaching the marker on {rules.solo.marker}"
            )
    elif bonus >= 0 and not K.covers_bonus_square(state.vector, bonus):
        raise InvalidPositionError(f"player {bonus} holds the bonus tile without a covered 7x7")
    if rules.solo is not None and state.current_player == A.AUTOMA:
        raise InvalidPositionError(
            "in a solo position the person is to move (the engine plays Automa's turns)"
        )
    _check_canonical(text, state)
    return state


def _parse_automa(text: str) -> A.Automa:
    parts = text.split(",")
    if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "specials"):
        raise InvalidPositionError(
            f"automa field {text!r}: write level,deck (like 3,normal), adding ,specials for D1"
        )
    level = _int(parts[0], "Automa's level", 1, len(A.LEVELS))
    return A.Automa(level, parts[1], takes_specials=len(parts) == 3)


def _card_list(text: str, what: str, cards: tuple[int, ...]) -> tuple[int, ...]:
    if text == "-":
        return ()
    return tuple(_int(x, what, min(cards), max(cards)) for x in text.split(","))


def _pile(text: str, what: str, specials: bool) -> tuple[int, ...]:
    if text == "-":
        return ()
    out = []
    for x in text.split(","):
        if x == "S" and specials:
            out.append(A.SPECIAL)
        else:
            out.append(_int(x, f"{what} entry", 0, data.NUM_PATCHES - 1))
    return tuple(out)


def _parse_solo(
    fields: list[str], rules: Rules, circle: list[int], players: list[tuple[int, int, int, Any]]
) -> A.Solo:
    """Fields 10-13 of a solo position, checked against the rules of the solo mode."""
    automa = rules.solo
    assert automa is not None
    _pos, _buttons, income, quilt = players[A.AUTOMA]
    if income != 0 or quilt != (0, 0):
        raise InvalidPositionError("Automa has no quilt board: its income is 0, its quilt empty")
    piles = fields[1].split("/")
    if len(piles) != 2:
        raise InvalidPositionError("automa's piles must be WITH/WITHOUT, like 12,7/3 or -/-")
    with_b = _pile(piles[0], "pile with buttons", False)
    without_b = _pile(piles[1], "pile without buttons", automa.takes_specials)
    taken = [x for x in (*with_b, *without_b) if x != A.SPECIAL]
    if len(set(taken)) != len(taken) or set(taken) & set(circle):
        raise InvalidPositionError("a patch is in Automa's piles twice, or also in the circle")
    if any(data.PATCHES[x].income < 1 for x in with_b) or any(
        x != A.SPECIAL and data.PATCHES[x].income >= 1 for x in without_b
    ):
        raise InvalidPositionError("a patch with buttons is in the pile without, or the reverse")
    cards = A.deck_cards(automa.deck)
    played = None if fields[2] == "-" else _int(fields[2], "card played", min(cards), max(cards))
    parts = fields[3].split("/")
    if len(parts) != 4:
        raise InvalidPositionError("automa's deck must be DECK/DISCARD/SEED/SHUFFLES")
    deck = _card_list(parts[0], "deck card", cards)
    discard = _card_list(parts[1], "discard card", cards)
    t = parts[2]
    if not (t.isascii() and t.isdigit() and len(t) <= 10 and (t == "0" or t[0] != "0")) or (
        int(t) >= 2**32
    ):
        raise InvalidPositionError(f"deck seed {t!r} must be a whole number 0-{2**32 - 1}")
    seed = int(t)
    shuffles = _int(parts[3], "reshuffles", 0, 999)
    if sorted((*deck, *discard)) != sorted(cards) or not deck:
        raise InvalidPositionError(
            f"the deck and the discard pile hold the {automa.deck} deck's 12 cards once each, "
            "and the deck is never empty (it is reshuffled when it runs out)"
        )
    unseen = A.SETUP_DISCARDS if shuffles == 0 else 0
    if played is None and (shuffles or len(discard) != A.SETUP_DISCARDS):
        raise InvalidPositionError("before Automa's first card only the two setup cards lie out")
    if played is not None and len(discard) > unseen and discard[-1] != played:
        raise InvalidPositionError("the card played is the top card of the discard pile")
    return A.Solo(with_b, without_b, played, deck, discard, seed, shuffles)


POSITION_TEXT.lend(PositionText(write=position_text, read=parse_position))
