"""Pass-the-tablet: the private channel for a seat when it has no phone.

1. "Give the tablet to 지수" — everyone else looks away; 지수 taps "I am 지수".
2. reveal mode: the secret shows only while 지수 holds the button down, and hides on release;
   input mode: 지수's private input (a sealed vote, a card to show) is shown until it calls `done()`.
3. "Done" closes it; `on_done` runs (the caller moves on to the next seat).

Texts are passed in translated by the caller's translator (`tr`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk import gc_policy
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import ACCENT, BG, BODY, HEADLINE, LEAD, MUTED, TEXT, Panel, TButton

Translate = Callable[..., str]
AHEAD_S = 0.1  # after the hand-over shows: its content made ahead (`HandOver._make_ahead`); "I am" comes later


class HoldButton(TButton):
    """Pressed → `held` True; released (or the finger slides off) → False."""

    held = BooleanProperty(False)

    def on_press(self) -> None:
        self.held = True

    def on_release(self) -> None:
        self.held = False

    def on_touch_up(self, touch: object) -> bool:
        handled = super().on_touch_up(touch)
        self.held = False
        return bool(handled)


class HandOver(OneUse):
    """Made for one use (kiosk.widgets.one_use): taken apart once closed, its secret with it."""

    for_one = "private"  # one seat's screen: no shared channel asks over it (kiosk.widgets.dialogs.for_one_on_show)

    def __init__(self, name: str, tr: Translate, content: Callable[[Callable[[], None]], Widget],
                 on_done: Callable[[], None] | None = None, mode: str = "reveal",
                 ahead: Callable[[], tuple[Any, ...]] | None = None) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="", background_color=BG)
        self.name, self.tr, self.mode = name, tr, mode
        self.seat: int | None = None  # the seat it is for, when known: taps on it are that seat's (HostContext)
        self._content_factory = content
        self._on_done = on_done
        self.secret: Widget | None = None
        self.stage = "ask"
        self.root_box = BoxLayout(orientation="vertical", padding=dp(40), spacing=dp(24))
        self.add_widget(self.root_box)
        self._ask()
        # input mode: the content made while the seat's player reaches for the tablet, off the window (`_make_ahead`)
        self._ahead = ahead if mode == "input" else None
        self.made: tuple[tuple[Any, ...], Widget, Widget] | None = None  # (what it was made from, holder, content)
        self._ahead_ev = Clock.schedule_once(self._make_ahead, AHEAD_S) if self._ahead is not None else None

    def _clear(self) -> None:
        for w in self.root_box.children:  # the last stage's (their taps hold this dialog): taken apart in a pause
            gc_policy.drop(w, None)
        self.root_box.clear_widgets()

    def _title(self, text: str, size: str = HEADLINE) -> Label:
        lbl = Label(text=text, font_size=size, color=TEXT, halign="center", valign="middle", bold=True)
        lbl.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
        return lbl

    def _ask(self) -> None:
        self.stage = "ask"
        self._clear()
        self.root_box.add_widget(self._title(self.tr("handover.give", name=self.name)))
        hint = self._title(self.tr("handover.others_look_away"), BODY)
        hint.color = MUTED
        self.root_box.add_widget(hint)
        btn = TButton(text=self.tr("handover.i_am", name=self.name), kind="primary", size_hint=(0.6, None),
                      height=dp(96), pos_hint={"center_x": 0.5}, test_id="handover_i_am", font_size=LEAD)
        btn.bind(on_release=lambda *_: self._open())
        self.root_box.add_widget(btn)
        self.root_box.add_widget(self._cancel_button(size_hint=(0.6, None), pos_hint={"center_x": 0.5}))

    def _cancel_button(self, **kw: Any) -> TButton:
        """취소: closes it without acting (opened by mistake, or the player changed their mind); `on_done` does not
        run, and the shared screen is as before it opened."""
        kw.setdefault("height", dp(72))
        btn = TButton(text=self.tr("handover.cancel"), kind="ghost", test_id="handover_cancel", **kw)
        btn.bind(on_release=lambda *_: self.cancel())
        return btn

    def _make_ahead(self, _dt: float = 0.0) -> None:
        """The content made before "I am", in a frame of its own, laid out at the size it will have (a holder like
        the open stage's box: its title row, then the content): the tap that opens it only moves it over (Clue's
        notebook made in that tap's frame: 22-32 ms of UI-thread CPU here, its tutor's answer rebuilt it in the next
        frames, 10-26 ms). Off the window and never drawn until then; made again at "I am" if the game or the
        language changed since (`ahead()` is what it was made from)."""
        self._ahead_ev = None
        if self.stage != "ask" or self._ahead is None or not self._is_open or self.closing or self.root_box.width <= 1:
            return
        holder = BoxLayout(orientation="vertical", padding=dp(40), spacing=dp(24), size=self.root_box.size)
        holder.add_widget(Widget(size_hint_y=None, height=dp(64)))
        content = self._content_factory(self._finish)
        holder.add_widget(content)
        self.made = (self._ahead(), holder, content)

    def _take_made(self) -> Widget | None:
        """The content made ahead, if it still shows what it would show now; let go of either way."""
        if self._ahead_ev is not None:
            self._ahead_ev.cancel()
            self._ahead_ev = None
        made, self.made = self.made, None
        if made is None:
            return None
        key, holder, content = made
        fresh = self._ahead is not None and _same(key, self._ahead())
        if fresh:
            holder.remove_widget(content)
        gc_policy.drop(holder, None)  # (with the content inside, when it is stale)
        return content if fresh else None

    def cancel(self) -> None:
        self.stage = "cancelled"
        self._take_made()
        if self.secret is not None:
            self.secret.opacity = 0
        self._clear()
        self.dismiss()

    def _open(self) -> None:
        self.stage = "open"
        self._clear()
        made = self._take_made()
        self.secret = made if made is not None else self._content_factory(self._finish)
        if self.mode == "input":  # one line of title; the rest of the screen is the player's
            title = self._title(self.tr("handover.only_you", name=self.name), LEAD)
            row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(16))
            row.add_widget(title)
            row.add_widget(self._cancel_button(size_hint=(None, None), width=dp(160), height=dp(64)))
            self.root_box.add_widget(row)
            self.root_box.add_widget(self.secret)
            return
        box = Panel(orientation="vertical")
        box.add_widget(self.secret)
        self.root_box.add_widget(box)
        hold = HoldButton(text=self.tr("handover.hold_to_see"), kind="primary", size_hint=(1, None),
                          height=dp(110), test_id="handover_hold", font_size=LEAD)
        self.secret.opacity = 0
        self.secret.reserved = True  # hidden until held: a toast keeps off its words all the same (widgets.marks)
        hold.bind(held=lambda _w, held: setattr(self.secret, "opacity", 1 if held else 0))
        self.root_box.add_widget(hold)
        done = TButton(text=self.tr("handover.done"), size_hint=(1, None), height=dp(72), test_id="handover_done")
        done.bind(on_release=lambda *_: self._finish())
        self.root_box.add_widget(done)

    def _finish(self) -> None:
        self.stage = "done"
        self._take_made()
        if self.secret is not None:
            self.secret.opacity = 0
        self._clear()
        self.dismiss()
        if self._on_done is not None:
            self._on_done()


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """The same game state (the object itself: engines make a new one for every step) and the same words."""
    return len(a) == len(b) and all(x is y or (isinstance(x, str) and x == y) for x, y in zip(a, b, strict=True))


def secret_text(text: str, size: str = HEADLINE) -> Label:
    """A big centred secret (a role, a location) for reveal mode."""
    lbl = Label(text=text, font_size=size, color=ACCENT, halign="center", valign="middle", bold=True)
    lbl.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
    return lbl
