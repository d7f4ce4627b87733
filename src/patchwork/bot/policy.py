"""Which challenges the bot accepts, and how long it thinks: a TOML file (docs/bots.md, "The
bridge"), every key optional, unknown keys refused (a typo would otherwise be a setting that
silently does nothing).

A challenge outside the file is declined with the reason that tells its challenger what to
change (the server's closed set, challenges/schemas.py ``Reason``): ``casual`` (send a casual
one instead), ``rated``, ``time_control`` (a kind of clock not taken), ``too_fast``,
``too_slow``, ``rules``, ``later`` (as many games under way as it plays at once) and
``generic`` (not accepting, or not from this player).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..engine import PatchworkError
from ..i18n import _, fmt

CLOCK_KINDS = ("none", "fischer", "correspondence")
EDITIONS = ("revised", "original")


class PolicyError(PatchworkError):
    """A config file that cannot be read, or a key or value it may not have."""


@dataclass(frozen=True)
class TimePolicy:
    """Seconds per move: with a Fischer clock ``remaining / divisor + increment``, never more
    than half of what is left after ``overhead`` (the network's share), within ``min`` and
    ``max``; without a clock, or with a correspondence clock, ``movetime``."""

    divisor: float = 25.0
    min: float = 0.1
    max: float = 60.0
    movetime: float = 1.0
    overhead: float = 0.3

    def seconds(self, clock: Mapping[str, Any] | None, seat: int, server_now: float) -> float:
        """The time for ``seat``'s move now (``server_now``: the server's clock, epoch s)."""
        if not clock or clock.get("kind") != "fischer":
            return self.movetime
        remaining = float(clock["remaining_ms"][seat]) / 1000
        if clock.get("running") == seat and clock.get("flag_at") is not None:
            remaining = float(clock["flag_at"]) - server_now
        increment = float(clock.get("increment_ms") or 0) / 1000
        wanted = remaining / self.divisor + increment
        wanted = min(wanted, (remaining - self.overhead) / 2, self.max)
        return max(self.min, wanted)


@dataclass(frozen=True)
class Policy:
    """What the bridge accepts and how it plays (every field a key of the config file)."""

    max_games: int = 4
    # [challenges]
    accept: bool = True
    rated: bool = True
    casual: bool = True
    allow: tuple[str, ...] = ()  # if given, only these players (names, any case)
    deny: tuple[str, ...] = ()
    # [challenges.clock]
    kinds: tuple[str, ...] = CLOCK_KINDS
    min_initial: float = 0.0
    max_initial: float = 10_800.0
    min_increment: float = 0.0
    max_increment: float = 600.0
    min_days: int = 1
    max_days: int = 30
    # [challenges.rules]
    editions: tuple[str, ...] = EDITIONS
    rotation: tuple[bool, ...] = (True, False)
    flip: tuple[bool, ...] = (True, False)
    # [game]
    takebacks: bool = False  # accept an opponent's takeback request (else decline it)
    claim: bool = True  # claim the win from an opponent away past the server's grace period
    greeting: str = ""  # said in the game's chat when it starts ("hi", "gl"...: a preset)
    farewell: str = ""  # said when it ends
    # [connection]
    max_backoff: float = 30.0  # seconds: the longest wait before reconnecting
    # [time]
    time: TimePolicy = field(default_factory=TimePolicy)

    def decide(self, challenge: Mapping[str, Any], games: int) -> str | None:
        """None to accept ``challenge`` (a ChallengeView) with ``games`` games under way or
        accepted; else the reason to decline it."""
        who = str(challenge.get("challenger", "")).casefold()
        if not self.accept or who in {n.casefold() for n in self.deny}:
            return "generic"
        if self.allow and who not in {n.casefold() for n in self.allow}:
            return "generic"
        if games >= self.max_games:
            return "later"
        rated = bool(challenge.get("rated"))
        if rated and not self.rated:
            return "casual"
        if not rated and not self.casual:
            return "rated"
        reason = self._clock_reason(challenge.get("clock"))
        if reason is not None:
            return reason
        rules = challenge.get("rules") or {}
        if (
            rules.get("edition", "revised") not in self.editions
            or bool(rules.get("rotation", True)) not in self.rotation
            or bool(rules.get("flip", True)) not in self.flip
        ):
            return "rules"
        return None

    def _clock_reason(self, clock: Mapping[str, Any] | None) -> str | None:
        kind = "none" if not clock else str(clock.get("kind"))
        if kind not in self.kinds:
            return "time_control"
        if clock and kind == "fischer":
            initial = float(clock.get("initial") or 0)
            increment = float(clock.get("increment") or 0)
            if initial < self.min_initial or increment < self.min_increment:
                return "too_fast"
            if initial > self.max_initial or increment > self.max_increment:
                return "too_slow"
        if clock and kind == "correspondence":
            days = int(clock.get("days") or 0)
            if days < self.min_days:
                return "too_fast"
            if days > self.max_days:
                return "too_slow"
        return None


# -- reading the file ---------------------------------------------------------------------------

# table -> {key: the Policy field (or "time.FIELD")}
_TABLES: dict[str, dict[str, str]] = {
    "": {"max_games": "max_games"},
    "challenges": {k: k for k in ("accept", "rated", "casual", "allow", "deny")},
    "challenges.clock": {
        k: k
        for k in (
            "kinds",
            "min_initial",
            "max_initial",
            "min_increment",
            "max_increment",
            "min_days",
            "max_days",
        )
    },
    "challenges.rules": {k: k for k in ("editions", "rotation", "flip")},
    "game": {k: k for k in ("takebacks", "claim", "greeting", "farewell")},
    "connection": {"max_backoff": "max_backoff"},
    "time": {k: f"time.{k}" for k in ("divisor", "min", "max", "movetime", "overhead")},
}
_SUBTABLES = {"challenges": ("clock", "rules")}


def _bad(where: str, text: str, **values: Any) -> PolicyError:
    return PolicyError(fmt(_("{where}: {problem}"), where=where, problem=fmt(text, **values)))


def _number(where: str, value: Any, low: float, integer: bool = False) -> float:
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if integer:
        ok = ok and isinstance(value, int)
    if not ok or not math.isfinite(value) or value < low:
        text = _("a whole number of at least {low}") if integer else _("a number of at least {low}")
        raise _bad(where, text, low=low)
    return value  # type: ignore[no-any-return]


def _choices(where: str, value: Any, allowed: tuple[Any, ...]) -> tuple[Any, ...]:
    if not isinstance(value, list) or not value:
        raise _bad(where, _("a list of some of {allowed}"), allowed=_shown(allowed))
    for item in value:
        if type(item) is not type(allowed[0]) or item not in allowed:
            raise _bad(
                where, _("{item!r} is not one of {allowed}"), item=item, allowed=_shown(allowed)
            )
    return tuple(dict.fromkeys(value))


def _shown(values: tuple[Any, ...]) -> str:
    return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)


def _value(key: str, where: str, value: Any) -> Any:
    """The field's value of ``value`` read at ``where`` (the table and key, for the error)."""
    if key in ("accept", "rated", "casual", "takebacks", "claim"):
        if not isinstance(value, bool):
            raise _bad(where, _("true or false"))
        return value
    if key in ("allow", "deny"):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _bad(where, _("a list of player names"))
        return tuple(value)
    if key in ("greeting", "farewell"):
        if not isinstance(value, str) or len(value) > 140:
            raise _bad(where, _("a text of at most 140 characters"))
        return value
    if key == "kinds":
        return _choices(where, value, CLOCK_KINDS)
    if key == "editions":
        return _choices(where, value, EDITIONS)
    if key in ("rotation", "flip"):
        return _choices(where, value, (True, False))
    if key in ("max_games", "min_days", "max_days"):
        return int(_number(where, value, 1, integer=True))
    if key in ("time.divisor", "time.movetime", "time.min", "time.max"):
        number = _number(where, value, 0)
        if number == 0:
            raise _bad(where, _("a number above 0"))
        return float(number)
    return float(_number(where, value, 0))


def policy_from(data: Mapping[str, Any], source: str = "config") -> Policy:
    """The policy of a parsed TOML document (defaults for what it leaves out)."""
    values: dict[str, Any] = {}
    timing: dict[str, Any] = {}

    def read(table: str, content: Mapping[str, Any]) -> None:
        known = _TABLES[table]
        subtables = _SUBTABLES.get(table, ())
        for key, value in content.items():
            where = f"{source}: " + (f"[{table}] {key}" if table else key)
            if table == "" and key in _TABLES and isinstance(value, dict):
                read(key, value)
            elif key in subtables and isinstance(value, dict):
                read(f"{table}.{key}", value)
            elif key in known:
                name = known[key]
                parsed = _value(name, where, value)
                if name.startswith("time."):
                    timing[name[5:]] = parsed
                else:
                    values[name] = parsed
            else:
                raise PolicyError(fmt(_("{where}: no such setting"), where=where))

    read("", data)
    policy = Policy(**values, time=TimePolicy(**timing))
    _check(policy, source)
    return policy


def _check(policy: Policy, source: str) -> None:
    pairs = [
        ("min_initial", "max_initial"),
        ("min_increment", "max_increment"),
        ("min_days", "max_days"),
    ]
    for low, high in pairs:
        if getattr(policy, low) > getattr(policy, high):
            raise PolicyError(
                fmt(_("{source}: {low} is above {high}"), source=source, low=low, high=high)
            )
    if policy.time.min > policy.time.max:
        raise PolicyError(fmt(_("{source}: [time] min is above max"), source=source))


def load_policy(path: str | Path | None, max_games: int | None = None) -> Policy:
    """The policy of the TOML file at ``path`` (None: the defaults); ``max_games`` (the
    command line's) overrides the file's."""
    policy = Policy()
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = tomllib.load(f)
        except OSError as e:
            raise PolicyError(
                fmt(_("cannot read {path}: {error}"), path=str(path), error=e.strerror or e)
            ) from None
        except tomllib.TOMLDecodeError as e:
            raise PolicyError(
                fmt(_("{path} is not valid TOML: {error}"), path=str(path), error=str(e))
            ) from None
        policy = policy_from(data, str(path))
    if max_games is not None:
        policy = Policy(**{**_shallow(policy), "max_games": max_games})
    return policy


def _shallow(policy: Policy) -> dict[str, Any]:
    return {f.name: getattr(policy, f.name) for f in fields(policy)}
