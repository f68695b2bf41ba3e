"""The phone server cannot start (its port taken, e.g. by a second kiosk): the kiosk goes on with
pass-the-tablet, staff get a plain notice, and guests see no 휴대폰 button that could never work."""

from __future__ import annotations

import socket
from typing import Any

import pytest

pytestmark = pytest.mark.ui


def test_a_taken_port_leaves_a_staff_notice_and_no_phone_button(driver: Any, monkeypatch: Any) -> None:
    app = driver.app
    starting = getattr(app, "phones_start", None)
    if starting is not None:  # the app's own server starts in the background after the first frame
        driver.wait_for(lambda: not starting.is_alive(), timeout=20)
        driver.pump(3)  # its result arrives on the UI thread
    monkeypatch.setattr(app, "phones", None)  # the test app's own server (it started, or its port was taken)
    monkeypatch.setattr(app, "phones_server", None)
    with socket.socket() as blocker:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen()
        saved = (app.settings.phones_enabled, app.settings.phones_port)
        app.settings.phones_enabled, app.settings.phones_port = True, blocker.getsockname()[1]
        try:
            app.start_phones()
        finally:
            app.settings.phones_enabled, app.settings.phones_port = saved
    driver.pump(3)
    assert app.phones is None and app.errors == []
    notice = next(n for n in app.notices if n.key == "phones_port_taken")
    assert str(notice.params["port"]) in app.tr("damage.phones_port_taken", **notice.params)
    app.host("clue")
    driver.wait_screen("host")
    button = driver.find("host_phones")
    assert button.disabled and button.opacity == 0 and button.width == 0
    driver.screenshot("host_bar_without_phones")
    assert driver.unexplained_disabled() == [], "greyed host-bar buttons during set-up"
