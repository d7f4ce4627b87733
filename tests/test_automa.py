"""Solo Patchwork against the official Automa: each rule and decision of docs/solo.md by name."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

import patchwork as pw
from patchwork.engine import automa as A
from patchwork.engine import layout as L
from patchwork.engine.automa import Automa
from patchwork.engine.state import make_state
from patchwork.tui import solo, text

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = json.loads((ROOT / "tests" / "data" / "automa_golden.json").read_text("utf-8"))
REST = [p for p in range(33) if p not in (1, 2, 3, 4, 5, 6, 7, 8, 9)]


def solo_state(
    circle: Sequence[int],
    deck: Sequence[int],
    *,
    person: int = 0,
    automa: int = 0,
    on_top: int = 0,
    level: int = 2,
    which: str = "normal",
    buttons: int = 0,
    bonus: int = -1,
    takes_specials: bool = False,
    quilt: tuple[int, int] = (0, 0),
) -> pw.State:
    """A composed solo position with Automa's deck ``deck`` (top first), the other cards of
    the deck on the discard pile; Automa to move is fine here (tests call play_turn)."""
    rules = pw.Rules(solo=Automa(level, which, takes_specials))
    others = tuple(c for c in A.deck_cards(which) if c not in deck)
    part = A.Solo((), (), others[-1] if len(others) > 2 else None, tuple(deck), others, 7, 1)
    return make_state(
        rules,
        list(circle),
        buttons=(5, buttons),
        positions=(person, automa),
        boards=(quilt, (0, 0)),
        on_top=on_top,
        bonus_owner=bonus,
        solo=part,
    )


def turn(state: pw.State) -> tuple[np.ndarray, A.Solo, A.Turn]:
    """Play one turn of Automa on a copy of the state's vector."""
    v = state.vector.copy()
    part = A.hidden_part(state)
    assert part is not None and state.rules.solo is not None
    new, t = A.play_turn(v, part, state.rules.solo, state.rules.special_spaces)
    return v, new, t


# -- the cards are data -----------------------------------------------------------------------


def test_card_table_is_data_and_matches_the_rules_document() -> None:
    rows = re.findall(
        r"^\| (\d+) \| (normal|tactical) \| (\d+) \| (\w+) \| (\w+) \| (\w+) \| (\d) \|$",
        (ROOT / "docs" / "solo.md").read_text("utf-8"),
        re.M,
    )
    assert len(rows) == 24
    short = {"NO": A.NO_OVERTAKE, "MB": A.MOST_BUTTONS, "LG": A.LARGEST, "FU": A.FURTHEST}
    for number, deck, budget, f1, f2, f3, income in rows:
        card = A.CARDS[int(number)]
        filters = tuple(short[f] for f in (f1, f2, f3) if f != "none")
        assert (card.deck, card.budget, card.filters, card.income) == (
            deck,
            int(budget),
            filters,
            int(income),
        )
    for deck in A.DECKS:  # "Each deck: 64 virtual buttons, 18 income in all."
        cards = [A.CARDS[n] for n in A.deck_cards(deck)]
        assert sum(c.budget for c in cards) == 64 and sum(c.income for c in cards) == 18
        assert all(c.filters[-1] == A.FURTHEST for c in cards if c.filters)


def test_level_names_of_the_game_match_the_data() -> None:
    assert {n: lv.name for n, lv in A.LEVELS.items()} == solo.LEVEL_NAMES


# -- setup and turn order ---------------------------------------------------------------------


def test_rule_1_automa_has_no_quilt_and_no_starting_buttons() -> None:
    state = pw.new_game(seed=1, rules=pw.Rules(solo=Automa(3)))
    me, automa = state.players
    assert (me.buttons, automa.buttons, automa.income, automa.quilt.squares) == (5, 0, 0, set())


def test_rule_2_deck_and_two_unseen_discards_come_from_the_seed() -> None:
    rules = pw.Rules(solo=Automa(1, "tactical"))
    a, b = (A.hidden_part(pw.new_game(seed=9, rules=rules)) for _ in range(2))
    assert a == b and a is not None
    assert len(a.deck) == 10 and len(a.discard) == 2
    assert sorted(a.deck + a.discard) == list(range(13, 25))
    view = pw.new_game(seed=9, rules=rules).automa
    assert view is not None and view.cards_seen == () and view.played is None
    other = A.hidden_part(pw.new_game(seed=10, rules=rules))
    assert other is not None and other.deck != a.deck


@pytest.mark.parametrize(("level", "marker"), [(1, 52), (2, 44), (3, 41), (4, 38), (5, 35)])
def test_rule_3_the_level_sets_the_marker(level: int, marker: int) -> None:
    view = pw.new_game(seed=1, rules=pw.Rules(solo=Automa(level))).automa
    assert view is not None and view.marker == marker


def test_rule_4_the_person_moves_first_and_automa_may_move_several_times() -> None:
    state = pw.new_game(seed=1, rules=pw.Rules(solo=Automa(2)))
    assert state.current_player == 0
    with pytest.raises(pw.InvalidSetupError, match="moves first"):
        pw.new_game(seed=1, rules=pw.Rules(solo=Automa(2)), first_player=1)
    replies = state.automa_replies(pw.Advance())  # the person is on 1: Automa plays on past it
    assert len(replies) >= 1 and state.apply(pw.Advance()).current_player == 0
    assert any(len(turns) > 1 for game in GOLDEN for turns in game["automa_turns"])


# -- Automa's turn ----------------------------------------------------------------------------


def test_rule_5_and_6_the_budget_decides_what_is_affordable() -> None:
    # Card 4: budget 4. Patch 1 costs 2, patch 9 costs 5, patch 3 costs 2.
    state = solo_state([1, 9, 3, *REST], [4], person=10)
    _v, _new, t = turn(state)
    assert t.budget == 4
    assert t.affordable == tuple(p for p in (1, 9, 3) if pw.PATCHES[p].buttons <= 4)


def test_rule_7_case_a_passes_without_buttons_but_with_income() -> None:
    state = solo_state([13, 22, 24, *REST[3:]], [12], person=12, automa=3)  # card 12: budget 0
    v, _new, t = turn(state)
    assert t.patch is None and t.end == 13
    assert v[L.BUTTONS + 1] == 2 * 5  # no buttons for the spaces; income 5 at 5 and 11
    assert v[L.CIRCLE_LEN] == state.vector[L.CIRCLE_LEN]  # the neutral token stays


def test_rule_8_case_b_takes_the_one_affordable_patch() -> None:
    state = solo_state([7, 22, 24, *REST[3:]], [12], person=12)  # only patch 7 costs 0
    _v, _new, t = turn(state)
    assert (t.affordable, t.patch, t.decided_by) == ((7,), 7, None)


def test_rule_9_a_filter_that_would_leave_no_patch_is_skipped() -> None:
    # Card 4 (NO, LG, FU): the person is on 1, so every patch overtakes; LARGEST decides.
    circle = [25, 1, 4, *[p for p in REST if p != 25]]
    state = solo_state(circle, [4], person=1)
    _v, _new, t = turn(state)
    sizes = {p: len(pw.PATCHES[p].cells) for p in t.affordable}
    assert t.decided_by in (A.LARGEST, A.FURTHEST) and t.patch in sizes
    assert sizes[t.patch] == max(sizes.values())
    assert A.choose((25, 1), A.CARDS[4], 0, 1)[1] in (25, 1)


def test_rule_9_filters_apply_top_to_bottom() -> None:
    # Card 7 (MOST_BUTTONS, LARGEST, FURTHEST): the most printed buttons decide before the
    # size, so in an offer where the patch with most buttons is not the largest it still wins.
    card = A.CARDS[7]
    assert card.filters == (A.MOST_BUTTONS, A.LARGEST, A.FURTHEST)
    patches = [p for p in range(len(pw.PATCHES)) if pw.PATCHES[p].buttons <= card.budget]
    size = {p: len(pw.PATCHES[p].cells) for p in patches}
    offered = next(
        (a, b, c)
        for a in patches
        for b in patches
        for c in patches
        if len({a, b, c}) == 3
        and pw.PATCHES[a].income > max(pw.PATCHES[b].income, pw.PATCHES[c].income)
        and size[a] < max(size[b], size[c])
    )
    assert A.choose(offered, card, 0, 53) == (offered, offered[0], A.MOST_BUTTONS)
    # With the first filter undecided (equal buttons), the next one decides: the largest.
    tied = next(
        (a, b, c)
        for a in patches
        for b in patches
        for c in patches
        if len({a, b, c}) == 3
        and pw.PATCHES[a].income == pw.PATCHES[b].income == pw.PATCHES[c].income
        and size[a] > max(size[b], size[c])
    )
    assert A.choose(tied, card, 0, 53) == (tied, tied[0], A.LARGEST)


def test_rule_10_taking_a_patch_moves_the_neutral_token_and_fills_a_pile() -> None:
    circle = [7, 22, 24, *REST[3:]]
    state = solo_state(circle, [12], person=12)
    v, new, t = turn(state)
    assert t.patch == 7 and pw.PATCHES[7].income >= 1  # D5: with buttons
    assert new.with_buttons == (7,) and new.without_buttons == ()
    n = int(v[L.CIRCLE_LEN])
    assert [int(x) for x in v[L.CIRCLE : L.CIRCLE + n]] == circle[1:]
    assert v[L.POSITION + 1] == pw.PATCHES[7].time


def test_rule_11_the_card_is_discarded_face_up() -> None:
    state = solo_state([7, 22, 24, *REST[3:]], [12, 1], person=12)
    _v, new, _t = turn(state)
    assert new.played == 12 and new.discard[-1] == 12 and new.deck == (1,)


def test_rule_12_and_d3_income_per_income_space_crossed_at_53_too() -> None:
    # Card 1 (income 4) passing from 40 to 53 crosses 41, 47 and lands on 53: three payments.
    circle = [22, 24, 10, *[p for p in REST if p not in (22, 24, 10)]]
    state = solo_state(circle, [1], person=53, automa=40)
    v, _new, t = turn(state)
    assert t.patch is None and t.end == 53 and t.income == 3 * 4 and v[L.BUTTONS + 1] == 12


def test_rule_14_automa_takes_the_tile_at_the_marker() -> None:
    circle = [22, 24, 10, *[p for p in REST if p not in (22, 24, 10)]]
    state = solo_state(circle, [1], person=50, automa=40, level=2)  # marker on 44
    v, _new, t = turn(state)
    assert t.bonus and v[L.BONUS] == 1


def test_rule_14_the_marker_against_a_person_who_has_the_bonus() -> None:
    circle = [22, 24, 10, *[p for p in REST if p not in (22, 24, 10)]]
    state = solo_state(circle, [1], person=50, automa=40, level=2, bonus=0)
    v, _new, t = turn(state)
    assert not t.bonus and v[L.BONUS] == 0


def test_rule_15_the_reshuffle_includes_the_two_setup_discards() -> None:
    state = pw.new_game(seed=3, rules=pw.Rules(solo=Automa(2)))
    part = A.hidden_part(state)
    assert part is not None
    unseen = part.discard
    while True:
        part2 = A.hidden_part(state)
        assert part2 is not None
        if part2.shuffles:
            break
        state = state.apply(pw.Advance())
    assert part2.shuffles == 1 and len(part2.deck) + len(part2.discard) == 12
    assert set(unseen) <= set(part2.deck + part2.discard)
    assert part2.deck == A.shuffled(A.deck_cards("normal"), part2.seed, 1)[len(part2.discard) :]


def test_rule_16_tactical_shows_the_next_budget_and_normal_does_not() -> None:
    tactical = pw.new_game(seed=2, rules=pw.Rules(solo=Automa(1, "tactical")))
    normal = pw.new_game(seed=2, rules=pw.Rules(solo=Automa(1)))
    part = A.hidden_part(tactical)
    assert tactical.automa is not None and normal.automa is not None and part is not None
    assert tactical.automa.next_budget == A.CARDS[part.deck[0]].budget
    assert normal.automa.next_budget is None


def test_rule_17_level_i_scores_0_or_7() -> None:
    for game in GOLDEN:
        if game["level"] == 1:
            assert game["scores"][1] in (0, 7)
    end = pw.State.from_text(GOLDEN[0]["end"])
    assert end.automa is not None and dict(end.automa.score_parts).keys() == {"bonus"}


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_rule_17_each_level_counts_its_columns(level: int) -> None:
    v = np.zeros(L.STATE_SIZE, dtype=np.int64)
    v[L.BONUS], v[L.BUTTONS + 1] = 1, 10
    part = A.Solo((7, 8), (2,), 1, (2,), (), 0, 0)
    parts = A.score_parts(v, part, Automa(level))
    printed = pw.PATCHES[7].income + pw.PATCHES[8].income
    expected = {1: 7, 2: 17, 3: 19, 4: 17 + printed, 5: 19 + printed}
    assert sum(parts.values()) == expected[level]


def test_rule_18_ties_go_to_the_first_to_reach_the_end() -> None:
    end = pw.State.from_text(GOLDEN[0]["end"])
    me, automa = end.scores()
    assert end.winner() == (0 if me > automa else 1 if automa > me else end.first_to_finish)


# -- decisions --------------------------------------------------------------------------------


def test_d1_automa_leaves_special_patches_for_the_person() -> None:
    circle = [22, 24, 10, *[p for p in REST if p not in (22, 24, 10)]]
    state = solo_state(circle, [1], person=40, automa=20, takes_specials=False)
    v, new, _t = turn(state)
    assert v[L.SPECIALS] == state.vector[L.SPECIALS] and new.without_buttons == ()
    taker = solo_state(circle, [1], person=40, automa=20, takes_specials=True)
    v, new, t = turn(taker)
    assert t.specials == 3 and new.without_buttons == (A.SPECIAL,) * 3  # 26, 32 and 38


def test_d2_landing_on_the_person_is_not_overtaking_and_a_shared_space_skips() -> None:
    card = A.CARDS[1]  # NO, MB, FU
    one, two = 25, 29  # time 2 each
    assert A._filter(A.NO_OVERTAKE, [one, two], (one, two), 3, 5) == [one, two]
    assert A._filter(A.NO_OVERTAKE, [one, two], (one, two), 4, 5) == []
    # Both on 5, Automa on top: every patch overtakes, so NO_OVERTAKE is skipped.
    _aff, patch, by = A.choose((one, two), card, 5, 5)
    assert patch is not None and by in (A.MOST_BUTTONS, A.FURTHEST)


def test_d4_with_fewer_than_three_patches_automa_considers_those_there() -> None:
    state = solo_state([7], [12], person=12)
    _v, _new, t = turn(state)
    assert t.patch == 7


def test_d6_the_view_does_not_leak_the_deck_order() -> None:
    a = solo_state([7, 22, 24, *REST[3:]], [1, 2, 3])
    b = solo_state([7, 22, 24, *REST[3:]], [3, 1, 2])
    assert a != b and a.automa == b.automa
    fields = set(A.AutomaView.__dataclass_fields__)
    assert not fields & {"deck_order", "discard", "seed", "shuffles"}


# -- golden games, text and records -----------------------------------------------------------


@pytest.mark.parametrize("game", GOLDEN, ids=lambda g: f"seed{g['seed']}-L{g['level']}")
def test_golden_solo_games(game: dict[str, object]) -> None:
    rules = pw.Rules(solo=Automa(game["level"], game["deck"]))  # type: ignore[arg-type]
    state = pw.new_game(seed=game["seed"], rules=rules)
    for move, expected in zip(game["moves"], game["automa_turns"], strict=True):  # type: ignore[call-overload]
        m = pw.Move.parse(move, state)
        got = [[t.card, t.patch, t.decided_by, t.end, t.income, t.bonus, t.reshuffled]
               for t in state.automa_replies(m)]  # fmt: skip
        assert got == expected
        state = state.apply(m)
    assert list(state.scores()) == game["scores"] and state.winner() == game["winner"]
    assert state.to_text() == game["end"]


def test_solo_records_round_trip_and_replay_automa(tmp_path: Path) -> None:
    game = GOLDEN[2]
    rules = pw.Rules(solo=Automa(game["level"], game["deck"]))
    g = pw.Game(pw.new_game(seed=game["seed"], rules=rules))
    for move in game["moves"]:
        g.push(move)
    record = g.to_record()
    d = record.to_dict()
    assert d["version"] == 3 and d["rules"]["solo"]["deck"] == "tactical"
    assert "automa_seed" in d["setup"]
    for name in ("r.json", "r.txt"):
        record.save(tmp_path / name)
        back = pw.Record.load(tmp_path / name)
        assert back == record and pw.Game.from_record(back).state == g.state
    assert '[Automa "5 tactical"]' in record.to_text()
    d["setup"]["automa_seed"] += 1  # another deck: Automa plays otherwise, the result breaks
    with pytest.raises(pw.InvalidRecordError):
        pw.Record.from_dict(d)


def test_two_player_texts_and_records_are_unchanged() -> None:
    state = pw.new_game(seed=4)
    assert len(state.to_text().split(" ")) == 9 and state.automa is None
    assert pw.Rules().to_dict() == {"edition": "revised", "rotation": True, "flip": True}
    assert pw.Game(state).to_record().to_dict()["version"] == 1


def test_solo_position_text_round_trips_every_state_of_a_game() -> None:
    game = GOLDEN[3]
    state = pw.new_game(seed=game["seed"], rules=pw.Rules(solo=Automa(4, "tactical")))
    for move in game["moves"]:
        assert pw.State.from_text(state.to_text()) == state
        state = state.apply(pw.Move.parse(move, state))
    assert pw.State.from_text(state.to_text()).to_text() == state.to_text()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ((9, "6,normal"), "Automa's level"),
        ((10, "1/-"), "also in the circle"),
        ((12, "-/1,2/7/0"), "12 cards"),
        ((3, "0,0,1,9/9/9/9/9/9/9/9/9"), "no quilt board"),
    ],
)
def test_bad_solo_positions_are_refused(change: tuple[int, str], message: str) -> None:
    fields = pw.new_game(seed=1, rules=pw.Rules(solo=Automa(2))).to_text().split(" ")
    fields[change[0]] = change[1]
    with pytest.raises(pw.InvalidPositionError, match=message):
        pw.State.from_text(" ".join(fields))


# -- the plain game ---------------------------------------------------------------------------


def test_plain_solo_game_says_automas_moves_and_its_score() -> None:
    out = io.StringIO()
    listing = [0]

    def type_a_move(_prompt: str) -> str:  # ask for the moves, then type the first listed
        if not listing[0]:
            listing[0] = len(out.getvalue())
            return "moves"
        shown, listing[0] = out.getvalue()[listing[0] :], 0
        return re.findall(r"(?<!\S)(A|S@[a-i][1-9])(?!\S)", shown)[0]

    code = text.main(
        ["--solo", "2", "--deck", "tactical", "--seed", "5", "--lang", "en"],
        input_fn=type_a_move,
        out=out,
    )
    shown = out.getvalue()
    assert code == 0
    assert re.search(r"Automa had \d+ to spend: ", shown)
    assert "next budget:" in shown and "7x7 marker on space 44" in shown
    assert "level 2, Apprentice" in shown and "Automa (level 2, Apprentice) scores" in shown


def test_plain_solo_refuses_an_opponent() -> None:
    assert text.main(["--solo", "1", "--opponent", "greedy"], input_fn=lambda _p: "quit") == 1


# -- what the person may believe (D6) ----------------------------------------------------------


@pytest.mark.parametrize("deck", A.DECKS)
def test_a_sampled_hidden_part_shows_the_person_the_same_view(deck: str) -> None:
    state = pw.new_game(seed=5, rules=pw.Rules(solo=Automa(3, deck)))
    rng = random.Random(1)
    orders = set()
    for _ in range(6):
        for _ in range(200):
            sampled = A.sample_hidden(state.automa, rng)
            assert A.view(state.vector, sampled, state.rules.solo) == state.automa
            assert sorted((*sampled.deck, *sampled.discard)) == sorted(A.deck_cards(deck))
            orders.add(sampled.deck)
        if state.is_terminal():
            break
        state = state.apply(pw.Advance())
    assert len(orders) > 50  # the order is really drawn, not copied from the game


def test_a_sampled_hidden_part_never_copies_the_real_deck_when_a_budget_is_shown() -> None:
    state = pw.new_game(seed=11, rules=pw.Rules(solo=Automa(2, "tactical")))
    real = A.hidden_part(state)
    assert real is not None
    rng = random.Random(3)
    tops = {A.sample_hidden(state.automa, rng).deck[0] for _ in range(300)}
    same_budget = {
        c for c in real.deck + real.discard if A.CARDS[c].budget == A.CARDS[real.deck[0]].budget
    }
    assert tops == same_budget
