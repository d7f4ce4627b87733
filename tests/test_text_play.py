"""The plain-text game, driven the way a person uses it: typed lines in, printed text out."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import patchwork as pw
from patchwork.tui import text
from patchwork.tui.text import Seat, main, make_seats, play

# A move token as the game prints it in its 'moves' listing.
MOVE_TOKEN = re.compile(r"(?<!\S)(A|S@[a-i][1-9]|\d{1,2}[rf]\d{1,3}@[a-i][1-9])(?!\S)")
EOF = "<EOF>"


class Typist:
    """A scripted person: types ``script`` first, then each turn asks 'moves' and types one
    of the moves listed (picked by a seeded RNG), like someone copying from the listing."""

    def __init__(self, out: io.StringIO, script: Sequence[str] = (), seed: int = 0) -> None:
        self.out = out
        self.script = list(script)
        self.rng = random.Random(seed)
        self.listing_from: int | None = None
        self.prompts: list[str] = []
        self.typed: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert len(self.prompts) < 2000, "the game does not end"
        if self.script:
            line = self.script.pop(0)
            if line == EOF:
                raise EOFError
        elif self.listing_from is None:
            self.listing_from = len(self.out.getvalue())
            line = "moves"
        else:
            listing = self.out.getvalue()[self.listing_from :]
            self.listing_from = None
            line = self.rng.choice(MOVE_TOKEN.findall(listing))
        self.typed.append(line)
        return line


def human_vs(opponent: str, seat: int = 0, seed: int = 1) -> tuple[pw.Game, tuple[Seat, Seat]]:
    kinds = ["human", "human"]
    kinds[1 - seat] = opponent
    return pw.Game(pw.new_game(seed=seed)), make_seats(kinds, seed)


def test_full_game_against_random() -> None:
    out = io.StringIO()
    game, seats = human_vs("random")
    typist = Typist(out, seed=3)
    assert play(game, seats, input_fn=typist, out=out) == "finished"
    assert game.state.is_terminal()
    shown = out.getvalue()
    # The screen before a turn: both quilts with labels, the time board, the offer.
    # Seats are named as in the full-screen game: "You" and the agent.
    assert "\nYou                         random\n" in shown
    assert "   a b c d e f g h i           a b c d e f g h i" in shown
    assert " 9 . . . . . . . . .         9 . . . . . . . . ." in shown
    assert "Special patches still lying on spaces: 26 32 38 44 50." in shown
    assert "Offered patches" in shown and "cost " in shown and "income " in shown
    assert "Your move: buy an offered patch or advance (A)." in shown
    # Each move in a sentence of its own person: "You bought", never "You buys".
    assert re.search(r"You bought patch \d+ \(\S+\)\.", shown)
    assert re.search(r"Random (bought patch \d+|advanced|placed a special patch)", shown)
    assert "You buys" not in shown and "You advances" not in shown
    # The typist placed special patches and bought patches through the notation.
    assert any(t.startswith("S@") for t in typist.typed)
    assert any("@" in t and not t.startswith("S") for t in typist.typed)
    a, b = game.state.scores()
    assert f"= {a}" in shown and f"= {b}" in shown
    assert re.search(r"(You win|Random wins) by \d+ points?\.", shown)


def test_unaffordable_patches_are_marked() -> None:
    # Seed 3's opening offer holds patch 15 (7 buttons) while players have 5.
    state = pw.new_game(seed=3)
    assert 15 in state.offered
    assert "x can't buy" in "\n".join(text.render_offer(state))


def test_bad_and_illegal_moves_are_refused() -> None:
    out = io.StringIO()
    game, seats = human_vs("greedy")
    typist = Typist(out, ["xyz", "0r0@a1", "5r0@z9", "A", "quit"])
    assert play(game, seats, input_fn=typist, out=out) == "quit"
    shown = out.getvalue()
    assert "cannot read move 'xyz'" in shown
    assert "0r0@a1 is not allowed: patch 0 is not on offer" in shown
    assert "bad square 'z9'" in shown
    assert "You advanced (A)." in shown
    assert str(game.moves[0]) == "A"
    assert "Game stopped." in shown


def test_overlapping_placement_is_explained() -> None:
    out = io.StringIO()
    game, seats = human_vs("human")
    first = next(m for m in game.state.legal_moves() if isinstance(m, pw.Buy))
    assert str(first).endswith("@a1")
    script, state = [str(first)], game.state.apply(first)
    while state.current_player != 0:  # player 1 advances until player 0 moves again
        script.append("A")
        state = state.apply(pw.Advance())
    buyable = [m.patch_id for m in state.legal_moves() if isinstance(m, pw.Buy)]
    typist = Typist(out, [*script, f"{buyable[0]}r0@a1", "quit"])
    play(game, seats, input_fn=typist, out=out)
    assert re.search(
        r"is not allowed: it would overlap patches already sewn on at [a-i]\d", out.getvalue()
    )


def test_undo_against_an_agent() -> None:
    out = io.StringIO()
    game, seats = human_vs("greedy")
    typist = Typist(out, ["A", "undo", "undo", "quit"])
    play(game, seats, input_fn=typist, out=out)
    shown = out.getvalue()
    assert re.search(r"Took back: A \S+", shown)
    assert "Nothing to take back yet." in shown
    assert len(game) == 0


def test_undo_returns_to_the_humans_previous_turn_in_seat_1() -> None:
    out = io.StringIO()
    game, seats = human_vs("greedy", seat=1, seed=2)
    typist = Typist(out, ["A", "undo", "quit"])
    play(game, seats, input_fn=typist, out=out)
    # Back where the human first had to move: after the agent's opening move(s).
    assert game.state.current_player == 1
    assert len(game) >= 1
    assert all(p == 0 for p in game.movers())


def test_undo_between_two_people_takes_back_one_move() -> None:
    out = io.StringIO()
    game, seats = human_vs("human")
    typist = Typist(out, ["A", "A", "undo", "quit"])
    play(game, seats, input_fn=typist, out=out)
    # Two people: "Player 1" and "Player 2", by seat (the record's P0 and P1).
    assert "Player 1 move> " in typist.prompts and "Player 2 move> " in typist.prompts
    assert "Player 1 advanced (A)." in out.getvalue()
    assert [str(m) for m in game.moves] == ["A"]


def test_help_and_moves_commands() -> None:
    out = io.StringIO()
    game, seats = human_vs("random")
    offered = game.state.offered
    pid = next(m.patch_id for m in game.state.legal_moves() if isinstance(m, pw.Buy))
    typist = Typist(out, ["help", "moves", f"moves {pid}", "moves 99", "moves x", "quit"])
    play(game, seats, input_fn=typist, out=out)
    shown = out.getvalue()
    example = re.search(r"Example here: (\d+)r\d+@[a-i][1-9] covers", shown)
    assert example and int(example.group(1)) in offered
    assert "undo" in shown and "quit" in shown
    assert re.search(r"\d+ legal moves:\n  A  \(advance\)", shown)
    assert re.search(rf"\d+ placements of patch {pid}:\n  {pid}r0@a1 ", shown)
    assert "No legal move buys patch 99 now" in shown
    assert "give a patch number" in shown


@pytest.mark.parametrize("name", ["game.json", "game.txt"])
def test_save_writes_a_record_that_replays(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games: list[pw.Game] = []
    real_play = text.play

    def spy(game: pw.Game, seats: Sequence[Seat], **kw: Any) -> text.Outcome:
        games.append(game)
        return real_play(game, seats, **kw)

    monkeypatch.setattr(text, "play", spy)
    out = io.StringIO()
    path = tmp_path / name
    argv = ["--opponent", "random", "--seed", "4", "--save", str(path)]
    assert main(argv, input_fn=Typist(out, seed=4), out=out) == 0
    assert f"Saved the game record to {path}" in out.getvalue()
    record = pw.Record.load(path)
    assert record.players == ("Player 1", "random")
    assert record.seats == ("human", "random") and record.language == "en"
    assert record.result is not None and record.result["termination"] == "finished"
    (game,) = games
    assert record.replay().state == game.state
    assert game.state.is_terminal()


def test_eof_quits_cleanly_and_saves_an_abandoned_game(tmp_path: Path) -> None:
    out = io.StringIO()
    path = tmp_path / "left.json"
    assert (
        main(["--seed", "1", "--save", str(path)], input_fn=Typist(out, ["A", EOF]), out=out) == 0
    )
    assert "End of input: quitting." in out.getvalue()
    record = pw.Record.load(path)
    assert record.result is not None and record.result["termination"] == "abandoned"
    assert record.moves[0] == "A"


def test_rules_options() -> None:
    out = io.StringIO()
    argv = ["--edition", "original", "--no-rotation", "--no-flip", "--seat", "1"]
    typist = Typist(out, ["help", "quit"])
    assert main([*argv, "--seed", "2", "--opponent", "random"], input_fn=typist, out=out) == 0
    shown = out.getvalue()
    assert "Special patches still lying on spaces: 20 26 32 44 50." in shown
    assert "Your move> " in typist.prompts
    assert re.search(r"Example here: \d+r0@", shown)


def test_agents_against_each_other() -> None:
    out = io.StringIO()

    def no_input(prompt: str) -> str:
        raise AssertionError("nobody should be asked to type")

    argv = ["--agents", "greedy", "random", "--seed", "6"]
    assert main(argv, input_fn=no_input, out=out) == 0
    shown = out.getvalue()
    assert "Greedy bought patch" in shown and re.search(r"Random (bought|advanced)", shown)
    assert "The game is over." in shown
    assert re.search(r"greedy: \d+ \+ [07] - 2 x \d+ = -?\d+", shown)


def test_tie_break_is_explained() -> None:
    # Both on 53 with equal scores; player 1 got there first.
    empty = "/".join(["9"] * 9)
    state = pw.State.from_text(f"revised:rf 1,2 53,10,0,{empty} 53,10,0,{empty} 0 - 1 - -")
    seats = make_seats(["human", "greedy"])
    shown = text.scores_text(state, seats)
    assert "Tied on -152: greedy wins the tie-break" in shown
    # The person winning is spoken to: "you win", never "You wins".
    you = text.scores_text(state, make_seats(["greedy", "human"]))
    assert "Tied on -152: you win the tie-break" in you


def test_option_errors_return_a_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--opponent", "nobody"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["--help"]) == 0
    assert "patchwork play" in capsys.readouterr().out
