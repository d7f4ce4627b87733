"""A pretend engine for the tests: speaks just enough of the engine protocol, then misbehaves
the way ``--mode`` says (it does not import patchwork, so it starts at once).

modes: good-handshake-only (fine until asked to search: then answers nothing),
silent (never answers), die (exits after the handshake, at the first isready),
nonsense (garbage instead of the handshake), illegal (answers an illegal move),
chatter (prints an unknown line during a search), crash (dies in the middle of a search),
error (answers every go with an error line), binary (raw bytes during a search),
slow (advances: at once to the first go of a game, after --delay seconds, 0.5 by default,
to the others); --log FILE appends every line it reads to FILE
"""

from __future__ import annotations

import sys
import time


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> int:
    mode = sys.argv[sys.argv.index("--mode") + 1] if "--mode" in sys.argv else "good"
    delay = float(sys.argv[sys.argv.index("--delay") + 1]) if "--delay" in sys.argv else 0.5
    log = open(sys.argv[sys.argv.index("--log") + 1], "a") if "--log" in sys.argv else None  # noqa: SIM115
    searched = False  # in this game
    for raw in sys.stdin:
        if log is not None:
            log.write(raw)
            log.flush()
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if mode == "silent":
            continue
        if command == "patchwork":
            if mode == "nonsense":
                say("HELLO I AM A TOASTER")
                continue
            say("id name fake")
            say("id version 0")
            say("option name Seed type spin default -1 min -1 max 100")
            say("patchworkok")
        elif command == "isready":
            if mode == "die":
                print("fake engine: giving up", file=sys.stderr, flush=True)
                return 3
            say("readyok")
        elif command == "newgame":
            searched = False
        elif command == "go":
            if mode == "slow":
                if searched:
                    time.sleep(delay)
                searched = True
                say("bestmove A")
            elif mode == "illegal":
                say("info iterations 1 time 1")
                say("bestmove 31r0@a1")
            elif mode == "chatter":
                say("thinking very hard")
            elif mode == "crash":
                say("info iterations 1")
                print("fake engine: segmentation fault (pretend)", file=sys.stderr, flush=True)
                return 139
            elif mode == "error":
                say("error go: I do not feel like it")
            elif mode == "binary":
                sys.stdout.buffer.write(b"\xff\xfe\x00\x01\n")
                sys.stdout.flush()
            else:  # good-handshake-only: think forever
                time.sleep(3600)
        elif command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
