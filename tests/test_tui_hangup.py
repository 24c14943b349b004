"""``bigtwo play`` ends, keeping the game, when its terminal goes away.

The installed command runs as a person runs it, in a pseudo-terminal, with its data in a
temporary file. It must end promptly and cleanly (exit status 0, no traceback) and leave the
game to resume, both when it gets SIGHUP and when the terminal simply closes under it with no
SIGHUP (a game started by ``make play``: ``make`` catches SIGHUP itself and waits).
"""

from __future__ import annotations

import os
import re
import select
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bigtwo.store.matches import MatchStore

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="needs a POSIX pseudo-terminal and SIGHUP"
)

START_S = 90  # how long the table may take to appear on a slow, busy machine
EXIT_S = 30  # how long the game may take to save and end once the terminal is gone
LEAD_SEED = 4  # you hold 3♦: the game waits for you at once
_ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def read_until(master: int, wanted: bytes, seconds: float) -> bytes:
    """Read the terminal until ``wanted`` shows on it (escape codes aside), or fail."""
    seen = b""
    deadline = time.monotonic() + seconds
    while wanted not in _ESCAPES.sub(b"", seen):
        left = deadline - time.monotonic()
        assert left > 0, f"{wanted!r} never showed; the screen had: {seen[-2000:]!r}"
        if select.select([master], [], [], min(left, 1.0))[0]:
            seen += os.read(master, 65536)
    return seen


def read_to_end(master: int, seconds: float) -> bytes:
    """Everything the game still writes until the terminal's last user closes it."""
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: nothing holds the terminal open any more
                break
            if not chunk:
                break
            seen += chunk
    return seen


@pytest.mark.parametrize("how", ["sighup", "closed"])
def test_the_game_ends_and_is_kept_when_the_terminal_goes_away(tmp_path: Path, how: str) -> None:
    import fcntl
    import pty
    import termios

    exe = Path(sys.executable).parent / "bigtwo"
    if not exe.exists():
        pytest.skip("the bigtwo console script is not installed next to this Python")
    db = tmp_path / "bigtwo.db"
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "xterm-256color", "BIGTWO_DB": str(db)}
    env.pop("TEXTUAL", None)  # no devtools
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    # A session of its own without a controlling terminal: closing the terminal sends no
    # SIGHUP, so only what the game notices itself can end it.
    game = subprocess.Popen(
        [str(exe), "play", "--db", str(db), "--seed", str(LEAD_SEED)],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=tmp_path,
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    try:
        read_until(master, b"Deal 1 of", START_S)
        if how == "sighup":
            game.send_signal(signal.SIGHUP)
            shown = read_to_end(master, EXIT_S)
            assert b"Traceback" not in shown, shown.decode(errors="replace")
        os.close(master)
        master = -1
        assert game.wait(timeout=EXIT_S) == 0
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
        if master >= 0:
            os.close(master)
    store = MatchStore(db)
    try:
        assert [info.deal_number for info in store.unfinished()] == [1]  # offered next time
    finally:
        store.close()


def _play_command(db: Path) -> list[str]:
    return [sys.executable, "-m", "bigtwo", "play", "--db", str(db), "--seed", str(LEAD_SEED)]


def test_without_a_terminal_the_game_is_refused_at_once(tmp_path: Path) -> None:
    """Issue 15, item 14: started with no terminal at all (input from /dev/null, output to a
    file, a data file in a folder that does not exist yet) the game used to start and spin
    on the endless end of input at full speed. It is refused in words and ends at once."""
    db = tmp_path / "no" / "such" / "folder" / "bigtwo.db"
    out = tmp_path / "out.txt"
    with out.open("wb") as sink:
        done = subprocess.run(
            _play_command(db), stdin=subprocess.DEVNULL, stdout=sink, stderr=subprocess.PIPE,
            timeout=EXIT_S, cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 2
    said = done.stderr.decode()
    assert "needs a terminal" in said and "standard input is not one" in said
    assert "Traceback" not in said
    assert not db.parent.exists()  # nothing was started, not even the data file


def test_play_piped_into_another_program_is_refused(tmp_path: Path) -> None:
    """Issue 15, item 12: ``bigtwo play | tail`` (keys from a terminal, the table into a pipe)
    used to start and hang; it says what is wrong instead."""
    import pty

    master, slave = pty.openpty()
    try:
        done = subprocess.run(
            _play_command(tmp_path / "bigtwo.db"), stdin=slave, stdout=subprocess.PIPE,
            stderr=slave, timeout=EXIT_S, cwd=tmp_path,
        )  # fmt: skip
        said = read_to_end(master, 2).decode(errors="replace")
    finally:
        os.close(slave)
        os.close(master)
    assert done.returncode == 2
    assert "standard output is not one" in said, said
    assert done.stdout == b""
