"""Modal confirmation and the toast banner. Texts come from the caller (already translated)."""

from __future__ import annotations

from collections.abc import Callable

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from kiosk.widgets.theme import PANEL, TEXT, Panel, TButton


class ConfirmDialog(ModalView):
    """Yes/no with an optional timeout (no answer → no). Final actions go through it."""

    def __init__(self, text: str, yes: str, no: str, on_yes: Callable[[], None],
                 on_no: Callable[[], None] | None = None, timeout: float = 0.0, danger: bool = False) -> None:
        super().__init__(size_hint=(0.6, None), height=dp(300), auto_dismiss=False,
                         background_color=(0, 0, 0, 0.6), background="")
        self._on_yes, self._on_no = on_yes, on_no
        box = Panel(orientation="vertical", bg=PANEL)
        self.message = Label(text=text, color=TEXT, font_size="24sp", halign="center", valign="middle")
        self.message.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(20), None)))
        box.add_widget(self.message)
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(16))
        self.no_button = TButton(text=no, kind="normal", test_id="confirm_no")
        self.yes_button = TButton(text=yes, kind="danger" if danger else "primary", test_id="confirm_yes")
        self.no_button.bind(on_release=lambda *_: self._answer(False))
        self.yes_button.bind(on_release=lambda *_: self._answer(True))
        row.add_widget(self.no_button)
        row.add_widget(self.yes_button)
        box.add_widget(row)
        self.add_widget(box)
        self._timer = Clock.schedule_once(lambda dt: self._answer(False), timeout) if timeout > 0 else None

    def _answer(self, yes: bool) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.dismiss()
        if yes:
            self._on_yes()
        elif self._on_no is not None:
            self._on_no()


class Toast(Label):
    """A short message at the bottom of the screen; also kept as `last_text` for tests and staff logs."""

    def __init__(self, **kw: object) -> None:
        super().__init__(size_hint=(None, None), color=TEXT, font_size="22sp", halign="center",
                         valign="middle", opacity=0, **kw)
        self.last_text = ""
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
        self.text_size = (dp(760), None)
        self.texture_update()
        self.size = (dp(800), self.texture_size[1] + dp(32))
        parent = self.parent
        if parent is not None:
            self.center_x = parent.center_x
            self.y = dp(28)
        Animation.cancel_all(self)
        self.opacity = 1
        Clock.unschedule(self._fade)
        Clock.schedule_once(self._fade, seconds)

    def _fade(self, *_: object) -> None:
        Animation(opacity=0, duration=0.3).start(self)
