"""The plays a table mirror reads from the wire: each text is read once for every mirror of
the same rules (a load test's client mirrors thousands of seats), a text that is no play is
refused every time, and the shared store starts afresh when full."""

from __future__ import annotations

import pytest

from bigtwo.engine.errors import BigTwoError
from bigtwo.engine.rules import BIGTWO
from bigtwo.service import Command, Op, SeatConfig, TableConfig, TableService, hash_token
from bigtwo.service import mirror as mirror_module
from bigtwo.service.mirror import TableMirror


def _mirrors() -> tuple[TableService, list[TableMirror]]:
    config = TableConfig(preset="textbook", seats=(SeatConfig(),) * 4, seed=3, deals=1)
    table = TableService(config, "PLAY")
    for seat in range(4):
        table.apply(Command(Op.JOIN, seat=seat, name=f"P{seat}", token=hash_token(f"t{seat}")), 0.0)
        table.connect(seat, 0.0)
    for seat in range(4):
        table.apply(Command(Op.READY, seat=seat), 0.0)
    mirrors = []
    for seat in range(4):
        m = TableMirror()
        m.apply(table.snapshot(seat))
        mirrors.append(m)
    return table, mirrors


class CountingReader:
    """The 52-card reader, counting the texts it reads."""

    def __init__(self, reader: object) -> None:
        self.reader = reader
        self.read: list[str] = []

    def cards(self, text: str) -> object:
        self.read.append(text)
        return self.reader.cards(text)  # type: ignore[attr-defined]


def test_every_mirror_reads_a_play_once_and_holds_the_same_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, mirrors = _mirrors()
    counting = CountingReader(mirror_module._READERS[BIGTWO])
    monkeypatch.setitem(mirror_module._READERS, BIGTWO, counting)
    seat = table.game.deal.turn
    first = table.game.deal.legal_plays()[0]
    events = table.apply(Command(Op.ACT, seat=seat, cards=first.mask), 1.0)
    mirror_module._PLAYS.clear()
    for m in mirrors:
        for event in events:
            if event.reaches(m.seat):
                m.apply(event.message())
    plays = [m.to_beat for m in mirrors]
    assert plays[0] is not None and plays[0].mask == first.mask
    assert all(p is plays[0] for p in plays)
    # Four mirrors read the play twice each (the action, the table's play to beat), and the
    # seat to act its legal plays: each text once.
    assert str(first) in counting.read and len(counting.read) == len(set(counting.read))
    assert [a.play for a in mirrors[1].actions] == [plays[0]]


def test_a_text_that_is_no_play_is_refused_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mirror_module, "MAX_PLAYS", 2)
    _, mirrors = _mirrors()
    m = mirrors[0]
    for _ in range(2):
        with pytest.raises(BigTwoError, match="not a play"):
            m._play("3d 4c")
    # Past the bound the store starts afresh, and reads the same plays again.
    assert [str(m._play(t)) for t in ("3d", "4c", "5h 5s", "3d")] == ["3d", "4c", "5h 5s", "3d"]
    assert len(mirror_module._PLAYS) <= 2
