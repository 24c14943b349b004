"""What a seat may believe of the other hands, as data: a chance, one opponent's chances and
every opponent's (:func:`~bigtwo.coach.beliefs.beliefs_of` works them out for both games)."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Chance:
    """A probability; ``exact``: counted, else estimated from sampled worlds with standard
    error ``se``."""

    p: float
    se: float = 0.0
    exact: bool = True

    @classmethod
    def sampled(cls, hits: int, worlds: int) -> Chance:
        """The share of ``worlds`` sampled worlds that were ``hits``, with its standard error."""
        p = hits / worlds
        return cls(p, math.sqrt(p * (1 - p) / worlds), exact=False)

    @property
    def method(self) -> str:
        return "exact" if self.exact else "sampled"


@dataclass(frozen=True, slots=True)
class SeatBeliefs:
    """One opponent's hand as a seat may believe it. ``beats_single`` is None when the
    table holds no single; ``pair``, ``triple``, ``five``: a play of that kind, one beating
    the table's when the table holds a play of that kind (see :attr:`Beliefs.beating`).
    ``cards``: its count (of normal cards in Big 2 RevolutioN, where ``starred`` is its count
    of Revolution cards; None in the 52-card game)."""

    seat: int
    cards: int
    two: Chance
    ace: Chance
    beats_single: Chance | None
    pair: Chance
    triple: Chance
    five: Chance
    starred: int | None = None

    def chances(self) -> dict[str, Chance | None]:
        """The chances by name, in the order above."""
        return {
            "two": self.two,
            "ace": self.ace,
            "beats_single": self.beats_single,
            "pair": self.pair,
            "triple": self.triple,
            "five": self.five,
        }


@dataclass(frozen=True, slots=True)
class Beliefs:
    """What ``seat`` may believe of every opponent: ``proofs`` counts the passes that proved
    something, ``worlds`` the worlds sampled; ``beating``: the number of cards of the play on
    the table (0: none), so a pair's chance is of one that beats it when it is 2."""

    seat: int
    proofs: int
    worlds: int
    opponents: tuple[SeatBeliefs, ...]
    beating: int = 0

    def of(self, seat: int) -> SeatBeliefs:
        for beliefs in self.opponents:
            if beliefs.seat == seat:
                return beliefs
        raise KeyError(f"seat {seat} is not an opponent of seat {self.seat}")
