"""The search's measuring scripts: the diagnostic's safe-search settings and the board-by-board
comparison of two arena runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPTS = Path(__file__).parents[1] / "scripts"


def run_script(
    name: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPTS / name), *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


def checkpoint(path: Path, seed: int, name: str, boards: dict[int, list[int]]) -> Path:
    """An arena checkpoint of duplicate boards whose first player scored the given points in
    each of a board's four deals."""
    played = {
        str(board): [[[p, -p, 0, 0], [0, 0, 0, 0], 0, [[], [], [], []], 0, False] for p in points]
        for board, points in boards.items()
    }
    data = {
        "rules": "charlesworth2018",
        "seed": seed,
        "duplicate": True,
        "lineup": [name, "x", "x", "x"],
        "played": played,
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_two_runs_are_compared_board_by_board(tmp_path: Path) -> None:
    a = checkpoint(
        tmp_path / "a.json", 7, "network-alone", {0: [1, 1, 1, 1], 1: [0, 0, 0, 0], 2: [2, 2, 2, 2]}
    )
    b = checkpoint(
        tmp_path / "b.json", 7, "expert-safe", {0: [2, 2, 2, 2], 1: [2, 2, 0, 0], 3: [9, 9, 9, 9]}
    )
    out = run_script("compare_arenas.py", str(a), str(b))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "2 boards played by both (seed 7)"  # boards 0 and 1
    assert lines[1] == "A network-alone (a.json): +0.50 a deal"
    assert lines[2] == "B expert-safe (b.json): +1.50 a deal"
    # differences +1 and +1: no spread, so the interval is the mean itself
    assert lines[3] == "B − A: +1.00 (+1.00 … +1.00) a deal, 95%"


def test_runs_of_other_boards_or_no_checkpoint_are_refused_in_words(tmp_path: Path) -> None:
    a = checkpoint(tmp_path / "a.json", 7, "p", {0: [1, 1, 1, 1], 1: [0, 0, 0, 0]})
    b = checkpoint(tmp_path / "b.json", 8, "q", {0: [1, 1, 1, 1], 1: [0, 0, 0, 0]})
    other = run_script("compare_arenas.py", str(a), str(b))
    assert other.returncode == 2
    assert "different boards (seeds 7 and 8)" in other.stderr
    text = tmp_path / "notes.txt"
    text.write_text("not json", encoding="utf-8")
    broken = run_script("compare_arenas.py", str(a), str(text))
    assert broken.returncode == 2
    assert "is not an arena checkpoint" in broken.stderr and "Traceback" not in broken.stderr


def test_the_diagnostic_refuses_an_unknown_search_setting_in_words() -> None:
    out = run_script(
        "search_diagnostic.py", "--level", "safe", "--deals", "4", "--option", "bogus=1"
    )
    assert out.returncode == 2
    assert "a safe search option is wrong" in out.stderr and "bogus" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_diagnostics_settings_reach_the_safe_search() -> None:
    code = (
        "import importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('diag', {str(SCRIPTS / 'search_diagnostic.py')!r})\n"
        "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "bot = mod.SafeExpert()\n"
        "print(bot.worlds, bot.endgame, bot.beliefs, bot.z)\n"
    )
    env = {**os.environ, "BIGTWO_SEARCH_OPTIONS": "worlds=48,endgame=10,beliefs=0.3,z=1.5"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["48", "10", "0.3", "1.5"]


def test_a_missing_network_is_refused_in_words(tmp_path: Path) -> None:
    for flag in ("--network", "--opponent-network"):
        out = run_script("search_diagnostic.py", flag, str(tmp_path / "none.npz"), "--deals", "4")
        assert out.returncode == 2
        assert "No network weights at" in out.stderr and "Traceback" not in out.stderr


def test_the_labels_are_collected_and_carried_on_where_the_file_stops(tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    network = str(Path(__file__).parents[1] / "src/bigtwo/bots/learned.npz")
    small = ["--network", network, "--labels", str(labels), "--worlds", "2", "--budget", "100"]
    done = run_script("distil.py", "collect", *small, "--deals", "2")
    assert done.returncode == 0, done.stderr
    assert "2 deals labelled" in done.stdout and "2 in" in done.stdout
    first = labels.read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["seed"] for line in first) == [900_000_000, 900_000_001]
    more = run_script("distil.py", "collect", *small, "--deals", "3")
    assert "1 deal labelled" in more.stdout and "3 in" in more.stdout
    assert labels.read_text(encoding="utf-8").splitlines()[:2] == first
    missing = run_script("distil.py", "collect", *small[2:], "--network", str(tmp_path / "no.npz"))
    assert missing.returncode == 2
    assert "No network weights at" in missing.stderr and "Traceback" not in missing.stderr
