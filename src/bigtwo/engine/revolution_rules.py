"""The options of the Big 2 RevolutioN expansion, as data.

A rule set plays the expansion when its ``revolution`` option holds a
:class:`RevolutionRules` (a ``[revolution]`` table in a preset or house-rules file). The table
holds every option of the expansion in one place, so that ``bigtwo rules show`` prints them
together and a house rule changes any of them: what each Character card does and how many
functions a turn allows (read by the deal), what an automatic pass draws (the deal), how a
hand ended by exhaustion is scored and whether Revolution cards left cost anything (the
match's scoring) and the counter window's clock (the table service; the engine has no clock
and only carries it). This module only says what the options are and refuses bad ones in
words; it does not play.

>>> RevolutionRules().function_of("K")
'command'
>>> RevolutionRules.from_mapping({"functions": {"K": "jump"}}).function_of("K")
'jump'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import RANKS
from .errors import RulesError
from .revolution_cards import REVOLUTION_BASE, twin_rank

CHARACTER_RANKS = ("J", "Q", "K", "A", "2")
"""The ranks whose Revolution cards are Character cards; 3 to 10 are Civilian cards."""
FUNCTIONS = ("jump", "counter", "command", "exchange", "revolution", "none")
"""What a Character card may do; ``none`` makes it a card with no function."""
AUTO_DRAWS = ("none", "two")
EXHAUSTIONS = ("fewest_free", "all_pay")
DEFAULT_FUNCTIONS = (
    ("J", "jump"),
    ("Q", "counter"),
    ("K", "command"),
    ("A", "exchange"),
    ("2", "revolution"),
)


@dataclass(frozen=True, slots=True)
class RevolutionRules:
    """Every option of the expansion, with bigtwo's defaults.

    - ``functions_per_turn``: how many Character functions a player may activate in one turn
      (0: no limit).
    - ``functions``: what each Character rank does, ``(rank, function)`` for J, Q, K, A and 2.
    - ``auto_draw``: what an automatic pass (autopass, a computer taking over, a turn timer)
      draws: ``none``, or ``two`` cards from the deck.
    - ``exhaustion``: when the Revolution deck runs out, ``fewest_free`` lets the players with
      the fewest normal cards pay nothing, ``all_pay`` makes everyone pay.
    - ``revolution_cards_count``: whether Revolution cards left in hand cost points like
      normal cards at the end of a hand.
    - ``counter_seconds``: how long every other seat has to answer a counter prompt in
      network play.
    """

    functions_per_turn: int = 0
    functions: tuple[tuple[str, str], ...] = DEFAULT_FUNCTIONS
    auto_draw: str = "none"
    exhaustion: str = "fewest_free"
    revolution_cards_count: bool = False
    counter_seconds: int = 5

    def __post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise RulesError.listing("the revolution options", problems)

    def function_of(self, rank: str) -> str:
        """The function of the Revolution card of ``rank`` (``none`` for a Civilian card)."""
        for r, function in self.functions:
            if r == rank:
                return function
        return "none"

    def card_function(self, card: int) -> str:
        """The function of the card ``card`` (an id of the 104), ``none`` for a normal card."""
        return "none" if card < REVOLUTION_BASE else self.function_of(RANKS[twin_rank(card)])

    @staticmethod
    def from_mapping(
        data: Mapping[str, Any], base: RevolutionRules | None = None
    ) -> RevolutionRules:
        """Options from plain data (a ``[revolution]`` table) over ``base`` (the defaults)."""
        start = base or RevolutionRules()
        if not isinstance(data, Mapping):
            raise RulesError(
                "option 'revolution' must be a table, like [revolution] functions_per_turn = 1"
            )
        known = {f.name: f for f in dataclasses.fields(RevolutionRules)}
        problems: list[str] = []
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                problems.append(
                    f"unknown revolution option '{key}' (known: {', '.join(sorted(known))})"
                )
                continue
            current = getattr(start, key)
            where = f"revolution option '{key}'"
            if key == "functions":
                if not isinstance(value, Mapping):
                    problems.append(f"{where} must map ranks to functions, like {{K = 'jump'}}")
                    continue
                merged = dict(current)
                for rank, function in value.items():
                    merged[str(rank).upper()] = function
                changes[key] = tuple(sorted(merged.items(), key=_rank_order))
            elif isinstance(current, bool):
                if not isinstance(value, bool):
                    problems.append(f"{where} must be true or false")
                else:
                    changes[key] = value
            elif isinstance(current, int):
                if isinstance(value, bool) or not isinstance(value, int):
                    problems.append(f"{where} must be a whole number")
                else:
                    changes[key] = value
            elif not isinstance(value, str):
                problems.append(f"{where} must be text")
            else:
                changes[key] = value
        if not problems:
            candidate = {f: getattr(start, f) for f in known} | changes
            problems = _problems(_Fields(candidate))
        if problems:
            raise RulesError.listing("the revolution options", problems)
        return dataclasses.replace(start, **changes)

    def to_mapping(self) -> dict[str, Any]:
        """Every option as plain data (a TOML ``[revolution]`` table)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = dict(value) if f.name == "functions" else value
        return out


class _Fields:
    """Options not yet made into a value, read the way :func:`_problems` reads a value."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.__dict__.update(values)


def _rank_order(item: tuple[str, str]) -> int:
    rank = item[0]
    return CHARACTER_RANKS.index(rank) if rank in CHARACTER_RANKS else len(CHARACTER_RANKS)


def _problems(options: Any) -> list[str]:
    out: list[str] = []
    if options.functions_per_turn < 0:
        out.append("functions_per_turn must be 0 (no limit) or more")
    ranks = [rank for rank, _ in options.functions]
    for rank, function in options.functions:
        if rank not in CHARACTER_RANKS:
            out.append(
                f"'{rank}' is not a Character rank: only {', '.join(CHARACTER_RANKS)} have functions"
            )
        if function not in FUNCTIONS:
            out.append(
                f"'{function}' is not a function (functions: {', '.join(FUNCTIONS)}) for {rank}"
            )
    if sorted(ranks, key=lambda r: (r not in CHARACTER_RANKS, r)) != sorted(
        set(ranks), key=lambda r: (r not in CHARACTER_RANKS, r)
    ):
        out.append("functions names a rank twice")
    if options.auto_draw not in AUTO_DRAWS:
        out.append(f"auto_draw must be one of {', '.join(AUTO_DRAWS)}, not '{options.auto_draw}'")
    if options.exhaustion not in EXHAUSTIONS:
        out.append(
            f"exhaustion must be one of {', '.join(EXHAUSTIONS)}, not '{options.exhaustion}'"
        )
    if options.counter_seconds < 1:
        out.append("counter_seconds must be at least 1")
    return out
