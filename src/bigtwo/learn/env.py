"""A Gymnasium environment: one learning seat, the other seats bigtwo computer players.

An episode is one deal. The observation is a dict: ``observation``, the seat's view as a
fixed-size float32 vector (:class:`~bigtwo.policy.encoding.ObservationEncoder`), and
``action_mask``, 0/1 over the action space; ``info["action_mask"]`` holds the same mask. The
action is an action index (:mod:`bigtwo.policy.encoding`: 0 passes, the others name cards).
The learning seat is asked only when it has a choice; the other seats' moves, and any pass
forced by an empty hand of replies, are played in between. The reward is 0 until the deal
ends, then the deal's points for the learning seat (``normalise=True`` divides them by the
largest size points can reach, so rewards lie in -1 … 1). An illegal action ends the episode
at once with the worst reward (-1 normalised, else minus that bound) and
``info["illegal"]`` saying why. ``reset(seed=…)`` makes the deal and every bot's choices
reproducible.

>>> env = BigTwoEnv("palm", opponents="greedy", normalise=True)
>>> obs, info = env.reset(seed=1)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) == len(info["legal"])
((599,), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..engine.cards import card_symbols
from ..engine.errors import BigTwoError
from ..match.settings import RuleSet
from ..policy.encoding import (
    ACTION_SPACE_SIZE,
    OBS_HIGH,
    OBS_SIZE,
    LearningError,
    ObservationEncoder,
    action_mask,
    legal_indices,
)
from .deal import LearningDeal, make_bots, players_of, ruleset_of

Observation = dict[str, npt.NDArray[Any]]


def observation_space() -> spaces.Dict:
    """The observation space of both environments."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                low=np.zeros(OBS_SIZE, dtype=np.float32), high=OBS_HIGH, dtype=np.float32
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_SPACE_SIZE,), dtype=np.int8),
        }
    )


class BigTwoEnv(gym.Env[Observation, np.int64]):
    """One deal of Big Two from one seat's side.

    ``rules`` is a preset name or a :class:`~bigtwo.match.settings.RuleSet`; ``opponents``
    one computer player's name for every other seat, or a name per other seat (in seat
    order, the learning seat left out); ``seat`` the learning seat, or None for a seat drawn
    at each reset; ``players`` the table size (the rule set's default when None).
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        rules: str | RuleSet = "palm",
        opponents: str | Sequence[str] = "greedy",
        *,
        seat: int | None = 0,
        players: int | None = None,
        normalise: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.ruleset = ruleset_of(rules)
        self.players = players_of(self.ruleset, players)
        names = [opponents] * (self.players - 1) if isinstance(opponents, str) else opponents
        self.opponents = tuple(names)
        if len(self.opponents) != self.players - 1:
            raise LearningError(
                f"{self.players} players need {self.players - 1} opponents, "
                f"not {len(self.opponents)}"
            )
        if seat is not None and not 0 <= seat < self.players:
            raise LearningError(f"There is no seat {seat} at a table of {self.players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise LearningError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        make_bots(dict(enumerate(self.opponents)), self.players)  # unknown names fail here
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.normalise = normalise
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(self.ruleset)
        self.observation_space = observation_space()  # type: ignore[assignment]  # a Dict space
        self.action_space = spaces.Discrete(ACTION_SPACE_SIZE)
        self.deal: LearningDeal | None = None
        self.deal_seed = 0

    # -- the Gymnasium API -----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        self.deal_seed = int(rng.integers(1 << 62))
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.players))
        others = [s for s in range(self.players) if s != self.seat]
        bots = make_bots(dict(zip(others, self.opponents, strict=True)), self.players)
        self.deal = LearningDeal.dealt(self.ruleset, self.players, self.deal_seed, bots)
        return self._observe(self.deal)

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        deal = self.deal
        if deal is None or deal.over:
            raise LearningError("The deal is over (or never began): call reset()")
        index = int(action)
        try:
            deal.take(index)
        except BigTwoError as exc:
            obs, info = self._observe(deal)
            info["illegal"] = str(exc)
            worst = -1.0 if self.normalise else -float(deal.bound())
            self.deal = None  # the episode is over
            return obs, worst, True, False, info
        deal.advance()  # the bots' turns: their errors are not the learner's
        obs, info = self._observe(deal)
        if not deal.over:
            return obs, 0.0, False, False, info
        points = deal.points[self.seat]
        reward = points / deal.bound() if self.normalise else float(points)
        info["points"] = deal.points
        return obs, reward, True, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.deal is None:
            return None
        view = self.deal.view(self.seat)
        to_beat = view.to_beat.symbols() if view.to_beat is not None else "(lead)"
        counts = " ".join(str(c) for c in view.counts)
        return f"seat {self.seat}: {card_symbols(view.hand)} | to beat: {to_beat} | cards {counts}"

    # -- helpers -----------------------------------------------------------------------------
    def _observe(self, deal: LearningDeal) -> tuple[Observation, dict[str, Any]]:
        """The learning seat's observation and info (one view for both)."""
        view = deal.view(self.seat)
        mask = action_mask(view)
        obs: Observation = {"observation": self.encoder.encode(view), "action_mask": mask}
        return obs, {"action_mask": mask.copy(), "legal": legal_indices(view), "seat": self.seat}


ENV_ID = "bigtwo/BigTwo-v0"
"""The id under which ``gymnasium.make`` knows :class:`BigTwoEnv` (after importing this module)."""
if ENV_ID not in gym.registry:
    gym.register(id=ENV_ID, entry_point="bigtwo.learn.env:BigTwoEnv")
