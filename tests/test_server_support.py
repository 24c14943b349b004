"""Helpers for the server tests: a real ``bigtwo serve`` process on a free loopback port, and
the check that no message a recipient got holds a card it may not see.

Not a test module itself (it defines no tests); the server test modules import from it, and
``conftest.py`` builds the module-scoped ``server`` fixture on :func:`launch`.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bigtwo.engine.cards import to_mask
from bigtwo.server.bench import free_port, start_server, wait_ready
from bigtwo.service.commands import Command
from bigtwo.service.config import TableConfig
from bigtwo.service.table import TableService
from bigtwo.store.tables import open_store

# Each test module's server: seeds allowed, and no room limits for the one test address
# (test_server_limits.py and test_server_host.py test the limits).
SERVER_OPTIONS = [
    "--allow-seeds", "--rooms-per-address", "0", "--rooms-per-minute", "0", "--seats-per-address", "0",
]  # fmt: skip
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][dchs])(?![A-Za-z0-9])")


STATS_TOKEN = "operator-token-for-tests"
STATS = {"Authorization": f"Bearer {STATS_TOKEN}"}  # the headers that read /api/stats


@dataclass
class Server:
    url: str
    port: int
    db: str | Path  # a SQLite file or a PostgreSQL URL
    process: subprocess.Popen[bytes]

    @property
    def ws_base(self) -> str:
        return self.url.replace("http://", "ws://")

    def start(self) -> None:
        self.process = start_server(
            self.port, self.db, extra=SERVER_OPTIONS, stats_token=STATS_TOKEN
        )
        wait_ready(self.url, process=self.process)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def alive(self) -> bool:
        return self.process.poll() is None


def launch(tmp: Path, extra: list[str] | None = None, *, db: str | Path | None = None) -> Server:
    """A server on a free port with a database in ``tmp`` (or ``db``: a file or a PostgreSQL
    URL); ``extra``: more serve options."""
    port = free_port()
    db = db if db is not None else tmp / "tables.sqlite3"
    process = start_server(port, db, extra=SERVER_OPTIONS + (extra or []), stats_token=STATS_TOKEN)
    server = Server(f"http://127.0.0.1:{port}", port, db, process)
    try:
        wait_ready(server.url, process=process)
    except Exception:
        server.stop()
        raise
    return server


def restored_table(db: str | Path, code: str) -> TableService:
    """The table rebuilt from the stored log, as a restarted server would rebuild it."""
    store = open_store(db, checkpoint=False)
    try:
        room = store.load(code)
    finally:
        store.close()
    assert room is not None, f"table {code} is not stored"
    config = TableConfig.from_json(room.config)
    commands = [Command.from_log(c) for c in room.commands]
    return TableService.restore(
        config, code, commands, now=0.0, snapshot=room.snapshot, resync_gap=10**9
    )


def stored_commands(db: str | Path, code: str) -> list[dict[str, Any]]:
    """The commands stored after the table's latest snapshot (all of them when it has none)."""
    store = open_store(db, checkpoint=False)
    try:
        room = store.load(code)
    finally:
        store.close()
    assert room is not None
    return room.commands


def dealt_hands(table: TableService) -> dict[int, tuple[int, ...]]:
    """Every deal's dealt hands, by deal number (the server-side truth)."""
    assert table.game is not None
    out = {r.number: r.dealt for r in table.game.results}
    out[table.game.deal_number] = table.game.deal.dealt
    return out


def cards_left(table: TableService) -> dict[int, tuple[int, ...]]:
    """What each seat held when each finished deal ended (the server-side truth)."""
    assert table.game is not None
    return {r.number: r.cards_left for r in table.game.results}


def _public_left(msg: dict[str, Any], left: dict[int, tuple[int, ...]]) -> dict[str, Any]:
    """The message without the cards that became public when a deal ended, having checked
    that they are exactly the cards left, and only of deals that are over."""
    msg = dict(msg)
    if msg.get("type") == "deal_end":
        assert [to_mask(c) for c in msg.pop("left")] == list(left[msg["deal"]]), msg
    elif msg.get("type") == "sync":
        room = dict(msg["room"])
        results = []
        for r in room["results"]:
            r = dict(r)
            assert [to_mask(c) for c in r.pop("left")] == list(left[r["deal"]]), r
            results.append(r)
        room["results"] = results
        msg["room"] = room
    return msg


def assert_no_foreign_cards(
    messages: list[dict[str, Any]],
    seat: int | None,
    hands: dict[int, tuple[int, ...]],
    left: dict[int, tuple[int, ...]] | None = None,
    lead: str = "3d",
) -> int:
    """Check that every card named in ``messages`` (those one recipient got, in order) is the
    recipient's own or already played in public, except each seat's cards left once a deal is
    over (``deal_end``, and a resync's finished deals), which must then be exactly the cards
    left (``left``, by deal). ``lead`` is the rules' lead card (public: the rules name it).
    Returns how many card names were checked."""
    import json

    deal = 0
    played = 0
    checked = 0
    lead = to_mask(lead)  # public, named in the rules
    for msg in messages:
        msg = _public_left(msg, left or {})
        kind = msg.get("type")
        if kind == "sync" and msg.get("view"):
            deal = msg["view"]["deal"]
            played = to_mask(msg["view"]["played"])
        elif kind == "deal":
            deal, played = msg["deal"], 0
            for a in msg["actions"]:
                played |= to_mask(a["cards"] or "")
        elif kind == "action" and msg["cards"]:
            played |= to_mask(msg["cards"])
        own = hands[deal][seat] if (seat is not None and deal) else 0
        allowed = own | played | lead
        # Ids are the client's own; tokens and invites random letters that may look like a card
        # ("4d_ST0a…").
        text = json.dumps({k: v for k, v in msg.items() if k not in ("id", "token", "invite")})
        for token in CARD_TOKEN.findall(text):
            checked += 1
            assert to_mask(token) & allowed, (
                f"seat {seat} was sent {token}, which it may not see, in {msg}"
            )
    return checked
