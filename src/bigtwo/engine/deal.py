"""One deal as a state machine: dealing, leading, playing, passing, trick end, deal end.

Every action is checked first (``verify_play`` / ``verify_pass`` raise an
:class:`~bigtwo.engine.errors.IllegalAction` whose message is the reason in words), then
applied (``play`` / ``pass_`` return an immutable :class:`Action`), and can be taken back
(``undo``) for search. ``view(seat)`` gives what that seat may know and nothing more. The deal
has no clock, no I/O and no global randomness: deal from a seed or from given hands. The
trick itself (who acts next, when a trick ends, ``pass_lock``, ``last_card`` and the checks of
a play or a pass) is :class:`~bigtwo.engine.trick.Trick`'s, which the expansion's hand shares.

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

from .cards import CARDS, FULL_DECK, CardIndex, Cards, Mask, to_mask
from .errors import DealOver, IllegalAction, NotYourTurn
from .movegen import HandPlays
from .plays import BOMB_GROUP, Catalog, Kind, Play, catalog_for
from .revolution_types import RevolutionChoice
from .rules import Rules
from .trick import Trick, cards_dealt, deal_hands, opening_of

# Action is still found here by table snapshots pickled before it moved to .views.
from .views import Action, Move, SeatView

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


class Deal(Trick):
    """The state of one deal. Seats are 0..players-1 and act in increasing order."""

    # The legal plays of the seat to act in the deal as it stands, once worked out (None: not
    # yet): a match checks them for an automatic pass, and a table tells them to the seat.
    # Every action forgets them (``_apply``, ``undo``); a pickle or a copy does not keep them.
    _legal: list[Play] | None = None

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Cards],
        *,
        leader: int | None = None,
    ) -> None:
        """Start a deal from dealt ``hands``. ``leader`` names who leads when the previous
        winner leads (``next_leader = "winner"``); that lead need not include any card."""
        masks = [to_mask(h) for h in hands]
        cards_dealt(rules, masks, self.game)
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
        self._seat_first(masks, leader)
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

    def counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def take_up_trick(
        self,
        to_beat: Play | None,
        to_beat_seat: int,
        passes: int,
        locked: int,
        opening: CardIndex | None,
    ) -> None:
        """Set the trick in progress on a fresh deal (a world sampled from a seat's view, whose
        trick is public): the play to beat, who made it, the passes since, the locked seats,
        the card the opening play must hold. Legal plays worked out before are forgotten."""
        self.to_beat, self.to_beat_seat, self.passes = to_beat, to_beat_seat, passes
        self.locked, self.opening = locked, opening
        self._legal = None

    def hand_plays(self, seat: int) -> HandPlays:
        hp = self._hand_plays[seat]
        if hp is None:
            hp = self._hand_plays[seat] = HandPlays(self.catalog, self.hands[seat])
        return hp

    def legal_plays(self, seat: int | None = None) -> list[Play]:
        """The plays the seat to act may make now, cheapest first (empty for other seats),
        worked out once for each state of the deal."""
        if seat is not None and seat != self.turn:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = super().legal_plays()
        return list(legal)

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state.pop("_legal", None)  # worked out again when asked
        return state

    def _may_act(self, seat: int) -> bool:
        return self.winner is None and seat == self.turn

    def _plays_now(self, seat: int) -> list[Play]:
        hp = self.hand_plays(seat)
        plays = hp.leads(self.opening) if self.to_beat is None else hp.replies(self.to_beat)
        if self.opening is not None and self.rules.first_play == "alone":
            plays = [p for p in plays if p.mask == 1 << self.opening]
        return plays

    # -- the turn in the expansion's words (``to_act`` and ``choices()`` are the trick's) -------
    def take(self, choice: RevolutionChoice) -> Action:
        """Apply one of :meth:`choices` (checked like any other action)."""
        if choice.move is Move.PLAY:
            return self.play(choice.seat, Mask(choice.cards))
        if choice.move is Move.PASS:
            return self.pass_(choice.seat)
        raise IllegalAction(f"A 52-card deal has no '{choice.move}': only play and pass")

    # -- checks ------------------------------------------------------------------------------
    def _mask_of(self, cards: Cards | Play | int) -> int:
        return cards.mask if isinstance(cards, Play) else to_mask(cards)  # type: ignore[arg-type]

    def _beaten_words(self, play: Play, to_beat: Play) -> str:
        return ": " + self._needed(play, to_beat)

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

    def _verify_acting(self, seat: int) -> None:
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
        self._legal = None
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
                self.turn, trick_over = self._after_play(seat)
        else:
            self.turn, trick_over = self._after_pass(seat)
        action = Action(seat, play, auto, reason, trick_over)
        self.actions.append(action)
        return action

    def undo(self) -> Action:
        """Take back the last action and return it."""
        if not self.actions:
            raise IllegalAction("Nothing to undo")
        action = self.actions.pop()
        saved = self._saved.pop()
        self._legal = None
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
            played=Mask(FULL_DECK & ~sum(self.hands) & sum(self.dealt)),  # (hands are disjoint)
            winner=self.winner,
            legal=tuple(self.legal_plays(seat)) if acting else (),
            can_pass=acting and self.to_beat is not None,
        )


__all__ = ["Action", "Deal", "SeatView", "deal_hands", "opening_of"]
