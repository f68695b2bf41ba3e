"""A toast never lies over text being read nor over an enabled control (the sweep's toast check, kiosk/testing.py):
on the screens where one was seen covering them (Mr. Jack's table header, Spyfall's name fields on its set-up form)
and the other main screens."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

LONG = "세 글자 이상 두 줄이 될 수도 있는 꽤 긴 안내 문장이 여기에 잠깐 나타나요"


def _mr_jack_table(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start")
    driver.tap("handover_i_am")
    driver.tap("handover_done")
    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))
    driver.pump(4)


def _spyfall_setup(driver: Any, players: int) -> None:
    driver.app.host("spyfall")
    driver.wait_screen("host")
    driver.tap(f"spy_count_{players}")


def _spyfall_table(driver: Any) -> None:
    from tests.kiosk.conftest import spyfall_table

    spyfall_table(driver)


def _detail(driver: Any) -> None:
    driver.tap("start")
    driver.wait_screen("library")
    driver.tap("game_mr_jack_ny")
    driver.wait_screen("detail")


SCREENS = {
    "mr_jack_table": _mr_jack_table,
    "mr_jack_setup": lambda d: (d.app.host("mr_jack_ny"), d.wait_screen("host")),
    "spyfall_setup_4": lambda d: _spyfall_setup(d, 4),
    "spyfall_setup_8": lambda d: _spyfall_setup(d, 8),
    "spyfall_table": _spyfall_table,
    "detail": _detail,
    "attract": lambda d: d.pump(2),
}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_a_toast_covers_no_text_and_no_control(driver: Any, screen: str) -> None:
    """Placed over the words of the Mr. Jack header ('공개된 캐릭터 카드') and over Spyfall's name fields 5-6 before;
    the sweep now fails a test whose screenshot shows a toast over text or a control."""
    SCREENS[screen](driver)
    for text in (LONG, driver.app.tr("mr_jack_ny.witness.unseen"), "짧은 안내"):
        driver.app.toast(text)
        driver.pump(3)
        assert driver.app.toast_widget.opacity > 0
        assert driver.toast_covers() == [], text
    driver.screenshot(f"toast_clear_{screen}")  # the sweep (with its toast check) runs here too


def test_the_sweep_sees_a_toast_over_text_and_controls(driver: Any) -> None:
    """The check itself: a toast put over Mr. Jack's header line and over the host bar is reported (by the words it
    covers and the controls), one put on empty floor is not."""
    from kivy.core.window import Window

    _mr_jack_table(driver)
    toast = driver.app.toast_widget
    label = driver.app.get_screen("host").ctx.host.table.ids.turn_label
    driver.app.toast("짧은 안내")
    driver.pump(2)
    x, y = label.to_window(label.x, label.y)
    toast.pos = (x, y)
    found = driver.toast_covers()
    assert any(label.text[:30] in p for p in found), found
    toast.pos = (0, Window.height - toast.height)  # over the back button
    assert any("'host_back'" in p for p in driver.toast_covers())
    driver.sweep("toast moved over the bar")
    assert any("over control 'host_back'" in p for p in driver.problems)
    driver.problems.clear()  # the faults were put there on purpose
    toast.opacity = 0
    assert driver.toast_covers() == []


def test_a_toast_over_text_for_want_of_room_looks_again_when_the_screen_changes(driver: Any) -> None:
    """Placed over words for want of room (a screen of text), a toast looks again when the screen under it changes:
    on the next screen it keeps off the words (going home from a full table, it stayed over the attract title: it
    moved only when a control or the turn line came under it)."""
    from kivy.core.window import Window
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    full = FloatLayout(size_hint=(None, None), size=Window.size, pos=(0, 0))
    full.add_widget(Label(text="가나다라 " * 1200, size_hint=(None, None), size=Window.size, pos=(0, 0),
                          text_size=(Window.width, None), font_size="20sp"))  # words past every edge
    Window.add_widget(full)
    toast = driver.app.toast_widget
    layer = FloatLayout(size_hint=(None, None), size=Window.size, pos=(0, 0))
    try:
        toast.show("민호님이 밀려났어요.", seconds=60)
        driver.pump(3)
        assert driver.toast_covers() != []  # no room free of words: over them
        Window.remove_widget(full)
        title = Label(text="테이블 호스트", font_size="34sp", size_hint=(None, None), size=(toast.width, toast.height),
                      pos=toast.pos)  # the next screen's title right where the toast is
        layer.add_widget(title)
        Window.add_widget(layer)
        toast._over_all()  # the toast stays on top
        driver.pump(4)
        assert toast.opacity > 0 and driver.toast_covers() == []
    finally:
        toast.opacity = 0
        Window.remove_widget(full)
        Window.remove_widget(layer)
