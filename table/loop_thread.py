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
        fut = asyncio.run_coroutine_threadsafe(shutdown(), loop)
        with contextlib.suppress(Exception):
            fut.result(timeout)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout)
        self.loop, self._thread = None, None
