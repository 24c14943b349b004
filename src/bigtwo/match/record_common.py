"""The parts of a game record that both games' records share, written and read alike.

A record of the 52-card game (:mod:`.record`) and one of Big 2 RevolutioN
(:mod:`.revolution_record`) begin the same way: a line naming the format and its version, a
comment, the rules (a preset's name or every option as JSON), the deal count, the seed and
one line per seat; each deal gives every seat's cards on ``hand`` lines and ends with the
points and the running totals. This module writes those lines and reads them back with the
reasons in words (a :class:`~bigtwo.match.errors.RecordError` with an empty ``where``, which
the reader fills with the line), and splits a record's text into its lines. It writes the
one action of both games as a line (:func:`action_line`); reading actions back (a replay)
is each game's reader's, and touching files is :mod:`.files`'s.

>>> from bigtwo.match.match import Match
>>> record_header("bigtwo-record", 1, "Big Two", Match(RuleSet.preset("palm"), seed=5))[4:6]
['seed 5', 'seat 0 You']
>>> header_word("# a comment\\n\\nbigtwo-record 1\\nrules palm\\n")
'bigtwo-record'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from ..engine.cards import card_text
from ..engine.errors import BigTwoError
from ..engine.revolution_cards import ids, starred_text
from ..engine.rules import expansion_preset_names, preset_names
from ..engine.views import Action, Move
from .errors import RecordError
from .match import BaseMatch
from .settings import RuleSet

_INT = re.compile(r"-?\d+")
Hand = TypeVar("Hand", bound=int)  # a hand's cards as a mask, of either game
JSON_HEADER = "{"  # what header_word answers for a record in the JSON form
AnyMatch = BaseMatch[Any, Any]  # a match of either game


class RecordLine(NamedTuple):
    """One line of a record: where it is (``line 12``, or a JSON path), its number when it
    has one, and its text."""

    where: str
    line: int | None
    text: str


# -- writing -------------------------------------------------------------------------------------
def rules_data(rules: RuleSet) -> str | dict[str, Any]:
    """A preset's name (of either game) when the rules are exactly that preset, else every
    option (of play and of the match, as a rules file has them)."""
    presets = (*preset_names(), *expansion_preset_names())
    if rules.name in presets and RuleSet.preset(rules.name) == rules:
        return rules.name
    return rules.to_mapping()


def rules_token(rules: RuleSet) -> str:
    """The rules as one token of the text form: a preset name or a one-line JSON object."""
    data = rules_data(rules)
    if isinstance(data, str):
        return data
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def record_header(
    format: str, version: int, game: str, match: AnyMatch, settings: Sequence[str] = ()
) -> list[str]:
    """The header a record of either game begins with: the format and its version, a comment
    naming the ``game``, the rules the match began with, the deal count, the seed, the game's
    own ``settings`` lines, then one ``seat`` line per seat with its name."""
    seed = str(match.seed)
    if seed.strip() != seed or seed.splitlines() != [seed]:
        raise RecordError("", f"The seed {seed!r} cannot be written on one line")
    return [
        f"{format} {version}",
        f"# {game} game record, one line per action: see docs/record-format.md",
        f"rules {rules_token(match.first_ruleset)}",
        f"deals {match.deals}",
        f"seed {seed}",
        *settings,
        *(f"seat {seat} {name}" for seat, name in enumerate(match.names)),
    ]


def deal_lines(number: int, hands: Sequence[Hand], cards: Callable[[Hand], str]) -> list[str]:
    """A deal's first lines: its number, then every seat's dealt cards (``cards`` writes them)."""
    return [f"deal {number}", *(f"hand {seat} {cards(hand)}" for seat, hand in enumerate(hands))]


def score_lines(match: AnyMatch, number: int) -> list[str]:
    """The last lines of deal ``number``, once it is over: its points and the totals after it."""
    results = match.results[:number]
    totals = [sum(r.points[seat] for r in results) for seat in range(match.players)]
    return [
        "points " + " ".join(str(p) for p in results[number - 1].points),
        "totals " + " ".join(str(t) for t in totals),
    ]


def action_line(action: Action) -> str:
    """One action as a record line. The 52-card game's: ``play 2 3d 4c 5h 6s 7d`` or ``pass
    1``, then ``auto`` and the reason when it happened by itself; the expansion's (``move``
    set) name their kind, seat and cards, every card shown (a Revolution card starred)."""
    if action.move is not None:
        return _expansion_line(action)
    if action.play is None:
        line = f"pass {action.seat}"
    else:
        line = f"play {action.seat} {card_text(action.play.mask)}"
    if action.auto:
        line += f" auto {action.reason}".rstrip()
    return line


def starred_cards(mask: int) -> str:
    """Cards of the expansion as its record writes them, a Revolution card starred."""
    return " ".join(starred_text(c) for c in ids(mask))


def _expansion_line(action: Action) -> str:
    a, move = action, action.kind
    auto = " auto" if a.auto or (a.follows and move in (Move.DRAW, Move.STOP)) else ""
    if move is Move.PLAY:
        return f"play {a.seat} {starred_cards(a.cards)}"
    if move is Move.ACTIVATE:
        extra = f" {a.target} {starred_cards(a.given)}" if a.target >= 0 else ""
        return f"activate {a.seat} {starred_cards(a.cards)} {a.function}{extra}"
    if move is Move.COUNTER:
        return f"counter {a.seat} {starred_cards(a.cards)}"
    if move is Move.DRAW:
        return f"draw {a.seat} {a.source} {starred_cards(a.cards)}{auto}"
    if move is Move.EFFECT:
        extra = f" {a.target} {starred_cards(a.cards)}" if a.target >= 0 else ""
        return f"effect {a.seat} {a.function}{extra}"
    if move is Move.REVEAL:
        return f"reveal {starred_cards(a.cards)}"
    return f"{move.value} {a.seat}{auto}"


def on_off(flag: bool) -> str:
    return "on" if flag else "off"


def format_seconds(seconds: float) -> str:
    """Seconds as a record writes them: at most three decimals, no trailing zeros."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


# -- reading -------------------------------------------------------------------------------------
def decode(text: str | bytes) -> str:
    """A record's text (bytes must be UTF-8), without a byte-order mark."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError("", f"The record is not UTF-8 text (byte {exc.start})") from None
    return text.removeprefix("\ufeff")


def text_lines(text: str) -> Iterator[RecordLine]:
    """The lines of a record's text that say something (not blank, not a comment), stripped
    and numbered."""
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            yield RecordLine(f"line {number}", number, line)


def header_word(text: str | bytes) -> str:
    """The word a record begins with, which names its format (``bigtwo-record``,
    ``bigtwo-revolution-record``), or :data:`JSON_HEADER` for the JSON form; ``""`` for
    text with no line, or that is not UTF-8."""
    if isinstance(text, bytes):
        try:
            text = decode(text)
        except RecordError:
            return ""
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith(JSON_HEADER):
        return JSON_HEADER
    first = next(text_lines(text), None)
    return first.text.split()[0] if first is not None else ""


def read_integer(text: str, what: str) -> int:
    if not _INT.fullmatch(text.strip()):
        raise RecordError("", f"'{text}' is not a whole number ({what})")
    return int(text)


def read_switch(text: str) -> bool:
    if text in ("on", "true"):
        return True
    if text in ("off", "false"):
        return False
    raise RecordError("", f"'{text}' must be on or off")


def read_rules(text: str) -> RuleSet:
    """The rules of a ``rules`` line: a preset's name or a JSON object of options."""
    try:
        if text.startswith("{"):
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RecordError("", f"the rules are not valid JSON: {exc.msg}") from None
            if not isinstance(data, dict):
                raise RecordError("", "the rules must be a preset name or a JSON object")
            return RuleSet.from_mapping(data, origin="rules")
        return RuleSet.preset(text)
    except BigTwoError as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError("", str(exc)) from None


class Header:
    """The header's lines as read: rules, deals, seed and switches by word, names and kinds
    by seat. Each line is checked as it comes."""

    def __init__(self) -> None:
        self.fields: dict[str, Any] = {}
        self.names: dict[int, str] = {}
        self.kinds: dict[int, str] = {}

    def read(self, word: str, rest: str) -> None:
        """Take one header line (its first word and the rest)."""
        if word in ("seat", "player"):
            seat_text, _, value = rest.partition(" ")
            seat = read_integer(seat_text, "the seat number")
            by_seat = self.names if word == "seat" else self.kinds
            if not 0 <= seat < 4:
                raise RecordError("", f"there is no seat {seat}: seats are 0 to 3")
            if seat in by_seat:
                raise RecordError("", f"{word} {seat} is given twice")
            if not value.strip():
                what = "name" if word == "seat" else "kind"
                raise RecordError("", f"{word} {seat} needs a {what}")
            by_seat[seat] = value.strip()
            return
        if word in self.fields:
            raise RecordError("", f"'{word}' is given twice")
        if not rest:
            raise RecordError("", f"'{word}' needs a value")
        if word == "rules":
            self.fields[word] = read_rules(rest)
        elif word == "deals":
            self.fields[word] = read_integer(rest, "the number of deals")
            if self.fields[word] < 1:
                raise RecordError("", "a game needs at least one deal")
        elif word == "seed":
            self.fields[word] = (
                int(rest) if _INT.fullmatch(rest) and str(int(rest)) == rest else rest
            )
        else:
            self.fields[word] = read_switch(rest)

    def rules(self) -> RuleSet:
        if "rules" not in self.fields:
            raise RecordError("", "the header does not say the rules")
        rules: RuleSet = self.fields["rules"]
        return rules

    def seat_names(self) -> list[str]:
        """The seats' names, in order; every seat from 0 on must be named."""
        if not self.names:
            raise RecordError("", "the header names no seats")
        count = len(self.names)
        if sorted(self.names) != list(range(count)):
            raise RecordError("", f"the seats must be numbered 0 to {count - 1}")
        return [self.names[s] for s in range(count)]
