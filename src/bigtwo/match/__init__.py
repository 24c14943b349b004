"""Matches: deals in sequence, scoring, game records and Palm-style history.

:mod:`.settings` holds what a rules file says about the match (scoring, game length,
autopass) beside the rules of play; :mod:`.views` is a seat's view at the table;
:mod:`.match` plays deals one after another (its :class:`~.match.BaseMatch` is what a
match of either game is, :mod:`.revolution` the expansion's match); :mod:`.scoring` scores
them; :mod:`.history` tells a match as text. Game records of either game are read and
written through :mod:`.record_formats`, which picks the game by the record's header:
:mod:`.record` (with :mod:`.record_replay` and :mod:`.record_json`) is the 52-card game's,
:mod:`.revolution_record` Big 2 RevolutioN's (told in words by :mod:`.revolution_history`),
:mod:`.record_common` what both share and :mod:`.files` the only disk access. Keeping
matches, preferences, high scores and statistics in SQLite is above, in
:mod:`bigtwo.store.matches`; playing a match through with computer players is above the
bots, beside the arena (:mod:`bigtwo.autoplay`).
"""

from .errors import ExportError, RecordError, StoreCorrupt, StoreError, StoreLocked
from .match import Change, DealRecord, DealResult, Match, SeatKind, deal_with_choice
from .scoring import SYSTEMS, DealScore, penalty, score_deal, scoring_system
from .settings import MatchRules, RuleSet, Scoring, Switches
from .views import TableView

__all__ = [
    "SYSTEMS",
    "Change",
    "DealRecord",
    "DealResult",
    "DealScore",
    "ExportError",
    "Match",
    "MatchRules",
    "RecordError",
    "RuleSet",
    "Scoring",
    "SeatKind",
    "StoreCorrupt",
    "StoreError",
    "StoreLocked",
    "Switches",
    "TableView",
    "deal_with_choice",
    "penalty",
    "score_deal",
    "scoring_system",
]
