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

        _APP = start_app(Path(tempfile.mkdtemp(prefix="tablehost-ui-")))
    return _APP


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[Any]:
    from kiosk.testing import Driver

    app = _app()
    app.reset_for(tmp_path / "data")
    app.errors.clear()  # an uncaught error a previous test provoked on purpose is not this test's
    drv = Driver(app)
    drv.pump(3)
    yield drv
    app.dismiss_dialogs()
    assert not drv.problems, "layout or text faults on screens this test visited:\n" + "\n".join(drv.problems)
