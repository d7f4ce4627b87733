"""``patchwork bot``, the bridge (docs/bots.md, "The bridge"), against real server processes:
a person challenges a bot and plays it to the end; two bridged bots play each other; the
server is killed and started again in the middle of a game and the bridge carries on; a
challenge outside the bot's config is declined with the reason its challenger hears; a bad
token, an engine that is not there and a bad config file stop it with one clear line.

Each bridge runs as ``python -m patchwork bot`` in a process group of its own (its engine
programs with it), its log in the test's directory, and is stopped (then killed) however the
test ends. The policy's decisions and the time per move are unit-tested at the end."""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.register_assert_rewrite("server_fixtures", "bot_fixtures")

from bot_fixtures import LONG, bot_account, bridge  # noqa: E402
from patchwork.bot.bridge import Bridge  # noqa: E402
from patchwork.bot.client import BotClient  # noqa: E402
from patchwork.bot.game import GameRunner  # noqa: E402
from patchwork.bot.policy import Policy, PolicyError, TimePolicy, load_policy  # noqa: E402
from server_fixtures import (  # noqa: E402
    SHARED_ARGS,
    TRUST_FORWARDED,
    Account,
    ServerProcess,
    eventually,
    fetch,
    legal_moves,
    running_server,
)

BACKEND = "sqlite"  # the bridge is a client of the HTTP API: one backend says what it does
# Quick reconnection, quick moves (whatever the clock says).
FAST = "[connection]\nmax_backoff = 1.0\n[time]\nmovetime = 0.05\nmin = 0.05\nmax = 0.1\n"
# The people of these tests play over HTTP with no stream open: away, to the server, so a bot
# would claim their games; it does not, unless a test says so.
NO_CLAIM = "[game]\nclaim = false\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("bot-server")
    lead = ("--tournament-lead", "1")
    with running_server(BACKEND, tmp, *SHARED_ARGS, *TRUST_FORWARDED, *lead) as proc:
        yield proc


# -- helpers --------------------------------------------------------------------------------------


class Person(Account):
    """An account playing over HTTP with its cookie (and CSRF token)."""

    def token(self) -> str:
        r = self.http.post(
            "/api/account/tokens", json={"name": self.name, "password": "correct horse battery"}
        )
        assert r.status_code == 201, r.text
        token: str = r.json()["token"]
        return token

    def challenge(self, to: str, **terms: Any) -> dict[str, Any]:
        r = self.http.post("/api/challenges", json={"to": to, **terms})
        assert r.status_code == 201, r.text
        made: dict[str, Any] = r.json()
        return made

    def play_to_the_end(self, game_id: str, seat: int, timeout: float = LONG) -> dict[str, Any]:
        """Random legal moves whenever it is this seat's turn, until the game is over."""
        rng = random.Random(game_id)
        end = time.monotonic() + timeout
        while True:
            game: dict[str, Any] = self.get(f"/api/games/{game_id}")
            if game["status"] == "finished":
                return game
            assert time.monotonic() < end, f"the game did not end in {timeout} s: {game}"
            if game["status"] == "active" and game["to_move"] == seat:
                body = {"move": rng.choice(legal_moves(game)), "version": game["version"]}
                r = self.http.post(f"/api/games/{game_id}/moves", json=body)
                assert r.status_code == 200 or r.json()["error"]["code"] in (
                    "stale_version",
                    "not_your_turn",
                ), r.text
            else:
                time.sleep(0.05)  # the bot is thinking: polling over HTTP, as a script would


def config(tmp: Path, text: str, name: str = "bot.toml") -> str:
    path = tmp / name
    path.write_text(FAST + NO_CLAIM + text)
    return str(path)


def accepted_game(person: Person, challenge_id: str) -> str:
    """The game the bot's acceptance started (the challenger reads its challenge)."""

    def game() -> str | None:
        seen = person.get(f"/api/challenges/{challenge_id}")
        assert seen["status"] in ("open", "accepted"), seen
        found: str | None = seen["game_id"]
        return found

    found: str = eventually(game, LONG)
    return found


def both_seats_moved(game: dict[str, Any]) -> None:
    assert game["status"] == "finished", game["status"]
    assert game["result"]["termination"] == "finished", game["result"]
    assert {entry["seat"] for entry in game["history"]} == {0, 1}


# -- 1. a person against the bot ------------------------------------------------------------------


def test_a_person_challenges_the_bot_and_plays_it_to_the_end(
    server: ServerProcess, tmp_path: Path
) -> None:
    bot, token = bot_account(server, Person)
    ann = Person(server)
    with bridge(
        tmp_path, server, token, "--agent", "level1", "--config", config(tmp_path, "")
    ) as b:
        b.wait_for("online as")
        made = ann.challenge(bot.name, seat=0)
        game_id = accepted_game(ann, made["id"])
        b.wait_for(f"game {game_id}: playing seat 1")
        # Ann moves, the bot answers; Ann asks to take her move back: the bot declines.
        game = ann.get(f"/api/games/{game_id}")
        move = {"move": legal_moves(game)[0], "version": game["version"]}
        assert ann.http.post(f"/api/games/{game_id}/moves", json=move).status_code == 200
        eventually(lambda: ann.get(f"/api/games/{game_id}")["to_move"] == 0, LONG)
        r = ann.http.post(f"/api/games/{game_id}/takeback", json={"action": "ask"})
        assert r.status_code == 200, r.text
        b.wait_for(f"game {game_id}: takeback asked by {ann.name}: decline")
        assert ann.get(f"/api/games/{game_id}")["takeback"]["declined"] == 0
        game = ann.play_to_the_end(game_id, seat=0)
        both_seats_moved(game)
        b.wait_for(f"game {game_id} against {ann.name} is over")
        assert "accepted, game " + game_id in b.log()
        assert b.interrupt() == 0
        assert "stopped; 0 games left to their clocks" in b.log()
        assert "Traceback" not in b.log()


def test_ctrl_c_closes_the_engines_and_leaves_the_games_to_their_clocks(
    server: ServerProcess, tmp_path: Path
) -> None:
    bot, token = bot_account(server, Person)
    ann = Person(server)
    engine = f"{sys.executable} -m patchwork engine"
    settings = config(tmp_path, "")
    with bridge(tmp_path, server, token, "--engine", engine, "--config", settings) as b:
        b.wait_for("online as")
        clock = {"kind": "fischer", "initial": 300, "increment": 0}
        made = ann.challenge(bot.name, seat=1, clock=clock)
        game_id = accepted_game(ann, made["id"])
        # The bot moves first, until it is Ann's turn; she never moves.
        eventually(lambda: ann.get(f"/api/games/{game_id}")["to_move"] == 1, LONG)
        engines = eventually(b.engines, LONG)
        assert b.interrupt() == 0
        assert "stopped; 1 game left to its clock" in b.log()
        for pid in engines:  # the engine quit with the bridge (no orphan left to the killpg)
            assert not Path(f"/proc/{pid}").exists() or _zombie(pid)
        game = ann.get(f"/api/games/{game_id}")
        assert game["status"] == "active" and game["clock"]["running"] == 1


def _zombie(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    return True


# -- 2. two bridged bots --------------------------------------------------------------------------


def test_two_bridged_bots_play_each_other(server: ServerProcess, tmp_path: Path) -> None:
    a, a_token = bot_account(server, Person)
    b, b_token = bot_account(server, Person)
    engine = f"{sys.executable} -m patchwork engine"
    with (
        bridge(
            tmp_path, server, a_token, "--engine", engine, "--config", config(tmp_path, ""),
            label="a",
        ) as bridge_a,
        bridge(tmp_path, server, b_token, "--agent", "random", label="b") as bridge_b,
    ):  # fmt: skip
        bridge_a.wait_for("online as")
        bridge_b.wait_for("online as")
        # Bot A's own token makes the challenge (a script on A's behalf); B's bridge accepts.
        r = fetch(
            "POST",
            f"{server.url}/api/challenges",
            json={"to": b.name, "clock": {"kind": "fischer", "initial": 120, "increment": 1}},
            headers={"authorization": f"Bearer {a_token}"},
            timeout=15,
        )
        assert r.status_code == 201, r.text
        game_id = accepted_game(a, r.json()["id"])
        bridge_a.wait_for(f"game {game_id}: playing seat")
        bridge_b.wait_for(f"game {game_id}: playing seat")
        bridge_a.wait_for(f"challenge {r.json()['id']} to {b.name}")
        bridge_a.wait_for(f"game {game_id} against {b.name} is over")
        bridge_b.wait_for(f"game {game_id} against {a.name} is over")
        game = a.get(f"/api/games/{game_id}")
        both_seats_moved(game)
        assert all(s["account"] for s in game["seats"])
        # The engine program of the game was closed with it.
        eventually(lambda: bridge_a.engines() == [], 15)
        assert bridge_a.interrupt() == 0 and bridge_b.interrupt() == 0


def test_two_bridged_bots_play_their_tournament_game(server: ServerProcess, tmp_path: Path) -> None:
    """Bots enter a Swiss event with their tokens; the bridges play the round's game as any
    other (docs/bots.md, "Tournaments") and the event finishes with its result."""
    a, a_token = bot_account(server, Person)
    b, b_token = bot_account(server, Person)
    b.close()  # (its token plays it)
    clock = {"kind": "fischer", "initial": 120, "increment": 1}
    terms = {"name": "Bots", "rounds": 1, "starts_at": time.time() + 5, "clock": clock}
    event = fetch(
        "POST",
        f"{server.url}/api/tournaments",
        json=terms | {"bots_allowed": True},
        headers={"authorization": f"Bearer {a_token}"},
        timeout=15,
    )
    assert event.status_code == 201, event.text
    tid = event.json()["id"]
    for token in (a_token, b_token):
        r = fetch(
            "POST",
            f"{server.url}/api/tournaments/{tid}/join",
            headers={"authorization": f"Bearer {token}"},
            timeout=15,
        )
        assert r.status_code == 200, r.text
    with (
        bridge(tmp_path, server, a_token, "--agent", "random", "--config", config(tmp_path, ""),
               label="a") as bridge_a,
        bridge(tmp_path, server, b_token, "--agent", "random", "--config", config(tmp_path, ""),
               label="b") as bridge_b,
    ):  # fmt: skip
        done = eventually(
            lambda: (v := a.get(f"/api/tournaments/{tid}"))["status"] == "finished" and v, LONG
        )
        (pairing,) = done["rounds_played"][0]["pairings"]
        bridge_a.wait_for(f"game {pairing['game_id']}: playing seat")
        bridge_b.wait_for(f"game {pairing['game_id']}: playing seat")
        both_seats_moved(a.get(f"/api/games/{pairing['game_id']}"))
        assert pairing["result"] in (0.0, 0.5, 1.0)
        assert [row["place"] for row in done["standings"]] == [1, 2]
        assert bridge_a.interrupt() == 0 and bridge_b.interrupt() == 0
    a.close()


# -- 3. a server restart in the middle of a game --------------------------------------------------


def test_the_bridge_survives_a_server_restart_mid_game(tmp_path: Path) -> None:
    with running_server(BACKEND, tmp_path, *SHARED_ARGS, *TRUST_FORWARDED) as server:
        bot, token = bot_account(server, Person)
        ann = Person(server)
        settings = config(tmp_path, "")
        with bridge(tmp_path, server, token, "--agent", "level1", "--config", settings) as b:
            b.wait_for("online as")
            made = ann.challenge(bot.name, seat=0)
            game_id = accepted_game(ann, made["id"])
            b.wait_for(f"game {game_id}: playing seat 1")
            # A few moves each, then the server dies without a word and comes back.
            rng = random.Random(1)
            end = time.monotonic() + LONG
            while len(ann.get(f"/api/games/{game_id}")["history"]) < 6:
                assert time.monotonic() < end, "the bot did not move"
                game = ann.get(f"/api/games/{game_id}")
                if game["to_move"] == 0:
                    body = {"move": rng.choice(legal_moves(game)), "version": game["version"]}
                    assert ann.http.post(f"/api/games/{game_id}/moves", json=body).status_code in (
                        200,
                        409,
                    )
                else:
                    time.sleep(0.05)
            server.kill()
            b.wait_for("trying again")
            server.start()
            b.wait_for(f"game {game_id}: stream open again")
            b.wait_for("event stream open again")
            game = ann.play_to_the_end(game_id, seat=0)
            both_seats_moved(game)
            b.wait_for(f"game {game_id} against {ann.name} is over")
            # The game was played by one runner throughout: heard again, not started again.
            assert b.log().count(f"game {game_id}: playing seat") == 1
            assert b.interrupt() == 0


# -- 4. the policy -------------------------------------------------------------------------------


def test_a_challenge_outside_the_config_is_declined_with_its_reason(
    server: ServerProcess, tmp_path: Path
) -> None:
    bot, token = bot_account(server, Person)
    ann = Person(server)
    agent = ("--agent", "random", "--config")
    settings = config(
        tmp_path,
        "[challenges]\nrated = false\n[challenges.clock]\nmin_initial = 120\n"
        "[challenges.rules]\nflip = [true]\n",
    )
    me = ann.me()
    with contextlib.closing(me), bridge(tmp_path, server, token, *agent, settings) as b:
        b.wait_for("online as")
        cases: list[tuple[dict[str, Any], str]] = [
            ({"rated": True}, "casual"),
            ({"clock": {"kind": "fischer", "initial": 60, "increment": 0}}, "too_fast"),
            ({"rules": {"edition": "revised", "rotation": True, "flip": False}}, "rules"),
        ]
        for terms, reason in cases:
            made = ann.challenge(bot.name, **terms)
            heard = hear(me, "challenge_declined", made["id"])
            assert heard["challenge"]["reason"] == reason, heard
            assert heard["challenge"]["reason_text"]
            assert ann.get(f"/api/challenges/{made['id']}")["reason"] == reason
            b.wait_for(f"challenge {made['id']} from {ann.name}")
            assert f"declined ({reason})" in b.log()
        # Inside it: accepted.
        made = ann.challenge(bot.name, clock={"kind": "fischer", "initial": 180, "increment": 2})
        assert hear(me, "challenge_accepted", made["id"])["game_id"]


def test_the_bot_claims_a_game_its_opponent_left(server: ServerProcess, tmp_path: Path) -> None:
    bot, token = bot_account(server, Person)
    ann = Person(server)
    settings = tmp_path / "claims.toml"
    settings.write_text(FAST)  # claim = true, the default
    with bridge(tmp_path, server, token, "--agent", "random", "--config", str(settings)) as b:
        b.wait_for("online as")
        # Ann never opens the game: away from its start; the grace period (1.5 s) ends.
        made = ann.challenge(bot.name, seat=0)
        game_id = accepted_game(ann, made["id"])
        b.wait_for(f"game {game_id}: {ann.name} is gone; the game is claimed")
        game = ann.get(f"/api/games/{game_id}")
        assert game["status"] == "finished"
        assert game["result"]["termination"] == "abandoned" and game["result"]["winner"] == 1
        assert "Traceback" not in b.log()


def hear(ws: Any, kind: str, challenge_id: str, timeout: float = LONG) -> dict[str, Any]:
    import json

    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        assert left > 0, f"no {kind} for {challenge_id}"
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if message.get("type") == kind and message["challenge"]["id"] == challenge_id:
            return message


# -- 5. what stops it from starting ---------------------------------------------------------------


def run_bot(tmp: Path, *args: str, token: str = "pwa_nothing") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATCHWORK_BOT_TOKEN": token, "LANGUAGE": "en"}
    return subprocess.run(
        [sys.executable, "-m", "patchwork", "bot", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp,
        timeout=LONG,
    )


def test_errors_are_one_clear_line_and_exit_2(server: ServerProcess, tmp_path: Path) -> None:
    bad_token = run_bot(tmp_path, "--server", server.url, "--agent", "random")
    assert bad_token.returncode == 2
    assert bad_token.stderr.startswith("patchwork bot: the server refused the token")
    missing = run_bot(
        tmp_path, "--server", server.url, "--engine", str(tmp_path / "no-such-engine")
    )
    assert missing.returncode == 2
    assert "cannot start the engine" in missing.stderr and "no-such-engine" in missing.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text("[challenges]\nrated = 'yes'\n")
    bad_config = run_bot(
        tmp_path, "--server", server.url, "--agent", "random", "--config", str(bad)
    )
    assert bad_config.returncode == 2
    assert "bad config file" in bad_config.stderr and "[challenges] rated" in bad_config.stderr
    unreachable = run_bot(tmp_path, "--server", "http://127.0.0.1:9", "--agent", "random")
    assert unreachable.returncode == 2 and "no answer from" in unreachable.stderr
    person = Person(server)  # a person's account: a program never plays under its name
    not_a_bot = run_bot(tmp_path, "--server", server.url, "--agent", "random", token=person.token())
    assert not_a_bot.returncode == 2
    assert f"{person.name} is not a bot account" in not_a_bot.stderr
    for done in (bad_token, missing, bad_config, unreachable, not_a_bot):
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# -- the policy and the time per move, without a server -------------------------------------------


def test_the_policy_reads_its_file_and_decides(tmp_path: Path) -> None:
    path = tmp_path / "bot.toml"
    path.write_text(
        "max_games = 2\n[challenges]\ncasual = false\ndeny = ['Mallory']\n"
        "[challenges.clock]\nkinds = ['fischer']\nmax_initial = 600\nmax_increment = 10\n"
        "[challenges.rules]\neditions = ['revised']\n[time]\ndivisor = 20\n"
    )
    policy = load_policy(path)
    assert policy.max_games == 2 and policy.time.divisor == 20
    assert load_policy(path, max_games=5).max_games == 5
    fischer = {"kind": "fischer", "initial": 300, "increment": 5}
    base = {"challenger": "ann", "rated": True, "clock": fischer, "rules": {}}
    assert policy.decide(base, 0) is None
    assert policy.decide(base, 2) == "later"
    assert policy.decide({**base, "challenger": "MALLORY"}, 0) == "generic"
    assert policy.decide({**base, "rated": False}, 0) == "rated"
    assert policy.decide({**base, "clock": None}, 0) == "time_control"
    assert policy.decide({**base, "clock": {**fischer, "initial": 900}}, 0) == "too_slow"
    assert policy.decide({**base, "clock": {**fischer, "increment": 30}}, 0) == "too_slow"
    assert policy.decide({**base, "rules": {"edition": "original"}}, 0) == "rules"
    assert Policy().decide({"challenger": "x", "rated": False, "clock": None}, 0) is None
    assert Policy().claim is True and policy.claim is True
    path.write_text("[game]\nclaim = false\n")
    assert load_policy(path).claim is False
    for text, where in [
        ("nonsense = 1\n", "nonsense"),
        ("[time]\ndivisor = 0\n", "[time] divisor"),
        ("[challenges.clock]\nkinds = ['blitz']\n", "[challenges.clock] kinds"),
        ("[challenges.clock]\nmin_days = 5\nmax_days = 2\n", "min_days is above max_days"),
        ("max_games = 'x'\n", "max_games"),
        ("[challenges\n", "not valid TOML"),
        ("[game]\nclaim = 'no'\n", "[game] claim"),
    ]:
        path.write_text(text)
        with pytest.raises(PolicyError, match=r".*") as info:
            load_policy(path)
        assert where in str(info.value), (text, str(info.value))
    with pytest.raises(PolicyError, match="cannot read"):
        load_policy(tmp_path / "missing.toml")


def test_the_time_per_move_follows_the_clock() -> None:
    timing = TimePolicy()
    assert timing.seconds(None, 0, 0.0) == 1.0
    assert timing.seconds({"kind": "correspondence", "days": 3}, 0, 0.0) == 1.0
    clock = {"kind": "fischer", "remaining_ms": [250_000, 100_000], "increment_ms": 2000}
    assert timing.seconds({**clock, "running": None}, 0, 0.0) == pytest.approx(12.0)
    # The running seat's time is what is left until its flag falls.
    running = {**clock, "running": 1, "flag_at": 1000.0}
    assert timing.seconds(running, 1, 950.0) == pytest.approx(4.0)
    # Never more than half of what is left, never less than the minimum.
    assert timing.seconds({**running, "increment_ms": 60_000}, 1, 999.0) == pytest.approx(0.35)
    assert timing.seconds(running, 1, 1000.0) == 0.1


def test_a_game_whose_thread_failed_is_played_again_a_few_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[int] = []
    monkeypatch.setattr(GameRunner, "start", lambda runner: started.append(runner.lives))
    client = BotClient("http://127.0.0.1:9", "pwa_nothing")
    bridge = Bridge(client, "random", Policy(), {"name": "Robo"})
    try:
        failed = GameRunner(bridge, {"game_id": "g1", "seat": 0, "opponent": "Ann"})
        over = GameRunner(bridge, {"game_id": "g2", "seat": 1, "opponent": "Bob"})
        failed.crashed = over.crashed = True
        over.over = True  # its game ended: nothing to play again
        bridge.runners.update(g1=failed, g2=over)
        for _ in range(5):  # every keep-alive line; the thread keeps failing
            bridge.on_event({"type": "keep_alive"})
            bridge.runners["g1"].crashed = True
        assert started == [1, 2, 3]  # then the game is left to its clock
        assert bridge.runners["g2"] is over
        quiet = GameRunner(bridge, {"game_id": "g3", "seat": 0, "opponent": "Cy"})
        bridge.runners["g3"] = quiet  # ended without failing (stopped, refused): left alone
        bridge.on_event({"type": "keep_alive"})
        assert started == [1, 2, 3]
    finally:
        client.close()
