"""Computer players for Big 2 RevolutioN at every level: ``random``, ``greedy``, ``classic``,
``strong`` here and ``expert`` in :mod:`.revolution_expert`, each registered as a level of
the ``revolution`` game.

A revolution bot reads one seat's :class:`~bigtwo.engine.revolution.RevolutionView` (never a
hidden card) and returns one of its ``choices``: a play, a pass, a function, a counter or a
decline, a draw or a stop. ``random`` picks a kind of action at random, then one of that kind
(so an exchange, with its many targets and cards, is no likelier than a pass). ``greedy``
sheds normal cards as cheaply as it can and uses each decision in the plain way: exchange its
worst normal card to the player with the fewest cards, command when it cannot beat the table,
jump a next player about to go out, revolution when its hand is low, counter what hurts it,
take a Character from the Gathering, and draw from the deck only when an early end by
exhaustion would favour it. ``strong`` decides functions, counters and draws as ``greedy``
does, and chooses its plays by a plan of its normal cards. ``classic`` keeps the Palm-era
player's simple rules (:class:`ClassicRevolutionBot`); ``expert`` searches. Deterministic
for a given ``random.Random``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..engine.cards import Mask
from ..engine.plays import catalog_for
from ..engine.revolution import Move, RevolutionChoice, RevolutionView
from ..engine.revolution_cards import (
    NORMAL_CARDS,
    ids,
    twin_rank,
)
from ..engine.rules import REVOLUTION
from . import register_bot
from .strong import planner_for


class RevolutionBot(ABC):
    """Base of every revolution player: the hooks a :class:`~.seat.ComputerSeat` calls on
    any player (none of these players peeks, plans across decisions or treats people apart)."""

    name = "bot"
    peeks = False

    @abstractmethod
    def choose(self, view: RevolutionView, rng: random.Random) -> RevolutionChoice:
        """One of ``view.choices`` (the view is that of the seat whose answer is awaited)."""

    def new_deal(self, seat: int) -> None:  # noqa: B027 - an optional hook
        """Called when a hand starts."""

    def tell_humans(self, seats: frozenset[int]) -> None:  # noqa: B027 - an optional hook
        """Which seats people play (public)."""


class RandomRevolutionBot(RevolutionBot):
    """A kind of action at random, then one of that kind at random."""

    name = "random"

    def choose(self, view: RevolutionView, rng: random.Random) -> RevolutionChoice:
        by_move: dict[Move, list[RevolutionChoice]] = {}
        for choice in view.choices:
            by_move.setdefault(choice.move, []).append(choice)
        kinds = list(by_move)
        return rng.choice(by_move[kinds[rng.randrange(len(kinds))]])


class GreedyRevolutionBot(RevolutionBot):
    """Plain heuristics for every decision of the expansion (see the module's text)."""

    name = "greedy"

    def choose(self, view: RevolutionView, rng: random.Random) -> RevolutionChoice:
        choices = view.choices
        seat = view.seat
        assert seat is not None
        by_move: dict[Move, list[RevolutionChoice]] = {}
        for choice in choices:
            by_move.setdefault(choice.move, []).append(choice)
        if Move.DECLINE in by_move:
            return self._answer(view, by_move)
        if Move.STOP in by_move:
            return self._draw(view, by_move)
        activation = self._function(view, by_move)
        if activation is not None:
            return activation
        return self._play(view, by_move)

    def _play(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice:
        plays = by_move.get(Move.PLAY, [])
        if plays:
            # the cheapest play that sheds a normal card; Revolution cards do not win a hand
            shedding = [c for c in plays if c.cards & NORMAL_CARDS]
            return (shedding or plays)[0]
        return by_move[Move.PASS][0]

    def _answer(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice:
        counters = by_move.get(Move.COUNTER)
        if counters and view.pending is not None and self._hurts(view, *view.pending):
            return counters[0]
        return by_move[Move.DECLINE][0]

    def _hurts(self, view: RevolutionView, by: int, function: str, _card: int, target: int) -> bool:
        """Whether a function pending in the counter window is worth a counter."""
        seat = view.seat
        close = view.counts[by] <= 3
        return (
            (function == "jump" and (by + 1) % view.players == seat)
            or (function == "exchange" and (target == seat or close))
            or (function == "command" and close)
            or (function == "revolution" and mostly_low(view.hand) == view.reversed)
        )

    def _draw(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice:
        draws = by_move.get(Move.DRAW, [])
        characters = [
            c for c in draws if c.cards and twin_rank(c.cards.bit_length() - 1) >= 8
        ]  # J and above: a Character of the Gathering
        if characters and view.draws_taken == 0:
            return characters[0]
        seat = view.seat
        assert seat is not None
        mine = view.counts[seat]
        if mine <= min(view.counts):
            deck = [c for c in draws if not c.cards]
            if deck:
                return deck[0]  # hurry the end by exhaustion while it favours this seat
        return by_move[Move.STOP][0]

    def _function(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice | None:
        activations = by_move.get(Move.ACTIVATE, [])
        if not activations:
            return None
        seat = view.seat
        assert seat is not None
        counts = view.counts
        nxt = (seat + 1) % view.players
        functions: dict[str, list[RevolutionChoice]] = {}
        for choice in activations:
            card = choice.cards.bit_length() - 1
            name = view.function_of(card)
            functions.setdefault(name, []).append(choice)
        if "exchange" in functions:
            worst = self._worst(view)
            others = [s for s in range(view.players) if s != seat]
            target = min(others, key=lambda s: (counts[s], s))
            for choice in functions["exchange"]:
                if choice.target == target and choice.give == worst:
                    return choice
        if "jump" in functions and counts[nxt] <= 2:
            return functions["jump"][0]
        if "command" in functions and not by_move.get(Move.PLAY):
            return functions["command"][0]
        if "revolution" in functions and mostly_low(view.hand) != view.reversed:
            return functions["revolution"][0]
        return None

    def _worst(self, view: RevolutionView) -> int:
        """The normal card this seat would most like to be rid of: its lowest (its highest
        when the order is reversed), never the card the first play must include."""
        cards = [c for c in ids(view.hand & NORMAL_CARDS) if c != view.opening]
        if not cards:
            return -1
        return max(cards) if view.reversed else min(cards)


class StrongRevolutionBot(GreedyRevolutionBot):
    """``greedy``'s functions, counters and draws, with plays chosen by a plan: the normal
    cards are split into the fewest plays (the 52-card ``strong`` player's
    :class:`~bigtwo.bots.strong.Planner`), and of its legal plays it makes the one that
    leaves the cheapest plan, leading or following (holding back a play it could make lost
    to ``greedy`` in measurement: a pass gives the others the trick). Revolution cards cost
    nothing at the end, so a play's Revolution cards count against it: a Civilian a little, a
    Character (whose function is lost) more."""

    name = "strong"

    def _play(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice:
        plays = by_move.get(Move.PLAY, [])
        if not plays:
            return by_move[Move.PASS][0]
        planner = planner_for(view.rules)
        normal = view.hand & NORMAL_CARDS

        def cost(choice: RevolutionChoice) -> float:
            stars = ids(choice.cards & ~NORMAL_CARDS)
            spent = sum(_CHARACTER_USE if twin_rank(c) >= 8 else _CIVILIAN_USE for c in stars)
            # the normal cards, ids 0 to 51, are a 52-card hand as they are
            return planner.cost(Mask(normal & ~choice.cards)) + spent

        return min(plays, key=cost)  # min keeps the first (cheapest) of equal plans


class ClassicRevolutionBot(GreedyRevolutionBot):
    """The Palm-era player's simple rules, carried to the expansion. Leading, it plays the
    longest play that holds its lowest normal card; following, the cheapest reply of normal
    cards it has (Revolution cards only when nothing else answers), and against a player on
    one card the strongest single. Of the functions it uses the two plain ones: a command
    when it cannot beat the table, a jump when the next player is on one card. It counters
    only a function aimed at it (a jump that skips it, an exchange that gives it a card), and
    after a pass takes a Character from the Gathering when one is there, else nothing."""

    name = "classic"

    def _function(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice | None:
        seat = view.seat
        assert seat is not None
        nxt = (seat + 1) % view.players
        for choice in by_move.get(Move.ACTIVATE, []):
            function = view.function_of(choice.cards.bit_length() - 1)
            if function == "command" and not by_move.get(Move.PLAY):
                return choice
            if function == "jump" and view.counts[nxt] == 1:
                return choice
        return None

    def _hurts(self, view: RevolutionView, by: int, function: str, _card: int, target: int) -> bool:
        """Only a function aimed at this seat is worth a counter."""
        return (function == "jump" and (by + 1) % view.players == view.seat) or (
            function == "exchange" and target == view.seat
        )

    def _draw(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice:
        if view.draws_taken == 0:
            for choice in by_move.get(Move.DRAW, []):
                if choice.cards and twin_rank(choice.cards.bit_length() - 1) >= 8:
                    return choice
        return by_move[Move.STOP][0]

    def _play(
        self, view: RevolutionView, by_move: dict[Move, list[RevolutionChoice]]
    ) -> RevolutionChoice:
        plays = by_move.get(Move.PLAY, [])
        if not plays:
            return by_move[Move.PASS][0]
        normal_only = [c for c in plays if not c.cards & ~NORMAL_CARDS]
        pool = normal_only or [c for c in plays if c.cards & NORMAL_CARDS] or plays
        catalog = catalog_for(view.rules)
        sign = -1 if view.reversed else 1

        def power(choice: RevolutionChoice) -> int:
            play = catalog.classify(choice.cards)
            return sign * play.power if play is not None else 0

        seat = view.seat
        assert seat is not None
        if view.to_beat is None:
            normal = ids(view.hand & NORMAL_CARDS)
            if not normal:
                return pool[0]
            card_power = catalog.card_power
            low = min(normal, key=lambda c: sign * card_power[c])
            holding = [c for c in pool if c.cards >> low & 1] or pool
            return max(holding, key=lambda c: (c.cards.bit_count(), -power(c)))
        others = [view.counts[s] for s in range(view.players) if s != seat]
        if view.to_beat.size == 1 and min(others) == 1:
            return max(pool, key=power)
        return min(pool, key=power)


def mostly_low(hand: int) -> bool:
    """Whether a hand's normal cards are mostly low (below 9 on average)."""
    ranks = [twin_rank(c) for c in ids(hand & NORMAL_CARDS)]
    return bool(ranks) and sum(ranks) / len(ranks) < 6


# What a Revolution card in a play costs the plan.
_CIVILIAN_USE = 0.1
_CHARACTER_USE = 0.5


for _name, _factory in (
    ("random", RandomRevolutionBot),
    ("greedy", GreedyRevolutionBot),
    ("classic", ClassicRevolutionBot),
    ("strong", StrongRevolutionBot),
):
    register_bot(_name, _factory, game=REVOLUTION)
