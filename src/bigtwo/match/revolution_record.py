"""Records of Big 2 RevolutioN matches: plain text that replays a match exactly.

The format follows the 52-card record (``docs/record-format.md``, section "Big 2
RevolutioN"): a header (rules, deals, seed, seats), then per hand every seat's dealt cards,
the Revolution deck's order, one line per action (plays, passes, activations with their
function and target, counters, declines, draws with their source and card, stops) and the
lines the deal makes by itself (a function taking effect, a lost turn, cards revealed to the
Gathering), then how the hand ended and its score. Reading replays every line through
:class:`~bigtwo.match.revolution.RevolutionMatch`: the engine checks each action again, and
the lines the deal makes by itself, a deck draw's card and the result must be exactly what
the replay makes, or a :class:`~bigtwo.match.errors.RecordError` names the line and the
reason. The header, the seats, the hand lines and the scores are written and read as the
52-card record has them (:mod:`.record_common`); a hand told in words is
:mod:`.revolution_history`. A record of either game, told
apart by its header, is read and written through :mod:`.record_formats`; this module must
not read 52-card records or touch files.

>>> from .settings import RuleSet
>>> match = RevolutionMatch(RuleSet.preset("revolution"), seed=3, deals=1)
>>> text = write_revolution_text(match)
>>> text.splitlines()[0], read_revolution_text(text).deal.deck == match.deal.deck
('bigtwo-revolution-record 1', True)
"""

from __future__ import annotations

from ..engine.errors import BigTwoError
from ..engine.revolution_cards import card_symbol, parse, parse_card, starred_text
from ..engine.views import Action
from .errors import RecordError
from .record_common import (
    Header,
    action_line,
    deal_lines,
    decode,
    read_integer,
    record_header,
    score_lines,
    starred_cards,
    text_lines,
)
from .revolution import RevolutionMatch, RevolutionResult

REVOLUTION_FORMAT = "bigtwo-revolution-record"
_MADE_BY_THE_DEAL = ("effect", "skip", "reveal")  # lines a record may never lead with
REVOLUTION_VERSION = 1
_HEADER_WORDS = ("rules", "deals", "seed", "seat")


def write_revolution_text(match: RevolutionMatch) -> str:
    """The match so far as a record: every hand, the one in play last, each after a blank
    line."""
    lines = revolution_header_lines(match)
    for hand in _hand_lines(match):
        lines += ["", *hand]
    return "\n".join(lines) + "\n"


def revolution_header_lines(match: RevolutionMatch) -> list[str]:
    """The record's header: format, rules, deals, seed and seats."""
    return record_header(REVOLUTION_FORMAT, REVOLUTION_VERSION, "Big 2 RevolutioN", match)


def revolution_body_lines(match: RevolutionMatch, from_deal: int = 1) -> list[str]:
    """The record's lines of the hands from ``from_deal`` on, without blank lines (a hand's
    lines, once written, never change: the hand in play only gains lines)."""
    return [line for hand in _hand_lines(match)[from_deal - 1 :] for line in hand]


def _hand_lines(match: RevolutionMatch) -> list[list[str]]:
    """Each hand's lines: its cards and deck, its actions and, once over, its result."""
    out: list[list[str]] = []
    for number, dealt, deck, actions in match.played_hands():
        lines = deal_lines(number, dealt, starred_cards)
        lines.append("deck " + " ".join(starred_text(c) for c in deck))
        lines += [action_line(a) for a in actions]
        if number <= len(match.results):
            result = match.results[number - 1]
            lines += [f"end {result.end.value}", f"winner {result.winner}"]
            lines += score_lines(match, number)
        out.append(lines)
    return out


def read_revolution_text(text: str | bytes) -> RevolutionMatch:
    """Replay a record; every action is checked by the engine again."""
    return _Reader().read(decode(text))


class _Reader:
    def __init__(self) -> None:
        self.header = Header()
        self.match: RevolutionMatch | None = None
        self.hands: dict[int, int] = {}
        self.deck: list[int] | None = None
        self.number = 0
        self.expected: list[Action] = []  # made by the deal, not yet read

    def read(self, text: str) -> RevolutionMatch:
        started = False
        for where, number, line in text_lines(text):
            try:
                if not started:
                    if line != f"{REVOLUTION_FORMAT} {REVOLUTION_VERSION}":
                        raise RecordError(
                            where,
                            f"a revolution record starts with '{REVOLUTION_FORMAT} {REVOLUTION_VERSION}'",
                        )
                    started = True
                    continue
                self._line(line)
            except RecordError as exc:
                raise RecordError(where, exc.reason, number) from None
            except BigTwoError as exc:
                raise RecordError(where, str(exc), number) from None
            except (ValueError, IndexError):
                raise RecordError(where, f"cannot read '{line}'", number) from None
        if not started:
            raise RecordError("", "the record is empty")
        if self.expected:
            raise RecordError("end", f"the record leaves out '{action_line(self.expected[0])}'")
        self._begin_pending()
        if self.match is None:
            raise RecordError("end", "the record has no deal")
        return self.match

    def _line(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if self.number == 0 and word in _HEADER_WORDS:
            self.header.read(word, rest)
            return
        if word == "deal":
            if self.expected:
                raise RecordError("", f"the record leaves out '{action_line(self.expected[0])}'")
            if read_integer(rest, "the deal number") != self.number + 1:
                raise RecordError("", f"deal {self.number + 1} comes next, not deal {rest}")
            if self.match is not None and not self.match.deal.over:
                raise RecordError("", "a deal begins before the one before it is over")
            self.number += 1
            self.hands, self.deck = {}, None
            return
        if word == "hand":
            seat, _, cards = rest.partition(" ")
            self.hands[read_integer(seat, "the seat number")] = parse(cards)
            return
        if word == "deck":
            self.deck = [parse_card(t) for t in rest.split()]
            return
        self._begin_pending()
        match = self._current()
        tokens = rest.split()
        if word in ("end", "winner", "points", "totals"):
            self._check_result(match, word, tokens)
            return
        if self.expected:
            self._check_automatic(word, tokens)
            return
        if word in _MADE_BY_THE_DEAL:
            raise RecordError("", f"the replay makes no '{line}' here")
        self._apply(match, word, tokens)

    def _current(self) -> RevolutionMatch:
        if self.match is None:
            raise RecordError("", "an action comes before the first deal")
        return self.match

    def _begin_pending(self) -> None:
        """Start the deal whose hand and deck lines have been read, once an action comes."""
        if self.number == 0 or (self.match is not None and self.match.deal_number == self.number):
            return
        hands = [self.hands[s] for s in sorted(self.hands)] if self.hands else None
        if hands is not None and sorted(self.hands) != list(range(len(hands))):
            raise RecordError("", "hand lines must give seats 0 to n-1")
        if self.match is None:
            self.match = self._new_match(hands)
        else:
            self.match.next_deal(hands, self.deck if hands is not None else None)
        if self.deck is not None and list(self.match.deal.deck) != self.deck:
            raise RecordError("", "the deck line is not the order the seed shuffles")

    def _new_match(self, hands: list[int] | None) -> RevolutionMatch:
        rules, names = self.header.rules(), self.header.seat_names()
        seed: int | str | None = self.header.fields.get("seed")
        if hands is None and seed is None:
            raise RecordError("", "a deal without hand lines needs the header's seed")
        deals: int | None = self.header.fields.get("deals")
        return RevolutionMatch(
            rules,
            names,
            seed=seed if seed is not None else 0,
            deals=deals,
            hands=hands,
            deck=self.deck if hands is not None else None,
        )

    def _apply(self, match: RevolutionMatch, word: str, tokens: list[str]) -> None:
        seat = int(tokens[0])
        auto = tokens[-1] == "auto"
        before = len(match.deal.actions)
        if word == "play":
            match.play(seat, " ".join(tokens[1:]))
        elif word == "pass":
            match.pass_(seat, auto=auto)
        elif word == "activate":
            if len(tokens) >= 5:
                match.activate(seat, tokens[1], int(tokens[3]), tokens[4])
            else:
                match.activate(seat, tokens[1])
            function = match.deal.actions[-1].function
            if tokens[2] != function:
                raise RecordError("", f"{tokens[1]} activates {function}, not {tokens[2]}")
        elif word == "counter":
            match.counter(seat, tokens[1])
        elif word == "decline":
            match.decline(seat)
        elif word == "draw":
            if auto:
                raise RecordError("", "an automatic draw follows an automatic pass only")
            source = tokens[1]
            if source == "deck":
                card = parse_card(tokens[2])
                deal = match.deal
                if deal.top < len(deal.deck) and deal.deck[deal.top] != card:
                    top = card_symbol(deal.deck[deal.top])
                    raise RecordError("", f"the deck's top card is {top}, not {card_symbol(card)}")
                match.draw(seat, "deck")
            elif source == "gathering":
                match.draw(seat, tokens[2])
            else:
                raise RecordError("", f"a draw is from the deck or the gathering, not {source}")
        elif word == "stop":
            match.stop(seat)
        else:
            raise RecordError("", f"'{word}' is not a line of a revolution record")
        self.expected = list(match.deal.actions[before + 1 :])

    def _check_automatic(self, word: str, tokens: list[str]) -> None:
        made = self.expected.pop(0)
        line = " ".join([word, *tokens])
        wanted = action_line(made)
        if _normal(line) != _normal(wanted):
            raise RecordError("", f"the replay makes '{wanted}' here, not '{line}'")

    def _check_result(self, match: RevolutionMatch, word: str, tokens: list[str]) -> None:
        if self.expected:
            raise RecordError("", f"the record leaves out '{action_line(self.expected[0])}'")
        if len(match.results) < match.deal_number:
            raise RecordError("", f"'{word}' comes before the deal is over")
        result: RevolutionResult = match.results[match.deal_number - 1]
        if word == "end":
            ok, made = tokens == [result.end.value], result.end.value
        elif word == "winner":
            ok, made = tokens == [str(result.winner)], str(result.winner)
        elif word == "points":
            ok, made = [int(t) for t in tokens] == list(result.points), str(result.points)
        else:
            ok, made = [int(t) for t in tokens] == match.totals, str(tuple(match.totals))
        if not ok:
            raise RecordError("", f"the replay gives {word} {made}, not {' '.join(tokens)}")


def _normal(line: str) -> list[str]:
    """A line's words with its cards in the writer's notation, so ``Q♠*`` reads as ``Qs*``."""
    out = []
    for token in line.split():
        try:
            out.append(starred_text(parse_card(token)))
        except BigTwoError:
            out.append(token)
    return out
