"""Matches: deals in sequence, scoring, records, history and storage."""

from .match import DealResult, Match, deal_with_choice
from .scoring import DealScore, penalty, score_deal

__all__ = ["DealResult", "DealScore", "Match", "deal_with_choice", "penalty", "score_deal"]
