"""Names that mean one thing: no public name is defined twice in the package (outside a short
list of names that are the same interface on purpose), "table" names only the place people sit
(never the play to beat or a rule set's catalogue of plays), the closed sets of words the tables
use are string enums, and those enums write exactly the strings that stored logs, records and
the wire format have always held."""

from __future__ import annotations

import ast
import json
from collections import defaultdict
from enum import StrEnum
from pathlib import Path

import bigtwo
from bigtwo.engine.cards import to_mask
from bigtwo.match.match import SeatKind
from bigtwo.service.commands import By, Command, Op
from bigtwo.service.config import SeatConfig, TableConfig
from bigtwo.service.events import Event, Group
from bigtwo.service.table import Control, TableService, TableStatus, hash_token
from bigtwo.store.matches import MatchStatus

PACKAGE = Path(bigtwo.__file__).parent

# The same name in several modules on purpose, because it is one interface: every command
# module of the CLI offers ``register(subparsers)``, which cli.py calls on each.
SAME_INTERFACE = {
    "register": {
        "commands/bots.py",
        "commands/engine.py",
        "commands/learn.py",
        "commands/login.py",
        "commands/match.py",
        "commands/play.py",
        "commands/ratings.py",
        "commands/review.py",
        "commands/server.py",
    },
}


def _public_definitions(tree: ast.Module) -> list[str]:
    """The public classes, functions and UPPERCASE or CapWords constants (type aliases
    included) a module defines; a name it imports is not a definition."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name) and t.id[0].isupper()]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names += [node.target.id] if node.target.id[0].isupper() else []
    return [n for n in names if not n.startswith("_")]


def test_no_public_name_is_defined_in_two_modules() -> None:
    where: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for name in _public_definitions(ast.parse(path.read_text(encoding="utf-8"))):
            where[name].add(module)
    twice = {
        name: sorted(modules)
        for name, modules in where.items()
        if len(modules) > 1 and modules != SAME_INTERFACE.get(name)
    }
    assert twice == {}, f"defined in more than one module: {twice}"


# "Table" is the place people sit (the table service, the server's tables, the table screen),
# which the engine, the computer players and the match layer know nothing of. There the play
# to beat is ``to_beat`` / ``to_beat_seat`` and a rule set's plays are its ``Catalog``.
NOT_A_TABLE = ("engine", "bots", "match")
TABLE_WORDS = {"table", "Table", "table_seat", "table_for", "table_rules"}


def _identifiers(tree: ast.AST) -> list[tuple[int, str]]:
    """Every identifier a module defines or uses, with its line: classes, functions,
    parameters, keyword arguments, attributes, plain names and imported names."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.lineno, node.name))
        elif isinstance(node, ast.arg) or isinstance(node, ast.keyword) and node.arg is not None:
            found.append((node.lineno, node.arg))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.alias):
            found.append((node.lineno, node.asname or node.name.rsplit(".", 1)[-1]))
    return found


def test_table_is_only_where_people_sit() -> None:
    misused = [
        f"{path.relative_to(PACKAGE).as_posix()}:{line}: {name}"
        for part in NOT_A_TABLE
        for path in sorted((PACKAGE / part).rglob("*.py"))
        for line, name in _identifiers(ast.parse(path.read_text(encoding="utf-8")))
        if name in TABLE_WORDS
    ]
    assert misused == [], "say to_beat, to_beat_seat, Catalog or catalog_for: " + ", ".join(misused)


def test_closed_sets_are_string_enums() -> None:
    for member in (
        Op.JOIN,
        By.TIMER,
        Group.SPECTATORS,
        TableStatus.PLAYING,
        Control.QUIT,
        SeatKind.HUMAN,
        MatchStatus.ABANDONED,
    ):
        assert isinstance(member, StrEnum), member
    assert [str(op) for op in Op] == [
        "join", "leave", "ready", "act", "chat", "takeover", "handback", "quit", "next",
        "deal", "rematch", "kick", "computer", "settings", "close", "busy",
        "autopass", "level", "rules", "custom", "replay", "rename", "undo",
        "activate", "counter", "decline", "draw", "stop",
    ]  # fmt: skip
    assert [str(s) for s in TableStatus] == ["waiting", "playing", "finished", "idle"]
    assert [str(c) for c in Control] == ["player", "computer", "quit"]
    assert [str(g) for g in Group] == ["all", "players", "spectators"]
    assert [str(k) for k in SeatKind] == ["human", "computer"]
    assert [str(s) for s in MatchStatus] == ["open", "finished", "abandoned"]


def test_stored_commands_are_the_same_text() -> None:
    act = Command(Op.ACT, seat=2, cards=to_mask("3d 3c"), id="a1", seen=4, by=By.TIMER)
    assert json.dumps(act.to_log()) == (
        '{"op": "act", "seat": 2, "cards": ' + str(to_mask("3d 3c")) + ', "by": "timer", '
        '"id": "a1"}'
    )
    ready = Command(Op.READY, seat=0, ready=False)
    assert json.dumps(ready.to_log()) == '{"op": "ready", "seat": 0, "ready": false}'
    # A stored log names operations by their strings, and reads back to the same command.
    again = Command.from_log(json.loads(json.dumps(act.to_log())))
    assert again.op is Op.ACT and again.by is By.TIMER and again.to_log() == act.to_log()


def test_stored_configuration_and_events_are_the_same_text() -> None:
    seats = (SeatConfig(), SeatConfig("computer", "greedy"))
    config = TableConfig(preset="textbook", seats=seats, seed=5)
    assert json.dumps(config.to_json()["seats"]) == (
        '[{"kind": "human", "level": "greedy", "name": ""}, '
        '{"kind": "computer", "level": "greedy", "name": ""}]'
    )
    assert TableConfig.from_json(json.loads(json.dumps(config.to_json()))) == config
    table = TableService(config, "NAMES")
    [joined] = table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)
    assert joined.to == Group.ALL and joined.reaches(None) and joined.reaches(1)
    assert json.loads(joined.json()) == {
        "type": "joined",
        "v": 1,
        "seat": 0,
        "name": "Ann",
        "avatar": None,
    }
    aside = Event(2, "chat", Group.SPECTATORS, {"seat": None, "name": "Bo", "text": "hi"})
    assert aside.json() == '{"type":"chat","v":2,"seat":null,"name":"Bo","text":"hi"}'
    assert aside.reaches(None) and not aside.reaches(0)
    assert table.status == "waiting" and json.dumps(table.status) == '"waiting"'
