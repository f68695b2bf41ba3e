"""kiosk/widgets/keep.py: widgets kept between refreshes show exactly what the latest call describes."""

from __future__ import annotations


def test_a_kept_button_is_the_same_widget_with_its_text_updated(driver) -> None:
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.widgets.keep import Keep
    from kiosk.widgets.theme import TButton

    keep, taps = Keep(), []
    old_box, new_box = BoxLayout(), BoxLayout()
    first = keep.get(TButton, "b", lambda: taps.append(1), text="하나", selected=True)
    old_box.add_widget(first)
    second = keep.get(TButton, "b", lambda: taps.append(2), text="둘", selected=True)
    new_box.add_widget(second)
    assert second is first and keep.made == 1
    assert second.parent is new_box and not old_box.children
    assert second.text == "둘" and second.selected
    second.dispatch("on_release")
    assert taps == [2]  # the latest callback
    assert keep.get(TButton, "c", text="셋") is not first
    keep.clear()
    assert keep.get(TButton, "b", text="둘", selected=True) is not first


def test_any_other_change_makes_a_new_widget_styled_as_new(driver) -> None:
    """A kept TButton-based tile whose `selected` changed is made again: set in place, the base rule's
    colour would win over the tile's own (light text on a paper card, 1.1:1)."""
    from kiosk.widgets.keep import Keep
    from kiosk.widgets.theme import TButton

    keep = Keep()
    a = keep.get(TButton, "b", text="하나", selected=True)
    b = keep.get(TButton, "b", text="하나", selected=False)
    assert b is not a and not b.selected
    fresh = TButton(text="하나", selected=False)
    assert list(b.color) == list(fresh.color) and list(b.bg) == list(fresh.bg)
    assert keep.get(TButton, "b", text="하나") is not b  # a property no longer given: new as well


def test_a_group_is_built_again_only_when_what_it_shows_changed(driver) -> None:
    from kivy.uix.label import Label

    from kiosk.widgets.keep import Keep

    keep = Keep()
    built: list[str] = []

    def row(text: str) -> Label:
        built.append(text)
        return Label(text=text)

    a = keep.built("p0", ("지수", 3), lambda: row("지수 3"))
    assert keep.built("p0", ("지수", 3), lambda: row("지수 3")) is a
    b = keep.built("p0", ("지수", 2), lambda: row("지수 2"))
    assert b is not a and b.text == "지수 2" and built == ["지수 3", "지수 2"]
