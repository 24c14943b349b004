"""Game history and score sheets as text, in the style of Palm OS Big Two.

The history tells each deal as the Palm "Game Hist" form and its Memo export did: a deal
header, each player's opening hand, every play (``Bill: 3♦ 4♣ 5♥ 6♠ 7♦``) and pass, who leads
once the others have passed, the winner, and each player's cards left and points. The score
sheet is the Palm score form: cards left ("DOUBLE!" where the penalty doubled, "*WIN!*" for
the winner), points and running totals, and "I will not play with real money" when every
total is zero. Both are plain text that any front end can show; this module reads a
:class:`~bigtwo.match.match.Match` and writes nothing (``bigtwo history --export`` writes
it to a file).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ..engine.cards import Mask, card_symbols
from ..engine.plays import Play
from ..engine.views import Action
from .match import DealRecord, Match

REAL_MONEY = "I will not play with real money"
WIN = "*WIN!*"
_BAND_WORDS = {2: "DOUBLE!", 3: "TRIPLE!"}


def band_word(multiplier: int) -> str:
    """What the score sheet prints for a penalty multiplier: DOUBLE!, TRIPLE!, or nothing."""
    if multiplier <= 1:
        return ""
    return _BAND_WORDS.get(multiplier, f"x{multiplier}!")


def signed(points: int) -> str:
    """Points as the score sheet prints them: ``+30``, ``-9``, ``0``."""
    return f"{points:+d}" if points else "0"


# -- the history -----------------------------------------------------------------------------------
def deal_history(match: Match, number: int | None = None, *, shown: Collection[int] = ()) -> str:
    """The history of one deal (the one in play, or the last, by default).

    While a deal is in play its opening hands are secret: each is written ``(hidden)`` but
    those of the seats in ``shown`` (the person reading it). A finished deal shows them all.
    """
    records = match.deal_records()
    record = records[-1] if number is None else _find(records, number)
    return "\n".join(_deal_lines(match, record, shown)) + "\n"


def match_history(match: Match, *, shown: Collection[int] = ()) -> str:
    """The history of every deal so far, then the score table (hands hidden as in
    :func:`deal_history`)."""
    parts = ["\n".join(_deal_lines(match, r, shown)) for r in match.deal_records()]
    parts.append(score_table(match).rstrip("\n"))
    return "\n\n".join(parts) + "\n"


def _find(records: list[DealRecord], number: int) -> DealRecord:
    for record in records:
        if record.number == number:
            return record
    from ..engine.errors import IllegalAction

    raise IllegalAction(f"There is no deal {number} yet (deals so far: {len(records)})")


def _deal_lines(match: Match, record: DealRecord, shown: Collection[int] = ()) -> list[str]:
    names = match.names
    width = max(len(n) for n in names)
    lines = [f"=== Deal {record.number} of {match.deals} ({record.rules.name}) ==="]
    lines.append("Opening hands:")
    for seat, hand in enumerate(record.dealt):
        secret = record.result is None and seat not in shown
        lines.append(f"  {names[seat]:<{width}}  {'(hidden)' if secret else card_symbols(hand)}")
    lines.append(f"Lead: {names[record.leader]}")
    last_player = record.leader
    for action in record.actions:
        name = names[action.seat]
        if action.play is None:
            lines.append(f"{name}: pass" + (" (auto)" if action.auto else ""))
        else:
            last_player = action.seat
            lines.append(f"{name}: {card_symbols(action.play.mask)}")
        # A trick that ends on a pass ends because everyone else passed: say who leads next.
        if action.trick_over and action.play is None:
            lines.append(f"Lead: {names[last_player]}")
    result = record.result
    if result is None:
        lines.append("(the deal is in play)")
        return lines
    lines.append(f"Winner: {names[result.winner]}")
    lines.append("Cards left and points:")
    for seat, left in enumerate(result.cards_left):
        count = left.bit_count()
        if seat == result.winner:
            detail = WIN
        else:
            detail = " ".join(
                w for w in (card_symbols(left), band_word(result.score.multipliers[seat])) if w
            )
        lines.append(
            f"  {names[seat]:<{width}}  {count:>2} left  {signed(result.points[seat]):>5}  {detail}".rstrip()
        )
    return lines


# -- the score sheet --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One seat's line on the score sheet of one deal."""

    seat: int
    name: str
    cards_left: int
    cards: Mask  # the cards left
    multiplier: int
    won: bool
    points: int
    total: int  # the running total after this deal

    @property
    def note(self) -> str:
        """``*WIN!*`` for the winner, ``DOUBLE!`` where the penalty doubled, else nothing."""
        return WIN if self.won else band_word(self.multiplier)


def score_rows(match: Match, number: int | None = None) -> list[ScoreRow]:
    """The score sheet of deal ``number`` (the last finished deal by default) as data."""
    if not match.results:
        return []
    result = match.results[-1] if number is None else None
    totals = [0] * match.players
    for r in match.results:
        totals = [t + p for t, p in zip(totals, r.points, strict=True)]
        if r.number == number:
            result = r
            break
    if result is None:
        from ..engine.errors import IllegalAction

        raise IllegalAction(f"Deal {number} is not over yet")
    return [
        ScoreRow(
            seat=seat,
            name=match.names[seat],
            cards_left=result.cards_left[seat].bit_count(),
            cards=result.cards_left[seat],
            multiplier=result.score.multipliers[seat],
            won=seat == result.winner,
            points=result.points[seat],
            total=totals[seat],
        )
        for seat in range(match.players)
    ]


def score_sheet(match: Match, number: int | None = None, *, show_cards: bool = True) -> str:
    """The Palm score form for one deal: cards left, DOUBLE! / *WIN!*, points, totals."""
    rows = score_rows(match, number)
    if not rows:
        return f"No deal is over yet.\n{REAL_MONEY}\n"
    deal = match.results[-1].number if number is None else number
    width = max(4, *(len(r.name) for r in rows))
    lines = [f"Deal {deal} of {match.deals} ({match.results[deal - 1].rules.name})"]
    lines.append(f"{'':<{width}}  {'Left':>4}  {'Points':>6}  {'Total':>6}")
    for r in rows:
        cards = card_symbols(r.cards) if show_cards and not r.won else ""
        tail = " ".join(w for w in (r.note, cards) if w)
        lines.append(
            f"{r.name:<{width}}  {r.cards_left:>4}  {signed(r.points):>6}  {signed(r.total):>6}  {tail}".rstrip()
        )
    if all(r.total == 0 for r in rows):
        lines.append(REAL_MONEY)
    return "\n".join(lines) + "\n"


def score_table(match: Match) -> str:
    """Every finished deal's points, one row a deal, with the totals beneath."""
    names = match.names
    width = max(6, *(len(n) for n in names))
    lines = ["Deal  " + "  ".join(f"{n:>{width}}" for n in names)]
    for r in match.results:
        cells = []
        for seat, p in enumerate(r.points):
            mark = "*" if seat == r.winner else " "
            cells.append(f"{signed(p) + mark:>{width}}")
        lines.append((f"{r.number:>4}  " + "  ".join(cells)).rstrip())
    lines.append("Total " + "  ".join(f"{signed(t) + ' ':>{width}}" for t in match.totals).rstrip())
    if all(t == 0 for t in match.totals):
        lines.append(REAL_MONEY)
    return "\n".join(lines) + "\n"


# -- stepping through a match ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Position:
    """The game after ``step`` actions of deal ``deal``: what a replay viewer shows."""

    deal: int
    step: int
    steps: int  # actions in that deal (so far, for the deal in play)
    hands: tuple[Mask, ...]
    to_beat: Play | None  # the play to beat (None when the next action is a lead)
    to_beat_seat: int
    last: Action | None
    turn: int | None  # who acts next (None once the deal is over, or at the record's end)
    record: DealRecord


def positions(match: Match) -> list[Position]:
    """Every position of the match in order: each deal as dealt, then after each action."""
    out: list[Position] = []
    for record in match.deal_records():
        hands = list(record.dealt)
        to_beat: Play | None = None
        to_beat_seat = -1
        actions = record.actions
        for step in range(len(actions) + 1):
            last = actions[step - 1] if step else None
            if last is not None:
                if last.play is not None:
                    hands[last.seat] = Mask(hands[last.seat] & ~last.play.mask)
                    to_beat, to_beat_seat = last.play, last.seat
                if last.trick_over:
                    to_beat = None
            if step < len(actions):
                turn: int | None = actions[step].seat
            elif record.result is None and record.number == match.deal_number:
                turn = match.deal.turn
            else:
                turn = None
            out.append(
                Position(
                    record.number,
                    step,
                    len(actions),
                    tuple(hands),
                    to_beat,
                    to_beat_seat,
                    last,
                    turn,
                    record,
                )  # fmt: skip
            )
    return out


def describe(match: Match, action: Action) -> str:
    """An action in words: ``Bill: 3♦ 4♣ 5♥ 6♠ 7♦`` or ``Ann: pass (auto)``."""
    name = match.names[action.seat]
    if action.play is None:
        return f"{name}: pass" + (" (auto)" if action.auto else "")
    return f"{name}: {card_symbols(action.play.mask)}"


def position_text(match: Match, position: Position) -> str:
    """A position with every hand face up, for ``bigtwo replay``."""
    record = position.record
    names = match.names
    width = max(len(n) for n in names)
    where = "dealt" if position.step == 0 else f"play {position.step} of {position.steps}"
    lines = [f"Deal {record.number} of {match.deals} ({record.rules.name}): {where}"]
    if position.last is None:
        lines.append(f"Dealt. Lead: {names[record.leader]}")
    else:
        lines.append(f"Last: {describe(match, position.last)}")
    if position.to_beat is not None:
        lines.append(
            f"Table: {card_symbols(position.to_beat.mask)} ({names[position.to_beat_seat]})"
        )
    else:
        lines.append("Table: empty")
    for seat, hand in enumerate(position.hands):
        mark = ">" if seat == position.turn else " "
        lines.append(
            f"{mark} {names[seat]:<{width}}  {hand.bit_count():>2}  {card_symbols(hand)}".rstrip()
        )
    if record.result is not None and position.step == position.steps:
        lines.append("")
        lines.append(score_sheet(match, record.number).rstrip("\n"))
    return "\n".join(lines) + "\n"
