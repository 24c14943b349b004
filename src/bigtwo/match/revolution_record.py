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
reason. :func:`history_lines` tells a hand in words, Palm-style. No I/O here but
:func:`read_revolution_file`.

>>> match = RevolutionMatch(RuleSet.preset("revolution"), seed=3, deals=1)
>>> text = write_revolution_text(match)
>>> text.splitlines()[0], read_revolution_text(text).deal.deck == match.deal.deck
('bigtwo-revolution-record 1', True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from ..engine.errors import BigTwoError
from ..engine.revolution import End, Move, RevolutionAction, RevolutionDeal
from ..engine.revolution_cards import card_symbol, ids, parse, parse_card, starred_text, symbols
from ..engine.rules import expansion_preset_names
from .errors import RecordError
from .revolution import RevolutionMatch, RevolutionResult
from .settings import RuleSet

REVOLUTION_FORMAT = "bigtwo-revolution-record"
_MADE_BY_THE_DEAL = ("effect", "skip", "reveal")  # lines a record may never lead with
REVOLUTION_VERSION = 1


def _cards(mask: int) -> str:
    return " ".join(starred_text(c) for c in ids(mask))


def record_line(action: RevolutionAction) -> str:
    """One action as a record line (the full record: every card shown)."""
    a, move = action, action.move
    auto = " auto" if a.auto or (a.follows and move in (Move.DRAW, Move.STOP)) else ""
    if move is Move.PLAY:
        return f"play {a.seat} {_cards(a.cards)}"
    if move is Move.ACTIVATE:
        extra = f" {a.target} {_cards(a.given)}" if a.target >= 0 else ""
        return f"activate {a.seat} {_cards(a.cards)} {a.function}{extra}"
    if move is Move.COUNTER:
        return f"counter {a.seat} {_cards(a.cards)}"
    if move is Move.DRAW:
        return f"draw {a.seat} {a.source} {_cards(a.cards)}{auto}"
    if move is Move.EFFECT:
        extra = f" {a.target} {_cards(a.cards)}" if a.target >= 0 else ""
        return f"effect {a.seat} {a.function}{extra}"
    if move is Move.REVEAL:
        return f"reveal {_cards(a.cards)}"
    return f"{move.value} {a.seat}{auto}"


def revolution_rules_token(rules: RuleSet) -> str:
    if rules.name in expansion_preset_names() and RuleSet.preset(rules.name) == rules:
        return rules.name
    return json.dumps(rules.to_mapping(), ensure_ascii=False, separators=(",", ":"))


def write_revolution_text(match: RevolutionMatch) -> str:
    """The match so far as a record: every hand, the one in play last."""
    lines = [
        f"{REVOLUTION_FORMAT} {REVOLUTION_VERSION}",
        "# Big 2 RevolutioN game record, one line per action: see docs/record-format.md",
        f"rules {revolution_rules_token(match.ruleset)}",
        f"deals {match.deals}",
        f"seed {match.seed}",
    ]
    lines += [f"seat {i} {name}" for i, name in enumerate(match.names)]
    hands: list[tuple[int, Sequence[int], Sequence[int], Sequence[RevolutionAction]]] = [
        (r.number, r.dealt, r.deck, r.actions) for r in match.results
    ]
    if len(match.results) < match.deal_number:
        d = match.deal
        hands.append((match.deal_number, d.dealt, d.deck, d.actions))
    totals = [0] * match.players
    for number, dealt, deck, actions in hands:
        lines += ["", f"deal {number}"]
        lines += [f"hand {seat} {_cards(mask)}" for seat, mask in enumerate(dealt)]
        lines.append("deck " + " ".join(starred_text(c) for c in deck))
        lines += [record_line(a) for a in actions]
        if number <= len(match.results):
            result = match.results[number - 1]
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            lines += [
                f"end {result.end.value}",
                f"winner {result.winner}",
                "points " + " ".join(str(p) for p in result.points),
                "totals " + " ".join(str(t) for t in totals),
            ]
    return "\n".join(lines) + "\n"


def read_revolution_file(path: str | Path) -> RevolutionMatch:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(str(p), f"cannot read the record: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(str(p), "the record is not UTF-8 text") from None
    try:
        return read_revolution_text(text)
    except RecordError as exc:
        raise RecordError(
            f"{p}: {exc.where}" if exc.where else str(p), exc.reason, exc.line
        ) from None


def is_revolution_record(text: str) -> bool:
    """Whether ``text`` starts (after blank and comment lines) as a record of this format."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return stripped.split()[0] == REVOLUTION_FORMAT
    return False


def read_revolution_text(text: str) -> RevolutionMatch:
    """Replay a record; every action is checked by the engine again."""
    return _Reader().read(text)


class _Reader:
    def __init__(self) -> None:
        self.header: dict[str, str] = {}
        self.names: dict[int, str] = {}
        self.match: RevolutionMatch | None = None
        self.hands: dict[int, int] = {}
        self.deck: list[int] | None = None
        self.number = 0
        self.expected: list[RevolutionAction] = []  # made by the deal, not yet read
        self.totals: list[int] = []

    def read(self, text: str) -> RevolutionMatch:
        started = False
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            where = f"line {number}"
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
            raise RecordError("end", f"the record leaves out '{record_line(self.expected[0])}'")
        self._begin_pending()
        if self.match is None:
            raise RecordError("end", "the record has no deal")
        return self.match

    def _line(self, line: str) -> None:
        word, _, rest = line.partition(" ")
        if self.number == 0 and word in ("rules", "deals", "seed"):
            self.header[word] = rest
            return
        if self.number == 0 and word == "seat":
            seat, _, name = rest.partition(" ")
            self.names[int(seat)] = name
            return
        if word == "deal":
            if self.expected:
                raise RecordError("", f"the record leaves out '{record_line(self.expected[0])}'")
            if int(rest) != self.number + 1:
                raise RecordError("", f"deal {self.number + 1} comes next, not deal {rest}")
            if self.match is not None and not self.match.deal.over:
                raise RecordError("", "a deal begins before the one before it is over")
            self.number += 1
            self.hands, self.deck = {}, None
            return
        if word == "hand":
            seat, _, cards = rest.partition(" ")
            self.hands[int(seat)] = parse(cards)
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
        self.totals = self.totals or [0] * self.match.players

    def _new_match(self, hands: list[int] | None) -> RevolutionMatch:
        if "rules" not in self.header:
            raise RecordError("", "the header names no rules")
        token = self.header["rules"]
        rules = (
            RuleSet.from_mapping(json.loads(token), origin="the record's rules")
            if token.startswith("{")
            else RuleSet.preset(token)
        )
        names = [self.names[s] for s in sorted(self.names)]
        if sorted(self.names) != list(range(len(names))) or not names:
            raise RecordError("", "seat lines must name seats 0 to n-1")
        seed_text = self.header.get("seed")
        seed: int | str | None = None
        if seed_text is not None:
            seed = int(seed_text) if seed_text.lstrip("-").isdigit() else seed_text
        if hands is None and seed is None:
            raise RecordError("", "a deal without hand lines needs the header's seed")
        deals = int(self.header["deals"]) if "deals" in self.header else None
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
        wanted = record_line(made)
        if _normal(line) != _normal(wanted):
            raise RecordError("", f"the replay makes '{wanted}' here, not '{line}'")

    def _check_result(self, match: RevolutionMatch, word: str, tokens: list[str]) -> None:
        if self.expected:
            raise RecordError("", f"the record leaves out '{record_line(self.expected[0])}'")
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
            totals = [sum(r.points[s] for r in match.results) for s in range(match.players)]
            ok, made = [int(t) for t in tokens] == totals, str(tuple(totals))
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


# -- history ---------------------------------------------------------------------------------------
def history_lines(result: RevolutionResult, names: Sequence[str]) -> list[str]:
    """A finished hand in words, one line per action (Palm-style), face-down cards shown."""
    out = [f"Deal {result.number}"]
    for a in result.actions:
        out.append("  " + describe_action(a, names))
    how = "went out" if result.end is End.OUT else "had the fewest cards when the deck ran out"
    out.append(f"  {names[result.winner]} {how}.")
    points = ", ".join(f"{n} {p:+d}" for n, p in zip(names, result.points, strict=True))
    out.append(f"  Points: {points}")
    return out


def describe_action(action: RevolutionAction, names: Sequence[str]) -> str:
    """One action for people, with suit symbols."""
    a, who = action, names[action.seat] if action.seat >= 0 else ""
    move = a.move
    if move is Move.PLAY:
        return f"{who} plays {symbols(a.cards)}"
    if move is Move.PASS:
        return f"{who} passes" + (" (automatically)" if a.auto else "")
    if move is Move.ACTIVATE:
        to = f" on {names[a.target]}" if a.target >= 0 else ""
        return f"{who} activates {symbols(a.cards)}: {a.function}{to}"
    if move is Move.COUNTER:
        return f"{who} counters with {symbols(a.cards)}"
    if move is Move.DECLINE:
        return f"{who} does not counter"
    if move is Move.EFFECT:
        given = f" ({symbols(a.cards)})" if a.cards else ""
        return f"{who}'s {a.function} takes effect{given}"
    if move is Move.DRAW:
        card = symbols(a.cards) if a.cards else "a card"
        return f"{who} draws {card} from the {a.source}"
    if move is Move.STOP:
        return f"{who} draws no more"
    if move is Move.SKIP:
        return f"{who} loses a turn"
    return f"The Gathering gets {symbols(a.cards)}"


# -- replay ----------------------------------------------------------------------------------------
def revolution_positions(match: RevolutionMatch) -> list[str]:
    """Every position of every hand so far, each as text with every hand face up: the
    start of each hand, then one after each action (what ``bigtwo replay`` steps through)."""
    out: list[str] = []
    hands: list[tuple[int, tuple[int, ...], tuple[int, ...], Sequence[RevolutionAction]]] = [
        (r.number, r.dealt, r.deck, r.actions) for r in match.results
    ]
    if len(match.results) < match.deal_number:
        d = match.deal
        hands.append((match.deal_number, d.dealt, d.deck, tuple(d.actions)))
    rules = match.ruleset.rules
    for number, dealt, deck, actions in hands:
        deal = RevolutionDeal(rules, dealt, deck=deck)
        out.append(_position(deal, match.names, number, "the hand begins"))
        for action in actions:
            if action.follows:
                continue
            deal.redo(action)
            made = deal.actions
            last = [describe_action(a, match.names) for a in made[_start_of_last(made) :]]
            out.append(_position(deal, match.names, number, "; ".join(last)))
    return out


def _start_of_last(actions: Sequence[RevolutionAction]) -> int:
    """Where the last action a player chose begins, with what the deal did after it."""
    i = len(actions) - 1
    while i > 0 and actions[i].follows:
        i -= 1
    return i


def _position(deal: RevolutionDeal, names: Sequence[str], number: int, caption: str) -> str:
    lines = [f"Deal {number}: {caption}"]
    order = "reversed" if deal.reversed else "normal"
    gathering = " ".join(card_symbol(c) for c in deal.gathering) or "(empty)"
    lines.append(f"  Gathering {gathering}; deck {deal.deck_left} cards; order {order}")
    to_beat = deal.to_beat.symbols() if deal.to_beat is not None else "(a lead)"
    lines.append(f"  To beat: {to_beat}")
    for seat, name in enumerate(names):
        mark = ">" if seat == deal.to_act and not deal.over else " "
        lines.append(f" {mark}{name}: {symbols(deal.hands[seat]) or '(no cards)'}")
    if deal.over and deal.winner is not None:
        lines.append(f"  Over ({deal.end}): {names[deal.winner]} wins")
    return "\n".join(lines) + "\n"
