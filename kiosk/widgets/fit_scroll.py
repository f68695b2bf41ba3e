"""A tall form (a game's set-up) that scrolls only when the window is too short for it (1024x600: Spyfall's form is
~700 dp tall, its room under the host bar ~500): there it keeps its rows' heights and scrolls, instead of being
squeezed under the host bar. Where it fits it fills the room (its spacers stretch) and does not scroll, so a tap
reaches its button at once (a ScrollView that cannot scroll passes touches straight on). A table laid out by size
hints (no minimum height of its own: Mr. Jack's) gives `min_height`, the height it was designed at. While it scrolls
its content is BAR_CLEAR narrower than the view: the bar, drawn over the content's right edge, covers no control."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.scrollview import ScrollView

from kiosk.widgets.dismantle import take_apart
from kiosk.widgets.theme import BAR_CLEAR


class FitScroll(ScrollView):
    def __init__(self, form: Any = None, min_height: float = 0, **kw: Any) -> None:
        self.min_height = min_height
        super().__init__(do_scroll_x=False, do_scroll_y=False, bar_width=dp(8), scroll_type=["bars", "content"],
                         **kw)
        self.bind(size=self._fit)
        if form is not None:  # (in kv: its one child)
            self.add_widget(form)

    def add_widget(self, widget: Any, *args: Any, **kw: Any) -> None:
        widget.size_hint_y = None
        super().add_widget(widget, *args, **kw)
        widget.bind(minimum_height=self._fit)
        self._fit()

    def remove_widget(self, widget: Any, *args: Any, **kw: Any) -> None:
        widget.unbind(minimum_height=self._fit)  # a kept form goes on to another screen's FitScroll
        widget.size_hint_max_x = None
        super().remove_widget(widget, *args, **kw)
        self.on_parent(self, self.parent)

    def on_parent(self, _w: Any, parent: Any) -> None:
        """Off its screen and empty (a game's set-up gone, its kept form let go): never shown again, so taken apart
        at once, as a closed screen's widgets are (kiosk.widgets.dismantle): its scroll effects, bound to its own
        methods, kept it as cyclic garbage (a closed Spyfall screen left 680 objects to the collector, not 64-154)."""
        if parent is None and not self.children:
            take_apart(self)

    def set_min_height(self, height: float) -> None:
        """Another height the content keeps (it scrolls below it)."""
        if abs(height - self.min_height) > 0.5:
            self.min_height = height
            self._fit()

    def _fit(self, *_: Any) -> None:
        if not self.children:
            return
        form = self.children[0]
        need = max(form.minimum_height, self.min_height)
        form.height = max(need, self.height)
        self.do_scroll_y = need > self.height + 1
        # clear of the bar while it scrolls (narrower, the content only grows taller: it goes on scrolling)
        room = max(self.width - BAR_CLEAR, 0) if self.do_scroll_y else None
        if form.size_hint_max_x != room:
            form.size_hint_max_x = room
            self.update_from_scroll()


class CapScroll(FitScroll):
    """A panel as tall as it needs, but never taller than its parent (a column it shares with something that takes
    the rest: Clue's actions over its board). Past that its content scrolls, instead of the column's box laying it
    out over what is above the column (three lines of the tablet detectives' moves over a suggestion's 12 choices
    covered Clue's status line).

    Its cap follows the column's height, its children (a kept column is cleared and filled again in order: the panel
    comes back before the board, whose spacing it must then count) and its fixed-height siblings' heights, each in
    the same frame as the change."""

    def __init__(self, **kw: Any) -> None:
        self._box: Any = None  # the parent whose height it follows
        self._siblings: list[Any] = []  # its fixed-height siblings, whose heights it follows
        super().__init__(size_hint_y=None, **kw)
        self.bind(parent=self._follow)

    def _follow(self, _w: Any, parent: Any) -> None:
        if self._box is not None:
            self._box.unbind(height=self._fit, children=self._refollow)
        self._box = parent
        if parent is not None:
            parent.bind(height=self._fit, children=self._refollow)
        self._refollow()

    def _refollow(self, *_: Any) -> None:
        for w in self._siblings:
            w.unbind(height=self._fit, size_hint_y=self._fit)
        box = self._box
        self._siblings = [w for w in box.children if w is not self] if box is not None else []
        for w in self._siblings:
            w.bind(height=self._fit, size_hint_y=self._fit)
        self._fit()

    def _fit(self, *_: Any) -> None:
        if self.children:
            need = max(self.children[0].minimum_height, self.min_height)
            self.height = min(need, self._room()) if self.parent is not None else need
        super()._fit()

    def _room(self) -> float:
        """The parent's height less its padding, its spacing and its other children of fixed height."""
        box = self.parent
        others = [w for w in box.children if w is not self]
        pad_y = box.padding[1] + box.padding[3] if hasattr(box, "padding") else 0
        fixed = sum(w.height for w in others if w.size_hint_y is None)
        return float(max(0.0, box.height - pad_y - getattr(box, "spacing", 0) * len(others) - fixed))
