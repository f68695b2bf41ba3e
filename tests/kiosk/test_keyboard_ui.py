"""The on-screen keyboard (kiosk/widgets/keyboard.py), driven only by tapping its keys."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _spyfall_setup(driver: Any) -> None:
    driver.app.host("spyfall")
    driver.wait_screen("host")


def test_focus_shows_the_keyboard_and_hangul_composes_as_typed(driver: Any) -> None:
    _spyfall_setup(driver)
    assert not driver.find_all("kb_ㅂ")
    field = driver.find("spy_name_0")
    field.text = ""
    driver.tap(field)
    assert field.focus and driver.find_all("kb_ㅂ")
    assert driver.field_clear_of_keyboard(field)
    seen = []
    for key in ("ㄷ", "ㅏ", "ㄹ", "ㄱ", "ㅣ"):
        driver.tap(f"kb_{key}")
        seen.append(field.text)
    assert seen == ["ㄷ", "다", "달", "닭", "달기"]  # the double final splits when a vowel follows
    driver.tap("kb_back")
    assert field.text == "달ㄱ"  # one jamo of the syllable being composed
    driver.tap("kb_back")
    driver.tap("kb_back")
    assert field.text == ""  # then a committed syllable, whole
    driver.tap("kb_shift")
    assert driver.find("kb_ㅂ").text == "ㅃ" and driver.find("kb_ㅔ").text == "ㅖ"
    driver.tap("kb_ㅂ")
    assert driver.find("kb_ㅂ").text == "ㅂ"  # shift is for one key
    for key in ("ㅏ", "ㅇ"):
        driver.tap(f"kb_{key}")
    driver.tap("kb_space")
    driver.tap("kb_lang")
    assert driver.find_all("kb_q") and not driver.find_all("kb_ㅂ")
    driver.tap("kb_shift")
    for key in "ann":
        driver.tap(f"kb_{key}")
    driver.tap("kb_7")
    assert field.text == "빵 Ann7"
    driver.tap("kb_lang")
    driver.type("과자")
    assert field.text == "빵 Ann7과자"
    driver.screenshot("keyboard_spyfall_setup")
    assert driver.small_targets(56) == []
    assert driver.overflowing_labels() == []
    driver.tap("kb_done")
    driver.wait_for(lambda: not driver.app.keyboard.visible)
    assert not field.focus and field.text == "빵 Ann7과자"


def test_tap_elsewhere_keeps_the_syllable_and_another_field_takes_the_keyboard(driver: Any) -> None:
    _spyfall_setup(driver)
    first, second = driver.find("spy_name_0"), driver.find("spy_name_3")
    first.text = second.text = ""
    driver.tap(first)
    driver.type("민")
    driver.tap("kb_ㄱ")
    driver.tap(second)  # straight to another field: the keyboard stays, composition ends
    assert first.text == "민ㄱ" and second.focus and driver.app.keyboard.visible
    driver.type("수")
    assert second.text == "수" and first.text == "민ㄱ"
    driver.tap_at(640, 680)  # a tap elsewhere (the form's title): the field is done, the keyboard goes
    driver.wait_for(lambda: not driver.app.keyboard.visible)
    assert second.text == "수" and not second.focus
    driver.tap(first)
    assert driver.app.keyboard.visible
    driver.tap("host_back")  # leaving the screen while typing puts the keyboard away
    driver.wait_for(lambda: not driver.app.keyboard.visible)
    assert not first.focus


def test_keys_follow_the_ui_language(driver: Any) -> None:
    _spyfall_setup(driver)
    driver.app.set_lang("en")
    try:
        field = driver.find("spy_name_1")
        field.text = ""
        driver.tap(field)
        assert driver.find("kb_done").text == "Done" and driver.find_all("kb_q")
        driver.type("Bo 보")
        assert field.text == "Bo 보"
        driver.screenshot("keyboard_english")
        assert driver.overflowing_labels() == []
    finally:
        driver.app.set_lang("ko")
    assert driver.find("kb_done").text == "완료" and driver.find_all("kb_ㅂ")


def test_a_low_field_in_a_dialog_moves_above_the_keyboard(driver: Any) -> None:
    """A field near the bottom of a dialog is lifted clear of the keyboard; a numeric field takes digits only;
    closing the dialog puts the keyboard away."""
    from kivy.metrics import dp
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.modalview import ModalView
    from kivy.uix.textinput import TextInput
    from kivy.uix.widget import Widget

    view = ModalView(size_hint=(1, 1), auto_dismiss=False)
    box = BoxLayout(orientation="vertical", padding=dp(20))
    box.add_widget(Widget())
    field = TextInput(multiline=False, input_filter="int", size_hint_y=None, height=dp(56), font_size="22sp")
    field.test_id = "low_field"
    box.add_widget(field)
    view.add_widget(box)
    view.open(animation=False)
    driver.pump(3)
    padding = list(view.padding)
    assert field.to_window(field.x, field.y)[1] < dp(100)
    driver.tap(field)
    assert driver.field_clear_of_keyboard(field)
    for key in ("1", "8", "8", "3"):
        driver.tap(f"kb_{key}")
    driver.tap("kb_ㄱ")
    driver.tap("kb_.")
    assert field.text == "1883"
    driver.screenshot("keyboard_dialog_lifted")
    view.dismiss(animation=False)
    driver.wait_for(lambda: not driver.app.keyboard.visible)
    assert not field.focus and list(view.padding) == padding  # the dialog's layout is given back


def test_leaving_a_screen_while_typing_leaves_no_screen_shifted(driver: Any) -> None:
    """A field lifted above the keyboard, then the screen changes (back): the keyboard goes, and no screen keeps
    the lift (every later screen sits where the screens belong: its title not cut off at the top)."""
    app = driver.app
    app.host("watson_holmes")
    driver.wait_screen("host")
    field = driver.find("wh_name_1")
    driver.tap(field)
    assert driver.field_clear_of_keyboard(field)
    assert app.sm.y > 0  # the screens lifted
    driver.tap("host_back")
    driver.wait_screen("detail")
    driver.wait_for(lambda: not app.keyboard.visible)  # its watch (every 0.25 s) sees the field gone
    driver.pump(2)
    assert app.sm.y == 0 and app.sm.current_screen.pos == app.sm.pos
    driver.tap("back")
    driver.wait_screen("library")
    assert app.sm.current_screen.pos == app.sm.pos
