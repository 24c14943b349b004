"""``bigtwo serve`` (the game server), ``bigtwo join`` (the terminal game at a network room),
``bigtwo bench server`` (the server load benchmark) and ``bigtwo bench abuse`` (the server
under every abuse pattern at once).

This module only reads options and wires them to :mod:`bigtwo.server` (and, for ``join``, to
the terminal game, :mod:`bigtwo.tui`).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import importlib.util
import ipaddress
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import bench_parser, print_figures, usage_error

if TYPE_CHECKING:
    from ..store.tables import TableStore

# uvicorn's WebSocket implementations, the default first (README: the server's benchmark):
# "direct" is websockets-sansio with a direct path between each socket and its table
# (bigtwo.server.direct).
WS_STACKS = ("direct", "websockets-sansio", "websockets", "wsproto")
DIRECT_PROTOCOL = "bigtwo.server.direct:DirectProtocol"
# uvicorn's event loops and HTTP parsers: "fast" is uvloop and httptools where they are
# installed (else asyncio and h11), "plain" asyncio and h11 (README: the server's benchmark).
LOOPS = ("fast", "plain")
# The ASGI servers that can run the application (README: the server's benchmark measures
# them side by side); the default can be changed for a whole test run with BIGTWO_SERVER.
SERVERS = ("uvicorn", "granian")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the game server (HTTP lobby + WebSocket tables)")
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--db",
        help="where tables are kept: a SQLite file (default: in the user data folder) or a "
        "PostgreSQL database, postgresql://user@host:port/dbname",
    )
    serve.add_argument("--memory", action="store_true", help="keep tables in memory only")
    serve.add_argument(
        "--cluster",
        metavar="REDIS_URL",
        default="",
        help="run as one node of several sharing --db (a postgresql:// database), with their "
        "leases and messages in this Redis (redis://host:port/db)",
    )
    serve.add_argument(
        "--sync",
        choices=("normal", "full"),
        default="normal",
        help="normal: survives the server being killed; full: also power loss (slower); "
        "on PostgreSQL, synchronous_commit off or on",
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
        "--review-rollouts",
        type=int,
        default=1000,
        help="rollouts the coach spends on each decision it reviews (default 1000)",
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
    serve.add_argument(
        "--ws",
        choices=WS_STACKS,
        default=WS_STACKS[0],
        help="uvicorn's WebSocket implementation (default direct: websockets-sansio with "
        "frames handed straight between each socket and its table; "
        "bigtwo bench server --ws measures them)",
    )
    serve.add_argument(
        "--loop",
        choices=LOOPS,
        default=LOOPS[0],
        help="fast: uvloop and httptools where installed, else asyncio and h11 (the "
        "default); plain: asyncio and h11 (bigtwo bench server --loop measures them)",
    )
    serve.add_argument(
        "--server",
        choices=SERVERS,
        default=_default_server(),
        help="the ASGI server that runs the application: uvicorn (the default) or granian "
        "(a Rust HTTP server, its own WebSocket stack; bigtwo bench server --server measures "
        "them)",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes sharing this port, each a node of the cluster (--cluster and a "
        "postgresql:// --db): a connection reaches any of them and is handed to the one that "
        "runs its table (default 1)",
    )
    serve.set_defaults(run=_serve)

    join = sub.add_parser(
        "join",
        help="sit at a network table in the terminal game",
        description="Open the terminal game at a room of a game server (the same as "
        "bigtwo play --server URL --room ROOM); q at the table goes to the server's lobby.",
    )
    join.add_argument("room", help="room code or share link")
    join.add_argument(
        "--server", help="server URL (default: from the link, else http://127.0.0.1:8000)"
    )
    join.add_argument("--name", default="", help="your name at the table")
    join.add_argument("--watch", action="store_true", help="watch instead of playing")
    join.add_argument(
        "--db", metavar="PATH", help="data file for preferences (default: as bigtwo play)"
    )
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
    server.add_argument(
        "--db",
        help="where the server it starts keeps its tables: a SQLite file or a "
        "postgresql:// URL (default: a fresh SQLite file)",
    )
    server.add_argument(
        "--revolution-rooms",
        type=int,
        default=0,
        help="also this many Big 2 RevolutioN rooms of one person and three computers",
    )
    server.add_argument(
        "--revolution-level",
        default="expert",
        help="the level of those rooms' computers (default expert)",
    )
    server.add_argument(
        "--ws",
        choices=WS_STACKS,
        help="the WebSocket implementation of the server it starts (bigtwo serve --ws; "
        "default direct)",
    )
    server.add_argument(
        "--loop",
        choices=LOOPS,
        help="the event loop and HTTP parser of the server it starts (bigtwo serve --loop; "
        "default fast)",
    )
    server.add_argument(
        "--server",
        choices=SERVERS,
        help="the ASGI server of the server it starts (bigtwo serve --server; default uvicorn)",
    )
    server.add_argument(
        "--workers",
        type=int,
        default=1,
        help="processes of the server it starts (bigtwo serve --workers; needs --cluster and "
        "a postgresql:// --db); the processor time counts them all",
    )
    server.add_argument(
        "--cluster",
        metavar="REDIS_URL",
        help="the Redis of the server it starts as a cluster node (bigtwo serve --cluster)",
    )
    server.add_argument(
        "--profile",
        metavar="FILE",
        help="profile the server it starts over the measured window (cProfile, written to "
        "FILE; its top entries are printed); the figures then include the profiler's cost",
    )
    server.add_argument(
        "--pin",
        action="store_true",
        help="run the server it starts on one processor and the bots on the others, so "
        "that they do not compete for the same processor time",
    )
    server.add_argument("--json", action="store_true")
    server.set_defaults(run=_bench_server)

    cluster = bench.add_parser(
        "cluster", help="tables of network computer players against several cluster nodes"
    )
    cluster.add_argument("--nodes", type=int, default=3)
    cluster.add_argument("--tables", type=int, default=60)
    cluster.add_argument("--seconds", type=float, default=20.0)
    cluster.add_argument(
        "--kill-one", action="store_true", help="kill one node (SIGKILL) halfway through"
    )
    cluster.add_argument(
        "--think-ms", type=float, default=500.0, help="each bot's thinking time (±50%%)"
    )
    cluster.add_argument(
        "--db",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="a PostgreSQL database whose user may create databases: the bench makes one of "
        "its own there and drops it afterwards",
    )
    cluster.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="the nodes' Redis")
    cluster.add_argument("--json", action="store_true")
    cluster.set_defaults(run=_bench_cluster)
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

    from ..match.errors import StoreError

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # one descriptor per connection: take what the system allows
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if args.review_rollouts < 2:
        return usage_error("serve", "--review-rollouts must be at least 2")
    if args.think_budget <= 0 or (args.think_workers is not None and args.think_workers < 1):
        return usage_error("serve", "--think-budget and --think-workers must be positive")
    if (
        min(args.rooms_per_address, args.rooms_per_minute, args.seat_grace, args.seats_per_address)
        < 0
    ):
        return usage_error("serve", "room limits and --seat-grace cannot be negative")
    if args.max_tables < 1:
        return usage_error("serve", "--max-tables must be at least 1")
    if _wrong_server(args.server):
        return usage_error("serve", _wrong_server(args.server))
    if args.ws == "wsproto" and importlib.util.find_spec("wsproto") is None:
        return usage_error("serve", "--ws wsproto needs wsproto: pip install wsproto")
    unusable = _unusable_address(args.host, args.port)
    if unusable:
        return usage_error("serve", unusable)
    for proxy in args.trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            return usage_error("serve", f"--trusted-proxy {proxy!r} is not an address or a network")
    if args.cluster:
        from ..store.sql import is_postgres_url

        if not is_postgres_url(args.db or ""):
            return usage_error(
                "serve",
                "--cluster needs the nodes' shared database: "
                "--db postgresql://user@host:port/dbname",
            )
        try:
            import redis

            redis.Redis.from_url(args.cluster, socket_connect_timeout=5).ping()
        except ImportError:
            return usage_error("serve", "--cluster needs redis-py: pip install 'bigtwo[cluster]'")
        except (redis.RedisError, ValueError) as exc:
            return usage_error("serve", f"cannot reach Redis at {args.cluster}: {exc}")
    if args.workers < 1:
        return usage_error("serve", "--workers must be at least 1")
    if args.workers > 1 and not args.cluster:
        return usage_error(
            "serve",
            f"--workers {args.workers} runs {args.workers} nodes of a cluster on this port: it "
            "needs --cluster redis://host:port/db and --db postgresql://...",
        )
    try:
        store, where = _store(args)  # a worker opens its own: this one opened (and migrated) it
    except StoreError as exc:
        return usage_error("serve", str(exc))
    if args.log_level in ("info", "debug"):
        workers = f", {args.workers} processes" if args.workers > 1 else ""
        print(f"bigtwo server on http://{args.host}:{args.port} (tables: {where}{workers})",
              flush=True)  # fmt: skip
    options = _uvicorn_options(args)
    if args.server == "granian":
        store.close()
        return _serve_granian(args)
    if args.workers == 1:
        uvicorn.Server(uvicorn.Config(_application(args, store), **options)).run()
        return 0
    # Several processes: uvicorn's supervisor binds the port once and starts each worker with
    # it (spawned, so each builds its own application from the options, handed over in the
    # environment); it restarts a worker that dies and stops them all on SIGINT or SIGTERM.
    from uvicorn.supervisors import Multiprocess

    store.close()
    # The workers hand each other the WebSockets of the tables they run through sockets in
    # a directory of their own (bigtwo.server.handoff), removed when they are all gone.
    with tempfile.TemporaryDirectory(prefix="bigtwo-workers-") as handoff_dir:
        handed = {k: v for k, v in vars(args).items() if k != "run"}
        os.environ[WORKER_OPTIONS] = json.dumps({**handed, "handoff_dir": handoff_dir})
        config = uvicorn.Config(WORKER_APP, factory=True, workers=args.workers, **options)
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    return 0


def _default_server() -> str:
    """``--server``'s default: ``BIGTWO_SERVER`` where set (checked by :func:`_wrong_server`),
    else uvicorn."""
    return os.environ.get("BIGTWO_SERVER") or SERVERS[0]


def _wrong_server(server: str) -> str:
    """Why ``server`` (from ``BIGTWO_SERVER``: argparse checks only what is typed) cannot
    run the application, in words; "" when it can."""
    if server not in SERVERS:
        return f"BIGTWO_SERVER must be {' or '.join(SERVERS)}, not {server!r}"
    if server == "granian" and importlib.util.find_spec("granian") is None:
        return "--server granian needs granian: pip install granian"
    return ""


def _serve_granian(args: argparse.Namespace) -> int:
    """Run the application on Granian: its supervisor binds the port and starts ``--workers``
    processes (at least one), each building its application from the options handed over in
    the environment, as uvicorn's workers do; SIGINT or SIGTERM stops them gracefully
    (the application's shutdown runs in each). Granian has no setting for the largest
    WebSocket message (the application refuses any over its own limit) nor sends pings."""
    from granian.constants import HTTPModes, Interfaces, Loops
    from granian.log import LogLevels
    from granian.server import Server

    os.environ[WORKER_OPTIONS] = json.dumps({k: v for k, v in vars(args).items() if k != "run"})
    Server(
        WORKER_APP,
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        factory=True,
        workers=args.workers,
        loop=Loops.auto if args.loop == "fast" else Loops.asyncio,
        http=HTTPModes.http1,
        websockets=True,
        backlog=4096,
        log_level=LogLevels(args.log_level),
        log_access=args.log_level == "debug",
        workers_kill_timeout=10,
        log_dictconfig=_GRANIAN_LOGS,
    ).serve()
    return 0


# Granian's own log lines go where uvicorn's and the application's do: standard error
# (standard output is the server's first line, and the benches' JSON).
_GRANIAN_LOGS: dict[str, Any] = {
    "handlers": {
        name: {"formatter": form, "class": "logging.StreamHandler", "stream": "ext://sys.stderr"}
        for name, form in (("console", "generic"), ("access", "access"))
    }
}


def _uvicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's settings for ``bigtwo serve``'s options."""
    from ..protocol import HARD_MAX_MESSAGE

    return {
        "host": args.host,
        "port": args.port,
        "log_level": args.log_level,
        "ws_max_size": HARD_MAX_MESSAGE,
        "ws_per_message_deflate": False,  # small messages; deflate costs CPU and memory per socket
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "backlog": 4096,
        "timeout_graceful_shutdown": 3,
        "access_log": args.log_level == "debug",
        "ws": DIRECT_PROTOCOL if args.ws == "direct" else args.ws,
        "loop": "auto" if args.loop == "fast" else "asyncio",
        "http": "auto" if args.loop == "fast" else "h11",
        # Client addresses are the app's business (--trusted-proxy): uvicorn would believe
        # X-Forwarded-For from any local process.
        "proxy_headers": False,
    }


# How a worker process of ``serve --workers N`` finds its application and the options.
WORKER_APP = "bigtwo.commands.server:worker_application"
WORKER_OPTIONS = "BIGTWO_SERVE_OPTIONS"


def worker_application() -> Any:
    """The application of one worker process of ``bigtwo serve --workers N`` (or
    ``--server granian``); the worker ends with its supervisor, even one killed with SIGKILL,
    as a one-process server would (its tables then move to the cluster's other nodes)."""
    import logging

    from ..server.thinking import die_with

    die_with(os.getppid())
    args = argparse.Namespace(**json.loads(os.environ[WORKER_OPTIONS]))
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    app = _application(args, _store(args)[0])
    handoffs = app.state.hub.cluster.handoffs if app.state.hub.cluster is not None else None
    if handoffs is not None:
        # A WebSocket handed over by a sibling starts in the HTTP protocol this worker's
        # uvicorn would give it, over this application (its own connections are uvicorn's).
        import uvicorn
        from uvicorn.server import ServerState

        config = uvicorn.Config(app, **_uvicorn_options(args), log_config=None)
        config.load()
        protocol: Any = config.http_protocol_class  # (uvicorn's HTTP protocols take these)
        handoffs.protocol = functools.partial(
            protocol, config=config, server_state=ServerState(), app_state={}
        )
    return app


def _store(args: argparse.Namespace) -> tuple[TableStore, str]:
    """Where the server keeps its tables, and those words for its first line; a store that
    cannot be opened raises :class:`~bigtwo.match.errors.StoreError`."""
    from ..store.tables import MemoryStore, open_store

    if args.memory:
        return MemoryStore(), "memory only"
    opened = open_store(args.db or str(_default_db()), sync=args.sync)
    return opened, opened.where


def _application(args: argparse.Namespace, store: TableStore) -> Any:
    """The server's application for these options, keeping its tables in ``store``."""
    from ..server.app import create_app
    from ..server.hub import Settings

    settings = Settings(
        allow_seeds=args.allow_seeds,
        rooms_per_address=args.rooms_per_address,
        rooms_per_minute=args.rooms_per_minute,
        max_tables=args.max_tables,
        seat_grace=args.seat_grace or None,
        seats_per_address=args.seats_per_address,
        scheduled_gc=True,
        think=args.think,
        think_workers=args.think_workers,
        think_budget=args.think_budget,
        review_rollouts=args.review_rollouts,
        stats_token=args.stats_token,
        trusted_proxies=tuple(args.trusted_proxy),
        cluster=args.cluster,
        handoff_dir=getattr(args, "handoff_dir", "") if args.server == "uvicorn" else "",
    )
    return create_app(store, settings)


def _unusable_address(host: str, port: int) -> str:
    """Why the server could not listen on ``host``:``port``, in words ("" when it can): a
    port out of range, an address this machine does not have, or a port another program
    listens on. Checked before the server starts, so the words are bigtwo's own."""
    import socket

    if not 0 <= port <= 65535:
        return f"--port must be from 0 to 65535, not {port}"
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return f"--host {host!r} is not an address of this machine"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server sets it
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} on {host} is in use by another program "
                    "(another bigtwo server?): choose another with --port"
                )
            return f"cannot listen on {host}:{port} ({exc.strerror or exc})"
    return ""


# -- bench server ----------------------------------------------------------------------------
def _bench_server(args: argparse.Namespace) -> int:
    from ..server.bench import run_bench
    from ..store.sql import is_postgres_url

    # The server it starts runs on --server, else on serve's default (BIGTWO_SERVER).
    chosen = args.server or ("" if args.url else _default_server())
    wrong = [
        words
        for wrong, words in (
            (args.tables < 1, "--tables must be at least 1"),
            (args.seconds <= 0, "--seconds must be positive"),
            (args.revolution_rooms < 0, "--revolution-rooms must be at least 0"),
            (args.workers < 1, "--workers must be at least 1"),
            (bool(chosen and _wrong_server(chosen)), _wrong_server(chosen)),
            (
                args.workers > 1 and not (args.cluster and is_postgres_url(args.db or "")),
                f"--workers {args.workers} needs --cluster redis://... and --db postgresql://...",
            ),
        )
        if wrong
    ]
    if wrong:
        return usage_error("bench server", "; ".join(wrong))
    if args.url and args.db:
        return usage_error(
            "bench server", "--db is for the server the bench starts, not one at --url"
        )
    try:
        result = run_bench(
            args.tables,
            args.seconds,
            url=args.url,
            think=args.think_ms / 1000,
            level=args.level,
            db=args.db,
            revolution_rooms=args.revolution_rooms,
            revolution_level=args.revolution_level,
            profile=args.profile,
            ws=args.ws,
            loop=args.loop,
            pin=args.pin,
            server=chosen or None,
            workers=args.workers,
            cluster=args.cluster,
        )
    except (ValueError, RuntimeError, OSError) as exc:
        return usage_error("bench server", str(exc))
    if args.profile:
        from ..server.bench import profile_top

        print(profile_top(args.profile), file=sys.stderr if args.json else sys.stdout)
    print_figures(result, args.json)
    return 0


# -- bench cluster ---------------------------------------------------------------------------
def _bench_cluster(args: argparse.Namespace) -> int:
    from ..server.bench_cluster import run_cluster_bench

    if args.nodes < 1 or args.tables < 1 or args.seconds <= 0:
        return usage_error(
            "bench cluster", "--nodes and --tables must be at least 1, --seconds positive"
        )
    try:
        result = run_cluster_bench(
            args.nodes,
            args.tables,
            args.seconds,
            kill_one=args.kill_one,
            think=args.think_ms / 1000,
            admin_db=args.db,
            redis_url=args.redis,
        )
    except ImportError as exc:
        return usage_error("bench cluster", f"{exc}: pip install 'bigtwo[cluster]'")
    except Exception as exc:  # the database, Redis or a node: say which, in words
        return usage_error("bench cluster", f"{type(exc).__name__}: {exc}")
    print_figures(result, args.json)
    return 0


# -- bench abuse ----------------------------------------------------------------------------
def _bench_abuse(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..server.abuse import run_abuse

    if args.seconds <= 0 or args.addresses < 1:
        return usage_error("bench abuse", "--seconds and --addresses must be positive")
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
            return usage_error("bench abuse", str(exc))
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
        if p.get("longest_wait_said_s") is not None:
            refusals += f" (waits said up to {p['longest_wait_said_s']} s)"
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


# -- join: the terminal game at a network room -------------------------------------------------
def _join(args: argparse.Namespace) -> int:
    """``bigtwo join ROOM``: the terminal game (``bigtwo play --server``) opened at that room."""
    from .play import not_a_terminal

    server, code, invite = _room_of(args.room)
    server = (args.server or server or "http://127.0.0.1:8000").rstrip("/")
    if not code.isalnum():
        return usage_error("join", f"{args.room!r} is neither a room code nor a share link")
    if not server.startswith(("http://", "https://")):
        return usage_error(
            "join", f"--server must be an http:// or https:// address, not {server!r}", sys.stdout
        )
    missing = not_a_terminal()
    if missing is not None:
        return usage_error(
            "join",
            f"the game needs a terminal, and its {missing} is not one. Run it in a terminal "
            "window, without | or < or >.",
        )
    from ..tui import run

    room = f"{server}/r/{code}" + (f"?invite={invite}" if invite else "")
    return run(db_path=args.db, server=server, room=room, watch=args.watch, name=args.name)


def _room_of(text: str) -> tuple[str, str, str]:
    from ..tui.netgame import room_of

    return room_of(text)
