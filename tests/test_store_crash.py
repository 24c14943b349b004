"""A process killed with SIGKILL in the middle of a match loses at most the action in flight:
the match resumes from the last completed action and plays on."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bigtwo.autoplay import play_out
from bigtwo.bots import make_bot
from bigtwo.match import Match
from bigtwo.match.settings import RuleSet
from bigtwo.store.matches import MatchStore

CHILD = """
import random, sys, time
from bigtwo.bots import make_bot
from bigtwo.match.settings import RuleSet
from bigtwo.match import Match
from bigtwo.autoplay import play_out
from bigtwo.store.matches import MatchStore

db, seed = sys.argv[1], int(sys.argv[2])
store = MatchStore(db)
match = Match(RuleSet.preset("palm"), seed=seed, kinds=["random"] * 4)
match_id = store.new_match(match)
print("id", match_id, flush=True)

def after(actions):
    store.save(match_id, match)  # durable once this returns
    print("saved", sum(len(r.actions) for r in match.deal_records()), flush=True)
    time.sleep(0.003)  # a slow game; the kill lands in a save or in this pause

play_out(match, [make_bot("random") for _ in range(4)], random.Random(seed), after=after)
print("done", flush=True)
"""


def flat(match: Match) -> list[tuple[int, int, int | None, bool]]:
    return [
        (r.number, a.seat, a.play.mask if a.play else None, a.auto)
        for r in match.deal_records()
        for a in r.actions
    ]


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("kill_after", [37, 150])
def test_a_killed_match_resumes_from_the_last_completed_action(
    tmp_path: Path, kill_after: int
) -> None:
    seed = 77
    db = tmp_path / "crash.db"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    saved = 0
    match_id = None
    deadline = time.monotonic() + 60
    try:
        assert child.stdout is not None
        for line in child.stdout:
            word, _, value = line.strip().partition(" ")
            if word == "id":
                match_id = int(value)
            elif word == "saved":
                saved = int(value)
                if saved >= kill_after:
                    os.kill(child.pid, signal.SIGKILL)
                    break
            assert word != "done", "the match ended before it could be killed"
            assert time.monotonic() < deadline
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""
    assert match_id is not None

    # The same game, played through without any crash.
    reference = play_out(
        Match(RuleSet.preset("palm"), seed=seed),
        [make_bot("random") for _ in range(4)],
        random.Random(seed),
    )
    with MatchStore(db) as store:
        [info] = store.unfinished()
        assert info.id == match_id
        resumed = store.load_match(match_id)
        done = flat(resumed)
        # Every action reported as saved is there (the child may have saved a few more
        # steps before the kill reached it), and nothing else: the exact game so far.
        assert saved <= len(done) < len(flat(reference))
        assert done == flat(reference)[: len(done)]
        # The resumed game goes on (saved after its first step, then once at the end).
        steps: list[int] = []
        play_out(resumed, [make_bot("greedy") for _ in range(4)],
                 after=lambda _a: steps.append(store.save(match_id, resumed)) if not steps else None)  # fmt: skip
        store.finish(match_id, resumed)
        assert resumed.over and all(sum(r.points) == 0 for r in resumed.results)
    with MatchStore(db) as store:
        assert flat(store.load_match(match_id)) == flat(resumed)
