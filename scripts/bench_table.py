"""Time the table work of the network server per action: seeded matches of the 52-card game
on a :class:`~bigtwo.service.table.BigTwoService` made as the server's hub makes one, four
players seated, connected and ready. Each player plays the first legal play of its ``turn``
event, or passes every third turn where it may, submitted as the server's wire makes the
command (an action id, the event it saw); after each submit come the calls the server's
runner makes: the clock's key, the clock when it changed, the timer's deadline and the
computer's think request.

``python scripts/bench_table.py [--actions 4000] [--rounds 3] [--seed 1] [--profile]`` prints
the processor time (``time.process_time``) of the table's work per action, the best and the
median of the rounds (a busy machine slows some); ``--profile`` prints a cProfile's top
entries instead.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time
from typing import Any

from bigtwo.engine.cards import parse_cards, to_mask
from bigtwo.service.commands import Command, Op
from bigtwo.service.request import table_config
from bigtwo.service.table import TableService, TableStatus, hash_token

PLAYERS = 4


def new_table(seed: int) -> TableService:
    """A table of four people, seated, connected and ready: the match is on. Its room is
    the one the server's load test asks for (a public room: a turn timer, a pause between
    deals), made as the server makes a room from a request."""
    request = {"seats": ["human"] * PLAYERS, "deals": 1000, "away_seconds": None, "seed": seed}
    config = table_config(request, allow_seed=True)
    table = TableService(config, f"B{seed}", now=0.0, resync_gap=200, seat_grace=120.0)
    for seat in range(PLAYERS):
        table.apply(Command(Op.JOIN, seat=seat, name=f"P{seat}", token=hash_token(f"t{seat}")), 0.0)
        table.connect(seat, 0.0)
    for seat in range(PLAYERS):
        table.submit(Command(Op.READY, seat=seat), 0.0)
    return table


class Runner:
    """What the server's runner asks of the table after each command."""

    def __init__(self, table: TableService) -> None:
        self.table = table
        self.clock_key: Any = None
        self.prompt: dict[str, Any] | None = None
        self.turns = 0
        self.actions = 0
        self.ids = 0
        self.spent = 0.0  # processor seconds in the table's work (not the players')

    def run(self, cmd: Command, now: float) -> None:
        """Apply ``cmd`` as the runner does, counting the processor time it takes."""
        started = time.process_time()
        self._run(cmd, now)
        self.spent += time.process_time() - started

    def _run(self, cmd: Command, now: float) -> None:
        table = self.table
        _, events = table.submit(cmd, now)
        for event in events:
            if event.type == "turn":
                self.prompt = event.data
        key = table.clock_deadlines()
        if key != self.clock_key:
            self.clock_key = key
            table.clock(now, key)
        table.deadline()
        table.think_request()

    def act(self, now: float) -> None:
        """The player whose turn it is acts on its last ``turn`` event."""
        table = self.table
        if table.between is not None:
            for seat in range(PLAYERS):
                self.run(Command(Op.NEXT, seat=seat), now)
            return
        prompt = self.prompt
        assert prompt is not None
        self.turns += 1
        cards = None
        if not (prompt["can_pass"] and self.turns % 3 == 0):
            cards = to_mask(parse_cards(prompt["legal"][0]))
        self.ids += 1
        cmd = Command(
            Op.ACT, seat=prompt["seat"], cards=cards, id=f"a{self.ids}", seen=table.state_v
        )
        self.run(cmd, now)
        self.actions += 1


def play(actions: int, seed: int) -> tuple[float, int]:
    """Processor seconds spent on ``actions`` actions of seeded tables, and their count."""
    spent = 0.0
    done = 0
    table_seed = seed
    while done < actions:
        table = new_table(table_seed)
        runner = Runner(table)
        runner.prompt = _first_prompt(table)
        now = 0.0
        while table.status == TableStatus.PLAYING and runner.actions < actions - done:
            now += 1.0
            runner.act(now)
        spent += runner.spent
        done += runner.actions
        table_seed += 1
    return spent, done


def _first_prompt(table: TableService) -> dict[str, Any]:
    """The newest ``turn`` event in the table's log."""
    for i in range(len(table._texts) - 1, -1, -1):
        if table._types[i] == "turn":
            return dict(json.loads(table._texts[i]))
    raise RuntimeError("the match did not start")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3, help="the same actions, again (best of)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile's top entries")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        play(args.actions, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        return 0
    per_action = []
    for _ in range(args.rounds):
        spent, done = play(args.actions, args.seed)
        per_action.append(spent / done * 1e6)
    print(
        f"{done} actions, {args.rounds} rounds: {min(per_action):.1f} µs of processor time per "
        f"action at best, {statistics.median(per_action):.1f} µs the median"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
