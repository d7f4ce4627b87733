"""Solo games outside the engine's memory: the public position text (what the person sees,
D6), the engine protocol on solo positions (in this process and over real pipes, the host
sending only the public form), and solo records that round-trip or are refused clearly."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

import patchwork as pw
from engine_session import Session
from patchwork.ai import Limit
from patchwork.ai.warmup import warm_up_search
from patchwork.engine import automa as A
from patchwork.engine.automa import Automa
from patchwork.engine.position import is_public_text, public_text
from patchwork.protocol import Engine
from patchwork.protocol.engine_protocol import parse_position, position_command

ENGINE = [sys.executable, "-m", "patchwork.protocol.engine_server"]
SOLO_RULES = [(level, deck, specials) for level in (1, 3, 5) for deck in A.DECKS
              for specials in (False, True)]  # fmt: skip


def solo_game(seed: int, level: int = 3, deck: str = "normal", specials: bool = False) -> pw.State:
    return pw.new_game(seed=seed, rules=pw.Rules(solo=Automa(level, deck, specials)))


def random_states(seed: int, level: int, deck: str, specials: bool) -> list[pw.State]:
    """Every state of one random solo game (the person's moves drawn from ``seed``)."""
    rng = random.Random(seed)
    state = solo_game(seed, level, deck, specials)
    states = [state]
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states


def deck_field(text: str) -> str:
    return text.split(" ")[-1]


# -- the public position text ------------------------------------------------------------------


@pytest.mark.parametrize(("level", "deck", "specials"), SOLO_RULES)
def test_public_text_round_trips_every_state_of_a_game(
    level: int, deck: str, specials: bool
) -> None:
    for state in random_states(level * 10 + specials, level, deck, specials):
        text = state.to_text(public=True)
        assert text == public_text(state) and is_public_text(text)
        back = pw.State.from_text(text, seed=5)
        assert back.to_text(public=True) == text
        assert back.automa == state.automa
        assert back.legal_moves() == state.legal_moves() and back.scores() == state.scores()
        assert pw.State.from_text(back.to_text()) == back  # the guess is a whole private state
        private = state.to_text()
        assert not is_public_text(private)
        assert text.split(" ")[:-1] == private.split(" ")[:-1]  # only the deck field differs


def test_the_public_deck_field_is_what_lies_on_the_table() -> None:
    normal, tactical = solo_game(1), solo_game(1, deck="tactical")
    assert deck_field(normal.to_text(public=True)) == "?10/?,?"
    budget = tactical.automa.next_budget if tactical.automa else None
    assert deck_field(tactical.to_text(public=True)) == f"?10:{budget}/?,?"
    state = normal
    while (
        state.automa is not None and state.automa.cards_in_deck + len(state.automa.cards_seen) < 12
    ):
        state = state.apply(state.legal_moves()[0])  # on to the first reshuffle: no ?
    view = state.automa
    assert view is not None
    seen = ",".join(str(c) for c in view.cards_seen) or "-"
    assert deck_field(state.to_text(public=True)) == f"?{view.cards_in_deck}/{seen}"


def test_same_text_and_seed_give_the_same_state_and_other_seeds_other_decks() -> None:
    text = solo_game(4).to_text(public=True)
    assert pw.State.from_text(text, seed=9) == pw.State.from_text(text, seed=9)
    assert pw.State.from_text(text) == pw.State.from_text(text, seed=0)
    decks = {A.hidden_part(pw.State.from_text(text, seed=s)) for s in range(12)}
    assert len({d.deck for d in decks if d is not None}) > 6


@pytest.mark.parametrize("deck", A.DECKS)
def test_the_public_text_does_not_give_the_deck_order_away(deck: str) -> None:
    """For many positions: the text names no card that is still face down, and what is read
    from it guesses the order (different seeds, different decks; the real one only by luck)."""
    checked = 0
    for game in range(6):
        for state in random_states(100 + game, 2, deck, False)[::3]:
            real = A.hidden_part(state)
            view = state.automa
            assert real is not None and view is not None
            text = state.to_text(public=True)
            named = [x for x in deck_field(text).split("/")[1].split(",") if x not in "?-"]
            assert [int(x) for x in named] == list(view.cards_seen)
            assert str(real.seed) not in deck_field(text)
            if len(real.deck) < 4:
                continue
            assert ",".join(map(str, real.deck)) not in text
            guesses = [A.hidden_part(pw.State.from_text(text, seed=s)) for s in range(8)]
            orders = {g.deck for g in guesses if g is not None}
            assert len(orders) > 1
            assert sum(order == real.deck for order in orders) <= 1
            checked += 1
    assert checked > 20


def _fields(state: pw.State) -> list[str]:
    return state.to_text(public=True).split(" ")


def _after_automa_turns(deck: str = "normal") -> pw.State:
    """A state where Automa has played cards and the setup cards still lie unseen."""
    state = solo_game(2, deck=deck)
    while state.automa is not None and len(state.automa.cards_seen) < 2:
        state = state.apply(state.legal_moves()[0])
    return state


@pytest.mark.parametrize(
    ("deck", "field", "message"),
    [
        ("normal", "?10", "public form is ?COUNT/DISCARD"),
        ("normal", "?10/?,?/3", "public form is ?COUNT/DISCARD"),
        ("normal", "?ten/?,?", "cards in Automa's deck 'ten' is not a whole number"),
        ("normal", "?0/?,?", "out of range (1-12)"),
        ("normal", "?10:3/?,?", "the normal deck's backs are plain"),
        ("tactical", "?10/?,?", "the tactical deck shows the next budget"),
        ("tactical", "?10:7/?,?", "no card still face down has the budget 7"),
        ("tactical", "?10:11/?,?", "next budget 11 is out of range (0-10)"),
        ("normal", "?11/?", "starts with the 2 unseen setup cards"),
        ("normal", "?9/?,?,?", "starts with the 2 unseen setup cards"),
        ("normal", "?9/?,3,?", "has no other unseen card"),
        ("normal", "??10/?,?", "cards in Automa's deck '?10' is not a whole number"),
        ("normal", "?9/?,?", "not the normal deck's 12 cards"),
        ("normal", "?12/-", "before Automa's first card only the two setup cards lie out"),
        ("normal", "?9/?,?,13", "discard card 13 is out of range (1-12)"),
        ("normal", "?10/-,-", "discard card '-' is not a whole number"),
    ],
)
def test_malformed_or_impossible_public_deck_fields_are_refused(
    deck: str, field: str, message: str
) -> None:
    fields = _fields(solo_game(3, deck=deck))
    fields[-1] = field
    with pytest.raises(pw.InvalidPositionError, match=re.escape(message)):
        pw.State.from_text(" ".join(fields))


def test_impossible_public_discard_piles_are_refused() -> None:
    state = _after_automa_turns()
    view = state.automa
    assert view is not None and view.played == view.cards_seen[-1]
    first, last = view.cards_seen[0], view.cards_seen[-1]
    fields = _fields(state)
    swapped = fields.copy()  # the card played must be the top card of the discard pile
    swapped[-1] = f"?{view.cards_in_deck}/?,?,{last},{first}" + (
        "," + ",".join(map(str, view.cards_seen[1:-1])) if len(view.cards_seen) > 2 else ""
    )
    with pytest.raises(pw.InvalidPositionError, match="card played is the top card"):
        pw.State.from_text(" ".join(swapped))
    twice = fields.copy()
    twice[-1] = f"?{view.cards_in_deck - 1}/?,?,{last}," + ",".join(map(str, view.cards_seen))
    with pytest.raises(pw.InvalidPositionError, match="each seen card once"):
        pw.State.from_text(" ".join(twice))
    unplayed = fields.copy()  # a card was played, yet nothing lies face up
    unplayed[-1] = "?10/?,?"
    with pytest.raises(pw.InvalidPositionError, match="lies face up on the discard pile"):
        pw.State.from_text(" ".join(unplayed))
    respelled = fields.copy()
    respelled[-1] = respelled[-1].replace("?", "?0", 1)
    with pytest.raises(pw.InvalidPositionError, match="leading zeros"):
        pw.State.from_text(" ".join(respelled))


def test_a_private_position_with_a_played_card_not_on_the_pile_is_refused() -> None:
    fields = solo_game(3).to_text().split(" ")
    fields[11] = "5"  # card 5 played, but the discard pile holds only the two setup cards
    with pytest.raises(pw.InvalidPositionError, match="lies face up on the discard pile"):
        pw.State.from_text(" ".join(fields))


def test_a_deck_seed_that_position_text_cannot_write_is_refused() -> None:
    rules = pw.Rules(solo=Automa(2))
    circle = pw.new_game(seed=1).circle
    assert pw.State.from_text(
        pw.new_game(circle=circle, rules=rules, automa_seed=2**32 - 1).to_text()
    )
    with pytest.raises(pw.InvalidSetupError, match="automa_seed must be a whole number"):
        pw.new_game(circle=circle, rules=rules, automa_seed=2**32)


# -- the engine protocol ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compiled_code_cached() -> None:
    warm_up_search(pw.Rules())


@pytest.mark.parametrize("deck", A.DECKS)
def test_the_engine_answers_a_public_solo_position_with_a_move_for_the_person(
    deck: str, compiled_code_cached: None
) -> None:
    state = _after_automa_turns(deck)
    text = state.to_text(public=True)
    session = Session()
    try:
        assert (
            session.send("setoption name Level value level8", "setoption name Seed value 3") == []
        )
        assert session.send(f"position text {text}") == []
        shown = session.send("show")
        assert shown[0] == f"position {text}"  # shown as sent: public, never the engine's guess
        assert shown[1].startswith("status tomove 0 scores ")
        legal = session.send("legal")[0].split()
        assert legal[0] == "legal" and legal[1:] == [str(m) for m in state.legal_moves()]
        answer = session.search("go iterations 60")
        assert answer[-1].startswith("bestmove ")
        move = pw.Move.parse(answer[-1].split()[1], state)
        assert state.is_legal(move)
        level4 = session.send("setoption name Level value level4", f"position text {text}")
        assert level4 == []
        answer = session.search("go")
        assert state.is_legal(pw.Move.parse(answer[-1].split()[1], state))
    finally:
        session.close()


def test_a_private_solo_position_is_taken_and_shown_as_it_came() -> None:
    state = _after_automa_turns()
    session = Session()
    try:
        session.send(f"position text {state.to_text()} moves A")
        after = state.apply(pw.Advance())
        assert session.send("show")[0] == f"position {after.to_text()}"
    finally:
        session.close()


def _move_automa_does_not_answer() -> tuple[pw.State, pw.Move]:
    for seed in range(50):
        rng = random.Random(seed)
        state = solo_game(seed)
        while not state.is_terminal():
            for move in state.legal_moves():
                if not state.automa_replies(move) and not state.apply(move).is_terminal():
                    return state, move
            state = state.apply(rng.choice(state.legal_moves()))
    raise AssertionError("no move that Automa does not answer")


def test_a_public_solo_position_takes_only_moves_automa_does_not_answer() -> None:
    state, quiet = _move_automa_does_not_answer()
    text = state.to_text(public=True)
    setup = parse_position(["text", *text.split(), "moves", str(quiet)], pw.Rules())
    assert setup.public and setup.moves == [quiet]
    session = Session()
    try:
        assert session.send(f"position text {text} moves {quiet}") == []
        assert session.send("show")[0] == f"position {state.apply(quiet).to_text(public=True)}"
        answered = next(m for m in state.legal_moves() if state.automa_replies(m))
        refused = session.send(f"position text {text} moves {answered}")
        assert refused == [
            f"error position: move 1 ({answered}): Automa would answer it from its deck, "
            "which a public solo position leaves out: send the position after Automa's turns "
            "instead"
        ]
        assert session.send("show")[0] == f"position {state.apply(quiet).to_text(public=True)}"
    finally:
        session.close()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ((12, "?10:4/?,?"), "error position: the normal deck's backs are plain"),
        ((12, "?10/?"), "error position: the discard pile starts with the 2 unseen setup cards"),
        ((9, "6,normal"), "error position: Automa's level 6 is out of range (1-5)"),
        ((12, "1,2,3/4/5/6"), "error position: the deck and the discard pile hold"),
        ((None, ""), "error position text: expected the 9 fields of a position text (13 in a "),
    ],
)
def test_bad_solo_positions_get_a_clear_error_line(
    change: tuple[int | None, str], message: str
) -> None:
    fields = solo_game(6).to_text(public=True).split(" ")
    index, value = change
    if index is None:
        fields = fields[:-1]  # twelve fields
    else:
        fields[index] = value
    session = Session()
    try:
        answer = session.send(f"position text {' '.join(fields)}")
        assert len(answer) == 1 and answer[0].startswith(message), answer
        assert session.send("show") == ["error show: no position (send position first)"]
    finally:
        session.close()


FAKE_ENGINE = """
import sys
log = open(sys.argv[1], "a")
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "patchwork":
        print("id name logger"); print("patchworkok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "position":
        log.write(raw); log.flush()
    elif words[0] == "go":
        print("bestmove A")
    elif words[0] == "quit":
        break
    sys.stdout.flush()
"""


def test_the_host_hands_an_engine_only_the_public_form(tmp_path: Path) -> None:
    state = _after_automa_turns("tactical")
    assert position_command(state) == f"position text {state.to_text(public=True)}"
    two_player = pw.new_game(seed=3)
    assert position_command(two_player) == f"position text {two_player.to_text()}"
    script, log = tmp_path / "logger.py", tmp_path / "positions.txt"
    script.write_text(FAKE_ENGINE, "utf-8")
    with Engine.popen([sys.executable, str(script), str(log)], timeout=10) as engine:
        assert engine.play(state) == pw.Advance()
    sent = log.read_text("utf-8").splitlines()
    assert sent == [f"position text {state.to_text(public=True)}"]
    assert deck_field(state.to_text()) not in sent[0]


def test_our_engine_plays_a_solo_game_over_real_pipes(compiled_code_cached: None) -> None:
    game = pw.Game(solo_game(8, level=4, deck="tactical"))
    with Engine.popen(ENGINE, options={"Level": "level8", "Seed": 2}) as engine:
        for _ in range(6):
            game.push(engine.play(game.state, Limit(iterations=40)))
    record = game.to_record(players=("engine", "Automa"))
    assert pw.Record.parse(record.to_json()).replay().state == game.state


# -- records ------------------------------------------------------------------------------------


def _played(state: pw.State, moves: int, seed: int = 1) -> pw.Game:
    rng = random.Random(seed)
    game = pw.Game(state)
    for _ in range(moves):
        if game.state.is_terminal():
            break
        game.push(rng.choice(game.state.legal_moves()))
    return game


@pytest.mark.parametrize(("level", "deck", "specials"), [*SOLO_RULES[::2], (4, "tactical", True)])
def test_solo_records_round_trip_as_json_and_text(
    level: int, deck: str, specials: bool, tmp_path: Path
) -> None:
    game = _played(solo_game(20 + level, level, deck, specials), 60)
    record = game.to_record(players=("me", "Automa"))
    for name in ("r.json", "r.txt"):
        record.save(tmp_path / name)
        back = pw.Record.load(tmp_path / name)
        assert back == record and pw.Game.from_record(back).state == game.state
    text = record.to_text()
    assert f'[Automa "{level} {deck}{" specials" if specials else ""}"]' in text
    assert len(record.moves) == len(game.moves)  # the person's moves only: Automa's replay


def test_a_solo_record_from_a_position_round_trips_and_keeps_the_deck(tmp_path: Path) -> None:
    start = _played(solo_game(30, deck="tactical"), 5).state
    game = _played(start, 20, seed=2)
    record = game.to_record()
    assert record.setup == {"position": start.to_text()}
    for name in ("r.json", "r.txt"):
        record.save(tmp_path / name)
        assert pw.Game.from_record(pw.Record.load(tmp_path / name)).state == game.state


def test_a_record_refuses_a_public_start_position() -> None:
    start = _played(solo_game(31), 5).state
    d = pw.Game(start).to_record().to_dict()
    d["setup"] = {"position": start.to_text(public=True)}
    with pytest.raises(pw.InvalidRecordError, match="leaves Automa's deck out"):
        pw.Record.from_dict(d)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("rules", {"level": 2, "deck": "bogus"}), "bad rules: Automa's deck must be normal or"),
        (("rules", {"level": 0, "deck": "normal"}), "bad rules: Automa's level must be 1-5"),
        (("setup", 2**40), "bad setup: automa_seed must be a whole number 0-4294967295"),
        (("setup", "12"), "bad setup: automa_seed must be a whole number"),
        (("position", "1,2/3/4"), "bad setup: automa's deck must be DECK/DISCARD/SEED/SHUFFLES"),
        (("position", "1,2/3/4/0"), "bad setup: the deck and the discard pile hold"),
    ],
)
def test_solo_records_with_a_malformed_solo_part_are_refused(
    change: tuple[str, object], message: str
) -> None:
    start = solo_game(32)
    d = _played(start, 4).to_record().to_dict()
    where, value = change
    if where == "rules":
        d["rules"]["solo"] = value
    elif where == "setup":
        d["setup"]["automa_seed"] = value
    else:
        fields = start.to_text().split(" ")
        fields[-1] = str(value)
        d["setup"] = {"position": " ".join(fields)}
    with pytest.raises(pw.InvalidRecordError, match=re.escape(message)):
        pw.Record.from_dict(json.loads(json.dumps(d)))


@pytest.mark.parametrize(
    ("tag", "message"),
    [
        ('[Automa "3 bogus"]', "Automa: Automa's deck must be normal or tactical, not 'bogus'"),
        ('[Automa "3"]', 'Automa must be level and deck, like "3 normal"'),
        ('[AutomaSeed "x1"]', "AutomaSeed must be a whole number"),
        ('[AutomaSeed "9999999999"]', "bad setup: automa_seed must be a whole number"),
    ],
)
def test_text_records_with_a_malformed_solo_tag_are_refused(tag: str, message: str) -> None:
    text = _played(solo_game(33, deck="tactical"), 4).to_record().to_text()
    name = tag[1 : tag.index(" ")]
    lines = [tag if line.startswith(f"[{name} ") else line for line in text.splitlines()]
    with pytest.raises(pw.InvalidRecordError, match=message):
        pw.Record.from_text("\n".join(lines))
    missing = [line for line in text.splitlines() if not line.startswith("[AutomaSeed ")]
    with pytest.raises(pw.InvalidRecordError, match="automa_seed, and only it"):
        pw.Record.from_text("\n".join(missing))


def test_the_documented_solo_session_is_what_the_engine_answers(
    compiled_code_cached: None,
) -> None:
    """docs/protocol.md's solo session, replayed (search figures and the move may vary)."""
    doc = (Path(__file__).parents[1] / "docs" / "protocol.md").read_text("utf-8")
    block = doc.split("### Solo games", 1)[1].split("```", 2)[1]
    session = Session()
    try:
        answers: list[str] = []
        for line in block.splitlines():
            if line.startswith("> "):
                assert not answers, f"undocumented answers: {answers}"
                answers = session.search(line[2:]) if line[2:4] == "go" else session.send(line[2:])
            elif line.startswith("< "):
                got = answers.pop(0)
                if line.startswith(("< info", "< bestmove")):
                    assert got.split()[0] == line.split()[1]
                else:
                    assert got == line[2:]
        assert not answers
    finally:
        session.close()
