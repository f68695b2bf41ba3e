"""Widgets kept from one refresh to the next, by key, instead of made again.

Game screens redraw from the view after every action by clearing their boxes and adding new widgets. A
Kivy widget costs about a millisecond of UI-thread CPU to make here (its kv rules, bindings and canvas),
several on a tablet; a board of a dozen buttons made again on every tap was the largest part of the
slowest frames left (`bench/frames.py --stall`). With `Keep`, a refresh asks for the widget of a key:
the same widget as last time comes back, taken out of its old parent, its text updated if that alone
changed (drawn again only then); any other change makes a new widget. `on_release` is called through
the widget, so the callback may change from one refresh to the next. `built` keeps a whole group (a
player's row) while what it shows is unchanged, and builds it again when anything in it changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

W = TypeVar("W")


def _tap(widget: Any) -> None:
    fn = getattr(widget, "_keep_tap", None)
    if fn is not None:
        fn()


class Keep:
    def __init__(self) -> None:
        self._widgets: dict[str, Any] = {}
        self._built: dict[str, tuple[Any, Any]] = {}
        self.made = 0

    def get(self, cls: type[W], key: str, on_release: Callable[[], Any] | None = None, **props: Any) -> W:
        """The widget for `key`: last refresh's, with its text updated in place, when it has the same class and
        the same other properties; else a new `cls(**props)`. (Only the text is set in place: a kv rule that
        overrides a base rule's property keeps both bindings, so changing, say, `selected` later would let
        the base rule's colour win over the subclass's.)"""
        widget = self._widgets.get(key)
        same = (widget is not None and type(widget) is cls and widget._keep_props == props.keys()
                and all(getattr(widget, k) == v for k, v in props.items() if k != "text"))
        if not same:
            widget = cls(**props)
            self.made += 1
            if hasattr(widget, "on_release"):
                widget.bind(on_release=_tap)
            self._widgets[key] = widget
        else:
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            if "text" in props and widget.text != props["text"]:
                widget.text = props["text"]
        widget._keep_props = set(props)
        widget._keep_tap = on_release
        return widget  # type: ignore[no-any-return]

    def built(self, key: str, shown: Any, build: Callable[[], W]) -> W:
        """What `build()` made for `key` last time if `shown` (everything it shows and does; hashable or
        comparable) is the same, taken out of its old parent; else `build()` now."""
        kept = self._built.get(key)
        if kept is not None and kept[0] == shown:
            widget = kept[1]
            if widget.parent is not None:
                widget.parent.remove_widget(widget)
            return widget  # type: ignore[no-any-return]
        widget = build()
        self.made += 1
        self._built[key] = (shown, widget)
        return widget

    def clear(self) -> None:
        """Forget every widget (a new game: other keys)."""
        self._widgets.clear()
        self._built.clear()
