"""Self-play training of the ``learned`` player's network: PPO over the vectorised runner.

One *iteration* plays ``deals`` whole deals with the current network in every seat
(current-policy self-play, :class:`~.vector.SelfPlayRunner`, one batched network call per
step, the deals cut in shards that :class:`~.actors.Actors` play on as many processes as
asked), then improves the network by proximal policy optimisation (PPO, clipped objective,
generalised advantage estimates over each seat's decisions, an entropy bonus) on those
decisions alone, and throws them away. The advantages take the values the actors' network
computed, or with ``critic="full"`` those of a critic that also sees the other seats' hands
(:mod:`.critic`, for training only). With ``structure`` the network also reads the
hand-structure features (:mod:`bigtwo.policy.structure`), from the start or, taken up when the
run resumes, with zero weights at first (:mod:`.widen`). With ``league`` it also plays deals
where the other seats are drawn from a league of the network's past selves and bigtwo's
computer players (:mod:`.league`). The batch PPO learns from is made by :mod:`.batch`. After
every iteration it writes a checkpoint (the network, the optimiser, every random generator's
state, the league's snapshots), so a run stopped at any point resumes bit for bit from its
last iteration; every ``eval_every`` iterations it exports the
network and plays it in the duplicate arena against ``eval_opponent`` on boards no training
deal uses. ``docs/learning.md`` says why these choices.

The run's folder holds ``checkpoint.pt``, ``curves.csv`` (one row per iteration), ``curves.png``
and ``learned.npz`` (the last export, in the format :mod:`bigtwo.policy.network` reads). This module needs
PyTorch (the ``train`` extra); the player it trains does not.
"""

from __future__ import annotations

import dataclasses
import io
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from ..match.settings import RuleSet
from ..policy.encoding import OBS_SIZE, LearningError
from ..policy.network import ACTION_FEATURES, LearnedNetwork, Shape, action_features
from .actors import Actors, Shard, cut, split
from .batch import Batch, merge, normalised, ragged, segment_log_softmax
from .critic import CRITICS, Critic, hand_bits
from .curves import Progress, plot, write_curves
from .deal import players_of, ruleset_of
from .league import League
from .vector import Rollout, SelfPlayRunner
from .widen import starting_structure, take_up_structure

NORMALISE = ("minibatch", "rules")
CHECKPOINT = "checkpoint.pt"
CURVES = "curves.csv"
PLOT = "curves.png"
EXPORT = "learned.npz"


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """Everything that decides a run (kept in its checkpoint; a resumed run keeps it)."""

    rules: tuple[str, ...] = ("palm", "charlesworth2018")
    deals: int = 128  # per iteration, shared between the rule sets
    batch: int = 64  # deals in play at once in each runner
    epochs: int = 4
    minibatch: int = 1024
    lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    reward_scale: float = 10.0  # rewards are the deal's points / the rules' bound * this
    hidden: int = 256
    action_hidden: int = 128
    embed: int = 128
    joint: int = 0  # > 0: a joint network (bigtwo.policy.network) with a joint layer this wide
    seed: int = 0
    eval_every: int = 10
    eval_deals: int = 200
    eval_opponent: str = "greedy"
    eval_seed: int = 18_000_001
    # Deals against a fixed bigtwo player besides self-play: ``opponent`` takes the three
    # other seats of ``opponent_deals`` deals an iteration (shared between the rule sets).
    opponent: str = ""
    opponent_deals: int = 0
    init: str = ""  # a checkpoint or exported .npz whose network a new run starts from
    # Each runner's deals of an iteration are played in this many shards, each with its own
    # stream of move samples: the tasks the actor processes share (a run's weights depend on
    # the shards, never on how many processes play them).
    shards: int = 1
    # Schedules over the run's deals (0: none, the rates stay as set): the learning rate falls
    # linearly from ``lr`` to zero by ``schedule_deals`` deals, as the 2018 network's run annealed
    # it, and the entropy bonus moves linearly from ``entropy`` to ``entropy_end``.
    schedule_deals: int = 0
    entropy_end: float | None = None
    # How advantages are normalised: over each minibatch ("minibatch"), or within each rule
    # set's rows of a minibatch ("rules"), so that one rule set's larger points (palm's are
    # tens, charlesworth2018's a few) do not drown another's signal.
    normalise: str = "minibatch"
    # Whose values the advantages take: the actors' own-view ones ("own"), or those of a critic
    # that also reads the other seats' hands ("full", bigtwo.learn.critic; training only), on
    # from iteration ``critic_from`` (a run may turn it on when it resumes).
    critic: str = "own"
    critic_from: int = 0
    # The hand-structure features (bigtwo.policy.structure) in the observation, from iteration
    # ``structure_from`` (a run may take them up when it resumes, never drop them).
    structure: bool = False
    structure_from: int = 0
    # League deals besides self-play (bigtwo.learn.league): ``league`` deals an iteration (shared
    # between the rule sets) where the network plays one seat and each other seat is drawn from
    # the computer players ``league_bots`` and the newest ``league_size`` snapshots of the
    # network, one taken every ``league_every`` iterations from iteration ``league_from`` (a run
    # may take a league up when it resumes, never change or stop it).
    league: int = 0
    league_bots: tuple[str, ...] = ("strong", "greedy")
    league_every: int = 200
    league_size: int = 4
    league_from: int = 0

    def shape(self) -> Shape:
        return Shape(self.hidden, self.action_hidden, self.embed, self.joint, self.structure)

    def check(self) -> None:
        problems = []
        for name in (
            "deals",
            "batch",
            "epochs",
            "minibatch",
            "hidden",
            "action_hidden",
            "embed",
            "shards",
        ):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be at least 1")
        if self.deals < len(self.rules):
            problems.append("deals must be at least one per rule set")
        if not self.rules:
            problems.append("name at least one rule set")
        if self.joint < 0:
            problems.append("joint cannot be negative")
        if self.eval_every < 0 or self.eval_deals < 0:
            problems.append("eval_every and eval_deals cannot be negative")
        if self.normalise not in NORMALISE:
            problems.append(f"normalise is one of {', '.join(NORMALISE)}")
        if self.critic not in CRITICS:
            problems.append(f"critic is one of {', '.join(CRITICS)}")
        if self.critic_from < 0 or (self.critic_from and self.critic != "full"):
            problems.append("critic_from is an iteration of a run whose critic is full")
        if self.structure_from < 0 or (self.structure_from and not self.structure):
            problems.append("structure_from is an iteration of a run with hand-structure features")
        if self.schedule_deals < 0:
            problems.append("schedule_deals cannot be negative")
        if self.entropy_end is not None and not self.schedule_deals:
            problems.append("entropy_end needs schedule_deals")
        if self.opponent_deals < 0:
            problems.append("opponent_deals cannot be negative")
        elif bool(self.opponent) != bool(self.opponent_deals):
            problems.append("name an opponent together with its deals (or neither)")
        elif self.opponent_deals and self.opponent_deals < len(self.rules):
            problems.append("opponent_deals must be at least one per rule set")
        if self.league < 0:
            problems.append("league cannot be negative")
        elif self.league and self.league < len(self.rules):
            problems.append("league must be at least one deal per rule set")
        if self.league_every < 1 or self.league_size < 1:
            problems.append("league_every and league_size must be at least 1")
        if self.league_from < 0 or (self.league_from and not self.league):
            problems.append("league_from is an iteration of a run with a league")
        if problems:
            raise LearningError("; ".join(problems))
        for name in self.rules:
            ruleset_of(name)
        from ..bots import bot_names

        for name in (self.opponent, *self.league_bots):
            if name and name not in bot_names():
                raise LearningError(f"There is no computer player called {name!r}")


class PolicyValue(nn.Module):
    """The network of :mod:`bigtwo.policy.network` in PyTorch (the same layers, exported as its weights)."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.shape = shape
        self.layers = nn.ModuleDict(
            {name: nn.Linear(n_in, n_out) for name, (n_in, n_out) in shape.layers().items()}
        )
        self.register_buffer("features", torch.from_numpy(action_features().copy()))

    def state(self, obs: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.layers["state1"](obs))
        return torch.relu(self.layers["state2"](x))

    def value(self, h: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.layers["value"](h)
        return out.squeeze(-1)

    def logits(
        self, obs: torch.Tensor, h: torch.Tensor, legal: torch.Tensor, row_of: torch.Tensor
    ) -> torch.Tensor:
        """The logit of every legal action (flat: ``legal[i]`` of row ``row_of[i]``), from the
        rows' observations and state vectors."""
        if self.shape.joint:
            feats = self.get_buffer("features")[legal]
            left = obs[row_of, :52] - feats[:, :52]
            count = left.sum(-1, keepdim=True) / 13.0
            x = torch.cat([h[row_of], feats, left, count], dim=-1)
            out: torch.Tensor = self.layers["joint2"](torch.relu(self.layers["joint1"](x)))
            return out.squeeze(-1)
        unique, inverse = torch.unique(legal, return_inverse=True)
        feats = self.get_buffer("features")[unique]
        e: torch.Tensor = self.layers["action2"](torch.relu(self.layers["action1"](feats)))
        return (h[row_of] * e[inverse]).sum(-1)

    def export(self, card: dict[str, Any]) -> LearnedNetwork:
        weights = {}
        for name, layer in self.layers.items():
            assert isinstance(layer, nn.Linear)
            weights[f"{name}.w"] = layer.weight.detach().cpu().numpy().T.copy()
            weights[f"{name}.b"] = layer.bias.detach().cpu().numpy().copy()
        return LearnedNetwork(self.shape, weights, card)


@dataclass(slots=True)
class Trainer:
    """A run in a folder: :meth:`create` a new one or :meth:`resume` the folder's last
    checkpoint, then :meth:`iterate`."""

    folder: Path
    config: TrainConfig
    device: torch.device
    model: PolicyValue
    optimiser: torch.optim.Optimizer
    runners: list[SelfPlayRunner]
    sampler: np.random.Generator
    shuffler: torch.Generator
    actors: Actors
    iteration: int = 0
    total_deals: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    curves: list[Progress] = field(default_factory=list)
    critic: Critic | None = None  # the critic that sees every hand (TrainConfig.critic "full")
    league: League | None = None  # the league's members and draws (TrainConfig.league)
    # what save() has made of the curves so far: each iteration's row as the checkpoint keeps
    # it, and how many of them curves.csv holds (a long run's whole curves, made again every
    # iteration, were a sixth of its time)
    saved_rows: list[dict[str, Any]] = field(default_factory=list)
    csv_rows: int = 0

    @classmethod
    def create(
        cls, folder: str | Path, config: TrainConfig, device: str | None = None, actors: int = 0
    ) -> Trainer:
        """A new run in ``folder`` (refused when the folder holds a run already), its deals
        played in this process or, with ``actors``, on that many processes."""
        folder = Path(folder)
        if (folder / CHECKPOINT).exists():
            raise LearningError(
                f"{folder} holds a run already: resume it (--resume) or choose another folder"
            )
        trainer = cls._build(folder, config, device, actors)
        if config.init:
            start_from(config.init, trainer.model)
        if config.critic == "full":
            trainer.critic = Critic(trainer.model.layers)
        folder.mkdir(parents=True, exist_ok=True)
        return trainer

    @classmethod
    def _build(cls, folder: Path, config: TrainConfig, device: str | None, actors: int) -> Trainer:
        config.check()
        torch.manual_seed(config.seed)
        dev = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        model = PolicyValue(config.shape()).to(dev)
        optimiser = torch.optim.Adam(model.parameters(), lr=config.lr)
        runners = runners_of(config, 0)
        if config.opponent:
            runners += runners_of(config, 500, config.opponent)
        if config.league:
            runners += runners_of(config, LEAGUE_RUNNERS)
        return cls(
            folder,
            config,
            dev,
            model,
            optimiser,
            runners,
            np.random.default_rng(config.seed),
            torch.Generator().manual_seed(config.seed),
            Actors(actors),
            league=config_league(config),
        )

    @classmethod
    def resume(cls, folder: str | Path, device: str | None = None, actors: int = 0) -> Trainer:
        """The run in ``folder`` as its last checkpoint left it (its own settings; the number
        of actor processes is this call's)."""
        folder = Path(folder)
        path = folder / CHECKPOINT
        if not path.exists():
            raise LearningError(f"No checkpoint to resume in {folder}")
        try:
            saved = torch.load(path, map_location="cpu", weights_only=False)
        except Exception as exc:  # a damaged file: say so rather than show torch's traceback
            raise LearningError(f"{path} cannot be read as a checkpoint ({exc})") from None
        settings = saved["config"]
        config = TrainConfig(
            **{
                **settings,
                "rules": tuple(settings["rules"]),
                "league_bots": tuple(settings.get("league_bots", TrainConfig().league_bots)),
            }
        )
        trainer = cls._build(folder, config, device, actors)
        trainer.model.load_state_dict(saved["model"])
        trainer.optimiser.load_state_dict(saved["optimiser"])
        for runner, state in zip(trainer.runners, saved["runners"], strict=True):
            runner.set_state(state)
        trainer.sampler.bit_generator.state = saved["sampler"]
        trainer.shuffler.set_state(saved["shuffler"])
        trainer.iteration = saved["iteration"]
        trainer.total_deals = saved["total_deals"]
        trainer.seconds = saved["seconds"]
        trainer.cpu_seconds = saved.get("cpu_seconds", 0.0)
        trainer.curves = [Progress(**row) for row in saved["curves"]]
        if config.critic == "full":
            trainer.critic = Critic(trainer.model.layers)
            trainer.critic.load_state_dict(saved["critic"])
        if trainer.league is not None:
            trainer.league.restore(saved["league"])
        return trainer

    def switch_critic(self, critic: str) -> bool:
        """Turn on, for a resumed run, the critic ``critic`` names ("full": a new one, started
        as the policy's value path, from the next iteration, kept in the run's settings with the
        iteration it came in at); True when it was off. A run's full critic is never turned off."""
        if critic not in CRITICS:
            raise LearningError(f"critic is one of {', '.join(CRITICS)}, not {critic!r}")
        if critic == self.config.critic:
            return False
        if critic == "own":
            raise LearningError(
                f"This run's critic sees every hand (since iteration {self.config.critic_from}) "
                "and cannot be turned off: resume it without --critic"
            )
        self.config = dataclasses.replace(self.config, critic="full", critic_from=self.iteration)
        self.critic = Critic(self.model.layers)
        return True

    def switch_structure(self, structure: bool) -> bool:
        """Give a resumed run the hand-structure features from the next iteration (its
        network's first layer, and the critic's, gain their columns of zeros: :mod:`.widen`),
        kept in the run's settings with the iteration they came in at; True when they were off.
        A run's features are never taken away."""
        if structure == self.config.structure:
            return False
        if not structure:
            raise LearningError(
                "This run's network reads the hand-structure features (since iteration "
                f"{self.config.structure_from}) and cannot stop: resume it without --no-structure"
            )
        first = self.model.layers["state1"]
        assert isinstance(first, nn.Linear)
        take_up_structure(first, self.optimiser)
        if self.critic is not None:
            self.critic.take_up_structure()
        self.model.shape = dataclasses.replace(self.model.shape, structure=True)
        self.config = dataclasses.replace(
            self.config, structure=True, structure_from=self.iteration
        )
        for runner in self.runners:
            runner.structure = True
        return True

    def switch_league(self, **options: Any) -> bool:
        """Take up, in a resumed run, the league ``options`` set (``league``, ``league_bots``,
        ``league_every``, ``league_size``: the defaults where not given) from the next
        iteration, kept in the run's settings with the iteration it came in at; True when the
        run had none. A run's league is never changed (options that repeat its own settings
        are no change) or stopped, and a run without one takes none up without ``league``."""
        cfg = self.config
        keys = ("league", "league_bots", "league_every", "league_size")
        if not set(options) <= set(keys):
            raise LearningError(f"a league's settings are {', '.join(keys)}")
        asked = dataclasses.replace(cfg if cfg.league else TrainConfig(), **options)
        if all(getattr(asked, key) == getattr(cfg, key) for key in keys):
            return False
        if cfg.league:
            raise LearningError(
                f"This run plays {cfg.league} league deals an iteration (since iteration "
                f"{cfg.league_from}, against {', '.join(cfg.league_bots) or 'no computer player'} "
                f"and its past selves, one every {cfg.league_every} iterations, the newest "
                f"{cfg.league_size} kept), which cannot change or stop: resume it without the "
                "league options"
            )
        if not asked.league:
            raise LearningError(
                "This run has no league, and the league's other settings take one up only "
                "with --league N (league deals an iteration)"
            )
        config = dataclasses.replace(
            cfg, league_from=self.iteration, **{key: getattr(asked, key) for key in keys}
        )
        config.check()
        self.config = config
        self.runners += runners_of(config, LEAGUE_RUNNERS)
        self.league = config_league(config)
        return True

    def save(self) -> None:
        state = {
            "config": dataclasses.asdict(self.config),
            "model": self.model.state_dict(),
            "optimiser": self.optimiser.state_dict(),
            "runners": [r.get_state() for r in self.runners],
            "sampler": self.sampler.bit_generator.state,
            "shuffler": self.shuffler.get_state(),
            "iteration": self.iteration,
            "total_deals": self.total_deals,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "curves": self.curve_rows(),
        }
        if self.critic is not None:
            state["critic"] = self.critic.state_dict()
        if self.league is not None:
            league = self.league.state()
            for snapshot in league["selves"]:  # as tensors, which torch.save keeps compact
                weights = snapshot["weights"].items()
                snapshot["weights"] = {k: torch.from_numpy(v) for k, v in weights}
            state["league"] = league
        buffer = io.BytesIO()
        torch.save(state, buffer)
        tmp = self.folder / (CHECKPOINT + ".tmp")
        tmp.write_bytes(buffer.getvalue())
        os.replace(tmp, self.folder / CHECKPOINT)
        self.csv_rows = write_curves(self.curves, self.folder / CURVES, self.csv_rows)

    def curve_rows(self) -> list[dict[str, Any]]:
        """The curves as the checkpoint keeps them, a dict an iteration; a row once made is not
        made again (an iteration's progress is final once it is in the curves)."""
        rows = self.saved_rows
        rows.extend(dataclasses.asdict(p) for p in self.curves[len(rows) :])
        return rows

    # -- playing -----------------------------------------------------------------------------

    def collect(self) -> list[Rollout]:
        """An iteration's deals, played by the actors with the current network: per runner,
        its share of the deals, cut in ``shards``."""
        return [rollout for _, rollout in self.collect_grouped()]

    def collect_grouped(self) -> list[tuple[int, Rollout]]:
        """:meth:`collect`, each rollout with its rule set (its index in the run's rules). In a
        league run the network joins the league first when a snapshot is due."""
        cfg = self.config
        rules = len(cfg.rules)
        shares = split(cfg.deals, rules)
        if cfg.opponent:
            shares += split(cfg.opponent_deals, rules)
        league = self.league
        if league is not None:
            shares += split(cfg.league, rules)
            if (self.iteration - cfg.league_from) % cfg.league_every == 0:
                league.join(self.iteration, self.model.export({}))
        shards: list[Shard] = []
        groups: list[int] = []
        for i, (runner, n) in enumerate(zip(self.runners, shares, strict=True)):
            for seeds in cut(runner.draw(n), cfg.shards):
                shard = Shard(runner, seeds, int(self.sampler.integers(1 << 62)))
                if league is not None and i >= len(shares) - rules:  # the league's runners
                    tables = league.draw(len(seeds), runner.players - 1)
                    shard = dataclasses.replace(shard, league=league.members(), tables=tables)
                shards.append(shard)
                groups.append(i % rules)
        rollouts = self.actors.play(self.model.export({}), shards)
        return list(zip(groups, rollouts, strict=True))

    def close(self) -> None:
        """Stop the actor processes (a later iteration starts them again)."""
        self.actors.close()

    # -- learning ----------------------------------------------------------------------------

    def rates(self) -> tuple[float, float]:
        """The learning rate and the entropy bonus at the run's deals so far (its schedules)."""
        cfg = self.config
        if not cfg.schedule_deals:
            return cfg.lr, cfg.entropy
        done = min(1.0, self.total_deals / cfg.schedule_deals)
        end = cfg.entropy if cfg.entropy_end is None else cfg.entropy_end
        return cfg.lr * (1.0 - done), cfg.entropy + (end - cfg.entropy) * done

    def update(self, batch: Batch) -> dict[str, float]:
        cfg = self.config
        dev = self.device
        lr, entropy_bonus = self.rates()
        for group in self.optimiser.param_groups:
            group["lr"] = lr
        self.model.train()
        obs_all = torch.from_numpy(batch.observations).to(dev)
        critic = self.critic
        hands_all = None if critic is None else torch.from_numpy(hand_bits(batch.others)).to(dev)
        names = ("policy_loss", "value_loss", "entropy", "kl", "clip", "critic_loss")
        figures = dict.fromkeys(names, 0.0)
        steps = 0
        for _ in range(cfg.epochs):
            order = torch.randperm(len(batch), generator=self.shuffler).numpy()
            for begin in range(0, len(batch), cfg.minibatch):
                rows = order[begin : begin + cfg.minibatch].astype(np.int64)
                legal_np, row_np = ragged(batch.legal, batch.legal_start, rows)
                legal = torch.from_numpy(legal_np).to(dev)
                row_of = torch.from_numpy(row_np).to(dev)
                actions = torch.from_numpy(batch.actions[rows]).to(dev)
                old = torch.from_numpy(batch.logp[rows]).to(dev)
                adv = torch.from_numpy(batch.advantages[rows]).to(dev)
                target = torch.from_numpy(batch.targets[rows]).to(dev)
                rule_sets = (
                    torch.from_numpy(batch.groups[rows]).to(dev)
                    if cfg.normalise == "rules"
                    else None
                )
                adv = normalised(adv, rule_sets)
                obs = obs_all[torch.from_numpy(rows).to(dev)]
                h = self.model.state(obs)
                logits = self.model.logits(obs, h, legal, row_of)
                logp, entropy = segment_log_softmax(logits, row_of, len(rows))
                chosen = legal == actions[row_of]
                new = torch.zeros(len(rows), device=dev).index_add(0, row_of[chosen], logp[chosen])
                ratio = (new - old).exp()
                clipped = ratio.clamp(1 - cfg.clip, 1 + cfg.clip)
                policy_loss = -torch.minimum(ratio * adv, clipped * adv).mean()
                value_loss = (self.model.value(h) - target).pow(2).mean()
                loss = policy_loss + cfg.value_coef * value_loss - entropy_bonus * entropy.mean()
                self.optimiser.zero_grad()
                torch.autograd.backward(loss)
                nn.utils.clip_grad_norm_(self.model.parameters(), cfg.max_grad_norm)
                self.optimiser.step()
                if critic is not None and hands_all is not None:
                    figures["critic_loss"] += critic.learn(
                        obs,
                        hands_all[torch.from_numpy(rows).to(dev)],
                        target,
                        lr=lr,
                        coef=cfg.value_coef,
                        max_grad_norm=cfg.max_grad_norm,
                    )
                with torch.no_grad():
                    figures["policy_loss"] += float(policy_loss)
                    figures["value_loss"] += float(value_loss)
                    figures["entropy"] += float(entropy.mean())
                    figures["kl"] += float((old - new).mean())
                    figures["clip"] += float(((ratio - 1).abs() > cfg.clip).float().mean())
                steps += 1
        return {k: v / max(steps, 1) for k, v in figures.items()}

    def batch_of(self, grouped: Sequence[tuple[int, Rollout]]) -> Batch:
        """The rollouts of :meth:`collect_grouped` as a batch: its advantages from the critic's
        values where the run has one (computed now, before learning), else the actors'."""
        rollouts = [rollout for _, rollout in grouped]
        values = None
        if self.critic is not None:
            values = [self.critic.values(r.observations, r.others) for r in rollouts]
        cfg = self.config
        groups = [group for group, _ in grouped]
        return merge(rollouts, cfg.reward_scale, cfg.gae_lambda, groups, values)

    def iterate(self) -> Progress:
        """One iteration: play, learn, maybe evaluate, save."""
        start = time.perf_counter()
        grouped = self.collect_grouped()
        rollouts = [rollout for _, rollout in grouped]
        cpu = time.process_time()  # the playing's CPU time is the rollouts', wherever they played
        batch = self.batch_of(grouped)
        figures = self.update(batch)
        self.iteration += 1
        self.total_deals += sum(len(r.points) for r in rollouts)
        self.seconds += time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu + sum(r.cpu_seconds for r in rollouts)
        progress = Progress(
            iteration=self.iteration,
            deals=self.total_deals,
            decisions=len(batch),
            seconds=round(self.seconds, 2),
            policy_loss=figures["policy_loss"],
            value_loss=figures["value_loss"],
            entropy=figures["entropy"],
            approx_kl=figures["kl"],
            clip_fraction=figures["clip"],
            cpu_seconds=round(self.cpu_seconds, 2),
            critic_loss=None if self.critic is None else figures["critic_loss"],
        )
        every = self.config.eval_every
        if every and self.config.eval_deals and self.iteration % every == 0:
            self.evaluate(progress)
        self.curves.append(progress)
        self.save()
        return progress

    # -- exporting and evaluating -------------------------------------------------------------

    def card(self) -> dict[str, Any]:
        method = "PPO, current-policy self-play (bigtwo train)"
        if self.config.opponent:
            method += f", and deals against three {self.config.opponent}"
        if self.config.init:
            method += f", starting from the network of {self.config.init}"
        if self.config.critic == "full":
            method += f", a critic seeing every hand after iteration {self.config.critic_from}"
        if self.config.structure:
            method += ", hand-structure features" + (
                f" after iteration {self.config.structure_from}"
                if self.config.structure_from
                else ""
            )
        if self.config.league:
            bots = ", ".join(self.config.league_bots)
            method += f", league deals against {bots + ' and ' if bots else ''}its past selves" + (
                f" after iteration {self.config.league_from}" if self.config.league_from else ""
            )
        return {
            "method": method,
            "rules": list(self.config.rules),
            "iterations": self.iteration,
            "deals": self.total_deals,
            "seconds": round(self.seconds, 1),
            "cpu_seconds": round(self.cpu_seconds, 1),
            "device": str(self.device),
            "config": dataclasses.asdict(self.config),
        }

    def export(self, path: str | Path | None = None) -> LearnedNetwork:
        network = self.model.export(self.card())
        network.save(path if path is not None else self.folder / EXPORT)
        return network

    def evaluate(self, progress: Progress) -> None:
        """The exported network against three of ``eval_opponent`` in the duplicate arena,
        on the first rule set, on boards from ``eval_seed`` (never a training deal: those are
        shuffled from integer seeds, the arena's from ``"seed:board"`` text). The network
        evaluated is kept as ``learned-it{iteration}.npz`` beside the last export."""
        network = self.export()
        # each evaluated network is kept too, so a run's best can be chosen afterwards
        network.save(self.folder / f"learned-it{self.iteration}.npz")
        result = arena_figures(
            network,
            self.config.rules[0],
            self.config.eval_opponent,
            deals=self.config.eval_deals,
            seed=self.config.eval_seed,
            tag=f"it{self.iteration}",
        )
        progress.eval_points = result["mean_points"]
        progress.eval_low, progress.eval_high = result["ci95"]
        progress.eval_rules = self.config.rules[0]


def arena_figures(
    network: LearnedNetwork,
    rules: str,
    opponent: str,
    *,
    deals: int,
    seed: int,
    tag: str = "eval",
    workers: int = 1,
) -> dict[str, Any]:
    """``network`` as the ``learned`` player against three ``opponent``: the arena's summary
    of its seat (mean points a deal and 95% interval over boards)."""
    from ..arena import run_arena
    from ..bots import register_bot
    from ..bots.learned import LearnedBot

    name = f"learned@{tag}"
    register_bot(name, lambda: _named(LearnedBot(network), name))
    ruleset = RuleSet.preset(rules)
    players = ruleset.rules.default_players
    result = run_arena(
        ruleset,
        [name] + [opponent] * (players - 1),
        deals=deals,
        duplicate=True,
        seed=seed,
        workers=workers,
    )
    summary: dict[str, Any] = result.stats[0].summary()
    return summary


def start_from(path: str | Path, model: PolicyValue) -> None:
    """Load into ``model`` the network a new run starts from: a checkpoint's
    (``checkpoint.pt``) or an export's (``.npz``); refused in words when it cannot be read or
    has another shape. A network without the hand-structure features starts a run with them
    with their columns of zeros (:mod:`.widen`): it plays as it did until it learns."""
    path = Path(path)
    state: dict[str, Any] = {}
    try:
        if path.suffix == ".npz":
            network = LearnedNetwork.load(path)
            state = {}
            for name in model.layers:
                state[f"layers.{name}.weight"] = torch.from_numpy(
                    network.weights[f"{name}.w"].T.copy()
                )
                state[f"layers.{name}.bias"] = torch.from_numpy(network.weights[f"{name}.b"].copy())
            state["features"] = model.get_buffer("features")
        else:
            state = torch.load(path, map_location="cpu", weights_only=False)["model"]
        inputs = state["layers.state1.weight"].shape[1]
    except Exception as exc:  # a missing or damaged file
        raise LearningError(f"{path} cannot start this run ({exc})") from None
    starting_structure(state, inputs, model.shape.structure, path)
    try:
        model.load_state_dict(state)
    except Exception as exc:  # another network's shape
        raise LearningError(f"{path} cannot start this run ({exc})") from None


LEAGUE_RUNNERS = 700
"""Where the league's runners' seeds begin (after the run's seed × 1000; self-play's begin at
0, those against ``opponent`` at 500)."""


def runners_of(config: TrainConfig, stream: int, opponent: str = "") -> list[SelfPlayRunner]:
    """A runner of each of the run's rule sets, its seeds from ``stream`` on, ``opponent`` in
    every seat but the network's when named."""
    return [
        SelfPlayRunner(
            name,
            batch=config.batch,
            seed=config.seed * 1000 + stream + i,
            opponents=dict.fromkeys(range(1, players_of(ruleset_of(name), None)), opponent)
            if opponent
            else None,
            structure=config.structure,
        )
        for i, name in enumerate(config.rules)
    ]


def config_league(config: TrainConfig) -> League | None:
    """The league a run's settings make (None without one): no snapshot yet."""
    if not config.league:
        return None
    return League(config.league_bots, config.league_size, config.seed)


def _named(bot: Any, name: str) -> Any:
    bot.name = name
    return bot


def train(
    trainer: Trainer,
    *,
    iterations: int,
    minutes: float | None = None,
    on_iteration: Callable[[Progress], None] | None = None,
) -> Trainer:
    """Iterate until the run has ``iterations`` in all (a resumed run counts what it had) or
    ``minutes`` of this call are up; then export and plot."""
    deadline = None if minutes is None else time.monotonic() + minutes * 60
    try:
        while trainer.iteration < iterations:
            if deadline is not None and time.monotonic() >= deadline:
                break
            progress = trainer.iterate()
            if on_iteration is not None:
                on_iteration(progress)
    finally:
        trainer.close()
    trainer.export()
    plot(trainer.curves, trainer.folder / PLOT)
    return trainer


__all__ = [
    "ACTION_FEATURES",
    "OBS_SIZE",
    "Batch",
    "PolicyValue",
    "Progress",
    "TrainConfig",
    "Trainer",
    "arena_figures",
    "train",
]
