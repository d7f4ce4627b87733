"""A small CodinGame Patchwork bot for the tests, written from the arena's statement alone.

It does not import patchwork: it reads the referee's input, turns and mirrors the shapes it is
given the way the arena does (mirror first, then clockwise quarter turns), and places patches
on its own copy of the quilt. Every turn it checks that both quilts in the input are exactly
what its own bookkeeping predicts (its move, or the arena's fallback for it, and the
opponent's logged moves), so a host that maps orientations wrongly is caught by an
independent implementation. On any surprise it prints why to stderr and exits with code 4;
on malformed input, code 3.

Options make it misbehave on purpose:
  --invalid-every N   every Nth turn send an invalid PLAY (the arena plays it as SKIP)
  --odd-spelling      write flips and rotations the arena reads the same but spells otherwise
                      (flip 1 with rotations -3..-1 for an unflipped turn, 8 more turns, flip 2)
  --two-lines-at N    on turn N (unless it holds a special patch), write a second line
  --skip-specials     answer SKIP when holding a special patch (placed on the first free square)
  --garbage-at K      answer nonsense on turn K          --binary-at K   raw bytes on turn K
  --sleep-at K MS     sleep before answering on turn K   --exit-at K     exit on turn K
  --stats FILE        write what it did as JSON when the game ends
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time

SIZE = 9
Shape = list[list[bool]]


def parse_shape(text: str) -> Shape:
    return [[ch == "O" for ch in row] for row in text.split("|")]


def right_rotated(shape: Shape) -> Shape:
    width = len(shape[0])
    return [[row[c] for row in shape][::-1] for c in range(width)]


def flipped(shape: Shape) -> Shape:
    return [row[::-1] for row in shape]


def transformed(shape: Shape, flip: int, rotations: int) -> Shape:
    # The arena's list of eight orientations, the unflipped four first: flip 1 with a
    # negative remainder (-3 to -1) reaches back into the unflipped ones.
    index = (4 if flip == 1 else 0) + rotations % 4 if rotations >= 0 else 4 + rotations
    if index >= 4:
        shape = flipped(shape)
    for _ in range(index % 4):
        shape = right_rotated(shape)
    return shape


def fits(board: list[list[bool]], shape: Shape, x: int, y: int) -> bool:
    if x < 0 or y < 0:
        return False
    for sy, row in enumerate(shape):
        for sx, cell in enumerate(row):
            if x + sx >= SIZE or y + sy >= SIZE:
                return False
            if cell and board[y + sy][x + sx]:
                return False
    return True


def place(board: list[list[bool]], shape: Shape, x: int, y: int) -> None:
    for sy, row in enumerate(shape):
        for sx, cell in enumerate(row):
            if cell:
                board[y + sy][x + sx] = True


class Input:
    def __init__(self) -> None:
        self.stream = sys.stdin

    def line(self) -> str:
        text = self.stream.readline()
        if not text:
            raise EOFError
        return text.rstrip("\n")

    def ints(self, count: int, what: str) -> list[int]:
        text = self.line()
        tokens = text.split(" ") if text else []
        if len(tokens) != count or not all(re.fullmatch(r"-?\d+", t) for t in tokens):
            fail(3, f"expected {count} numbers for {what}, got {text!r}")
        return [int(t) for t in tokens]

    def board(self, who: str) -> list[list[bool]]:
        rows = []
        for r in range(SIZE):
            text = self.line()
            if not re.fullmatch(r"[O.]{9}", text):
                fail(3, f"bad {who} quilt row {r}: {text!r}")
            rows.append([ch == "O" for ch in text])
        return rows


def fail(code: int, message: str) -> None:
    print(f"cg_simple_bot: {message}", file=sys.stderr, flush=True)
    sys.exit(code)


def show(board: list[list[bool]]) -> str:
    return "|".join("".join("O" if c else "." for c in row) for row in board)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--invalid-every", type=int, default=0)
    p.add_argument("--skip-specials", action="store_true")
    p.add_argument("--garbage-at", type=int, default=0)
    p.add_argument("--binary-at", type=int, default=0)
    p.add_argument("--exit-at", type=int, default=0)
    p.add_argument("--sleep-at", type=int, nargs=2, default=(0, 0))
    p.add_argument("--stats", default=None)
    p.add_argument("--odd-spelling", action="store_true")
    p.add_argument("--two-lines-at", type=int, default=0)
    args = p.parse_args()
    rng = random.Random(args.seed)
    data = Input()
    stats = {"turns": 0, "invalid": 0, "special_skips": 0, "specials_placed": 0, "plays": 0}
    used_orientations: set[tuple[int, int]] = set()
    shapes: dict[int, Shape] = {}
    expected_me: list[list[bool]] | None = None
    previous_opponent: list[list[bool]] | None = None

    def finish() -> int:
        stats["orientations"] = len(used_orientations)
        if args.stats:
            with open(args.stats, "w") as f:
                json.dump(stats, f)
        return 0

    try:
        (n,) = data.ints(1, "incomeEvents")
        data.ints(n, "incomeTime")
        (m,) = data.ints(1, "patchEvents")
        specials = data.ints(m, "patchTime")
        if specials != [20, 26, 32, 44, 50]:
            fail(3, f"not the original edition's special spaces: {specials}")
    except EOFError:
        return finish()
    while True:
        try:
            buttons, _time, _earning = data.ints(3, "my state")
            board = data.board("my")
            data.ints(3, "opponent state")
            opponent = data.board("opponent")
            (count,) = data.ints(1, "patches")
            patches = []
            for _ in range(count):
                text = data.line()
                parts = text.split(" ")
                if len(parts) != 5 or not re.fullmatch(r"[O.|]+", parts[4]):
                    fail(3, f"bad patch line {text!r}")
                pid, earning, price, ptime = (int(t) for t in parts[:4])
                shapes[pid] = parse_shape(parts[4])
                patches.append((pid, earning, price, ptime))
            (special,) = data.ints(1, "specialPatchId")
            (moves,) = data.ints(1, "opponentMoves")
            logged = [data.line() for _ in range(moves)]
        except EOFError:
            return finish()
        stats["turns"] += 1
        turn = stats["turns"]
        # -- check the input against our own bookkeeping --------------------------------------
        if expected_me is not None and board != expected_me:
            fail(4, f"turn {turn}: my quilt is {show(board)}, expected {show(expected_me)}")
        if previous_opponent is not None:
            predicted = [row[:] for row in previous_opponent]
            for text in logged:
                if text == "SKIP":
                    continue
                mt = re.fullmatch(r"PLAY (-?\d+) (\d+) (\d+) ([01]) (-?[0-3])", text)
                if not mt:
                    fail(4, f"turn {turn}: bad logged move {text!r}")
                pid, x, y, flip, rot = (int(g) for g in mt.groups())
                shape = [[True]] if pid < 0 else shapes.get(pid)
                if shape is None:
                    predicted = None  # a patch we never saw (bought before our first turn)
                    break
                shape = transformed(shape, flip, rot)
                if not fits(predicted, shape, x, y):
                    fail(4, f"turn {turn}: logged move {text!r} does not fit the opponent")
                place(predicted, shape, x, y)
            if predicted is not None and predicted != opponent:
                fail(
                    4, f"turn {turn}: opponent quilt {show(opponent)}, predicted {show(predicted)}"
                )
        previous_opponent = opponent
        # -- misbehave on purpose -----------------------------------------------------------------
        if turn == args.exit_at:
            return 0
        if turn == args.sleep_at[0]:
            time.sleep(args.sleep_at[1] / 1000)
        if turn == args.garbage_at:
            print("HELLO referee, what is a patch?", flush=True)
            continue
        if turn == args.binary_at:
            sys.stdout.buffer.write(b"\xff\xfe\x00\x01garbage\n")
            sys.stdout.flush()
            continue
        # -- choose -----------------------------------------------------------------------------
        new_board = [row[:] for row in board]
        free = [(y, x) for y in range(SIZE) for x in range(SIZE) if not board[y][x]]

        def skip_result(board: list[list[bool]], special: int, free: list[tuple[int, int]]) -> None:
            if special:  # the arena places it on the first free square
                y, x = free[0]
                board[y][x] = True

        if args.invalid_every and turn % args.invalid_every == 0:
            kind = stats["invalid"] % 4
            stats["invalid"] += 1
            if kind == 0:
                answer = "PLAY 99 0 0 0 0"  # no such patch
            elif kind == 1:
                answer = "PLAY 0 8 8 0 0"  # off the board (or not on offer)
            elif kind == 2:
                dear = [pid for pid, _, price, _ in patches[:3] if price > buttons]
                pid = dear[0] if dear else patches[-1][0] if len(patches) > 3 else 99
                answer = f"PLAY {pid} 0 0 0 0"  # too dear, or not on offer
            else:
                covered = [(y, x) for y in range(SIZE) for x in range(SIZE) if board[y][x]]
                y, x = covered[0] if covered else (0, 0)
                pid = patches[0][0]
                answer = f"PLAY {pid} {x} {y} 0 0" if covered else "PLAY 99 0 0"
            skip_result(new_board, special, free)
            print(f"{answer} deliberately invalid", flush=True)
            expected_me = new_board
            continue
        if special:
            if args.skip_specials:
                stats["special_skips"] += 1
                skip_result(new_board, special, free)
                print("SKIP", flush=True)
            else:
                y, x = free[-1]
                new_board[y][x] = True
                stats["specials_placed"] += 1
                print(f"PLAY {special} {x} {y} hello", flush=True)
            expected_me = new_board
            continue
        choice = None
        offered = [p for p in patches[:3] if p[2] <= buttons]
        rng.shuffle(offered)
        offered.sort(key=lambda p: -(sum(map(sum, shapes[p[0]])) + 2 * p[1]))
        for pid, _, _, _ in offered:
            orientations = [(f, r) for f in (0, 1) for r in range(4)]
            rng.shuffle(orientations)
            for f, r in orientations:
                shape = transformed(shapes[pid], f, r)
                spots = [(y, x) for y in range(SIZE) for x in range(SIZE)]
                for y, x in spots:
                    if fits(board, shape, x, y):
                        choice = (pid, x, y, f, r, shape)
                        break
                if choice:
                    break
            if choice:
                break
        if choice is None or rng.random() < 0.15:
            # Two lines written at once, so that both reach the host before its next input.
            print("SKIP\nSKIP" if turn == args.two_lines_at else "SKIP", flush=True)
        else:
            pid, x, y, f, r, shape = choice
            place(new_board, shape, x, y)
            used_orientations.add((f, r))
            stats["plays"] += 1
            if args.odd_spelling:  # the same orientation as the arena reads it
                f, r = (1, r - 4) if f == 0 and r else (f, r + 8) if f else (2, 0)
            extra = "\nSKIP" if turn == args.two_lines_at else ""
            print(f"PLAY {pid} {x} {y} {f} {r}{extra}", flush=True)
        expected_me = new_board


if __name__ == "__main__":
    sys.exit(main())
