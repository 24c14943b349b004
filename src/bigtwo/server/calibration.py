"""The computer levels' fixed ratings, calibrated from arena games (``bigtwo ratings
calibrate``), and the data file the server reads them from.

A calibration plays seeded games between the computer levels of one family of rules
(:data:`bigtwo.server.ratings.FAMILIES`) through the arena (:func:`bigtwo.arena.run_arena`, as
it is) and feeds each game's places through the same OpenSkill model that rates players
(:func:`bigtwo.server.ratings.rate`). Every level starts where a new player starts; each game
is four distinct levels drawn by a seeded generator, at one duplicate board (one shuffle
played four times with the hands rotated through the seats, so the luck of the deal cancels)
under the family's 4-player presets in turn; the places are by the four deals' points
summed, then deals won, then fewest cards left (:func:`bigtwo.server.ratings.places`: the
server's own order, so the rules that keep no score still rank the game). The levels' final ratings are their fixed ones (:data:`DATA_FILE`, read by
:mod:`.ratings`). The same seed and size give the same file.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..arena import run_arena
from ..bots import bot_names
from ..engine.errors import BigTwoError
from ..engine.rules import BIGTWO, REVOLUTION, preset_names
from ..match.settings import RuleSet
from .ratings import DATA_FILE, FAMILIES, MU, SIGMA, places, rate

SEATS = 4  # every calibration game is of four levels
GAME_OF_FAMILY = {"bigtwo": BIGTWO, "revolution": REVOLUTION}


def family_presets(family: str) -> list[str]:
    """The presets a family's calibration games are played under, in turn: the 52-card
    game's 4-player presets, or Big 2 RevolutioN's one."""
    if family == "revolution":
        return ["revolution"]
    return [n for n in preset_names() if SEATS in RuleSet.preset(n).rules.players]


@dataclass(frozen=True, slots=True)
class CalibrationGame:
    """One game of a calibration: its preset, arena seed, lineup, and each seat's points,
    deals won and cards left over its deals."""

    preset: str
    seed: int
    lineup: tuple[str, ...]
    totals: tuple[int, ...]
    wins: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(slots=True)
class Calibration:
    family: str
    seed: int
    ratings: dict[str, tuple[float, float]]
    games: list[CalibrationGame] = field(default_factory=list)

    def played(self, level: str) -> int:
        return sum(level in g.lineup for g in self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "games": len(self.games),
            "seed": self.seed,
            "presets": sorted({g.preset for g in self.games}),
            "levels": {
                level: {"mu": round(mu, 4), "sigma": round(sigma, 4), "games": self.played(level)}
                for level, (mu, sigma) in sorted(self.ratings.items(), key=lambda r: -r[1][0])
            },
        }


def calibrate(
    family: str,
    games: int,
    seed: int = 1,
    levels: Sequence[str] | None = None,
    on_game: Callable[[int], None] | None = None,
) -> Calibration:
    """Play ``games`` seeded arena games between ``levels`` (every level of the family's game
    by default) and rate them; BigTwoError in words for a bad family, size or level."""
    if family not in FAMILIES:
        raise BigTwoError(f"No family of rules {family!r} (families: {', '.join(FAMILIES)})")
    if games < 1:
        raise BigTwoError("A calibration plays at least one game")
    known = bot_names(GAME_OF_FAMILY[family])
    chosen = list(dict.fromkeys(levels or known))
    unknown = [level for level in chosen if level not in known]
    if unknown:
        raise BigTwoError(
            f"No computer level {', '.join(unknown)} plays {FAMILIES[family]} "
            f"(levels: {', '.join(known)})"
        )
    if len(chosen) < SEATS:
        raise BigTwoError(f"A calibration needs at least {SEATS} levels, one a seat")
    presets = family_presets(family)
    rng = random.Random(f"calibrate:{family}:{seed}")
    result = Calibration(family, seed, {level: (MU, SIGMA) for level in chosen})
    for number in range(games):
        lineup = tuple(rng.sample(chosen, SEATS))
        preset, board_seed = presets[number % len(presets)], rng.randrange(2**31)
        arena = run_arena(
            RuleSet.preset(preset), lineup, deals=SEATS, duplicate=True, seed=board_seed
        )
        deals = arena.played[0]
        totals = tuple(sum(deal.points[seat] for deal in deals) for seat in range(SEATS))
        wins = tuple(sum(deal.winner == seat for deal in deals) for seat in range(SEATS))
        cards = tuple(sum(deal.cards_left[seat] for deal in deals) for seat in range(SEATS))
        after = rate([result.ratings[level] for level in lineup], places(totals, wins, cards))
        result.ratings.update(zip(lineup, after, strict=True))
        result.games.append(CalibrationGame(preset, board_seed, lineup, totals, wins, cards))
        if on_game is not None:
            on_game(number + 1)
    return result


def write_ratings(
    calibrations: Sequence[Calibration], command: str, path: Path = DATA_FILE
) -> dict[str, Any]:
    """Write the calibrated ratings to the data file the server reads (each family not
    calibrated now keeps what the file had); returns what was written."""
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    families = {f: v for f, v in data.get("families", {}).items() if f in FAMILIES}
    for c in calibrations:
        families[c.family] = {"command": command, **c.to_json()}
    out = {
        "about": "The computer levels' fixed ratings (OpenSkill mu and sigma) by family of "
        "rules, calibrated from arena games; made by the command each family names.",
        "families": families,
    }
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return out
