"""Issue 37 part 5: staff call works without the café floor. The game screen's bar has a call button; a call shows a
sign across the game screen and plays the call sound; staff mode lists it and acknowledges it (the sign goes).
Taps only."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _modal_gone(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def test_call_staff_without_a_floor(driver: Any) -> None:
    app = driver.app
    assert app.floor is None
    app.table.start("spyfall", {"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}, seed=4)
    app.host("spyfall")
    driver.wait_screen("host")
    sign = app.get_screen("host").ids.call_sign
    assert sign.opacity == 0 and sign.height == 0
    driver.tap("staff_call")
    driver.tap("floor_reason_cancel")  # changed their mind: nothing called
    _modal_gone(driver)
    assert "staff_call" not in app.sounds and sign.opacity == 0
    driver.tap("staff_call")
    driver.tap("floor_reason_rules")
    _modal_gone(driver)
    driver.wait_for(lambda: sign.opacity == 1)
    assert sign.text == "직원을 부르고 있어요 · 곧 갈게요" and sign.height >= 80
    assert app.sounds.count("staff_call") == 1
    assert driver.find("staff_call").text == "호출 중…"
    path = driver.screenshot("journey_staff_call_sign")
    assert path.stat().st_size > 5000 and driver.small_targets() == [] and driver.overflowing_labels() == []

    driver.tap("host_back")
    driver.wait_screen("detail")
    driver.tap("back")
    driver.wait_screen("library")
    driver.tap("back")
    driver.wait_screen("attract")
    driver.staff_login()
    texts = "\n".join(driver.texts())
    assert "손님 호출 1건" in texts and "규칙이 궁금해요" in texts
    driver.screenshot("journey_staff_call_listed")
    driver.tap("staff_call_ack")
    assert not driver.find_all("staff_call_ack") and "손님 호출 1건" not in "\n".join(driver.texts())
    app.host("spyfall")
    driver.wait_screen("host")
    assert sign.opacity == 0 and driver.find("staff_call").text == "직원 호출"


def test_the_reasons_dialog_draws_each_text_once(driver: Any, monkeypatch: Any) -> None:
    """The reasons' dialog is made at the sizes it will have: made at Kivy's 100 px and laid out after, each button's
    words were drawn twice in the frame of the tap (bench/frames.py: Mr. Jack's staff call tap, 33 ms of UI-thread CPU
    under load). Fails on the code before session 21 (five texts drawn twice)."""
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    app = driver.app
    app.table.start("spyfall", {"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}, seed=4)
    app.host("spyfall")
    driver.wait_screen("host")
    drawn: dict[int, list[str]] = {}
    real = Label.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # named as Kivy's weak methods look it up
        w = self
        while w.parent is not None and w.parent is not w and not isinstance(w, ModalView):
            w = w.parent
        if isinstance(w, ModalView):  # the dialog's (the screen under it may redraw its own)
            drawn.setdefault(id(self), []).append(self.text)
        real(self, *args)

    monkeypatch.setattr(Label, "texture_update", texture_update)
    driver.tap("staff_call")
    driver.wait_for(lambda: driver.find_all("floor_reason_cancel"))
    driver.pump(5)
    monkeypatch.undo()
    assert [driver.find("floor_reason_rules").text] in drawn.values()  # the dialog's words drawn, once
    assert [texts for texts in drawn.values() if len(texts) > 1] == []
    driver.tap("floor_reason_cancel")
    _modal_gone(driver)
