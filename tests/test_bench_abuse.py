"""``bigtwo bench abuse`` runs end to end on loopback (a short run): it reports every pattern,
each of which really reached the server, and every target beside its figure. Whether the
targets are met is what the bench measures, not what this test checks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bigtwo.server.abuse import TARGETS, targets

PATTERNS = {
    "chat_seated", "chat_spectator", "ready_toggle", "room_flood", "seat_squat",
    "crafted_rules", "cross_site", "spectator_grab", "reused_action_id",
}  # fmt: skip


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_bench_abuse_hits_the_server_with_every_pattern() -> None:
    command = [sys.executable, "-m", "bigtwo.cli", "bench", "abuse", "--seconds", "2", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=150, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result["patterns"]) == PATTERNS
    for name, pattern in result["patterns"].items():
        assert pattern["accepted"] + pattern["refused"] > 0, (name, pattern)
        addresses = result["source_addresses"][name]
        assert addresses and all(a.startswith("127.") and a != "127.0.0.1" for a in addresses)
    every = [a for addresses in result["source_addresses"].values() for a in addresses]
    assert len(every) == len(set(every)), "each pattern has addresses of its own"
    assert set(result["targets"]) == set(TARGETS)
    for key, target in result["targets"].items():
        assert target["value"] == result[key] and isinstance(target["met"], bool)
    assert result["legit_actions"] > 0, "the legitimate table played"
    assert result["restart_s"] is not None and result["restart_s"] > 0
    assert result["database_mb_after"] >= result["database_mb_before"] > 0


def test_targets_are_met_or_missed_by_their_figures() -> None:
    good = {"database_growth_mb": 1.0, "legit_latency_ms_p99": 20.0, "server_5xx": 0,
            "internal_errors": 0, "restart_s": 0.4, "strong_wait_ms_p99": 30.0}  # fmt: skip
    assert all(t["met"] for t in targets(good).values())
    bad = {**good, "database_growth_mb": 402.0, "server_5xx": 3, "strong_wait_ms_p99": None}
    missed = {k for k, t in targets(bad).items() if not t["met"]}
    assert missed == {"database_growth_mb", "server_5xx", "strong_wait_ms_p99"}


def test_bench_abuse_refuses_bad_options() -> None:
    command = [sys.executable, "-m", "bigtwo.cli", "bench", "abuse", "--seconds", "0"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2 and "must be positive" in done.stderr
    assert "Traceback" not in done.stderr
