"""Records of either game, through one door: read by the format their header names, written
by the game the match plays.

A record's first line names its format (``bigtwo-record 1`` for the 52-card game,
``bigtwo-revolution-record 1`` for Big 2 RevolutioN; the JSON form says it in ``format``),
and :data:`RECORD_FORMATS` holds, under that name, the game's reader and writer. So
:func:`read_game` and :func:`read_game_file` give back the match of the right game for any
record, and :func:`write_game` and :func:`write_game_file` write any match's record (by
``rules.game``, ``bigtwo`` or ``revolution``). A record in no format this table knows is
read as the 52-card game's, whose reader says in words what is wrong with it. Every caller
(the terminal's storage, the match store, the commands, the server) reads and writes
records here. This module must not read or write a record's lines itself: the games'
record modules do.

>>> from .settings import RuleSet
>>> game = RevolutionMatch(RuleSet.preset("revolution"), seed=3, deals=1)
>>> type(read_game(write_game(game))).__name__
'RevolutionMatch'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.rules import BIGTWO, REVOLUTION
from . import record, revolution_record
from .errors import ExportError, RecordError
from .files import read_record_file, write_atomic
from .match import Match
from .record_common import JSON_HEADER, decode, header_word
from .record_json import json_record_data
from .revolution import RevolutionMatch

Game = Match | RevolutionMatch  # a match of either game
FORMS = ("text", "json")  # the forms a record may be written in


def _no_json(game: RevolutionMatch) -> str:
    raise ExportError("A game of Big 2 RevolutioN is written as a text record only")


def _revolution_data(game: RevolutionMatch) -> dict[str, Any]:
    """The text record of Big 2 RevolutioN inside an object with the seats, the totals and
    the deal count."""
    return {
        "format": "revolution",
        "seats": list(game.names),
        "totals": list(game.totals),
        "deals": len(game.results),
        "record": revolution_record.write_revolution_text(game),
    }


@dataclass(frozen=True, slots=True)
class RecordFormat:
    """One game's record: the header word naming it, the game it plays, its reader and its
    writers (``data``: the record as JSON data; ``header_lines``, which the store keeps once,
    and ``body_lines(game, from_deal)``, whose lines of a deal never change once written: the
    deal in play only gains lines). ``keeps_time``: whether the record holds the time played
    (the 52-card game's ``seconds`` lines, each written once the next deal has begun); else
    the store keeps it beside the record. A writer is given a match of the format's game."""

    header: str
    game: str
    read_text: Callable[[str], Game]
    read_data: Callable[[Any], Game] | None
    write_text: Callable[[Any], str]
    write_json: Callable[[Any], str]
    data: Callable[[Any], dict[str, Any]]
    header_lines: Callable[[Any], list[str]]
    body_lines: Callable[[Any, int], list[str]]
    keeps_time: bool


BIGTWO_RECORD = RecordFormat(
    header=record.FORMAT,
    game=BIGTWO,
    read_text=record.read_text,
    read_data=record.read_json,
    write_text=record.write_text,
    write_json=record.write_json,
    data=record.to_data,
    header_lines=record.header_lines,
    body_lines=lambda game, deal: record.body_lines(game, from_deal=deal, open_seconds=False),
    keeps_time=True,
)
REVOLUTION_RECORD = RecordFormat(
    header=revolution_record.REVOLUTION_FORMAT,
    game=REVOLUTION,
    read_text=revolution_record.read_revolution_text,
    read_data=None,
    write_text=revolution_record.write_revolution_text,
    write_json=_no_json,
    data=_revolution_data,
    header_lines=revolution_record.revolution_header_lines,
    body_lines=revolution_record.revolution_body_lines,
    keeps_time=False,
)
# The formats by the word a record begins with (and by the game a match plays).
RECORD_FORMATS = {f.header: f for f in (BIGTWO_RECORD, REVOLUTION_RECORD)}
_BY_GAME = {f.game: f for f in RECORD_FORMATS.values()}


def format_of(header: str) -> RecordFormat:
    """The format of a record, by its text (its first line is enough); the 52-card game's
    for a record in no format known, whose reader says what is wrong."""
    return RECORD_FORMATS.get(header_word(header), BIGTWO_RECORD)


def format_for(game: Game) -> RecordFormat:
    """The format a match's record is written in: its game's."""
    return _BY_GAME[game.ruleset.rules.game]


# -- reading -------------------------------------------------------------------------------------
def read_game(text: str | bytes) -> Game:
    """Replay a record of either game, in either form, into its match."""
    if header_word(text) != JSON_HEADER:
        text = decode(text)
        return format_of(text).read_text(text)
    data = json_record_data(text)
    name = data.get("format") if isinstance(data, dict) else None
    chosen = RECORD_FORMATS.get(name, BIGTWO_RECORD) if isinstance(name, str) else BIGTWO_RECORD
    if chosen.read_data is None:
        raise RecordError("format", f"a {name} record has no JSON form: it is written as text")
    return chosen.read_data(data)


def read_game_file(path: str | Path) -> Game:
    """Replay the record in a file, of either game; errors name the file."""
    return read_record_file(path, read_game)


# -- writing -------------------------------------------------------------------------------------
def write_game(game: Game, *, form: str = "text") -> str:
    """A match's whole record, of its game, in ``form`` (``text`` or ``json``)."""
    if form not in FORMS:
        raise ExportError(f"Unknown record format '{form}' (formats: {', '.join(FORMS)})")
    chosen = format_for(game)
    return chosen.write_text(game) if form == "text" else chosen.write_json(game)


def write_game_file(game: Game, path: str | Path, *, form: str = "text") -> Path:
    """Write a match's record to ``path`` atomically (an old file there survives any
    failure)."""
    return write_atomic(path, write_game(game, form=form), what="the record")


def record_data(game: Game) -> dict[str, Any]:
    """A match's record as JSON data: the 52-card game's JSON form, or the text record of
    Big 2 RevolutioN inside an object with the seats, the totals and the deal count."""
    return format_for(game).data(game)
