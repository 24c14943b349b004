"""``bigtwo bench startup``: wall time from starting ``bigtwo play`` to a table that takes a key.

Each run starts a fresh ``python -m bigtwo play`` in a pseudo-terminal of 80×24 (the game
refuses to start without a terminal), on a new data file, and presses ``1`` (raise the first
card of the hand) every few milliseconds from the moment the process is started. The game,
told by :data:`PROBE` where to write, notes the wall-clock time at which its table first
raised a card for a key, and the processor time it had used by then, and quits. The figure
is that time minus the time just before the process was started: interpreter start, imports,
opening the data file, dealing, drawing the table and handling the key. On a machine busy
with other work the wall time grows with the wait for a core; the processor time is what
the start-up itself costs (it is the wall time on an idle core, less the time reading files).
It measures; a slow machine fails nothing.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

# Only the game's side (PROBE, note_ready) is imported as the game starts; what the bench
# itself uses is imported when it runs, so the figure measured includes none of it.

# The environment variable naming the file a game started by this bench writes its time to.
PROBE = "BIGTWO_STARTUP_PROBE"
KEY_EVERY = 0.005  # seconds between presses of the key, until the table takes one


def note_ready(path: str) -> None:
    """Called by the table when it first took a key: write the time and the processor time
    used so far (``wall cpu``)."""
    Path(path).write_text(f"{time.time()!r} {time.process_time()!r}", encoding="utf-8")


def one_start(timeout: float = 30.0) -> tuple[float, float]:
    """Seconds from starting the game to its table taking a key, for one fresh start, and the
    processor seconds the game had used by then."""
    import fcntl
    import pty
    import struct
    import subprocess
    import tempfile
    import termios

    with tempfile.TemporaryDirectory(prefix="bigtwo-startup-") as folder:
        probe = Path(folder) / "ready"
        env = {**os.environ, PROBE: str(probe), "TERM": os.environ.get("TERM") or "xterm-256color"}
        env.pop("TEXTUAL", None)  # no devtools
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        db = Path(folder) / "bigtwo.db"
        command = [sys.executable, "-m", "bigtwo", "play", "--db", str(db), "--seed", "4"]
        started = time.time()
        child = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        try:
            end = time.monotonic() + timeout
            while not probe.exists():
                if child.poll() is not None:
                    raise RuntimeError(f"the game quit before its table took a key ({command})")
                if time.monotonic() > end:
                    raise RuntimeError(f"the table took no key within {timeout:g} s")
                _drain(master)
                os.write(master, b"1")
                time.sleep(KEY_EVERY)
            while True:  # the file is written; its content may lag by a moment
                text = probe.read_text(encoding="utf-8")
                if len(text.split()) == 2:
                    break
                time.sleep(0.001)
            ready, cpu = (float(x) for x in text.split())
            child.wait(timeout=10)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            os.close(master)
    return ready - started, cpu


def _drain(fd: int) -> None:
    """Read what the game drew so far, so that it never waits on a full terminal."""
    import select

    while select.select([fd], [], [], 0)[0]:
        try:
            if not os.read(fd, 65536):
                return
        except OSError:
            return


def interpreter_start() -> float:
    """Seconds for a bare ``python -c pass``, the floor under any start-up."""
    import subprocess

    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def bench_startup(runs: int = 5) -> dict[str, Any]:
    """Several fresh starts (the first one warms the file cache and is reported apart)."""
    import statistics

    first, _ = one_start()
    starts = [one_start() for _ in range(runs)]
    times = [wall for wall, _ in starts]
    cpu = [used for _, used in starts]
    return {
        "runs": runs,
        "first_seconds": round(first, 3),
        "median_seconds": round(statistics.median(times), 3),
        "min_seconds": round(min(times), 3),
        "max_seconds": round(max(times), 3),
        "median_cpu_seconds": round(statistics.median(cpu), 3),
        "python_start_seconds": round(interpreter_start(), 3),
        "load_average": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
    }
