"""The ground every declared request and message stands on, and its errors in words.

Room requests, join requests and client messages are each declared once, as a pydantic model
built on :class:`Declared`: strict (a JSON ``true`` is never a number, ``"3"`` never an
integer) and closed (an unknown field is refused). The server checks what strangers send
against those models and publishes their JSON schemas, so what is checked and what is
documented cannot drift apart. :func:`parse_json` reads a body or frame; :func:`words` turns a
pydantic error into one sentence that says which field is wrong and what it must be, in terms
taken from the same schema. Nothing here knows a rule of the game.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

MAX_RULE_OPTIONS = 40  # keys of a rule override object, or of an object inside it
MAX_RULE_LIST = 20  # items of a list in a rule override (13 rank values, at most 13 straights)
MAX_RULE_TEXT = 1000  # characters of a text in a rule override (preset sources are ~560)
MAX_RULE_NUMBER = 10_000  # size of a number in a rule override: totals stay exact in any client
MAX_RULE_DEPTH = 3  # containers inside one rule option, as in scoring.multipliers[[10, 2]]


class Declared(BaseModel):
    """A declared request or message: strict types, unknown fields refused, numbers finite."""

    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, frozen=True)


class NotJson(ValueError):
    """A body or frame that is not JSON."""


def parse_json(text: str | bytes) -> Any:
    """Parse JSON, or raise :class:`NotJson`. Python reads ``NaN``, ``Infinity`` and numbers
    too large for a float (``1e999``) as floats that are not finite: every declaration refuses
    them where a number is allowed, naming the field (422 for a room request), rather than
    refusing the whole body as unreadable.

    >>> parse_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    >>> parse_json('{"a": ')
    Traceback (most recent call last):
    ...
    bigtwo.service.declare.NotJson: not valid JSON
    """
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise NotJson("not valid JSON") from None


def check_rule_options(options: Mapping[str, Any]) -> Mapping[str, Any]:
    """Refuse a rule override mapping whose values could not be rule options of any kind:
    each value is true/false, a bounded finite number, a short text, or a short list or
    object of those, nested a little. What each option means is the rules' own business.

    >>> check_rule_options({"scoring": {"multipliers": [[10, 2]]}, "pass_lock": True})
    {'scoring': {'multipliers': [[10, 2]]}, 'pass_lock': True}
    >>> check_rule_options({"scoring": {"multipliers": [[10, 1e300]]}})
    Traceback (most recent call last):
    ...
    ValueError: option scoring.multipliers[0][1] must be a number from -10000 to 10000, not 1e+300
    """
    for key, value in options.items():
        if len(key) > 40:
            raise ValueError(f"option {key[:40]!r}… is not a rule option: the name is too long")
        _check_rule_value(value, key, 0)
    return options


def _check_rule_value(value: Any, path: str, depth: int) -> None:
    where = f"option {path}"
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        # Compared as they are: a huge integer does not fit a float (isfinite would raise).
        finite = isinstance(value, int) or math.isfinite(value)
        if not (finite and -MAX_RULE_NUMBER <= value <= MAX_RULE_NUMBER):
            # str() of an integer of over 4300 digits raises: a huge one is not shown.
            shown = "" if isinstance(value, int) and abs(value) > 10**15 else f", not {value:.4g}"
            raise ValueError(
                f"{where} must be a number from {-MAX_RULE_NUMBER} to {MAX_RULE_NUMBER}{shown}"
            )
        return
    if isinstance(value, str):
        if len(value) > MAX_RULE_TEXT:
            raise ValueError(f"{where} must be text of at most {MAX_RULE_TEXT} characters")
        return
    if isinstance(value, Mapping | list):
        if depth >= MAX_RULE_DEPTH:
            raise ValueError(f"{where} is nested too deeply")
        if isinstance(value, list):
            if len(value) > MAX_RULE_LIST:
                raise ValueError(f"{where} must list at most {MAX_RULE_LIST} items")
            for i, item in enumerate(value):
                _check_rule_value(item, f"{path}[{i}]", depth + 1)
            return
        if len(value) > MAX_RULE_OPTIONS:
            raise ValueError(f"{where} must have at most {MAX_RULE_OPTIONS} keys")
        for key, item in value.items():
            if not isinstance(key, str) or len(key) > 40:
                raise ValueError(f"{where} has a key that is not a short text")
            _check_rule_value(item, f"{path}.{key}", depth + 1)
        return
    raise ValueError(f"{where} must be true, false, a number, text, a list or an object")


# -- errors in words --------------------------------------------------------------------------
def words(
    error: ValidationError,
    schema: dict[str, Any],
    unknown: str = "field",
    *,
    tagged: bool = False,
    subject: str = "The request",
) -> str:
    """The first problem of ``error`` as one sentence, e.g. ``'deals' must be a whole number
    from 1 to 1000, or null``. ``schema`` is the JSON schema of what was validated (it says
    what a field must be); ``unknown`` names a field in "Unknown field 'x'"; ``tagged``: what
    was validated is a union tagged on ``type``, whose tag leads each error's location;
    ``subject`` is what was sent, in "The request needs the field 'x'"."""
    first = error.errors(include_url=False)[0]
    loc: tuple[int | str, ...] = tuple(first["loc"])
    kind = first["type"]
    defs = schema.get("$defs", {})
    if tagged and loc:
        schema = _member(schema, str(loc[0]), defs)
        loc = loc[1:]
    if kind == "extra_forbidden":
        parent = _at(schema, loc[:-1], defs) or {}
        known = ", ".join(sorted(_properties(parent, defs)))
        head = f"{_where(loc[:-1])}: unknown field" if len(loc) > 1 else f"Unknown {unknown}"
        return f"{head} {str(loc[-1])[:40]!r} (known: {known})"
    if kind == "missing":
        return f"{_where(loc[:-1]) if len(loc) > 1 else subject} needs the field {loc[-1]!r}"
    if kind == "string_unicode":  # text with a lone surrogate: no letter at all
        return f"{_where(loc)} must be text of whole letters (it holds a broken character)"
    if kind in ("value_error", "assertion_error"):
        message = str(first.get("ctx", {}).get("error", first["msg"]))
        return f"{_where(loc)}: {message}" if loc else message
    # A value that fits no member of a union (text or a list, say) is told against the
    # whole union: pydantic names the member in the location, the schema does not.
    field, loc = _field(schema, loc, defs)
    expected = _expected(field, defs) if field is not None else first["msg"].lower()
    if not loc:
        return f"{subject} must be {expected}"
    said = f"{_where(loc)} must be {expected}"
    value = first.get("input")
    if kind == "literal_error" and isinstance(value, str | int) and not isinstance(value, bool):
        said += f", not {str(value)[:40]!r}"
    return said


def _where(loc: Sequence[int | str]) -> str:
    """A field's place in words: ``'deals'``, or ``Seat 2: kind`` inside a list."""
    if len(loc) >= 2 and isinstance(loc[1], int) and isinstance(loc[0], str):
        item = f"{loc[0].removesuffix('s').capitalize()} {loc[1]}"
        rest = ".".join(str(p) for p in loc[2:])
        return f"{item}: {rest}" if rest else item
    return "'" + ".".join(str(p) for p in loc) + "'"


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _branches(node: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    node = _resolve(node, defs)
    options = node.get("anyOf") or node.get("oneOf")
    if options:
        return [b for o in options for b in _branches(o, defs)]
    return [node]


def _properties(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for branch in _branches(node, defs):
        out.update(branch.get("properties", {}))
    return out


def _step(node: dict[str, Any], step: int | str, defs: dict[str, Any]) -> Any:
    """The schema one step (a property name or a list index) inside ``node``, or None."""
    for branch in _branches(node, defs):
        if isinstance(step, int) and "items" in branch:
            return branch["items"]
        if isinstance(step, str) and step in branch.get("properties", {}):
            return branch["properties"][step]
    return None


def _at(schema: dict[str, Any], loc: Sequence[int | str], defs: dict[str, Any]) -> Any:
    """The schema of the field at ``loc``, or None."""
    node: Any = schema
    for step in loc:
        if node is None:
            return None
        node = _step(node, step, defs)
    return node


def _field(
    schema: dict[str, Any], loc: tuple[int | str, ...], defs: dict[str, Any]
) -> tuple[Any, tuple[int | str, ...]]:
    """The deepest schema along ``loc`` and the part of ``loc`` that leads to it."""
    node: Any = schema
    for i, step in enumerate(loc):
        inner = _step(node, step, defs)
        if inner is None:
            return (node if i else None), loc[:i]
        node = inner
    return node, loc


def _member(schema: dict[str, Any], tag: str, defs: dict[str, Any]) -> dict[str, Any]:
    """The member of a union tagged on ``type`` that carries ``tag``."""
    for branch in _branches(schema, defs):
        if branch.get("properties", {}).get("type", {}).get("const") == tag:
            return branch
    return schema


def _expected(node: dict[str, Any], defs: dict[str, Any]) -> str:
    """What a value of this schema is, in words."""
    branches = _branches(node, defs)
    nullable = any(b.get("type") == "null" for b in branches)
    unit = node.get("x-unit")  # the unit of a nullable number is given beside its anyOf
    said = " or ".join(_one(b, unit) for b in branches if b.get("type") != "null")
    return f"{said}, or null" if nullable else said


def _one(node: dict[str, Any], unit: str | None = None) -> str:
    kind = node.get("type")
    if "const" in node:
        return repr(node["const"])
    if "enum" in node:
        return " or ".join(repr(v) for v in node["enum"])
    if kind in ("integer", "number"):
        what = "a whole number" if kind == "integer" else "a number"
        unit = node.get("x-unit", unit)
        if unit:
            what += f" of {unit}"
        low, high = _number(node.get("minimum")), _number(node.get("maximum"))
        if low and high:
            return f"{what} from {low} to {high}"
        if low:
            return f"{what} of at least {low}"
        if high:
            return f"{what} of at most {high}"
        return what
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        if "pattern" in node and "description" in node:
            return str(node["description"])
        if "maxLength" in node:
            least, most = node.get("minLength", 0), node["maxLength"]
            return (
                f"text of {least} to {most} characters"
                if least
                else (f"text of at most {most} characters")
            )
        return "text"
    if kind == "array":
        if "maxItems" in node:
            least = node.get("minItems", 0)
            return (
                f"a list of {least} to {node['maxItems']} items"
                if least
                else (f"a list of at most {node['maxItems']} items")
            )
        return "a list"
    if kind == "object":
        if "maxProperties" in node:
            return f"an object of at most {node['maxProperties']} options"
        return "an object"
    return "something else"


def _number(value: Any) -> str:
    """A bound as people write it: ``0.2``, ``3600``, ``1000``; "" for none."""
    if value is None:
        return ""
    return str(value) if isinstance(value, int) else f"{value:g}"
