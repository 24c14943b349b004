"""The arena plays Big 2 RevolutioN: duplicate boards share both decks, and the figures add up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bigtwo.arena as arena
from bigtwo.arena import BoardTask, board_cards, run_arena, run_board
from bigtwo.cli import main
from bigtwo.engine.errors import BigTwoError
from bigtwo.match import RuleSet

REVOLUTION = RuleSet.preset("revolution")
LINEUP = ("strong", "greedy", "classic", "random")


def test_every_rotation_of_a_board_gets_the_same_revolution_deck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[list[int], tuple[int, ...], str]] = []
    real = arena.play_revolution_deal

    def spy(rules, bots, hands, deck, key):  # type: ignore[no-untyped-def]
        seen.append((list(hands), tuple(deck), key))
        return real(rules, bots, hands, deck, key)

    monkeypatch.setattr(arena, "play_revolution_deal", spy)
    task = BoardTask(REVOLUTION, LINEUP, board=3, seed=11, duplicate=True)
    records = run_board(task)
    assert len(records) == len(seen) == 4
    hands, deck = board_cards(task)
    assert deck is not None and sorted(deck) == list(range(52, 104))
    for r, (rotated, dealt_deck, key) in enumerate(seen):
        assert dealt_deck == deck  # the same Revolution deck, in the same order, every time
        assert rotated == [hands[(seat + r) % 4] for seat in range(4)]
        assert key == f"11:3:{r}"
    # another board is another shuffle of both decks
    other_hands, other_deck = board_cards(BoardTask(REVOLUTION, LINEUP, 4, 11, True))
    assert other_deck != deck and other_hands != hands
    # a 52-card board has no Revolution deck
    assert board_cards(BoardTask(RuleSet.preset("palm"), LINEUP, 3, 11, True))[1] is None


def test_a_duplicate_revolution_arena_reports_its_figures() -> None:
    data = run_arena(REVOLUTION, LINEUP, deals=24, duplicate=True, seed=2).to_json()
    assert data["deals"] == 24 and data["boards"] == 6 and data["rules"] == "revolution"
    assert [b["name"] for b in data["bots"]] == list(LINEUP)
    for bot in data["bots"]:
        low, high = bot["ci95"]
        assert low <= bot["mean_points"] <= high <= 0  # deduction: nobody collects
        low, high = bot["margin_ci95"]
        assert low <= bot["margin"] <= high
        assert bot["decisions"] > 0
    # each seat's margin is its points less the others' mean, so the margins add up to zero
    assert sum(b["margin"] for b in data["bots"]) == pytest.approx(0.0, abs=0.01)
    assert data["functions_per_deal"] > 0
    assert 0.0 <= data["ended_by_exhaustion"] <= 1.0
    json.dumps(data)


def test_the_same_seed_gives_the_same_revolution_figures() -> None:
    one = run_arena(REVOLUTION, LINEUP, deals=8, duplicate=True, seed=5).to_json()
    two = run_arena(REVOLUTION, LINEUP, deals=8, duplicate=True, seed=5).to_json()
    strip = [{k: v for k, v in b.items() if not k.startswith("decision_ms")} for b in one["bots"]]
    assert strip == [
        {k: v for k, v in b.items() if not k.startswith("decision_ms")} for b in two["bots"]
    ]
    assert one["functions_per_deal"] == two["functions_per_deal"]


def test_a_board_scores_every_hand_as_the_preset_says() -> None:
    for record in run_board(BoardTask(REVOLUTION, LINEUP, 0, 9, True)):
        assert record.points[record.winner] == 0
        assert all(p <= 0 for p in record.points)
        left = record.cards_left
        if record.exhausted:
            fewest = min(left)
            assert all(p == 0 for p, n in zip(record.points, left, strict=True) if n == fewest)
        else:
            assert left[record.winner] == 0
        assert all(0 <= n <= 13 + 13 for n in left)


def test_the_command_reports_functions_and_exhaustion(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--rules", "revolution", "--seats", "strong,greedy,greedy,greedy"]
    assert main([*argv, "--deals", "8", "--duplicate", "--json", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["deals"] == 8 and "functions_per_deal" in data
    assert main([*argv, "--deals", "8", "--duplicate", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Functions used:" in out and "ended by exhaustion" in out


def test_a_level_that_does_not_play_revolution_is_refused() -> None:
    with pytest.raises(BigTwoError, match="plays revolution yet"):
        run_arena(REVOLUTION, ["ppo2018", "greedy", "greedy", "greedy"], deals=4)


def test_a_checkpoint_holds_the_figures_so_far(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[int] = []
    result = run_arena(
        REVOLUTION,
        LINEUP,
        deals=12,
        duplicate=True,
        seed=3,
        on_result=lambda r: seen.append(r.deals),
    )
    assert seen == [4, 8, 12] and result.deals == 12
    path = tmp_path / "figures.json"
    argv = ["arena", "--rules", "revolution", "--seats", ",".join(LINEUP), "--deals", "8"]
    assert main([*argv, "--duplicate", "--json", "--quiet", "--checkpoint", str(path)]) == 0
    final = json.loads(capsys.readouterr().out)
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert kept.pop("lineup") == list(LINEUP) and sorted(kept.pop("played")) == ["0", "1"]
    assert {**kept, "seconds": 0} == {**final, "seconds": 0}
