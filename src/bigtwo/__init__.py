"""bigtwo: the card game Big Two (Choi Dai Di, Pusoy Dos) with faithful rules, fair computer
players, terminal and browser play and a game server.

>>> from bigtwo import Rules, parse_cards, classify, beats, legal_plays
>>> rules = Rules.preset("palm")
>>> play = classify(parse_cards("3d 4c 5h 6s 7d"), rules)
>>> play.kind.value, str(play)
('straight', '3d 4c 5h 6s 7d')
>>> beats(parse_cards("3d 4c 5h 6s 7s"), parse_cards("3s 4s 5s 6d 7h"), rules)
True
>>> [str(p) for p in legal_plays(parse_cards("3d 3c 5h 9s 2s"), rules, to_beat=parse_cards("4d"))]
['5h', '9s', '2s']
"""

from .engine import (
    CARDS,
    Action,
    BigTwoError,
    Card,
    CardSet,
    Deal,
    IllegalAction,
    Kind,
    NotationError,
    Play,
    Rules,
    RulesError,
    SeatView,
    beats,
    classify,
    legal_plays,
    parse_cards,
    preset_names,
)

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "Action",
    "BigTwoError",
    "Card",
    "CardSet",
    "Deal",
    "IllegalAction",
    "Kind",
    "NotationError",
    "Play",
    "Rules",
    "RulesError",
    "SeatView",
    "beats",
    "classify",
    "legal_plays",
    "parse_cards",
    "preset_names",
]
