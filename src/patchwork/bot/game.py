"""One game of the bot: its stream read, and when the bot is to move its agent asked and the
move posted (docs/bots.md, "What it does with a game"). A :class:`GameRunner` thread per
game, started by the bridge (bridge.py); it opens the game's stream again after a drop from
the last version it has (``?since=``), or reads the whole game where the server cannot
serve that, and closes its agent when the game ends."""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..ai import Agent, Limit
from ..engine.position import parse_position
from ..i18n import _, fmt
from ..protocol.agent import EngineAgent
from ..tournament.play import build_agent, close_agent
from .client import ApiError, Backoff, Stopped, Unreachable

if TYPE_CHECKING:
    from .bridge import Bridge

log = logging.getLogger("patchwork.bot")

CHAT_PRESETS = ("hi", "gl", "gg", "wp", "thanks")
MOVE_TRIES = 5  # a move whose request got no answer is sent again (its version guards it)
AGENT_TRIES = 2  # an agent that fails is built afresh once; failing again, the bot resigns


def make_agent(name: str) -> Agent:
    """A fresh agent for one game (a ``cmd:`` one starts its program on its first move). An
    engine program that answers after its time is not failed for it: the server's clock is
    the judge of time."""
    agent = build_agent(name, seed=random.randrange(2**31))
    if isinstance(agent, EngineAgent):
        agent.time_margin = math.inf
    return agent


class GameRunner(threading.Thread):
    """Plays one game: reads its stream, and when the bot is to move asks its agent and posts
    the move. Ends when the game is over (or the bridge stops), closing its agent."""

    def __init__(self, bridge: Bridge, brief: Mapping[str, Any], lives: int = 0) -> None:
        self.brief = brief
        self.lives = lives  # how many times it was started again after a failure of its own
        self.crashed = False
        self.game_id = str(brief["game_id"])
        super().__init__(name=f"game-{self.game_id}", daemon=True)
        self.bridge = bridge
        self.client = bridge.client
        self.policy = bridge.policy
        self.seat = int(brief["seat"])
        self.opponent = str(brief.get("opponent", ""))
        self.view: dict[str, Any] | None = None
        self.over = False
        self.offset = 0.0  # the server's clock minus ours, seconds
        self.agent: Agent | None = None
        self.failures = 0
        self._answered_takeback: int | None = None
        self._lock = threading.Lock()

    def run(self) -> None:
        try:
            self._play()
        except Stopped:
            pass
        except ApiError as e:
            log.error(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
        except Exception as e:  # one game's trouble must not end the bot (the bridge revives it)
            self.crashed = True
            log.exception(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
        finally:
            self.close_agent()

    def close_agent(self) -> None:
        with self._lock:
            agent, self.agent = self.agent, None
        if agent is not None:
            try:
                close_agent(agent)
            except Exception as e:  # closing is best effort
                log.debug("closing the agent of %s: %s", self.game_id, e)

    def _agent(self) -> Agent:
        with self._lock:
            if self.agent is None:
                self.agent = make_agent(self.bridge.agent_name)
            return self.agent

    def _warm_up(self) -> None:
        """Start the game's engine program now, not on the clock of the first move."""
        try:
            agent = self._agent()
            if isinstance(agent, EngineAgent):
                agent.start()
        except Exception as e:  # its first move says it again, and fails the agent
            log.warning(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
            self.close_agent()

    def _since(self) -> dict[str, Any]:
        return {} if self.view is None else {"since": self.view["version"]}

    def _play(self) -> None:
        stop = self.bridge.stopping
        backoff = Backoff(self.policy.max_backoff)
        path = f"/api/games/{self.game_id}/stream"
        connected = False
        for message in self.client.stream(path, stop, self._since, backoff):
            if stop.is_set():
                return
            kind = message.get("type")
            if isinstance(message.get("server_time"), int | float):
                self.offset = float(message["server_time"]) - time.time()
            if kind == "welcome":
                if self.seat not in (message.get("seats") or []):
                    log.error(
                        fmt(
                            _("game {game}: this account does not play seat {seat} of it"),
                            game=self.game_id,
                            seat=self.seat,
                        )
                    )
                    return
                if connected:
                    log.info(fmt(_("game {game}: stream open again"), game=self.game_id))
                else:
                    # Only now, with the stream open: the bot is present while its engine
                    # starts, so the opponent cannot claim the game as left meanwhile.
                    self._warm_up()
                connected = True
                continue
            if kind == "presence":
                self.claim_if_gone(message)
                continue
            if kind in ("state", "sync"):
                self.view = message["game"]
            elif kind == "update":
                if self.view is not None and message["version"] <= self.view["version"]:
                    continue  # our own move, whose answer brought that view already
                self.view = _apply_update(self.view, message) or self._reread()
            else:
                continue
            if self.view is not None and self.act():
                return

    def _reread(self) -> dict[str, Any] | None:
        """The whole game, read again (None when the server cannot be reached now)."""
        try:
            return self.client.game(self.game_id)
        except (Unreachable, ApiError) as e:
            log.warning(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
            return None

    def act(self) -> bool:
        """Do what the view asks of the bot (answer a takeback, move, as long as it is its
        turn); True once the game is over."""
        stop = self.bridge.stopping
        while self.view is not None and not stop.is_set():
            view = self.view
            if view["status"] == "finished":
                self.finish(view)
                return True
            if view["status"] != "active":
                return False
            self.greet(view)
            self.answer_takeback(view)
            if self.view is not view:
                continue  # answered: the game changed
            if view.get("to_move") != self.seat:
                return False
            if not self.move(view):
                return self.over
        return self.over

    def greet(self, view: Mapping[str, Any]) -> None:
        """Say the greeting once, in a game the bot has not moved in yet."""
        if self.game_id in self.bridge.greeted:
            return
        self.bridge.greeted.add(self.game_id)
        if not any(entry.get("seat") == self.seat for entry in view.get("history") or []):
            self.say(self.policy.greeting)

    def say(self, text: str) -> None:
        if not text:
            return
        try:
            self.client.chat(self.game_id, text, CHAT_PRESETS)
        except (ApiError, Unreachable) as e:
            log.debug("chat in %s: %s", self.game_id, e)

    def claim_if_gone(self, presence: Mapping[str, Any]) -> None:
        """The opponent away past the grace period (``claimable``, docs/server.md): the game
        is claimed (the bot wins, ``abandoned``), unless the config says ``claim = false``."""
        other = next((s for s in presence.get("seats", []) if s.get("seat") != self.seat), None)
        if not self.policy.claim or other is None or not other.get("claimable"):
            return
        try:
            self.client.claim(self.game_id)
        except (ApiError, Unreachable) as e:  # back just now, or the game is over already
            log.info(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
            return
        log.info(
            fmt(
                _("game {game}: {name} is gone; the game is claimed"),
                game=self.game_id,
                name=self.opponent,
            )
        )

    def answer_takeback(self, view: Mapping[str, Any]) -> None:
        asked = (view.get("takeback") or {}).get("offered_by")
        if asked is None or asked == self.seat or self._answered_takeback == view["version"]:
            return
        self._answered_takeback = view["version"]
        action = "accept" if self.policy.takebacks else "decline"
        try:
            answer = self.client.takeback(self.game_id, action)
            self.view = answer.get("game") or self.view
            log.info(
                fmt(
                    _("game {game}: takeback asked by {name}: {action}"),
                    game=self.game_id,
                    name=self.opponent,
                    action=action,
                )
            )
        except (ApiError, Unreachable) as e:
            log.warning(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))

    def seconds(self, view: Mapping[str, Any]) -> float:
        return self.policy.time.seconds(view.get("clock"), self.seat, time.time() + self.offset)

    def move(self, view: Mapping[str, Any]) -> bool:
        """Choose and post the move of ``view``; True when the view moved on (the move was
        played, or the game was read again), False to wait for the stream."""
        state = parse_position(view["position"])
        seconds = self.seconds(view)
        started = time.monotonic()
        try:
            move = str(self._agent().choose(state, Limit(time=seconds)))
        except Exception as e:  # an engine that failed, a Python agent's bug
            if self.bridge.stopping.is_set():
                raise Stopped from None
            return self.agent_failed(str(e) or type(e).__name__)
        took = time.monotonic() - started
        ply = len(view.get("history") or []) + 1
        backoff = Backoff(min(self.policy.max_backoff, 5.0), first=0.25)
        for attempt in range(MOVE_TRIES):
            try:
                answer = self.client.move(self.game_id, move, view["version"])
            except Unreachable as e:
                log.warning(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
                if attempt + 1 < MOVE_TRIES:
                    backoff.wait(self.bridge.stopping)
                continue
            except ApiError as e:
                return self.refused(move, e)
            self.failures = 0
            self.view = answer["game"]
            log.info(
                fmt(
                    _("game {game}: move {ply}: {move} ({took} s of {seconds} s)"),
                    game=self.game_id,
                    ply=ply,
                    move=move,
                    took=f"{took:.2f}",
                    seconds=f"{seconds:.2f}",
                )
            )
            return True
        return False  # the stream, open again, brings the game as it is now

    def refused(self, move: str, error: ApiError) -> bool:
        """The server refused the move: read the game again (another move came first, the
        game ended), or count it as the agent's failure (an illegal move)."""
        if error.code in ("illegal_move", "invalid_move"):
            return self.agent_failed(fmt(_("{move} was refused: {error}"), move=move, error=error))
        if error.retryable:  # rate limited, restarting: a moment's patience
            self.bridge.stopping.wait(1.0)
        log.warning(
            fmt(
                _("game {game}: {move} was refused: {error}"),
                game=self.game_id,
                move=move,
                error=str(error),
            )
        )
        found = self._reread()
        if found is None:
            return False
        self.view = found
        return True

    def agent_failed(self, why: str) -> bool:
        self.failures += 1
        self.close_agent()
        if self.failures < AGENT_TRIES:
            log.warning(
                fmt(
                    _("game {game}: the agent failed ({error}); starting it again"),
                    game=self.game_id,
                    error=why,
                )
            )
            return True
        log.error(
            fmt(
                _("game {game}: the agent failed again ({error}); resigning"),
                game=self.game_id,
                error=why,
            )
        )
        try:
            answer = self.client.resign(self.game_id)
            self.view = answer.get("game") or self.view
        except (ApiError, Unreachable) as e:
            log.warning(fmt(_("game {game}: {error}"), game=self.game_id, error=str(e)))
            self.over = True
            return False
        return True

    def finish(self, view: Mapping[str, Any]) -> None:
        if self.over:
            return
        self.over = True
        result = view.get("result") or {}
        winner = result.get("winner", view.get("winner"))
        scores = result.get("scores") or view.get("scores") or []
        if winner is None:
            outcome = _("a draw")
        elif winner == self.seat:
            outcome = _("won")
        else:
            outcome = _("lost")
        log.info(
            fmt(
                _("game {game} against {name} is over: {outcome} ({termination}), scores {scores}"),
                game=self.game_id,
                name=self.opponent,
                outcome=outcome,
                termination=result.get("termination", "finished"),
                scores=" ".join(str(s) for s in scores),
            )
        )
        self.say(self.policy.farewell)


def _apply_update(view: dict[str, Any] | None, update: Mapping[str, Any]) -> dict[str, Any] | None:
    """The view after an ``update`` (docs/server.md): ``changes`` over a view at its
    ``since``, the entry appended; None when the view is not at ``since`` (read it again)."""
    if view is None or view.get("version") != update.get("since"):
        return None
    return {
        **view,
        **update["changes"],
        "version": update["version"],
        "history": [*view.get("history", []), update["entry"]],
    }
