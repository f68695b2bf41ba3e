"""Toasts go where they cover no control (the main bottom button stays tappable while one shows)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _overlaps(driver: Any) -> list[str]:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.textinput import TextInput

    toast = driver.app.toast_widget
    tx0, ty0 = toast.to_window(toast.x, toast.y)
    bad = []
    for w in driver.walk():
        if isinstance(w, (ButtonBehavior, TextInput)) and w.opacity > 0 and not w.disabled and w.width > 1:
            x0, y0 = w.to_window(w.x, w.y)
            if x0 < tx0 + toast.width and x0 + w.width > tx0 and y0 < ty0 + toast.height and y0 + w.height > ty0:
                bad.append(getattr(w, "test_id", "") or w.text)
    return bad


@pytest.mark.parametrize("screen", ["detail", "clue_setup", "spyfall_setup"])
def test_a_toast_covers_no_control(driver: Any, screen: str) -> None:
    if screen == "detail":
        driver.tap("start")
        driver.wait_screen("library")
        driver.tap("game_spyfall")
        driver.wait_screen("detail")
    else:
        driver.app.host(screen.removesuffix("_setup"))
        driver.wait_screen("host")
    driver.app.toast("세 글자 이상 두 줄이 될 수도 있는 꽤 긴 안내 문장이 여기에 잠깐 나타나요")
    driver.pump(3)
    assert driver.app.toast_widget.opacity > 0
    assert _overlaps(driver) == []
    driver.screenshot(f"toast_{screen}")


def test_a_toast_covers_no_text_where_there_is_room(driver: Any) -> None:
    """On a game page there is free room: the toast leaves the title, the facts and the pitch readable (their words
    as drawn: a label's box is often larger)."""
    from kivy.uix.label import Label

    from kiosk.widgets.text_box import drawn_text_box, overlap

    driver.tap("start")
    driver.wait_screen("library")
    driver.tap("game_watson_holmes")
    driver.wait_screen("detail")
    toast = driver.app.toast_widget
    driver.app.toast("민호님이 밀려났어요. 다음 차례에 다시 고르세요.")
    driver.pump(3)
    spot = (toast.x, toast.y, toast.right, toast.top)
    covered = []
    for w in driver.walk():
        if isinstance(w, Label) and w is not toast and w.text.strip() and w.opacity > 0 and w.width > 1:
            box = drawn_text_box(w)
            if box is not None and overlap(spot, box):
                covered.append(w.text[:30])
    assert covered == []
    driver.screenshot("toast_detail_text")


def test_a_toast_on_a_full_screen_leaves_the_marked_status_readable(driver: Any) -> None:
    """Mr. Jack's table: the witness call's toast covers no text, least of all the whose-turn line (a label marked
    `keep_clear`, whose words it sat over before)."""
    from kiosk.widgets.text_box import drawn_text_box, overlap

    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start")
    driver.tap("handover_i_am")
    driver.tap("handover_done")
    driver.wait_for(lambda: driver.app.get_screen("host").ctx.open_dialog is None
                    or not driver.app.get_screen("host").ctx.open_dialog.parent)
    turn = driver.find_all("mj_pick_" + driver.app.table.state.remaining()[0])[0].parent  # the table is up
    assert turn is not None
    label = driver.app.get_screen("host").ctx.host.table.ids.turn_label
    assert label.text.strip()
    driver.app.toast(driver.app.tr("mr_jack_ny.witness.unseen"))
    driver.pump(3)
    toast = driver.app.toast_widget
    box = drawn_text_box(label)
    assert box is not None and not overlap((toast.x, toast.y, toast.right, toast.top), box), (toast.pos, box)
    assert _overlaps(driver) == []
    assert driver.toast_covers() == []
    driver.screenshot("toast_mr_jack_table")


def test_a_toast_over_a_dialog_is_seen_and_covers_none_of_its_controls(driver: Any) -> None:
    """A toast shown while a dialog is up is drawn over it: under a hand-over (opaque) it was never seen (voice's
    "a private screen is open" went unseen), under a question dimmed behind its panel. It covers no control and
    no drawn text of the dialog; what the dialog covers does not count (placed by that too, it sat on the
    hand-over's title)."""
    from kivy.core.image import Image as CoreImage
    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    from kiosk.widgets.handover import HandOver

    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start")  # Jack's hand-over: "give the tablet to …"
    handover = next(w for w in Window.children if isinstance(w, HandOver))
    driver.app.toast(driver.app.tr("voice.private_first"))
    driver.pump(3)
    toast = driver.app.toast_widget
    order = Window.children  # from the top down
    assert toast in order and order.index(toast) < order.index(handover)  # drawn after it: on top
    shot = CoreImage.load(str(driver.screenshot("toast_over_handover")), keep_data=True)
    r, g, b, _ = shot.read_pixel(toast.x + dp(6), Window.height - toast.center_y)  # the toast's own dark ground
    assert max(r, g, b) < 0.05, (r, g, b)  # the hand-over's ground is (0.12, 0.10, 0.09)
    for w in handover.walk():  # its buttons, and its texts as drawn (centred in their boxes)
        if isinstance(w, ButtonBehavior):
            (x0, y0), (w_, h_) = w.to_window(w.x, w.y), w.size
        elif isinstance(w, Label) and w.text.strip():
            (w_, h_), (cx, cy) = w.texture_size, w.to_window(*w.center)
            x0, y0 = cx - w_ / 2, cy - h_ / 2
        else:
            continue
        assert not (x0 < toast.right and x0 + w_ > toast.x and y0 < toast.top and y0 + h_ > toast.y), w.text
    driver.tap("handover_i_am")


def test_a_toast_keeps_off_a_hidden_secret(driver: Any) -> None:
    """A reveal hand-over hides its secret until the player holds the button: placed while it was hidden, a toast
    took the secret's empty place (its words then showed under it). The hidden secret's words count as shown."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from kiosk.widgets.handover import HandOver

    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start")
    driver.tap("handover_i_am")
    handover = next(w for w in Window.children if isinstance(w, HandOver))
    words = [w for w in handover.secret.walk() if isinstance(w, Label) and w.text.strip()]
    assert handover.secret.opacity == 0 and words
    driver.app.toast(driver.app.tr("voice.private_first"))
    driver.pump(3)
    toast = driver.app.toast_widget
    for w in words:  # as drawn: centred in their boxes
        (w_, h_), (cx, cy) = w.texture_size, w.to_window(*w.center)
        x0, y0 = cx - w_ / 2, cy - h_ / 2
        assert not (x0 < toast.right and x0 + w_ > toast.x and y0 < toast.top and y0 + h_ > toast.y), w.text
    driver.hold("handover_hold", 0.1, during=lambda: driver.screenshot("toast_beside_secret"))
    driver.tap("handover_done")


@pytest.mark.parametrize("cells", ["to_tap", "to_read"])
def test_a_toast_keeps_off_a_drawn_row(driver: Any, cells: str) -> None:
    """A row drawing its cells on its own canvas (kiosk/widgets/drawn.py: Clue's notebook sheet) is no Kivy button
    or label: its cells to tap are controls to a toast even where every other place covers text, and its cells to
    read are text it keeps off where there is room (the marks `takes_touch` and `drawn_cells`,
    kiosk/widgets/marks.py). Put where the toast went, the row sends it elsewhere."""
    from kivy.core.window import Window
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    from kiosk.widgets.drawn import Cell, DrawnRow

    layer = FloatLayout(size_hint=(None, None), size=Window.size, pos=(0, 0))
    if cells == "to_tap":  # text everywhere: only the controls decide where the toast goes
        layer.add_widget(Label(text="가나다라", size_hint=(None, None), size=Window.size, pos=(0, 0)))
    Window.add_widget(layer)
    toast = driver.app.toast_widget
    try:
        driver.app.toast("민호님이 밀려났어요.")
        driver.pump(3)
        spot = (toast.x, toast.y, toast.width, toast.height)
        tap = (lambda: None) if cells == "to_tap" else None
        row = DrawnRow([Cell("가", on_tap=tap), Cell("나", on_tap=tap)], size_hint=(None, None),
                       size=spot[2:], pos=spot[:2])
        layer.add_widget(row)
        driver.pump(2)
        driver.app.toast("민호님이 밀려났어요.")
        driver.pump(3)
        assert not (row.x < toast.right and toast.x < row.right and row.y < toast.top and toast.y < row.top), \
            (spot, toast.pos)
    finally:
        Window.remove_widget(layer)
