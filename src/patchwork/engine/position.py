"""The one-line position text, which round-trips every state (see docs/notation.md).

    revised:rf 5,18,26,...,0 0,5,0,9/9/9/9/9/9/9/9/9 0,5,0,9/9/9/9/9/9/9/9/9 0 - - - 26,32,38,44,50

Nine fields separated by spaces: rules (edition:orientations), the circle from the first
patch offered, player 0 and player 1 (position,buttons,income,quilt), whose token is on top,
the bonus tile's owner, the first to reach the final space, pending special patches (N@P),
and the spaces whose special patch still lies on the time board.
A quilt is nine rows, top first: a digit is a run of empty squares, ``x`` a covered square.

A solo game (against Automa, player 1) adds four fields: Automa's level and deck, its two
piles (with/without buttons), the card just played, and the deck. The private form, which
saves a game, writes the deck's order (top first), the discard pile, the deck seed and the
reshuffles so far; the public form (``public_text``: what the person sees on the table, D6)
writes ``?`` and the number of face-down cards (with the tactical deck, the budget on the top
card's back), then the discard pile with ``?`` for each unseen setup card.

    ... 0 - - - 26,32,38,44,50 3,normal -/- - 4,1,.../9,2/77/0     (private)
    ... 0 - - - 26,32,38,44,50 3,tactical -/- - ?10:4/?,?          (public)
"""

from __future__ import annotations

import random
from typing import Any

from . import automa as A
from . import data
from . import kernels as K
from .errors import InvalidPositionError, InvalidSetupError
from .rules import Rules
from .state import (
    MAX_AUTOMA_SEED,
    POSITION_TEXT,
    PositionText,
    Quilt,
    State,
    check_circle,
    make_state,
)
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
HIDDEN = "?"  # a card face down: the public deck field starts with it, unseen discards are it


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


def position_text(state: State, public: bool = False) -> str:
    """The position text of ``state``; with ``public``, a solo game's deck in the public
    form (what the person sees, D6: no order, no seed). A two-player text has no such part."""
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
            *_solo_fields(state, public),
        ]
    )


def public_text(state: State) -> str:
    """The position text without Automa's hidden deck order (D6): what an engine or a hint
    may be given. ``parse_position`` reads it back, drawing a deck consistent with it."""
    return position_text(state, public=True)


def is_public_text(text: str) -> bool:
    """Whether ``text`` is a solo position in the public form (its deck field starts ``?``);
    only a guess at the hidden part can come from one, never the game's own."""
    fields = text.split() if isinstance(text, str) else []
    return len(fields) == len(FIELDS) + len(SOLO_FIELDS) and fields[-1].startswith(HIDDEN)


def _ids(ids: tuple[int, ...]) -> str:
    return ",".join("S" if x == A.SPECIAL else str(x) for x in ids) or "-"


def _solo_fields(state: State, public: bool) -> list[str]:
    automa, solo = state.rules.solo, A.hidden_part(state)
    if automa is None or solo is None:
        return []
    if public:
        deck = _public_deck(automa, state.automa)
    else:
        deck = f"{_ids(solo.deck)}/{_ids(solo.discard)}/{solo.seed}/{solo.shuffles}"
    return [
        f"{automa.level},{automa.deck}" + (",specials" if automa.takes_specials else ""),
        f"{_ids(solo.with_buttons)}/{_ids(solo.without_buttons)}",
        "-" if solo.played is None else str(solo.played),
        deck,
    ]


def _public_deck(automa: A.Automa, view: A.AutomaView | None) -> str:
    """``?N[:B]/DISCARD``: N cards face down (B on the top card's back, tactical deck), the
    discard pile bottom first with ``?`` for each setup card still lying unseen in it."""
    assert view is not None
    unseen = len(A.deck_cards(automa.deck)) - view.cards_in_deck - len(view.cards_seen)
    top = f"{HIDDEN}{view.cards_in_deck}"
    if view.next_budget is not None:
        top += f":{view.next_budget}"
    pile = ",".join([HIDDEN] * unseen + [str(c) for c in view.cards_seen]) or "-"
    return f"{top}/{pile}"


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


def _check_canonical(text: str, state: State, public: bool) -> None:
    """Position text has one spelling per state: refuse any other (say where it differs)."""
    canonical = position_text(state, public)
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


def parse_position(text: str, seed: int = 0) -> State:
    """Read position text; anything malformed raises InvalidPositionError saying what.

    A solo position in the public form (``public_text``) leaves Automa's deck order out:
    the state read then holds a hidden part drawn at random among those consistent with
    what the text shows (``automa.sample_hidden``), from ``seed`` and the text, so the same
    text and seed give the same state. That deck is a guess, not the game's: Automa's later
    turns from it are what might happen, not what will.
    """
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
    public = bool(solo_f) and solo_f[3].startswith(HIDDEN)
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
    if public:
        state = _with_drawn_deck(state, random.Random(f"public position:{seed}:{text}"))
    _check_canonical(text, state, public)
    return state


def _with_drawn_deck(state: State, rng: random.Random) -> State:
    """``state`` (holding a stand-in hidden part that shows the same) with a hidden part
    drawn from what the person sees: the guess a public position stands for."""
    view = state.automa
    assert view is not None and state.rules.solo is not None
    try:
        drawn = A.sample_hidden(view, rng)
    except InvalidSetupError as e:  # _parse_solo checks first; this says what it missed
        raise InvalidPositionError(f"automa's deck: {e}") from None
    guessed = State(state.vector, state.rules, drawn)
    assert guessed.automa == view
    return guessed


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
    if fields[3].startswith(HIDDEN):
        deck, discard, shuffles = _public_deck_part(fields[3], automa, cards)
        seed = 0  # a stand-in: parse_position draws the hidden part
    else:
        deck, discard, seed, shuffles = _private_deck_part(fields[3], automa, cards)
    unseen = A.SETUP_DISCARDS if shuffles == 0 else 0
    if played is None and (shuffles or len(discard) != A.SETUP_DISCARDS):
        raise InvalidPositionError("before Automa's first card only the two setup cards lie out")
    if played is not None and shuffles == 0 and len(discard) == unseen:
        raise InvalidPositionError(
            f"card {played} was played, so it lies face up on the discard pile (no reshuffle "
            "has taken it back yet)"
        )
    if played is not None and len(discard) > unseen and discard[-1] != played:
        raise InvalidPositionError("the card played is the top card of the discard pile")
    return A.Solo(with_b, without_b, played, deck, discard, seed, shuffles)


def _private_deck_part(
    text: str, automa: A.Automa, cards: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], int, int]:
    """``DECK/DISCARD/SEED/SHUFFLES``: the deck, the discard pile, the seed, the reshuffles."""
    parts = text.split("/")
    if len(parts) != 4:
        raise InvalidPositionError(
            "automa's deck must be DECK/DISCARD/SEED/SHUFFLES, or in the public form "
            "?COUNT/DISCARD (like ?10/?,?)"
        )
    deck = _card_list(parts[0], "deck card", cards)
    discard = _card_list(parts[1], "discard card", cards)
    t = parts[2]
    if not (t.isascii() and t.isdigit() and len(t) <= 10 and (t == "0" or t[0] != "0")) or (
        int(t) > MAX_AUTOMA_SEED
    ):
        raise InvalidPositionError(f"deck seed {t!r} must be a whole number 0-{MAX_AUTOMA_SEED}")
    shuffles = _int(parts[3], "reshuffles", 0, 999)
    if sorted((*deck, *discard)) != sorted(cards) or not deck:
        raise InvalidPositionError(
            f"the deck and the discard pile hold the {automa.deck} deck's 12 cards once each, "
            "and the deck is never empty (it is reshuffled when it runs out)"
        )
    return deck, discard, int(t), shuffles


def _public_deck_part(
    text: str, automa: A.Automa, cards: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """``?COUNT[:BUDGET]/DISCARD`` read into a stand-in (deck, discard, reshuffles) that
    shows the person exactly this: the unseen cards in the deck, the top one of the budget
    shown; ``_with_drawn_deck`` then puts a drawn order in its place."""
    parts = text.split("/")
    if len(parts) != 2:
        raise InvalidPositionError(
            f"automa's deck {text!r} in the public form is ?COUNT/DISCARD, like ?10/?,? "
            "(?COUNT:BUDGET with the tactical deck)"
        )
    count_f, _, budget_f = parts[0][len(HIDDEN) :].partition(":")
    count = _int(count_f, "cards in Automa's deck", 1, len(cards))
    tactical = automa.deck == "tactical"
    if tactical != (":" in parts[0]):
        raise InvalidPositionError(
            "the tactical deck shows the next budget on its top card's back: write ?COUNT:BUDGET"
            if tactical
            else "the normal deck's backs are plain: write ?COUNT, without a budget"
        )
    pile = [] if parts[1] == "-" else parts[1].split(",")
    hidden = 0
    while hidden < len(pile) and pile[hidden] == HIDDEN:
        hidden += 1
    if hidden not in (0, A.SETUP_DISCARDS) or HIDDEN in pile[hidden:]:
        raise InvalidPositionError(
            f"the discard pile starts with the {A.SETUP_DISCARDS} unseen setup cards "
            f"({','.join([HIDDEN] * A.SETUP_DISCARDS)}) until the first reshuffle, and has no "
            "other unseen card"
        )
    seen = tuple(_int(x, "discard card", min(cards), max(cards)) for x in pile[hidden:])
    if len(set(seen)) != len(seen) or count + len(pile) != len(cards):
        raise InvalidPositionError(
            f"the deck's {count} cards and the discard pile's {len(pile)} are not the "
            f"{automa.deck} deck's {len(cards)} cards, each seen card once"
        )
    rest = sorted(c for c in cards if c not in seen)  # the deck and any unseen setup cards
    if tactical:
        budget = _int(budget_f, "next budget", 0, max(A.CARDS[c].budget for c in cards))
        tops = [c for c in rest if A.CARDS[c].budget == budget]
        if not tops:
            raise InvalidPositionError(
                f"no card still face down has the budget {budget} on its back"
                + (f" (seen face up: {','.join(str(c) for c in seen)})" if seen else "")
            )
        rest.remove(tops[0])
        rest.insert(0, tops[0])
    return tuple(rest[:count]), (*rest[count:], *seen), 0 if hidden else 1


POSITION_TEXT.lend(PositionText(write=position_text, read=parse_position))
