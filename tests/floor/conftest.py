from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.floor.broker import MOSQUITTO, Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not shutil.which("mosquitto") and not Path(MOSQUITTO).exists():
        pytest.skip("mosquitto is not installed (scripts/setup.sh test installs it)")
    b = Broker(tmp_path / "broker")
    b.start()
    yield b
    b.stop()
