"""Test-wide set-up: Kivy's environment is set before any test module can import kivy (headless, no
argv parsing, its home in a temp folder), and the data folder is a temp folder, never the user's."""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("TABLEHOST_DATA", tempfile.mkdtemp(prefix="tablehost-test-"))
os.environ.setdefault("TABLEHOST_PHONES_HOST", "127.0.0.1")
os.environ.setdefault("TABLEHOST_NO_VOICE", "1")
# the staff PIN as an install sets it (deploy/install.sh --pin): the tests' kiosks start with 0000 instead of asking
# for a PIN at their first start; the tests of that first start take it away (monkeypatch.delenv)
os.environ.setdefault("TABLEHOST_PIN", "0000")
# the UI app narrates with the sound on: real synthesis (in the TTS worker process, so a crash in libespeak
# costs one sentence, not the test process) played into a recording fake device (no sound card here)
os.environ.setdefault("TABLEHOST_AUDIO_DEVICE", "fake")

from kiosk import env  # noqa: E402

env.configure(headless=True)
env.apply_config()  # window size etc. before any import can create the Window (1280x800, not Kivy's 800x600)


@pytest.hookimpl(trylast=True)  # after -m/-k have chosen
def pytest_collection_modifyitems(config, items) -> None:  # type: ignore[no-untyped-def]
    """Tests marked `alone` measure the app's own memory, so they need a process of their own: the hundreds
    of tests before them leave the test process's heap at 1-2 GB. In a run with other tests they are
    deselected and said so; run-tests runs them afterwards by themselves (`pytest -m alone`)."""
    alone = [item for item in items if item.get_closest_marker("alone")]
    if not alone or len(alone) == len(items):
        return
    config.hook.pytest_deselected(items=alone)
    items[:] = [item for item in items if not item.get_closest_marker("alone")]
    print(f"\n{len(alone)} test(s) marked 'alone' deselected here: run-tests runs them in a process of their own")


def pytest_collection_finish(session) -> None:  # type: ignore[no-untyped-def]
    """No test module may create Kivy's Window while being imported: the UI fixture must create it (its
    size, fonts and offscreen driver). Importing a Kivy widget module at collection once did, and every
    screenshot came out 800x600."""
    import sys

    if "kivy.core.window" in sys.modules:
        raise RuntimeError("a test module imported kivy.core.window at collection time; import Kivy-dependent "
                           "kiosk modules inside tests or fixtures")
