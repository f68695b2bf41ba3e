"""The caption bar: what the narrator says, sentence by sentence (the current one highlighted), with a
progress bar and pause / stop. Narrator callbacks come from its thread and hop to the UI thread here."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.markup import esc
from kiosk.widgets.theme import ACCENT, MUTED, TButton

HIDE_AFTER = 1.5  # seconds the last caption stays after the narration ends


class CaptionBar(BoxLayout):
    def __init__(self, narrator: Any, tr: Any, elsewhere: Any = None, **kw: Any) -> None:
        """`elsewhere()`: True while the current screen shows its own captions (the bar then stays hidden)."""
        super().__init__(orientation="horizontal", size_hint=(None, None), spacing=dp(12), padding=dp(14),
                         opacity=0, **kw)
        self.narrator, self.tr = narrator, tr
        self.elsewhere = elsewhere or (lambda: False)
        self.state: Any = None
        self.label = Label(markup=True, font_size="22sp", halign="left", valign="middle", color=MUTED)
        self.label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.pause_button = TButton(text=tr("captions.pause"), size_hint_x=None, width=dp(120),
                                    test_id="captions_pause", font_size="19sp")
        self.pause_button.bind(on_release=lambda *_: self.toggle_pause())
        self.stop_button = TButton(text=tr("captions.stop"), size_hint_x=None, width=dp(120),
                                   test_id="captions_stop", font_size="19sp")
        self.stop_button.bind(on_release=lambda *_: self.narrator.stop())
        self.add_widget(self.label)
        self.add_widget(self.pause_button)
        self.add_widget(self.stop_button)
        with self.canvas.before:
            Color(0, 0, 0, 0.85)
            self._bg = RoundedRectangle(radius=[dp(16)])
            Color(*ACCENT)
            self._bar = Rectangle()
        self.bind(pos=self._draw, size=self._draw)
        self.disabled = True
        narrator.listen(lambda cap: Clock.schedule_once(lambda dt: self.show(cap)))

    def on_touch_down(self, touch: Any) -> bool:
        # hidden (and so disabled), the bar must not swallow touches meant for the screen below it
        if self.opacity == 0:
            return False
        return bool(super().on_touch_down(touch))

    def _draw(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
        progress = self.state.progress if self.state is not None else 0.0
        self._bar.pos = (self.x + dp(16), self.y + dp(6))
        self._bar.size = ((self.width - dp(32)) * progress, dp(4))

    def show(self, cap: Any) -> None:
        self.state = cap
        screen_has_own = bool(self.elsewhere())
        sentences = list(cap.sentences)
        parts = []
        for i, text in enumerate(sentences):
            if i == cap.current:
                parts.append(f"[color=#f5efe6][b]{esc(text)}[/b][/color]")
            elif abs(i - cap.current) == 1:
                parts.append(esc(text))
        self.label.text = " ".join(parts)
        self.pause_button.text = self.tr("captions.resume" if cap.state == "paused" else "captions.pause")
        active = cap.state in ("playing", "paused")
        visible = active and not screen_has_own
        self.opacity = 1 if visible else 0
        self.disabled = not visible
        self._draw()
        if not active:
            Clock.schedule_once(lambda dt: self._hide_if_idle(), HIDE_AFTER)

    def _hide_if_idle(self) -> None:
        if self.state is None or self.state.state not in ("playing", "paused"):
            self.opacity = 0
            self.disabled = True

    def toggle_pause(self) -> None:
        if self.state is not None and self.state.state == "paused":
            self.narrator.resume()
        else:
            self.narrator.pause()
