"""The caption bar: what the narrator says, the current sentence, with a progress line and pause / stop.

It is never laid over a screen: it sits in the reserved `caption_slot` of the screen on show (the slot is
zero-high until narration plays, then the bar takes its room and the screen's content moves up), and it
stays hidden on screens that show their own captions and controls (a case opening, the teaching player).
Narrator callbacks come from its thread and hop to the UI thread here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.widgets.fingers import watch, when_lifted
from kiosk.widgets.theme import ACCENT, BODY, TEXT, TButton

HIDE_AFTER = 1.5  # seconds the last caption stays after the narration ends
MIN_HEIGHT = 88  # dp: the buttons' row
MAX_LINES_HEIGHT = 150  # dp: three lines of caption text


class CaptionBar(BoxLayout):
    def __init__(self, narrator: Any, tr: Any, slot: Callable[[], Any] | None = None, **kw: Any) -> None:
        """`slot()`: the container the bar may occupy on the screen on show, or None (a screen with its own
        captions, or one that never narrates): then the bar stays out of the layout."""
        watch()
        super().__init__(orientation="horizontal", size_hint=(1, None), height=dp(MIN_HEIGHT), spacing=dp(12),
                         padding=(dp(16), dp(10)), **kw)
        self.narrator, self.tr = narrator, tr
        self.slot = slot or (lambda: None)
        self.state: Any = None
        self.label = Label(font_size=BODY, halign="left", valign="middle", color=TEXT, bold=True)
        self.label.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
                        texture_size=lambda *_: self._fit())
        self.pause_button = TButton(text=tr("captions.pause"), size_hint=(None, None), width=dp(130),
                                    height=dp(64), test_id="captions_pause", font_size=BODY,
                                    pos_hint={"center_y": 0.5})
        self.pause_button.bind(on_release=lambda *_: self.toggle_pause())
        self.stop_button = TButton(text=tr("captions.stop"), size_hint=(None, None), width=dp(130),
                                   height=dp(64), test_id="captions_stop", font_size=BODY,
                                   pos_hint={"center_y": 0.5})
        self.stop_button.bind(on_release=lambda *_: self.narrator.stop())
        buttons = BoxLayout(size_hint_x=None, width=dp(272), spacing=dp(12))
        buttons.add_widget(self.pause_button)
        buttons.add_widget(self.stop_button)
        self.add_widget(self.label)
        self.add_widget(buttons)
        with self.canvas.before:
            Color(0.06, 0.06, 0.08, 1)
            self._bg = RoundedRectangle(radius=[dp(16)])
            Color(*ACCENT)
            self._bar = Rectangle()
        self.bind(pos=self._draw, size=self._draw)
        self._hide_ev: Any = None
        self.floor = 0  # captions of utterances below this id were hushed: late ones are dropped
        narrator.listen(lambda cap: Clock.schedule_once(lambda dt: self.show(cap)))

    @property
    def shown(self) -> bool:
        return self.parent is not None

    def _draw(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
        progress = self.state.progress if self.state is not None else 0.0
        self._bar.pos = (self.x + dp(16), self.y + dp(4))
        self._bar.size = ((self.width - dp(32)) * progress, dp(4))

    def _fit(self) -> None:
        """The bar grows with its text (up to three lines) so no caption line is cut off."""
        want = max(dp(MIN_HEIGHT), min(dp(MAX_LINES_HEIGHT), self.label.texture_size[1] + dp(24)))
        self.height = want
        slot = self.parent
        if slot is not None:
            slot.height = want

    def show(self, cap: Any) -> None:
        if cap.utterance < self.floor:
            return
        self.state = cap
        sentences = list(cap.sentences)
        self.label.text = sentences[cap.current] if 0 <= cap.current < len(sentences) else ""
        self.pause_button.text = self.tr("captions.resume" if cap.state == "paused" else "captions.pause")
        if cap.state in ("playing", "paused"):
            if self._hide_ev is not None:
                self._hide_ev.cancel()
                self._hide_ev = None
            self._place(self.slot())
        elif self.shown and self._hide_ev is None:
            self._hide_ev = Clock.schedule_once(lambda dt: self._hide_if_idle(), HIDE_AFTER)
        self._draw()

    def _place(self, slot: Any) -> None:
        if slot is self.parent:
            return
        self.clear()
        if slot is not None:
            slot.add_widget(self)
            self._fit()

    def clear(self) -> None:
        """Out of the layout at once (the screen gets its room back)."""
        if self._hide_ev is not None:
            self._hide_ev.cancel()
            self._hide_ev = None
        Clock.unschedule(self._hide_if_idle)  # a hide waiting for a finger to lift
        slot = self.parent
        if slot is not None:
            slot.remove_widget(self)
            slot.height = 0

    def _hide_if_idle(self, *_: Any) -> None:
        self._hide_ev = None
        if self.state is None or self.state.state not in ("playing", "paused"):
            if when_lifted(self._hide_if_idle):  # the screen grows back, but never under a finger
                self.clear()

    def toggle_pause(self) -> None:
        if self.state is not None and self.state.state == "paused":
            self.narrator.resume()
        else:
            self.narrator.pause()
