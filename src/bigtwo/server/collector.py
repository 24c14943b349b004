"""The garbage collector on the event loop's schedule instead of the allocator's.

A process with thousands of connections keeps tens of thousands of short-lived objects alive
at any moment: every connection's pending read and write, made afresh with each message.
CPython starts a young collection after a count of allocations *net of deallocations*, so
while older objects die as fast as new ones are made the young generation grows far past its
threshold, and one young collection then scans a few hundred thousand objects. Measured on a
2-core machine with 1,000 tables (``bigtwo bench server --tables 1000``): young collections
of up to 276 ms and older ones of up to 294 ms, each stopping every table, which made most of
the latency tail (p99 about 500 ms; with the collector off, 54 ms).

So the automatic collector is switched off, and a task on the loop collects the young
generation every :data:`YOUNG_SECONDS` (what little piled up since: at most 25 ms measured
under that load) and everything every :data:`FULL_SECONDS`, which frees the rare reference
cycles that lived longer than a young collection (a hundred or so objects at a time). That
full collection is the one long pause left: 0.6–0.7 s with 1,000 tables loaded, once in ten
minutes (about 0.1 % of the actions wait for it). Reference counting frees the rest at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import Iterator

YOUNG_SECONDS = 0.05
FULL_SECONDS = 600.0


async def collect_garbage(
    young_seconds: float = YOUNG_SECONDS, full_seconds: float = FULL_SECONDS
) -> None:
    """Run until cancelled: the process's garbage collection, on the loop's schedule. The
    objects alive when it starts (modules, tables loaded at start) are frozen out of every
    scan; cancelling it switches the automatic collector back on."""
    gc.collect()
    gc.freeze()
    gc.disable()
    loop = asyncio.get_running_loop()
    next_full = loop.time() + full_seconds
    try:
        while True:
            await asyncio.sleep(young_seconds)
            if loop.time() >= next_full:
                gc.collect()
                next_full = loop.time() + full_seconds
            else:
                gc.collect(0)
    finally:
        gc.enable()


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """No garbage collection inside: for a process that measures over a bounded stretch (the
    benchmarks' bots in their measuring window), where its own pauses would show up in what it
    measures and its scans would take processor time from what it loads. Reference counting
    frees nearly everything at once; the few reference cycles made inside (about 6 MB in 30 s
    of 4,000 bots) wait for the first collection after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
