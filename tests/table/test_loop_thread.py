"""The servers' event loop thread (table/loop_thread.py) ends its pending tasks when it stops."""

from __future__ import annotations

import asyncio
import gc
import warnings

from table.loop_thread import LoopThread


def test_tasks_still_pending_when_the_loop_stops_are_cancelled_and_run_to_their_end() -> None:
    """The loop stops while a pusher waits for news and a task made in the stop's last turn has not run yet: both
    are cancelled and run to their end (the pusher's clean-up as after any cancel), so nothing is dropped half-run
    or unstarted (Python's "coroutine ... was never awaited" once the collector finds it); a stop asked after the
    loop ended returns quietly."""
    runs = LoopThread("test-loop")
    ended: list[str] = []

    async def pusher(waiting: asyncio.Event) -> None:
        waiting.set()
        try:
            await asyncio.wait_for(asyncio.Event().wait(), 30)
        except asyncio.CancelledError:
            ended.append("pusher cancelled")
            raise

    async def startup() -> None:
        waiting = asyncio.Event()
        asyncio.get_running_loop().create_task(pusher(waiting))
        await waiting.wait()

    def last_turn() -> None:
        assert loop is not None
        task = loop.create_task(asyncio.sleep(30))  # its first step queued for a turn that never comes
        task.add_done_callback(lambda t: ended.append("late task cancelled" if t.cancelled() else "late task ran"))
        loop.stop()

    async def shutdown() -> None:
        ended.append("shutdown ran")  # never: the loop had ended

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runs.start(startup)
        loop, thread = runs.loop, runs._thread
        assert loop is not None and thread is not None
        loop.call_soon_threadsafe(last_turn)
        thread.join(5)
        runs.stop(shutdown)
        gc.collect()
    assert sorted(ended) == ["late task cancelled", "pusher cancelled"]
    assert runs.loop is None and loop.is_closed()
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]
