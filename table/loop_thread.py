"""An asyncio event loop on its own daemon thread, for the servers the kiosk runs beside Kivy (the phones'
page, the floor page): `start` runs a start-up coroutine there and returns once it finished, raising what
it raised (a taken port: OSError); `stop` runs a shut-down coroutine, then ends the loop and the thread."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any


class LoopThread:
    def __init__(self, name: str) -> None:
        self.name = name
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def start(self, startup: Callable[[], Awaitable[None]], timeout: float = 10.0) -> None:
        ready = threading.Event()
        error: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self.loop = loop
            asyncio.set_event_loop(loop)
            try:
                loop.run_until_complete(startup())
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                error.append(exc)
                self.loop = None
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                _finish(loop)
                loop.close()

        self._thread = threading.Thread(target=run, name=self.name, daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            raise TimeoutError(f"{self.name} did not start")
        if error:
            raise error[0]

    def stop(self, shutdown: Callable[[], Coroutine[Any, Any, None]], timeout: float = 5.0) -> None:
        loop, thread = self.loop, self._thread
        if loop is None or thread is None:
            return
        if thread.is_alive() and not loop.is_closed():  # else the loop ended already: nothing to shut down there
            work = shutdown()
            try:
                fut = asyncio.run_coroutine_threadsafe(work, loop)
            except RuntimeError:  # closed meanwhile
                work.close()
            else:
                with contextlib.suppress(Exception):
                    fut.result(timeout)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        self.loop, self._thread = None, None


def _finish(loop: asyncio.AbstractEventLoop) -> None:
    """The tasks still pending when the loop stopped (a pusher waiting for news) cancelled and run to their end,
    as `asyncio.run` does: none is dropped unstarted (Python's "coroutine ... was never awaited") or half-run."""
    tasks = asyncio.all_tasks(loop)
    for task in tasks:
        task.cancel()
    with contextlib.suppress(Exception):
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
