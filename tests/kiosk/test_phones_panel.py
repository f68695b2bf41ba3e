"""The tablet's seat list for phones (kiosk/phones/panel.py): one seat's QR code at a time, hidden again
once that phone joins; new code and no phone from the same panel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engines.core import TABLE
from engines.spyfall import actions as A
from phones.channel import PhoneHub
from tests.tables import act

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


def let_in_by_tap(driver: Any, hub: PhoneHub, phone: Recorder, token: str, number: str = "4821") -> None:
    """A phone new to its seat asks; the tablet shows its digits; its owner taps yes."""
    assert hub.join(phone, token=token, number=number)["t"] == "asking"
    driver.wait_for(lambda: driver.find_all("phones_ask_yes"))
    assert driver.find("phones_ask_number").text == " ".join(number)
    driver.tap("phones_ask_yes")
    driver.wait_for(lambda: phone.seat is not None)


def test_the_seat_list_shows_one_code_at_a_time_and_who_is_connected(driver: Any, tmp_path: Path) -> None:
    from kiosk.phones.ask import AskWatcher
    from kiosk.phones.panel import PhonesPanel
    from tests.phones.helpers import new_session

    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub()
    hub.follow(session)
    asks = AskWatcher(hub, driver.app.tr)
    base = "http://192.168.0.20:8765"
    panel = PhonesPanel(hub, lambda seat: f"{base}/#t={hub.seat_pass(seat).token}", base, driver.app.tr)
    panel.open()
    driver.pump(4)
    assert driver.find_all("phones_qr") == []  # nobody's code until a seat is picked
    driver.tap("phones_show_1")
    assert driver.find_all("phones_qr")
    driver.wait_for(lambda: driver.find("phones_qr").texture is not None)  # encoded off the UI thread
    code = hub.status()[1].code
    assert any(code in t for t in driver.texts()) and any("민호님, 지금 찍으세요" in t for t in driver.texts())
    assert not any(hub.status()[0].code in t for t in driver.texts())
    shot = driver.screenshot("phones_panel_code")
    assert shot.exists()
    assert driver.small_targets() == [] and driver.overflowing_labels() == []

    # 민호's phone asks to join: the tablet asks its owner, with the phone's digits and nothing of the seat's
    # secret; the list says what the seat's phone is doing, truthfully, at each step
    assert driver.find("phones_state_1").text == "휴대폰 아직 없음"
    phone = Recorder()
    assert hub.join(phone, token=hub.seat_pass(1).token, number="4821")["t"] == "asking"
    driver.wait_for(lambda: driver.find_all("phones_ask_yes"))
    assert driver.find("phones_state_1").text == "확인을 기다려요"
    assert asks.dialog is not None
    shown = " ".join(str(getattr(w, "text", "")) for w in asks.dialog.walk())
    assert "민호 자리에 휴대폰이 들어오려고 해요" in shown and "4 8 2 1" in shown
    assert hub.status()[1].code not in shown and "#t=" not in shown  # the seat's name and digits, no pass
    driver.screenshot("phones_ask")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.tap("phones_ask_yes")
    driver.wait_for(lambda: phone.seat == 1)
    driver.pump(3)
    assert driver.find_all("phones_qr") == []
    assert driver.find("phones_state_1").text == "휴대폰 연결됨"
    assert sum("휴대폰 연결됨" in t for t in driver.texts()) == 1
    assert driver.find("phones_show_1").disabled
    act(session, A.ChooseDealer(TABLE, 0))
    assert phone.sent[-1]["t"] == "state"
    hub.leave(phone)  # its screen locked: the seat's phone is away, not "not connected"
    driver.pump(3)
    assert driver.find("phones_state_1").text == "휴대폰 잠시 끊김"

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
    asks.stop()
    assert hub._listeners == []
    session.close()


def test_the_code_is_encoded_off_the_ui_thread_and_drawn_a_few_frames_later(driver: Any, tmp_path: Path,
                                                                           monkeypatch: Any) -> None:
    """segno encodes in pure Python (20-50 ms here, 4x on a Pi-class tablet): in the frame of the guest's tap
    it stalled the UI (issue #21). The code text shows at once; the picture follows, and a refresh of the
    same code (another seat's phone joins) neither encodes nor draws it again; picking a seat leaves the
    seat list's widgets (a panel's rebuild was ~2/3 of the tap's UI-thread CPU)."""
    import threading

    from kiosk.phones import code_side
    from kiosk.phones import panel as panel_module
    from tests.phones.helpers import admit, new_session

    threads: list[threading.Thread] = []
    encode = code_side.qr_matrix

    def recording(text: str) -> list[list[bool]]:
        threads.append(threading.current_thread())
        return encode(text)

    monkeypatch.setattr(code_side, "qr_matrix", recording)
    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub()
    hub.follow(session)
    base = "http://192.168.0.20:8765"
    panel = panel_module.PhonesPanel(hub, lambda seat: f"{base}/#t={hub.seat_pass(seat).token}", base,
                                     driver.app.tr)
    panel.open()
    driver.pump(6)  # the hints' texts, then a row per frame
    driver.tap("phones_show_2", frames=1)
    assert any(hub.status()[2].code in t for t in driver.texts())  # typeable at once
    assert threading.main_thread() not in threads
    for _ in range(60):  # a bounded number of frames (the worker's 20-50 ms, under load more)
        if driver.find("phones_qr").texture is not None:
            break
        driver.wait(0.05)
    assert driver.find("phones_qr").texture is not None and driver.find("phones_qr").color[3] == 1
    assert len(threads) == 1

    picture = driver.find("phones_qr")
    assert admit(hub, Recorder(), token=hub.seat_pass(0).token)["t"] == "joined"  # a refresh, same code shown
    driver.pump(3)
    assert driver.find("phones_qr") is picture and picture.texture is not None and len(threads) == 1
    close = driver.find("phones_close")
    driver.tap("phones_show_1")  # picking another seat makes only the code side again
    assert driver.find("phones_close") is close and driver.find("phones_show_1").selected
    assert not driver.find("phones_show_2").selected
    driver.tap("phones_close")
    session.close()


def test_the_seats_rows_come_one_per_frame_after_the_panel_without_moving(driver: Any, tmp_path: Path) -> None:
    """Eight seats' rows (two labels and a button each) made in the frame of the tap that opened the panel made it
    25-41 ms of UI-thread CPU in bench/frames.py: the panel's frame and its close button come at once, the rows one
    per frame after (after the hints' texts), each below the last; a row on show never moves. A seat's row changes in
    place (a code revoked)."""
    from kiosk.phones.panel import PhonesPanel
    from tests.phones.helpers import new_session

    names = ["지수", "민호", "서연", "도윤", "하준", "유나", "시우", "하은"]
    session = new_session(tmp_path, "spyfall", {**SPY, "players": names})
    hub = PhoneHub()
    hub.follow(session)
    base = "http://192.168.0.20:8765"
    panel = PhonesPanel(hub, lambda seat: f"{base}/#t={hub.seat_pass(seat).token}", base, driver.app.tr)
    panel.open()

    def made() -> list[Any]:
        return [w for w in panel.walk() if str(getattr(w, "test_id", "")).startswith("phones_show_")]

    assert made() == [] and [w for w in panel.walk() if getattr(w, "test_id", "") == "phones_close"]

    def hints() -> list[Any]:
        texts = (driver.app.tr("phones.tablet.hint"), driver.app.tr("phones.tablet.pick_seat"))
        return [w for w in panel.walk() if getattr(w, "text", None) in texts]

    assert hints() == []  # the hints' texts (the long one's wrapped layout) come a frame after the panel's
    driver.pump(1)  # the tap's frame
    close = driver.find("phones_close")
    below = tuple(close.to_window(*close.pos))
    assert hints() == [] and made() == []
    driver.pump(1)
    assert len(hints()) == 2 and tuple(close.to_window(*close.pos)) == below
    counts, where = [], None
    for _ in range(len(names) + 3):
        driver.pump(1)
        counts.append(len(made()))
        if counts[-1] and where is None:
            first = driver.find("phones_show_0")
            where = tuple(first.to_window(*first.pos))
    assert counts[-1] == len(names) and all(0 <= b - a <= 1 for a, b in zip(counts, counts[1:], strict=False))
    assert tuple(first.to_window(*first.pos)) == where
    driver.screenshot("phones_panel_eight")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    from kivy.uix.scrollview import ScrollView

    from kiosk.layout_check import ancestors

    bar = next(w for w in ancestors(first) if isinstance(w, ScrollView))  # eight rows: it scrolls, its bar shows
    assert bar.do_scroll_y and first.to_window(first.right, 0)[0] <= bar.to_window(bar.right, 0)[0] - bar.bar_width
    driver.tap("phones_show_0")
    shown = driver.find("phones_show_0")
    assert shown is first and shown.selected and shown.text == driver.app.tr("phones.tablet.show_code")
    driver.tap("phones_revoke")  # the seat's row changes in place (it was made again, and every other row with it)
    assert driver.find("phones_show_0") is first and not first.selected
    assert first.text == driver.app.tr("phones.tablet.use_phone") and not hub.status()[0].issued
    assert driver.find("phones_state_0").text == driver.app.tr(f"phones.tablet.phone_{hub.status()[0].phone}")
    driver.tap("phones_show_0")  # a fresh code for the seat
    assert hub.status()[0].issued and first.text == driver.app.tr("phones.tablet.show_code") and first.selected
    driver.tap("phones_close")
    session.close()


def test_the_code_side_changes_in_place_and_its_picture_comes_a_frame_after_its_texts(driver: Any,
                                                                                       tmp_path: Path) -> None:
    """Picking a seat's code or a new code made the code side again (15-20 ms of the tap's UI-thread CPU here, 26-28 in
    bench/frames.py under load): its widgets stay, their texts change in the tap, and the QR picture, one texture pixel
    per module, comes in a frame after the tap's in the place kept for it, blank until then (never the last seat's
    code under this seat's name)."""
    from kiosk.phones.code_side import QUIET
    from kiosk.phones.panel import PhonesPanel
    from phones.qr import qr_matrix
    from tests.phones.helpers import new_session

    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub()
    hub.follow(session)
    base = "http://192.168.0.20:8765"
    url = lambda seat: f"{base}/#t={hub.seat_pass(seat).token}"  # noqa: E731
    panel = PhonesPanel(hub, url, base, driver.app.tr)
    panel.open()
    driver.pump(8)
    made = panel._code  # made ahead after the rows, laid out at its place's size: its labels wrapped before it shows
    assert made is not None and made.parent is None and tuple(made.size) == tuple(panel._no_code.size)
    assert made.title.text_size[0] == made.title.width > 100
    for seat in (1, 0):  # both codes encoded (the first time on the encoder thread)
        driver.tap(f"phones_show_{seat}")
        driver.wait_for(lambda: driver.find("phones_qr").color[3] == 1)
    picture, code, reissue = driver.find("phones_qr"), driver.find("phones_code"), driver.find("phones_reissue")
    where = (tuple(picture.to_window(*picture.pos)), tuple(picture.size))

    driver.tap("phones_show_1", frames=0)
    assert driver.find("phones_qr") is picture and driver.find("phones_code") is code
    assert driver.find("phones_reissue") is reissue and hub.status()[1].code in code.text
    assert picture.color[3] == 0  # seat 0's picture is gone at once
    driver.pump(1)  # the tap's frame: the texts
    assert picture.color[3] == 0
    driver.pump(1)  # the frame after: the picture (encoded before), a pixel per module, in its place
    assert picture.color[3] == 1 and (tuple(picture.to_window(*picture.pos)), tuple(picture.size)) == where
    side = len(qr_matrix(url(1))) + 2 * QUIET
    assert tuple(picture.texture.size) == (side, side) and picture.texture.mag_filter == "nearest"

    old, texture = hub.status()[1].code, picture.texture
    driver.tap("phones_reissue", frames=0)  # a new code: the same widgets, the new code's texts
    assert hub.status()[1].code != old and hub.status()[1].code in code.text and picture.color[3] == 0
    driver.wait_for(lambda: picture.color[3] == 1)
    assert driver.find("phones_qr") is picture and picture.texture is not texture
    driver.screenshot("phones_panel_in_place")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.tap("phones_close")
    session.close()
