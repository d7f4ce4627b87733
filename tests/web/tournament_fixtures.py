"""What the browser tests of tournaments share (test_web_tournaments.py, test_web_arena.py):
their own server with short tournament settings, an event read over the API, the person's
game under way in it, and the accounts that play
their games of the event over the API."""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import SERVER_ARGS
from server_fixtures import TRUST_FORWARDED, Account, ServerProcess, fetch, legal_moves


@contextlib.contextmanager
def tournament_server(folder: Path, no_show: int) -> Iterator[ServerProcess]:
    """A server whose events may start a second after they are made, and whose no-show
    takes ``no_show`` seconds."""
    proc = ServerProcess(
        f"sqlite:///{folder / 'games.db'}",
        folder,
        *SERVER_ARGS,
        *TRUST_FORWARDED,
        "--tournament-lead",
        "1",
        "--tournament-no-show",
        str(no_show),
    )
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


def event(server: ServerProcess, tournament_id: str) -> dict[str, Any]:
    r = fetch("GET", f"{server.url}/api/tournaments/{tournament_id}", timeout=10)
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def live_games(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        p
        for rnd in t["rounds_played"]
        for p in rnd["pairings"]
        if p["game_id"] and p["result"] is None
    ]


def my_game(t: dict[str, Any], name: str) -> tuple[str, int] | None:
    """The person's game being played (its id and her seat), if any."""
    for p in live_games(t):
        if name in (p["first"], p["second"]):
            return p["game_id"], 0 if p["first"] == name else 1
    return None


class EventPlayer(threading.Thread):
    """An account playing its games of an event over the API (a look every 0.15 s): against
    another such player, the one to move resigns once ``between_players`` seconds have passed
    since it first saw the game; against the person, a few random legal moves, then it
    resigns (she wins). :meth:`look` adds what else it does (withdraw, pause)."""

    MOVES_BEFORE_RESIGNING = 3

    def __init__(self, account: Account, person: str, between_players: float = 0.0) -> None:
        super().__init__(daemon=True)
        self.account = account
        self.name = account.name
        self.person = person
        self.between_players = between_players
        self.tournament_id = ""
        self.stop = threading.Event()
        self.seen: dict[str, float] = {}
        self.moves: dict[str, int] = {}
        self.rng = random.Random(self.name)
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.wait(0.15):
                t = self.account.get(f"/api/tournaments/{self.tournament_id}")
                if t["status"] in ("finished", "cancelled"):
                    return
                self.look(t)
                for p in live_games(t):
                    if self.name in (p["first"], p["second"]):
                        self.turn(p)
        except BaseException as e:  # told to the test, which fails with it
            self.failure = e

    def look(self, t: dict[str, Any]) -> None:
        """What it does at each look at the event, besides playing."""

    def turn(self, p: dict[str, Any]) -> None:
        gid = p["game_id"]
        r = self.account.http.get(f"/api/games/{gid}")
        if r.status_code != 200:
            return  # not made yet
        g = r.json()
        seat = 0 if p["first"] == self.name else 1
        if g["status"] != "active" or g["to_move"] != seat:
            return
        opponent = p["second"] if seat == 0 else p["first"]
        first_seen = self.seen.setdefault(gid, time.monotonic())
        made = self.moves.get(gid, 0)
        if opponent != self.person:
            if time.monotonic() - first_seen >= self.between_players:
                self.account.http.post(f"/api/games/{gid}/resign")
            return
        if made >= self.MOVES_BEFORE_RESIGNING:
            self.account.http.post(f"/api/games/{gid}/resign")
            return
        r = self.account.http.post(
            f"/api/games/{gid}/moves",
            json={"move": self.rng.choice(legal_moves(g)), "version": g["version"]},
        )
        if r.status_code == 200:
            self.moves[gid] = made + 1
