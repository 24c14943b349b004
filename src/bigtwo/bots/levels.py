"""The computer players' levels in a player's words: a name anyone understands, and what the
level does, beside the code name that options, files and the server use.

Pure data, importing no player, so the terminal game's forms and ``bigtwo bots`` can show
levels without loading them (some need numpy). A level missing here (a newer one) is shown
by its code name alone.

>>> level_label("strong"), level_label("someday")
('Hard (strong)', 'someday')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Level(NamedTuple):
    name: str  # what a player calls it
    says: str  # what it does, in a sentence


LEVELS: dict[str, Level] = {
    "random": Level("Beginner", "Plays any legal cards at random, and passes at random."),
    "greedy": Level("Easy", "Always plays its cheapest cards that beat the table."),
    "classic": Level(
        "Palm, sees every hand",
        "Plays as the Palm game's computers did, and like them it sees every hand.",
    ),
    "classic-fair": Level(
        "Palm, fair", "Plays as the Palm game's computers, seeing only its own cards."
    ),
    "strong": Level("Hard", "Plans how to empty its hand in the fewest plays, and keeps to it."),
    "expert": Level(
        "Expert", "Thinks ahead, playing out many ways the unseen cards could lie (slower)."
    ),
    "ppo2018": Level("Learned", "A neural network trained by playing itself (Charlesworth, 2018)."),
    "ppo2018-greedy": Level("Learned, steady", "The same network, always making its first choice."),
    "learned": Level(
        "Self-taught",
        "bigtwo's own neural network, trained against itself and the Hard players; it answers at once.",
    ),
    "guided": Level(
        "Expert, guided",
        "Thinks ahead as the expert does, judging each outcome with bigtwo's own network (slower).",
    ),
}


# The levels from the weakest to the strongest, as the arena measured them (README, "Computer
# players in the arena"): the order a player is offered them in.
BY_STRENGTH = (
    "random",
    "greedy",
    "classic-fair",
    "classic",
    "strong",
    "learned",
    "expert",
    "guided",
    "ppo2018-greedy",
    "ppo2018",
)


def by_strength(codes: Iterable[str]) -> list[str]:
    """Levels from the weakest to the strongest; any not measured (a newer one) last, by name.

    >>> by_strength(["expert", "zany", "greedy", "strong"])
    ['greedy', 'strong', 'expert', 'zany']
    """
    known = {code: i for i, code in enumerate(BY_STRENGTH)}
    return sorted(codes, key=lambda c: (known.get(c, len(known)), c))


def level_label(code: str) -> str:
    """``Hard (strong)``: the player's name for a level with its code name beside it."""
    level = LEVELS.get(code)
    return f"{level.name} ({code})" if level is not None else code


def level_says(code: str) -> str:
    """What a level does, in a sentence ("" for a level not described here)."""
    level = LEVELS.get(code)
    return level.says if level is not None else ""
