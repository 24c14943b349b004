"""Matches: deals in sequence, scoring, game records, Palm-style history and storage.

:mod:`.match` plays deals one after another; :mod:`.scoring` scores them; :mod:`.record`
writes and replays game records; :mod:`.history` tells a match as text; :mod:`.store` keeps
matches, preferences, high scores and statistics in SQLite; :mod:`.autoplay` plays a match
through with computer players.
"""

from .errors import ExportError, RecordError, StoreCorrupt, StoreError, StoreLocked
from .match import Change, DealRecord, DealResult, Match, deal_with_choice
from .scoring import SYSTEMS, DealScore, penalty, score_deal, scoring_system

__all__ = [
    "SYSTEMS",
    "Change",
    "DealRecord",
    "DealResult",
    "DealScore",
    "ExportError",
    "Match",
    "RecordError",
    "StoreCorrupt",
    "StoreError",
    "StoreLocked",
    "deal_with_choice",
    "penalty",
    "score_deal",
    "scoring_system",
]
