"""The reader of records: record lines replayed into a match (:mod:`.revolution_record`'s
reader is this one, with the expansion's actions).

Lines come from the text form (:func:`bigtwo.match.record.read_text`) or are made from the
JSON form (:mod:`.record_json`), each with where it stands, and are replayed one by one
through the match, so every action is checked by the engine again and every line the replay
makes by itself (an automatic pass, a result) must be what the record says. Anything corrupt
or illegal raises a :class:`~bigtwo.match.errors.RecordError` with the line (or JSON path)
and the reason. This module must not write records, parse JSON or touch files; the header
lines both games share are read by :mod:`.record_common`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from ..engine.cards import Mask, card_symbols, parse_cards
from ..engine.errors import BigTwoError
from ..engine.views import Action
from .errors import RecordError
from .match import BaseMatch, Match
from .record_common import Header, RecordLine, read_integer, read_rules, read_switch

FORMAT = "bigtwo-record"
VERSION = 1

# Setting names as a record writes them after "set" (and in the header).
SETTING_WORDS = {"rules": "rules", "autopass": "autopass", "autopass_five": "autopass-five"}
SETTING_KEYS = {word: key for key, word in SETTING_WORDS.items()}
HEADER_WORDS = ("rules", "deals", "seed", "autopass", "autopass-five", "seat", "player")
_MatchT = TypeVar("_MatchT", bound=BaseMatch[Any, Any])


def replay(lines: Iterable[RecordLine]) -> Match:
    """Replay a 52-card record's lines (blank and comment lines are passed over)."""
    return _Replay().replay(lines)


class Replay(ABC, Generic[_MatchT]):
    """Reads record lines one by one and replays them into a match, each line by the ``on_``
    method of its word: the lines both games' records share here, each game's own (and how
    its match begins and deals again) in its subclass."""

    format = FORMAT
    version_read = VERSION
    what = "bigtwo record"
    header_words: tuple[str, ...] = HEADER_WORDS

    def __init__(self) -> None:
        self.version: int | None = None
        self.header = Header()
        self.match: _MatchT | None = None
        self.dealing: RecordLine | None = None  # a deal line whose cards are still being read
        self.hands: dict[int, Mask] = {}
        self.done = 0  # actions of the deal in play that the record has accounted for
        self.where = ""
        self.line: int | None = None

    def replay(self, lines: Iterable[RecordLine]) -> _MatchT:
        """Replay a record's lines (blank and comment lines are passed over)."""
        for entry in lines:
            text = entry.text.strip()
            if not text or text.startswith("#"):
                continue
            self.feed(entry._replace(text=text))
        return self.end()

    def fail(self, reason: str) -> RecordError:
        return RecordError(self.where, reason, self.line)

    def feed(self, entry: RecordLine) -> None:
        self.where, self.line = entry.where, entry.line
        with self.placed():
            try:
                self.read(entry)
            except (ValueError, IndexError) as exc:
                if isinstance(exc, BigTwoError):
                    raise
                raise self.fail(f"cannot read '{entry.text}'") from None

    @contextmanager
    def placed(self) -> Iterator[None]:
        """Give the errors of the shared readers and of the engine (which know no line) the
        line in hand."""
        try:
            yield
        except RecordError as exc:
            if exc.where:
                raise
            raise self.fail(exc.reason) from None
        except BigTwoError as exc:
            raise self.fail(str(exc)) from None

    def read(self, entry: RecordLine) -> None:
        word, *tail = entry.text.split(None, 1)
        rest = tail[0].strip() if tail else ""
        if self.version is None:
            if word != self.format:
                first = f"{self.format} {self.version_read}"
                raise self.fail(f"not a {self.what}: it must begin with '{first}'")
            version = read_integer(rest, "the format version")
            if version > self.version_read:
                raise self.fail(
                    f"record format version {version} is newer than this bigtwo reads"
                    f" ({self.version_read})"
                )
            if version < 1:
                raise self.fail(f"there is no record format version {version}")
            self.version = version
            return
        if word in self.header_words:
            self.header_line(word, rest)
            return
        handler = getattr(self, "on_" + word.replace("-", "_"), None)
        if word == self.format or handler is None:
            raise self.fail(f"'{word}' is not a line of a {self.what}")
        handler(rest)

    # -- header ----------------------------------------------------------------------------------
    def header_line(self, word: str, rest: str) -> None:
        if self.match is not None or self.dealing is not None:
            raise self.fail(f"'{word}' belongs in the header, before the first deal")
        self.header.read(word, rest)

    # -- deals -----------------------------------------------------------------------------------
    def on_deal(self, rest: str) -> None:
        number = read_integer(rest, "the deal number")
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
        self.dealing = RecordLine(self.where, self.line, rest)
        self.hands = {}

    def on_hand(self, rest: str) -> None:
        if self.dealing is None:
            raise self.fail("a hand line must follow its deal line, before any action")
        seat_text, _, cards = rest.partition(" ")
        seat = read_integer(seat_text, "the seat number")
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

    def started(self) -> _MatchT | None:
        """Deal the announced deal, if its cards were being read; the match so far."""
        if self.dealing is None:
            return self.match
        deal_line, self.dealing = self.dealing, None
        here = (self.where, self.line)
        self.where, self.line = deal_line.where, deal_line.line
        if self.match is None:
            self.match = self.start_match()
        else:
            self.next_deal(self.match, self.take_hands(self.match.players))
        self.where, self.line = here
        self.done = 0
        return self.match

    def in_deal(self) -> _MatchT:
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

    # -- results ---------------------------------------------------------------------------------
    def finished(self, what: str) -> _MatchT:
        match = self.in_deal()
        self.all_done()
        if not match.results or match.results[-1].number != match.deal_number:
            raise self.fail(
                f"the record gives the {what}, but deal {match.deal_number} is not over"
            )
        return match

    def on_winner(self, rest: str) -> None:
        match = self.finished("winner")
        seat = read_integer(rest, "the winner's seat")
        won = match.results[-1].winner
        if seat != won:
            raise self.fail(
                f"the record says seat {seat} won, but the replay has seat {won} winning"
            )

    def on_points(self, rest: str) -> None:
        match = self.finished("points")
        self.same("points", self.integers(rest, match.players), list(match.results[-1].points))

    def on_totals(self, rest: str) -> None:
        match = self.finished("totals")
        self.same("totals", self.integers(rest, match.players), list(match.totals))

    def same(self, what: str, given: list[int], replayed: list[int]) -> None:
        if given != replayed:
            said = " ".join(str(v) for v in given)
            got = " ".join(str(v) for v in replayed)
            raise self.fail(f"the record says {what} {said}, but the replay gives {got}")

    def end(self) -> _MatchT:
        self.where, self.line = "end of record", None
        if self.version is None:
            first = f"{self.format} {self.version_read}"
            raise self.fail(f"the record is empty: it must begin with '{first}'")
        with self.placed():
            match = self.started()
            if match is None:
                self.match = match = self.start_match()  # a header alone: deal 1 from the seed
                self.done = len(match.deal.actions)
        self.all_done()
        return match

    # -- values ----------------------------------------------------------------------------------
    def integers(self, text: str, count: int) -> list[int]:
        values = [read_integer(t, "a score") for t in text.split()]
        if len(values) != count:
            raise self.fail(f"{count} numbers were expected, one per seat, not {len(values)}")
        return values

    @abstractmethod
    def start_match(self) -> _MatchT:
        """Build the match from the header, dealing the first deal."""

    @abstractmethod
    def next_deal(self, match: _MatchT, hands: list[Mask] | None) -> None:
        """Deal ``match``'s next deal (``hands``: the record's cards, when it gives them)."""

    @abstractmethod
    def cards(self, text: str) -> Mask:
        """The cards of a line, as a mask."""

    @abstractmethod
    def describe(self, action: Action) -> str:
        """An action in the words of an error."""


class _Replay(Replay[Match]):
    """The 52-card game's reader: plays and passes (an automatic one must be the replay's),
    settings changed at their place, the cards left and the seconds played."""

    def start_match(self) -> Match:
        header = self.header
        rules, names = header.rules(), header.seat_names()
        count = len(names)
        if any(seat >= count for seat in header.kinds):
            raise self.fail(f"a player line names a seat beyond the {count} seats")
        hands = self.take_hands(count)
        seed = header.fields.get("seed")
        if hands is None and seed is None:
            raise self.fail("deal 1 gives no hands and the record has no seed to deal from")
        return Match(
            rules,
            names,
            seed=seed,
            deals=header.fields.get("deals"),
            autopass=header.fields.get("autopass"),
            autopass_five=header.fields.get("autopass-five"),
            hands=hands,
            kinds=[header.kinds.get(s, "") for s in range(count)],
        )

    def next_deal(self, match: Match, hands: list[Mask] | None) -> None:
        match.next_deal(hands=hands)

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
        seat = read_integer(tokens[0], "the seat number")
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
        key = SETTING_KEYS.get(word)
        if key is None:
            raise self.fail(f"there is no setting '{word}' (settings: {', '.join(SETTING_KEYS)})")
        value = value.strip()
        if key == "rules":
            match.set_rules(read_rules(value))
        elif key == "autopass":
            match.autopass = read_switch(value)
        else:
            match.autopass_five = read_switch(value)

    def on_left(self, rest: str) -> None:
        match = self.finished("cards left")
        left = [h.bit_count() for h in match.results[-1].cards_left]
        self.same("cards left", self.integers(rest, match.players), left)

    def on_seconds(self, rest: str) -> None:
        match = self.in_deal()
        try:
            seconds = float(rest)
        except ValueError:
            raise self.fail(f"'{rest}' is not a number of seconds") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise self.fail(f"'{rest}' is not a number of seconds")
        match.deal_seconds[-1] = seconds

    def cards(self, text: str) -> Mask:
        return parse_cards(text).mask

    def describe(self, action: Action) -> str:
        assert self.match is not None
        name = self.match.names[action.seat]
        if action.play is None:
            reason = f" ({action.reason})" if action.reason else ""
            return f"{name}'s pass{reason}"
        return f"{name}'s play {card_symbols(action.play.mask)}"
