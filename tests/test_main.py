"""``python -m bigtwo`` is the ``bigtwo`` command: same subcommands, same exit statuses, same
messages in words for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bigtwo.match.record_formats import read_game_file as read_file


def bigtwo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bigtwo", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_python_dash_m_bigtwo_runs_a_subcommand(tmp_path: Path) -> None:
    out = tmp_path / "game.txt"
    done = bigtwo(
        "simulate", "--rules", "palm", "--seats", "random,random,random,random",
        "--deals", "1", "--seed", "5", "--out", str(out), "--format", "text",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"Wrote {out}: 1 deal" in done.stdout
    assert read_file(out).deal_number == 1


def test_python_dash_m_bigtwo_lists_its_commands_and_refuses_bad_ones() -> None:
    done = bigtwo("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: bigtwo") and "simulate" in done.stdout
    bad = bigtwo("simulate", "--rules", "no-such-rules")
    assert bad.returncode == 2
    assert "no-such-rules" in bad.stderr and "Traceback" not in bad.stderr


def test_bigtwo_says_its_version() -> None:
    from bigtwo import __version__

    done = subprocess.run(
        [sys.executable, "-m", "bigtwo", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout == f"bigtwo {__version__}\n"
