"""Modal confirmation and the toast banner. Texts come from the caller (already translated)."""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from kiosk.widgets import marks
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.text_box import drawn_text_box, overlap
from kiosk.widgets.theme import BODY, PANEL, TEXT, Panel, TButton


class ConfirmDialog(OneUse):
    """Yes/no with an optional timeout (no answer → no). Final actions go through it. `ConfirmDialog.ask` opens
    one made earlier and closed since, its words changed in place: a dialog made anew cost 10-20 ms of
    UI-thread CPU here (its widgets, kv rules and three texts drawn) on top of the frame that asked.

    One question at a time: a question asked while another is on show replaces it, the old one cancelled
    (`on_cancel`, else its no): stacked, the guests answered the top one and the one under it waited, alive,
    for an answer to a question nobody remembered (bench/frames.py: three on top of each other). A frontend
    that must not replace what is on show asks `showing()` first (kiosk/voice.py)."""

    _made: list[ConfirmDialog] = []  # every dialog `ask` made; a closed one is asked again
    reused = True  # (kiosk.widgets.one_use)

    def __init__(self, text: str, yes: str, no: str, on_yes: Callable[[], None],
                 on_no: Callable[[], None] | None = None, timeout: float = 0.0, danger: bool = False,
                 on_cancel: Callable[[], None] | None = None) -> None:
        super().__init__(size_hint=(0.6, None), height=dp(300), auto_dismiss=False,
                         background_color=(0, 0, 0, 0.6), background="")
        box = Panel(orientation="vertical", bg=PANEL)
        self.message = Label(color=TEXT, font_size=BODY, halign="center", valign="middle")
        self.message.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(20), None)))
        box.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(16))
        self.no_button = TButton(kind="normal", test_id="confirm_no")
        self.yes_button = TButton(test_id="confirm_yes")
        self.no_button.bind(on_release=lambda *_: self._answer(False))
        self.yes_button.bind(on_release=lambda *_: self._answer(True))
        row.add_widget(self.no_button)
        row.add_widget(self.yes_button)
        box.add_widget(row)
        self.add_widget(box)
        self._timer: Any = None
        self.under: Any = None
        self.words(text, yes, no, on_yes, on_no, timeout, danger, on_cancel)

    def words(self, text: str, yes: str, no: str, on_yes: Callable[[], None],
              on_no: Callable[[], None] | None = None, timeout: float = 0.0, danger: bool = False,
              on_cancel: Callable[[], None] | None = None) -> None:
        """What the dialog asks and does on each answer (texts drawn again only where they changed);
        `on_cancel`: when another question replaces it (default: as no)."""
        self.asked = getattr(self, "asked", 0) + 1  # which question (a kept dialog asks many)
        self._answered = False
        self.message.text, self.yes_button.text, self.no_button.text = text, yes, no
        self.yes_button.kind = "danger" if danger else "primary"
        self._on_yes, self._on_no, self._on_cancel = on_yes, on_no, on_cancel or on_no
        self._timer = Clock.schedule_once(lambda dt: self._answer(False), timeout) if timeout > 0 else None

    @classmethod
    def showing(cls) -> ConfirmDialog | None:
        """The question on show (not one fading out after its answer)."""
        return next((d for d in cls._made if d._is_open and not d.closing), None)

    @classmethod
    def ask(cls, text: str, yes: str, no: str, on_yes: Callable[[], None],
            on_no: Callable[[], None] | None = None, timeout: float = 0.0, danger: bool = False,
            on_cancel: Callable[[], None] | None = None) -> ConfirmDialog:
        """The question, opened: in a closed dialog made earlier when there is one, else in a new one. The
        question on show is cancelled first and closed at once, so its dialog asks this one."""
        shown = cls.showing()
        if shown is not None:
            shown._answer(None)
        for dlg in cls._made:
            if not dlg._is_open:
                dlg.words(text, yes, no, on_yes, on_no, timeout, danger, on_cancel)
                break
        else:
            dlg = cls(text, yes, no, on_yes, on_no, timeout, danger, on_cancel)
            cls._made.append(dlg)
        dlg.open()
        return dlg

    def open(self, *args: Any, **kw: Any) -> None:
        if not self._is_open:  # (a dialog on show or fading out is not opened again)
            # a fade still running from its last showing (closed at once by the next question) would set its alpha
            # back to 0 under the new fade-in, and Kivy closes a modal whose alpha reaches 0
            Animation.cancel_all(self, "_anim_alpha")
        super().open(*args, **kw)

    def _answer(self, yes: bool | None) -> None:
        """Yes, no, or None: cancelled by the next question (closed without its fade: its dialog is asked
        again at once)."""
        fn = self._on_yes if yes else self._on_no if yes is False else self._on_cancel
        self._answered = True
        self.dismiss(animation=yes is not None)
        if fn is not None:
            fn()

    def withdraw(self) -> None:
        """Taken back by whoever asked, answered another way (voice's 네 said): closed at once, no callback."""
        self._answered = True
        self.dismiss(animation=False)

    def dismiss(self, *args: Any, **kw: Any) -> None:
        """Closed by another path than an answer (the turnover's `dismiss_dialogs`, the recovery after an error, a
        game screen going away): cancelled as by the next question, so whoever asked does not wait for good (the
        idle check kept `asking` and never asked again)."""
        cancel = self._on_cancel if self._is_open and not self.closing and not self._answered else None
        super().dismiss(*args, **kw)
        if cancel is not None:
            cancel()

    def on_dismiss(self) -> None:
        """Closed (answered, or by whoever opened it): nothing of the question is kept (a closed dialog must
        not keep the last game's screen alive through its callbacks)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._on_yes, self._on_no, self._on_cancel = (lambda: None), None, None
        self.under = None  # a hand-over the question sat on (kiosk.hosting)


def for_one_on_show() -> str:
    """Whose is the topmost dialog on show that one person answers, else "": "private" (a seat's hand-over: one
    guest looks at their secret) or "staff" (the staff PIN pad), as its class says in `for_one`. A shared channel
    (voice) puts no question over it: another guest could answer it, or it would cover the secret's "hide"."""
    from kivy.core.window import Window

    return next((w.for_one for w in Window.children if isinstance(w, OneUse) and w.for_one and not w.closing), "")


def _targets(skip: Widget | None = None) -> list[tuple[tuple[float, float, float, float], int]]:
    """Window boxes on show (the current screen and bars, or the top dialog; the keyboard), `skip` (the toast itself)
    aside, each with what it is (kiosk.widgets.marks): a control, a text marked `keep_clear` (a whose-turn line) or a
    hidden secret's, or any other text. One walk for the toast's three searches (a walk each was 4-5 ms of UI-thread
    CPU here)."""
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.screenmanager import ScreenManager

    out: list[tuple[tuple[float, float, float, float], int]] = []
    for top in Window.children:  # from the top down
        _visit(top, True, False, (skip, ScreenManager, (ButtonBehavior, TextInput)), out)
        if isinstance(top, OneUse) and not top.closing:  # a kiosk dialog on show (not fading out): what it covers is
            break  # neither tapped nor read, only the dialog counts (under the keyboard, another modal: everything)
    return out


def _visit(w: Widget, shown: bool, held: bool, how: tuple[Any, ...],
           out: list[tuple[tuple[float, float, float, float], int]]) -> None:
    """`_targets`' walk; `how`: (the widget skipped, ScreenManager, the control classes). A function of the module:
    a closure calling itself is a cycle (through its own cell), garbage at every toast, one a voice command."""
    skip, screen_manager, controls = how
    held = held or marks.reserved(w)  # a secret hidden until held: its words count, and first
    shown = shown and (w.opacity > 0.01 or held)
    if isinstance(w, screen_manager):
        if w.current_screen is not None:
            _visit(w.current_screen, shown, False, how, out)
        return
    if w is skip:
        return
    if shown and w.width > 1:
        texts = isinstance(w, (Label, TextInput)) and bool(w.text.strip() or getattr(w, "hint_text", ""))
        words = texts or marks.draws_cells(w)
        kind = (_CONTROL if (isinstance(w, controls) or marks.takes_touch(w))
                and not w.disabled
                else _MARKED if marks.keep_clear(w) or (held and words)
                else _WORDS if words else 0)
        box = drawn_text_box(w) if kind != _CONTROL and texts else None
        if kind and box is not None:  # its words as drawn (a label's box is often far larger: a status line,
            out.append((box, kind))  # a secret's box that is most of the panel); a greyed field's hint
        elif kind:
            x, y = w.to_window(w.x, w.y)
            out.append(((x, y, x + w.width, y + w.height), kind))
    for child in w.children:
        _visit(child, shown, held, how, out)


_CONTROL, _MARKED, _WORDS = 1, 2, 4
_ALL = _CONTROL | _MARKED | _WORDS


def free_spot(boxes: list[tuple[float, float, float, float]], width: float, height: float, screen_w: float,
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
SETTLE = 0  # its check that what it lies on is still free runs every frame while it shows (Toast._keep_clear)


class Toast(Label):
    """A short message placed where it covers no control (searched from the top down); also kept as
    `last_text` for tests and staff logs."""

    def __init__(self, **kw: object) -> None:
        super().__init__(size_hint=(None, None), color=TEXT, font_size=BODY, halign="center",
                         valign="middle", opacity=0, **kw)
        self.last_text = ""
        self._kinds = 0  # what the spot it is in was free of (_CONTROL | _MARKED | _WORDS)
        self._seen = 0  # the screen's boxes it was last checked against (a hash)
        with self.canvas.before:
            from kivy.graphics import Color, RoundedRectangle
            Color(0, 0, 0, 0.82)
            self._bg = RoundedRectangle(radius=[dp(16)])
        self.bind(pos=self._sync, size=self._sync)

    def _sync(self, *_: object) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size

    def show(self, text: str, seconds: float = 3.5) -> None:
        self.last_text = text
        self.text = text
        self._place(_targets(skip=self))
        self._over_all()
        Animation.cancel_all(self)
        self.opacity = 1
        Clock.unschedule(self._fade)
        Clock.schedule_once(self._fade, seconds)
        Clock.unschedule(self._keep_clear)
        Clock.schedule_interval(self._keep_clear, SETTLE)

    def _place(self, found: list[tuple[tuple[float, float, float, float], int]]) -> None:
        from kivy.core.window import Window

        spot = None
        heights: dict[float, float] = {}  # the text's height at each width, laid out once
        # over no text and no control if there is room; else over no control and no text marked keep_clear;
        # else over no control
        for kinds in (_ALL, _CONTROL | _MARKED, _CONTROL):
            boxes = [box for box, kind in found if kind & kinds]
            for width in WIDTHS:  # narrower (more lines) until it fits somewhere free
                width = min(width, Window.width - dp(16))
                if width not in heights:
                    self.text_size = (width - dp(40), None)
                    self.texture_update()
                    heights[width] = self.texture_size[1] + PAD_Y
                spot = free_spot(boxes, width, heights[width], Window.width, Window.height)
                if spot is not None:
                    self.text_size = (width - dp(40), None)
                    self.size = (width, heights[width])
                    self._kinds = kinds
                    break
            if spot is not None:
                break
        if spot is None:  # a screen full of controls: the top edge (a toast takes no touch and goes by itself)
            width = min(dp(800), Window.width - dp(16))
            self.text_size = (width - dp(40), None)
            self.texture_update()
            self.size = (width, self.texture_size[1] + PAD_Y)
            spot = ((Window.width - self.width) / 2, Window.height - self.height - dp(8))
            self._kinds = 0
        self.pos = spot

    def _keep_clear(self, *_: object) -> bool:
        """While it shows: placed in the frame of the event that called it, it may find the screen changed under it
        a frame later (the whose-turn line redrawn longer, a screen's layout settling): then it moves to where it
        covers nothing again; placed over text for want of room, it looks again once the screen changed (another
        screen opened under it: it lay over the attract title). Stops once faded."""
        if self.opacity <= 0.01 or self.parent is None:
            return False
        mine = (self.x, self.y, self.right, self.top)
        found = _targets(skip=self)
        seen = hash(tuple(found))
        if any(kind & self._kinds and overlap(box, mine) for box, kind in found) or (
                seen != self._seen and self._kinds != _ALL and any(overlap(box, mine) for box, _ in found)):
            self._place(found)
        self._seen = seen
        return True

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
