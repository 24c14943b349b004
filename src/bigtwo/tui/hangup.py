"""Leaving the table when the terminal goes away: the window closed, the ssh link dropped,
tmux killed the session.

Nobody can press ``q`` any more, so the game quits for the player, and keeps the game as
``q`` does. Two signs are watched, because either may come alone:

* SIGHUP, which the system sends when the terminal closes. Unhandled, it ends the process at
  once, without saving.
* the terminal hanging up under the game. SIGHUP goes only to the terminal's first process
  and, once that one ends, to the programs in front, so a game started by another program
  that catches SIGHUP and waits for it (``make play``), or started with SIGHUP ignored, never
  gets one. Textual's input reader then reads an endless end of input and spins on it at
  full speed, and the game would never end.
"""

from __future__ import annotations

import asyncio
import os
import select
import signal
import sys
import threading
from collections.abc import Callable
from contextlib import suppress


def watch_for_hang_up(hang_up: Callable[[], None]) -> None:
    """Call ``hang_up`` once, in the running event loop, when the terminal goes away.

    Call this from the event loop the game runs in. The terminal is the game's standard input
    and standard error (where Textual draws). Does nothing where there is no SIGHUP or
    poll() (Windows).
    """
    if not hasattr(signal, "SIGHUP") or not hasattr(select, "poll"):
        return
    loop = asyncio.get_running_loop()
    called = False

    def once() -> None:  # both signs may come; runs in the loop only, so no lock is needed
        nonlocal called
        if not called:
            called = True
            hang_up()

    loop.add_signal_handler(signal.SIGHUP, once)
    ends = [f.fileno() for f in (sys.__stdin__, sys.__stderr__) if f is not None]
    if not all(_is_terminal(end) for end in ends):
        # No terminal at all (input from a file or /dev/null): nobody can ever press a key,
        # and a file never hangs up, so poll() below would not say so. Quit at once.
        loop.call_soon(once)
        return
    threading.Thread(
        target=_wait_for_hang_up, args=(ends, loop, once), name="bigtwo-hang-up", daemon=True
    ).start()


def _is_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def _wait_for_hang_up(
    ends: list[int], loop: asyncio.AbstractEventLoop, hang_up: Callable[[], None]
) -> None:
    """Block until one of the terminal's ends hangs up, then ask ``loop`` to call ``hang_up``.

    Asks poll() for no event at all, so it never takes a key from Textual's input reader and
    sleeps until the terminal is gone.
    """
    # What poll() reports for a terminal that hung up, a pipe whose other end closed, or a
    # descriptor no longer open; it reports these even when no event was asked for.
    gone = select.POLLHUP | select.POLLERR | select.POLLNVAL
    poll = select.poll()
    for end in ends:
        poll.register(end, 0)
    while not any(events & gone for _, events in poll.poll()):
        pass
    with suppress(RuntimeError):  # the game has already ended and closed its loop
        loop.call_soon_threadsafe(hang_up)
