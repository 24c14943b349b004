"""``bigtwo serve`` (the game server), ``bigtwo join`` (a terminal client for a network table),
``bigtwo bench server`` (the server load benchmark) and ``bigtwo bench abuse`` (the server
under every abuse pattern at once).

This module only reads options and wires them to :mod:`bigtwo.server`; the terminal client
shows what the server sends and sends what the player types, deciding no rule itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..engine.cards import card_symbols, to_mask
from ..engine.errors import BigTwoError
from . import bench_parser


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the game server (HTTP lobby + WebSocket tables)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file for tables (default: in the user data folder)")
    serve.add_argument("--memory", action="store_true", help="keep tables in memory only")
    serve.add_argument(
        "--sync",
        choices=("normal", "full"),
        default="normal",
        help="normal: survives the server being killed; full: also power loss (slower)",
    )
    serve.add_argument(
        "--allow-seeds", action="store_true", help="let room requests fix the shuffle (tests)"
    )
    serve.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    serve.add_argument(
        "--think",
        choices=("process", "thread", "inline"),
        default="process",
        help="where computer players above 'greedy' think: worker processes (default), "
        "threads, or the event loop itself",
    )
    serve.add_argument(
        "--think-workers",
        type=int,
        help="worker processes for computer players (default: one fewer than the CPUs)",
    )
    serve.add_argument(
        "--think-budget",
        type=float,
        default=4.0,
        help="seconds a computer may think before it plays its cheapest move (default 4)",
    )
    serve.add_argument(
        "--rooms-per-address",
        type=int,
        default=10,
        help="open rooms one client address may have made at once (default 10; 0: no limit)",
    )
    serve.add_argument(
        "--rooms-per-minute",
        type=float,
        default=10.0,
        help="rooms one client address may make a minute, 10 at once (default 10; 0: no limit)",
    )
    serve.add_argument(
        "--max-tables",
        type=int,
        default=5000,
        help="open tables at once; when full, unstarted rooms nobody is at give way (default 5000)",
    )
    serve.add_argument(
        "--seat-grace",
        type=float,
        default=60.0,
        help="seconds a seat taken before the match may stay without a connection before it "
        "is freed (default 60; 0: never freed)",
    )
    serve.add_argument(
        "--seats-per-address",
        type=int,
        default=8,
        help="seats one client address may hold without connecting to them (default 8; "
        "0: no limit)",
    )
    serve.add_argument(
        "--stats-token",
        default=os.environ.get("BIGTWO_STATS_TOKEN", ""),
        help="the operator's token for GET /api/stats (sent as 'Authorization: Bearer "
        "TOKEN'; default $BIGTWO_STATS_TOKEN); without one, stats are refused",
    )
    serve.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy (address or network, e.g. 10.0.0.0/8; may be repeated) whose "
        "X-Forwarded-For header names the client; from anyone else the socket's address "
        "counts",
    )
    serve.set_defaults(run=_serve)

    join = sub.add_parser("join", help="sit at a network table in this terminal")
    join.add_argument("room", help="room code or share link")
    join.add_argument(
        "--server", help="server URL (default: from the link, else http://127.0.0.1:8000)"
    )
    join.add_argument("--name", default="", help="your name at the table")
    join.add_argument("--seat", type=int, help="a particular free seat")
    join.add_argument("--token", help="your seat token, to rejoin (remembered otherwise)")
    join.add_argument("--watch", action="store_true", help="watch instead of playing")
    join.set_defaults(run=_join)

    bench = bench_parser(sub)
    server = bench.add_parser("server", help="tables of network computer players against a server")
    server.add_argument("--tables", type=int, default=50)
    server.add_argument("--seconds", type=float, default=10.0)
    server.add_argument(
        "--think-ms", type=float, default=500.0, help="each bot's thinking time (±50%%)"
    )
    server.add_argument("--level", default="greedy", help="computer level of the bots")
    server.add_argument("--url", help="a running server on this machine (default: start one)")
    server.add_argument("--json", action="store_true")
    server.set_defaults(run=_bench_server)
    abuse = bench.add_parser(
        "abuse", help="every abuse pattern at full speed against a fresh server, measured"
    )
    abuse.add_argument("--seconds", type=float, default=30.0)
    abuse.add_argument(
        "--addresses",
        type=int,
        default=3,
        help="loopback source addresses per pattern (127.0.0.2, 127.0.0.3, ...; default 3)",
    )
    abuse.add_argument("--json", action="store_true")
    abuse.set_defaults(run=_bench_abuse)


# -- serve -----------------------------------------------------------------------------------
def _default_db() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("bigtwo")) / "server.sqlite3"


def _serve(args: argparse.Namespace) -> int:
    import logging
    import resource

    import uvicorn

    from ..server.app import create_app
    from ..server.hub import Settings
    from ..server.protocol import HARD_MAX_MESSAGE
    from ..server.storage import MemoryStore, SQLiteStore, TableStore

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # one descriptor per connection: take what the system allows
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    store: TableStore
    if args.memory:
        store, where = MemoryStore(), "memory only"
    else:
        path = Path(args.db) if args.db else _default_db()
        store, where = SQLiteStore(path, sync=args.sync), str(path)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if args.think_budget <= 0 or (args.think_workers is not None and args.think_workers < 1):
        print("bigtwo serve: --think-budget and --think-workers must be positive", file=sys.stderr)
        return 2
    if (
        min(args.rooms_per_address, args.rooms_per_minute, args.seat_grace, args.seats_per_address)
        < 0
    ):
        print("bigtwo serve: room limits and --seat-grace cannot be negative", file=sys.stderr)
        return 2
    if args.max_tables < 1:
        print("bigtwo serve: --max-tables must be at least 1", file=sys.stderr)
        return 2
    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            print(
                f"bigtwo serve: --trusted-proxy {proxy!r} is not an address or a network",
                file=sys.stderr,
            )
            return 2
    settings = Settings(
        allow_seeds=args.allow_seeds,
        rooms_per_address=args.rooms_per_address,
        rooms_per_minute=args.rooms_per_minute,
        max_tables=args.max_tables,
        seat_grace=args.seat_grace or None,
        seats_per_address=args.seats_per_address,
        tune_gc=True,
        think=args.think,
        think_workers=args.think_workers,
        think_budget=args.think_budget,
        stats_token=args.stats_token,
        trusted_proxies=tuple(args.trusted_proxy),
    )
    app = create_app(store, settings)
    if args.log_level in ("info", "debug"):
        print(f"bigtwo server on http://{args.host}:{args.port} (tables: {where})", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=HARD_MAX_MESSAGE,
        ws_per_message_deflate=False,  # small messages; deflate costs CPU and memory per socket
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        backlog=4096,
        timeout_graceful_shutdown=3,
        access_log=args.log_level == "debug",
        # Client addresses are the app's business (--trusted-proxy): uvicorn would believe
        # X-Forwarded-For from any local process.
        proxy_headers=False,
    )
    uvicorn.Server(config).run()
    return 0


# -- bench server ----------------------------------------------------------------------------
def _bench_server(args: argparse.Namespace) -> int:
    from ..server.bench import run_bench

    if args.tables < 1 or args.seconds <= 0:
        print(
            "bigtwo bench server: --tables must be at least 1 and --seconds positive",
            file=sys.stderr,
        )
        return 2
    try:
        result = run_bench(
            args.tables, args.seconds, url=args.url, think=args.think_ms / 1000, level=args.level
        )
    except (ValueError, RuntimeError) as exc:
        print(f"bigtwo bench server: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
    return 0


# -- bench abuse ----------------------------------------------------------------------------
def _bench_abuse(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..server.abuse import run_abuse

    if args.seconds <= 0 or args.addresses < 1:
        print("bigtwo bench abuse: --seconds and --addresses must be positive", file=sys.stderr)
        return 2
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]abuse[/]"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f} s"),
        TextColumn("{task.fields[requests]} requests answered"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("abuse", total=args.seconds, requests=0)

        def progress(elapsed: float, requests: int) -> None:
            bar.update(task, completed=min(elapsed, args.seconds), requests=requests)

        try:
            result = run_abuse(args.seconds, source_addresses=args.addresses, progress=progress)
        except (ValueError, RuntimeError, OSError) as exc:
            print(f"bigtwo bench abuse: {exc}", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(result))
        return 0
    _print_abuse(result)
    return 0


def _print_abuse(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    patterns = Table(title=f"Abuse patterns ({result['seconds']} s)")
    for column in ("pattern", "accepted", "refused", "5xx", "internal", "failed", "refusals"):
        patterns.add_column(
            column, justify="left" if column in ("pattern", "refusals") else "right"
        )
    for name, p in result["patterns"].items():
        refusals = ", ".join(f"{k} {v}" for k, v in p["refusals"].items())
        patterns.add_row(
            name, str(p["accepted"]), str(p["refused"]), str(p["server_5xx"]),
            str(p["internal_errors"]), str(p["failed_connections"]), refusals,
        )  # fmt: skip
    console.print(patterns)
    targets = Table(title="Targets")
    for column in ("figure", "value", "target", ""):
        targets.add_column(column)
    for t in result["targets"].values():
        mark = "[green]met[/]" if t["met"] else "[red]missed[/]"
        targets.add_row(t["what"], str(t["value"]), t["target"], mark)
    console.print(targets)
    console.print(
        f"legitimate table: {result['legit_actions']} actions, {result['legit_errors']} errors, "
        f"p50 {result['legit_latency_ms_p50']} ms; strong table: {result['strong_moves']} "
        f"computer moves, p50 wait {result['strong_wait_ms_p50']} ms; database "
        f"{result['database_mb_before']} -> {result['database_mb_after']} MB"
    )


# -- join: a terminal client ------------------------------------------------------------------
HELP = (
    "Type cards to play (3d 3c, or 10h), 'pass', 'say TEXT' to chat, 'ready', 'next' (between "
    "deals), 'hand', 'sync', 'quit'."
)


def _parse_room(room: str, server: str | None) -> tuple[str, str]:
    """A room code and server URL from a code or a share link."""
    if "://" in room:
        parts = urlsplit(room)
        base = f"{parts.scheme}://{parts.netloc}"
        code = (
            parse_qs(parts.query).get("room", [""])[0] or parts.path.rstrip("/").rsplit("/", 1)[-1]
        )
        return code.upper(), server or base
    return room.strip().upper(), server or "http://127.0.0.1:8000"


def _tokens_file() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("bigtwo")) / "tokens.json"


def _remembered(key: str) -> dict[str, Any] | None:
    try:
        data = json.loads(_tokens_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    entry = data.get(key) if isinstance(data, dict) else None
    return entry if isinstance(entry, dict) else None


def _remember(key: str, entry: dict[str, Any]) -> None:
    path = _tokens_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[key] = entry
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data), encoding="utf-8")
        path.chmod(0o600)  # seat tokens are secrets


def _forget(key: str) -> None:
    path = _tokens_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(data, dict) and data.pop(key, None) is not None:
        with contextlib.suppress(OSError):
            path.write_text(json.dumps(data), encoding="utf-8")


def _join(args: argparse.Namespace) -> int:
    code, server = _parse_room(args.room, args.server)
    try:
        return asyncio.run(_join_async(code, server.rstrip("/"), args))
    except EOFError:
        return 0


async def _join_async(code: str, server: str, args: argparse.Namespace) -> int:
    from ..server.client import ActionRefused, ConnectionLost, Lobby, ServerError, TableClient

    key = f"{server}|{code}"
    async with Lobby(server) as lobby:
        try:
            if args.watch:
                seat_info = await lobby.watch(code)
            elif args.token:
                room = await lobby.room(code)
                seat_info = {"token": args.token, "ws": room["ws"]}
            else:
                seat_info = _remembered(key) or {}
                if not seat_info:
                    seat_info = await lobby.join(code, args.name, args.seat)
                    _remember(
                        key,
                        {
                            "token": seat_info["token"],
                            "ws": seat_info["ws"],
                            "seat": seat_info["seat"],
                        },
                    )
                    print(
                        f"Seated at {seat_info['seat']} of table {code}. Rejoin any time with the same command."
                    )
        except ServerError as exc:
            print(f"bigtwo join: {exc}", file=sys.stderr)
            return 2
        except Exception as exc:  # the server cannot be reached
            print(f"bigtwo join: cannot reach {server}: {exc}", file=sys.stderr)
            return 1
    screen = _Screen(server)
    client = TableClient(
        seat_info["ws"], seat_info["token"], watch=args.watch, on_message=screen.show
    )
    screen.client = client
    try:
        await client.connect()
    except ActionRefused as exc:
        if exc.code == "unauthorized" and not args.token and not args.watch:
            _forget(key)  # a remembered seat that is gone (quit, or a finished table)
            print(f"bigtwo join: {exc}; your seat there is gone (forgotten now)", file=sys.stderr)
        else:
            print(f"bigtwo join: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"bigtwo join: cannot connect: {exc}", file=sys.stderr)
        return 1
    print(HELP)
    lines: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()

    def read_stdin() -> None:  # input() blocks, so it lives in its own thread
        while True:
            try:
                line = input()
            except (EOFError, KeyboardInterrupt):
                loop.call_soon_threadsafe(lines.put_nowait, None)
                return
            loop.call_soon_threadsafe(lines.put_nowait, line)

    threading.Thread(target=read_stdin, daemon=True).start()
    closed = asyncio.create_task(client.closed.wait())
    while True:
        get = asyncio.create_task(lines.get())
        done, _ = await asyncio.wait({get, closed}, return_when=asyncio.FIRST_COMPLETED)
        if closed in done:
            get.cancel()
            print("Disconnected from the table.")
            return 0
        line = get.result()
        if line is None:
            await client.close()
            return 0
        text = line.strip()
        if not text:
            continue
        word, _, rest = text.partition(" ")
        try:
            if word.lower() in ("help", "?"):
                print(HELP)
            elif word.lower() == "pass":
                await client.pass_()
            elif word.lower() in ("say", "chat"):
                await client.chat(rest)
            elif word.lower() == "ready":
                await client.ready()
            elif word.lower() == "next":
                await client.next_deal()
            elif word.lower() == "hand":
                screen.render()
            elif word.lower() == "sync":
                await client.sync()
                screen.render()
            elif word.lower() == "quit":
                await client.quit()
                await client.close()
                return 0
            else:
                await client.play(text)
        except ActionRefused as exc:
            print(f"  ! {exc}")
        except BigTwoError as exc:  # notation the client could not read
            print(f"  ! {exc}")
        except (ConnectionLost, TimeoutError):
            print("  ! no answer from the server")


class _Screen:
    """Prints the table for a person: names, counts, the table, the hand, whose turn."""

    def __init__(self, server: str = "") -> None:
        self.client: Any = None
        self.server = server

    def name(self, seat: int) -> str:
        seats = self.client.state.room.get("seats", [])
        name = seats[seat]["name"] if seat < len(seats) else ""
        return name or f"Seat {seat}"

    def show(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "chat":
            print(f"  [{msg['name']}] {msg['text']}")
        elif kind == "joined":
            print(f"  {msg['name']} sits at seat {msg['seat']}")
        elif kind == "left":
            print(f"  seat {msg['seat']} is free again")
        elif kind == "ready":
            print(f"  {self.name(msg['seat'])} is {'ready' if msg['ready'] else 'not ready'}")
        elif kind == "action":
            what = (
                "passes" if msg["cards"] is None else f"plays {card_symbols(to_mask(msg['cards']))}"
            )
            extra = f" ({msg['reason']})" if msg["auto"] and msg["reason"] else ""
            print(f"  {self.name(msg['seat'])} {what}{extra}")
            if msg["trick_over"] and msg["winner"] is None:
                print(f"  — {self.name(msg['turn'])} leads")
        elif kind == "control":
            who = "a computer plays for" if msg["control"] == "computer" else "back:"
            print(f"  {who} {self.name(msg['seat'])}")
        elif kind == "quit":
            print(f"  {self.name(msg['seat'])} quit; a computer finishes their match")
        elif kind == "deal_end":
            print(
                f"  Deal {msg['deal']} won by {self.name(msg['winner'])}. Cards left: {msg['counts']}; totals {msg['totals']}"
            )
            for seat, cards in enumerate(msg.get("left", [])):
                if cards:
                    # The server sends every seat's factor with every deal's end.
                    band = {2: " DOUBLE!", 3: " TRIPLE!"}.get(msg["multipliers"][seat], "")
                    print(f"    {self.name(seat)}: {card_symbols(to_mask(cards))}{band}")
            if msg.get("next_deal"):
                print("  Type 'next' when you are ready for the next deal.")
        elif kind == "next":
            print(f"  {self.name(msg['seat'])} is ready for the next deal")
        elif kind == "rematch":
            code = msg["code"]
            if msg.get("token") and self.server:
                _remember(
                    f"{self.server}|{code}",
                    {"token": msg["token"], "ws": self.client.url.rsplit("/", 1)[0] + f"/{code}",
                     "seat": msg.get("seat")},
                )  # fmt: skip
                print(f"  A new game is open at table {code}: you have a seat there. "
                      f"Join it with: bigtwo join {code} --server {self.server}")  # fmt: skip
            else:
                print(f"  A new game is open at table {code}.")
        elif kind == "match_end":
            print(f"  The match is over. Totals: {msg['totals']}")
        elif kind == "closed":
            print(f"  The table closed: {msg['reason']}")
        elif kind == "presence" and msg["seat"] != self.client.state.seat:
            print(
                f"  {self.name(msg['seat'])} {'is back' if msg['connected'] else 'lost the connection'}"
            )
        elif kind == "clock" and msg["seat"] == self.client.state.seat:
            print(f"  {msg['ms'] / 1000:.0f} s to play")
        elif kind == "error" and msg.get("id") is None:
            print(f"  ! {msg['message']}")
        if kind in ("sync", "hand", "turn"):  # a new deal, or our turn (turn events are ours only)
            self.render()

    def render(self) -> None:
        from ..service.table import TableStatus

        state = self.client.state
        if not state.room:
            return
        if state.status == TableStatus.WAITING:
            seats = ", ".join(
                f"{s['seat']}: {s['name'] or '(free)'}{' ✓' if s['ready'] else ''}"
                for s in state.room["seats"]
            )
            print(f"Table {state.room['code']} — waiting: {seats}. Type 'ready' when you are.")
            return
        if not state.counts:
            return
        counts = " | ".join(f"{self.name(s)} {c}" for s, c in enumerate(state.counts))
        to_beat = (
            "(lead)"
            if state.to_beat is None
            else f"{state.to_beat.symbols()} by {self.name(state.to_beat_seat)}"
        )
        print(
            f"Deal {state.deal_number}/{state.room.get('deals', '?')} · cards: {counts} · table: {to_beat}"
        )
        if state.seat is not None:
            print(f"Your hand: {card_symbols(state.hand)}")
            if state.my_turn:
                options = ", ".join(p.symbols() for p in (state.legal or [])[:12])
                more = " …" if len(state.legal or []) > 12 else ""
                print(
                    f"Your turn. You may play: {options}{more}{' or pass' if state.can_pass else ''}"
                )
            else:
                print(f"{self.name(state.turn)} to play.")
