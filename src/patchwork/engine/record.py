"""Game records: a setup plus moves, as JSON or as readable text (see docs/notation.md).

A record is only ever trusted after replaying it: reading one replays every move through the
engine, so a record that does not replay, or that claims a result its moves do not give, is
rejected with InvalidRecordError.
"""

from __future__ import annotations

import copy
import datetime
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .automa import Automa, hidden_part
from .errors import InvalidRecordError, PatchworkError
from .game import RECORD, Game
from .moves import Move
from .position import is_public_text
from .rules import Rules
from .state import State, check_circle, new_game

FORMAT = "patchwork-record"
VERSION = 3  # version 2 adds the optional keys SEAT_KEYS; records without them stay version 1
VERSIONS = (1, 2, 3)
# Version 3 changes what the seats' AI levels mean: "level7" is level 7 of the current
# ladder. In a version 2 record "levelN" is the former five-level ladder's (the front end
# that seats agents reads it so: ai.levels.FORMER_LEVELS).
# A solo game (rules.solo, setup.automa_seed) is written as version 2 or later: a reader
# from before solo play refuses it by its unknown rules option.
TERMINATIONS = ("finished", "resigned", "time", "abandoned")
SEAT_KEYS = ("seats", "language")  # who played each seat and in which language (optional)
KEYS = (
    "format", "version", "event", "date", "players", "seats", "language", "rules", "setup",
    "moves", "result",
)  # fmt: skip
RESULT_KEYS = ("termination", "winner", "scores", "reason")
TAGS = (
    "Event", "Date", "Version", "Player0", "Player1", "Seat0", "Seat1", "Language", "Edition",
    "Rotation", "Flip", "Automa", "AutomaSeed", "Circle", "FirstPlayer", "Position",
    "Termination", "Winner",
    "Scores", "Reason",
)  # fmt: skip
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {v[1]: k for k, v in _ESCAPES.items()}
_TAG = re.compile(r'\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]')
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)")
_MOVE_LINE = re.compile(r"([0-9]+)\.\s+P([01])\s+(\S+)")
_SCORE = re.compile(r"-?[0-9]{1,9}")


def escape(value: str) -> str:
    """A tag value as the text form writes it between quotes: backslash, quote, and every
    control or line-separator character escaped (``\\n``, ``\\t``, ``\\u0085``...), so that
    any text stays on its one line and reads back the same."""
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def unescape(value: str, tag: str) -> str:
    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if code in _UNESCAPES:
            return _UNESCAPES[code]
        if len(code) == 5:
            return chr(int(code[1:], 16))
        raise InvalidRecordError(
            f"tag {tag}: unknown escape '\\{code}' (write \\\\ for a backslash)"
        )

    return _ESCAPE.sub(one, value)


def _check_keys(d: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    unknown = sorted(str(k) for k in d if k not in allowed)
    if unknown:
        raise InvalidRecordError(
            f"{what} has unknown key(s) {', '.join(unknown)} (allowed: {', '.join(allowed)})"
        )


@dataclass
class Record:
    """Everything needed to replay and show a game.

    ``setup`` is ``{"circle": [...], "first_player": p}`` for a game from a fresh setup, or
    ``{"position": text}`` for one that starts from a position text. ``seats`` says what
    played each seat ("human" or an agent's name) and ``language`` the language the game was
    played in, so that a front end can resume it as it was; both are optional.
    """

    rules: Rules
    setup: dict[str, Any]
    moves: list[str]
    players: tuple[str, str] = ("Player 0", "Player 1")
    result: dict[str, Any] | None = None
    date: str = field(default_factory=lambda: datetime.date.today().isoformat())
    event: str = ""
    seats: tuple[str, str] | None = None
    language: str | None = None
    version: int = field(default=VERSION, compare=False)  # the version it was read from

    # -- building -------------------------------------------------------------------------

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        event: str = "",
        date: str | None = None,
        termination: str | None = None,
        winner: int | None = None,
        seats: tuple[str, str] | None = None,
        language: str | None = None,
    ) -> Record:
        start = game.start
        solo = hidden_part(start)
        seed = None if solo is None else solo.seed
        fresh = len(start.circle) == 33 and start == new_game(
            circle=start.circle, rules=start.rules, first_player=start.on_top, automa_seed=seed
        )
        setup: dict[str, Any] = (
            {"circle": list(start.circle), "first_player": start.on_top}
            if fresh
            else {"position": start.to_text()}
        )
        if fresh and seed is not None:  # a solo game: the deck's shuffles follow from it
            setup["automa_seed"] = seed
        end = game.state
        result = None
        if end.is_terminal():
            result = {
                "termination": "finished",
                "winner": end.winner(),
                "scores": list(end.scores()),
            }
        elif termination is not None:
            result = {"termination": termination, "winner": winner, "scores": list(end.scores())}
        return cls(
            rules=start.rules,
            setup=setup,
            moves=[str(m) for m in game.moves],
            players=players,
            result=result,
            date=date or datetime.date.today().isoformat(),
            event=event,
            seats=seats,
            language=language,
        )

    def start_state(self) -> State:
        try:
            if "position" in self.setup:
                if is_public_text(self.setup["position"]):
                    raise InvalidRecordError(
                        "the start position leaves Automa's deck out (its public form): a "
                        "record needs the private form, which the game goes on from"
                    )
                state = State.from_text(self.setup["position"])
                if state.rules != self.rules:
                    raise InvalidRecordError("the rules and the start position disagree")
                return state
            circle = check_circle(self.setup.get("circle"))
            first = self.setup.get("first_player", 0)
            seed = self.setup.get("automa_seed")
            if (seed is None) != (self.rules.solo is None):
                raise InvalidRecordError("a solo game's setup gives automa_seed, and only it")
            return new_game(circle=circle, rules=self.rules, first_player=first, automa_seed=seed)
        except InvalidRecordError:
            raise
        except PatchworkError as e:
            raise InvalidRecordError(f"bad setup: {e}") from None

    def replay(self) -> Game:
        """Play the moves through the engine and check the claimed result (which is then
        kept in its full form: termination, winner, scores and any reason)."""
        game = Game(self.start_state())
        for i, text in enumerate(self.moves, 1):
            try:
                game.push(Move.parse(text, game.state))
            except PatchworkError as e:
                raise InvalidRecordError(f"move {i} ({text!r}) does not replay: {e}") from None
        if self.result is not None:
            self.result = _checked_result(self.result, game.state)
        return game

    @property
    def seats_version(self) -> int:
        """The version written with seats: a record read as version 2 keeps it (its seats
        name the former ladder), any other is written as the current one."""
        return 2 if self.version == 2 else VERSION

    # -- JSON -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A fresh JSON-ready dict (changing it leaves the record alone): version 1 unless
        the record has seats or a language, so that version 1 readers read it."""
        extra: dict[str, Any] = {}
        if self.seats is not None:
            extra["seats"] = list(self.seats)
        if self.language is not None:
            extra["language"] = self.language
        return copy.deepcopy(
            {
                "format": FORMAT,
                "version": self.seats_version if extra or self.rules.solo else 1,
                "event": self.event,
                "date": self.date,
                "players": list(self.players),
                **extra,
                "rules": self.rules.to_dict(),
                "setup": self.setup,
                "moves": self.moves,
                "result": self.result,
            }
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, d: object) -> Record:
        if not isinstance(d, dict):
            raise InvalidRecordError("a record is a JSON object")
        _check_keys(d, KEYS, "the record")
        if d.get("format", FORMAT) != FORMAT:
            raise InvalidRecordError(f"not a patchwork record (format {d.get('format')!r})")
        version = d.get("version", VERSION)
        if isinstance(version, bool) or version not in VERSIONS:
            raise InvalidRecordError(
                f"record version {version!r} is not supported (this reads versions 1 to 3)"
            )
        rules_d = d.get("rules", {})
        if version == 1 and isinstance(rules_d, dict) and "solo" in rules_d:
            raise InvalidRecordError("a solo game (rules.solo) needs record version 2")
        if version == 1 and any(key in d for key in SEAT_KEYS):
            raise InvalidRecordError("seats and language need record version 2")
        try:
            rules = Rules.from_dict(d.get("rules", {}))
        except PatchworkError as e:
            raise InvalidRecordError(f"bad rules: {e}") from None
        moves = d.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise InvalidRecordError("moves must be a list of move texts")
        players = d.get("players", ["Player 0", "Player 1"])
        if not (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            raise InvalidRecordError("players must be a list of two names (strings)")
        for key in ("date", "event"):
            if not isinstance(d.get(key, ""), str):
                raise InvalidRecordError(f"{key} must be a string")
        seats = d.get("seats")
        if seats is not None and not (
            isinstance(seats, list)
            and len(seats) == 2
            and all(isinstance(s, str) and s for s in seats)
        ):
            raise InvalidRecordError('seats must be a list of two kinds, like ["human", "level3"]')
        language = d.get("language")
        if language is not None and not (isinstance(language, str) and language):
            raise InvalidRecordError('language must be a language code, like "fi"')
        result = d.get("result")
        if result is not None and not isinstance(result, dict):
            raise InvalidRecordError("result must be an object or null")
        record = cls(
            rules=rules,
            setup=_checked_setup(d.get("setup")),
            moves=list(moves),
            players=(players[0], players[1]),
            result=result,
            date=d.get("date", ""),
            event=d.get("event", ""),
            seats=None if seats is None else (seats[0], seats[1]),
            language=language,
            version=version,
        )
        game = record.replay()
        record.moves = [str(m) for m in game.moves]  # one spelling: the notation's own
        return record

    @classmethod
    def from_json(cls, text: str) -> Record:
        if not isinstance(text, str | bytes):
            raise InvalidRecordError("a JSON record must be a string")
        try:
            d = json.loads(text)
        except json.JSONDecodeError as e:
            raise InvalidRecordError(f"not valid JSON: {e}") from None
        return cls.from_dict(d)

    # -- text -----------------------------------------------------------------------------

    def to_text(self) -> str:
        tags = [
            ("Event", self.event),
            ("Date", self.date),
            ("Player0", self.players[0]),
            ("Player1", self.players[1]),
        ]
        if self.seats is not None:  # the version says which ladder their levels are
            tags += [
                ("Version", str(self.seats_version)),
                ("Seat0", self.seats[0]),
                ("Seat1", self.seats[1]),
            ]
        if self.language is not None:
            tags.append(("Language", self.language))
        tags += [
            ("Edition", self.rules.edition),
            ("Rotation", "yes" if self.rules.rotation else "no"),
            ("Flip", "yes" if self.rules.flip else "no"),
        ]
        solo = self.rules.solo
        if solo is not None:
            words = [str(solo.level), solo.deck] + (["specials"] if solo.takes_specials else [])
            tags.append(("Automa", " ".join(words)))
        if "position" in self.setup:
            tags.append(("Position", self.setup["position"]))
        else:
            if solo is not None:
                tags.append(("AutomaSeed", str(self.setup["automa_seed"])))
            tags.append(("Circle", " ".join(str(i) for i in self.setup["circle"])))
            tags.append(("FirstPlayer", str(self.setup.get("first_player", 0))))
        game = self.replay()  # also checks the result, so that what is written reads back
        if self.result is not None:
            winner = self.result["winner"]
            tags.append(("Termination", self.result["termination"]))
            tags.append(("Winner", "-" if winner is None else str(winner)))
            tags.append(("Scores", " ".join(str(x) for x in self.result["scores"])))
            if "reason" in self.result:
                tags.append(("Reason", self.result["reason"]))
        lines = [f'[{k} "{escape(v)}"]' for k, v in tags]
        lines.append("")
        for i, (mover, move) in enumerate(zip(game.movers(), game.moves, strict=True), 1):
            lines.append(f"{i}. P{mover} {move}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Record:
        if not isinstance(text, str):
            raise InvalidRecordError("a text record must be a string")
        tags: dict[str, str] = {}
        moves: list[str] = []
        labels: list[int] = []
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            tag = _TAG.fullmatch(line)
            if tag:
                name = tag.group(1)
                if name not in TAGS:
                    raise InvalidRecordError(
                        f"line {n}: unknown tag {name!r} (tags: {', '.join(TAGS)})"
                    )
                if name in tags:
                    raise InvalidRecordError(f"line {n}: tag {name} is given twice")
                tags[name] = unescape(tag.group(2), name)
                continue
            m = _MOVE_LINE.fullmatch(line)
            if not m:
                raise InvalidRecordError(
                    f"line {n}: {raw!r} is neither a [Tag \"value\"] nor '12. P0 move'"
                )
            if int(m.group(1)) != len(moves) + 1:
                raise InvalidRecordError(f"line {n}: expected move number {len(moves) + 1}")
            labels.append(int(m.group(2)))
            moves.append(m.group(3))
        yes_no = {"yes": True, "no": False}
        try:
            rules = {
                "edition": tags.get("Edition", "revised"),
                "rotation": yes_no[tags.get("Rotation", "yes")],
                "flip": yes_no[tags.get("Flip", "yes")],
            }
        except KeyError:
            raise InvalidRecordError("Rotation and Flip must be yes or no") from None
        if "Automa" in tags:
            words = tags["Automa"].split(" ")
            if not (
                len(words) in (2, 3)
                and words[0] in ("1", "2", "3", "4", "5")
                and words[2:] in ([], ["specials"])
            ):
                raise InvalidRecordError('Automa must be level and deck, like "3 normal"')
            try:
                rules["solo"] = Automa(int(words[0]), words[1], len(words) == 3).to_dict()
            except PatchworkError as e:
                raise InvalidRecordError(f"Automa: {e}") from None
        setup: dict[str, Any]
        if "Position" in tags:
            if "Circle" in tags or "FirstPlayer" in tags:
                raise InvalidRecordError("give a [Position ...] or a [Circle ...], not both")
            setup = {"position": tags["Position"]}
        elif "Circle" in tags:
            ids = tags["Circle"].split(" ")
            first = tags.get("FirstPlayer", "0")
            if not all(x.isascii() and x.isdigit() and len(x) <= 2 for x in ids):
                raise InvalidRecordError("Circle must be patch ids separated by single spaces")
            if first not in ("0", "1"):
                raise InvalidRecordError(f"FirstPlayer must be 0 or 1, not {first!r}")
            setup = {"circle": [int(x) for x in ids], "first_player": int(first)}
            if "AutomaSeed" in tags:
                seed = tags["AutomaSeed"]
                if not (seed.isascii() and seed.isdigit() and len(seed) <= 10):
                    raise InvalidRecordError("AutomaSeed must be a whole number")
                setup["automa_seed"] = int(seed)
        else:
            raise InvalidRecordError("a text record needs a [Circle ...] or [Position ...] tag")
        result = None
        if "Termination" in tags:
            winner = tags.get("Winner", "-")
            scores = tags.get("Scores", "").split(" ")
            if winner not in ("0", "1", "-"):
                raise InvalidRecordError(f"Winner must be 0, 1 or -, not {winner!r}")
            if not all(_SCORE.fullmatch(x) for x in scores):
                raise InvalidRecordError('Scores must be two whole numbers, like "-23 2"')
            result = {
                "termination": tags["Termination"],
                "winner": None if winner == "-" else int(winner),
                "scores": [int(x) for x in scores],
            }
            if "Reason" in tags:
                result["reason"] = tags["Reason"]
        elif {"Winner", "Scores", "Reason"} & set(tags):
            raise InvalidRecordError("Winner, Scores and Reason go with a [Termination ...] tag")
        extra: dict[str, Any] = {}
        if "Seat0" in tags or "Seat1" in tags:
            extra["seats"] = [tags.get("Seat0", ""), tags.get("Seat1", "")]
            extra["version"] = 2  # seats before the Version tag: the former ladder's
        if "Version" in tags:
            if tags["Version"] not in [str(v) for v in VERSIONS]:
                raise InvalidRecordError(f"record version {tags['Version']!r} is not supported")
            extra["version"] = int(tags["Version"])
        if "Language" in tags:
            extra["language"] = tags["Language"]
        record = cls.from_dict(
            {
                **extra,
                "rules": rules,
                "setup": setup,
                "moves": moves,
                "players": [tags.get("Player0", "Player 0"), tags.get("Player1", "Player 1")],
                "result": result,
                "date": tags.get("Date", ""),
                "event": tags.get("Event", ""),
            }
        )
        # The P0/P1 labels are redundant; a record whose labels contradict its moves is wrong.
        state = record.start_state()
        for i, (text_move, label) in enumerate(zip(moves, labels, strict=True), 1):
            if state.current_player != label:
                raise InvalidRecordError(
                    f"move {i} ({text_move}) is labelled P{label}, "
                    f"but player {state.current_player} is to move"
                )
            state = state.apply(Move.parse(text_move, state))
        return record

    # -- files ----------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Record:
        """Read either form: JSON if it starts with '{', otherwise the text form."""
        if not isinstance(text, str):
            raise InvalidRecordError("a record must be given as a string")
        return cls.from_json(text) if text.lstrip().startswith("{") else cls.from_text(text)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise InvalidRecordError(f"cannot read {path}: {e}") from None
        return cls.parse(text)

    def save(self, path: str | Path) -> None:
        """Write JSON for a .json path, the text form otherwise."""
        p = Path(path)
        p.write_text(self.to_json() if p.suffix == ".json" else self.to_text(), "utf-8")


def _checked_setup(setup: object) -> dict[str, Any]:
    """A setup object in its one form: ``{"circle", "first_player"}`` or ``{"position"}``."""
    if isinstance(setup, dict) and set(setup) == {"position"}:
        return {"position": setup["position"]}
    keys = {"circle", "first_player", "automa_seed"}
    if isinstance(setup, dict) and "circle" in setup and set(setup) <= keys:
        checked = {"circle": setup["circle"], "first_player": setup.get("first_player", 0)}
        if "automa_seed" in setup:
            checked["automa_seed"] = setup["automa_seed"]
        return checked
    raise InvalidRecordError(
        "setup must hold a circle (and first_player) or a position, and nothing else"
    )


def _checked_result(result: dict[str, Any], end: State) -> dict[str, Any]:
    """The result checked against the position the moves reach, in its one form."""
    _check_keys(result, RESULT_KEYS, "the result")
    termination = result.get("termination")
    if termination not in TERMINATIONS:
        raise InvalidRecordError(
            f"unknown termination {termination!r} (one of {', '.join(TERMINATIONS)})"
        )
    winner = result.get("winner")
    if winner not in (None, 0, 1) or isinstance(winner, bool):
        raise InvalidRecordError(f"winner must be 0, 1 or null, not {winner!r}")
    if termination == "finished":
        if not end.is_terminal():
            raise InvalidRecordError("the record says finished, but the game is not over")
        if winner != end.winner():
            raise InvalidRecordError(
                f"the record names winner {winner}, the moves give {end.winner()}"
            )
    elif end.is_terminal():
        raise InvalidRecordError(
            f"the record says {termination}, but the moves play the game to its end"
        )
    scores = result.get("scores")
    actual = list(end.scores())
    if not (
        isinstance(scores, list)
        and all(isinstance(x, int) and not isinstance(x, bool) for x in scores)
        and scores == actual
    ):
        raise InvalidRecordError(
            f"the record claims scores {scores!r}, the moves give {actual} "
            "(a result gives both scores)"
        )
    checked: dict[str, Any] = {"termination": termination, "winner": winner, "scores": actual}
    if "reason" in result:
        if not isinstance(result["reason"], str):
            raise InvalidRecordError("the result's reason must be a string")
        checked["reason"] = result["reason"]
    return checked


RECORD.lend(Record)
