"""The Big Two engine: cards, rules as data, plays, legal moves, the deal and seat views, in
pure Python with no I/O, no clock and no global random state; everything above it (bots,
matches, front ends, the server) builds on these names.
"""

from .cards import (
    CARDS,
    Card,
    CardIndex,
    CardSet,
    Mask,
    card_symbols,
    card_text,
    parse_cards,
    to_mask,
)
from .deal import Deal, deal_hands, opening_of
from .errors import (
    BigTwoError,
    CannotPass,
    DealOver,
    DoesNotBeat,
    IllegalAction,
    MustInclude,
    NotACombination,
    NotationError,
    NotYourCards,
    NotYourTurn,
    RulesError,
)
from .movegen import HandPlays, legal_plays
from .plays import Catalog, Kind, Play, beats, catalog_for, classify
from .revolution import RevolutionDeal, RevolutionView
from .rules import Rules, expansion_preset_names, preset_names
from .views import Action, SeatView

__all__ = [
    "CARDS",
    "Action",
    "BigTwoError",
    "CannotPass",
    "Card",
    "CardIndex",
    "CardSet",
    "Catalog",
    "Deal",
    "DealOver",
    "DoesNotBeat",
    "HandPlays",
    "IllegalAction",
    "Kind",
    "Mask",
    "MustInclude",
    "NotACombination",
    "NotYourCards",
    "NotYourTurn",
    "NotationError",
    "Play",
    "Rules",
    "RevolutionDeal",
    "RevolutionView",
    "RulesError",
    "SeatView",
    "beats",
    "card_symbols",
    "card_text",
    "catalog_for",
    "classify",
    "deal_hands",
    "expansion_preset_names",
    "legal_plays",
    "opening_of",
    "parse_cards",
    "preset_names",
    "to_mask",
]
