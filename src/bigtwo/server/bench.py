"""``bigtwo bench server``: many tables of network computer players against one server.

It starts its own server on a free loopback port with a fresh database (unless given the URL
of a running one, which must be on this machine), creates ``tables`` rooms of four human
seats, seats a :class:`~bigtwo.client.BotClient` in every seat, waits until every
match has started, and then measures for ``seconds``: each bot waits its thinking time
(``think`` seconds, ±50 %), sends its move and times the server's acknowledgement, which comes
only after the move is stored and its events sent. It reports throughput, latency
percentiles, every error seen, the server's memory and the machine's load. It measures; it
changes nothing in the server.

Beside them it can load the server with ``revolution_rooms`` rooms of Big 2 RevolutioN, each
one person (a :class:`RevolutionPerson`, who answers at once) and three computers of
``revolution_level``: computers that think long (``expert``) must not hold up the other
tables, whose figures are the ones reported.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Coroutine
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..client import ActionRefused, BotClient, Lobby, ServerError, TableClient
from ..service.table import TableStatus
from .collector import collection_paused
from .hub import LoopLag

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# With --profile, the server profiles itself from the first of these signals to the second,
# which writes the profile (see serve_profiled).
PROFILE_START = signal.SIGUSR1
PROFILE_STOP = signal.SIGUSR2
PROFILE_TOP = 30  # entries of the profile printed, by their own time


def start_server(
    port: int,
    db: str | Path,
    *,
    extra: list[str] | None = None,
    log_level: str = "warning",
    stats_token: str = "",
    profile: str | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """A ``bigtwo serve`` process on 127.0.0.1:``port`` (wait for it with :func:`wait_ready`);
    ``stats_token``: the operator's token for its ``/api/stats``; ``profile``: the file a
    profile of it is written to (see :func:`serve_profiled`); ``env``: more of its
    environment."""
    serve = [
        "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", str(db), "--log-level", log_level, *(extra or []),
    ]  # fmt: skip
    env = {**os.environ, **(env or {}), "BIGTWO_STATS_TOKEN": stats_token}
    if profile is None:
        command = [sys.executable, "-m", "bigtwo.cli", *serve]
    else:
        env["BIGTWO_PROFILE"] = profile
        program = "from bigtwo.server.bench import serve_profiled; serve_profiled()"
        command = [sys.executable, "-c", program, *serve]
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, env=env)


def serve_profiled() -> None:
    """``bigtwo serve`` with the arguments in ``sys.argv``, profiled (cProfile) from the
    signal :data:`PROFILE_START` to :data:`PROFILE_STOP`, which writes the profile to the file
    named by ``BIGTWO_PROFILE``: only the measured window, not the bench's setting up."""
    import cProfile
    import runpy

    path = os.environ["BIGTWO_PROFILE"]
    # The event loop thread's processor time, what the bench's headline figure counts (a
    # clock of the wall would charge a function for the time the process waited to run).
    profiler = cProfile.Profile(time.thread_time)

    def start(*_: object) -> None:
        profiler.enable()

    def stop(*_: object) -> None:
        profiler.disable()
        profiler.dump_stats(path + ".part")
        os.replace(path + ".part", path)  # whole, or not there yet

    signal.signal(PROFILE_START, start)
    signal.signal(PROFILE_STOP, stop)
    sys.argv[0] = "bigtwo"
    runpy.run_module("bigtwo.cli", run_name="__main__")


def profile_top(path: str | Path, entries: int = PROFILE_TOP) -> str:
    """The first ``entries`` functions of a profile written by :func:`serve_profiled`, by
    the time spent in each itself, as pstats prints them."""
    import io
    import pstats

    out = io.StringIO()
    stats = pstats.Stats(str(path), stream=out)
    stats.sort_stats(pstats.SortKey.TIME).print_stats(entries)
    return out.getvalue()


def wait_ready(
    url: str, timeout: float = 20.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/healthz", timeout=1.0, trust_env=False).status_code == 200:
                return
        time.sleep(0.05)
    raise RuntimeError(f"the server at {url} did not start within {timeout:g} s")


def _percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def _cpu_seconds(pid: int) -> float | None:
    """The processor time (user and system) of process ``pid`` and of every process below it
    (an ASGI server's workers, the computer players' worker processes): what serving took,
    whichever process did it. None when ``pid`` is gone."""
    own = _own_cpu_seconds(pid)
    if own is None:
        return None
    return own + sum(_own_cpu_seconds(child) or 0.0 for child in _descendants(pid))


def _own_cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _descendants(pid: int) -> list[int]:
    """Every process below ``pid``, from each of its threads' list of children in /proc."""
    found: list[int] = []
    pending = [pid]
    while pending:
        parent = pending.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                text = Path(f"/proc/{parent}/task/{task}/children").read_text()
                children = [int(child) for child in text.split()]
                found += children
                pending += children
    return found


def revolution_reply(msg: dict[str, Any], seat: int, drawn: list[int]) -> dict[str, Any] | None:
    """A plain person's reply to a prompt of a revolution table: decline a counter window;
    after a pass take one card from the deck, then stop; in their turn activate a function
    when they can (not an exchange, which needs a choice), else pass, else make their
    cheapest play. ``drawn`` remembers the draw of the turn."""
    kind = msg.get("type")
    if kind == "counter" and msg["seat"] != seat:
        return {"type": "decline"}
    if kind != "turn" or msg["seat"] != seat:
        return None
    if msg["phase"] == "draw":
        if "deck" in msg["draws"] and not drawn:
            drawn.append(1)
            return {"type": "draw", "source": "deck"}
        return {"type": "stop"}
    drawn.clear()
    functions = [a for a in msg["activate"] if a["function"] != "exchange"]
    if functions:
        return {"type": "activate", "card": functions[0]["card"]}
    if msg["can_pass"]:
        return {"type": "pass"}
    return {"type": "play", "cards": msg["legal"][0]}


class RevolutionPerson:
    """A person at a revolution table who answers every prompt at once with
    :func:`revolution_reply`, paced under the server's limit on actions (10 a second)."""

    def __init__(self, seat: dict[str, Any]) -> None:
        self.seat = int(seat["seat"])
        self.prompts: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client = TableClient(
            seat["ws"],
            seat["token"],
            reconnect=False,
            on_message=lambda m: self.prompts.put_nowait(m) if "v" in m else None,
        )
        self.actions = 0

    async def play(self) -> None:
        """Ready, then answer until the match ends or the task is cancelled."""
        await self.client.connect()
        await self.client.ready()
        drawn: list[int] = []
        while True:
            msg = await self.prompts.get()
            if msg.get("type") == "match_end":
                return
            reply = revolution_reply(msg, self.seat, drawn)
            if reply is None:
                continue
            await asyncio.sleep(0.11)
            reply["v"] = self.client.seen
            with contextlib.suppress(ActionRefused):  # a window closed by a counter first
                await self.client.request(reply, 10)
                self.actions += 1


def _sent(before: dict[str, Any], after: dict[str, Any], key: str) -> int | None:
    """How much of ``key`` (a count in the server's stats) grew between two readings."""
    if key not in before or key not in after:
        return None
    return int(after[key]) - int(before[key])


def _per(actions: int, count: int | None) -> float | None:
    return None if count is None or not actions else round(count / actions, 2)


async def _stats(lobby: Lobby, token: str, processes: int = 1) -> dict[str, Any]:
    """The server's own figures, or none when it will not tell us (no operator token). With
    several ``processes`` on its port, each answers for itself: it is asked on a new
    connection each time (which reaches whichever process the system hands it to) until every
    process has answered once, and their counts are put together (:func:`_together`)."""
    if processes == 1:
        try:
            return await lobby.stats(token)
        except ServerError:
            return {}
    each: dict[str, dict[str, Any]] = {}
    for _ in range(20 * processes):
        async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
            try:
                stats = await Lobby(lobby.url, client=http).stats(token)
            except ServerError:
                return {}
        each.setdefault(str(stats.get("node")), stats)  # (the first: a lag maximum resets)
        if len(each) == processes:
            return _together(list(each.values()))
    return {}


_SUMMED = (
    "ws_frames_sent",
    "ws_messages_sent",
    "ws_frames_direct",
    "ws_handed_off",
    "ws_adopted",
    "ws_forwarded",
    "rss_mb",
    "peak_rss_mb",
)


def _together(each: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of several processes as one server's: counts and memory summed, the
    longest loop lag, the computer players' moves summed."""
    together: dict[str, Any] = {
        key: sum(s[key] for s in each) for key in _SUMMED if all(key in s for s in each)
    }
    together["loop_lag_ms_max"] = max(s.get("loop_lag_ms_max") or 0 for s in each)
    together["thinking"] = {"moves": sum((s.get("thinking") or {}).get("moves", 0) for s in each)}
    return together


async def _bench(
    url: str,
    tables: int,
    seconds: float,
    think: float,
    level: str,
    setup_timeout: float,
    stats_token: str = "",
    server_pid: int | None = None,
    revolution_rooms: int = 0,
    revolution_level: str = "expert",
    profile: str | None = None,
    processes: int = 1,
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=30, limits=limits, trust_env=False) as http:
        lobby = Lobby(url, client=http)
        gate = asyncio.Semaphore(32)
        people: list[RevolutionPerson] = []
        for _ in range(revolution_rooms):
            room = await lobby.create_room(
                preset="revolution",
                seats=["human", *[f"computer:{revolution_level}"] * 3],
                deals=1000,
                away_seconds=None,
                turn_seconds=None,
            )
            people.append(RevolutionPerson(await lobby.join(room["code"], "Rev")))
        playing = [asyncio.create_task(p.play()) for p in people]

        async def make_table(i: int) -> list[dict[str, Any]]:
            async with gate:
                room = await lobby.create_room(seats=["human"] * 4, deals=1000, away_seconds=None)
                return [await lobby.join(room["code"], f"bot{i}-{s}") for s in range(4)]

        setup_start = time.perf_counter()
        seatings = await asyncio.gather(*(make_table(i) for i in range(tables)))
        rng = random.Random(1)
        bots: list[BotClient] = []
        for i, seats in enumerate(seatings):
            for s in seats:
                bot = BotClient(
                    s["ws"],
                    s["token"],
                    level=level,
                    seed=f"{i}:{s['seat']}",
                    think=think * rng.uniform(0.5, 1.5),
                    reconnect=False,
                )
                bots.append(bot)
        received = [0]

        def count(_: dict[str, Any]) -> None:
            received[0] += 1

        for bot in bots:
            bot.on_message = count
        connect_errors = 0

        async def open_one(bot: BotClient) -> None:
            nonlocal connect_errors
            async with gate:
                try:
                    await bot.connect(timeout=30)
                except Exception:
                    connect_errors += 1

        await asyncio.gather(*(open_one(b) for b in bots))
        deadline = time.monotonic() + setup_timeout
        while time.monotonic() < deadline and not all(
            b.state.status == TableStatus.PLAYING for b in bots
        ):
            await asyncio.sleep(0.05)
        started = sum(1 for b in bots if b.state.status == TableStatus.PLAYING) // 4
        setup_seconds = time.perf_counter() - setup_start
        # The bots are the measuring instrument: their own collector pauses would show up
        # as server latency, and its scans took an eighth of their processor time, which
        # on a small machine is the server's too: no collection while they measure.
        with collection_paused():
            await asyncio.sleep(min(2.0, max(0.5, think * 2)))  # warm up into steady state
            # (starts the server's loop-lag window afresh)
            stats_before = await _stats(lobby, stats_token, processes)
            lag = LoopLag()
            lag_task = asyncio.create_task(lag.watch())
            load_before = os.getloadavg()
            cpu_before = os.times()
            if profile is not None and server_pid:
                os.kill(server_pid, PROFILE_START)
            server_before = _cpu_seconds(server_pid) if server_pid else None
            received_before = received[0]
            t0 = time.perf_counter()
            await asyncio.sleep(seconds)
            t1 = time.perf_counter()
            cpu_after = os.times()
            server_after = _cpu_seconds(server_pid) if server_pid else None
            if profile is not None and server_pid:
                os.kill(server_pid, PROFILE_STOP)
            load_after = os.getloadavg()
            received_in_window = received[0] - received_before
            lag_task.cancel()
        stats = await _stats(lobby, stats_token, processes)
        latencies = sorted(lat for b in bots for sent, lat in b.latencies if t0 <= sent < t1)
        refusals = sum(len(b.refusals) for b in bots)
        failures = sum(b.failures for b in bots)
        stray = sum(len(b.errors) for b in bots)
        dropped = sum(1 for b in bots if b.closed.is_set())
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        await asyncio.gather(
            *(b.close() for b in bots), *(p.client.close() for p in people), return_exceptions=True
        )
    window = t1 - t0
    server_cpu = server_cpu_us = None
    if server_before is not None and server_after is not None:
        server_cpu = round(100 * (server_after - server_before) / window, 1)
        if latencies:
            server_cpu_us = round((server_after - server_before) * 1e6 / len(latencies))
    frames = _sent(stats_before, stats, "ws_frames_sent")
    sent = _sent(stats_before, stats, "ws_messages_sent")
    direct = _sent(stats_before, stats, "ws_frames_direct")
    per_action = partial(_per, len(latencies))
    return {
        # The figures that depend least on the machine's speed and load: the server's own
        # processor time and what it sends, for each action measured.
        "server_cpu_us_per_action": server_cpu_us,
        "messages_per_action": per_action(received_in_window),
        "ws_frames_per_action": per_action(frames),
        "ws_messages_sent_per_action": per_action(sent),
        # The share of those frames written the direct way (bigtwo.server.direct).
        "ws_direct_share": None if not frames or direct is None else round(direct / frames, 3),
        "tables": tables,
        "tables_started": started,
        "connections": len(bots),
        "seconds": round(window, 2),
        "think_ms": round(think * 1000),
        "level": level,
        "actions": len(latencies),
        "actions_per_second": round(len(latencies) / window, 1),
        "messages_per_second": round(received_in_window / window, 1),
        "latency_ms_p50": round(_percentile(latencies, 0.50) * 1000, 2),
        "latency_ms_p90": round(_percentile(latencies, 0.90) * 1000, 2),
        "latency_ms_p99": round(_percentile(latencies, 0.99) * 1000, 2),
        "latency_ms_max": round((latencies[-1] if latencies else 0.0) * 1000, 2),
        "errors": refusals + failures + stray + dropped + connect_errors,
        "error_detail": {
            "refused": refusals,
            "timeouts": failures,
            "unexpected_errors": stray,
            "dropped_connections": dropped,
            "connect_failures": connect_errors,
        },
        "revolution_rooms": revolution_rooms,
        "revolution_level": revolution_level if revolution_rooms else None,
        "revolution_actions": sum(p.actions for p in people),
        "computer_moves_in_workers": (stats.get("thinking") or {}).get("moves"),
        # In a cluster: the WebSockets handed to the process that runs their table
        # (bigtwo.server.handoff) and those forwarded to it, since the server started (the
        # bots connect while the bench sets up).
        "ws_handed_off": stats.get("ws_handed_off"),
        "ws_forwarded": stats.get("ws_forwarded"),
        "server_loop_lag_ms_max": stats.get("loop_lag_ms_max"),
        "client_loop_lag_ms_max": lag.take_max(),
        "server_rss_mb": stats.get("rss_mb"),
        "server_peak_rss_mb": stats.get("peak_rss_mb"),
        "setup_seconds": round(setup_seconds, 1),
        "client_cpu_s": round(
            (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system), 2
        ),
        "server_cpu_percent": server_cpu,
        "cpus": os.cpu_count(),
        "load_avg_1m_before": round(load_before[0], 2),
        "load_avg_1m_after": round(load_after[0], 2),
    }


def run_bench(
    tables: int = 50,
    seconds: float = 10.0,
    *,
    url: str | None = None,
    think: float = 0.5,
    level: str = "greedy",
    setup_timeout: float = 120.0,
    db: str | None = None,
    revolution_rooms: int = 0,
    revolution_level: str = "expert",
    profile: str | Path | None = None,
    ws: str | None = None,
    pin: bool = False,
    loop: str | None = None,
    server: str | None = None,
    workers: int = 1,
    cluster: str | None = None,
) -> dict[str, Any]:
    """Run the benchmark and return its figures (see the module docstring). ``db``: where
    the server it starts keeps its tables (a ``postgresql://`` URL; default a fresh SQLite
    file). ``profile``: a file to write a profile (cProfile) of the server to, over the
    measured window (its figures then include the profiler's own cost). ``ws``: the
    server's WebSocket implementation (``bigtwo serve --ws``; default its own); ``loop``
    its event loop and HTTP parser (``bigtwo serve --loop``); ``server`` the ASGI server
    that runs it (``bigtwo serve --server``); ``workers`` its processes and ``cluster`` their
    Redis (``bigtwo serve --workers N --cluster URL``, with a ``postgresql://`` ``db``). The
    server's processor time counts every process below it too. ``pin``: the
    server it starts runs on the first processor and the bots on the others (see
    :func:`pin_apart`), so the two do not take each other's processor time."""
    load = partial(
        _bench,
        tables=tables,
        seconds=seconds,
        think=think,
        level=level,
        setup_timeout=setup_timeout,
        revolution_rooms=revolution_rooms,
        revolution_level=revolution_level,
        profile=None if profile is None else str(profile),
    )
    if url is not None:
        if (profile, ws, loop, server, cluster) != (None,) * 5 or pin or workers != 1:
            raise ValueError(
                "--profile, --ws, --loop, --server, --workers, --cluster and --pin are for "
                "the server the bench starts, not one at --url"
            )
        host = urlsplit(url).hostname or ""
        if host not in LOOPBACK:
            raise ValueError(
                f"The benchmark only runs against this machine (127.0.0.1), not {host!r}"
            )
        return _run(load(url.rstrip("/"), stats_token=os.environ.get("BIGTWO_STATS_TOKEN", "")))
    _raise_file_limit()
    if pin:
        pin_apart(None)  # refuses before anything starts on a machine of one processor
    with tempfile.TemporaryDirectory(prefix="bigtwo-bench-") as tmp:
        port = free_port()
        token = secrets.token_urlsafe(16)
        # Every table of the bench is made from this one address; its seats are all taken
        # before any connects, which takes longer than a seat's grace at a thousand tables.
        limits = [
            "--rooms-per-address", "0", "--rooms-per-minute", "0", "--seats-per-address", "0",
            "--seat-grace", "0",
        ]  # fmt: skip
        if ws is not None:
            limits += ["--ws", ws]
        if loop is not None:
            limits += ["--loop", loop]
        if server is not None:
            limits += ["--server", server]
        if cluster is not None:
            limits += ["--cluster", cluster]
        if workers != 1:
            limits += ["--workers", str(workers)]
        store = db if db is not None else Path(tmp) / "bench.sqlite3"
        written = None if profile is None else Path(profile).resolve()
        if written is not None:
            written.unlink(missing_ok=True)
        process = start_server(
            port,
            store,
            extra=limits,
            stats_token=token,
            profile=None if written is None else str(written),
        )
        base = f"http://127.0.0.1:{port}"
        own = os.sched_getaffinity(0)
        try:
            if pin:
                result_pins = pin_apart(process.pid)
            wait_ready(base, timeout=60.0, process=process)  # (slow to start on a busy machine)
            result = _run(load(base, stats_token=token, server_pid=process.pid, processes=workers))
            result.update(server=server, workers=workers)
            if pin:
                result.update(result_pins)
            if written is not None:
                _wait_for(written, process)
                result["profile"] = str(written)
        finally:
            os.sched_setaffinity(0, own)
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return result


def pin_apart(server_pid: int | None) -> dict[str, list[int]]:
    """Pin the server (``server_pid``) to the first processor this process may use and this
    process (the bots) to the others, and return which are which. Refused (ValueError) with
    fewer than two; with ``server_pid`` None it only checks."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise ValueError("--pin needs at least two processors to keep the server and bots apart")
    server_cpus, bot_cpus = cpus[:1], cpus[1:]
    if server_pid is not None:
        os.sched_setaffinity(server_pid, server_cpus)
        os.sched_setaffinity(0, bot_cpus)
    return {"server_cpus": server_cpus, "bench_cpus": bot_cpus}


def _wait_for(path: Path, server: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Wait until the server has written its profile to ``path``."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server wrote no profile to {path}")
        time.sleep(0.1)


def _run(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run the bots on uvloop when it is installed (as the server does): the bots are the
    measuring instrument, and a slower loop would add its own delay to every figure."""
    try:
        # Typed as Any: uvloop is optional, with or without its stubs installed.
        uvloop: Any = importlib.import_module("uvloop")
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def _raise_file_limit() -> None:
    """A thousand connections need more descriptors than some shells allow by default."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
