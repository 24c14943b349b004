"""Benchmarks of the engine (and, through their own modules, of bots and the server).

``bigtwo bench engine`` plays complete random games in one process: at every decision it
enumerates every legal play and picks uniformly among them and, when allowed, a pass. It
measures; it never decides anything about the game.
"""

from __future__ import annotations

import random
import time
from typing import Any

from .engine import Deal, Rules
from .engine.cards import Mask
from .engine.deal import deal_hands
from .engine.plays import Play


def random_game(rules: Rules, rng: random.Random, players: int = 4) -> int:
    """Play one random deal to its end; return the number of actions."""
    deal = Deal(rules, deal_hands(rules, players, rng))
    choice = rng.randrange
    apply = deal.apply_unchecked
    while deal.winner is None:
        plays = deal.legal_plays()
        options = len(plays) + (deal.to_beat is not None)
        pick = choice(options)
        apply(plays[pick] if pick < len(plays) else None)
    return len(deal.actions)


def bench_engine(games: int = 2000, seed: int = 1, rules_name: str = "palm") -> dict[str, Any]:
    rules = Rules.preset(rules_name)
    rng = random.Random(seed)
    random_game(rules, random.Random(0))  # warm the per-rules tables
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        actions += random_game(rules, rng)
    elapsed = time.perf_counter() - start
    positions = _random_positions(rules, random.Random(seed + 1), 2000)
    from .engine.movegen import HandPlays
    from .engine.plays import catalog_for

    catalog = catalog_for(rules)
    start = time.perf_counter()
    calls = 0
    while calls < 20000:
        for hand, target in positions:
            hp = HandPlays(catalog, hand)
            if target is None:
                hp.leads()
            else:
                hp.replies(target)
            calls += 1
    lp_elapsed = time.perf_counter() - start
    return {
        "rules": rules_name,
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "legal_plays_per_second": round(calls / lp_elapsed, 1),
    }


def _random_positions(
    rules: Rules, rng: random.Random, count: int
) -> list[tuple[Mask, Play | None]]:
    """Hands and tables met in random games, for timing legal-play enumeration from scratch."""
    out: list[tuple[Mask, Play | None]] = []
    while len(out) < count:
        deal = Deal(rules, deal_hands(rules, 4, rng))
        while deal.winner is None and len(out) < count:
            out.append((deal.hands[deal.turn], deal.to_beat))
            plays = deal.legal_plays()
            pick = rng.randrange(len(plays) + (deal.to_beat is not None))
            deal.apply_unchecked(plays[pick] if pick < len(plays) else None)
    return out


def bench_revolution(
    deals: int = 1000, seed: int = 1, players: int = 4, workers: int = 1
) -> dict[str, Any]:
    """Fuzz the expansion: play ``deals`` random hands of ``revolution`` (at every decision a
    kind of action at random, then one of that kind: plays, passes, every function, counters,
    declines, draws and stops all come up), checking after every action that the 104 cards are
    each in one place and that no seat's view holds a card hidden from it. Counts what
    happened and every violation found. Hand ``n`` is shuffled from ``seed:n`` and played with
    a generator of its own, so ``workers`` processes (each a share of the hands) find the
    same figures as one."""
    from collections import Counter

    if workers < 1:
        raise ValueError("workers must be at least 1")
    step = max(1, min(500, -(-deals // (workers * 4))))
    chunks = [(seed, players, a, min(deals, a + step)) for a in range(0, deals, step)]
    totals: Counter[str] = Counter()
    violations: list[str] = []
    start = time.perf_counter()
    if workers == 1:
        parts = map(_fuzz_revolution, chunks)
        for counts, found in parts:
            totals.update(counts)
            violations += found
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            for counts, found in pool.imap(_fuzz_revolution, chunks):
                totals.update(counts)
                violations += found
    elapsed = time.perf_counter() - start
    actions = totals["actions"]
    moves = {k[5:]: v for k, v in totals.items() if k.startswith("move:")}
    functions = {k[9:]: v for k, v in totals.items() if k.startswith("function:")}
    return {
        "rules": "revolution",
        "deals": deals,
        "players": players,
        "workers": workers,
        "seconds": round(elapsed, 3),
        "deals_per_second": round(deals / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "violations": len(violations),
        "first_violations": violations[:5],
        "functions_per_deal": round(sum(functions.values()) / deals, 2),
        "functions": functions,
        "moves": moves,
        "ended_by_exhaustion": round(totals["exhaustion"] / deals, 3),
    }


def _fuzz_revolution(chunk: tuple[int, int, int, int]) -> tuple[dict[str, int], list[str]]:
    """Hands ``first`` to ``stop`` - 1 of a fuzz run: what happened, and the violations."""
    from collections import Counter

    from .engine.revolution import End, Move, RevolutionChoice, RevolutionDeal

    seed, players, first, stop = chunk
    rules = Rules.preset("revolution")
    counts: Counter[str] = Counter()
    violations: list[str] = []
    for number in range(first, stop):
        deal = RevolutionDeal.from_seed(rules, f"{seed}:{number}", players)
        rng = random.Random(f"{seed}:{number}:moves")
        while not deal.over:
            by_move: dict[Move, list[RevolutionChoice]] = {}
            for choice in deal.choices():
                by_move.setdefault(choice.move, []).append(choice)
            kinds = list(by_move)
            picked = rng.choice(by_move[kinds[rng.randrange(len(kinds))]])
            checked = len(deal.actions)
            action = deal.take(picked)
            counts["actions"] += 1
            counts["move:" + action.kind.value] += 1
            if action.kind is Move.ACTIVATE:
                counts["function:" + action.function] += 1
            for problem in deal.problems(since=checked):
                violations.append(f"deal {number}, after '{action}': {problem}")
        counts["exhaustion"] += deal.end is End.EXHAUSTION
    return dict(counts), violations


def bench_revolution_bots(levels: list[str], deals: int = 200, seed: int = 1) -> dict[str, Any]:
    """Computer players of the given levels (one a seat) play ``deals`` hands of
    ``revolution``, each scored as the preset says; reports how the expansion is used (mean
    functions, counters and draws per hand, the share ended by exhaustion) and each level's
    mean points and wins. Seats rotate from hand to hand so no level keeps one seat."""
    from collections import Counter

    from .bots import make_bot
    from .engine.revolution import End, Move, RevolutionDeal
    from .match.scoring import score_revolution_hand
    from .match.settings import RuleSet

    ruleset = RuleSet.preset("revolution")
    rules = ruleset.rules
    players = len(levels)
    bots = [make_bot(name, "revolution") for name in levels]
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    points: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    violations = 0
    start = time.perf_counter()
    for number in range(deals):
        deal = RevolutionDeal.from_seed(rules, f"{seed}:{number}", players)
        at = [levels[(s + number) % players] for s in range(players)]
        seated = [bots[(s + number) % players] for s in range(players)]
        while not deal.over:
            seat = deal.to_act
            action = deal.take(seated[seat].choose(deal.view(seat), rng))
            if action.move is Move.ACTIVATE:
                counts["functions"] += 1
                counts[action.function] += 1
            elif action.move in (Move.COUNTER, Move.DRAW):
                counts[action.move.value + "s"] += 1
        violations += bool(deal.problems())
        assert deal.winner is not None
        exhausted = deal.end is End.EXHAUSTION
        counts["exhaustion"] += exhausted
        score = score_revolution_hand(ruleset, deal.hands, deal.winner, exhausted)
        for s, p in enumerate(score.points):
            points[at[s]] += p
        wins[at[deal.winner]] += 1
    elapsed = time.perf_counter() - start
    seats_per_level = Counter(levels)
    return {
        "rules": "revolution",
        "levels": levels,
        "deals": deals,
        "seconds": round(elapsed, 3),
        "functions_per_deal": round(counts["functions"] / deals, 2),
        "by_function_per_deal": {
            f: round(counts[f] / deals, 2) for f in ("jump", "command", "exchange", "revolution")
        },
        "counters_per_deal": round(counts["counters"] / deals, 2),
        "draws_per_deal": round(counts["draws"] / deals, 2),
        "ended_by_exhaustion": round(counts["exhaustion"] / deals, 3),
        "mean_points_per_seat": {
            name: round(points[name] / (deals * n), 2) for name, n in seats_per_level.items()
        },
        "win_share_per_seat": {
            name: round(wins[name] / (deals * n), 3) for name, n in seats_per_level.items()
        },
        "violations": violations,
    }
