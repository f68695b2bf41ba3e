"""Drive the real kiosk offscreen (no display at all): start the app, find widgets, touch them, wait for
screens, save screenshots. Used by the UI tests and the soak; SDL falls back to its offscreen driver.

Every screen change and screenshot sweeps layout and text, every tap and hold the text (toasts, dialogs): a
particle fallback ("(이)가"), Korean and English mixed in one message, an internal unit or id, or a word the current
game's glossary avoids (kiosk.text_check) lands in `problems`, and the UI fixture fails the test. A test that must
show such text on purpose sets `driver.sweep_text = False`."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kiosk.layout_check import (
    MARKUP_SIZE,
    ancestors,
    covered_targets,
    covered_texts,
    is_shown,
    is_visible,
    overlapping_texts,
    shortened_texts,
    toast_covers,
    under_scroll_bars,
)
from kiosk.widgets import marks  # Kivy-free (Kivy is configured by start_app before its first import)

ARTIFACTS = Path(os.environ.get("TABLEHOST_ARTIFACTS", Path(__file__).resolve().parents[1] / "test-artifacts"))


def start_app(data_dir: Path, clock: Callable[[], float] = time.time) -> Any:
    """Configure Kivy for headless rendering, create the Window, build and start the app (not its loop)."""
    os.environ["TABLEHOST_DATA"] = str(data_dir)
    # a test or bench kiosk has the PIN an install sets (TABLEHOST_PIN), 0000, unless its caller set one ("": none,
    # the first start's question, kiosk/screens/pin.py)
    os.environ.setdefault("TABLEHOST_PIN", "0000")
    from kiosk import env

    env.configure(headless=True)
    env.apply_config()
    import kivy.core.window  # noqa: F401  (the Window must exist before any texture or label)
    from kivy.base import EventLoop

    from kiosk.app import TableHostApp
    from kiosk.typeface import register_fonts

    register_fonts()
    app = TableHostApp(data_dir=data_dir, clock=clock)
    app._run_prepare()  # build + window, without entering the blocking loop
    EventLoop.idle()
    return app


def wait_main_loop(proc: Any, log_files: Callable[[], list[Path]], timeout: float = 60) -> None:
    """Wait until a `tablehost run` child has logged Kivy's "Start application main loop"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any("Start application main loop" in p.read_text(errors="replace") for p in log_files()):
            return
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        time.sleep(0.3)
    raise AssertionError(f"the kiosk did not reach its main loop within {timeout:.0f} s")


def stop_voice(app: Any) -> None:
    """Take a test's voice bridge (app.start_voice(controller=…)) out again: stopped, its mic bar off the screen."""
    app.voice.stop()
    if app.voice.bar.parent is not None:
        app.voice.bar.parent.remove_widget(app.voice.bar)
    app.voice = None


class Driver:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.problems: list[str] = []  # layout and text faults found on the screens this driver visited
        self.sweep_text = True

    def sweep(self, where: str) -> list[str]:
        """Checks run on every screen a UI test visits (each screenshot and screen change): no control is
        covered by another widget or a scrolling list's bar, no label is cut off or shortened with an ellipsis, no
        text drawn over another, no text below the type scale's floor, no touch target below TOUCH_MIN
        (kiosk.widgets.theme) and no toast over a text or a control. Faults are kept in `problems`; the UI fixture fails the test on any."""
        found = [f"{where}: {p}" for p in (*self.covered_targets(), *self.overflowing_labels(),
                                            *self.shortened_texts(), *self.text_problems(),
                                            *(f"small text {t}" for t in self.small_text()),
                                            *(f"low contrast {t}" for t in self.low_contrast()),
                                            *(f"small target {t}" for t in self.small_targets()),
                                            *self.overlapping_texts(), *self.covered_texts(), *self.toast_covers())]
        self.problems.extend(p for p in found if p not in self.problems)
        return found

    def sweep_texts(self, where: str) -> None:
        """The text part of the sweep alone (after a tap or a hold: toasts and dialogs come and go)."""
        found = [f"{where}: {p}" for p in self.text_problems()]
        self.problems.extend(p for p in found if p not in self.problems)

    # -- what guests read
    def game_on_screen(self) -> str:
        """The game whose screen (game page, host, teaching) is showing, or ""."""
        screen = getattr(getattr(self.app, "sm", None), "current_screen", None)
        return str(getattr(screen, "game_id", "") or "")

    def text_problems(self) -> list[str]:
        """Visible texts no guest should read, each with why (kiosk.text_check); none when sweep_text is off."""
        if not self.sweep_text:
            return []
        from kiosk.text_check import problems

        game, lang = self.game_on_screen(), str(getattr(self.app, "lang", "ko"))
        staff = getattr(getattr(self.app, "sm", None), "current", "") == "staff"
        texts = [t for t in self.texts() if isinstance(t, str)]  # a widget may have a text() method
        return [f"text {text[:70]!r}: {', '.join(why)}" for text in dict.fromkeys(texts)
                if (why := problems(text, game, lang, guests=not staff))]

    # -- the loop
    def pump(self, frames: int = 3) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(1)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(1)
            if predicate():
                return
        raise AssertionError(f"condition not reached in time (screen {self.app.sm.current}, "
                             f"transition active {self.app.sm.transition.is_active}, "
                             f"windows {[type(w).__name__ for w in self.roots()]})")

    def wait_screen(self, name: str, timeout: float = 20.0) -> None:
        self.wait_for(lambda: self.app.sm.current == name and self.app.sm.transition.is_active is False,
                      timeout)
        self.pump(4)
        self.sweep(f"screen {name}")

    # -- finding widgets
    def roots(self) -> list[Any]:
        from kivy.core.window import Window

        return list(Window.children)

    def walk(self) -> Iterator[Any]:
        """Every widget on screen: open dialogs first (they are on top), then the current screen."""
        from kivy.uix.screenmanager import ScreenManager

        for root in self.roots():
            yield from self._walk(root, ScreenManager)

    def _walk(self, widget: Any, sm_cls: Any) -> Iterator[Any]:
        yield widget
        if isinstance(widget, sm_cls):
            if widget.current_screen is not None:
                yield from self._walk(widget.current_screen, sm_cls)
            return
        for child in widget.children:
            yield from self._walk(child, sm_cls)

    def find(self, test_id: str) -> Any:
        found = self.find_all(test_id)
        if not found:
            known = sorted({w.test_id for w in self.walk() if getattr(w, "test_id", "")})
            raise AssertionError(f"no widget {test_id!r} on screen; visible ids: {known}")
        return found[0]

    def drawn(self) -> Iterator[Any]:
        """The cells widgets draw on their own canvas (kiosk/widgets/drawn.py), as a guest sees them."""
        for w in self.walk():
            if marks.draws_cells(w) and is_visible(w):
                yield from w.drawn_cells()

    def find_all(self, test_id: str) -> list[Any]:
        found = [w for w in self.walk() if getattr(w, "test_id", None) == test_id]
        return found + [c for c in self.drawn() if c.test_id == test_id]

    def texts(self) -> list[str]:
        return [w.text for w in self.walk() if getattr(w, "text", "") and getattr(w, "opacity", 1) > 0] + [
            c.text for c in self.drawn() if c.text]

    # -- touch
    def _touch(self, widget: Any) -> Any:
        from kivy.tests.common import UnitTestTouch

        x, y = widget.to_window(*widget.center)
        return UnitTestTouch(x, y)

    def tap(self, target: Any, frames: int = 4) -> None:
        widget = self.find(target) if isinstance(target, str) else target
        assert not widget.disabled, f"{getattr(widget, 'test_id', widget)} is disabled"
        self.scroll_into_view(widget)
        touch = self._touch(widget)
        touch.touch_down()
        self.pump(1)
        touch.touch_up()
        self.pump(frames)
        from table.pin import CHECKS

        if CHECKS.running:  # a PIN being checked on its worker thread: the guest waits for the answer too
            self.wait_for(lambda: not CHECKS.running)
        self.sweep_texts(f"after tapping {target if isinstance(target, str) else getattr(widget, 'test_id', '')!r}")

    def scroll_into_view(self, widget: Any) -> None:
        """Scroll the scroll views around `widget` until its centre shows, as a guest scrolls a form that is taller
        than a small window (kiosk.widgets.fit_scroll) before tapping what is below."""
        from kivy.uix.scrollview import ScrollView

        for sv in ancestors(getattr(widget, "parent", None)):
            if isinstance(sv, ScrollView) and (sv.do_scroll_y or sv.do_scroll_x):
                cx, cy = widget.to_window(*widget.center)
                x0, y0 = sv.to_window(sv.x, sv.y)
                if not (x0 <= cx <= x0 + sv.width and y0 <= cy <= y0 + sv.height):
                    sv.scroll_to(widget, animate=False)
                    self.pump(2)

    def hold(self, target: Any, seconds: float = 0.3, during: Callable[[], None] | None = None) -> None:
        widget = self.find(target) if isinstance(target, str) else target
        touch = self._touch(widget)
        touch.touch_down()
        self.wait(seconds)
        if during is not None:
            during()
        touch.touch_up()
        self.pump(3)
        self.sweep_texts(f"after holding {target if isinstance(target, str) else getattr(widget, 'test_id', '')!r}")

    def tap_at(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.pump(1)
        touch.touch_up()
        self.pump(2)

    # -- the on-screen keyboard (kiosk/widgets/keyboard.py): typing by tapping its keys, never key events
    def keyboard(self) -> Any:
        kb = self.app.keyboard
        assert kb is not None and kb.visible, "the on-screen keyboard is not up (tap a text field first)"
        return kb.widget

    def field_clear_of_keyboard(self, field: Any) -> bool:
        """Once the keyboard has slid up: the field's bottom edge is above the keyboard's top."""
        kb = self.keyboard()
        self.wait_for(lambda: kb.y >= 0)
        return bool(field.to_window(field.x, field.y)[1] >= kb.top)

    def type(self, text: str) -> None:
        """Tap the keys that type `text` on the on-screen keyboard (한/영 and shift as needed)."""
        from kiosk.hangul import is_consonant, is_vowel, keystrokes
        from kiosk.widgets.keyboard import KO_SHIFT

        unshift = {v: k for k, v in KO_SHIFT.items()}
        for key in keystrokes(text):
            kb = self.keyboard()
            if key == " ":
                self.tap("kb_space", frames=1)
                continue
            korean = is_consonant(key) or is_vowel(key)
            if key.isalpha() and (kb.layout == "ko") != korean:
                self.tap("kb_lang", frames=1)
            name = unshift.get(key, key.lower())
            if key in unshift or key != key.lower():
                self.tap("kb_shift", frames=1)
            self.tap(f"kb_{name}", frames=1)

    def enter_pin(self, pin: str, pad: str = "pin") -> None:
        """Tap a PIN on the PIN screen's keypad and OK (the result may come a moment later)."""
        for k in pin:
            self.tap(f"{pad}_{k}")
        self.tap(f"{pad}_ok")

    def staff_login(self, pin: str = "0000") -> None:
        """From the attract screen into staff mode, as the café owner does."""
        self.tap("staff")
        self.wait_screen("pin")
        self.enter_pin(pin)
        self.wait_screen("staff")

    def fill(self, target: Any, text: str) -> None:
        """Replace a text field's text as a guest does: tap the field, delete what is there with the keyboard's
        delete key, type `text` by tapping keys, tap done."""
        field = self.find(target) if isinstance(target, str) else target
        assert not field.disabled, f"{getattr(field, 'test_id', field)} is disabled"
        self.tap_at(*field.to_window(field.right - 8, field.center_y))  # at its end: the cursor goes there
        self.keyboard()
        for _ in range(len(field.text) * 3 + 1):  # a syllable being composed goes one jamo at a time
            if not field.text:
                break
            self.tap("kb_back", frames=1)
        assert field.text == "", f"could not clear {getattr(field, 'test_id', field)!r}: {field.text!r}"
        self.type(text)
        self.tap("kb_done")
        self.wait_for(lambda: not self.app.keyboard.visible)

    # -- pictures
    def screenshot(self, name: str) -> Path:
        from kivy.core.window import Window

        self.pump(3)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        target = ARTIFACTS / f"{name}.png"
        made = Window.screenshot(name=str(ARTIFACTS / f"{name}_.png"))
        self.sweep(name)
        if made:
            shutil.move(made, target)
        return target

    # -- layout checks
    def small_targets(self, min_dp: float | None = None) -> list[str]:
        """Touchable widgets (buttons, text fields) smaller than `min_dp` (default: the theme's TOUCH_MIN, 56 dp)
        in either direction."""
        from kivy.metrics import dp
        from kivy.uix.behaviors import ButtonBehavior
        from kivy.uix.textinput import TextInput

        from kiosk.widgets.theme import TOUCH_MIN

        limit = (TOUCH_MIN if min_dp is None else dp(min_dp)) - 0.5
        bad = []
        for w in self.walk():
            if isinstance(w, (ButtonBehavior, TextInput)) and is_visible(w) and (w.width < limit or w.height < limit):
                bad.append(f"{getattr(w, 'test_id', '') or getattr(w, 'text', '')!r} {w.width:.0f}x{w.height:.0f}")
        for c in self.drawn():
            if c.touchable and (c.width < limit or c.height < limit):
                bad.append(f"{c.test_id or c.text!r} {c.width:.0f}x{c.height:.0f}")
        return bad

    def small_text(self, min_px: float | None = None) -> list[str]:
        """Visible text drawn smaller than the type scale's floor (kiosk.widgets.theme.TEXT_MIN_PX): a label's
        font size and any [size=…] inside its markup."""
        from kivy.metrics import sp
        from kivy.uix.label import Label

        from kiosk.widgets.theme import TEXT_MIN_PX

        limit = (TEXT_MIN_PX if min_px is None else min_px) - 0.5
        bad = []
        for w in self.walk():
            if not isinstance(w, Label) or not w.text.strip() or not is_visible(w):
                continue
            sizes = [float(w.font_size)]
            if w.markup:
                sizes += [sp(float(v)) if u == "sp" else float(v) for v, u in MARKUP_SIZE.findall(w.text)]
            if min(sizes) < limit:
                bad.append(f"{w.text[:40]!r}: text {min(sizes):.0f} px")
        bad += [f"{c.text[:40]!r}: text {c.font_size:.0f} px" for c in self.drawn() if c.text.strip()
                and c.font_size < limit]
        return bad

    def low_contrast(self, minimum: float = 4.5) -> list[str]:
        """Visible text on its own painted surface (a widget's `bg`: buttons, cells, tiles) below WCAG AA's 4.5:1;
        greyed controls are exempt (as in WCAG)."""
        from kivy.uix.label import Label

        from kiosk.widgets.theme import contrast

        bad = []
        for w in self.walk():
            bg = getattr(w, "bg", None)
            if (not isinstance(w, Label) or not w.text.strip() or not is_visible(w) or w.disabled or bg is None
                    or len(bg) < 4 or bg[3] < 0.5):
                continue
            ratio = contrast(tuple(w.color), tuple(bg))
            if ratio < minimum - 0.005:
                bad.append(f"{w.text[:40]!r}: {ratio:.2f}:1")
        for c in self.drawn():
            if c.text.strip() and c.bg[3] >= 0.5 and contrast(c.color, c.bg) < minimum - 0.005:
                bad.append(f"{c.text[:40]!r}: {contrast(c.color, c.bg):.2f}:1")
        return bad

    def overflowing_labels(self, settle_frames: int = 20) -> list[str]:
        """Labels whose rendered text is larger than their box (text cut off or spilling out) once the
        layout has settled: a box can take a few frames to reach its size after a screen change (more on a
        loaded machine), so a label that overflows is checked again, frame by frame, before it counts."""
        return self._settled(self._overflowing, settle_frames)

    def _settled(self, check: Callable[[], list[str]], frames: int) -> list[str]:
        """`check`'s faults, checked again frame by frame (up to `frames`) while there are any."""
        bad = check()
        for _ in range(frames):
            if not bad:
                break
            self.pump(1)
            bad = check()
        return bad

    def shortened_texts(self, settle_frames: int = 20) -> list[str]:
        """Labels drawn with an ellipsis in place of what did not fit (kiosk.layout_check.shortened_texts), once the
        layout has settled (checked again frame by frame, as overflowing_labels)."""
        return self._settled(lambda: shortened_texts(self._walk_order()), settle_frames)

    def unexplained_disabled(self) -> list[str]:
        """Greyed buttons on show that do not say why (their `why`, visible on the screen)."""
        shown = set(self.texts())
        bad = []
        for w in self.walk():
            if getattr(w, "disabled", False) and is_shown(w) and hasattr(w, "why") and w.text:
                if not w.why or w.why not in shown:
                    bad.append(repr(getattr(w, "test_id", "") or w.text))
        return bad

    def overlapping_texts(self, settle_frames: int = 20) -> list[str]:
        """Texts drawn over other texts (a layout that ran out of room stacks its labels), once the layout
        has settled (checked again frame by frame, as overflowing_labels)."""
        return self._settled(lambda: overlapping_texts(self._walk_order()), settle_frames)

    def covered_texts(self) -> list[str]:
        """Texts under a bar, a panel or a control drawn over them (kiosk.layout_check.covered_texts)."""
        return covered_texts(self._walk_order())

    def toast_covers(self) -> list[str]:
        """While a toast shows: the texts of the screen being read (or of the dialog on top: what it covers is not
        read) and the enabled controls it lies over, as drawn (a label's words, not its box)."""
        toast = getattr(self.app, "toast_widget", None)
        if toast is None or toast.parent is None or toast.opacity <= 0.01 or not toast.text:
            return []
        return toast_covers(toast, self._walk_order(), list(self.drawn()))

    def covered_targets(self) -> list[str]:
        """Tappable widgets whose centre lies under another widget drawn above them that takes touches or
        paints a background (a bar, a panel, a dialog, a toast): a finger there hits the wrong thing. With a
        dialog open only the dialog's own targets count (the screen under it is meant to be covered). And controls
        whose edge a scrolling list's bar is drawn over (under_scroll_bars)."""
        return covered_targets(self.roots(), self._walk_order()) + self.under_scroll_bars()

    def under_scroll_bars(self) -> list[str]:
        """Controls (buttons, fields, drawn cells to tap) in a scrolling scroll view whose right edge (bottom edge,
        for a horizontal bar) lies under its bar's strip (kiosk.layout_check.under_scroll_bars)."""
        return under_scroll_bars(self._walk_order(), list(self.drawn()))

    def _walk_order(self) -> list[Any]:
        """Widgets in drawing order (a widget is drawn before its children; later siblings on top)."""
        from kivy.uix.screenmanager import ScreenManager

        out: list[Any] = []

        def visit(w: Any) -> None:
            out.append(w)
            if isinstance(w, ScreenManager):
                if w.current_screen is not None:
                    visit(w.current_screen)
                return
            for child in reversed(w.children):
                visit(child)

        for root in reversed(self.roots()):
            visit(root)
        return out

    def _overflowing(self) -> list[str]:
        from kivy.uix.label import Label

        bad = []
        for w in self.walk():
            if not isinstance(w, Label) or not w.text or w.width <= 1 or not is_shown(w):  # hidden: its own or a parent's
                continue
            w.texture_update()
            tw, th = w.texture_size
            if tw > w.width + 2 or th > w.height + 2:
                bad.append(f"{w.text[:40]!r}: text {tw:.0f}x{th:.0f} in box {w.width:.0f}x{w.height:.0f}")
        bad += [f"{c.text[:40]!r}: text {c.text_size[0]:.0f}x{c.text_size[1]:.0f} in cell {c.width:.0f}x{c.height:.0f}"
                for c in self.drawn() if c.text and not c.fits()]
        return bad
