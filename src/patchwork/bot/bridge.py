"""The bridge's loop: the account's event stream read in the main thread, each challenge to
the bot accepted or declined as the policy says, and each game of the bot (``game_start``)
played by a :class:`GameRunner` thread with an agent of its own (an engine program of its
own for ``cmd:``), closed when the game ends.

Nothing is lost to a dropped connection or a server restart: the event stream opens again
with every open challenge and a ``game_start`` for each game under way (a game already being
played is left to its runner), and a runner opens its game's stream again from the last
version it has (``?since=``), or reads the whole game where the server cannot serve that.
Every decision is one line of the log.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from ..i18n import _, fmt, ngettext
from ..protocol.agent import EngineAgent
from ..tournament.play import build_agent, close_agent
from .client import ApiError, Backoff, BotClient, Unreachable
from .game import GameRunner
from .policy import Policy

log = logging.getLogger("patchwork.bot")

PENDING_SECONDS = 60.0  # an accepted challenge counts as a game this long, until it starts
REVIVALS = 3  # a game whose runner keeps failing is left to its clock after this many
JOIN_SECONDS = 3.0  # how long stopping waits for the runners to close their agents


def check_agent(name: str) -> None:
    """Build the agent once and, for an engine program, start it and shake hands with it:
    a bad name or a program that does not start is said before the bot goes online (raises
    PatchworkError)."""
    agent = build_agent(name, seed=0)
    try:
        if isinstance(agent, EngineAgent):
            agent.start()
    finally:
        close_agent(agent)


def clock_text(clock: Mapping[str, Any] | None) -> str:
    if not clock:
        return _("no clock")
    if clock.get("kind") == "correspondence":
        return fmt(_("{days} days a move"), days=clock.get("days"))
    return fmt(
        _("{initial}+{increment} s"),
        initial=f"{float(clock.get('initial') or 0):g}",
        increment=f"{float(clock.get('increment') or 0):g}",
    )


def challenge_text(c: Mapping[str, Any]) -> str:
    """A challenge's terms in a few words: rated, clock, rules."""
    rules = c.get("rules") or {}
    parts = [_("rated") if c.get("rated") else _("casual"), clock_text(c.get("clock"))]
    parts.append(str(rules.get("edition", "revised")))
    if rules.get("rotation") is False:
        parts.append(_("no rotation"))
    if rules.get("flip") is False:
        parts.append(_("no flip"))
    return ", ".join(parts)


class Bridge:
    """One bot account on one server: ``run()`` until stopped (Ctrl-C, or :meth:`stop`)."""

    def __init__(
        self, client: BotClient, agent: str, policy: Policy, account: Mapping[str, Any]
    ) -> None:
        self.client = client
        self.agent_name = agent
        self.policy = policy
        self.name = str(account.get("name", ""))
        self.stopping = threading.Event()
        self.runners: dict[str, GameRunner] = {}
        self.pending: dict[str, float] = {}  # accepted, not started yet: game id -> when
        self.answered: set[str] = set()  # challenges answered (accepted or declined)
        self.seen: set[str] = set()  # the bot's own challenges, logged once
        self.greeted: set[str] = set()
        self._connected = False

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        """Play until stopped: 0, or 1 when the server refused the account for good."""
        backoff = Backoff(self.policy.max_backoff)
        try:
            for message in self.client.stream("/api/stream/event", self.stopping, backoff=backoff):
                self.on_event(message)
        except ApiError as e:
            log.error(fmt(_("the server refused the event stream: {error}"), error=str(e)))
            return 1
        finally:
            self.stop()
        return 0

    def stop(self) -> None:
        """Stop: every stream closed, every runner's agent closed (its program quits); the
        games are left to their clocks."""
        first = not self.stopping.is_set()
        self.stopping.set()
        self.client.interrupt()
        end = time.monotonic() + JOIN_SECONDS
        for runner in list(self.runners.values()):
            runner.join(max(0.0, end - time.monotonic()))
            if runner.is_alive():
                runner.close_agent()  # busy thinking: its program is stopped under it
        if first:
            playing = sum(1 for r in self.runners.values() if not r.over)
            log.info(
                fmt(
                    ngettext(
                        "stopped; {n} game left to its clock",
                        "stopped; {n} games left to their clocks",
                        playing,
                    ),
                    n=playing,
                )
            )

    def on_event(self, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        if kind == "keep_alive":  # every few seconds: a moment to look after the runners
            self.revive()
        elif kind == "welcome":
            if self._connected:
                log.info(_("event stream open again"))
            else:
                log.info(
                    fmt(
                        _("online as {name} at {server}"), name=self.name, server=self.client.server
                    )
                )
            self._connected = True
            self.name = str(message.get("name") or self.name)
        elif kind == "challenge_new":
            self.on_challenge(message["challenge"])
        elif kind == "challenge_accepted":
            c = message["challenge"]
            if self._mine(c):
                log.info(
                    fmt(
                        _("challenge {id} to {name} accepted: game {game}"),
                        id=c["id"],
                        name=c["challenged"],
                        game=message.get("game_id") or c.get("game_id"),
                    )
                )
        elif kind in ("challenge_declined", "challenge_cancelled", "challenge_expired"):
            c = message["challenge"]
            self.answered.add(c["id"])
            if self._mine(c):
                text = c.get("reason_text") or c.get("reason") or ""
                log.info(
                    fmt(
                        _("challenge {id} to {name}: {status} {reason}"),
                        id=c["id"],
                        name=c["challenged"],
                        status=c.get("status"),
                        reason=text,
                    ).strip()
                )
            elif kind != "challenge_declined":
                log.info(
                    fmt(
                        _("challenge {id} from {name}: {status}"),
                        id=c["id"],
                        name=c["challenger"],
                        status=c.get("status"),
                    )
                )
        elif kind == "game_start":
            self.start_game(message["game"])
        elif kind == "game_finish":
            game = message["game"]
            self.pending.pop(game["game_id"], None)
            if game["game_id"] not in self.runners:
                log.info(fmt(_("game {game} is over"), game=game["game_id"]))

    def _mine(self, challenge: Mapping[str, Any]) -> bool:
        return str(challenge.get("challenger", "")).casefold() == self.name.casefold()

    # -- challenges ---------------------------------------------------------------------------

    def games(self) -> int:
        """Games under way or accepted and about to start."""
        now = time.monotonic()
        for game_id, when in list(self.pending.items()):
            if now - when > PENDING_SECONDS:
                del self.pending[game_id]
        playing = {g for g, r in self.runners.items() if not r.over}
        return len(playing | set(self.pending))

    def on_challenge(self, c: Mapping[str, Any]) -> None:
        cid = str(c["id"])
        if c.get("status") != "open" or cid in self.answered:
            return
        if self._mine(c):
            if cid not in self.seen:
                self.seen.add(cid)
                log.info(
                    fmt(
                        _("challenge {id} to {name} ({terms}) is open"),
                        id=cid,
                        name=c["challenged"],
                        terms=challenge_text(c),
                    )
                )
            return
        reason = self.policy.decide(c, self.games())
        who, terms = c.get("challenger"), challenge_text(c)
        try:
            if reason is None:
                answer = self.client.accept(cid)
                self.answered.add(cid)
                game_id = str(answer.get("game_id"))
                self.pending[game_id] = time.monotonic()
                log.info(
                    fmt(
                        _("challenge {id} from {name} ({terms}): accepted, game {game}"),
                        id=cid,
                        name=who,
                        terms=terms,
                        game=game_id,
                    )
                )
            else:
                self.client.decline(cid, reason)
                self.answered.add(cid)
                log.info(
                    fmt(
                        _("challenge {id} from {name} ({terms}): declined ({reason})"),
                        id=cid,
                        name=who,
                        terms=terms,
                        reason=reason,
                    )
                )
        except ApiError as e:
            self.answered.add(cid)  # closed meanwhile (cancelled, lapsed): nothing to answer
            log.warning(
                fmt(_("challenge {id} from {name}: {error}"), id=cid, name=who, error=str(e))
            )
        except Unreachable as e:  # heard again when the stream opens again
            log.warning(
                fmt(_("challenge {id} from {name}: {error}"), id=cid, name=who, error=str(e))
            )

    # -- games --------------------------------------------------------------------------------

    def revive(self) -> None:
        """Start again a runner that died of a failure of its own with its game still on
        (at most ``REVIVALS`` times a game): the game's stream says where the game is."""
        for game_id, runner in list(self.runners.items()):
            if runner.is_alive() or not runner.crashed or runner.over or self.stopping.is_set():
                continue
            if runner.lives >= REVIVALS:
                continue
            log.warning(fmt(_("game {game}: its thread failed; playing it again"), game=game_id))
            self.runners[game_id] = again = GameRunner(self, runner.brief, runner.lives + 1)
            again.start()

    def start_game(self, brief: Mapping[str, Any]) -> None:
        game_id = str(brief["game_id"])
        self.pending.pop(game_id, None)
        runner = self.runners.get(game_id)
        if runner is not None and (runner.is_alive() or runner.over):
            return  # heard twice (the stream opened again): it is being played
        runner = GameRunner(self, brief)
        self.runners[game_id] = runner
        log.info(
            fmt(
                _("game {game}: playing seat {seat} against {name}"),
                game=game_id,
                seat=runner.seat,
                name=brief.get("opponent"),
            )
        )
        runner.start()
