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


def test_a_button_changes_its_own_state_in_place_styled_as_new(driver) -> None:
    """TButton declares what may change in place (text, disabled, why, selected, kind): its kv rule alone
    derives the colours from them, so a kept button looks exactly as a new one."""
    from kiosk.widgets.keep import Keep
    from kiosk.widgets.theme import TButton

    keep = Keep()
    a = keep.get(TButton, "b", text="하나", selected=True, kind="primary", disabled=True)
    b = keep.get(TButton, "b", text="하나", selected=False, kind="danger", disabled=False)
    assert b is a and not b.selected and not b.disabled and keep.made == 1
    fresh = TButton(text="하나", selected=False, kind="danger", disabled=False)
    assert list(b.color) == list(fresh.color) and list(b.bg) == list(fresh.bg) and b.opacity == fresh.opacity
    assert keep.get(TButton, "b", text="하나", selected=False, kind="danger", disabled=False, height=90) is not b


def test_any_other_change_makes_a_new_widget_styled_as_new(driver) -> None:
    """A TButton-based tile with its own kv colours, whose `selected` changed, is made again: set in place, the
    base rule's colour would win over the tile's own (light text on a paper card, 1.1:1)."""
    from kiosk.games.watson_holmes.tiles import WhTile
    from kiosk.widgets.keep import Keep

    keep = Keep()
    a = keep.get(WhTile, "b", text="하나", selected=True)
    b = keep.get(WhTile, "b", text="하나", selected=False)
    assert b is not a and not b.selected
    fresh = WhTile(text="하나", selected=False)
    assert list(b.color) == list(fresh.color) and list(b.bg) == list(fresh.bg)
    assert keep.get(WhTile, "b", text="하나") is not b  # a property no longer given: new as well


def test_fill_touches_a_box_only_when_its_children_changed(driver) -> None:
    """A redraw through Fill gives the box the same widgets; an unchanged panel keeps its children list (no
    new layout), a changed one gets exactly what the latest redraw described, in order."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.widget import Widget

    from kiosk.widgets.keep import Fill, Keep
    from kiosk.widgets.theme import TButton, TLabel

    keep, box, taps = Keep(), BoxLayout(), []

    def redraw(title: str, with_row: bool, n: int) -> list:
        with Fill(keep, box, "p") as f:
            f.add(TLabel, text=title)
            if with_row:
                with f.box_of(BoxLayout, "row") as row:
                    for i in range(n):
                        row.add(TButton, on_release=lambda i=i: taps.append(i), text=str(i), test_id=f"b{i}")
            f.add(Widget)
        return list(box.children)

    first = redraw("제목", True, 2)
    children_list = box.children
    again = redraw("제목", True, 2)
    assert again == first and box.children is children_list and keep.made == 5
    row = box.children[1]
    assert [w.text for w in reversed(row.children)] == ["0", "1"]
    redraw("새 제목", True, 3)
    assert box.children[-1].text == "새 제목" and box.children[-1] is first[-1]  # text changed in place
    assert [w.test_id for w in reversed(box.children[1].children)] == ["b0", "b1", "b2"]
    box.children[1].children[0].dispatch("on_release")
    assert taps == [2]
    redraw("새 제목", False, 0)
    assert len(box.children) == 2 and isinstance(box.children[0], Widget)


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


def test_what_a_keep_replaces_is_handed_on_once_but_never_a_shelfs(driver) -> None:
    """A widget or group replaced (another class or other fixed properties; `built` with something else shown) or
    forgotten by `clear` goes to `on_drop` (kiosk/gc_policy.py takes it apart in a pause): nobody shows it again.
    A widget kept in place, or lent by a Shelf (the next Clue screen borrows it again), never does."""
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.widgets.keep import Keep, Shelf
    from kiosk.widgets.theme import TButton

    dropped: list = []
    keep = Keep(on_drop=lambda w, k: dropped.append((w, k)))
    a = keep.get(TButton, "a", text="하나")
    assert keep.get(TButton, "a", text="둘") is a and dropped == []  # changed in place
    a2 = keep.get(TButton, "a", text="둘", height=90)
    assert a2 is not a and dropped == [(a, keep)]
    g1 = keep.built("g", shown=1, build=BoxLayout)
    assert keep.built("g", shown=1, build=BoxLayout) is g1 and len(dropped) == 1
    g2 = keep.built("g", shown=2, build=BoxLayout)
    assert g2 is not g1 and dropped[-1] == (g1, keep)
    shelf, lender = Shelf(), Keep()
    assert not shelf.lend(lender, "turn", made_for="ko")  # none yet: the screen makes them ahead, then shelves
    lent = lender.get(TButton, "turn/roll", text="굴리기")
    shelf.store(lender, "turn", made_for="ko")
    assert shelf.lend(keep, "turn", made_for="ko")
    roll = keep.get(TButton, "turn/roll", text="굴리기", height=90)  # replaced here: the shelf still lends it
    assert all(w is not lent for w, _ in dropped)
    dropped.clear()
    keep.clear()
    assert sorted(id(w) for w, _ in dropped) == sorted(map(id, (a2, g2, roll)))  # the shelf's `lent` not among them


def test_a_new_widget_is_made_at_the_width_its_column_or_grid_gives_it(driver) -> None:
    """A widget a Fill makes in a laid-out column (a vertical box, a scroll view), a grid of equal columns, or a
    box made so itself, is made at the width the layout will give it: its words drawn once, at that width (made at
    Kivy's 100 px and laid out after, they were drawn twice in the frame: bench/frames.py). A row's shares are left to
    the row. Fails on the code before session 21 (every new widget at 100 px)."""
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from kiosk.widgets.keep import Fill, Keep
    from kiosk.widgets.theme import FitGrid, TButton, TLabel

    column = BoxLayout(orientation="vertical", padding=(20, 0, 30, 0), size_hint=(None, None), size=(900, 600))
    Window.add_widget(column)
    drawn: dict[int, list[float]] = {}
    real = Label.texture_update

    def texture_update(self, *args) -> None:  # named as Kivy's weak methods look it up
        drawn.setdefault(id(self), []).append(self.text_size[0])
        real(self, *args)

    Label.texture_update = texture_update
    try:
        keep = Keep()
        with Fill(keep, column, "c") as f:
            line = f.add(TLabel, text="한 줄의 긴 안내 문장입니다")
            with f.box_of(FitGrid, "grid", cols=3, spacing=(10, 10), padding=(5, 0, 5, 0)) as grid:
                cells = [grid.add(TButton, text=f"칸 {i}", test_id=f"cell{i}") for i in range(3)]
            with f.box_of(BoxLayout, "row", size_hint_y=None, height=80) as row:
                shared = row.add(TButton, text="나눔")
        scroll = ScrollView(do_scroll_x=False, size_hint=(None, None), size=(400, 300))
        column.add_widget(scroll)
        with Fill(keep, scroll, "s") as s:
            inside = s.add(BoxLayout, "in", orientation="vertical", size_hint_y=None)
        assert line.width == 850 and inside.width == 400
        assert [c.width for c in cells] == [(840 - 20) / 3] * 3
        assert shared.width == 100  # a row's shares: its layout's to give
        for _ in range(3):
            driver.pump(1)
        assert line.width == 850 and [c.width for c in cells] == [(840 - 20) / 3] * 3  # as laid out
        assert [len(drawn[id(w)]) for w in (line, *cells)] == [1, 1, 1, 1]  # each drawn once
    finally:
        Label.texture_update = real
        Window.remove_widget(column)
