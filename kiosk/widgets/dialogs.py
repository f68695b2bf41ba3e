"""Modal confirmation (the toast: kiosk/widgets/toast.py). Texts come from the caller (already translated)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.animation import Animation
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.widgets.one_use import OneUse
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
