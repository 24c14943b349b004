"""The garbage collector on the event loop's schedule (bigtwo.server.collector)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bigtwo.server.collector import collect_garbage, collection_paused


async def _freed(ref: weakref.ref[Node]) -> bool:
    """Whether the object is freed within about a second."""
    for _ in range(100):
        if ref() is None:
            return True
        await asyncio.sleep(0.01)
    return ref() is None


class Node:
    """A reference cycle that only the collector can free."""

    def __init__(self) -> None:
        self.me = self


async def test_young_cycles_are_freed_on_the_loops_schedule_and_the_collector_comes_back():
    task = asyncio.create_task(collect_garbage(young_seconds=0.01, full_seconds=3600))
    try:
        await asyncio.sleep(0.02)
        assert not gc.isenabled()  # no collection starts in the middle of a table's command
        gone = weakref.ref(Node())  # the cycle is garbage at once, but only a scan finds it
        assert gone() is not None
        assert await _freed(gone)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert gc.isenabled()


async def test_a_cycle_that_outlived_the_young_scans_is_freed_by_the_full_collection():
    loop = asyncio.get_running_loop()
    started = loop.time()
    task = asyncio.create_task(collect_garbage(young_seconds=0.01, full_seconds=0.5))
    try:
        await asyncio.sleep(0.02)  # started (what was alive before is frozen out of its scans)
        old = Node()
        await asyncio.sleep(0.05)  # a few young collections: ``old`` survives them (it is alive)
        gone = weakref.ref(old)
        del old  # now garbage, in an older generation that young scans never look at
        await asyncio.sleep(0.1)
        if loop.time() - started < 0.45:  # (a slow machine may have reached the full one)
            assert gone() is not None
        assert await _freed(gone)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_nothing_is_collected_while_paused_and_collection_comes_back_after():
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
        gone = weakref.ref(Node())
        # far more new objects than start a young collection, and none starts
        kept = [[] for _ in range(20 * gc.get_threshold()[0])]
        assert gone() is not None and len(kept) > 0
    assert gc.isenabled()
    gc.collect()
    assert gone() is None
    gc.disable()
    try:
        with collection_paused():  # a process whose collector was off keeps it off
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
