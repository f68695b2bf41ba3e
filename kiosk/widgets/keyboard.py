"""The on-screen keyboard: 두벌식 Korean (with shift for ㅃㅉㄸㄲㅆ ㅒㅖ) and QWERTY behind a 한/영 key, digits,
space, delete and done. Hangul is composed as it is typed (kiosk.hangul).

One `KeyboardHost` per app watches every text field: it wraps `Window.request_keyboard`, which any focused
TextInput calls (Kivy's FocusBehavior), so no screen has to ask for it. The keyboard slides up on top of
everything (dialogs included), lifts whatever holds the field when the field would be covered, and goes
away when the field loses focus (done, or a tap elsewhere: the syllable being composed is kept)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from kiosk.hangul import Composer, is_consonant, is_vowel
from kiosk.widgets.theme import TButton

KO_ROWS = ("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ", "ㅁㄴㅇㄹㅎㅗㅓㅏㅣ", "ㅋㅌㅊㅍㅠㅜㅡ")
EN_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
DIGITS = "1234567890"
KO_SHIFT = {"ㅂ": "ㅃ", "ㅈ": "ㅉ", "ㄷ": "ㄸ", "ㄱ": "ㄲ", "ㅅ": "ㅆ", "ㅐ": "ㅒ", "ㅔ": "ㅖ"}
KB_BG = (0.07, 0.06, 0.05, 1)  # darker than the keys, plain and ghost ones alike
KEY_H = 64  # dp per row (touch targets ≥ 56 dp)
ROW_GAP = 6
MARGIN = 16  # dp kept between the field and the keyboard


def lines_now(field: TextInput) -> TextInput:
    """Lay out a new field's lines now, not in the next frame's clock as Kivy does: a tap on the field before then
    raised IndexError in TextInput.get_cursor_from_xy (the rule look-up opened by voice's 도움말 in one frame,
    Spyfall's location list made a frame after a game's start: a guest's tap in that frame)."""
    field._refresh_text(field.text)
    return field


class OnScreenKeyboard(BoxLayout):
    """The keys. Each key press calls `on_key(name)`: a letter, digit or punctuation key's name, or "shift",
    "back", "space", "lang", "done".
    Keys are found by test_id: kb_<letter in the unshifted layout> (kb_ㅂ, kb_q, kb_1), kb_shift, kb_back,
    kb_space, kb_lang, kb_done."""

    def __init__(self, tr: Callable[..., str], on_key: Callable[[str], None], layout: str = "ko", **kw: Any) -> None:
        rows = 5
        kw.setdefault("orientation", "vertical")
        kw.setdefault("padding", (dp(10), dp(10)))
        kw.setdefault("spacing", dp(ROW_GAP))
        super().__init__(size_hint=(1, None), height=dp(rows * KEY_H + (rows - 1) * ROW_GAP + 20), **kw)
        self.tr, self.on_key = tr, on_key
        self.layout, self.shift = layout, False
        self.keys: dict[str, TButton] = {}
        with self.canvas.before:
            from kivy.graphics import Color, Rectangle

            Color(*KB_BG)
            self._bg = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._draw, size=self._draw)
        self._build()

    def _draw(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size

    def _key(self, row: BoxLayout, name: str, text: str = "", width: float = 1.0, kind: str = "normal") -> None:
        size = "36sp" if is_consonant(name) or is_vowel(name) else "26sp"  # jamo glyphs are drawn small
        b = TButton(text=text or name, kind=kind, test_id=f"kb_{name}", size_hint_x=width, font_size=size)
        b.bind(on_press=lambda *_: self.on_key(name))
        row.add_widget(b)
        self.keys[name] = b

    def _row(self) -> BoxLayout:
        row = BoxLayout(spacing=dp(ROW_GAP))
        self.add_widget(row)
        return row

    def _build(self) -> None:
        self.clear_widgets()
        self.keys.clear()
        top, middle, bottom = KO_ROWS if self.layout == "ko" else EN_ROWS
        row = self._row()
        for d in DIGITS:
            self._key(row, d)
        row = self._row()
        for ch in top:
            self._key(row, ch, self.label(ch))
        row = self._row()
        row.add_widget(Widget(size_hint_x=0.5))
        for ch in middle:
            self._key(row, ch, self.label(ch))
        row.add_widget(Widget(size_hint_x=0.5))
        row = self._row()
        self._key(row, "shift", self.tr("keyboard.shift"), width=1.5, kind="ghost")
        for ch in bottom:
            self._key(row, ch, self.label(ch))
        self._key(row, "back", self.tr("keyboard.back"), width=1.5, kind="ghost")
        row = self._row()
        self._key(row, "lang", self.tr("keyboard.lang_en" if self.layout == "ko" else "keyboard.lang_ko"),
                  width=2, kind="ghost")
        self._key(row, ".", width=1)  # addresses and times (staff's café-floor settings too)
        self._key(row, "space", self.tr("keyboard.space"), width=4)
        self._key(row, "-", width=1)
        self._key(row, "done", self.tr("keyboard.done"), width=2, kind="primary")
        self.keys["shift"].selected = self.shift

    def label(self, ch: str) -> str:
        if not self.shift:
            return ch
        return KO_SHIFT.get(ch, ch) if self.layout == "ko" else ch.upper()

    def char(self, name: str) -> str:
        """The character a letter key types now (shift applied)."""
        return self.label(name)

    def set_shift(self, on: bool) -> None:
        if self.shift == on:
            return
        self.shift = on
        letters = KO_ROWS if self.layout == "ko" else EN_ROWS
        for line in letters:
            for ch in line:
                self.keys[ch].text = self.label(ch)
        self.keys["shift"].selected = on

    def switch_layout(self) -> None:
        self.layout = "en" if self.layout == "ko" else "ko"
        self.shift = False
        self._build()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        FocusBehavior.ignored_touch.append(touch)  # a tap on the keys keeps the field focused
        super().on_touch_down(touch)
        return True  # nothing under the keyboard is touched through it

    def on_touch_move(self, touch: Any) -> bool:
        return bool(super().on_touch_move(touch)) or self.collide_point(*touch.pos)

    def on_touch_up(self, touch: Any) -> bool:
        return bool(super().on_touch_up(touch)) or self.collide_point(*touch.pos)


class KeyboardHost:
    """Shows the keyboard for whichever TextInput has focus and types into it."""

    def __init__(self, tr: Callable[..., str], lang: Callable[[], str]) -> None:
        self.tr, self.lang = tr, lang
        self.widget: OnScreenKeyboard | None = None
        self.target: TextInput | None = None
        self.composer = Composer()
        self.shown = ""  # the part of the field's text that is the syllable being composed
        self.cursor_at = -1
        self.lifted: tuple[Widget, str, Any] | None = None
        self._hide_ev: Any = None
        self._watch_ev: Any = None
        self._install()

    # ------------------------------------------------------------ the one app-wide hook
    def _install(self) -> None:
        original = getattr(Window, "_tablehost_request_keyboard", None) or Window.request_keyboard
        Window._tablehost_request_keyboard = original

        def request_keyboard(callback: Any, target: Any, *args: Any, **kw: Any) -> Any:
            keyboard = original(callback, target, *args, **kw)
            if isinstance(target, TextInput) and not target.readonly:
                self.attach(target)
            return keyboard

        Window.request_keyboard = request_keyboard

    @property
    def visible(self) -> bool:
        return self.widget is not None and self.widget.parent is not None

    def attach(self, ti: TextInput) -> None:
        if self.target is not ti:
            self._detach()
            self.target = ti
            ti.bind(focus=self._on_focus)
        self.composer.commit()
        self.shown, self.cursor_at = "", -1
        if self._hide_ev is not None:
            self._hide_ev.cancel()
            self._hide_ev = None
        self.show()

    def _detach(self) -> None:
        if self.target is not None:
            self.target.unbind(focus=self._on_focus)
        self.target = None
        self.composer.commit()
        self.shown = ""

    def _on_focus(self, ti: TextInput, focused: bool) -> None:
        if focused:
            return
        self.composer.commit()  # a tap elsewhere keeps the syllable as it is
        self.shown = ""
        if self._hide_ev is None:  # another field may take the focus in the same frame
            self._hide_ev = Clock.schedule_once(self._hide_if_unfocused, 0)

    def _hide_if_unfocused(self, *_: Any) -> None:
        self._hide_ev = None
        if self.target is None or not self.target.focus:
            self._detach()
            self.hide()

    # ------------------------------------------------------------ showing, lifting the field
    def _watch(self, *_: Any) -> None:
        """While shown: a field taken off the screen (a dialog closed, the screen changed) ends the input."""
        ti = self.target
        if ti is None or not ti.focus or ti.get_root_window() is None or ti.disabled:
            self.close()
            return
        self._watch_ev = Clock.schedule_once(self._watch, 0.25)

    def prepare(self) -> None:
        """Make the keys before a field is first focused (the kiosk's warm-up): the first focus made them in its
        frame, 53-58 ms of UI-thread CPU here (Spyfall's location search, the rule look-up); their texts are
        drawn in the next frame."""
        if self.widget is None:
            self.widget = OnScreenKeyboard(self.tr, self.press, layout=self._layout())
            self.widget.width = Window.width

    def show(self) -> None:
        if self._watch_ev is None:
            self._watch_ev = Clock.schedule_once(self._watch, 0.25)
        self.prepare()
        kb = self.widget
        assert kb is not None
        Animation.cancel_all(kb)
        if kb.parent is not None:
            kb.parent.remove_widget(kb)
            kb.y = 0
        else:
            kb.y = -kb.height
        Window.add_widget(kb)  # last added = on top of the screens and any dialog
        kb.width = Window.width
        Animation(y=0, d=0.12, t="out_quad").start(kb)
        self.lift()

    def hide(self) -> None:
        if self._watch_ev is not None:
            self._watch_ev.cancel()
            self._watch_ev = None
        self.drop()
        kb = self.widget
        if kb is None or kb.parent is None:
            return
        Animation.cancel_all(kb)
        kb.parent.remove_widget(kb)

    def close(self) -> None:
        """Put the keyboard away now (the field loses focus)."""
        ti = self.target
        self._detach()
        if ti is not None:
            ti.focus = False
        self.hide()

    def _layout(self) -> str:
        return "ko" if self.lang() == "ko" else "en"

    def relabel(self) -> None:
        """After a UI language switch: the keys' words, and the letters of that language."""
        if self.widget is not None:
            self.widget.layout, self.widget.shift = self._layout(), False
            self.widget._build()

    def lift(self) -> None:
        """Move what holds the focused field up so the field sits above the keyboard."""
        self.drop()
        ti, kb = self.target, self.widget
        if ti is None or kb is None:
            return
        bottom = ti.to_window(ti.x, ti.y)[1]
        need = kb.height + dp(MARGIN) - bottom
        top_room = Window.height - ti.to_window(ti.x, ti.top)[1]
        need = min(need, top_room)
        if need <= 0:
            return
        chain: list[Widget] = [ti]
        while chain[-1].parent is not None and chain[-1].parent is not Window:
            chain.append(chain[-1].parent)
        top = chain[-1]
        if isinstance(top, AnchorLayout):  # a dialog (ModalView) keeps itself centred: shift its content
            old = list(top.padding)
            top.padding = [old[0], old[1] - need, old[2], old[3] + need]
            self.lifted = (top, "padding", old)
        elif len(chain) >= 2:  # the app's root: shift the part holding the field (the screens)
            part = chain[-2]
            self.lifted = (part, "y", part.y)
            part.y += need

    def drop(self) -> None:
        if self.lifted is None:
            return
        widget, attr, old = self.lifted
        self.lifted = None
        setattr(widget, attr, old)

    # ------------------------------------------------------------ typing
    def press(self, name: str) -> None:
        ti, kb = self.target, self.widget
        if ti is None or kb is None:
            return
        if name == "shift":
            kb.set_shift(not kb.shift)
            return
        if name == "lang":
            self._commit()
            kb.switch_layout()
            return
        if name == "done":
            self._commit()
            ti.dispatch("on_text_validate")
            ti.focus = False
            return
        if ti.input_filter is not None and name not in ("back", "space"):  # a numeric field: no composing
            self._commit()
            ti.insert_text(kb.char(name))
            kb.set_shift(False)
            return
        self._sync()
        if name == "back":
            if self.composer.backspace():
                self._replace("")
            else:
                ti.do_backspace()
                self.cursor_at = ti.cursor_index()
        elif name == "space":
            self._replace(self.composer.commit() + " ")
        else:
            ch = kb.char(name)
            if kb.layout == "ko" and (is_consonant(ch) or is_vowel(ch)):
                self._replace(self.composer.feed(ch))
            else:
                self._replace(self.composer.commit() + ch)
            kb.set_shift(False)

    def _commit(self) -> None:
        self.composer.commit()
        self.shown = ""

    def _sync(self) -> None:
        """Forget the syllable being composed if the field changed under us (a hardware key, a moved cursor)."""
        ti = self.target
        assert ti is not None
        i = ti.cursor_index()
        if self.shown and (i != self.cursor_at or not ti.text[:i].endswith(self.shown)):
            self._commit()

    def _replace(self, done: str) -> None:
        """Put `done` + the syllable being composed where the old composed syllable was, in one text change."""
        ti = self.target
        assert ti is not None
        if ti.selection_text:
            ti.delete_selection()
        i = ti.cursor_index()
        before, after = ti.text[: i - len(self.shown)], ti.text[i:]
        self.shown = self.composer.preedit
        new_before = before + done + self.shown
        ti.text = new_before + after
        ti.cursor = ti.get_cursor_from_index(len(new_before))
        self.cursor_at = len(new_before)
        if self.lifted is None:
            self.lift()  # the field may have grown (multi-line)
