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
reason. The header, the seats, the hand lines and the scores are written as the 52-card
record has them (:mod:`.record_common`) and read by the one reader of both games
(:class:`~bigtwo.match.record_replay.Replay`), which this module gives the expansion's
actions; a hand told in words is
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

from ..engine.cards import Mask
from ..engine.errors import BigTwoError
from ..engine.revolution_cards import card_symbol, parse, parse_card, starred_text
from ..engine.views import Action
from .errors import RecordError
from .record_common import (
    RecordLine,
    action_line,
    deal_lines,
    decode,
    record_header,
    score_lines,
    starred_cards,
    text_lines,
)
from .record_replay import Replay
from .revolution import RevolutionMatch

REVOLUTION_FORMAT = "bigtwo-revolution-record"
_MADE_BY_THE_DEAL = ("effect", "skip", "reveal")  # lines a record may never lead with
_ACTION_WORDS = (
    "play",
    "pass",
    "activate",
    "counter",
    "decline",
    "draw",
    "stop",
    *_MADE_BY_THE_DEAL,
)
REVOLUTION_VERSION = 1


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
    return _Replay().replay(text_lines(decode(text)))


class _Replay(Replay[RevolutionMatch]):
    """The expansion's reader: each hand's deck line, then its actions, every line the deal
    makes by itself (a function taking effect, a lost turn, cards revealed, an automatic
    draw) checked against the replay's, and how the hand ended."""

    format = REVOLUTION_FORMAT
    version_read = REVOLUTION_VERSION
    what = "revolution record"
    header_words = ("rules", "deals", "seed", "seat")

    def __init__(self) -> None:
        super().__init__()
        self.deck: list[int] | None = None

    def read(self, entry: RecordLine) -> None:
        word, _, rest = entry.text.partition(" ")
        if self.version is not None and word in _ACTION_WORDS:
            self.act(word, rest.split())
        else:
            super().read(entry)

    def start_match(self) -> RevolutionMatch:
        rules, names = self.header.rules(), self.header.seat_names()
        hands = self.take_hands(len(names))
        seed: int | str | None = self.header.fields.get("seed")
        if hands is None and seed is None:
            raise self.fail("a deal without hand lines needs the header's seed")
        match = RevolutionMatch(
            rules,
            names,
            seed=seed if seed is not None else 0,
            deals=self.header.fields.get("deals"),
            hands=hands,
            deck=self.deck if hands is not None else None,
        )
        self._check_deck(match)
        return match

    def next_deal(self, match: RevolutionMatch, hands: list[Mask] | None) -> None:
        match.next_deal(hands, self.deck if hands is not None else None)
        self._check_deck(match)

    def _check_deck(self, match: RevolutionMatch) -> None:
        if self.deck is not None and list(match.deal.deck) != self.deck:
            raise self.fail("the deck line is not the order the seed shuffles")

    def on_deal(self, rest: str) -> None:
        super().on_deal(rest)
        self.deck = None

    def on_deck(self, rest: str) -> None:
        if self.dealing is None:
            raise self.fail("a deck line must follow its deal line, before any action")
        self.deck = [parse_card(t) for t in rest.split()]

    def act(self, word: str, tokens: list[str]) -> None:
        """A line of an action: the next one the deal made by itself, which it must be, or
        one a player chose, applied (what the deal makes after it must follow)."""
        match = self.in_deal()
        made = match.deal.actions
        line = " ".join([word, *tokens])
        if self.done < len(made):
            wanted = action_line(made[self.done])
            if _normal(line) != _normal(wanted):
                raise self.fail(f"the replay makes '{wanted}' here, not '{line}'")
        elif word in _MADE_BY_THE_DEAL:
            raise self.fail(f"the replay makes no '{line}' here")
        else:
            self._apply(match, word, tokens)
        self.done += 1

    def _apply(self, match: RevolutionMatch, word: str, tokens: list[str]) -> None:
        seat = int(tokens[0])
        auto = tokens[-1] == "auto"
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
        else:
            match.stop(seat)

    def on_end(self, rest: str) -> None:
        made = self.finished("end").results[-1].end.value
        if rest != made:
            raise self.fail(f"the replay gives end {made}, not {rest}")

    def same(self, what: str, given: list[int], replayed: list[int]) -> None:
        if given != replayed:
            got = " ".join(str(v) for v in replayed)
            raise self.fail(f"the replay gives {what} {got}, not {' '.join(map(str, given))}")

    def cards(self, text: str) -> Mask:
        return Mask(parse(text))

    def describe(self, action: Action) -> str:
        return f"'{action_line(action)}'"


def _normal(line: str) -> list[str]:
    """A line's words with its cards in the writer's notation, so ``Q♠*`` reads as ``Qs*``."""
    out = []
    for token in line.split():
        try:
            out.append(starred_text(parse_card(token)))
        except BigTwoError:
            out.append(token)
    return out
