"""The arena: results in the documented shape, the same whatever the workers, and honest."""

from __future__ import annotations

import importlib.util
import json
import random

import pytest

from bigtwo.arena import lineup_bots, play_deal, run_arena
from bigtwo.bots import Bot
from bigtwo.bots.classic import ClassicBot
from bigtwo.cli import main
from bigtwo.engine import Deal, Play, SeatView
from bigtwo.engine.errors import BigTwoError
from bigtwo.match import RuleSet

PALM = RuleSet.preset("palm")
LINEUP = ["strong", "greedy", "classic", "random"]


def check_shape(data: dict[str, object], deals: int) -> None:
    assert data["deals"] == deals
    bots = data["bots"]
    assert isinstance(bots, list) and [b["name"] for b in bots] == LINEUP
    for bot in bots:
        low, high = bot["ci95"]
        assert low <= bot["mean_points"] <= high
        assert 0.0 <= bot["win_rate"] <= 1.0
        for key in ("decision_ms_median", "decision_ms_p99", "mean_cards_left"):
            assert bot[key] >= 0
    assert sum(b["win_rate"] for b in bots) == pytest.approx(1.0)
    # palm scoring is zero-sum, so the means are too
    assert sum(b["mean_points"] for b in bots) == pytest.approx(0.0, abs=0.01)


def test_a_small_duplicate_arena_returns_the_json_shape() -> None:
    result = run_arena(PALM, LINEUP, deals=18, duplicate=True, workers=1, seed=1)
    data = result.to_json()
    check_shape(data, 20)
    assert data["boards"] == 5 and data["duplicate"] is True
    json.dumps(data)


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--rules", "palm", "--seats", ",".join(LINEUP), "--deals", "20"]
    assert main([*argv, "--duplicate", "--seed", "1", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    check_shape(data, 20)
    assert main([*argv, "--quiet"]) == 0
    assert "strong" in capsys.readouterr().out


def test_results_do_not_depend_on_the_workers() -> None:
    one = run_arena(PALM, LINEUP, deals=8, duplicate=True, workers=1, seed=4).to_json()
    two = run_arena(PALM, LINEUP, deals=8, duplicate=True, workers=2, seed=4).to_json()
    for a, b in zip(one["bots"], two["bots"], strict=True):
        assert (a["mean_points"], a["win_rate"]) == (b["mean_points"], b["win_rate"])


def test_duplicate_deals_rotate_the_hands() -> None:
    seen: list[tuple[int, ...]] = []

    class Recorder(Bot):
        name = "recorder"

        def new_deal(self, seat: int) -> None:
            pass

        def choose(self, view: SeatView, rng: random.Random) -> Play | None:
            return view.legal[0]

    bots: list[Bot] = [Recorder() for _ in range(4)]
    deal = Deal.from_seed(PALM.rules, 2)
    for r in range(4):
        hands = tuple(deal.dealt[(s + r) % 4] for s in range(4))
        seen.append(hands)
        record = play_deal(PALM, bots, hands, f"t:{r}")
        assert sum(record.points) == 0
    assert {h[0] for h in seen} == set(deal.dealt)


def test_an_illegal_bot_is_caught() -> None:
    class Cheat(Bot):
        name = "cheat"

        def choose(self, view: SeatView, rng: random.Random) -> Play | None:
            return None  # passes even when it leads

    bots: list[Bot] = [Cheat() for _ in range(4)]
    with pytest.raises(BigTwoError, match="passed at a lead"):
        play_deal(PALM, bots, Deal.from_seed(PALM.rules, 1).dealt, "x")


def test_classic_players_are_told_who_the_humans_are() -> None:
    bots = lineup_bots(["greedy", "classic", "strong", "classic"])
    assert isinstance(bots[1], ClassicBot) and bots[1].humans == frozenset({0, 2})


def test_bad_lineups_and_backends_are_refused() -> None:
    with pytest.raises(BigTwoError, match="Unknown computer player"):
        run_arena(PALM, ["strong", "nobody", "greedy", "greedy"], deals=1)
    with pytest.raises(BigTwoError, match="players"):
        run_arena(PALM, ["strong", "greedy"], deals=1)
    if importlib.util.find_spec("ray") is None:
        with pytest.raises(BigTwoError, match="pip install"):
            run_arena(PALM, LINEUP, deals=1, backend="ray")


def test_strong_beats_greedy() -> None:
    result = run_arena(PALM, ["strong", "greedy", "greedy", "greedy"], deals=400, duplicate=True)
    strong = result.to_json()["bots"][0]
    assert strong["mean_points"] > 0
    assert strong["win_rate"] > 0.3
