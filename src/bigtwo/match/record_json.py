"""The JSON form of the 52-card game's records: a match as JSON data, and back.

The JSON form holds what the text form (:mod:`.record`) holds, with each deal's result in
full (cards left, multipliers) for programs that read it; ``docs/record-format.md`` gives
its fields. Reading turns the data into the lines of the text form, each named by its JSON
path, and replays them through the one reader (:mod:`.record_replay`), so both forms are
checked alike. This module must not replay anything itself or touch files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..engine.cards import card_text, parse_cards
from ..engine.errors import BigTwoError
from ..engine.views import Action
from .errors import RecordError
from .match import Change, Match
from .record_common import RecordLine, on_off, rules_data
from .record_replay import FORMAT, SETTING_WORDS, VERSION, replay
from .settings import RuleSet


def to_data(match: Match) -> dict[str, Any]:
    """The whole match as JSON-ready data (the JSON form of a record)."""
    deals: list[dict[str, Any]] = []
    totals = [0] * match.players
    by_deal: dict[int, list[Change]] = {}
    for change in match.changes:
        by_deal.setdefault(change.deal, []).append(change)
    for record in match.deal_records():
        deal: dict[str, Any] = {
            "number": record.number,
            "rules": record.rules.name,
            "leader": record.leader,
            "hands": [card_text(h) for h in record.dealt],
            "actions": [_action_data(a) for a in record.actions],
        }
        changes = by_deal.get(record.number, [])
        if changes:
            deal["changes"] = [
                {"after": c.index, "set": c.key, "value": _value_data(c.value)} for c in changes
            ]
        if record.result is not None:
            result = record.result
            totals = [t + p for t, p in zip(totals, result.points, strict=True)]
            deal["winner"] = result.winner
            deal["cards_left"] = [h.bit_count() for h in result.cards_left]
            deal["left"] = [card_text(h) for h in result.cards_left]
            deal["points"] = list(result.points)
            deal["multipliers"] = list(result.score.multipliers)
            deal["totals"] = list(totals)
        if record.seconds:
            deal["seconds"] = round(record.seconds, 3)
        deals.append(deal)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": rules_data(match.first_ruleset),
        "deals_per_game": match.deals,
        "seed": match.seed,
        "autopass": match.first_autopass,
        "autopass_five": match.first_autopass_five,
        "seats": list(match.names),
    }
    if any(match.kinds):
        data["players"] = list(match.kinds)
    data["deals"] = deals
    data["totals"] = list(match.totals)
    data["over"] = match.over
    return data


def write_json(match: Match, *, indent: int | None = 1) -> str:
    """The whole match as a JSON record."""
    return json.dumps(to_data(match), ensure_ascii=False, indent=indent) + "\n"


def read_json(text: str | bytes | Mapping[str, Any]) -> Match:
    """Replay a JSON record (text, or already-parsed data) into a match."""
    return replay(_json_lines(json_record_data(text)))


def from_data(data: Mapping[str, Any]) -> Match:
    """Replay JSON-ready data (as :func:`to_data` makes it) into a match."""
    return read_json(data)


def json_record_data(text: str | bytes | Mapping[str, Any]) -> Any:
    """The data of a JSON record (text, or data already parsed)."""
    if isinstance(text, Mapping):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"line {exc.lineno}", f"not valid JSON: {exc.msg}", exc.lineno) from None
    except UnicodeDecodeError:
        raise RecordError("", "The record is not UTF-8 text") from None


def _json_lines(data: Any) -> Iterator[RecordLine]:
    """Turn JSON record data into the lines of the text form, each with its JSON path, so
    both forms are checked by the one reader."""

    def line(where: str, text: str) -> RecordLine:
        return RecordLine(where, None, text)

    def fail(where: str, reason: str) -> RecordError:
        return RecordError(where, reason)

    if not isinstance(data, dict):
        raise fail("", "a JSON record must be an object")
    if data.get("format", FORMAT) != FORMAT:
        raise fail("format", f"not a bigtwo record: format must be '{FORMAT}'")
    version = data.get("version", VERSION)
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail("version", "the format version must be a whole number")
    yield line("version", f"{FORMAT} {version}")
    if "rules" not in data:
        raise fail("rules", "the record does not say the rules")
    rules = data["rules"]
    if isinstance(rules, dict):
        yield line("rules", "rules " + json.dumps(rules, separators=(",", ":")))
    elif isinstance(rules, str) and rules.strip() == rules and " " not in rules and rules:
        yield line("rules", f"rules {rules}")
    else:
        raise fail("rules", "the rules must be a preset name or an object of options")
    for key, word in (("deals_per_game", "deals"), ("seed", "seed")):
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | str) or "\n" in str(value):
            raise fail(key, f"{key} must be a whole number or one line of text")
        yield line(key, f"{word} {value}")
    for key, word in (("autopass", "autopass"), ("autopass_five", "autopass-five")):
        value = data.get(key)
        if value is None:
            continue
        if not isinstance(value, bool):
            raise fail(key, f"{key} must be true or false")
        yield line(key, f"{word} {on_off(value)}")
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise fail("seats", "the record must list the seats' names")
    for i, name in enumerate(seats):
        if not isinstance(name, str) or name.splitlines() != [name]:
            raise fail(f"seats[{i}]", "a seat's name must be one line of text")
        yield line(f"seats[{i}]", f"seat {i} {name}")
    players = data.get("players", [])
    if not isinstance(players, list):
        raise fail("players", "players must be a list of kinds")
    for i, kind in enumerate(players):
        if kind == "":
            continue
        if not isinstance(kind, str) or kind.split() != [kind]:
            raise fail(f"players[{i}]", "a seat's kind must be one word")
        yield line(f"players[{i}]", f"player {i} {kind}")
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise fail("deals", "deals must be a list")
    for d, deal in enumerate(deals):
        yield from _json_deal(f"deals[{d}]", deal, d + 1)


def _json_deal(at: str, deal: Any, number: int) -> Iterator[RecordLine]:
    def line(where: str, text: str) -> RecordLine:
        return RecordLine(where, None, text)

    if not isinstance(deal, dict):
        raise RecordError(at, "a deal must be an object")
    yield line(at, f"deal {deal.get('number', number)}")
    hands = deal.get("hands")
    if hands is not None:
        if not isinstance(hands, list):
            raise RecordError(f"{at}.hands", "hands must be a list of cards, one per seat")
        for seat, cards in enumerate(hands):
            yield line(
                f"{at}.hands[{seat}]", f"hand {seat} {_json_cards(f'{at}.hands[{seat}]', cards)}"
            )
    actions = deal.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{at}.actions", "actions must be a list")
    changes = deal.get("changes", [])
    if not isinstance(changes, list):
        raise RecordError(f"{at}.changes", "changes must be a list")
    pending: list[tuple[int, RecordLine]] = []
    for c, change in enumerate(changes):
        where = f"{at}.changes[{c}]"
        if not isinstance(change, dict):
            raise RecordError(where, "a change must be an object")
        after, key, value = change.get("after"), change.get("set"), change.get("value")
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise RecordError(where, "'after' must count the actions before the change")
        if key not in SETTING_WORDS:
            raise RecordError(where, f"there is no setting '{key}'")
        if key == "rules":
            text = (
                json.dumps(value, separators=(",", ":")) if isinstance(value, dict) else str(value)
            )
        elif isinstance(value, bool):
            text = on_off(value)
        else:
            raise RecordError(where, f"{key} must be true or false")
        pending.append((after, line(where, f"set {SETTING_WORDS[key]} {text}")))
    pending.sort(key=lambda p: p[0])
    position = 0
    for a, action in enumerate(actions):
        while position < len(pending) and pending[position][0] <= a:
            yield pending[position][1]
            position += 1
        yield line(f"{at}.actions[{a}]", _json_action(f"{at}.actions[{a}]", action))
    for key, word in (
        ("winner", "winner"),
        ("cards_left", "left"),
        ("points", "points"),
        ("totals", "totals"),
    ):
        value = deal.get(key)
        if value is None:
            continue
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise RecordError(f"{at}.{key}", f"{key} must be whole numbers")
        yield line(f"{at}.{key}", f"{word} " + " ".join(str(v) for v in values))
    for _, change_line in pending[position:]:
        yield change_line
    seconds = deal.get("seconds")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise RecordError(f"{at}.seconds", "seconds must be a number")
        yield line(f"{at}.seconds", f"seconds {seconds}")


def _json_action(where: str, action: Any) -> str:
    if not isinstance(action, dict):
        raise RecordError(where, "an action must be an object with 'seat' and 'play'")
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(where, "'seat' must be a seat number")
    play = action.get("play")
    auto = action.get("auto", False)
    if not isinstance(auto, bool):
        raise RecordError(where, "'auto' must be true or false")
    text = f"pass {seat}" if play is None else f"play {seat} {_json_cards(where, play)}"
    if auto:
        reason = action.get("reason", "")
        text += " auto " + (" ".join(str(reason).split()) if isinstance(reason, str) else "")
    return text


def _json_cards(where: str, cards: Any) -> str:
    # Cards are parsed here and written back in plain notation, so nothing else (such as
    # the word "auto") can slip into the line the reader sees.
    if not isinstance(cards, str):
        raise RecordError(where, "cards must be written as text, like '3d 4c'")
    try:
        return card_text(parse_cards(cards).mask)
    except BigTwoError as exc:
        raise RecordError(where, str(exc)) from None


def _action_data(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {
        "seat": action.seat,
        "play": None if action.play is None else card_text(action.play.mask),
    }
    if action.auto:
        data["auto"] = True
        data["reason"] = action.reason
    return data


def _value_data(value: RuleSet | bool) -> Any:
    return rules_data(value) if isinstance(value, RuleSet) else value
