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
