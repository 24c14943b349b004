"""Game records: a plain-text format (and a JSON form) that replays a match exactly.

One format is at once the save file, the export and the test fixture (the pokerkit lesson):
a header with the format version, the rules (a preset name, or every option as JSON), the
deal count, the seed, the autopass switches and the seats; then each deal with every seat's
cards and one line per action, settings changed at their place, and the result. Reading a
record replays it through :class:`~bigtwo.match.match.Match`, so every play is checked by the
engine again; anything corrupt or illegal raises :class:`~bigtwo.match.errors.RecordError`
with the line (or JSON path) and the reason. The format is specified in
``docs/record-format.md``. This module does no storage of its own: files are written only by
:func:`write_file`, atomically.

>>> match = Match(RuleSet.preset("palm"), seed=3, deals=1)
>>> text = write_text(match)
>>> text.splitlines()[0], read_text(text).deal.dealt == match.deal.dealt
('bigtwo-record 1', True)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from ..engine.cards import Mask, card_symbols, card_text, parse_cards
from ..engine.errors import BigTwoError
from ..engine.rules import preset_names
from ..engine.views import Action
from .errors import ExportError, RecordError
from .match import Change, Match
from .settings import RuleSet

FORMAT = "bigtwo-record"
VERSION = 1
FORMATS = ("text", "json")

# Setting names as a record writes them after "set" (and in the header).
_SETTING_WORDS = {"rules": "rules", "autopass": "autopass", "autopass_five": "autopass-five"}
_SETTING_KEYS = {word: key for key, word in _SETTING_WORDS.items()}
_HEADER_WORDS = ("rules", "deals", "seed", "autopass", "autopass-five", "seat", "player")
_INT = re.compile(r"-?\d+")


# -- writing -------------------------------------------------------------------------------------
def rules_data(rules: RuleSet) -> str | dict[str, Any]:
    """A preset's name when the rules are exactly that preset, else every option (of play
    and of the match, as a rules file has them)."""
    if rules.name in preset_names() and RuleSet.preset(rules.name) == rules:
        return rules.name
    return rules.to_mapping()


def rules_token(rules: RuleSet) -> str:
    """The rules as one token of the text form: a preset name or a one-line JSON object."""
    data = rules_data(rules)
    if isinstance(data, str):
        return data
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def header_lines(match: Match) -> list[str]:
    """The header: format version, rules, deals, seed, autopass switches and seats, as the
    match began (later changes are body lines)."""
    seed = str(match.seed)
    if seed.strip() != seed or seed.splitlines() != [seed]:
        raise RecordError("", f"The seed {seed!r} cannot be written on one line")
    lines = [
        f"{FORMAT} {VERSION}",
        "# Big Two game record, one line per action: see docs/record-format.md",
        f"rules {rules_token(match.first_ruleset)}",
        f"deals {match.deals}",
        f"seed {seed}",
        f"autopass {_on(match.first_autopass)}",
        f"autopass-five {_on(match.first_autopass_five)}",
    ]
    lines += [f"seat {seat} {name}" for seat, name in enumerate(match.names)]
    lines += [f"player {seat} {kind}" for seat, kind in enumerate(match.kinds) if kind]
    return lines


def body_lines(match: Match, *, from_deal: int = 1, open_seconds: bool = True) -> list[str]:
    """The deals from ``from_deal`` on, one line per action.

    A deal's ``seconds`` line is written once the next deal has begun (or, with
    ``open_seconds``, at the end for the deal in play): until then its time may still grow.
    Every other line, once written, never changes, so the store appends these lines as the
    game goes and a saved prefix is always a valid record.
    """
    by_deal: dict[int, list[Change]] = {}
    for change in match.changes:
        by_deal.setdefault(change.deal, []).append(change)
    lines: list[str] = []
    totals = [0] * match.players
    for record in match.deal_records():
        if record.result is not None:
            totals = [t + p for t, p in zip(totals, record.result.points, strict=True)]
        if record.number < from_deal:
            continue
        lines.append(f"deal {record.number}")
        lines += [f"hand {seat} {card_text(hand)}" for seat, hand in enumerate(record.dealt)]
        changes = by_deal.get(record.number, [])
        position = 0
        for index, action in enumerate(record.actions):
            while position < len(changes) and changes[position].index <= index:
                lines.append(_change_line(changes[position]))
                position += 1
            lines.append(action_line(action))
        if record.result is not None:
            result = record.result
            lines.append(f"winner {result.winner}")
            lines.append("left " + " ".join(str(h.bit_count()) for h in result.cards_left))
            lines.append("points " + " ".join(str(p) for p in result.points))
            lines.append("totals " + " ".join(str(t) for t in totals))
        lines += [_change_line(c) for c in changes[position:]]
        frozen = record.number < match.deal_number
        if record.seconds and (frozen or open_seconds):
            lines.append(f"seconds {format_seconds(record.seconds)}")
    return lines


def action_line(action: Action) -> str:
    """One action: ``play 2 3d 4c 5h 6s 7d`` or ``pass 1``, then ``auto`` and the reason
    when it happened by itself."""
    if action.play is None:
        line = f"pass {action.seat}"
    else:
        line = f"play {action.seat} {card_text(action.play.mask)}"
    if action.auto:
        line += f" auto {action.reason}".rstrip()
    return line


def write_text(match: Match) -> str:
    """The whole match as a text record."""
    return "\n".join(header_lines(match) + [""] + body_lines(match)) + "\n"


def to_data(match: Match) -> dict[str, Any]:
    """The whole match as JSON-ready data (the JSON form of a record)."""
    deals: list[dict[str, Any]] = []
    totals = [0] * match.players
    by_deal: dict[int, list[Change]] = {}
    for change in match.changes:
        by_deal.setdefault(change.deal, []).append(change)
    for record in match.deal_records():
        deal: dict[str, Any] = {
            "number": record.number,
            "rules": record.rules.name,
            "leader": record.leader,
            "hands": [card_text(h) for h in record.dealt],
            "actions": [_action_data(a) for a in record.actions],
        }
        changes = by_deal.get(record.number, [])
        if changes:
            deal["changes"] = [
                {"after": c.index, "set": c.key, "value": _value_data(c.value)} for c in changes
            ]
        if record.result is not None:
            result = record.result
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            deal["winner"] = result.winner
            deal["cards_left"] = [h.bit_count() for h in result.cards_left]
            deal["left"] = [card_text(h) for h in result.cards_left]
            deal["points"] = list(result.points)
            deal["multipliers"] = list(result.score.multipliers)
            deal["totals"] = list(totals)
        if record.seconds:
            deal["seconds"] = round(record.seconds, 3)
        deals.append(deal)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_data(match.first_ruleset),
        "deals_per_game": match.deals,
        "seed": match.seed,
        "autopass": match.first_autopass,
        "autopass_five": match.first_autopass_five,
        "seats": list(match.names),
    }
    if any(match.kinds):
        data["players"] = list(match.kinds)
    data["deals"] = deals
    data["totals"] = list(match.totals)
    data["over"] = match.over
    return data


def write_json(match: Match, *, indent: int | None = 1) -> str:
    """The whole match as a JSON record."""
    return json.dumps(to_data(match), ensure_ascii=False, indent=indent) + "\n"


def write_file(match: Match, path: str | Path, *, format: str = "text") -> Path:
    """Write the record to ``path`` atomically (an old file there survives any failure)."""
    if format not in FORMATS:
        raise ExportError(f"Unknown record format '{format}' (formats: {', '.join(FORMATS)})")
    text = write_text(match) if format == "text" else write_json(match)
    return write_atomic(path, text, what="the record")


def write_atomic(path: str | Path, text: str, *, what: str = "the file") -> Path:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a reader never
    sees half a file and a failed write leaves any old file whole. Raises ExportError."""
    target = Path(path)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private; give it the old file's mode, else an ordinary one.
        mode = target.stat().st_mode & 0o777 if target.is_file() else 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ExportError(f"Cannot write {what} to {target}: {reason}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target


# -- reading ------------------------------------------------------------------------------------
class _Line(NamedTuple):
    where: str
    line: int | None
    text: str


def read_text(text: str | bytes) -> Match:
    """Replay a text record into a match (finished, or in play where the record stops)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError("", f"The record is not UTF-8 text (byte {exc.start})") from None
    text = text.removeprefix("\ufeff")
    lines = (_Line(f"line {n}", n, raw) for n, raw in enumerate(text.split("\n"), 1))
    return _replay(lines)


def read_json(text: str | bytes | Mapping[str, Any]) -> Match:
    """Replay a JSON record (text, or already-parsed data) into a match."""
    if isinstance(text, Mapping):
        data: Any = text
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"line {exc.lineno}", f"not valid JSON: {exc.msg}", exc.lineno
            ) from None
        except UnicodeDecodeError:
            raise RecordError("", "The record is not UTF-8 text") from None
    return _replay(_json_lines(data))


def from_data(data: Mapping[str, Any]) -> Match:
    """Replay JSON-ready data (as :func:`to_data` makes it) into a match."""
    return read_json(data)


def read_record(text: str | bytes) -> Match:
    """Replay a record in either form, telling them apart by the first character."""
    head = text.lstrip()[:1]
    if head in ("{", b"{"):
        return read_json(text)
    return read_text(text)


def read_file(path: str | Path) -> Match:
    """Replay the record in a file; errors name the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RecordError(str(p), f"cannot read the record: {exc.strerror or exc}") from None
    try:
        return read_record(raw)
    except RecordError as exc:
        where = f"{p}: {exc.where}" if exc.where else str(p)
        raise RecordError(where, exc.reason, exc.line) from None


def _replay(lines: Iterable[_Line]) -> Match:
    replay = _Replay()
    for entry in lines:
        text = entry.text.strip()
        if not text or text.startswith("#"):
            continue
        replay.feed(entry._replace(text=text))
    return replay.end()


class _Replay:
    """Reads record lines one by one and replays them into a :class:`Match`."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.header: dict[str, Any] = {}
        self.names: dict[int, str] = {}
        self.kinds: dict[int, str] = {}
        self.match: Match | None = None
        self.dealing: _Line | None = None  # a deal line whose cards are still being read
        self.hands: dict[int, Mask] = {}
        self.done = 0  # actions of the deal in play that the record has accounted for
        self.where = ""
        self.line: int | None = None

    def fail(self, reason: str) -> RecordError:
        return RecordError(self.where, reason, self.line)

    def feed(self, entry: _Line) -> None:
        self.where, self.line = entry.where, entry.line
        word, *tail = entry.text.split(None, 1)
        rest = tail[0].strip() if tail else ""
        if self.version is None:
            if word != FORMAT:
                raise self.fail(f"not a bigtwo record: it must begin with '{FORMAT} {VERSION}'")
            version = self.integer(rest, "the format version")
            if version > VERSION:
                raise self.fail(
                    f"record format version {version} is newer than this bigtwo reads ({VERSION})"
                )
            if version < 1:
                raise self.fail(f"there is no record format version {version}")
            self.version = version
            return
        if word in _HEADER_WORDS:
            self.header_line(word, rest)
            return
        handler = getattr(self, "on_" + word.replace("-", "_"), None)
        if word == FORMAT or handler is None:
            raise self.fail(f"'{word}' is not a line of a bigtwo record")
        handler(rest)

    # -- header ----------------------------------------------------------------------------------
    def header_line(self, word: str, rest: str) -> None:
        if self.match is not None or self.dealing is not None:
            raise self.fail(f"'{word}' belongs in the header, before the first deal")
        if word in ("seat", "player"):
            seat_text, _, value = rest.partition(" ")
            seat = self.integer(seat_text, "the seat number")
            by_seat = self.names if word == "seat" else self.kinds
            if not 0 <= seat < 4:
                raise self.fail(f"there is no seat {seat}: seats are 0 to 3")
            if seat in by_seat:
                raise self.fail(f"{word} {seat} is given twice")
            if not value.strip():
                raise self.fail(f"{word} {seat} needs a {'name' if word == 'seat' else 'kind'}")
            by_seat[seat] = value.strip()
            return
        if word in self.header:
            raise self.fail(f"'{word}' is given twice")
        if not rest:
            raise self.fail(f"'{word}' needs a value")
        if word == "rules":
            self.header[word] = self.rules(rest)
        elif word == "deals":
            self.header[word] = self.integer(rest, "the number of deals")
            if self.header[word] < 1:
                raise self.fail("a game needs at least one deal")
        elif word == "seed":
            self.header[word] = (
                int(rest) if _INT.fullmatch(rest) and str(int(rest)) == rest else rest
            )
        else:
            self.header[word] = self.switch(rest)

    def rules(self, text: str) -> RuleSet:
        try:
            if text.startswith("{"):
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise self.fail(f"the rules are not valid JSON: {exc.msg}") from None
                if not isinstance(data, dict):
                    raise self.fail("the rules must be a preset name or a JSON object")
                return RuleSet.from_mapping(data, origin="rules")
            return RuleSet.preset(text)
        except BigTwoError as exc:
            if isinstance(exc, RecordError):
                raise
            raise self.fail(str(exc)) from None

    def start_match(self) -> Match:
        """Build the match from the header, dealing the first deal."""
        if "rules" not in self.header:
            raise self.fail("the header does not say the rules")
        if not self.names:
            raise self.fail("the header names no seats")
        count = len(self.names)
        if sorted(self.names) != list(range(count)):
            raise self.fail(f"the seats must be numbered 0 to {count - 1}")
        if any(seat >= count for seat in self.kinds):
            raise self.fail(f"a player line names a seat beyond the {count} seats")
        hands = self.take_hands(count)
        seed = self.header.get("seed")
        if hands is None and seed is None:
            raise self.fail("deal 1 gives no hands and the record has no seed to deal from")
        try:
            return Match(
                self.header["rules"],
                [self.names[s] for s in range(count)],
                seed=seed,
                deals=self.header.get("deals"),
                autopass=self.header.get("autopass"),
                autopass_five=self.header.get("autopass-five"),
                hands=hands,
                kinds=[self.kinds.get(s, "") for s in range(count)],
            )
        except BigTwoError as exc:
            raise self.fail(str(exc)) from None

    # -- deals -----------------------------------------------------------------------------------
    def on_deal(self, rest: str) -> None:
        number = self.integer(rest, "the deal number")
        self.started()
        match = self.match
        expected = 1 if match is None else match.deal_number + 1
        if match is not None:
            self.all_done()
            if not match.deal.over:
                raise self.fail(f"deal {number} begins before deal {match.deal_number} is over")
            if match.over:
                raise self.fail(f"the game has only {match.deals} deals")
        if number != expected:
            raise self.fail(f"deal {expected} was expected here, not deal {number}")
        self.dealing = _Line(self.where, self.line, rest)
        self.hands = {}

    def on_hand(self, rest: str) -> None:
        if self.dealing is None:
            raise self.fail("a hand line must follow its deal line, before any action")
        seat_text, _, cards = rest.partition(" ")
        seat = self.integer(seat_text, "the seat number")
        if seat in self.hands:
            raise self.fail(f"seat {seat} is dealt twice")
        self.hands[seat] = self.cards(cards)

    def take_hands(self, count: int) -> list[Mask] | None:
        hands, self.hands = self.hands, {}
        if not hands:
            return None
        if sorted(hands) != list(range(count)):
            given = ", ".join(str(s) for s in sorted(hands))
            raise self.fail(f"the deal must give every seat's hand (0 to {count - 1}), not {given}")
        return [hands[s] for s in range(count)]

    def started(self) -> Match | None:
        """Deal the announced deal, if its cards were being read; the match so far."""
        if self.dealing is None:
            return self.match
        deal_line, self.dealing = self.dealing, None
        here = (self.where, self.line)
        self.where, self.line = deal_line.where, deal_line.line
        if self.match is None:
            self.match = self.start_match()
        else:
            hands = self.take_hands(self.match.players)
            try:
                self.match.next_deal(hands=hands)
            except BigTwoError as exc:
                raise self.fail(str(exc)) from None
        self.where, self.line = here
        self.done = 0
        return self.match

    def in_deal(self) -> Match:
        match = self.started()
        if match is None:
            raise self.fail("this line must come after a deal line")
        return match

    def all_done(self) -> None:
        """Refuse to go on while an automatic action of the replay is missing from the record."""
        assert self.match is not None
        actions = self.match.deal.actions
        if self.done < len(actions):
            missing = actions[self.done]
            raise self.fail(
                f"{self.describe(missing)} happened automatically before this, "
                "but the record leaves it out"
            )

    # -- actions ---------------------------------------------------------------------------------
    def on_play(self, rest: str) -> None:
        seat, tokens, auto = self.split_action(rest)
        self.action(seat, self.cards(" ".join(tokens)), auto)

    def on_pass(self, rest: str) -> None:
        seat, tokens, auto = self.split_action(rest)
        if tokens:
            raise self.fail(f"a pass takes no cards: '{' '.join(tokens)}'")
        self.action(seat, None, auto)

    def split_action(self, rest: str) -> tuple[int, list[str], bool]:
        """The seat, the card tokens, and whether the word ``auto`` follows them (whatever
        comes after ``auto`` is the reason, which the replay gives again)."""
        tokens = rest.split()
        if not tokens:
            raise self.fail("an action needs a seat number")
        seat = self.integer(tokens[0], "the seat number")
        cards = tokens[1:]
        if "auto" in cards:
            return seat, cards[: cards.index("auto")], True
        return seat, cards, False

    def action(self, seat: int, mask: Mask | None, auto: bool) -> None:
        match = self.in_deal()
        actions = match.deal.actions
        if mask is not None and not mask:
            raise self.fail("a play needs cards")
        if auto:
            if self.done < len(actions):
                happened = actions[self.done]
                made = None if happened.play is None else happened.play.mask
                if happened.auto and happened.seat == seat and made == mask:
                    self.done += 1
                    return
                raise self.fail(
                    f"the record has an automatic action here, but the replay has "
                    f"{self.describe(happened)}"
                )
            raise self.fail(
                f"the record says seat {seat} acted automatically, but the rules and the "
                "autopass switches give no automatic action here"
            )
        self.all_done()
        try:
            if mask is None:
                match.pass_(seat)
            else:
                match.play(seat, mask)
        except BigTwoError as exc:
            who = match.names[seat] if 0 <= seat < match.players else f"seat {seat}"
            raise self.fail(f"{who}: {exc}") from None
        self.done += 1

    def on_set(self, rest: str) -> None:
        match = self.in_deal()
        self.all_done()
        word, _, value = rest.partition(" ")
        key = _SETTING_KEYS.get(word)
        if key is None:
            raise self.fail(f"there is no setting '{word}' (settings: {', '.join(_SETTING_KEYS)})")
        value = value.strip()
        try:
            if key == "rules":
                match.set_rules(self.rules(value))
            elif key == "autopass":
                match.autopass = self.switch(value)
            else:
                match.autopass_five = self.switch(value)
        except BigTwoError as exc:
            if isinstance(exc, RecordError):
                raise
            raise self.fail(str(exc)) from None

    # -- results ---------------------------------------------------------------------------------
    def finished(self, what: str) -> Match:
        match = self.in_deal()
        self.all_done()
        if not match.results or match.results[-1].number != match.deal_number:
            raise self.fail(
                f"the record gives the {what}, but deal {match.deal_number} is not over"
            )
        return match

    def on_winner(self, rest: str) -> None:
        match = self.finished("winner")
        seat = self.integer(rest, "the winner's seat")
        won = match.results[-1].winner
        if seat != won:
            raise self.fail(
                f"the record says seat {seat} won, but the replay has seat {won} winning"
            )

    def on_left(self, rest: str) -> None:
        match = self.finished("cards left")
        left = [h.bit_count() for h in match.results[-1].cards_left]
        self.same("cards left", self.integers(rest, match.players), left)

    def on_points(self, rest: str) -> None:
        match = self.finished("points")
        self.same("points", self.integers(rest, match.players), list(match.results[-1].points))

    def on_totals(self, rest: str) -> None:
        match = self.finished("totals")
        self.same("totals", self.integers(rest, match.players), list(match.totals))

    def on_seconds(self, rest: str) -> None:
        match = self.in_deal()
        try:
            seconds = float(rest)
        except ValueError:
            raise self.fail(f"'{rest}' is not a number of seconds") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise self.fail(f"'{rest}' is not a number of seconds")
        match.deal_seconds[-1] = seconds

    def same(self, what: str, given: list[int], replayed: list[int]) -> None:
        if given != replayed:
            said = " ".join(str(v) for v in given)
            got = " ".join(str(v) for v in replayed)
            raise self.fail(f"the record says {what} {said}, but the replay gives {got}")

    def end(self) -> Match:
        self.where, self.line = "end of record", None
        if self.version is None:
            raise self.fail(f"the record is empty: it must begin with '{FORMAT} {VERSION}'")
        match = self.started()
        if match is None:
            self.match = match = self.start_match()  # a header alone: deal 1 from the seed
            self.done = len(match.deal.actions)
        self.all_done()
        return match

    # -- values ----------------------------------------------------------------------------------
    def integer(self, text: str, what: str) -> int:
        if not _INT.fullmatch(text.strip()):
            raise self.fail(f"'{text}' is not a whole number ({what})")
        return int(text)

    def integers(self, text: str, count: int) -> list[int]:
        values = [self.integer(t, "a score") for t in text.split()]
        if len(values) != count:
            raise self.fail(f"{count} numbers were expected, one per seat, not {len(values)}")
        return values

    def switch(self, text: str) -> bool:
        if text in ("on", "true"):
            return True
        if text in ("off", "false"):
            return False
        raise self.fail(f"'{text}' must be on or off")

    def cards(self, text: str) -> Mask:
        try:
            return parse_cards(text).mask
        except BigTwoError as exc:
            raise self.fail(str(exc)) from None

    def describe(self, action: Action) -> str:
        assert self.match is not None
        name = self.match.names[action.seat]
        if action.play is None:
            reason = f" ({action.reason})" if action.reason else ""
            return f"{name}'s pass{reason}"
        return f"{name}'s play {card_symbols(action.play.mask)}"


# -- the JSON form, read as record lines -------------------------------------------------------
def _json_lines(data: Any) -> Iterator[_Line]:
    """Turn JSON record data into the lines of the text form, each with its JSON path, so
    both forms are checked by the one reader."""

    def line(where: str, text: str) -> _Line:
        return _Line(where, None, text)

    def fail(where: str, reason: str) -> RecordError:
        return RecordError(where, reason)

    if not isinstance(data, dict):
        raise fail("", "a JSON record must be an object")
    if data.get("format", FORMAT) != FORMAT:
        raise fail("format", f"not a bigtwo record: format must be '{FORMAT}'")
    version = data.get("version", VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail("version", "the format version must be a whole number")
    yield line("version", f"{FORMAT} {version}")
    if "rules" not in data:
        raise fail("rules", "the record does not say the rules")
    rules = data["rules"]
    if isinstance(rules, dict):
        yield line("rules", "rules " + json.dumps(rules, separators=(",", ":")))
    elif isinstance(rules, str) and rules.strip() == rules and " " not in rules and rules:
        yield line("rules", f"rules {rules}")
    else:
        raise fail("rules", "the rules must be a preset name or an object of options")
    for key, word in (("deals_per_game", "deals"), ("seed", "seed")):
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | str) or "\n" in str(value):
            raise fail(key, f"{key} must be a whole number or one line of text")
        yield line(key, f"{word} {value}")
    for key, word in (("autopass", "autopass"), ("autopass_five", "autopass-five")):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, bool):
            raise fail(key, f"{key} must be true or false")
        yield line(key, f"{word} {_on(value)}")
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise fail("seats", "the record must list the seats' names")
    for i, name in enumerate(seats):
        if not isinstance(name, str) or name.splitlines() != [name]:
            raise fail(f"seats[{i}]", "a seat's name must be one line of text")
        yield line(f"seats[{i}]", f"seat {i} {name}")
    players = data.get("players", [])
    if not isinstance(players, list):
        raise fail("players", "players must be a list of kinds")
    for i, kind in enumerate(players):
        if kind == "":
            continue
        if not isinstance(kind, str) or kind.split() != [kind]:
            raise fail(f"players[{i}]", "a seat's kind must be one word")
        yield line(f"players[{i}]", f"player {i} {kind}")
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise fail("deals", "deals must be a list")
    for d, deal in enumerate(deals):
        yield from _json_deal(f"deals[{d}]", deal, d + 1)


def _json_deal(at: str, deal: Any, number: int) -> Iterator[_Line]:
    def line(where: str, text: str) -> _Line:
        return _Line(where, None, text)

    if not isinstance(deal, dict):
        raise RecordError(at, "a deal must be an object")
    yield line(at, f"deal {deal.get('number', number)}")
    hands = deal.get("hands")
    if hands is not None:
        if not isinstance(hands, list):
            raise RecordError(f"{at}.hands", "hands must be a list of cards, one per seat")
        for seat, cards in enumerate(hands):
            yield line(
                f"{at}.hands[{seat}]", f"hand {seat} {_json_cards(f'{at}.hands[{seat}]', cards)}"
            )
    actions = deal.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{at}.actions", "actions must be a list")
    changes = deal.get("changes", [])
    if not isinstance(changes, list):
        raise RecordError(f"{at}.changes", "changes must be a list")
    pending: list[tuple[int, _Line]] = []
    for c, change in enumerate(changes):
        where = f"{at}.changes[{c}]"
        if not isinstance(change, dict):
            raise RecordError(where, "a change must be an object")
        after, key, value = change.get("after"), change.get("set"), change.get("value")
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise RecordError(where, "'after' must count the actions before the change")
        if key not in _SETTING_WORDS:
            raise RecordError(where, f"there is no setting '{key}'")
        if key == "rules":
            text = (
                json.dumps(value, separators=(",", ":")) if isinstance(value, dict) else str(value)
            )
        elif isinstance(value, bool):
            text = _on(value)
        else:
            raise RecordError(where, f"{key} must be true or false")
        pending.append((after, line(where, f"set {_SETTING_WORDS[key]} {text}")))
    pending.sort(key=lambda p: p[0])
    position = 0
    for a, action in enumerate(actions):
        while position < len(pending) and pending[position][0] <= a:
            yield pending[position][1]
            position += 1
        yield line(f"{at}.actions[{a}]", _json_action(f"{at}.actions[{a}]", action))
    for key, word in (
        ("winner", "winner"),
        ("cards_left", "left"),
        ("points", "points"),
        ("totals", "totals"),
    ):
        value = deal.get(key)
        if value is None:
            continue
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise RecordError(f"{at}.{key}", f"{key} must be whole numbers")
        yield line(f"{at}.{key}", f"{word} " + " ".join(str(v) for v in values))
    for _, change_line in pending[position:]:
        yield change_line
    seconds = deal.get("seconds")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise RecordError(f"{at}.seconds", "seconds must be a number")
        yield line(f"{at}.seconds", f"seconds {seconds}")


def _json_action(where: str, action: Any) -> str:
    if not isinstance(action, dict):
        raise RecordError(where, "an action must be an object with 'seat' and 'play'")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(where, "'seat' must be a seat number")
    play = action.get("play")
    auto = action.get("auto", False)
    if not isinstance(auto, bool):
        raise RecordError(where, "'auto' must be true or false")
    text = f"pass {seat}" if play is None else f"play {seat} {_json_cards(where, play)}"
    if auto:
        reason = action.get("reason", "")
        text += " auto " + (" ".join(str(reason).split()) if isinstance(reason, str) else "")
    return text


def _json_cards(where: str, cards: Any) -> str:
    # Cards are parsed here and written back in plain notation, so nothing else (such as
    # the word "auto") can slip into the line the reader sees.
    if not isinstance(cards, str):
        raise RecordError(where, "cards must be written as text, like '3d 4c'")
    try:
        return card_text(parse_cards(cards).mask)
    except BigTwoError as exc:
        raise RecordError(where, str(exc)) from None


# -- small helpers -------------------------------------------------------------------------------
def _on(flag: bool) -> str:
    return "on" if flag else "off"


def format_seconds(seconds: float) -> str:
    """Seconds as a record writes them: at most three decimals, no trailing zeros."""
    return f"{seconds:.3f}".rstrip("0").rstrip(".")


def _change_line(change: Change) -> str:
    value = change.value
    text = rules_token(value) if isinstance(value, RuleSet) else _on(value)
    return f"set {_SETTING_WORDS[change.key]} {text}"


def _action_data(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {
        "seat": action.seat,
        "play": None if action.play is None else card_text(action.play.mask),
    }
    if action.auto:
        data["auto"] = True
        data["reason"] = action.reason
    return data


def _value_data(value: RuleSet | bool) -> Any:
    return rules_data(value) if isinstance(value, RuleSet) else value
