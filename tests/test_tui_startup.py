"""``bigtwo bench startup`` times a real start of the terminal game in a pseudo-terminal, to
the moment its table takes a key; it measures, and no figure is asserted (a busy machine is
slow)."""

from __future__ import annotations

import pytest

from bigtwo.cli import main
from bigtwo.tui.startup import one_start


def test_one_start_reaches_a_table_that_takes_a_key() -> None:
    wall, cpu = one_start(timeout=60)
    assert cpu > 0 and 0 < wall < 60


def test_the_bench_refuses_no_runs_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "startup", "--runs", "0"]) == 2
    assert "--runs must be at least 1" in capsys.readouterr().out
