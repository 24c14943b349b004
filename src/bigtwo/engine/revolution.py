"""One hand of Big 2 RevolutioN as a state machine: functions, counters, play, pass, drawing.

The expansion adds a second, 52-card Revolution deck to a 52-card rule set (see
:mod:`bigtwo.engine.revolution_cards` for the cards and plays and
:mod:`bigtwo.engine.revolution_rules` for the options). A turn runs in phases: the player to
act may activate Character cards one at a time, each followed by a counter window in which
every other seat in turn order may cancel it with a Revolution Q or decline; then the player
plays or passes (on the 52-card deal's own trick logic, :class:`~bigtwo.engine.trick.Trick`,
with its ``pass_lock`` and ``last_card`` when the rules set them); a player who passed may
draw. The hand ends when a player has played all their normal cards, or when the Revolution
deck runs out. As in the 52-card :class:`~bigtwo.engine.deal.Deal`, every action is checked
first (``verify_*`` raises an :class:`~bigtwo.engine.errors.IllegalAction` whose message is
the reason in words), then applied (returning an immutable :class:`~bigtwo.engine.views.Action`, the one of both games), and
can be taken back with :meth:`RevolutionDeal.undo`. :meth:`RevolutionDeal.view` gives one seat
what it may know: never a card another seat drew face down, nor the card an exchange gave to
someone else. Search plays simulated hands on the same deal without checks or history
(:meth:`RevolutionDeal.apply_unchecked`, back to a saved state with
:meth:`RevolutionDeal.restore`), as it does the 52-card deal. This module has no clock, no
I/O and no global randomness.

The hand's values (phases, moves, actions, choices, views) are written in
:mod:`bigtwo.engine.revolution_types` and what a seat may do now (its choices and the
checks) in :mod:`bigtwo.engine.revolution_checks`; this module exports them all, and
snapshots name the values by it.

>>> from bigtwo.engine.rules import Rules
>>> from bigtwo.engine.revolution_cards import parse
>>> rules = Rules.preset("revolution")
>>> hand = RevolutionDeal(rules, ["3d 2s*", "4d", "5d", "6d"], deck=range(52, 103))
>>> hand.turn, str(hand.phase), [str(p) for p in hand.legal_plays()]
(0, 'act', ['3d'])
>>> [str(a) for a in (hand.activate(0, "2s*"), hand.decline(1), hand.decline(2), hand.decline(3))]
['0 activates 2s* (revolution)', '1 declines', '2 declines', '3 declines']
>>> hand.reversed, str(hand.phase), hand.turn
(True, 'act', 0)
>>> hand.play(1, "4d")
Traceback (most recent call last):
...
bigtwo.engine.errors.NotYourTurn: Not your turn: seat 0 is to play
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import NamedTuple

from .cards import CardIndex, CardSet, Mask, card_symbols
from .errors import IllegalAction
from .plays import Play, catalog_for
from .revolution_cards import NORMAL_CARDS, REVOLUTION_BASE, REVOLUTION_CARDS, card_symbol, ids
from .revolution_checks import FIRST_CHARACTER, RevolutionChecks, _cards_arg
from .revolution_rules import CHARACTER_RANKS, RevolutionRules
from .revolution_types import End, Pending, Phase, RevolutionChoice, RevolutionView
from .rules import Rules
from .trick import cards_dealt, deal_hands
from .views import Action, Move

GATHERING_SIZE = 4
DRAWS_PER_TURN = 2


class _Saved(NamedTuple):
    hands: tuple[int, ...]
    top: int
    gathering: tuple[int, ...]
    discards: int
    played: int
    turn: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    opening: int | None
    reversed: bool
    phase: Phase
    pending: Pending | None
    responder: int
    skips: int
    used: int
    drawn: int
    after_draw: int
    winner: int | None
    end: End | None
    locked: int = 0  # last: the states saved before pass_lock joined the expansion lack it


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """The Revolution deck shuffled: card ids 52..103, top card first."""
    deck = list(range(REVOLUTION_BASE, REVOLUTION_BASE + 52))
    rng.shuffle(deck)
    return tuple(deck)


# What :meth:`RevolutionDeal.saved_state` gives and :meth:`RevolutionDeal.restore` takes.
SavedState = _Saved
# The state's fields after the hands, the top of the deck and the Gathering: the deal's own
# attributes of those names, saved and restored as they are.
_SCALARS = _Saved._fields[3:]
_scalars = attrgetter(*_SCALARS)


class RevolutionDeal(RevolutionChecks):
    """The state of one hand of the expansion. Seats are 0..players-1 and act in increasing
    order; ``turn`` is the seat whose turn it is and ``to_act`` the seat whose answer is
    awaited now (another seat while the counter window is open)."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int | str | CardSet],
        *,
        deck: Iterable[int],
        leader: int | None = None,
    ) -> None:
        """Start a hand from the normal cards dealt (``hands``) and the Revolution deck's
        order (``deck``, top card first); the Gathering is revealed from its top. A known
        position (a test, a puzzle) may give hands Revolution cards too: the deck then holds
        the others."""
        masks = [_cards_arg(h) for h in hands]
        seen = cards_dealt(rules, masks, self.game)
        order = tuple(deck)
        if sorted(order + tuple(ids(seen & REVOLUTION_CARDS))) != list(
            range(REVOLUTION_BASE, REVOLUTION_BASE + 52)
        ):
            raise IllegalAction(
                "The Revolution deck must hold each Revolution card not in a hand, once"
            )
        self._start(rules, masks, order)
        self.aside = NORMAL_CARDS & ~seen
        self._seat_first(masks, leader)
        while len(self.gathering) < GATHERING_SIZE and self.top < len(self.deck):
            self.gathering.append(self.deck[self.top])
            self.top += 1

    @classmethod
    def from_seed(cls, rules: Rules, seed: int | str, players: int | None = None) -> RevolutionDeal:
        """A hand shuffled from a seed: the normal deck dealt, then the Revolution deck."""
        rng = random.Random(seed)
        hands = deal_hands(rules, players or rules.default_players, rng)
        return cls(rules, hands, deck=shuffled_deck(rng))

    def _start(self, rules: Rules, hands: list[int], deck: tuple[int, ...]) -> None:
        """The state of a hand before its first action, but the first player and the cards
        not dealt (every attribute set here first, in one order: instances share their keys)."""
        assert rules.revolution is not None  # (the rules were found to play the expansion)
        self.rules = rules
        self.options: RevolutionRules = rules.revolution
        self.cards = catalog_for(rules)
        self.players = len(hands)
        self.dealt: tuple[int, ...] = tuple(hands)
        self.aside = 0  # normal cards not dealt (fewer than four players)
        self.deck = deck
        self.hands: list[int] = list(hands)
        self.top = 0  # the next card of the deck to reveal or draw
        self.gathering: list[int] = []
        self.discards = 0
        self.played = 0
        self.actions: list[Action] = []
        # Each seat's history as it may see it (the spectator's last), kept as actions come.
        self._seen: list[list[Action]] = [[] for _ in range(len(hands) + 1)]
        self._saved: list[_Saved] = []
        self.to_beat: Play | None = None
        self.to_beat_seat = -1
        self.passes = 0
        self.locked = 0  # the seats a pass has locked out of the trick (pass_lock)
        self.reversed = False
        self.phase = Phase.ACT
        self.pending: Pending | None = None
        self.responder = -1
        self.turn = self.leader = 0  # the first player, set by the caller
        self.skips = 0
        self.used = 0
        self.drawn = 0
        self.after_draw = -1
        self.winner: int | None = None
        self.end: End | None = None
        self.opening: int | None = None
        self._plays: list[tuple[int, list[Play]] | None] = [None] * self.players
        self._function = {rank: self.options.function_of(rank) for rank in CHARACTER_RANKS}

    @classmethod
    def in_position(
        cls,
        view: RevolutionView,
        hands: Sequence[int],
        deck: Sequence[int],
        *,
        opening: int | None,
        give: int = -1,
    ) -> RevolutionDeal:
        """The hand in ``view``'s position with what the view hides filled in: every seat's
        cards (``hands``), the deck's cards below the Gathering (``deck``, top card first),
        the card the first play must include (``opening``: None once it is played, or when
        no card must be) and, in the counter window of an exchange, the card it gives
        (``give``). Nothing is checked and the hand has no history: the worlds of search."""
        rules = view.rules
        deal = cls.__new__(cls)
        deal._start(rules, list(hands), tuple(deck))
        held = 0
        for hand in hands:
            held |= hand
        deal.aside = NORMAL_CARDS & ~(held | view.played)
        deal.gathering = list(view.gathering)
        deal.discards, deal.played, deal.reversed = view.discards, view.played, view.reversed
        deal.leader, deal.turn, deal.phase = view.leader, view.turn, view.phase
        deal.to_beat, deal.to_beat_seat, deal.passes = view.to_beat, view.to_beat_seat, view.passes
        deal.locked = view.locked
        deal.skips, deal.used, deal.drawn = view.skips, view.functions_used, view.draws_taken
        deal.winner, deal.end, deal.opening = view.winner, view.end, opening
        if view.phase is Phase.DRAW:  # where the turn goes once the player stops drawing
            trick_over = view.to_beat is None
            deal.after_draw = view.to_beat_seat if trick_over else deal._next_in_trick(view.turn)
        if view.phase is Phase.COUNTER and view.pending is not None:
            by, function, card, target = view.pending
            deal.pending, deal.responder = Pending(by, function, card, target, give), view.to_act
        return deal

    # -- questions -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def deck_left(self) -> int:
        return len(self.deck) - self.top

    def normal_counts(self) -> list[int]:
        return [(h & NORMAL_CARDS).bit_count() for h in self.hands]

    def revolution_counts(self) -> list[int]:
        return [(h & REVOLUTION_CARDS).bit_count() for h in self.hands]

    def take(self, choice: RevolutionChoice) -> Action:
        """Apply one of :meth:`choices` (checked like any other action)."""
        seat, move = choice.seat, choice.move
        if move is Move.PLAY:
            return self.play(seat, choice.cards)
        if move is Move.PASS:
            return self.pass_(seat)
        if move is Move.ACTIVATE:
            card = choice.cards.bit_length() - 1
            if choice.target < 0:
                return self.activate(seat, card)
            return self.activate(seat, card, choice.target, choice.give)
        if move is Move.COUNTER:
            return self.counter(seat, choice.cards.bit_length() - 1)
        if move is Move.DECLINE:
            return self.decline(seat)
        if move is Move.DRAW:
            return self.draw(seat, choice.cards.bit_length() - 1 if choice.cards else "deck")
        if move is Move.STOP:
            return self.stop(seat)
        raise IllegalAction(f"{move} is not something a player chooses")

    def redo(self, action: Action) -> Action:
        """Apply again an action of a full record (one the players chose, not one the deal
        made by itself): the replay of records and of positions. A deck draw must find the
        card the record says on top of the deck."""
        if action.follows:
            raise IllegalAction(f"'{action}' is made by the deal itself")
        seat, move = action.seat, action.kind
        if move is Move.PASS:
            return self.pass_(seat, auto=action.auto)
        if move is Move.DRAW and action.source == "deck":
            card = action.cards.bit_length() - 1
            if self.top < len(self.deck) and self.deck[self.top] != card:
                top = card_symbol(self.deck[self.top])
                raise IllegalAction(f"The deck's top card is {top}, not {card_symbol(card)}")
            return self.draw(seat, "deck")
        give = action.given.bit_length() - 1 if action.given else -1
        return self.take(RevolutionChoice(seat, move, action.cards, action.target, give))

    # -- actions -----------------------------------------------------------------------------
    # Each action is checked (``verify_*``), saved for undo and applied by a method shared with
    # the unchecked fast path (``log``: whether it records its actions, the deal's own ones
    # too: the fast path records nothing).
    def activate(
        self, seat: int, card: int | str, target: int | None = None, give: int | str | None = None
    ) -> Action:
        """Discard a Character card for its function; the counter window opens."""
        pending = self.verify_activate(seat, card, target, give)
        self._save()
        self._activate(pending)
        return self._log(
            Action(
                seat,
                move=Move.ACTIVATE,
                cards=1 << pending.card,
                function=pending.function,
                target=pending.target,
                given=1 << pending.give if pending.give >= 0 else 0,
            )
        )

    def _activate(self, pending: Pending) -> None:
        self.hands[pending.seat] &= ~(1 << pending.card)
        self.discards |= 1 << pending.card
        self.used += 1
        self.pending = pending
        self.phase = Phase.COUNTER
        self.responder = (pending.seat + 1) % self.players

    def counter(self, seat: int, card: int | str) -> Action:
        """Discard a Revolution Q to cancel the function in the counter window."""
        c = self.verify_counter(seat, card)
        self._save()
        assert self.pending is not None
        function = self.pending.function
        self._counter(seat, c)
        return self._log(Action(seat, move=Move.COUNTER, cards=1 << c, function=function))

    def _counter(self, seat: int, card: int) -> None:
        self.hands[seat] &= ~(1 << card)
        self.discards |= 1 << card
        self._close_window()

    def decline(self, seat: int, *, auto: bool = False) -> Action:
        """Let the function stand; once every other seat has, it takes effect."""
        self.verify_decline(seat)
        self._save()
        action = self._log(Action(seat, auto=auto, move=Move.DECLINE))
        self._decline(seat, log=True)
        return action

    def _decline(self, seat: int, *, log: bool) -> None:
        nxt = (seat + 1) % self.players
        if self.pending is not None and nxt == self.pending.seat:
            self._take_effect(self.pending, log=log)
        else:
            self.responder = nxt

    def _close_window(self) -> None:
        assert self.pending is not None
        self.turn = self.pending.seat
        self.pending, self.responder, self.phase = None, -1, Phase.ACT

    def _take_effect(self, pending: Pending, *, log: bool) -> None:
        self._close_window()
        seat, function = pending.seat, pending.function
        cards, private = 0, 0
        if function == "jump":
            self.skips |= 1 << self.next_seat(seat)
        elif function == "command":
            self.to_beat, self.to_beat_seat, self.passes, self.locked = None, seat, 0, 0
        elif function == "exchange":
            self.hands[seat] &= ~(1 << pending.give)
            self.hands[pending.target] |= 1 << pending.give
            cards, private = 1 << pending.give, 1 << seat | 1 << pending.target
        elif function == "revolution":
            self.reversed = not self.reversed
        if log:
            self._log(
                Action(
                    seat,
                    move=Move.EFFECT,
                    cards=cards,
                    function=function,
                    target=pending.target,
                    private=private,
                    follows=True,
                    trick_over=function == "command",
                )
            )

    def play(self, seat: int, cards: int | str | Play) -> Action:
        """Play ``cards`` (normal and Revolution cards) for ``seat`` after checking them."""
        play = self.verify_play(seat, cards)
        self._save()
        return _logged(self._play(seat, play, log=True))

    def _play(self, seat: int, play: Play, *, log: bool) -> Action | None:
        mask = play.mask
        self.hands[seat] &= ~mask
        self.played |= mask
        self.to_beat, self.to_beat_seat, self.passes, self.opening = play, seat, 0, None
        self.used = 0
        out = not self.hands[seat] & NORMAL_CARDS
        nxt, trick_over = (seat, True) if out else self._after_play(seat)
        action = None
        if log:
            action = self._log(Action(seat, trick_over=trick_over, move=Move.PLAY, cards=mask))
        if out:
            self.winner, self.end, self.phase = seat, End.OUT, Phase.OVER
        else:
            self._give_turn(nxt, log=log)
        return action

    def pass_(self, seat: int, *, auto: bool = False) -> Action:
        """Pass for ``seat``; the player may then draw. An automatic pass (``auto``) draws
        as the rules' ``auto_draw`` says, and nothing else."""
        self.verify_pass(seat)
        self._save()
        return _logged(self._pass(seat, auto=auto, log=True))

    def _pass(self, seat: int, *, auto: bool, log: bool) -> Action | None:
        self.used = 0
        nxt, trick_over = self._after_pass(seat)
        action = None
        if log:
            action = self._log(Action(seat, auto=auto, trick_over=trick_over, move=Move.PASS))
        if self.top < len(self.deck) or self.gathering:
            self.phase, self.drawn, self.after_draw = Phase.DRAW, 0, nxt
            if auto:
                self._auto_draw(seat)
        else:
            self._give_turn(nxt, log=log)
        return action

    def _auto_draw(self, seat: int) -> None:
        if self.options.auto_draw == "two":
            while self.phase is Phase.DRAW and self.top < len(self.deck):
                self._draw(seat, -1, follows=True, log=True)
        if self.phase is Phase.DRAW:
            self._stop(seat, follows=True, log=True)

    def _give_turn(self, seat: int, *, log: bool) -> None:
        """The turn passes to ``seat``, or past it while jumped seats lose theirs: a lost
        turn counts as a pass (under ``pass_lock`` it locks the seat out of the trick)."""
        self.phase, self.drawn, self.after_draw, self.used = Phase.ACT, 0, -1, 0
        while self.skips >> seat & 1:
            self.skips &= ~(1 << seat)
            if self.to_beat is None:  # a jumped leader loses the lead to the next player
                nxt, over = self.next_seat(seat), False
            else:
                nxt, over = self._after_pass(seat)
            if log:
                self._log(Action(seat, auto=True, trick_over=over, move=Move.SKIP, follows=True))
            seat = nxt
        self.turn = seat

    def draw(self, seat: int, source: int | str) -> Action:
        """Take one card after passing: ``deck`` (face down) or a card of the Gathering."""
        card = self.verify_draw(seat, source)
        self._save()
        return _logged(self._draw(seat, card, follows=False, log=True))

    def _draw(self, seat: int, card: int, *, follows: bool, log: bool) -> Action | None:
        deck, gathering = self.deck, self.gathering
        if card < 0:
            card = deck[self.top]
            self.top += 1
            source, private, character = "deck", 1 << seat, False
        else:
            gathering.remove(card)
            source, private, character = "gathering", 0, card >= FIRST_CHARACTER
        self.hands[seat] |= 1 << card
        self.drawn += 1
        action = None
        if log:
            action = self._log(
                Action(
                    seat,
                    move=Move.DRAW,
                    cards=1 << card,
                    source=source,
                    private=private,
                    follows=follows,
                )
            )
        revealed = 0  # the Gathering filled again from the deck
        while len(gathering) < GATHERING_SIZE and self.top < len(deck):
            gathering.append(deck[self.top])
            revealed |= 1 << deck[self.top]
            self.top += 1
        if revealed and log:
            self._log(Action(-1, move=Move.REVEAL, cards=revealed, follows=True))
        if self.top >= len(deck):
            self._exhausted()
        elif character or self.drawn >= DRAWS_PER_TURN:  # (the deck is never empty here)
            self._give_turn(self.after_draw, log=log)
        return action

    def stop(self, seat: int) -> Action:
        """Draw no more (a player who passed need not draw at all)."""
        self.verify_stop(seat)
        self._save()
        return _logged(self._stop(seat, follows=False, log=True))

    def _stop(self, seat: int, *, follows: bool, log: bool) -> Action | None:
        action = None
        if log:
            action = self._log(Action(seat, move=Move.STOP, follows=follows))
        self._give_turn(self.after_draw, log=log)
        return action

    def _exhausted(self) -> None:
        counts = self.normal_counts()
        fewest = min(counts)
        seat = self.leader
        while counts[seat] != fewest:
            seat = self.next_seat(seat)
        self.winner, self.end, self.phase = seat, End.EXHAUSTION, Phase.OVER

    # -- the fast path of search ---------------------------------------------------------------
    def apply_unchecked(self, choice: RevolutionChoice) -> None:
        """Apply one of :meth:`choices` without checking it, saving it for :meth:`undo` or
        recording it (nor what the deal does by itself after it): the fast path of the
        search's simulated hands, as :meth:`Deal.apply_unchecked <bigtwo.engine.deal.Deal.
        apply_unchecked>` is the 52-card one. The state is the one :meth:`take` reaches; the
        history and the views no longer show it, so such a hand is taken back to a state
        saved before with :meth:`restore`, not undone."""
        seat, move, cards, target, give = choice
        if move is Move.PLAY:
            play = self.cards.classify(cards)
            assert play is not None
            self._play(seat, play, log=False)
        elif move is Move.PASS:
            self._pass(seat, auto=False, log=False)
        elif move is Move.DRAW:
            self._draw(seat, cards.bit_length() - 1 if cards else -1, follows=False, log=False)
        elif move is Move.DECLINE:
            self._decline(seat, log=False)
        elif move is Move.STOP:
            self._stop(seat, follows=False, log=False)
        elif move is Move.ACTIVATE:
            card = cards.bit_length() - 1
            self._activate(Pending(seat, self.function_of(card), card, target, give))
        elif move is Move.COUNTER:
            self._counter(seat, cards.bit_length() - 1)

    def saved_state(self) -> SavedState:
        """The hand's state now (all of it but the history), for :meth:`restore`."""
        return self._state()

    def restore(self, state: SavedState) -> None:
        """Put the hand back in a state :meth:`saved_state` gave (the search's simulated
        hands, after :meth:`apply_unchecked`); the history and undo are left as they are."""
        self.hands, self.top, self.gathering = list(state.hands), state.top, list(state.gathering)
        for name, value in zip(_SCALARS, state[3:], strict=True):
            setattr(self, name, value)

    def _log(self, action: Action) -> Action:
        self.actions.append(action)
        seen = self._seen
        for seat in range(self.players):
            seen[seat].append(action.seen_by(seat))
        seen[-1].append(action.seen_by(None))
        return action

    def _save(self) -> None:
        self._saved.append(self._state())

    def _state(self) -> _Saved:
        """What an undo restores: the hand's whole state but its list of actions."""
        return _Saved(tuple(self.hands), self.top, tuple(self.gathering), *_scalars(self))

    def undo(self) -> Action:
        """Take back the last action (with what the deal did by itself after it)."""
        if not self._saved:
            raise IllegalAction("Nothing to undo")
        while self.actions[-1].follows:
            self.actions.pop()
        action = self.actions.pop()
        for history in self._seen:
            del history[len(self.actions) :]
        self.restore(self._saved.pop())
        return action

    def state_key(self) -> tuple[object, ...]:
        """Everything the hand's future depends on, for tests of undo and replay."""
        return (*self._state(), tuple(self.actions))

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: int | None) -> RevolutionView:
        """What ``seat`` may know (None: a spectator, who holds no hand): its own cards, the
        public cards and counts, and the history with every card it may not see hidden."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat}")
        own = 0 if seat is None else self.hands[seat]
        opening = self.opening if self.opening is not None and own >> self.opening & 1 else None
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = (p.seat, p.function, p.card, p.target)
        acting = seat is not None and seat == self.turn and self.phase is Phase.ACT
        legal = self.legal_plays(seat) if acting else []
        return RevolutionView(
            seat=seat,
            rules=self.rules,
            hand=Mask(own),
            counts=tuple(self.normal_counts()),
            revolution_counts=tuple(self.revolution_counts()),
            gathering=tuple(self.gathering),
            deck_left=self.deck_left,
            discards=self.discards,
            played=Mask(self.played),
            reversed=self.reversed,
            turn=self.turn,
            to_act=self.to_act,
            phase=self.phase,
            leader=self.leader,
            to_beat=self.to_beat,
            to_beat_seat=self.to_beat_seat,
            passes=self.passes,
            locked=self.locked,
            skips=self.skips,
            pending=pending,
            functions_used=self.used,
            draws_taken=self.drawn,
            opening=None if opening is None else CardIndex(opening),
            actions=tuple(self._history(seat)),
            winner=self.winner,
            end=self.end,
            legal=tuple(legal),
            can_pass=acting and self.can_pass(seat),
            choices=(
                tuple(self._choices(legal if acting else None))
                if seat is not None and seat == self.to_act
                else ()
            ),
        )

    def _history(self, seat: int | None) -> list[Action]:
        """The actions as ``seat`` sees them (None: a spectator): what its view shows."""
        return self._seen[-1 if seat is None else seat]

    # -- invariants ----------------------------------------------------------------------------
    def problems(self, since: int = 0) -> list[str]:
        """What is wrong with the state, in words (nothing, unless the engine has a bug): the
        104 cards each in exactly one place, no seat locked out of a trick holding the turn
        or outliving it, and no seat's view showing a hidden card (in
        the history its view shows, from action ``since`` on: a fuzz run checks each action
        once)."""
        out: list[str] = []
        places = [*self.hands, self.aside, self.played, self.discards, _mask(self.gathering)]
        places.append(_mask(self.deck[self.top :]))
        seen = 0
        for place in places:
            if place & seen:
                out.append(f"{card_symbols(Mask(place & seen))} in two places")
            seen |= place
        if seen != (1 << 104) - 1:
            out.append(f"{card_symbols(Mask(((1 << 104) - 1) & ~seen))} nowhere")
        if len(self.gathering) < GATHERING_SIZE and self.top < len(self.deck):
            out.append("the Gathering is not full while the deck holds cards")
        if self.locked and (self.to_beat is None or not self.rules.pass_lock):
            out.append("seats are locked out of no trick")
        if self.phase is Phase.ACT and self.locked >> self.turn & 1:
            out.append(f"seat {self.turn} holds the turn while locked out of the trick")
        for seat in range(self.players):
            for action in self._history(seat)[since:]:
                if action.private and not action.private >> seat & 1 and action.cards:
                    out.append(f"seat {seat} sees a card private to others: {action}")
                if action.given and action.seat != seat:
                    out.append(f"seat {seat} sees the card another's exchange would give")
        return out


def _logged(action: Action | None) -> Action:
    assert action is not None  # a checked action is recorded
    return action


def _mask(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


__all__ = [
    "RevolutionChoice",
    "End",
    "Move",
    "Phase",
    "RevolutionDeal",
    "RevolutionView",
    "shuffled_deck",
]
