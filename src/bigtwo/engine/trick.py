"""The trick, one copy for both games: :class:`Trick` is what the 52-card
:class:`~bigtwo.engine.deal.Deal` and the expansion's
:class:`~bigtwo.engine.revolution.RevolutionDeal` share (as python-chess's variant boards
extend its board): who acts after a play or a pass, when a trick ends, ``pass_lock``,
``last_card``, the legal plays and ``verify_play`` / ``verify_pass``; and the deal itself
(:func:`deal_hands`) and its first player. A hand is a mask of 52 bits, or of 104 in the
expansion, whose Revolution cards (ids 52 to 103) rank as their normal twins (id − 52); a
player is on their last card with one *normal* card left, and while the expansion's order is
reversed the highest card is the one that was lowest. None of this changes a 52-card deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .cards import CARDS, CardIndex, Cards, Mask, card_indices, card_symbols, card_text, to_mask
from .errors import (
    CannotPass,
    DoesNotBeat,
    IllegalAction,
    MustInclude,
    NotACombination,
    NotYourCards,
)
from .plays import Catalog, Play, catalog_for
from .revolution_cards import NORMAL_CARDS
from .revolution_types import RevolutionChoice
from .rules import BIGTWO, REVOLUTION, Rules
from .views import Move


def deal_hands(rules: Rules, players: int, rng: random.Random) -> list[Mask]:
    """Shuffle one deck and deal each seat its cards as masks. Undealt cards stay aside,
    except that with ``leftover = "to_leader"`` a remainder smaller than one card per player
    (the 52nd card among three players) goes to the lead-card holder."""
    size = rules.hand_size(players)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0] * players
    for i in range(players):
        for c in deck[i * size : (i + 1) * size]:
            hands[i] |= 1 << c
    rest = deck[players * size :]
    if rest and len(rest) < players and rules.leftover == "to_leader":
        leader, _ = _opening_of(rules, [Mask(h) for h in hands])
        for c in rest:
            hands[leader] |= 1 << c
    return [Mask(h) for h in hands]


def opening_of(rules: Rules, hands: Sequence[Cards]) -> tuple[int, CardIndex]:
    """Who leads the first deal and with which card: the lead card's holder, or the holder
    of the lowest dealt card when the lead card is 'lowest' or was not dealt.

    >>> from bigtwo.engine.cards import Card
    >>> opening_of(Rules.preset("palm"), ["4d 5d", Card.parse("3d")])
    (1, 0)
    """
    return _opening_of(rules, [to_mask(h) for h in hands])


def _opening_of(rules: Rules, hands: Sequence[Mask]) -> tuple[int, CardIndex]:
    catalog = catalog_for(rules)
    lead = rules.lead_card_index()
    if lead is not None:
        card = CardIndex(lead)
        for seat, hand in enumerate(hands):
            if hand >> card & 1:
                return seat, card
    best: tuple[int, int, CardIndex] | None = None
    for seat, hand in enumerate(hands):
        for c in card_indices(hand):
            power = catalog.card_power[c]
            if best is None or power < best[0]:
                best = (power, seat, c)
    if best is None:
        raise IllegalAction("Nobody holds any cards")
    return best[1], best[2]


# What a deal of one game says to rules of the other.
_OTHER_GAME = {
    BIGTWO: "{} plays the Big 2 RevolutioN expansion, which a 52-card deal cannot: its hands are "
    "RevolutionDeals",
    REVOLUTION: "{} does not play the revolution expansion",
}


def cards_dealt(rules: Rules, masks: Sequence[int], game: str) -> int:
    """Refuse rules of another ``game`` than the deal's, or dealt hands that the rules' player
    counts do not allow, that share a card, or that leave a player with none; else every card
    dealt, as one mask."""
    if rules.game != game:
        raise IllegalAction(_OTHER_GAME[game].format(rules.name))
    if len(masks) not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise IllegalAction(f"{rules.name} is played by {allowed} players, not {len(masks)}")
    seen = 0
    for m in masks:
        if m & seen:
            raise IllegalAction(f"{card_text(Mask(m & seen))} dealt twice")
        if not m:
            raise IllegalAction("Every player must be dealt cards")
        seen |= m
    return seen


class Trick:
    """The trick of a deal of either game, on the state each deal keeps (declared here).
    ``locked`` has a bit for each seat that sits out the rest of the trick (``pass_lock``),
    ``reversed`` says whether the expansion's revolution has reversed the order."""

    rules: Rules
    catalog: Catalog
    players: int
    hands: Sequence[int]
    turn: int
    leader: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    opening: int | None
    game = BIGTWO  # the game the deal plays (``Rules.game``)
    # Class defaults: a deal sets its own, and one unpickled from before it kept them reads these.
    locked: int = 0
    reversed: bool = False
    _last_card_words = "one card"  # the expansion counts normal cards only
    # What each deal says for itself: whether ``seat`` is to play or pass now (``_may_act``),
    # else why not (``_verify_acting`` raises it in words); the plays of its hand that open the
    # deal or beat the table, before ``last_card`` (``_plays_now``); the cards a play names
    # (``_mask_of``, in its own notation); what follows "That does not beat …" (``_beaten_words``).
    _may_act: Callable[[int], bool]
    _verify_acting: Callable[[int], None]
    _plays_now: Callable[[int], list[Play]]
    _mask_of: Callable[[Cards | Play | int], int]
    _beaten_words: Callable[[Play, Play], str]

    # -- the first player ----------------------------------------------------------------------
    def _seat_first(self, hands: Sequence[int], leader: int | None) -> None:
        """Give the turn to the first player: ``leader`` when named (no card need open),
        else the lead card's holder (of the normal cards dealt), whose first play must
        include it (unless ``first_play = "any"``)."""
        if leader is None:
            seat, card = _opening_of(self.rules, [Mask(h & NORMAL_CARDS) for h in hands])
            self.turn = seat
            if self.rules.first_play != "any":
                self.opening = card
        else:
            if not 0 <= leader < self.players:
                raise IllegalAction(f"There is no seat {leader}")
            self.turn = leader
        self.leader = self.turn

    # -- questions -------------------------------------------------------------------------------
    @property
    def is_lead(self) -> bool:
        return self.to_beat is None

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    @property
    def to_act(self) -> int:
        """The seat whose action is awaited (the expansion's counter window asks others)."""
        return self.turn

    def choices(self) -> list[RevolutionChoice]:
        """Everything the seat to act may do now, as ``take`` applies it: its legal plays,
        then the pass when allowed (nothing once the deal is over)."""
        return self._trick_choices(self.turn, None)

    def _trick_choices(self, seat: int, legal: list[Play] | None) -> list[RevolutionChoice]:
        """``seat``'s plays (``legal``, when known already) and its pass, as choices."""
        out = [RevolutionChoice(seat, Move.PLAY, p.mask) for p in legal or self.legal_plays(seat)]
        if self.can_pass(seat):
            out.append(RevolutionChoice(seat, Move.PASS))
        return out

    def legal_plays(self, seat: int | None = None) -> list[Play]:
        """The plays the seat to act may make now, cheapest first (empty for other seats)."""
        if seat is None:
            seat = self.turn
        if not self._may_act(seat):
            return []
        plays = self._plays_now(seat)
        if self.rules.last_card and self._last_card_applies(seat):
            top = self._top_singles(seat)
            plays = [p for p in plays if p.size != 1 or p.mask & top]
        return plays

    def can_pass(self, seat: int | None = None) -> bool:
        if seat is None:
            seat = self.turn
        return self._may_act(seat) and self.to_beat is not None

    def _last_card_applies(self, seat: int) -> bool:
        """The "last card" rule binds ``seat``: the next seat in turn order (locked out of the
        trick or not) holds one normal card. The opening play's lead card comes first (a
        hand may hold no other play with it)."""
        return (
            self.rules.last_card
            and self.opening is None
            and (self.hands[(seat + 1) % self.players] & NORMAL_CARDS).bit_count() == 1
        )

    def _top_singles(self, seat: int) -> int:
        """The cards ``seat`` may play as a single under ``last_card``: its highest card by
        the order in force (its lowest while the order is reversed). A Revolution card is as
        high as its normal twin, so the two twins are both the highest when they are."""
        power = self.catalog.card_power
        sign = -1 if self.reversed else 1
        best, top = 0, 0
        for c in card_indices(Mask(self.hands[seat])):
            p = sign * power[c - 52 if c >= 52 else c]
            if not top or p > best:
                best, top = p, 1 << c
            elif p == best:
                top |= 1 << c
        return top

    # -- checks ----------------------------------------------------------------------------------
    def verify_play(self, seat: int, cards: Cards | Play | int) -> Play:
        """The play if ``seat`` may play ``cards`` now; else raises the reason in words."""
        self._verify_acting(seat)
        mask = self._mask_of(cards)
        hand = self.hands[seat]
        if mask & ~hand:
            missing = card_symbols(Mask(mask & ~hand))
            raise NotYourCards(f"Not your cards: you do not hold {missing}", cards=missing)
        play = self.catalog.classify(mask)
        if play is None:
            what = card_symbols(Mask(mask)) or "nothing"
            raise NotACombination(
                f"Not a legal combination: {what}", cards=card_symbols(Mask(mask))
            )
        to_beat = self.to_beat
        if to_beat is None:
            if self.opening is not None and not mask >> self.opening & 1:
                lead = CARDS[self.opening].symbol()
                raise MustInclude(f"First play must include {lead}", card=lead)
            if self.opening is not None and self.rules.first_play == "alone" and play.size != 1:
                lead = CARDS[self.opening].symbol()
                raise MustInclude(f"First play must be {lead} alone", "must_lead_alone", card=lead)
        elif not self.catalog.beats(play, to_beat, reversed=self.reversed):
            raise DoesNotBeat(
                f"That does not beat {to_beat.symbols()}{self._beaten_words(play, to_beat)}",
                cards=to_beat.symbols(),
            )
        if play.size == 1 and self._last_card_applies(seat):
            top = self._top_singles(seat)
            if not mask & top:
                named = [card_symbols(Mask(1 << c)) for c in card_indices(Mask(top))]
                order = " by the reversed order" if self.reversed else ""
                raise IllegalAction(
                    f"The next player has {self._last_card_words} left: play your highest "
                    f"single{order} ({' or '.join(named)})",
                    "highest_single",
                    card="/".join(named),
                )
        return play

    def verify_pass(self, seat: int) -> None:
        self._verify_acting(seat)
        if self.to_beat is None:
            raise CannotPass("You lead: you cannot pass")

    # -- moving on -------------------------------------------------------------------------------
    def _next_in_trick(self, seat: int) -> int:
        """The seat after ``seat`` that still plays in this trick (not locked out by a pass);
        ``seat`` itself when every other seat is."""
        n, locked = self.players, self.locked
        nxt = (seat + 1) % n
        while locked >> nxt & 1 and nxt != seat:
            nxt = (nxt + 1) % n
        return nxt

    def _after_play(self, seat: int) -> tuple[int, bool]:
        """After ``seat`` has played (and is not out): the next seat to act, and whether the
        trick ended at once, every other seat being locked out (the player then leads)."""
        nxt = self._next_in_trick(seat)
        if nxt == seat:
            self.to_beat, self.locked = None, 0
            return seat, True
        return nxt, False

    def _after_pass(self, seat: int) -> tuple[int, bool]:
        """Count a pass by ``seat`` (under ``pass_lock`` it sits out the rest of the trick):
        the next seat to act, and whether the trick ended, in which case the seat that made
        the last play leads next."""
        n = self.players
        self.passes += 1
        over = self.passes >= n - 1
        if self.rules.pass_lock:
            self.locked |= 1 << seat
            others = ((1 << n) - 1) & ~(1 << self.to_beat_seat)
            over = over or self.locked & others == others
        if over:
            nxt = self.to_beat_seat
            self.to_beat, self.passes, self.locked = None, 0, 0
            return nxt, True
        return self._next_in_trick(seat), False


__all__ = ["Trick", "cards_dealt", "deal_hands", "opening_of"]
