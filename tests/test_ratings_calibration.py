"""Calibrating the computer levels' fixed ratings (``bigtwo ratings calibrate``): a tiny seeded
run's games are the arena's own (the same lineup and seed give the same points), and its
ratings are the ones OpenSkill's Plackett-Luce model gives for those games' places, not any
file's numbers; the same seed gives the same run; the file written is the one the server
reads; bad input is refused in words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bigtwo.arena import run_arena
from bigtwo.cli import main
from bigtwo.engine.errors import BigTwoError
from bigtwo.match.settings import RuleSet
from bigtwo.server.calibration import calibrate, family_presets
from bigtwo.server.ratings import DATA_FILE, computer_ratings, places

QUICK = ["random", "greedy", "classic", "strong", "learned"]  # levels that answer at once


@pytest.mark.parametrize(
    ("family", "levels"),
    [("bigtwo", QUICK), ("revolution", ["random", "greedy", "classic", "strong"])],
)
def test_a_tiny_calibration_gives_the_libraries_figures(family: str, levels: list[str]) -> None:
    done = calibrate(family, games=4, seed=7, levels=levels)
    assert len(done.games) == 4
    model = PlackettLuce()
    expected = {level: model.rating() for level in levels}
    for game in done.games:
        assert len(set(game.lineup)) == 4 and set(game.lineup) <= set(levels)
        assert game.preset in family_presets(family)
        arena = run_arena(
            RuleSet.preset(game.preset), game.lineup, deals=4, duplicate=True, seed=game.seed
        )
        deals = arena.played[0]
        assert game.totals == tuple(sum(d.points[s] for d in deals) for s in range(4))
        assert game.wins == tuple(sum(d.winner == s for d in deals) for s in range(4))
        assert game.cards == tuple(sum(d.cards_left[s] for d in deals) for s in range(4))
        assert sum(game.wins) == 4  # a board: four deals, each won by one seat
        teams = [[expected[level]] for level in game.lineup]
        finish = places(game.totals, game.wins, game.cards)
        rated = model.rate(teams, ranks=[float(p) for p in finish])
        expected.update((level, team[0]) for level, team in zip(game.lineup, rated, strict=True))
    for level in levels:
        assert done.ratings[level] == pytest.approx((expected[level].mu, expected[level].sigma))
    # Something was learnt, and the same seed plays the same run.
    assert len({round(mu, 6) for mu, _ in done.ratings.values()}) > 1
    assert calibrate(family, games=4, seed=7, levels=levels).ratings == done.ratings


def test_the_command_writes_the_file_the_server_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ratings.json"
    levels = "random,greedy,classic,strong"
    code = main(["ratings", "calibrate", "--family", "revolution", "--games", "3", "--seed", "2",
                 "--levels", levels, "--out", str(out), "--quiet"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    written = data["families"]["revolution"]
    assert written["command"] == (
        f"bigtwo ratings calibrate --games 3 --seed 2 --family revolution --levels {levels}"
    )
    assert written["games"] == 3 and set(written["levels"]) == set(levels.split(","))
    expected = calibrate("revolution", 3, 2, levels.split(",")).ratings
    read = computer_ratings(out)["revolution"]
    for level, (mu, sigma) in expected.items():
        assert read[level] == pytest.approx((mu, sigma), abs=1e-4)
        assert level in printed
    assert computer_ratings(out)["bigtwo"] == {}  # a family not calibrated: none


def test_the_committed_file_names_its_command_and_every_level() -> None:
    data = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    for family in ("bigtwo", "revolution"):
        made = data["families"][family]
        assert made["command"].startswith("bigtwo ratings calibrate ")
        assert made["games"] >= 20 and all(r["games"] > 0 for r in made["levels"].values())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], "at least one game"),
        (["--levels", "random,greedy,nobody,strong"], "No computer level nobody"),
        (["--levels", "random,greedy"], "at least 4 levels"),
    ],
)
def test_bad_input_is_refused_in_words(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ratings", "calibrate", "--family", "revolution", "--quiet", *args]) == 2
    assert words in capsys.readouterr().err


def test_an_unknown_family_is_refused_in_words() -> None:
    with pytest.raises(BigTwoError, match="No family of rules 'chess'"):
        calibrate("chess", 1)
