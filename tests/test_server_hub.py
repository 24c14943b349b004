"""The hub in process, with fake sockets: storing before sending (a failed store sends nothing
and the table reloads from its log), batching, slow readers, unloading idle and finished
tables (the stores themselves: test_store_tables.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine.cards import card_text
from bigtwo.server.connection import Connection
from bigtwo.server.hub import Hub, Settings
from bigtwo.server.settings import Limits
from bigtwo.service.config import TableConfig
from bigtwo.service.events import dumps
from bigtwo.service.request import table_config
from bigtwo.service.table import Refused
from bigtwo.store.tables import MemoryStore


class FakeSocket:
    def __init__(self) -> None:
        self.frames: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.frames.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def messages(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for frame in self.frames:
            data = json.loads(frame)
            out.extend(data if isinstance(data, list) else [data])
        return out


async def _seated(
    hub: Hub, config: TableConfig, batch: bool = False
) -> tuple[Any, Connection, FakeSocket]:
    runner = hub.create(config)
    seat, _token = hub.join(runner, "Ann", None)
    socket = FakeSocket()
    conn = Connection(socket, hub.settings.limits)
    conn.batch = batch
    writer = asyncio.create_task(conn.writer())
    runner.attach(conn, seat, 0)
    await asyncio.sleep(0)
    conn._writer = writer  # type: ignore[attr-defined]
    return runner, conn, socket


ONE_HUMAN = {"seats": ["human", "computer", "computer", "computer"], "deals": 1}


class FailingStore(MemoryStore):
    fail = False

    def append(self, code: str, commands: Any) -> None:
        if self.fail:
            raise OSError("disk full")
        super().append(code, commands)


async def test_nothing_is_sent_when_storing_fails_and_the_table_goes_back_to_its_log() -> None:
    store = FailingStore()
    hub = Hub(store)
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN))
    await asyncio.sleep(0.01)
    sent_before = len(socket.messages())
    v_before = runner.service.v
    store.fail = True
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    await asyncio.sleep(0.01)
    new = socket.messages()[sent_before:]
    assert not any("v" in m and m["type"] != "sync" for m in new)  # no event left the table
    assert [m["code"] for m in new if m["type"] == "error"] == ["unavailable"]
    # The table stays, as its log has it, with its connection, and plays on.
    assert socket.closed is None and hub.tables[runner.code] is runner
    assert runner.service.v == v_before and runner.service.status == "waiting"
    store.fail = False
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r2"}))
    await asyncio.sleep(0.01)
    assert runner.service.status == "playing"
    assert any(m["type"] == "ack" and m["id"] == "r2" for m in socket.messages())


async def test_batches_and_slow_readers() -> None:
    hub = Hub(MemoryStore(), Settings(limits=Limits(queue_max=50)))
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN), batch=True)
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    await asyncio.sleep(0.01)
    assert any(frame.startswith("[") for frame in socket.frames)  # several messages, one frame
    kinds = [m["type"] for m in socket.messages()]
    assert kinds[:2] == ["welcome", "sync"] and "ack" in kinds
    for _ in range(60):  # queued faster than it is written: the reader counts as too slow
        conn.send('{"type": "pong"}')
    await asyncio.sleep(0.01)
    assert socket.closed == (1013, "too slow: reconnect and resync")


async def test_a_reader_too_far_behind_for_what_one_command_sends_is_closed() -> None:
    """What one command sends a connection is queued at once: a queue it would overflow
    closes the connection (it reconnects and resyncs), however many texts it holds."""
    hub = Hub(MemoryStore(), Settings(limits=Limits(queue_max=3)))
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN), batch=True)
    await asyncio.sleep(0.01)
    conn.send('{"type": "pong"}')  # the writer has not run: the queue holds one
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))  # a deal: more than two
    await asyncio.sleep(0.01)
    assert socket.closed == (1013, "too slow: reconnect and resync")
    assert not any(m["type"] == "deal" for m in socket.messages())


async def test_idle_and_finished_tables_are_unloaded() -> None:
    store = MemoryStore()
    hub = Hub(store, Settings(idle_ttl=0.0, finished_ttl=0.0))
    idle = hub.create(table_config({}))
    await asyncio.sleep(0.01)
    hub.sweep()
    assert idle.code not in hub.tables and store.rooms[idle.code].status == "idle"
    assert list(store.open_rooms()) == []
    back = hub.get(idle.code.lower())
    assert back is not None and store.rooms[idle.code].status == "waiting"


async def test_finished_tables_leave_memory_even_while_watched() -> None:
    """A finished table is unloaded some time after its end, even with a browser still open
    on it (told with a final close); its record stays stored and comes back when asked for."""
    store = MemoryStore()
    hub = Hub(store, Settings(finished_ttl=0.05, think="inline"))
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN))
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    svc = runner.service
    while svc.status == "playing":
        assert svc.game is not None
        view = svc.game.deal.view(0)
        move = {"type": "play", "cards": str(view.legal[0])} if view.legal else {"type": "pass"}
        runner.on_frame(conn, json.dumps({**move, "id": f"a{svc.v}", "v": svc.v}))
        await asyncio.sleep(0)
    assert svc.status == "finished" and runner.finished_at is not None
    hub.sweep()
    assert runner.code in hub.tables  # not yet: it has just finished
    await asyncio.sleep(0.1)
    hub.sweep()
    await asyncio.sleep(0.01)
    assert runner.code not in hub.tables and not runner.players
    assert socket.closed == (4410, "table closed")
    assert socket.messages()[-1] == {"type": "bye", "reason": "the match is over: table closed"}
    assert store.rooms[runner.code].status == "finished"
    back = hub.get(runner.code)  # /record, /history and the room still work
    assert back is not None and back.service.status == "finished"
    assert back.service.game is not None and back.service.game.over


async def test_joining_a_started_table_says_it_has_started() -> None:
    """Issue 39 #18: a seat asked for at a table that had started was answered
    ``table_full`` (its seats are all taken once it plays); ``started`` says why. A waiting
    table with every seat taken is still ``table_full``."""
    hub = Hub(MemoryStore(), Settings(think="inline"))
    runner, conn, _socket = await _seated(hub, table_config(ONE_HUMAN))
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    await asyncio.sleep(0.01)
    assert runner.service.status == "playing"
    with pytest.raises(Refused) as started:
        hub.join(runner, "Bob", None)
    assert started.value.code == "started"
    assert str(started.value) == f"Table {runner.code} has started: seats cannot be taken now"
    waiting = hub.create(table_config({}))
    for name in ("Ann", "Bob", "Cy", "Di"):
        hub.join(waiting, name, None)
    with pytest.raises(Refused) as full:
        hub.join(waiting, "Ed", None)
    assert full.value.code == "table_full" and full.value.params["seats"] == 4


async def test_each_action_goes_out_once_per_connection_counted_in_frames_and_messages() -> None:
    """What one action sends a batching connection is one frame (the ack, the action, the
    next turn, the clock), counted as such in the stats ``bigtwo bench server`` reads; the
    same event's text goes to every connection it reaches."""
    hub = Hub(MemoryStore())
    runner = hub.create(table_config({"seats": ["human"] * 4, "deals": 1}))
    sockets = []
    for seat in range(4):
        hub.join(runner, f"P{seat}", seat)
        socket = FakeSocket()
        conn = Connection(socket, hub.settings.limits)
        conn.batch = True
        asyncio.create_task(conn.writer())
        runner.attach(conn, seat, 0)
        runner.on_frame(conn, json.dumps({"type": "ready", "id": f"r{seat}"}))
        sockets.append(socket)
    await asyncio.sleep(0.01)
    svc = runner.service
    assert svc.game is not None
    turn = svc.game.deal.turn
    lead = svc.game.deal.view(turn).legal[0]
    before = [len(s.frames) for s in sockets]
    frames, messages = hub.stats()["ws_frames_sent"], hub.stats()["ws_messages_sent"]
    play = {"type": "play", "id": "p1", "v": svc.v, "cards": card_text(lead.mask)}
    runner.on_frame(runner.players[turn], json.dumps(play))
    await asyncio.sleep(0.01)
    new = [s.frames[n:] for s, n in zip(sockets, before, strict=True)]
    assert [len(f) for f in new] == [1, 1, 1, 1]
    batches = [json.loads(f[0]) for f in new]
    kinds = [[m["type"] for m in b] for b in batches]
    for seat, got in enumerate(kinds):
        mine = ["ack"] if seat == turn else []
        prompt = ["turn"] if seat == (turn + 1) % 4 else []
        assert sorted(got) == sorted(["action", "clock", *mine, *prompt]), (seat, got)
    action_texts = {
        json.dumps(m, separators=(",", ":"), ensure_ascii=False)
        for b in batches
        for m in b
        if m["type"] == "action"
    }
    assert len(action_texts) == 1  # the same text for everyone
    stats = hub.stats()
    assert stats["ws_frames_sent"] - frames == 4
    assert stats["ws_messages_sent"] - messages == sum(len(k) for k in kinds)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers(-(2**62), 2**62) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=12,
    )
)
def test_the_wire_text_is_what_the_json_module_writes(value: Any) -> None:
    """The fast encoder writes, for anything the server sends, the very text the standard
    library's compact, UTF-8 JSON would: the wire did not change with it."""
    message = {"type": "x", "value": value}
    assert dumps(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=6))
def test_numbers_with_a_fraction_read_back_the_same(numbers: list[float]) -> None:
    """A number with a fraction may be written differently (``1e-7`` where the standard
    library writes ``1e-07``) but reads back as the same number."""
    assert json.loads(dumps({"numbers": numbers}))["numbers"] == numbers
