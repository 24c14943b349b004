"""Every refusal the server sends carries its code and the parameters a client words it with
(docs/protocol.md, "Refusals in any language"), and the browser has both an English and a
Chinese wording of every code the server's source can send: the codes are collected from the
source itself, so a new refusal without a translation fails here."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from pathlib import Path

import httpx
import pytest

from bigtwo.engine import Deal, DoesNotBeat, MustInclude, Rules
from bigtwo.engine import errors as engine_errors
from bigtwo.engine.cards import CARDS
from bigtwo.server.app import create_app
from bigtwo.server.hub import Hub
from bigtwo.service.request import table_config
from bigtwo.store.tables import MemoryStore
from test_server_hub import ONE_HUMAN, _seated

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "bigtwo"
WEB = SOURCE / "web" / "js"
CODE = re.compile(r"[a-z][a-z_]*")
# The calls whose first argument is a refusal's code; ``.error(`` is a connection's (a
# logger's takes a sentence, which the pattern above leaves out), ``Refusal`` a client
# message's that never reaches the table (bigtwo.server.wire).
REFUSALS = {"Refused", "BadMessage", "_error", "error", "Refusal"}


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _text(node: ast.expr | None) -> str | None:
    ok = isinstance(node, ast.Constant) and isinstance(node.value, str)
    return node.value if ok else None  # type: ignore[union-attr]


def server_refusals() -> tuple[set[str], set[tuple[str, str]], set[str]]:
    """The codes the server can send, the (code, reason) pairs that narrow one, and the
    reasons a table can be closed for, all read from the source."""
    codes: set[str] = set()
    reasons: set[tuple[str, str]] = set()
    closed: set[str] = set()
    for path in (SOURCE / "server", SOURCE / "service"):
        for file in path.rglob("*.py"):
            tree = ast.parse(file.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and node.args:
                    code = _text(node.args[0])
                    name = _name(node)
                    is_super = name == "__init__" and isinstance(node.func, ast.Attribute)
                    if code and CODE.fullmatch(code) and (name in REFUSALS or is_super):
                        codes.add(code)
                        for sub in ast.walk(node):  # params={"reason": "..."} beside it
                            if isinstance(sub, ast.Dict):
                                for k, v in zip(sub.keys, sub.values, strict=True):
                                    if _text(k) == "reason" and _text(v):
                                        reasons.add((code, str(_text(v))))
                if isinstance(node, ast.Dict):  # a refusal written out: {"error": "..."}
                    for k, v in zip(node.keys, node.values, strict=True):
                        if _text(k) == "error" and _text(v) and CODE.fullmatch(str(_text(v))):
                            codes.add(str(_text(v)))
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr == "closed_reason" for t in node.targets
                ):
                    closed.add(_text(node.value) or "")
    # The engine's reasons for an illegal play, named by its classes and its raises (and
    # the raises of the table service's own checks of a revolution move, which the table
    # sends as the engine's).
    for cls in vars(engine_errors).values():
        if isinstance(cls, type) and issubclass(cls, engine_errors.IllegalAction):
            reasons.add(("illegal", cls.reason))
    for file in [*(SOURCE / "engine").rglob("*.py"), *(SOURCE / "service").rglob("*.py")]:
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and len(node.args) > 1
                and _name(node)
                in {
                    "IllegalAction",
                    "MustInclude",
                }
            ):
                reason = _text(node.args[1])
                if reason:
                    reasons.add(("illegal", reason))
    codes.discard("")
    return codes, reasons, closed - {""}


def test_every_check_of_the_engine_names_its_reason() -> None:
    """A refusal from a ``verify_*`` check (or a helper of one) names its reason word, so that
    it reaches a client as more than the generic ``illegal``."""
    generic = []
    for file in (SOURCE / "engine").rglob("*.py"):
        for check in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if isinstance(check, ast.FunctionDef) and check.name.lstrip("_").startswith(
                ("verify", "check")
            ):
                generic += [
                    f"{file.name}:{node.lineno}"
                    for node in ast.walk(check)
                    if isinstance(node, ast.Call)
                    and _name(node) == "IllegalAction"
                    and len(node.args) < 2
                ]
    assert not generic, f"refusals without a reason word: {generic}"


def service_illegal_refusals() -> list[tuple[str, int, str | None, set[str]]]:
    """Every ``illegal`` refusal the table service raises itself (file, line, its reason
    word or None, the params it sends): an ``IllegalAction`` (sent with its reason and
    params) or a ``Refused("illegal", ...)`` with a params mapping written out."""
    found: list[tuple[str, int, str | None, set[str]]] = []
    for file in (SOURCE / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            if _name(node) == "IllegalAction":
                reason = _text(node.args[1]) if len(node.args) > 1 else None
                sent = {str(k.arg) for k in node.keywords}
                found.append((file.name, node.lineno, reason, sent))
            elif _name(node) == "Refused" and node.args and _text(node.args[0]) == "illegal":
                params = node.args[2] if len(node.args) > 2 else None
                if isinstance(params, ast.Dict):
                    keys = {_text(k) for k in params.keys if k is not None}
                    given = next(
                        (v for k, v in zip(params.keys, params.values, strict=True)
                         if k is not None and _text(k) == "reason"),
                        None,
                    )  # fmt: skip
                    if isinstance(given, ast.Attribute):  # an engine error's own reason
                        continue
                    found.append(
                        (file.name, node.lineno, _text(given), {str(k) for k in keys} - {"reason"})
                    )
                else:
                    found.append((file.name, node.lineno, None, set()))
    return found


def test_every_illegal_refusal_of_the_service_names_its_reason() -> None:
    """The table service's own checks of a revolution move (a second answer held for its
    turn, a counter or draw that names no one card, an activation that names no Character;
    the counter window's other checks are the engine's) name their reason word too, as the engine's do, so
    that a client words them in its player's language instead of "That play is not
    allowed"."""
    found = service_illegal_refusals()
    words = {r for _, _, r, _ in found}
    assert {"answered_already", "name_one_card", "name_a_character"} <= words
    generic = [f"{file}:{line}" for file, line, reason, _ in found if not reason]
    assert not generic, f"illegal refusals of the service without a reason word: {generic}"
    en, slots = wordings("en"), re.compile(r"\{(\w+)\}")
    short = [
        f"{file}:{line} {reason} sends {sorted(sent)}"
        for file, line, reason, sent in found
        if not set(slots.findall(en.get(f"error.illegal.{reason}", ""))) <= sent
    ]
    assert not short, f"refusals without the params their words fill in: {short}"


def test_each_engine_refusal_sends_the_params_its_words_fill_in() -> None:
    """A wording's ``{name}`` slots are among the params every raise of its reason sends."""
    classes = {
        name: cls.reason
        for name, cls in vars(engine_errors).items()
        if isinstance(cls, type) and issubclass(cls, engine_errors.IllegalAction)
    }
    en, slots = wordings("en"), re.compile(r"\{(\w+)\}")
    short: list[str] = []
    for file in (SOURCE / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or _name(node) not in classes:
                continue
            reason = _text(node.args[1]) if len(node.args) > 1 else classes[_name(node)]
            sent = {k.arg for k in node.keywords}
            wanted = set(slots.findall(en.get(f"error.illegal.{reason}", "")))
            if not wanted <= sent:
                short.append(f"{file.name}:{node.lineno} {reason} sends {sorted(sent)}")
    assert not short, f"refusals without the params their words fill in: {short}"


def strings(lang: str) -> set[str]:
    text = (WEB / f"strings-{lang}.js").read_text(encoding="utf-8")
    return set(re.findall(r'"([^"\n]+)":\s*"', text))


def test_the_source_is_read_for_the_codes_it_sends() -> None:
    codes, reasons, closed = server_refusals()
    # A sample from each place, so that the collection itself cannot go blind.
    assert {"illegal", "no_room", "table_full", "busy", "bad_json", "not_allowed"} <= codes
    assert {"duplicate", "internal"} <= codes  # Refused's subclasses
    assert {"wrong_seat", "not_seated"} <= codes  # a client message's own (bigtwo.server.wire)
    assert {("illegal", "does_not_beat"), ("illegal", "highest_single")} <= reasons
    revolution = {"only_q_counters", "q_cannot_counter_q", "last_normal_card", "deck_empty"}
    revolution |= {"own_function", "answered_already", "name_one_card", "name_a_character"}
    assert {("illegal", r) for r in revolution} <= reasons
    assert ("busy", "spectators_per_address") in reasons
    assert ("no_room", "never_started") in reasons
    assert closed == {"match over", "every player quit", "host closed the room"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_server_refusal_is_worded_in_both_languages(lang: str) -> None:
    codes, reasons, closed = server_refusals()
    have = strings(lang)
    missing = sorted(f"error.{c}" for c in codes if f"error.{c}" not in have)
    # A reason named as its code ("illegal": no narrower one) is worded as the code.
    narrow = {(c, r) for c, r in reasons if r != c}
    missing += sorted(f"error.{c}.{r}" for c, r in narrow if f"error.{c}.{r}" not in have)
    missing += sorted(f"closed.{r}" for r in closed if f"closed.{r}" not in have)
    assert not missing, f"strings-{lang}.js has no wording for {missing}"


def test_both_languages_have_the_same_strings() -> None:
    assert strings("en") ^ strings("zh") == set()


def wordings(lang: str) -> dict[str, str]:
    text = (WEB / f"strings-{lang}.js").read_text(encoding="utf-8")
    return dict(re.findall(r'"([^"\n]+)":\s*"((?:[^"\\\n]|\\.)*)"', text))


def test_both_languages_fill_in_the_same_params() -> None:
    en, zh = wordings("en"), wordings("zh")
    assert len(en) == len(strings("en")) and "error.illegal.only_q_counters" in en
    slots = re.compile(r"\{(\w+)\}")
    differ = {k for k in en if set(slots.findall(en[k])) != set(slots.findall(zh[k]))}
    assert not differ, f"the two languages fill in different params in {sorted(differ)}"


def test_an_illegal_play_names_its_reason_and_cards() -> None:
    deal = Deal(Rules.preset("palm"), ["3d 4c 5h 6s 7c Kd", "3c 4d 8d", "5c 6d 7h", "Jc Jd Qh"])
    with pytest.raises(MustInclude) as first:
        deal.play(0, "Kd")
    assert (first.value.reason, first.value.params) == ("must_include", {"card": "3♦"})
    hk = Rules.preset("palm-hk")
    deal = Deal(hk, ["7d 8c 9d Ts Jd 2s", "3c 4d 5h 6s 7s Ks", "5c 6d", "Jc Qd"], leader=0)
    deal.play(0, "7d 8c 9d Ts Jd")
    with pytest.raises(DoesNotBeat) as low:
        deal.play(1, "Ks")
    assert low.value.reason == "does_not_beat"
    assert low.value.params == {"cards": "7♦ 8♣ 9♦ 10♠ J♦"}


async def test_a_refused_play_reaches_the_client_with_its_params() -> None:
    hub = Hub(MemoryStore())
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN))
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    svc = runner.service
    for _ in range(300):
        await asyncio.sleep(0.01)
        if svc.game is not None and svc.game.deal.turn == 0:
            break
    assert svc.game is not None and svc.game.deal.turn == 0
    hand = svc.game.deal.hands[0]
    card = CARDS[next(c for c in range(52) if not hand >> c & 1)]
    runner.on_frame(
        conn, json.dumps({"type": "play", "id": "p1", "cards": str(card), "v": svc.state_v})
    )
    await asyncio.sleep(0.02)
    refusal = [m for m in socket.messages() if m.get("id") == "p1"][-1]
    assert refusal["type"] == "error" and refusal["code"] == "illegal"
    assert refusal["params"] == {"reason": "not_your_cards", "cards": card.symbol()}
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r2", "ready": "yes"}))
    await asyncio.sleep(0.02)
    bad = [m for m in socket.messages() if m.get("id") == "r2"][-1]
    assert bad["type"] == "error" and bad["params"] == {}  # always there, if empty


async def test_http_refusals_carry_params() -> None:
    app = create_app(MemoryStore())
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1"
    ) as http:
        missing = await http.get("/api/rooms/ZZZZZZ/record")
        assert missing.status_code == 404
        assert missing.json() == {
            "error": "no_room",
            "message": "There is no table 'ZZZZZZ'",
            "params": {"code": "ZZZZZZ"},
        }
        nowhere = await http.get("/api/nothing-here")
        assert nowhere.json()["error"] == "not_found" and nowhere.json()["params"] == {}
