"""Widgets kept from one refresh to the next, by key, instead of made again.

Game screens redraw from the view after every action. A Kivy widget costs about a millisecond of UI-thread
CPU to make here (its kv rules, bindings and canvas), several on a tablet, and a label's text is drawn again
whenever it is made anew; a panel of a dozen buttons made again on every tap was the largest part of the
slowest frames (`bench/frames.py --slowest`). With `Keep`, a refresh asks for the widget of a key: the same
widget as last time comes back, the properties its class lets change in place updated (drawn again only
then); any other change makes a new widget. `on_release` is called through the widget, so the callback may
change from one refresh to the next. `built` keeps a whole group (a player's row) while what it shows is
unchanged, and builds it again when anything in it changed. `Fill` lays a box's children out of a `Keep`
in order and touches the box only when that order changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from kivy.uix.widget import Widget

W = TypeVar("W")


class Place(Widget):
    """The place of a control still to be made (a new table's, a part per frame): it takes the control's room, so
    nothing moves when the control comes, and a toast keeps off it as off a control (kiosk.widgets.marks): placed
    over an empty place, a toast sat on the control that came there."""

    takes_touch = True

# What a kept widget may change in place, per class (its own KEEP_IN_PLACE: property → the given properties
# that forbid it). A kv rule that overrides a base rule's property keeps both bindings, so changing, say,
# `selected` on a subclass would let the base rule's colour win over the subclass's: subclasses that do not
# declare their own get only the text changed in place.
TEXT_ONLY: dict[str, tuple[str, ...]] = {"text": ()}


def _tap(widget: Any) -> None:
    fn = getattr(widget, "_keep_tap", None)
    if fn is not None:
        fn()


def _in_place(cls: type, props: dict[str, Any]) -> set[str]:
    rules: dict[str, tuple[str, ...]] = cls.__dict__.get("KEEP_IN_PLACE", TEXT_ONLY)
    return {p for p, blockers in rules.items() if not any(b in props for b in blockers)}


class Keep:
    def __init__(self, on_drop: Callable[[Any, Keep], Any] | None = None) -> None:
        self._widgets: dict[str, Any] = {}
        self._built: dict[str, tuple[Any, Any]] = {}
        self.made = 0
        # `on_drop(widget, self)`: a widget or group held no more (replaced, or the Keep cleared) and not shelved:
        # nobody shows it again (a game's screen passes kiosk/gc_policy.py's `drop`: taken apart in a pause)
        self.on_drop = on_drop

    def _dropped(self, old: Any, new: Any = None) -> None:
        if old is not None and old is not new and self.on_drop is not None and not old.__dict__.get("_shelved"):
            self.on_drop(old, self)

    def get(self, cls: type[W], key: str, on_release: Callable[[], Any] | None = None, **props: Any) -> W:
        """The widget for `key`, taken out of its old parent: last refresh's, with what its class lets change in
        place updated, when it has the same class and the same other properties; else a new `cls(**props)`."""
        return self.widget(cls, key, on_release, props, detach=True)

    def widget(self, cls: type[W], key: str, on_release: Callable[[], Any] | None, props: dict[str, Any],
               detach: bool) -> W:
        widget: Any = self._widgets.get(key)  # a Kivy widget (untyped) carrying what it was made with
        same = type(widget) is cls  # (not narrowed: W says nothing of `_keep_props`)
        if same and widget._keep_props.keys() == props.keys():
            given = widget._keep_props
            in_place = _in_place(cls, props)
            if all(k in in_place or given[k] == v for k, v in props.items()):
                for k in in_place & props.keys():
                    if getattr(widget, k) != props[k]:
                        setattr(widget, k, props[k])
                if detach and widget.parent is not None:
                    widget.parent.remove_widget(widget)
                widget._keep_props = props
                widget._keep_tap = on_release
                return cast(W, widget)
        widget = cls(**props)
        self.made += 1
        if hasattr(widget, "on_release"):
            widget.bind(on_release=_tap)
        self._dropped(self._widgets.get(key))
        self._widgets[key] = widget
        widget._keep_props = props
        widget._keep_tap = on_release
        return cast(W, widget)

    def built(self, key: str, shown: Any, build: Callable[[], W], detach: bool = True) -> W:
        """What `build()` made for `key` last time if `shown` (everything it shows and does; hashable or
        comparable) is the same, taken out of its old parent; else `build()` now."""
        kept = self._built.get(key)
        if kept is not None and kept[0] == shown:
            widget = kept[1]
            if detach and widget.parent is not None:
                widget.parent.remove_widget(widget)
            return widget  # type: ignore[no-any-return]
        widget = build()
        self.made += 1
        self._dropped(kept[1] if kept is not None else None, widget)
        self._built[key] = (shown, widget)
        return widget

    def __contains__(self, key: str) -> bool:
        """Whether a widget or group is kept for `key` (made ahead, or on show)."""
        return self.kept(key) is not None

    def kept(self, key: str) -> Any:
        """The widget or group kept for `key`, None if none."""
        built = self._built.get(key)
        return self._widgets.get(key) if built is None else built[1]

    def widgets(self) -> list[Any]:
        """Every widget kept (on screen or not)."""
        return [*self._widgets.values(), *(w for _, w in self._built.values())]

    def under(self, prefix: str) -> dict[str, Any]:
        """The widgets kept for `prefix` and for the keys under it."""
        return {k: w for k, w in self._widgets.items() if k == prefix or k.startswith(prefix + "/")}

    def adopt(self, widgets: dict[str, Any]) -> None:
        """Keep these widgets (another Keep's, lent by a Shelf) for their keys, as they are."""
        self._widgets.update(widgets)

    def give_back(self, widgets: dict[str, Any]) -> None:
        """Keep these no more (lent by a Shelf: its screen closed; a widget made since for the key stays)."""
        for key, widget in widgets.items():
            if self._widgets.get(key) is widget:
                del self._widgets[key]

    def holds(self) -> set[int]:
        """The ids of every widget kept (on screen or not)."""
        return {id(w) for w in self.widgets()}

    def clear(self) -> None:
        """Forget every widget (a new game: other keys)."""
        for w in self.widgets():
            self._dropped(w)
        self._widgets.clear()
        self._built.clear()


class Fill:
    """A box's children for this redraw, in order, from a `Keep` (None: all made anew). Use as a context
    manager (or call `done()`): the box is given the children only if they differ from what it holds, so an
    unchanged panel is neither laid out nor drawn again. Keys default to the `test_id`, else the position."""

    def __init__(self, keep: Keep | None, box: Any, key: str) -> None:
        self.keep, self.box, self.key = keep, box, key
        self.items: list[Any] = []

    def add(self, cls: type[W], key: str = "", on_release: Callable[[], Any] | None = None, **props: Any) -> W:
        key = f"{self.key}/{key or props.get('test_id') or f'{len(self.items)}.{cls.__name__}'}"
        if self.keep is None:
            widget: Any = cls(**props)
            if on_release is not None:
                widget.bind(on_release=lambda *_: on_release())
            self._size_new(widget)
        else:
            made = self.keep.made
            widget = self.keep.widget(cls, key, on_release, props, detach=False)
            if self.keep.made != made:
                self._size_new(widget)
        self.items.append(widget)
        return widget  # type: ignore[no-any-return]

    def _size_new(self, widget: Any) -> None:
        """A widget just made, at the width its box will give it (a column's width; a grid's cell), when the box's
        own width is known (laid out, or sized so itself): made at Kivy's 100 px and laid out after, its words were
        drawn twice in the frame (bench/frames.py: most of a screen's texts drawn twice). A layout the box does
        otherwise (a row's shares, fixed widths) is left to it."""
        width = _cell_width(self.box, widget)
        if width is not None and width > 0:
            widget.width = width
            widget._keep_sized = True

    def box_of(self, cls: type, key: str = "", **props: Any) -> Fill:
        """A kept container as the next child, and a Fill for its own children (finish it before this one)."""
        key = key or f"{len(self.items)}.{cls.__name__}"
        return Fill(self.keep, self.add(cls, key, **props), f"{self.key}/{key}")

    def built(self, key: str, shown: Any, build: Callable[[], W]) -> W:
        """`Keep.built` as the next child."""
        widget = build() if self.keep is None else self.keep.built(f"{self.key}/{key}", shown, build, detach=False)
        self.items.append(widget)
        return widget

    def add_widget(self, widget: Any) -> None:
        """A widget the caller made (not kept)."""
        self.items.append(widget)

    def done(self) -> None:
        children = self.box.children[::-1]
        if len(children) == len(self.items) and all(a is b for a, b in zip(children, self.items, strict=True)):
            return
        self.box.clear_widgets()
        for widget in self.items:
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            self.box.add_widget(widget)

    def __enter__(self) -> Fill:
        return self

    def __exit__(self, *exc: Any) -> None:
        if exc[0] is None:
            self.done()


def _cell_width(box: Any, widget: Any) -> float | None:
    """The width `box` will lay `widget` out at, if it is a column (a vertical BoxLayout, a ScrollView that scrolls
    up and down) or a grid of equal columns whose width is known; else None."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.gridlayout import GridLayout
    from kivy.uix.scrollview import ScrollView

    hint = widget.size_hint_x
    if isinstance(box, ScrollView) and not box.do_scroll_x and hint is not None and (
            box.parent is not None or box.__dict__.get("_keep_sized")):
        return float(box.width * hint)  # a column that scrolls: its child as wide as it
    column = isinstance(box, BoxLayout) and box.orientation == "vertical"
    grid = (isinstance(box, GridLayout) and box.cols and not box.rows and hint == 1 and not box.cols_minimum
            and not box.col_force_default)
    if not (column or grid) or hint is None or not (box.parent is not None or box.__dict__.get("_keep_sized")):
        return None
    left, _top, right, _bottom = box.padding  # both layouts keep it as four values
    inner = box.width - left - right
    if column:
        return float(inner * hint)
    return float((inner - box.spacing[0] * (box.cols - 1)) / box.cols)


def put(into: Any, cls: type[W], key: str = "", on_release: Callable[[], Any] | None = None, **props: Any) -> W:
    """Add a `cls(**props)` to `into`: a Fill (kept between redraws) or any widget (made anew)."""
    if isinstance(into, Fill):
        return into.add(cls, key, on_release, **props)
    widget: Any = cls(**props)
    if on_release is not None:
        widget.bind(on_release=lambda *_: on_release())
    into.add_widget(widget)
    return widget  # type: ignore[no-any-return]


def box_in(into: Any, cls: type, key: str = "", **props: Any) -> Fill:
    """A container added to `into` (see `put`) and the Fill for its children (use it as a context manager)."""
    if isinstance(into, Fill):
        return into.box_of(cls, key, **props)
    return Fill(None, put(into, cls, **props), "")


class Shelf:
    """Widgets a game's screen made ahead (kept, not yet shown: the buttons a turn shows later), lent to the
    game's next screen instead of made again. Made once per `made_for` (the language): a new table then adds
    no objects for them (each game's made anew was ~10,000 objects for the collector, garbage at its end).
    A screen that closes lets them go: off its widgets, no tap of it kept (they keep no closed screen alive)."""

    def __init__(self) -> None:
        self.made_for: Any = None
        self.groups: dict[str, dict[str, Any]] = {}

    def lend(self, keep: Keep, prefix: str, made_for: Any) -> bool:
        """Into `keep`, the widgets shelved for `prefix` (the group's own widget taken off its parent); False
        when there are none for `made_for`."""
        if made_for != self.made_for:
            self.made_for, self.groups = made_for, {}
        group = self.groups.get(prefix)
        if not group:
            return False
        top = group.get(prefix)
        if top is not None and top.parent is not None:
            top.parent.remove_widget(top)
        keep.adopt(group)
        return True

    def store(self, keep: Keep, prefix: str, made_for: Any) -> None:
        """Shelve what `keep` holds for `prefix` (made ahead just now)."""
        if made_for == self.made_for:
            self.groups[prefix] = keep.under(prefix)
            for w in self.groups[prefix].values():
                w._shelved = True  # lent again later: never taken apart when a Keep lets it go

    def let_go(self, keep: Keep) -> None:
        """The screen that borrowed them (into `keep`) closes: they leave its widgets and its Keep, so what
        takes a closed screen apart (kiosk/widgets/dismantle.py) does not reach them."""
        shelved = [w for group in self.groups.values() for w in group.values()]
        mine = {id(w) for w in shelved}
        for w in shelved:
            w._keep_tap = None
            if w.parent is not None and id(w.parent) not in mine:  # shown in (or moved into) its widgets
                w.parent.remove_widget(w)
        for group in self.groups.values():
            keep.give_back(group)
