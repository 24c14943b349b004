"""Records of the 52-card game: a plain-text format (and a JSON form) that replays a match exactly.

One format is at once the save file, the export and the test fixture (the pokerkit lesson):
a header with the format version, the rules (a preset name, or every option as JSON), the
deal count, the seed, the autopass switches and the seats; then each deal with every seat's
cards and one line per action, settings changed at their place, and the result. This module
writes and reads the text form (the JSON form is :mod:`.record_json`); the reader that replays the lines
through :class:`~bigtwo.match.match.Match` is :mod:`.record_replay`, and what both games'
records share :mod:`.record_common`. Anything
corrupt or illegal raises :class:`~bigtwo.match.errors.RecordError` with the line (or JSON
path) and the reason. The format is specified in ``docs/record-format.md``. A record of
either game, told apart by its header, is read and written, to files too, through
:mod:`.record_formats`; this module must not read records of Big 2 RevolutioN or touch files.

>>> match = Match(RuleSet.preset("palm"), seed=3, deals=1)
>>> text = write_text(match)
>>> text.splitlines()[0], read_text(text).deal.dealt == match.deal.dealt
('bigtwo-record 1', True)
"""

from __future__ import annotations

from ..engine.cards import card_text
from .match import Change, Match
from .record_common import (
    action_line,
    deal_lines,
    decode,
    format_seconds,
    on_off,
    record_header,
    rules_data,
    rules_token,
    score_lines,
    text_lines,
)
from .record_json import from_data, read_json, to_data, write_json
from .record_replay import FORMAT, SETTING_WORDS, VERSION, replay
from .settings import RuleSet

__all__ = [
    "FORMAT",
    "VERSION",
    "action_line",
    "body_lines",
    "format_seconds",
    "from_data",
    "header_lines",
    "read_json",
    "read_text",
    "rules_data",
    "rules_token",
    "to_data",
    "write_json",
    "write_text",
]


# -- writing -------------------------------------------------------------------------------------
def header_lines(match: Match) -> list[str]:
    """The header: format version, rules, deals, seed, autopass switches and seats, as the
    match began (later changes are body lines)."""
    switches = [
        f"autopass {on_off(match.first_autopass)}",
        f"autopass-five {on_off(match.first_autopass_five)}",
    ]
    lines = record_header(FORMAT, VERSION, "Big Two", match, switches)
    return lines + [f"player {seat} {kind}" for seat, kind in enumerate(match.kinds) if kind]


def body_lines(match: Match, *, from_deal: int = 1, open_seconds: bool = True) -> list[str]:
    """The deals from ``from_deal`` on, one line per action.

    A deal's ``seconds`` line is written once the next deal has begun (or, with
    ``open_seconds``, at the end for the deal in play): until then its time may still grow.
    Every other line, once written, never changes, so the store appends these lines as the
    game goes and a saved prefix is always a valid record.
    """
    by_deal: dict[int, list[Change]] = {}
    for change in match.changes:
        by_deal.setdefault(change.deal, []).append(change)
    lines: list[str] = []
    for record in match.deal_records()[from_deal - 1 :]:
        lines += deal_lines(record.number, record.dealt, card_text)
        changes = by_deal.get(record.number, [])
        position = 0
        for index, action in enumerate(record.actions):
            while position < len(changes) and changes[position].index <= index:
                lines.append(_change_line(changes[position]))
                position += 1
            lines.append(action_line(action))
        if record.result is not None:
            result = record.result
            lines.append(f"winner {result.winner}")
            lines.append("left " + " ".join(str(h.bit_count()) for h in result.cards_left))
            lines += score_lines(match, record.number)
        lines += [_change_line(c) for c in changes[position:]]
        frozen = record.number < match.deal_number
        if record.seconds and (frozen or open_seconds):
            lines.append(f"seconds {format_seconds(record.seconds)}")
    return lines


def write_text(match: Match) -> str:
    """The whole match as a text record."""
    return "\n".join(header_lines(match) + [""] + body_lines(match)) + "\n"


def _change_line(change: Change) -> str:
    value = change.value
    text = rules_token(value) if isinstance(value, RuleSet) else on_off(value)
    return f"set {SETTING_WORDS[change.key]} {text}"


# -- reading ------------------------------------------------------------------------------------
def read_text(text: str | bytes) -> Match:
    """Replay a text record into a match (finished, or in play where the record stops)."""
    return replay(text_lines(decode(text)))
