"""A PettingZoo AEC environment: every seat of one deal is an agent (``player_0`` …).

The agent selected is the seat to act; a seat with nothing to play but a pass is passed for
and never selected. Each agent observes the dict of :mod:`bigtwo.learn.env`: its own view as
a fixed-size vector and its action mask (all zeros when it is not its turn); ``infos`` carry
the mask too. The deal ends every agent at once, the rewards then being each seat's points
(``normalise=True``: divided by the largest size points can reach). An illegal action ends
the deal with the worst reward for the agent that took it (-1 normalised, else minus that
bound) and 0 for the others, and ``infos[agent]["illegal"]`` saying why.

>>> env = BigTwoAECEnv("palm")
>>> env.reset(seed=3)
>>> obs, reward, terminated, truncated, info = env.last()
>>> env.agent_selection in env.agents, int(obs["action_mask"].sum()) == len(info["legal"])
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..engine.cards import card_symbols
from ..engine.errors import BigTwoError
from ..match.settings import RuleSet
from ..policy.encoding import (
    ACTION_SPACE_SIZE,
    LearningError,
    ObservationEncoder,
    action_mask,
    legal_indices,
)
from .deal import LearningDeal, players_of, ruleset_of
from .env import Observation, observation_space


class BigTwoAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """One deal of Big Two, every seat an agent."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "bigtwo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | RuleSet = "palm",
        *,
        players: int | None = None,
        normalise: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.ruleset = ruleset_of(rules)
        count = players_of(self.ruleset, players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise LearningError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.normalise = normalise
        self.encoder = ObservationEncoder(self.ruleset)
        self.possible_agents = [f"player_{seat}" for seat in range(count)]
        self.agents: list[str] = []
        space = observation_space()
        self.observation_spaces = {a: space for a in self.possible_agents}
        action = spaces.Discrete(ACTION_SPACE_SIZE)
        self.action_spaces = {a: action for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self.deal: LearningDeal | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        deal_seed = int(self._np_random.integers(1 << 62))
        count = len(self.possible_agents)
        self.deal = LearningDeal.dealt(self.ruleset, count, deal_seed, {})
        self.deal_seed = deal_seed
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        assert self.deal is not None
        view = self.deal.view(self._seat(agent))
        return {"observation": self.encoder.encode(view), "action_mask": action_mask(view)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.deal
        assert deal is not None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if action is None:
            raise LearningError(f"{agent} is to act: None is only for an agent that is done")
        try:
            deal.take(int(action))
        except BigTwoError as exc:
            worst = -1.0 if self.normalise else -float(deal.bound())
            self.rewards[agent] = worst
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent]["illegal"] = str(exc)
            self._accumulate_rewards()
            return
        deal.advance()  # forced passes
        if deal.over:
            bound = deal.bound()
            for a in self.agents:
                points = deal.points[self._seat(a)]
                self.rewards[a] = points / bound if self.normalise else float(points)
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        """Select the seat to act and give it its mask in its info (the others none)."""
        assert self.deal is not None
        if self.deal.over:
            for a in self.agents:
                self.infos[a] = {"points": self.deal.points}
            return
        seat = self.deal.turn
        self.agent_selection = self.possible_agents[seat]
        view = self.deal.view(seat)
        self.infos = {a: {} for a in self.agents}
        self.infos[self.agent_selection] = {
            "action_mask": action_mask(view),
            "legal": legal_indices(view),
        }

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.deal is None:
            return None
        view = self.deal.view(self.deal.turn)
        to_beat = view.to_beat.symbols() if view.to_beat is not None else "(lead)"
        hand = card_symbols(view.hand)
        return f"seat {self.deal.turn} to act: {hand} | to beat: {to_beat}"

    def close(self) -> None:
        self.deal = None
