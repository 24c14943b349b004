"""Players' ratings: OpenSkill's Plackett-Luce model (the ``openskill`` package, made for games
of more than two), one rating per family of rules, and the one number a rating is shown as.

A rating is a belief about a player's skill: ``mu`` (the likely skill) and ``sigma`` (how
unsure it is). It is shown as its conservative estimate ``mu - 3 sigma``, scaled: shown =
1000 + 40 x (mu - 3 sigma), so a new player (mu 25, sigma 25/3) shows 1000 and each point of
skill is 40. The families: ``bigtwo`` (the 52-card rule sets) and ``revolution`` (Big 2
RevolutioN); a rating in one says nothing of the other.

Computer players carry fixed ratings, never changed by a game, so a person's first games
against computers place them: each level's, per family, calibrated from arena games by
``bigtwo ratings calibrate`` (:mod:`.calibration`) and kept in :data:`DATA_FILE`, read once.
A guest (a seat of no account) counts at a new player's rating, unchanged.
This module is arithmetic only: who played, what is stored and when, are
:mod:`bigtwo.server.accounts`'s.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from openskill.models import PlackettLuce

from ..engine.rules import REVOLUTION
from ..match.settings import RuleSet

FAMILIES = {"bigtwo": "52-card Big Two", "revolution": "Big 2 RevolutioN"}
MU, SIGMA = 25.0, 25.0 / 3.0  # a new player's rating (the model's own defaults)
SCALE, BASE = 40.0, 1000.0
MIN_GAMES = 3  # rated games before a player is ranked on the leaderboard

DATA_FILE = Path(__file__).with_name("computer_ratings.json")


@cache
def computer_ratings(path: Path = DATA_FILE) -> dict[str, dict[str, tuple[float, float]]]:
    """The computer levels' fixed ratings by family (read once): family -> level -> (mu,
    sigma); none for a family the file lacks."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        family: {
            level: (float(r["mu"]), float(r["sigma"]))
            for level, r in data["families"].get(family, {}).get("levels", {}).items()
        }
        for family in FAMILIES
    }


_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def family_of(ruleset: RuleSet) -> str:
    """The family of rules a rule set's games are rated in."""
    return "revolution" if ruleset.rules.game == REVOLUTION else "bigtwo"


def computer_rating(level: str, family: str = "bigtwo") -> tuple[float, float]:
    """A computer level's fixed rating in a family (a level not calibrated: a new player's)."""
    return computer_ratings().get(family, {}).get(level, (MU, SIGMA))


def shown(mu: float, sigma: float) -> int:
    """The one number a rating is shown as: its conservative estimate, scaled.

    >>> shown(MU, SIGMA), shown(30.0, 1.0)
    (1000, 2080)
    """
    return round(BASE + SCALE * (mu - 3.0 * sigma))


def places(
    totals: Sequence[int], wins: Sequence[int] | None = None, cards: Sequence[int] | None = None
) -> list[int]:
    """Each seat's place in a game: the most points first; between equal points, the most
    deals won (``wins``), then the fewest cards left over its deals (``cards``), so a game
    under rules that keep no score is still won by who went out; equal on all of them share
    a place.

    >>> places([10, -4, 10, -16])
    [1, 3, 1, 4]
    >>> places([0, 0, 0, 0], wins=[0, 1, 0, 0], cards=[3, 0, 9, 3])
    [2, 1, 4, 2]
    """
    n = len(totals)
    keys = list(zip(totals, wins or [0] * n, [-c for c in cards or [0] * n], strict=True))
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


def rate(
    ratings: Sequence[tuple[float, float]], finish: Sequence[int]
) -> list[tuple[float, float]]:
    """Every seat's rating after a game in which they finished in places ``finish`` (1:
    first), each seat a team of one; the caller keeps the ones that change."""
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    after = _MODEL.rate(teams, ranks=[float(p) for p in finish])
    return [(team[0].mu, team[0].sigma) for team in after]
