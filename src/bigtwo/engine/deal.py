"""One deal as a state machine: dealing, leading, playing, passing, trick end, deal end.

Every action is checked first (``verify_play`` / ``verify_pass`` raise an
:class:`~bigtwo.engine.errors.IllegalAction` whose message is the reason in words), then
applied (``play`` / ``pass_`` return an immutable :class:`Action`), and can be taken back
(``undo``) for search. ``view(seat)`` gives what that seat may know and nothing more. The deal
has no clock, no I/O and no global randomness: deal from a seed or from given hands.

>>> from bigtwo.engine.rules import Rules
>>> deal = Deal(Rules.preset("palm"), ["3d 4c", "5d 6c", "7d 8c", "9d Tc"])
>>> deal.turn, [str(p) for p in deal.legal_plays()]
(0, ['3d'])
>>> deal.play(0, "4c")
Traceback (most recent call last):
...
bigtwo.engine.errors.MustInclude: First play must include 3♦
>>> action = deal.play(0, "3d")
>>> deal.turn, action.seat, str(action.play)
(1, 0, '3d')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from .cards import (
    CARDS,
    FULL_DECK,
    CardIndex,
    Cards,
    CardSet,
    Mask,
    card_indices,
    card_symbols,
    to_mask,
)
from .errors import (
    CannotPass,
    DealOver,
    DoesNotBeat,
    IllegalAction,
    MustInclude,
    NotACombination,
    NotYourCards,
    NotYourTurn,
)
from .movegen import HandPlays
from .plays import BOMB_GROUP, Catalog, Kind, Play, catalog_for
from .rules import Rules

# Action is still found here by table snapshots pickled before it moved to .views.
from .views import Action, SeatView

# What a play of so many cards is called when saying what would beat it.
_SIZE_WORDS = {1: "a single", 2: "a pair", 3: "a triple"}


class _Saved(NamedTuple):
    turn: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    locked: int
    opening: CardIndex | None
    hand_plays: HandPlays | None


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


class Deal:
    """The state of one deal. Seats are 0..players-1 and act in increasing order."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Cards],
        *,
        leader: int | None = None,
    ) -> None:
        """Start a deal from dealt ``hands``. ``leader`` names who leads when the previous
        winner leads (``next_leader = "winner"``); that lead need not include any card."""
        if rules.revolution is not None:
            raise IllegalAction(
                f"{rules.name} plays the Big 2 RevolutioN expansion, which a 52-card deal "
                "cannot: its hands are RevolutionDeals"
            )
        masks = [to_mask(h) for h in hands]
        if len(masks) not in rules.players:
            allowed = ", ".join(str(p) for p in rules.players)
            raise IllegalAction(f"{rules.name} is played by {allowed} players, not {len(masks)}")
        seen = 0
        for m in masks:
            if m & seen:
                raise IllegalAction(f"{CardSet(Mask(m & seen))} dealt twice")
            if not m:
                raise IllegalAction("Every player must be dealt cards")
            seen |= m
        self.rules = rules
        self.catalog: Catalog = catalog_for(rules)
        self.players = len(masks)
        self.dealt: tuple[Mask, ...] = tuple(masks)
        self.hands: list[Mask] = list(masks)
        self._hand_plays: list[HandPlays | None] = [None] * self.players
        self.actions: list[Action] = []
        self._saved: list[_Saved] = []
        self.to_beat: Play | None = None
        self.to_beat_seat = -1
        self.passes = 0
        self.locked = 0
        self.winner: int | None = None
        self.opening: CardIndex | None = None
        if leader is None:
            seat, card = _opening_of(rules, masks)
            self.turn = seat
            if rules.first_play != "any":
                self.opening = card
        else:
            if not 0 <= leader < self.players:
                raise IllegalAction(f"There is no seat {leader}")
            self.turn = leader
        self.leader = self.turn
        if self.opening is not None and rules.first_play == "alone":
            alone = self.catalog.make(1 << self.opening, Kind.SINGLE)
            reason = f"{CARDS[self.opening].symbol()} opens the deal by itself"
            self._apply(self.turn, alone, True, reason)

    @classmethod
    def from_seed(cls, rules: Rules, seed: int | str, players: int | None = None) -> Deal:
        """A deal shuffled from a seed: the same seed gives the same hands."""
        rng = random.Random(seed)
        return cls(rules, deal_hands(rules, players or rules.default_players, rng))

    # -- questions -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def is_lead(self) -> bool:
        return self.to_beat is None

    def counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def hand_plays(self, seat: int) -> HandPlays:
        hp = self._hand_plays[seat]
        if hp is None:
            hp = self._hand_plays[seat] = HandPlays(self.catalog, self.hands[seat])
        return hp

    def legal_plays(self, seat: int | None = None) -> list[Play]:
        """The plays the seat to act may make, cheapest first (empty for other seats)."""
        if seat is None:
            seat = self.turn
        if self.winner is not None or seat != self.turn:
            return []
        hp = self.hand_plays(seat)
        plays = hp.leads(self.opening) if self.to_beat is None else hp.replies(self.to_beat)
        if self.opening is not None and self.rules.first_play == "alone":
            plays = [p for p in plays if p.mask == 1 << self.opening]
        if self.rules.last_card and self._last_card_applies(seat):
            top = self._top_single(seat)
            plays = [p for p in plays if p.size != 1 or p.mask == top]
        return plays

    def can_pass(self, seat: int | None = None) -> bool:
        if seat is None:
            seat = self.turn
        return self.winner is None and seat == self.turn and self.to_beat is not None

    def _last_card_applies(self, seat: int) -> bool:
        """The "last card" rule binds ``seat``: the next player holds one card. The opening
        play's lead card comes first (a hand may hold no other play with it)."""
        return (
            self.rules.last_card
            and self.opening is None
            and self.hands[self.next_seat(seat)].bit_count() == 1
        )

    def _top_single(self, seat: int) -> Mask:
        power = self.catalog.card_power
        return Mask(1 << max(card_indices(self.hands[seat]), key=lambda c: power[c]))

    # -- checks ------------------------------------------------------------------------------
    def verify_play(self, seat: int, cards: Cards | Play) -> Play:
        """The play if ``seat`` may play ``cards`` now; else raises the reason in words."""
        self._verify_turn(seat)
        mask = cards.mask if isinstance(cards, Play) else to_mask(cards)
        if mask & ~self.hands[seat]:
            missing = card_symbols(Mask(mask & ~self.hands[seat]))
            raise NotYourCards(f"Not your cards: you do not hold {missing}", cards=missing)
        play = self.catalog.classify(mask)
        if play is None:
            what = card_symbols(mask) or "nothing"
            raise NotACombination(f"Not a legal combination: {what}", cards=card_symbols(mask))
        if self.to_beat is None:
            if self.opening is not None and not mask >> self.opening & 1:
                lead = CARDS[self.opening].symbol()
                raise MustInclude(f"First play must include {lead}", card=lead)
            if self.opening is not None and self.rules.first_play == "alone" and play.size != 1:
                lead = CARDS[self.opening].symbol()
                raise MustInclude(f"First play must be {lead} alone", "must_lead_alone", card=lead)
        elif not self.catalog.beats(play, self.to_beat):
            raise DoesNotBeat(
                f"That does not beat {self.to_beat.symbols()}: {self._needed(play, self.to_beat)}",
                cards=self.to_beat.symbols(),
            )
        if play.size == 1 and self._last_card_applies(seat) and mask != self._top_single(seat):
            top = card_symbols(self._top_single(seat))
            raise IllegalAction(
                f"The next player has one card left: play your highest single ({top})",
                "highest_single",
                card=top,
            )
        return play

    def _needed(self, play: Play, to_beat: Play) -> str:
        """What would beat ``to_beat``, in words, when ``play`` does not."""
        if self.catalog.sf_unbeatable and to_beat.kind is Kind.STRAIGHT_FLUSH:
            return "nothing beats a straight flush under these rules"
        if play.size != to_beat.size:
            need = _SIZE_WORDS.get(to_beat.size, f"a {to_beat.size}-card play")
        elif play.kind is to_beat.kind or play.group != to_beat.group:
            need = f"a higher {to_beat.kind.label}"
        else:
            need = f"a higher {to_beat.size}-card play"
        if self.rules.bombs and to_beat.group != BOMB_GROUP:
            need += " or a bomb (" + ", ".join(b.replace("_", " ") for b in self.rules.bombs) + ")"
        return f"it needs {need}"

    def verify_pass(self, seat: int) -> None:
        self._verify_turn(seat)
        if self.to_beat is None:
            raise CannotPass("You lead: you cannot pass")

    def _verify_turn(self, seat: int) -> None:
        if self.winner is not None:
            raise DealOver("The deal is over")
        if seat != self.turn:
            raise NotYourTurn(f"Not your turn: seat {self.turn} is to play", seat=self.turn)

    # -- actions -----------------------------------------------------------------------------
    def play(self, seat: int, cards: Cards | Play) -> Action:
        """Play ``cards`` for ``seat`` after checking them."""
        return self._apply(seat, self.verify_play(seat, cards), False, "")

    def pass_(self, seat: int, *, auto: bool = False, reason: str = "") -> Action:
        """Pass for ``seat``; ``auto`` records an automatic pass and its reason."""
        self.verify_pass(seat)
        return self._apply(seat, None, auto, reason)

    def apply_unchecked(self, play: Play | None) -> Action:
        """Apply a play taken from :meth:`legal_plays` (or a pass where allowed) for the
        seat to act, without checking again: the fast path of simulations and search."""
        return self._apply(self.turn, play, False, "")

    def _apply(self, seat: int, play: Play | None, auto: bool, reason: str) -> Action:
        n = self.players
        self._saved.append(
            _Saved(
                self.turn,
                self.to_beat,
                self.to_beat_seat,
                self.passes,
                self.locked,
                self.opening,
                self._hand_plays[seat],
            )
        )
        trick_over = False
        if play is not None:
            mask = play.mask
            self.hands[seat] &= ~mask  # type: ignore[call-overload]  # no NewType call per action
            hp = self._hand_plays[seat]
            if hp is not None:
                self._hand_plays[seat] = hp.without(mask)
            self.to_beat, self.to_beat_seat, self.passes, self.opening = play, seat, 0, None
            if not self.hands[seat]:
                self.winner = seat
                trick_over = True
            else:
                nxt = (seat + 1) % n
                while self.locked >> nxt & 1 and nxt != seat:
                    nxt = (nxt + 1) % n
                if nxt == seat:  # everyone else is locked out: the trick ends at once
                    self.to_beat, self.locked, trick_over = None, 0, True
                self.turn = nxt
        else:
            self.passes += 1
            if self.rules.pass_lock:
                self.locked |= 1 << seat
            others = ((1 << n) - 1) & ~(1 << self.to_beat_seat)
            if self.passes >= n - 1 or (self.rules.pass_lock and self.locked & others == others):
                self.turn, self.to_beat, self.passes, self.locked = self.to_beat_seat, None, 0, 0
                trick_over = True
            else:
                nxt = (seat + 1) % n
                while self.locked >> nxt & 1:
                    nxt = (nxt + 1) % n
                self.turn = nxt
        action = Action(seat, play, auto, reason, trick_over)
        self.actions.append(action)
        return action

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise IllegalAction("Nothing to undo")
        action = self.actions.pop()
        saved = self._saved.pop()
        if action.play is not None:
            self.hands[action.seat] |= action.play.mask  # type: ignore[call-overload]  # as in _apply
            self.winner = None
        self.turn, self.to_beat, self.to_beat_seat = saved.turn, saved.to_beat, saved.to_beat_seat
        self.passes, self.locked, self.opening = saved.passes, saved.locked, saved.opening
        self._hand_plays[action.seat] = saved.hand_plays
        return action

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know: its own cards, the public history and card counts.
        ``None`` gives a spectator's view, which holds no hand. The card the opening play must
        include is shown only to the seat that holds it."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat}")
        own = Mask(0) if seat is None else self.hands[seat]
        opening = self.opening
        if opening is not None and not own >> opening & 1:
            opening = None  # which card must open tells where that card lies
        acting = seat is not None and seat == self.turn and self.winner is None
        return SeatView(
            seat=seat,
            rules=self.rules,
            hand=own,
            counts=tuple(self.counts()),
            turn=self.turn,
            leader=self.leader,
            to_beat=self.to_beat,
            to_beat_seat=self.to_beat_seat,
            passes=self.passes,
            locked=self.locked,
            opening=opening,
            actions=tuple(self.actions),
            played=Mask(FULL_DECK & ~sum(self.hands) & _dealt_mask(self.dealt)),
            winner=self.winner,
            legal=tuple(self.legal_plays(seat)) if acting else (),
            can_pass=acting and self.to_beat is not None,
        )


def _dealt_mask(hands: Sequence[int]) -> int:
    out = 0
    for h in hands:
        out |= h
    return out
