"""The toast: a short message that covers nothing on the screen.

Where it goes: where it covers no control and no text (searched from the top down, centred first); where the screen
has no such place, the screen makes one: the toast lane, a strip under the screens (as the caption strip, zero-high
until a toast needs it) opens, the screen lays out above it, and the toast sits in it until it fades. Only when the
lane is not free (a dialog or the keyboard, drawn over the screens, reaches down into it) does it fall back to a
place over no control and no text marked keep_clear, else over no control. It is placed a frame after it was asked
for, once the screen the event changed has laid out (`Toast._appear`). While it shows, in every frame with a change
besides its own, once the frame is laid out and before it is drawn, it checks that what it lies on is still free;
and it belongs to the screen on show when it came (as narration does, kiosk/narration_scope.py): the screen changing
takes it off at once, it never lies over the next screen's words."""

from __future__ import annotations

import bisect
import math
import weakref
from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from kiosk.widgets import marks
from kiosk.widgets.fingers import watch, when_lifted
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.text_box import drawn_text_box, overlap
from kiosk.widgets.theme import BODY, TEXT

Box = tuple[float, float, float, float]


def _targets(skip: Widget | None = None, home: Widget | None = None) -> list[tuple[Box, int]]:
    """Window boxes on show (the current screen and bars, or the top dialog; the keyboard), `skip` (the toast itself)
    aside, each with what it is (kiosk.widgets.marks): a control, a text marked `keep_clear` (a whose-turn line) or a
    hidden secret's, or any other text; `_OVER` added for what is not in `home` (the window's child holding the
    screens: a dialog, the keyboard). Each box is cut to what its scroll views let show (a text scrolled out of view
    is nothing to cover). One walk for the toast's searches (a walk each was 4-5 ms of UI-thread CPU here)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.screenmanager import ScreenManager
    from kivy.uix.stencilview import StencilView

    out: list[tuple[Box, int]] = []
    for top in Window.children:  # from the top down
        over = 0 if top is home else _OVER
        _visit(top, True, False, None, (0.0, 0.0),
               (skip, ScreenManager, (ButtonBehavior, TextInput), over, StencilView), out)
        if isinstance(top, OneUse) and not top.closing:  # a kiosk dialog on show (not fading out): what it covers is
            break  # neither tapped nor read, only the dialog counts (under the keyboard, another modal: everything)
    return out


def _inside(w: Widget, off: tuple[float, float] | None) -> tuple[float, float] | None:
    """What `off` is for `w`'s children: the window offset of `w`'s own coordinates, when `w` moves its children
    only by a translation (a RelativeLayout, a Screen, a scroll view; most widgets move them not at all); else None.
    A walk of the window's widgets called `to_window` (up to the window) for each: a third of its time."""
    if off is None or type(w).to_parent is _TO_PARENT:
        return off
    x0, y0 = w.to_parent(0.0, 0.0)
    if w.to_parent(1.0, 0.0) != (x0 + 1.0, y0) or w.to_parent(0.0, 1.0) != (x0, y0 + 1.0):
        return None  # scaled or turned (a Scatter): each widget's own `to_window`
    return off[0] + x0, off[1] + y0


_TO_PARENT = Widget.to_parent


def _visit(w: Widget, shown: bool, held: bool, clip: Box | None, off: tuple[float, float] | None,
           how: tuple[Any, ...], out: list[tuple[Box, int]]) -> None:
    """`_targets`' walk; `clip`: what the scroll views around `w` let show (None: all); `off`: the window offset of
    the coordinates `w` is placed in (None: not a translation, `to_window` asked); `how`: (the widget skipped,
    ScreenManager, the control classes, _OVER or 0, StencilView). A function of the module: a closure calling itself
    is a cycle (through its own cell), garbage at every toast, one a voice command."""
    skip, screen_manager, controls, over, stencil = how
    held = held or marks.reserved(w)  # a secret hidden until held: its words count, and first
    shown = shown and (w.opacity > 0.01 or held)
    if isinstance(w, screen_manager):
        screen = w.current_screen
        if screen is not None:
            _visit(screen, shown, False, clip, _inside(w, off) if screen.parent is w else None, how, out)
        return
    if w is skip:
        return
    at = None  # where `w` is in the window
    if shown and w.width > 1:
        texts = isinstance(w, (Label, TextInput)) and bool(w.text.strip() or getattr(w, "hint_text", ""))
        words = texts or marks.draws_cells(w)
        kind = (_CONTROL if (isinstance(w, controls) or marks.takes_touch(w))
                and not w.disabled
                else _MARKED if marks.keep_clear(w) or (held and words)
                else _WORDS if words else 0)
        if kind:
            at = w.to_window(w.x, w.y) if off is None else (w.x + off[0], w.y + off[1])
        # its words as drawn (a label's box is often far larger: a status line, a secret's box that is most of the
        # panel; a greyed field's hint), else its box
        box = drawn_text_box(w, at) if kind and kind != _CONTROL and texts else None
        if kind and box is None and at is not None:
            box = (at[0], at[1], at[0] + w.width, at[1] + w.height)
        if box is not None and clip is not None:
            box = (max(box[0], clip[0]), max(box[1], clip[1]), min(box[2], clip[2]), min(box[3], clip[3]))
        if box is not None and box[2] - box[0] > 1 and box[3] - box[1] > 1:
            out.append((box, kind | over))
    if isinstance(w, stencil):  # a scroll view: its children show inside its box only
        x, y = at or (w.to_window(w.x, w.y) if off is None else (w.x + off[0], w.y + off[1]))
        clip = (x, y, x + w.width, y + w.height) if clip is None else (
            max(x, clip[0]), max(y, clip[1]), min(x + w.width, clip[2]), min(y + w.height, clip[3]))
    if w.children:
        inner = _inside(w, off)
        for child in w.children:
            _visit(child, shown, held, clip, inner, how, out)


def _nothing() -> None:
    """The screen a toast is about when there was none on show."""


_CONTROL, _MARKED, _WORDS = 1, 2, 4
_ALL = _CONTROL | _MARKED | _WORDS
_OVER = 8  # drawn over the screens (a dialog, the keyboard), not in the window's child holding them


def free_spot(boxes: list[Box], width: float, height: float, screen_w: float,
              screen_h: float) -> tuple[float, float] | None:
    """(x, y) of a `width`×`height` box that covers none of `boxes`: from the top of the screen down, centred
    first, then sliding sideways (k steps left before k steps right); None when there is no such place."""
    step = dp(16)
    centre = (screen_w - width) / 2
    k_max = int(centre // step)
    xs = [centre - k * step for k in range(k_max, 0, -1)] + [centre] + [centre + k * step for k in range(1, k_max + 1)]
    mid = len(xs) // 2  # xs[mid] is the centre

    def rank(i: int) -> tuple[int, bool]:
        return abs(i - mid), i > mid

    y = screen_h - height - dp(8)
    while y >= dp(8):
        # x is blocked by a box in this band when bx0 - width < x < bx1: merge those open intervals; the free x are
        # the closed gaps between them, and in each gap the candidate nearest the centre is found by bisection
        # (checking every candidate against every box cost ~40 ms per call here, a toast makes up to 8 calls)
        spans: list[list[float]] = []
        for a, b in sorted((bx0 - width, bx1) for bx0, by0, bx1, by1 in boxes if by0 < y + height and by1 > y):
            if spans and a < spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], b)
            else:
                spans.append([a, b])
        best = -1
        for g0, g1 in zip([-math.inf] + [b for _, b in spans], [a for a, _ in spans] + [math.inf], strict=True):
            lo, hi = bisect.bisect_left(xs, g0), bisect.bisect_right(xs, g1)
            if lo < hi:
                i = mid if lo <= mid < hi else (hi - 1 if hi - 1 < mid else lo)
                if best < 0 or rank(i) < rank(best):
                    best = i
        if best >= 0:
            return xs[best], y
        # lower, the band frees only below the bottom of a box in it (until then it only gains boxes): skip there
        lowest = max(by0 for _, by0, _, by1 in boxes if by0 < y + height and by1 > y) - height
        y -= step
        while y > lowest and y >= dp(8):
            y -= step
    return None


WIDTHS = (dp(800), dp(640), dp(560), dp(480), dp(400), dp(320))  # a toast's widths, widest first
PAD_Y = dp(20)  # above and below its lines together


LANE_MARGIN = dp(8)  # above and below the toast in its lane


class _Extents:
    """A core label's `get_cached_extents` that remembers what each text measured, per font (a toast lays its words out
    at several widths: each layout measured every word again)."""

    LIMIT = 4000  # texts remembered per font before starting afresh (a few hundred toasts' words)

    def __init__(self, core: Any) -> None:
        self.core = core
        self.known: dict[tuple[Any, ...], dict[str, tuple[int, int]]] = {}

    def __call__(self) -> Callable[[str], tuple[int, int]]:
        o = self.core.options  # what the measure depends on (as Kivy's SDL2 text provider's font id, and more)
        font = tuple(o.get(k) for k in ("font_size", "font_name_r", "bold", "italic", "underline", "strikethrough",
                                        "font_hinting", "font_kerning", "font_direction", "font_script_name",
                                        "font_features", "text_language", "font_context", "font_family"))
        known = self.known.setdefault(font, {})
        if len(known) > self.LIMIT:
            known.clear()
        measure = self.core.get_extents

        def extents(text: str) -> tuple[int, int]:
            got = known.get(text)
            if got is None:
                got = known[text] = measure(text)
            return got

        return extents


class Toast(Label):
    """A short message placed where it covers nothing (the module's doc); also kept as `last_text` for tests and
    staff logs. `lane`: the strip under the screens it may open (the bottom child of the screens' column);
    `screen()`: the screen on show."""

    def __init__(self, lane: Widget | None = None, screen: Callable[[], Any] | None = None, **kw: object) -> None:
        watch()
        super().__init__(size_hint=(None, None), color=TEXT, font_size=BODY, halign="center",
                         valign="middle", opacity=0, **kw)
        self.last_text = ""
        self.lane, self.screen = lane, screen
        self._kinds = 0  # what the spot it is in was free of (_CONTROL | _MARKED | _WORDS)
        self._seen = 0  # the screen's boxes it was last checked against (a hash)
        self._about: Callable[[], Any] | None = None  # the screen it is about (a weak reference), from when it appeared
        self._next: tuple[str, float] | None = None  # the text and seconds asked for, shown from the next frame
        self._drawn_by = 0  # Kivy's count of frames drawn (Clock.frames_displayed) from which it may appear
        self._dirty = False  # a frame was drawn with a change besides its own since its last look (`_changed`)
        self._tops: tuple[int, ...] = ()  # the window's other children at its last look (a dialog, the keyboard)
        self._watching = False  # `_drawn` bound to the window's on_draw
        with self.canvas.before:
            from kivy.graphics import Color, RoundedRectangle
            Color(0, 0, 0, 0.82)
            self._bg = RoundedRectangle(radius=[dp(16)])
        self.bind(pos=self._sync, size=self._sync, opacity=self._on_opacity)

    def _sync(self, *_: object) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size

    def _on_opacity(self, _w: object, opacity: float) -> None:
        if opacity <= 0.01:  # faded, or taken off (a turnover, the next game's start): the screen gets its room back
            self._close_lane()

    @property
    def in_lane(self) -> bool:
        return self.lane is not None and self.lane.height > 0

    def show(self, text: str, seconds: float = 3.5) -> None:
        """`text` on show from the next frame (`_appear`); a toast still on show stays as it is until then."""
        self.last_text = text
        self._next = (text, seconds)
        # placed once the frame laying out what the event changed is drawn: this frame (asked from a tap, the clock)
        # or the next one (asked between frames, as a test does)
        self._drawn_by = Clock.frames_displayed + 1
        Clock.unschedule(self._fade)
        Clock.unschedule(self._appear)
        Clock.schedule_once(self._appear, 0)

    def hide(self) -> None:
        """Off at once (no fade), its lane closed; a toast asked for and not yet on show is not shown."""
        self._next = None
        Clock.unschedule(self._appear)
        Animation.cancel_all(self)
        Clock.unschedule(self._fade)
        self.opacity = 0

    def _appear(self, *_: object) -> None:
        """The toast `show` asked for, a frame on: the screen the event changed (a new stage, another screen) has
        laid out and been drawn, so it is placed once, in a frame of its own (placed in the event's frame, it was
        half of a confirm tap's ~28 ms frame on Mr. Jack's table, and placed again a frame later whenever the event
        changed the screen). It is about the screen on show now: a screen change in the same event as the toast, in
        either order, is the screen it is about."""
        if self._next is None:
            return
        if Clock.frames_displayed < self._drawn_by:  # asked between frames: the next one lays the change out
            Clock.schedule_once(self._appear, 0)
            return
        (text, seconds), self._next = self._next, None
        self.text = text
        screen = self.screen() if self.screen is not None else None
        self._about = weakref.ref(screen) if screen is not None else _nothing
        self._over_all()
        self._place(self._look())
        Animation.cancel_all(self)
        self.opacity = 1
        Clock.schedule_once(self._fade, seconds)
        self._watch(True)

    def _home(self) -> Widget | None:
        """The window's child that holds the screens (and the lane)."""
        from kivy.core.window import Window

        w = self.lane
        while w is not None and w.parent is not None and w.parent is not Window:
            w = w.parent
        return w

    def _targets(self) -> list[tuple[Box, int]]:
        return _targets(skip=self, home=self._home())

    def _place(self, found: list[tuple[Box, int]]) -> None:
        from kivy.core.window import Window

        if self.in_lane and self._lane_free(found, self.lane.height if self.lane is not None else 0):
            self._to_lane(found)  # keeps to its lane while it shows (the screen above it laid out for that)
            return
        spot = self._search(found, (_ALL,))  # over no text and no control
        if spot is None and self._to_lane(found):
            return
        self._close_lane()
        if spot is None:  # the lane not free: over no control and no text marked keep_clear; else over no control
            spot = self._search(found, (_CONTROL | _MARKED, _CONTROL))
        if spot is None:  # a screen full of controls: the top edge (a toast takes no touch and goes by itself)
            width = min(dp(800), Window.width - dp(16))
            self.size = (width, self._height(width))
            spot = ((Window.width - self.width) / 2, Window.height - self.height - dp(8))
            self._kinds = 0
        self.pos = spot

    def _search(self, found: list[tuple[Box, int]], tries: tuple[int, ...]) -> tuple[float, float] | None:
        """The first free spot over none of the boxes of `tries`' kinds, each tried at every width (narrower: more
        lines); the toast sized for it."""
        from kivy.core.window import Window

        heights: dict[float, float] = {}  # the text's height at each width, laid out once
        for kinds in tries:
            boxes = [box for box, kind in found if kind & kinds]
            for width in WIDTHS:
                width = min(width, Window.width - dp(16))
                if width not in heights:
                    heights[width] = self._height(width)
                spot = free_spot(boxes, width, heights[width], Window.width, Window.height)
                if spot is not None:
                    self.text_size = (width - dp(40), None)
                    self.size = (width, heights[width])
                    self._kinds = kinds
                    return spot
        return None

    def _height(self, width: float) -> float:
        """Its height at `width`, its text laid out at that width (`text_size` set: the texture follows before the
        frame is drawn). Only laid out, not drawn: `texture_update` at each width tried made a texture for each; and
        each word measured once (`_Extents`: a layout at each width measured them all again, most of a placement's
        UI-thread CPU with many widths tried, get_extents ~9 ms of a voice toast's frame in bench/frames.py)."""
        self.text_size = (width - dp(40), None)
        core = self._label
        if not isinstance(core.__dict__.get("get_cached_extents"), _Extents):
            core.get_cached_extents = _Extents(core)
        core.resolve_font_name()
        height: int = core.render()[1] if core.text else 0
        return height + float(PAD_Y)

    def _lane_free(self, found: list[tuple[Box, int]], height: float) -> bool:
        """No dialog or keyboard (drawn over the screens) reaches into a lane `height` high."""
        from kivy.core.window import Window

        if self.lane is None or self.lane.parent is None:
            return False
        x0, y0 = self.lane.parent.to_window(self.lane.parent.x, self.lane.parent.y)  # the lane: its column's bottom
        lane = (x0, y0, x0 + Window.width, y0 + height)
        return not any(kind & _OVER and overlap(box, lane) for box, kind in found)

    def _to_lane(self, found: list[tuple[Box, int]]) -> bool:
        """In the lane, opened as high as the toast needs, if it is free; else False (nothing changed)."""
        from kivy.core.window import Window

        if self.lane is None or self.lane.parent is None:
            return False
        width = min(WIDTHS[0], Window.width - dp(16))
        height = self._height(width)
        if not self._lane_free(found, height + 2 * LANE_MARGIN):
            return False
        Clock.unschedule(self._close_lane)  # a close waiting for a finger to lift: the lane is the toast's again
        self.lane.height = height + 2 * LANE_MARGIN
        self.size = (width, height)
        _x0, y0 = self.lane.parent.to_window(self.lane.parent.x, self.lane.parent.y)
        self.pos = ((Window.width - width) / 2, y0 + LANE_MARGIN)
        self._kinds = _ALL
        return True

    def _close_lane(self, *_: object) -> None:
        """The screen gets its room back, but never under a finger (kiosk.widgets.fingers)."""
        if self.in_lane and self.lane is not None and when_lifted(self._close_lane):
            self.lane.height = 0

    def _keep_clear(self) -> None:
        """While it shows, in every frame drawn, after the frame's layout and before its drawing (`_drawn`): another
        screen on show than when it came takes it off (it was about that screen; left over, it lay over the next
        screen's list of actions). After a change besides its own (`_changed`: a text redrawn longer, a screen's
        layout settling, a dialog opening), it looks again: over something now it moves to where it covers nothing;
        placed over text for want of room (no lane free), it moves once the screen changed. Looked at a frame later
        (in the clock's tick), the frame with the change was drawn with the toast over the new text. Stops once
        faded."""
        if self._next is not None:  # a new toast appears in the next frame (`_appear`)
            return
        if self.opacity <= 0.01 or self.parent is None:
            self._watch(False)
            return
        lane = self.lane.height if self.lane is not None else 0
        screen = self.screen() if self.screen is not None else None
        if self._about is not None and self._about() is not screen:
            self.hide()
            self._watch(False)
        elif self._changed():
            mine = (self.x, self.y, self.right, self.top)
            found = self._look()
            seen = hash(tuple(found))
            if any(kind & self._kinds and overlap(box, mine) for box, kind in found) or (
                    seen != self._seen and self._kinds != _ALL and any(overlap(box, mine) for box, _ in found)):
                self._place(found)
            self._seen = seen
        if self.lane is not None and self.lane.height != lane:
            # the lane opened or closed: the screen above it is laid out for it before this frame is drawn (its
            # layout would wait for the next frame's tick, this one drawn with the screen under the toast)
            Clock._process_events_before_frame()

    def _look(self) -> list[tuple[Box, int]]:
        """The walk (`_targets`), from which `_changed` counts."""
        self._dirty, self._tops = False, self._others()
        return self._targets()

    def _others(self) -> tuple[int, ...]:
        from kivy.core.window import Window

        return tuple(id(w) for w in Window.children if w is not self)

    def _changed(self) -> bool:
        """Whether what it lies on may have changed since its last look: a frame was drawn with a change in what is on
        show besides itself (anything a guest sees moving, appearing, fading or redrawn changes a canvas, which Kivy
        then flags until drawn), or a dialog or the keyboard came or went. Walking the window's widgets every frame
        was ~1.2-1.4 ms of every frame while a toast showed, frames holding a tap's work too."""
        return self._dirty or self._tops != self._others()

    def _drawn(self, *_: object) -> None:
        """Before a frame is drawn (bound to the window's on_draw while it shows): a change besides its own? Then
        `_keep_clear`."""
        from kivy.core.window import Window

        if not self._dirty:
            self._dirty = any(w.canvas.needs_redraw for w in Window.children if w is not self)
        self._keep_clear()

    def _watch(self, on: bool) -> None:
        from kivy.core.window import Window

        if on != self._watching:
            (Window.fbind if on else Window.funbind)("on_draw", self._drawn)
            self._watching = on

    def _over_all(self) -> None:
        """Drawn over whatever is on show (the window's last child, as the keyboard): under a hand-over (opaque) it
        was never seen (voice's refusal there), under a question dimmed and partly behind its panel. It takes no
        touch; a dialog opened after it is drawn over it."""
        from kivy.core.window import Window

        if self.parent is Window and Window.children[0] is self:
            return
        if self.parent is not None:
            self.parent.remove_widget(self)
        Window.add_widget(self)

    def _fade(self, *_: object) -> None:
        Animation(opacity=0, duration=0.3).start(self)
