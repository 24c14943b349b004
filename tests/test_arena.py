"""The arena: results in the documented shape, the same whatever the workers, and honest."""

from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path

import pytest

from bigtwo.arena import lineup_bots, play_deal, read_checkpoint, run_arena
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


def _figures(data: dict[str, object]) -> dict[str, object]:
    """The figures without the times, which differ from run to run."""
    out = {k: v for k, v in data.items() if k not in ("seconds", "played", "lineup")}
    out["bots"] = [
        {k: v for k, v in bot.items() if not k.startswith("decision_ms")}
        for bot in data["bots"]  # type: ignore[attr-defined]
    ]
    return out


def test_a_run_stopped_part_way_resumes_to_the_same_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["arena", "--seats", ",".join(LINEUP), "--duplicate", "--seed", "5", "--json", "--quiet"]
    assert main([*argv, "--deals", "24"]) == 0
    whole = json.loads(capsys.readouterr().out)
    path = tmp_path / "run.json"
    # the first call plays 3 of the 6 boards (as a run stopped there would have them)
    assert main([*argv, "--deals", "12", "--checkpoint", str(path)]) == 0
    capsys.readouterr()
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert sorted(kept["played"]) == ["0", "1", "2"] and kept["deals"] == 12
    boards_played: list[int] = []
    resumed = run_arena(
        PALM, LINEUP, deals=24, duplicate=True, seed=5,
        resume=read_checkpoint(path, PALM, LINEUP, 5, True),
        on_result=lambda r: boards_played.append(max(r.played)),
    )  # fmt: skip
    assert boards_played == [3, 4, 5]  # only the boards not played before
    assert _figures(resumed.to_json()) == _figures(whole)
    assert (
        main([*argv, "--deals", "24", "--checkpoint", str(path), "--resume", "--workers", "2"]) == 0
    )
    assert _figures(json.loads(capsys.readouterr().out)) == _figures(whole)
    assert _figures(json.loads(path.read_text(encoding="utf-8"))) == _figures(whole)
    assert read_checkpoint(tmp_path / "none.json", PALM, LINEUP, 5, True).played == {}


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"played": 3', "cannot be resumed: Expecting"),
        ("[1, 2]", "cannot be resumed: it holds no boards"),
        ('{"rules": "palm", "lineup": ["strong", "greedy", "classic", "random"], "seed": 5, '
         '"duplicate": true, "played": {"0": [[1, 2]]}}', "not a deal's record"),
        ('{"rules": "palm", "lineup": ["strong", "greedy", "classic", "random"], "seed": 5, '
         '"duplicate": true, "played": {"0": []}}', "board 0 is malformed"),
        ('{"rules": "palm", "lineup": ["strong", "greedy", "classic", "random"], "seed": 6, '
         '"duplicate": true, "played": {}}', "is of another run (palm, strong,greedy,classic,"
         "random, seed 6, duplicate), not this one (palm, strong,greedy,classic,random, seed 5"),
    ],
)  # fmt: skip
def test_a_checkpoint_of_another_run_or_corrupt_is_refused_in_words(
    tmp_path: Path, text: str, says: str
) -> None:
    path = tmp_path / "run.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BigTwoError, match=re.escape(says)):
        read_checkpoint(path, PALM, LINEUP, 5, True)
    assert path.read_text(encoding="utf-8") == text  # left alone


def test_resume_needs_a_checkpoint(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--seats", ",".join(LINEUP), "--resume"]) == 2
    assert "--resume needs --checkpoint FILE" in capsys.readouterr().err
