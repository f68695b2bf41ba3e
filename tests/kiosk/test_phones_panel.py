"""The tablet's seat list for phones (kiosk/phones/panel.py): one seat's QR code at a time, hidden again
once that phone joins; new code and no phone from the same panel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engines.core import TABLE
from engines.spyfall import actions as A
from kiosk.phones.channel import PhoneHub

pytestmark = pytest.mark.ui
SPY = {"players": ["지수", "민호", "서연"], "rounds": 1, "votes": "sealed"}


class Recorder:
    def __init__(self) -> None:
        self.seat: int | None = None
        self.remote = "10.0.0.2"
        self.sent: list[Any] = []

    def send(self, message: Any) -> None:
        self.sent.append(message)

    def close(self, message: Any) -> None:
        self.sent.append(message)


def test_the_seat_list_shows_one_code_at_a_time_and_who_is_connected(driver: Any, tmp_path: Path) -> None:
    from kiosk.phones.panel import PhonesPanel
    from tests.phones.helpers import new_session

    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub()
    hub.attach(session)
    base = "http://192.168.0.20:8765"
    panel = PhonesPanel(hub, lambda seat: f"{base}/#t={hub.seat_pass(seat).token}", base, driver.app.tr)
    panel.open()
    driver.pump(4)
    assert driver.find_all("phones_qr") == []  # nobody's code until a seat is picked
    driver.tap("phones_show_1")
    assert driver.find_all("phones_qr")
    code = hub.status()[1].code
    assert any(code in t for t in driver.texts()) and any("민호님, 지금 찍으세요" in t for t in driver.texts())
    assert not any(hub.status()[0].code in t for t in driver.texts())
    shot = driver.screenshot("phones_panel_code")
    assert shot.exists()
    assert driver.small_targets() == [] and driver.overflowing_labels() == []

    # 민호's phone joins: the code hides and the list says so
    phone = Recorder()
    assert hub.join(phone, token=hub.seat_pass(1).token)["t"] == "joined"
    driver.pump(3)
    assert driver.find_all("phones_qr") == []
    assert sum("휴대폰 연결됨" in t for t in driver.texts()) == 1
    assert driver.find("phones_show_1").disabled
    session.dispatch(A.ChooseDealer(TABLE, 0))
    assert phone.sent[-1]["t"] == "state"

    # 서연 has no phone: the seat goes back to the tablet, then gets a fresh code after all
    driver.tap("phones_show_2")
    old = hub.seat_pass(2).token
    driver.tap("phones_revoke")
    assert hub.seat_pass(2) is None and driver.find_all("phones_qr") == []
    driver.tap("phones_show_2")
    assert hub.seat_pass(2) is not None and hub.seat_pass(2).token != old
    driver.tap("phones_reissue")
    driver.screenshot("phones_panel_after")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.tap("phones_close")
    assert hub._listeners == []
    session.close()
