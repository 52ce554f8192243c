"""A server process's garbage collection (stalactites.web.garbage): what survives a full
collection is frozen (not scanned again), and the periodic whole collection still frees the
cycles frozen objects form later.  Run in a fresh interpreter: the test runner's own
collector is left alone."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import asyncio, gc, weakref

    from stalactites.web import garbage

    class Node:
        pass

    async def main():
        task = garbage.collect_seldom(full_every_s=0.0)
        assert gc.get_freeze_count() > 0, "start-up is frozen"
        kept = [Node() for _ in range(100)]
        frozen = gc.get_freeze_count()
        gc.collect(1)
        assert gc.get_freeze_count() >= frozen + 100, "survivors of a collection are frozen"
        # A cycle among frozen objects, unreachable from now on: only a whole collection
        # (frozen objects included) frees it.
        a, b = kept[0], kept[1]
        a.other, b.other = b, a
        gone = weakref.ref(a)
        del a, b, kept
        gc.collect()
        assert gone() is not None, "a plain collection does not scan frozen objects"
        for _ in range(3):
            await asyncio.sleep(0)  # the task's whole collection (every 0 s here)
        assert gone() is None, "the whole collection frees what frozen objects left"
        task.cancel()
        print("ok")

    asyncio.run(main())
    """
)


@pytest.mark.slow
def test_survivors_are_frozen_and_the_whole_collection_frees_their_cycles() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"
