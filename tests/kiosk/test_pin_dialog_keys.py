"""The staff PIN dialog over a game (kiosk/widgets/pin_dialog.py): its twelve keys made with it were ~12 ms of the
frame of the guest's undo tap; they come in the frames after, each in the place kept for it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "back", "0", "ok")


def _keys(dialog: Any) -> list[Any]:
    return [w for w in dialog.walk() if str(getattr(w, "test_id", "")).startswith("staffpin_")
            and w.test_id != "staffpin_cancel"]


def test_the_keys_come_after_the_dialog_in_their_places(driver: Any) -> None:
    from kiosk.widgets.keypad import Keypad
    from kiosk.widgets.pin_dialog import StaffPinDialog

    app = driver.app
    dialog = StaffPinDialog(app, "reason", lambda: None)
    dialog.open()
    assert _keys(dialog) == [] and [w for w in dialog.walk() if getattr(w, "test_id", "") == "staffpin_cancel"]
    driver.pump(1)
    driver.pump(1)
    first = _keys(dialog)
    assert 0 < len(first) < len(KEYS)
    where = [tuple(w.to_window(*w.pos)) + tuple(w.size) for w in first]
    driver.pump(3)
    keys = _keys(dialog)
    assert sorted(w.test_id for w in keys) == sorted(f"staffpin_{k}" for k in KEYS)
    assert [tuple(w.to_window(*w.pos)) + tuple(w.size) for w in first] == where
    pad = dialog.pad
    whole = Keypad("ok", "erase", lambda _v: None, prefix="whole", size_hint=(None, None), size=pad.size, pos=pad.pos)
    whole.do_layout()
    places = {w.test_id.split("_", 1)[1]: (w.pos, w.size) for w in whole.children}
    assert {w.test_id.split("_", 1)[1]: (w.pos, w.size) for w in pad.children} == places  # as a pad made at once
    driver.screenshot("staff_pin_keys")
    driver.tap("staffpin_1")
    driver.tap("staffpin_2")
    driver.tap("staffpin_back")
    assert pad.entered == "1"
    driver.tap("staffpin_cancel")
