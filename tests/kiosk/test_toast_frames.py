"""A toast's UI-thread work in the frames (#43, kiosk/widgets/toast.py): placed once the screen the event changed has
laid out, so what a guest first sees of it covers nothing; while it shows, it walks the window's widgets only after a
frame drawn with a change besides its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.ui


@pytest.fixture
def layer(driver: Any) -> Iterator[Any]:
    """A full-window layer over the screens (as a dialog is), taken away after the test; no toast on show."""
    from kivy.core.window import Window
    from kivy.uix.floatlayout import FloatLayout

    driver.app.toast_widget.hide()
    driver.pump(2)
    top = FloatLayout(size_hint=(None, None), size=Window.size, pos=(0, 0))
    Window.add_widget(top)
    try:
        yield top
    finally:
        driver.app.toast_widget.hide()
        Window.remove_widget(top)
        driver.pump(2)


def _in_a_touch(event: Any) -> None:
    """One frame with `event` run where Kivy dispatches a touch (after the clock's tick, before the layout)."""
    from kivy.base import EventLoop

    def dispatch() -> None:
        event()
        type(EventLoop).dispatch_input(EventLoop)

    EventLoop.dispatch_input = dispatch
    try:
        EventLoop.idle()
    finally:
        EventLoop.__dict__.pop("dispatch_input", None)


def _over(toast: Any, buttons: list[Any]) -> list[str]:
    return [b.text for b in buttons
            if b.x < toast.right and toast.x < b.right and b.y < toast.top and toast.y < b.top]


def test_a_toast_shown_as_the_screen_changes_is_first_drawn_over_nothing(driver: Any, layer: Any) -> None:
    """Buttons laid out in the same tap as the toast (a new stage, a screen's rows): placed in the tap, before they
    were laid out (they were at Kivy's default 0,0 then), it was drawn over them in that frame and moved a frame
    later. Now no frame draws it over them, and it appears in the next frame."""
    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button

    toast = driver.app.toast_widget
    column = BoxLayout(orientation="vertical", size_hint=(None, None), width=Window.width,
                       height=Window.height - dp(160), pos=(0, dp(160)))  # all but a strip at the bottom
    layer.add_widget(column)
    driver.pump(2)
    over: list[list[str]] = []
    buttons = [Button(text=f"단추 {i}") for i in range(4)]

    def drawn(*_: object) -> None:  # as each frame is drawn (its layout done): what the toast covers, if shown
        if toast.opacity > 0.01:
            over.append(_over(toast, buttons))

    Window.fbind("on_draw", drawn)
    try:
        def tap() -> None:  # the screen changes, and a toast
            for b in buttons:
                column.add_widget(b)
            toast.show("민호님이 밀려났어요. 다음 차례에 다시 고르세요.", seconds=60)

        _in_a_touch(tap)
        driver.pump(1)
        assert toast.opacity == 1 and over, "not on show in the next frame"
        driver.pump(3)
    finally:
        Window.funbind("on_draw", drawn)
    assert all(o == [] for o in over), over
    assert driver.toast_covers() == []


def test_a_showing_toast_walks_the_screen_only_after_a_change(driver: Any, layer: Any,
                                                                monkeypatch: Any) -> None:
    """Its check that what it lies on is still free walked every widget of the window every frame it showed
    (~1.2-1.4 ms each here, frames holding a tap's work too). Now a frame in which nothing but itself was drawn
    walks nothing; a button put where it lies, then one moved under it, each sends it elsewhere at its next look."""
    from kivy.core.window import Window
    from kivy.uix.button import Button

    import kiosk.widgets.toast as toast_module

    toast = driver.app.toast_widget
    walks: list[int] = []
    real = toast_module._targets

    def counted(*args: Any, **kw: Any) -> Any:
        walks.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(toast_module, "_targets", counted)
    changed = [0]  # frames drawn with a change besides the toast's (a scroll bar's fade, a clock on the screen)

    def drawn(*_: object) -> None:
        changed[0] += any(w.canvas.needs_redraw for w in Window.children if w is not toast)

    Window.fbind("on_draw", drawn)
    try:
        toast.show("민호님이 밀려났어요.", seconds=60)
        driver.pump(4)
        assert toast.opacity == 1

        def still() -> bool:  # a frame drawn with no change but the toast's, or not drawn
            before = changed[0]
            driver.pump(1)
            return changed[0] == before

        driver.wait_for(still, 10)
        walks.clear()
        changed[0] = 0
        driver.pump(10)
        assert len(walks) <= changed[0] < 10, (len(walks), changed[0])  # a look after each change, if any
        first = Button(text="가", size_hint=(None, None), size=toast.size, pos=toast.pos)
        layer.add_widget(first)
        driver.pump(3)
        assert walks and _over(toast, [first]) == []
        second = Button(text="나", size_hint=(None, None), size=(10, 10), pos=(0, 0))
        layer.add_widget(second)
        driver.pump(3)
        walks.clear()
        second.size, second.pos = toast.size, toast.pos  # only moved: the window's children are the same
        driver.pump(3)
        assert walks and _over(toast, [first, second]) == [], (toast.pos, first.pos, second.pos)
    finally:
        Window.funbind("on_draw", drawn)


def _walk(off: Any) -> list[tuple[tuple[float, ...], int]]:
    """The toast's walk of the window (kiosk.widgets.toast._visit), window offsets carried down from `off` (None:
    each widget's own `to_window`)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.screenmanager import ScreenManager
    from kivy.uix.stencilview import StencilView
    from kivy.uix.textinput import TextInput

    from kiosk.widgets.toast import _visit

    out: list[Any] = []
    for top in Window.children:
        _visit(top, True, False, None, off, (None, ScreenManager, (ButtonBehavior, TextInput), 0, StencilView), out)
    return out


def test_the_walk_finds_what_each_widgets_to_window_finds(driver: Any, layer: Any) -> None:
    """The walk carries each widget's window offset down (asking `to_window`, up to the window, for every widget was
    a third of its time): on Mr. Jack's table at 1024x600 (a screen, its panels scrolled to their middle) with a
    turned and scaled Scatter over it, it finds the same boxes as asking each widget."""
    from kivy.core.window import Window
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.scatter import Scatter
    from kivy.uix.scrollview import ScrollView

    from kiosk.env import HEIGHT, WIDTH
    from tests.kiosk.test_toast_clear import _mr_jack_table

    Window.size = (1024, 600)
    try:
        _mr_jack_table(driver)
        scrolled = [w for w in driver.walk() if isinstance(w, ScrollView)]
        for view in scrolled:
            view.scroll_y = 0.5
        turned = Scatter(rotation=30, scale=1.5, pos=(200, 150), size_hint=(None, None))
        turned.add_widget(Button(text="가", size_hint=(None, None), size=(120, 50), pos=(10, 20)))
        turned.add_widget(Label(text="나다라", size_hint=(None, None), size=(120, 50), pos=(10, 90)))
        layer.add_widget(turned)
        driver.pump(4)
        fast, slow = _walk((0.0, 0.0)), _walk(None)
        assert scrolled and len(fast) > 20 and [k for _, k in fast] == [k for _, k in slow]
        for (a, _), (b, _) in zip(fast, slow, strict=True):
            assert max(abs(p - q) for p, q in zip(a, b, strict=True)) < 1.01, (a, b)  # drawn_text_box's int()
    finally:
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)


def _still(driver: Any, toast: Any) -> None:
    """Frames until one is drawn with no change but the toast's own (its look after the last change done)."""
    from kivy.core.window import Window

    def still() -> bool:
        driver.pump(1)
        return not any(w.canvas.needs_redraw for w in Window.children if w is not toast)

    driver.wait_for(still, 10)
    driver.pump(1)


def test_a_toast_moves_off_new_words_in_the_frame_that_brings_them(driver: Any, layer: Any) -> None:
    """Words written where a toast lies (a whose-turn line filled in as a resumed table's screen builds under the
    toast saying so): it looked again a frame later, so the frame with the new words was drawn with the toast over
    them (a test's screenshot caught it, 1 run in 10). Now it moves before that frame is drawn; a button moved under
    it likewise."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label

    toast = driver.app.toast_widget
    toast.show("하던 게임을 이어서 해요.", seconds=60)
    driver.pump(3)
    _still(driver, toast)
    line = Label(text="", font_size="24sp", size_hint=(None, None), size=toast.size, pos=toast.pos)
    layer.add_widget(line)
    _still(driver, toast)
    line.text = "태블릿 4(그린 씨) 차례예요 · 주사위: 4"  # laid out in the next frame, before it is drawn
    driver.pump(1)
    assert toast.opacity == 1 and driver.toast_covers() == []
    _still(driver, toast)
    button = Button(text="가", size_hint=(None, None), size=(10, 10), pos=(0, 0))
    layer.add_widget(button)
    _still(driver, toast)
    button.size, button.pos = toast.size, toast.pos
    driver.pump(1)
    assert _over(toast, [button]) == [] and driver.toast_covers() == []


def test_a_toast_sent_to_its_lane_is_drawn_under_a_screen_laid_out_above_it(driver: Any) -> None:
    """Words filling the screen under a toast leave it no place: it opens its lane under the screens, and in the
    very frame it moves there the screen is laid out above the lane (laid out a frame later, that frame showed the
    toast over the screen's bottom words)."""
    from kivy.uix.label import Label

    app, toast = driver.app, driver.app.toast_widget
    screen = app.sm.current_screen
    toast.show("하던 게임을 이어서 해요.", seconds=60)
    driver.pump(3)
    assert app.toast_lane.height == 0
    _still(driver, toast)
    words = Label(text="가나다라 " * 1200, font_size="20sp")  # the screen full of words (the lines past its box cut)
    words.bind(size=lambda w, size: setattr(w, "text_size", size))
    screen.add_widget(words)
    try:
        driver.pump(1)
        assert app.toast_lane.height > 0 and toast.top <= app.sm.y + 1
        assert words.to_window(words.x, words.y)[1] >= app.sm.y - 1 and driver.toast_covers() == []
    finally:
        screen.remove_widget(words)
        toast.hide()
        driver.pump(3)
