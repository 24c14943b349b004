"""Every command is atomic: a command that fails part-way (a fault injected in the middle of
one) leaves the table as its stored log has it, still playing, and is refused in words; and a
reused action id with another action is refused with its own code, not taken for a retry."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from bigtwo.server.hub import Hub
from bigtwo.server.runner import TableRunner
from bigtwo.service import (
    Command,
    Faulted,
    Group,
    Refused,
    TableService,
    hash_token,
)
from bigtwo.service.commands import Op
from bigtwo.service.request import table_config
from bigtwo.service.table import AlreadyApplied, BigTwoService
from bigtwo.store.tables import MemoryStore
from test_server_hub import FakeSocket, _seated

ONE_HUMAN = {"seats": ["human", "computer", "computer", "computer"], "deals": 2}


def _state(table: TableService) -> dict[str, Any]:
    """What a table is, apart from who is connected now (presence is not stored)."""
    info = table.info()
    for seat in info["seats"]:
        del seat["connected"]
    view = None if table.game is None else table.snapshot(0)["view"]
    return {"info": info, "view": view, "v": table.v, "state_v": table.state_v}


def _my_play(runner: TableRunner) -> dict[str, Any] | None:
    svc = runner.service
    if svc.game is None or svc.game.deal.turn != 0 or svc.between is not None:
        return None
    view = svc.game.view(0)
    if view.can_pass:
        return {"type": "pass", "v": svc.state_v}
    cards = " ".join(str(c) for c in view.legal[0].cards)
    return {"type": "play", "cards": cards, "v": svc.state_v}


async def _my_turn(runner: TableRunner) -> dict[str, Any]:
    for _ in range(200):
        await asyncio.sleep(0.01)  # what was sent has been written
        play = _my_play(runner)
        if play is not None:
            return play
    raise AssertionError("seat 0 never had the turn")


async def test_a_fault_in_the_middle_of_a_command_leaves_memory_as_the_log_has_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = MemoryStore()
    hub = Hub(store)
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN))
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    play = await _my_turn(runner)

    # The fault: the play has reached the deal in memory when the table fails on its events.
    real = BigTwoService._action_events
    faults = {"left": 1}

    def failing(self: TableService, *args: Any) -> None:
        if faults["left"]:
            faults["left"] -= 1
            raise RuntimeError("injected fault")
        real(self, *args)

    monkeypatch.setattr(BigTwoService, "_action_events", failing)
    before = _state(runner.service)
    sent = len(socket.messages())
    runner.on_frame(conn, json.dumps({**play, "id": "a1"}))
    await asyncio.sleep(0.01)
    new = socket.messages()[sent:]
    errors = [m for m in new if m["type"] == "error"]
    assert [(m["id"], m["code"]) for m in errors] == [("a1", "internal")]
    assert "nothing was applied" in errors[0]["message"]
    assert not any("v" in m for m in new), new  # no event of the failed command left the table

    # Memory is what the stored log rebuilds, and what it was before the command.
    rebuilt = hub.rebuild(runner.code)
    assert rebuilt is not None
    assert _state(runner.service) == _state(rebuilt) == before
    assert runner.service.info()["code"] == runner.code  # GET /api/rooms/{code} answers

    # The table keeps playing: the same play is accepted now, and the match goes on.
    runner.on_frame(conn, json.dumps({**play, "id": "a2"}))
    await asyncio.sleep(0.01)
    assert any(m["type"] == "ack" and m["id"] == "a2" for m in socket.messages())
    # One message for each state the table is in (again only after a while: a message sent
    # at every poll would be refused for its rate, and too many refusals close the connection).
    loop = asyncio.get_running_loop()
    sent_at: dict[int, float] = {}
    deadline = loop.time() + 60
    while runner.service.status == "playing" and loop.time() < deadline:
        svc, now = runner.service, loop.time()
        if now - sent_at.get(svc.state_v, -1.0) > 0.5:
            mine = _my_play(runner)
            if mine is not None:
                runner.on_frame(conn, json.dumps({**mine, "id": f"m{svc.state_v}"}))
                sent_at[svc.state_v] = now
            elif svc.between is not None:
                runner.on_frame(conn, json.dumps({"type": "next"}))
                sent_at[svc.state_v] = now
        await asyncio.sleep(0.005)
    assert runner.service.status == "finished"
    again = hub.rebuild(runner.code)
    assert again is not None and _state(again) == _state(runner.service)


def test_a_table_that_faulted_refuses_every_command_until_rebuilt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = TableService(table_config(ONE_HUMAN), "T")
    table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)

    def failing(self: TableService, now: float) -> None:
        self.status = "playing"  # type: ignore[assignment]  # half a start
        raise RuntimeError("injected fault")

    monkeypatch.setattr(TableService, "_start", failing)
    with pytest.raises(Faulted) as fault:
        table.apply(Command(Op.READY, seat=0), 0.0)
    assert fault.value.code == "internal"
    with pytest.raises(Faulted, match="rebuilt from its log"):
        table.apply(Command(Op.CHAT, seat=0, text="hello"), 0.0)


def test_a_reused_action_id_with_another_action_is_refused_with_its_own_code() -> None:
    seats = ["human", "computer", "computer", "computer"]
    for seed in range(60):
        table = TableService(table_config({"seats": seats, "seed": seed}, allow_seed=True), "T")
        table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)
        table.connect(0, 0.0)
        table.submit(Command(Op.READY, seat=0), 0.0)
        assert table.game is not None
        if table.game.deal.turn == 0 and len(table.game.view(0).legal) > 1:
            break
    else:
        raise AssertionError("no seed gave seat 0 the lead with a choice")
    legal = table.game.view(0).legal
    first = table.apply(Command(Op.ACT, seat=0, cards=legal[0].mask, id="a1"), 0.0)
    v = first[0].v
    with pytest.raises(AlreadyApplied) as retry:  # the same action again: a retry
        table.apply(Command(Op.ACT, seat=0, cards=legal[0].mask, id="a1"), 0.0)
    assert retry.value.v == v
    before = table.v
    with pytest.raises(Refused) as reused:  # another action under the same id
        table.apply(Command(Op.ACT, seat=0, cards=legal[1].mask, id="a1"), 0.0)
    assert reused.value.code == "id_reused" and not isinstance(reused.value, AlreadyApplied)
    assert "already used for another action" in str(reused.value)
    assert table.v == before
    with pytest.raises(Refused) as reused_pass:
        table.apply(Command(Op.ACT, seat=0, cards=None, id="a1"), 0.0)
    assert reused_pass.value.code == "id_reused"


async def test_a_reused_action_id_is_answered_with_an_error_not_a_duplicate_ack() -> None:
    hub = Hub(MemoryStore())
    runner, conn, socket = await _seated(hub, table_config(ONE_HUMAN))
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    play = await _my_turn(runner)
    runner.on_frame(conn, json.dumps({**play, "id": "x1"}))
    await asyncio.sleep(0.01)
    # Another action under the same id (a pass for a play, a card for a pass): the id is
    # checked first, whoever's turn it is now.
    svc = runner.service
    assert svc.game is not None
    if play["type"] == "pass":
        card = str(next(iter(svc.game.deal.view(0).legal[0].cards)))
        other: dict[str, Any] = {"type": "play", "cards": card, "v": svc.state_v}
    else:
        other = {"type": "pass", "v": svc.state_v}
    runner.on_frame(conn, json.dumps({**other, "id": "x1"}))
    await asyncio.sleep(0.01)
    replies = [m for m in socket.messages() if m.get("id") == "x1"]
    assert replies[0]["type"] == "ack" and not replies[0].get("duplicate")
    assert replies[-1]["type"] == "error" and replies[-1]["code"] == "id_reused"


_ = FakeSocket  # the fake socket the seated helper uses


async def test_a_computer_move_that_fails_every_time_drops_the_table_instead_of_looping(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The player's play goes through; the computer's move after it fails part-way, each time
    it is due (at once, again and again): after a few in a row the table is dropped (its
    players told to reconnect), stored as its log has it, with the player's play."""
    hub = Hub(MemoryStore())
    config = table_config({**ONE_HUMAN, "seed": 7}, allow_seed=True)
    runner, conn, socket = await _seated(hub, config)
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    play = await _my_turn(runner)
    real = BigTwoService._action_events
    calls = {"n": 0}

    def failing(self: TableService, cmd: Command, *args: Any) -> None:
        if cmd.by == "computer" and self is runner.service:  # live, not replaying the log
            calls["n"] += 1
            raise RuntimeError("injected fault, every time")
        real(self, cmd, *args)

    monkeypatch.setattr(BigTwoService, "_action_events", failing)
    runner.on_frame(conn, json.dumps({**play, "id": "a1"}))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if socket.closed is not None:
            break
    assert any(m["type"] == "ack" and m["id"] == "a1" for m in socket.messages())
    assert socket.closed is not None and socket.closed[0] == 1011
    assert runner.code not in hub.tables and calls["n"] == 3
    stored = hub.rebuild(runner.code)
    assert stored is not None and stored.game is not None
    assert stored.game.deal.turn != 0  # the player's play is kept; the computer's is not
    monkeypatch.undo()
    again = hub.get(runner.code)  # the next visit reloads it, and it plays on
    assert again is not None and again.service.game is not None


def test_a_refusal_after_the_table_changed_is_a_fault_not_a_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A handler that tells of a change and then refuses has half-applied the command: the
    table says so (Faulted) rather than pass it off as a refusal that changed nothing."""
    table = TableService(table_config(ONE_HUMAN), "T")
    table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), 0.0)

    def half(self: TableService, now: float) -> None:
        self._emit("started", Group.ALL, {}, state=True)
        raise Refused("bad_command", "changed my mind")

    monkeypatch.setattr(TableService, "_start", half)
    with pytest.raises(Faulted):
        table.apply(Command(Op.READY, seat=0), 0.0)
