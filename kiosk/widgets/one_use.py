"""Kiosk dialogs, and a dialog made for one use taken apart once it has gone.

A Kivy widget is cyclic garbage once dropped (kiosk/widgets/dismantle.py: ~250 objects a widget), freed only by a
full collection, and not at all once frozen: a game's screen is frozen during play with whatever is on show over it
(kiosk/gc_policy.py), and a dialog closed after that was garbage until a thaw, a 150-500 ms frame. A `OneUse` dialog,
dismissed and faded out (Kivy's ModalView holds itself through its fade until then), hands itself to `gc_policy.drop`
with the widgets its attributes hold off screen (a hand-over's secret, taken off it before it fades): taken apart in
a pause, reference counting frees them.

A dialog opened again later says `reused` (a question's, asked again in the same dialog; the rule look-up, kept for
its game and language): it is never taken apart on its own, only once `retire()`d (replaced).

`closing`: dismissed (fading out, or gone) and not opened since. A toast is placed by what a dialog on show covers,
and a shared channel asks nothing over a dialog one person answers (`for_one`), only while it is not closing
(kiosk/widgets/dialogs.py).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.modalview import ModalView

from kiosk import gc_policy
from kiosk.widgets.dismantle import held_off_screen


class OneUse(ModalView):
    for_one = ""  # whose dialog it is when one person answers it ("private", "staff"): kiosk.widgets.dialogs
    reused = False  # opened again later: taken apart only once retired
    closing = False  # dismissed: fading out, or gone (set by this class only)

    def on_pre_open(self) -> None:
        self.closing = False

    def on_pre_dismiss(self) -> None:
        self.closing = True

    # Fading out (dismissed), the dialog takes no touch: a tap right after an answer reaches the screen under it.
    # Kivy's modal takes every touch until its fade ends (0.1 s): a guest's quick next tap was lost (a W&H test's tap
    # on 행동 just after 예 did nothing 3 runs in 5).
    def on_touch_down(self, touch: Any) -> bool:
        return False if self.closing else bool(super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        return False if self.closing else bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return False if self.closing else bool(super().on_touch_up(touch))

    def on__is_open(self, _instance: Any, is_open: bool) -> None:
        """Off the window (faded out, or dismissed without a fade)."""
        if not is_open and not self.reused:
            self._drop()

    def retire(self) -> None:
        """Shown no more (a reused dialog replaced): closed at once if open, and taken apart in a pause."""
        self.reused = False
        if self._is_open:
            self.dismiss(animation=False)
        else:
            self._drop()

    def _drop(self) -> None:
        for w in (self, *held_off_screen(self)):
            gc_policy.drop(w, None)
