"""``bigtwo simulate``, ``scores``, ``stats``, ``history``, ``replay`` and ``record check``.

Each subcommand is a thin shell over :mod:`bigtwo.match`: simulate plays a match between
computer players and writes its record; scores, stats and history read the database; replay
steps through a record with every hand face up; record check replays a record and says
whether it is sound. Bad input raises a BigTwoError, which the ``bigtwo`` command prints.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..autoplay import play_out
from ..engine.errors import BigTwoError
from ..engine.rules import BIGTWO, REVOLUTION
from ..match import revolution_history
from ..match.files import write_atomic
from ..match.history import (
    match_history,
    position_text,
    positions,
    score_table,
    signed,
)
from ..match.match import Match
from ..match.record_formats import FORMS, Game, read_game_file, write_game, write_game_file
from ..match.revolution import RevolutionMatch, play_revolution_match
from ..store.matches import MatchStore
from . import rules_of


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    simulate = sub.add_parser(
        "simulate", help="play a match between computer players, write its record"
    )
    simulate.add_argument("--rules", default="palm", help="a preset name or a TOML rules file")
    simulate.add_argument(
        "--seats", default="random,random,random,random",
        help="one computer level per seat, comma separated (2 to 4 seats)",
    )  # fmt: skip
    simulate.add_argument("--names", help="the seats' names, comma separated")
    simulate.add_argument("--deals", type=int, help="deals to play (default: the rules' game)")
    simulate.add_argument("--seed", default="1", help="the seed for the deals and the bots")
    simulate.add_argument("--out", help="write the record here (default: print it)")
    simulate.add_argument("--format", choices=FORMS, default="text")
    simulate.add_argument(
        "--save", action="store_true", help="also store the match in the database"
    )
    _db_option(simulate)
    simulate.set_defaults(run=_simulate)

    scores = sub.add_parser("scores", help="the high-score list")
    scores.add_argument("--limit", type=int, default=10)
    _db_option(scores)
    scores.set_defaults(run=_scores)

    stats = sub.add_parser("stats", help="lifetime statistics of a player's name")
    stats.add_argument("name")
    _db_option(stats)
    stats.set_defaults(run=_stats)

    history = sub.add_parser("history", help="a match's history, Palm style (print or export)")
    history.add_argument(
        "match", nargs="?", help="a stored match's id or a record file (default: the latest match)"
    )
    history.add_argument("--export", metavar="FILE", help="write the history to FILE")
    _db_option(history)
    history.set_defaults(run=_history)

    replay = sub.add_parser("replay", help="step through a record with every hand face up")
    replay.add_argument("file")
    replay.add_argument(
        "--at", type=int, metavar="STEP", help="print one position (0 = first) and stop"
    )
    replay.set_defaults(run=_replay)

    rec = sub.add_parser("record", help="check or convert game records")
    rec_sub = rec.add_subparsers(dest="record_command", metavar="check|convert", required=True)
    check = rec_sub.add_parser("check", help="replay a record and say whether it is sound")
    check.add_argument("file")
    check.set_defaults(run=_record_check)
    convert = rec_sub.add_parser("convert", help="write a record in the other form")
    convert.add_argument("file")
    convert.add_argument("--format", choices=FORMS, default="json")
    convert.add_argument("--out", help="write here (default: print)")
    convert.set_defaults(run=_record_convert)


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", metavar="PATH", help="the database (default: $BIGTWO_DB, else the user data folder)"
    )


def _open_store(args: argparse.Namespace) -> MatchStore:
    return MatchStore(args.db)


# -- simulate ------------------------------------------------------------------------------------
# The seats of a match between computers, unless --names says: every one a computer (the
# terminal game's "You" is a person's seat), named as the Palm table named its computers.
SIMULATED_NAMES = ("Ann", "Bill", "Cat", "Dan")


def _simulate(args: argparse.Namespace) -> int:
    from ..bots import make_bot

    rules = rules_of(args.rules)
    game = _GAMES[rules.rules.game]
    levels = [s.strip() for s in args.seats.split(",") if s.strip()]
    bots = [make_bot(level, rules.rules.game) for level in levels]  # an unknown level first
    if not 2 <= len(levels) <= 4:
        raise BigTwoError(f"--seats needs 2 to 4 computer players, not {len(levels)}")
    if not game.stored and (args.format != "text" or args.save):
        raise BigTwoError("Revolution matches are written as text records only, not stored")
    names = _names(args, len(levels))
    if args.deals is not None and args.deals < 1:
        raise BigTwoError("--deals must be at least 1")
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    match = game.start(rules, names, players=len(levels), seed=seed, deals=args.deals, kinds=levels)
    store = _open_store(args) if args.save else None
    try:
        match_id = store.new_match(match) if store else None
        after = (lambda _actions: store.save(match_id, match)) if store and match_id else None
        game.play_out(match, bots, seed, after)
        if store and match_id is not None:
            store.finish(match_id, match)
    finally:
        if store:
            store.close()
    deals = f"{len(match.results)} deal" + ("" if len(match.results) == 1 else "s")
    saved = f" (match {match_id} in the database)" if store else ""
    return _write_record(match, args, f": {deals}, totals {_totals(match)}{saved}")


def _names(args: argparse.Namespace, players: int) -> list[str]:
    """The seats' names: ``--names``, else the computers' own."""
    if args.names:
        return [n.strip() for n in args.names.split(",")]
    return list(SIMULATED_NAMES[:players])


def _write_record(game: Game, args: argparse.Namespace, said: str = "") -> int:
    """Write a match's record to ``--out`` in ``--format`` (and say so, with ``said``), else
    print it."""
    if args.out:
        write_game_file(game, args.out, form=args.format)
        print(f"Wrote {args.out}{said}")
    else:
        sys.stdout.write(write_game(game, form=args.format))
    return 0


# -- the database ---------------------------------------------------------------------------------
def _scores(args: argparse.Namespace) -> int:
    with _open_store(args) as store:
        scores = store.high_scores(args.limit)
    if not scores:
        print("No high scores yet.")
        return 0
    print(
        f"{'#':>2}  {'Name':<12} {'Score':>6}  {'Date':<10}  {'Rules':<10} {'Deals':>5} {'Seconds':>8} {'Max':>5} {'Balance':>8}"
    )
    for rank, s in enumerate(scores, 1):
        print(
            f"{rank:>2}  {s.name:<12} {s.score:>6}  {s.date[:10]:<10}  {s.rules:<10} {s.rounds:>5}"
            f" {round(s.seconds):>8} {s.max_score:>5} {s.balance:>8}"
        )
    return 0


def _stats(args: argparse.Namespace) -> int:
    with _open_store(args) as store:
        s = store.stats(args.name)
    if not s.games:
        print(f"No finished games for {args.name}.")
        return 0
    share = f" ({100 * s.deals_won // s.deals}%)" if s.deals else ""
    rows = [
        ("Name", s.name),
        ("Games", str(s.games)),
        ("Games won", str(s.games_won)),
        ("Deals", str(s.deals)),
        ("Deals won", f"{s.deals_won}{share}"),
        ("Balance", signed(s.balance)),
        ("Best game", signed(s.best_game)),
        ("Best deal", signed(s.best_deal)),
        ("Time played", _duration(s.seconds)),
    ]
    for label, value in rows:
        print(f"{label:<12} {value}")
    return 0


def _duration(seconds: float) -> str:
    h, rest = divmod(round(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


def _history(args: argparse.Namespace) -> int:
    match = _find_match(args)
    text = _game_of(match).history(match)
    if args.export:
        path = write_atomic(args.export, text, what="the history")
        deals = f"{match.deal_number} deal" + ("s" if match.deal_number != 1 else "")
        print(f"Exported the history of {deals} to {path}")
    else:
        sys.stdout.write(text)
    return 0


def _find_match(args: argparse.Namespace) -> Game:
    """The match of a record file, else the stored match of that id (or the latest)."""
    given = args.match
    if given is not None and (not given.isdigit() or Path(given).is_file()):
        return read_game_file(given)
    with _open_store(args) as store:
        if given is None:
            latest = store.matches(limit=1)
            if not latest:
                raise BigTwoError(f"No match is stored in {store.path} yet")
            return store.load_game(latest[0].id)
        return store.load_game(int(given))


# -- records --------------------------------------------------------------------------------------
def _record_check(args: argparse.Namespace) -> int:
    match = read_game_file(args.file)
    game = _game_of(match)
    state = "finished" if match.over else f"in play at deal {match.deal_number}"
    actions = sum(len(r.actions) for r in match.results)
    actions += len(match.deal.actions) if match.in_play else 0
    print(
        f"{args.file}: a sound record. {match.first_ruleset.name}, {match.players} seats, "
        f"{match.deal_number} of {match.deals} deals ({state}{game.ends(match)}), "
        f"{actions} actions; totals {_totals(match)}"
    )
    return 0


def _totals(game: Game) -> str:
    return ", ".join(f"{n} {signed(t)}" for n, t in zip(game.names, game.totals, strict=True))


def _record_convert(args: argparse.Namespace) -> int:
    return _write_record(read_game_file(args.file), args)


def _replay(args: argparse.Namespace) -> int:
    match = read_game_file(args.file)
    game = _game_of(match)
    if args.at is None:
        return game.step_through(match)
    shown = game.positions(match)
    if not 0 <= args.at < len(shown):
        raise BigTwoError(f"--at must be 0 to {len(shown) - 1}")
    sys.stdout.write(shown[args.at])
    return 0


REPLAY_HELP = (
    "n/Enter next, p back, d next deal, D previous deal, g N go to step N, s scores, q quit"
)


def step_through(match: Match, keys: TextIO, out: TextIO) -> int:
    """A line-based viewer: one command a line (see REPLAY_HELP); end of input quits."""
    steps = positions(match)
    at = 0
    interactive = keys.isatty()
    while True:
        out.write(f"\n[{at}/{len(steps) - 1}] " + position_text(match, steps[at]))
        out.write(REPLAY_HELP + "\n")
        if interactive:
            out.write("> ")
        out.flush()
        line = keys.readline()
        if not line:
            return 0
        command = line.strip()
        if command in ("q", "quit"):
            return 0
        if command in ("", "n"):
            at = min(at + 1, len(steps) - 1)
        elif command == "p":
            at = max(at - 1, 0)
        elif command == "d":
            later = [i for i, p in enumerate(steps) if p.deal > steps[at].deal]
            at = later[0] if later else len(steps) - 1
        elif command == "D":
            earlier = [i for i, p in enumerate(steps) if p.deal == steps[at].deal - 1]
            at = earlier[0] if earlier else 0
        elif command == "s":
            out.write(score_table(match))
        elif command.startswith("g"):
            target = command[1:].strip()
            if target.isdigit() and int(target) < len(steps):
                at = int(target)
            else:
                out.write(f"No step {target}: steps are 0 to {len(steps) - 1}\n")
        else:
            out.write(f"Unknown command {command!r}\n")


# -- the games ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _GameCommands:
    """What these commands do their own way for each game, chosen once by ``rules.game``:
    start and play out a simulated match (``stored``: whether the database keeps it and it
    has a JSON form), tell its history (``ends``: how its deals ended, for ``record
    check``), and give its positions (``step_through`` walks them)."""

    start: Callable[..., Game]
    play_out: Callable[[Any, list[Any], int | str, Callable[[Any], object] | None], object]
    stored: bool
    history: Callable[[Any], str]
    ends: Callable[[Any], str]
    positions: Callable[[Any], list[str]]
    step_through: Callable[[Any], int]


def _revolution_ends(match: RevolutionMatch) -> str:
    return "; ends: " + (", ".join(r.end.value for r in match.results) or "none yet")


def _all_positions(match: RevolutionMatch) -> int:
    sys.stdout.write("\n".join(revolution_history.revolution_positions(match)))
    return 0


_GAMES = {
    BIGTWO: _GameCommands(
        start=Match,
        play_out=lambda match, bots, _seed, after: play_out(match, bots, after=after),
        stored=True,
        history=match_history,
        ends=lambda _match: "",
        positions=lambda match: [position_text(match, p) for p in positions(match)],
        step_through=lambda match: step_through(match, sys.stdin, sys.stdout),
    ),
    REVOLUTION: _GameCommands(
        start=RevolutionMatch,
        play_out=lambda match, bots, seed, _after: play_revolution_match(match, bots, seed),
        stored=False,
        history=revolution_history.revolution_match_history,
        ends=_revolution_ends,
        positions=revolution_history.revolution_positions,
        step_through=_all_positions,
    ),
}


def _game_of(match: Game) -> _GameCommands:
    return _GAMES[match.ruleset.rules.game]
