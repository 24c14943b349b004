"""``bigtwo bench server`` runs end to end on loopback (a small, short run) and reports the
figures it promises; it refuses to aim at another machine."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bigtwo.server.bench import run_bench


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_bench_server_reports_its_figures() -> None:
    command = [
        sys.executable, "-m", "bigtwo.cli", "bench", "server",
        "--tables", "6", "--seconds", "1.5", "--think-ms", "50", "--json",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=90, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    for key in (
        "tables",
        "actions_per_second",
        "latency_ms_p50",
        "latency_ms_p99",
        "errors",
        "server_rss_mb",
    ):
        assert key in result
    assert result["tables"] == 6 and result["tables_started"] == 6 and result["connections"] == 24
    assert result["errors"] == 0, result["error_detail"]
    assert result["actions_per_second"] > 0 and result["server_rss_mb"] > 0
    assert 0 < result["latency_ms_p50"] <= result["latency_ms_p99"]


def test_bench_stays_on_this_machine() -> None:
    with pytest.raises(ValueError, match="only runs against this machine"):
        run_bench(1, 1, url="http://example.com:8000")
