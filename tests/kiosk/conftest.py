"""UI fixtures: one offscreen kiosk app per test process (Kivy has one Window), reset before each test."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

_APP: Any = None


def _app() -> Any:
    global _APP
    if _APP is None:
        from kiosk.testing import start_app

        data = Path(tempfile.mkdtemp(prefix="tablehost-ui-"))
        _free_phones_port(data)
        _APP = start_app(data)
        _phones_started(_APP)
    return _APP


def _free_phones_port(data: Path) -> None:
    """The app's phone server on a port of its own, not the fixed 8765: parallel test workers (run-tests) and
    a kiosk running on this machine would take it, and the phone-server test would find no server. The
    settings are those of a fresh folder otherwise (the server starts once, with these settings: see
    _phones_started)."""
    import socket

    from table import settings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    fresh = settings.load(data / "settings.json")
    fresh.phones_port = port
    settings.save(data / "settings.json", fresh)


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[Any]:
    from kiosk.testing import Driver

    app = _app()
    app.reset_for(tmp_path / "data")
    app.errors.clear()  # an uncaught error a previous test provoked on purpose is not this test's
    if app.keeper is not None:  # nor counts to the keeper's "too many errors in a minute" (a minute of the wall
        app.keeper.errors.clear()  # clock: how many tests ran in it was the machine's speed)
    drv = Driver(app)
    drv.pump(3)
    yield drv
    app.dismiss_dialogs()
    assert not _stray_contexts(app), "a game screen's context follows the table after its screen was closed"
    assert not drv.problems, "layout or text faults on screens this test visited:\n" + "\n".join(drv.problems)


def _stray_contexts(app: Any) -> list[Any]:
    """Game contexts (kiosk.hosting.HostContext) still following the table besides the host screen's own and the
    one it built aside: a closed screen's would go on acting on later games (a tablet seat's moves, the pacing)."""
    from kiosk.hosting import HostContext

    kept: list[Any] = []
    if app.sm.has_screen("host"):
        host = app.get_screen("host")
        kept = [host.ctx] + ([host._ahead[1]] if host._ahead is not None else [])
    following = [getattr(fn, "__self__", None) for fn in app.table._listeners]
    return [c for c in following if isinstance(c, HostContext) and not any(c is k for k in kept)]


def start_table(app: Any, game: str, config: Any, seed: int) -> Any:
    """A game started at the app's table (as the set-up form would); the table."""
    app.table.start(game, config, seed=seed)
    return app.table


def spyfall_table(driver: Any) -> Any:
    """A Spyfall game for four (seed 4), its table screen on show; the running table."""
    app = driver.app
    table = start_table(app, "spyfall", {"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}, 4)
    app.host("spyfall")
    driver.wait_screen("host")
    return table


def _phones_started(app: Any) -> None:
    """Frames until the phone server's start (after the first frame, in a thread) is over, before the first
    test's reset_for swaps in a fresh folder's settings (port 8765)."""
    import time

    from kivy.base import EventLoop

    end = time.monotonic() + 60
    while not ((t := app.phones_start) is not None and t.ident is not None and not t.is_alive()):
        assert time.monotonic() < end, "the phone server's start did not finish in 60 s"
        EventLoop.idle()
