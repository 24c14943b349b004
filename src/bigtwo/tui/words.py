"""Player-facing phrasing: a player's name as the subject of a sentence, and counted nouns.

The default name of the person at the table is "You", so a sentence built as ``{name} takes
the trick`` would read "You takes the trick". Every sentence about a player goes through
:func:`does`, :func:`whose` and :func:`whom`, which speak to "You" in the second person, and
every count through :func:`count`, so "1 card" is never "1 cards". Pure text; nothing drawn.

>>> does("You", "takes the trick", "take the trick"), does("Ann", "takes the trick", "")
('You take the trick', 'Ann takes the trick')
>>> whose("You"), whose("Ann"), whom("You"), count(1, "card"), count(10, "deal")
('your', "Ann's", 'you', '1 card', '10 deals')
"""

from __future__ import annotations

import re


def is_you(name: str) -> bool:
    """Whether a seat's name is the second-person "You" (any capitals, spaces around)."""
    return name.strip().lower() == "you"


def does(name: str, third: str, second: str) -> str:
    """``name`` doing something: ``third`` after a name (``"takes"``), ``second`` after "You"
    (``"take"``)."""
    return f"You {second}" if is_you(name) else f"{name} {third}"


def whose(name: str, *, capital: bool = False) -> str:
    """The possessive of a name: "Ann's", or "your" ("Your" with ``capital``) for "You"."""
    if is_you(name):
        return "Your" if capital else "your"
    return f"{name}'s"


def whom(name: str) -> str:
    """A name as the object of a sentence: "you" for "You", else the name."""
    return "you" if is_you(name) else name


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` things with the noun in the right number: "1 card", "13 cards"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


_YOU_DO = re.compile(r"^(\s*)You (plays|passes|draws|activates|counters|does not|loses|had|went)\b")
_SECOND = {"plays": "play", "passes": "pass", "draws": "draw", "activates": "activate",
           "counters": "counter", "does not": "do not", "loses": "lose", "had": "had",
           "went": "went"}  # fmt: skip


def second_person(line: str) -> str:
    """A line of the history about the person called "You" in the second person."""
    line = _YOU_DO.sub(lambda m: f"{m.group(1)}You {_SECOND[m.group(2)]}", line)
    return line.replace("You's ", "Your ")
