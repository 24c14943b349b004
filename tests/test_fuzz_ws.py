"""Protocol fuzzing of the table WebSocket: hypothesis sends sequences of client messages,
valid and not, from a seated player and a spectator, to the real server application (in this
process, over a SQLite log), and after every message checks the table:

- no reply is an ``internal`` error and no connection is closed as a server error (1011);
- the table still answers its snapshot to every seat and to a spectator, and ``GET
  /api/rooms/{code}`` answers 200;
- the cards add up: the hands and the cards played are the cards dealt, none twice, and the
  counts every snapshot shows are the hands' sizes;
- no recipient was sent a card it may not see (its own, played, or public at a deal's end);
- the stored log rebuilds exactly the table in memory (a restarted server would agree).

The valid messages are drawn from the published schema of the client messages (the pydantic
declarations in :mod:`bigtwo.protocol`), the invalid ones by breaking them (a field
dropped, an unknown one added, a value of the wrong type) or from any JSON or text at all;
plays are drawn from the player's own hand as well, so the match really moves on.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from bigtwo.engine.cards import card_text, to_mask
from bigtwo.engine.rules import preset_names
from bigtwo.match.settings import RuleSet
from bigtwo.protocol import CLOSE_SERVER_ERROR, PROTOCOL, messages_schema
from bigtwo.server.app import create_app
from bigtwo.server.hub import Settings
from bigtwo.server.settings import Limits
from bigtwo.store.tables import SQLiteStore
from depths import depths
from test_server_support import assert_no_foreign_cards, cards_left, dealt_hands, restored_table

with warnings.catch_warnings():  # Starlette would rather have httpx2, which is not installed
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

# -- strategies from the published schema --------------------------------------------------
SCHEMA = messages_schema()
DEFS: dict[str, Any] = SCHEMA["$defs"]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values a JSON schema of the client messages allows (the subset those schemas use)."""
    if "$ref" in schema:
        return from_schema(DEFS[schema["$ref"].rsplit("/", 1)[-1]])
    if "const" in schema:
        return st.just(schema["const"])
    if "anyOf" in schema or "oneOf" in schema:
        return st.one_of([from_schema(s) for s in schema.get("anyOf", schema.get("oneOf"))])
    kind = schema.get("type")
    if kind == "object":
        props: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in props.items() if k in required},
            optional={k: from_schema(v) for k, v in props.items() if k not in required},
        )
    if kind == "string":
        if "pattern" in schema:
            size = schema.get("maxLength", 64)
            return st.from_regex(schema["pattern"], fullmatch=True).filter(lambda s: len(s) <= size)
        return st.text(
            min_size=schema.get("minLength", 0), max_size=min(schema.get("maxLength", 40), 40)
        )
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        small = st.integers(min_value=low, max_value=min(high, 400) if high is not None else 400)
        return small | st.sampled_from([v for v in (low, high) if v is not None])
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(
            from_schema(schema.get("items", {})), max_size=min(schema.get("maxLength", 5), 5)
        )
    return JSON


VALID = from_schema(SCHEMA)


@st.composite
def broken(draw: st.DrawFn) -> Any:
    """A valid message made invalid: a field dropped, an unknown one added, or a wrong type."""
    message: dict[str, Any] = dict(draw(VALID))
    how = draw(st.sampled_from(["drop", "add", "retype"]))
    keys = sorted(message)
    if how == "drop":
        message.pop(draw(st.sampled_from(keys)))
    elif how == "add":
        message[draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in message))] = draw(
            JSON
        )
    else:
        message[draw(st.sampled_from(keys))] = draw(JSON)
    return message


# Rule overrides a room may be created with: each option's values in some preset, or any
# number, text or list of them, within the bounds the room request declares.
_MAPPINGS = [RuleSet.preset(name).to_mapping() for name in preset_names()]
_OPTIONS = sorted({k for m in _MAPPINGS for k in m if k not in ("name", "source")})
_SEEN: dict[str, list[Any]] = {k: [m[k] for m in _MAPPINGS if k in m] for k in _OPTIONS}
NUMBER = st.integers(-(10**6), 10**6) | st.sampled_from([0, 1, -1, 2, 13, 52, 10**6])
_RULE_VALUE = {
    k: st.sampled_from(v)
    | NUMBER
    | st.lists(NUMBER | st.lists(NUMBER, max_size=2), max_size=4)
    | st.text(max_size=6)
    for k, v in _SEEN.items()
}
_RULE_VALUE["scoring"] = st.sampled_from(_SEEN["scoring"]) | st.fixed_dictionaries(
    {},
    optional={
        "per_card": st.sampled_from(["one", "none", "rank", "x"]),
        "multipliers": st.lists(st.lists(NUMBER, min_size=2, max_size=2), max_size=3),
        "rank_values": st.lists(NUMBER, min_size=13, max_size=13) | st.lists(NUMBER, max_size=3),
        "winner_collects": st.booleans() | NUMBER,
    },
)
RULES = st.just({}) | st.lists(
    st.sampled_from(_OPTIONS), min_size=1, max_size=3, unique=True
).flatmap(lambda keys: st.fixed_dictionaries({k: _RULE_VALUE[k] for k in keys}))

# Moves that can be legal, so the match goes on (drawn twice as often as the rest): the first
# play the server offered, a play from the hand (its id reused now and then, with other
# cards), a pass, ready, next.


@dataclass(frozen=True)
class Frame:
    """One thing to send: who sends it (the player or the spectator) and what."""

    seated: bool
    kind: str  # "json": a value to send as JSON text; "text", "bytes": as they are; "play"...
    value: Any = None


MOVES = st.one_of(
    st.builds(Frame, st.just(True), st.just("legal")),
    st.builds(Frame, st.just(True), st.just("legal")),
    st.builds(
        Frame,
        st.just(True),
        st.just("play"),
        st.tuples(st.integers(0, 2**20), st.sampled_from(["fresh", "again"])),
    ),
    st.builds(Frame, st.just(True), st.sampled_from(["pass", "ready", "next"])),
)
FRAMES = st.one_of(
    MOVES,
    MOVES,
    st.builds(Frame, st.just(True), st.just("json"), VALID),
    st.builds(Frame, st.just(False), st.just("json"), VALID),
    st.builds(Frame, st.booleans(), st.just("json"), broken()),
    st.builds(Frame, st.booleans(), st.just("json"), JSON),
    st.one_of(
        st.builds(Frame, st.booleans(), st.just("text"), st.text(max_size=30)),
        st.builds(Frame, st.booleans(), st.just("bytes"), st.binary(max_size=30)),
        st.builds(Frame, st.booleans(), st.just("text"), st.just("x" * 5000)),  # too big
    ),
    st.builds(Frame, st.booleans(), st.just("reconnect")),
)


# -- the table under fuzzing ---------------------------------------------------------------
@dataclass
class Client:
    """One WebSocket to the table, the messages it got, and how to say hello again."""

    http: TestClient
    code: str
    hello: dict[str, Any]
    seat: int | None
    got: list[dict[str, Any]] = field(default_factory=list)
    socket: Any = None
    pings: int = 0
    closes: list[int] = field(default_factory=list)

    def open(self) -> None:
        self.socket = self.http.websocket_connect(f"/ws/{self.code}").__enter__()
        self.socket.send_text(json.dumps(self.hello))
        self.settle()

    def close(self) -> None:
        socket, self.socket = self.socket, None
        if socket is not None:
            with contextlib.suppress(Exception):  # the server closed it already
                socket.close(1000)
            with contextlib.suppress(Exception):
                socket.__exit__(None, None, None)

    def send(self, frame: str | bytes) -> None:
        if self.socket is None:
            self.open()
        try:
            if isinstance(frame, bytes):
                self.socket.send_bytes(frame)
            else:
                self.socket.send_text(frame)
        except Exception:
            pass  # closed under us: settle() sees how
        self.settle()

    def settle(self) -> None:
        """Read until the server answered a ping sent after everything else (or closed)."""
        if self.socket is None:
            return
        self.pings += 1
        mark = f"fuzz-ping-{self.pings}"
        try:
            self.socket.send_text(json.dumps({"type": "ping", "id": mark}))
            while True:
                message = self.socket.receive()
                if message["type"] == "websocket.close":
                    raise WebSocketDisconnect(message.get("code", 1000))
                text = message.get("text")
                assert text is not None, "the server sent a binary frame"
                data = json.loads(text)
                for m in data if isinstance(data, list) else [data]:
                    self.got.append(m)
                    assert not (m.get("type") == "error" and m.get("code") == "internal"), m
                if any(m.get("id") == mark for m in (data if isinstance(data, list) else [data])):
                    return
        except WebSocketDisconnect as closed:
            self.closes.append(closed.code)
            assert closed.code != CLOSE_SERVER_ERROR, f"closed as a server error: {self.got[-3:]}"
            self.close()

    def latest(self) -> int:
        return max((m.get("v", 0) for m in self.got if isinstance(m.get("v"), int)), default=0)


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path_factory.mktemp("fuzz-ws") / "tables.sqlite3"
    # Generous limits: the fuzzer should reach the table, not only the rate limits (those
    # are tested in test_server_bad_input); closes for bad messages are still met and survived.
    limits = Limits(messages_rate=10_000, messages_burst=10_000, actions_rate=10_000,
                    actions_burst=10_000, chat_rate=10_000, chat_burst=10_000)  # fmt: skip
    settings_ = Settings(
        allow_seeds=True,
        limits=limits,
        think="inline",
        # Every room of the fuzzer is made from one test address: no room limits here.
        rooms_per_address=0,
        rooms_per_minute=0,
        seats_per_address=0,
    )
    app = create_app(SQLiteStore(db, checkpoint=False), settings_)
    with TestClient(app) as http:
        yield http, db


def check_table(http: TestClient, db: Path, code: str, clients: list[Client]) -> None:
    """The invariants of the module docstring, on the event loop's thread (the table's own)."""
    hub = http.app.state.hub  # type: ignore[attr-defined]

    def look() -> dict[str, Any]:
        runner = hub.tables.get(code)
        assert runner is not None and not runner.broken, "the table is gone or broken"
        svc = runner.service
        snapshots = {seat: svc.snapshot(seat) for seat in (None, *range(len(svc.seats)))}
        out: dict[str, Any] = {"v": svc.v, "snapshots": snapshots, "status": svc.status}
        if svc.game is not None:
            deal = svc.game.deal
            out["dealt"], out["hands"] = list(deal.dealt), list(deal.hands)
            out["played"] = [to_mask(a.play.mask) for a in deal.actions if a.play is not None]
            out["hands_by_deal"] = dealt_hands(svc)
            out["lead"] = svc.ruleset.rules.lead_card
            out["left_by_deal"] = cards_left(svc)
        return out

    state = http.portal.call(look)  # type: ignore[union-attr]
    answer = http.get(f"/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    if "dealt" in state:
        hands, played, dealt = state["hands"], state["played"], state["dealt"]
        union = 0
        for mask in [*hands, *played]:
            assert not mask & union, "a card is in two places"
            union |= mask
        everything = 0
        for mask in dealt:
            everything |= mask
        assert union == everything, "the hands and the cards played are not the cards dealt"
        for seat, snap in state["snapshots"].items():
            assert snap["view"]["counts"] == [h.bit_count() for h in hands]
            if seat is not None:
                assert to_mask(snap["view"]["hand"]) == hands[seat]
            else:
                assert "hand" not in snap["view"]
        for c in clients:
            assert_no_foreign_cards(
                [_without_rules(m) for m in c.got],
                c.seat,
                state["hands_by_deal"],
                state["left_by_deal"],
                lead=state["lead"],
            )
    restored = restored_table(db, code)
    assert restored.v == state["v"], "the stored log and the table in memory differ"
    assert restored.status == state["status"]
    if restored.game is not None:
        assert list(restored.game.deal.hands) == state["hands"]


HINT = re.compile(r"\(write it like [^)]*\)")  # the notation's examples in a bad_cards error


def _without_rules(message: dict[str, Any]) -> dict[str, Any]:
    """A message without the public text that names cards: its room's rules (the preset's),
    and the examples of card notation in an error."""
    if message.get("type") == "sync":
        return {**message, "room": {k: v for k, v in message["room"].items() if k != "rules"}}
    if message.get("type") == "error":
        return {**message, "message": HINT.sub("", str(message.get("message")))}
    return message


def act(frame: Frame, player: Client, spectator: Client, rng: random.Random) -> None:
    who = player if frame.seated else spectator
    if frame.kind == "json":
        who.send(json.dumps(frame.value))
    elif frame.kind in ("text", "bytes"):
        who.send(frame.value)
    elif frame.kind == "reconnect":
        who.close()
        who.hello = {**who.hello, "since": rng.choice([0, who.latest()])}
        who.open()
    elif frame.kind == "play":
        pick, reuse = frame.value
        hand = _hand(player)
        cards = [c for i, c in enumerate(hand) if pick >> (i % 20) & 1][:5] or hand[:1]
        ident = "fuzz-play" if reuse == "again" else f"fuzz-{rng.randrange(1 << 30)}"
        message = {"type": "play", "id": ident, "v": player.latest(), "cards": cards or ["3d"]}
        player.send(json.dumps(message))
    elif frame.kind == "legal":  # the first legal play the server offered, else a pass
        legal = [m for m in player.got if m.get("type") in ("turn", "sync")]
        offers = (
            (legal[-1].get("legal") or (legal[-1].get("view") or {}).get("legal"))
            if legal
            else None
        )
        if offers:
            message = {"type": "play", "id": f"fuzz-{rng.randrange(1 << 30)}",
                       "v": player.latest(), "cards": offers[0]}  # fmt: skip
        else:
            message = {"type": "pass", "id": f"fuzz-{rng.randrange(1 << 30)}", "v": player.latest()}
        player.send(json.dumps(message))
    elif frame.kind == "pass":
        player.send(
            json.dumps(
                {"type": "pass", "id": f"fuzz-{rng.randrange(1 << 30)}", "v": player.latest()}
            )
        )
    else:
        player.send(json.dumps({"type": frame.kind, "id": f"fuzz-{rng.randrange(1 << 30)}"}))


def _hand(player: Client) -> list[str]:
    """The player's cards, as the server last told it (a sync's view, or a hand event)."""
    for m in reversed(player.got):
        if m.get("type") == "hand":
            return re.findall(r"\S+", card_text(to_mask(m["cards"])))
        if m.get("type") == "sync" and m.get("view"):
            return re.findall(r"\S+", m["view"].get("hand", ""))
    return []


TABLES = {
    "frames": st.lists(FRAMES, min_size=8, max_size=40),
    "start": st.sampled_from([True, True, True, False]),
    "finish": st.booleans(),
    "preset": st.sampled_from(["textbook", "hongkong", "taiwan", "pusoy-dos"]),
    "rules": RULES,
    "seed": st.integers(0, 2**30),
}
# make test fuzzes a dozen tables; the thorough run (marked slow: make test-slow, CI) ten times
# as many. No shrinking: each example replays a table many times, so shrinking one would take
# minutes; a failure shows the example as it was found.
FUZZ_TABLES = settings(
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
)


@pytest.mark.parametrize("examples", depths(12))
def test_no_message_breaks_a_table(app_client: tuple[TestClient, Path], examples: int) -> None:
    @given(**TABLES)
    @settings(FUZZ_TABLES, max_examples=examples)
    def check(**table: Any) -> None:  # the arguments of no_message_breaks_a_table below
        no_message_breaks_a_table(app_client, **table)

    check()


def no_message_breaks_a_table(
    app_client: tuple[TestClient, Path],
    frames: list[Frame],
    start: bool,
    finish: bool,
    preset: str,
    rules: dict[str, Any],
    seed: int,
) -> None:
    http, db = app_client
    room = {"preset": preset, "seed": seed, "deals": 2, "computer_delay": 0,
            "seats": ["human", "computer:greedy", "computer:random", "computer:greedy"]}  # fmt: skip
    made = http.post("/api/rooms", json={**room, "rules": rules})
    assert made.status_code in (201, 422), made.text  # a crafted override: refused in words
    if made.status_code == 422:
        assert made.json()["message"]
        made = http.post("/api/rooms", json=room)
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    seat = http.post(f"/api/rooms/{code}/join", json={"name": "Fuzz"}).json()
    player = Client(http, code, {"type": "hello", "protocol": PROTOCOL, "token": seat["token"]}, 0)
    spectator = Client(http, code, {"type": "hello", "protocol": PROTOCOL, "watch": True}, None)
    rng = random.Random(seed)
    try:
        player.open()
        spectator.open()
        if start:  # most examples fuzz a match being played, the others a table waiting
            player.send(json.dumps({"type": "ready", "id": "fuzz-ready"}))
        check_table(http, db, code, [player, spectator])
        for frame in frames:
            act(frame, player, spectator, rng)
            check_table(http, db, code, [player, spectator])
        if start and finish:  # play the match out, crafted rules and all (bounded)
            deadline = time.monotonic() + 5
            player.send(json.dumps({"type": "sync"}))
            for _ in range(300):
                if time.monotonic() > deadline or any(
                    m.get("type") in ("match_end", "closed") for m in player.got
                ):
                    break
                act(Frame(True, "legal"), player, spectator, rng)
            check_table(http, db, code, [player, spectator])
    finally:
        player.close()
        spectator.close()
