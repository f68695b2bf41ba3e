"""Calling staff from the game screen, with or without the café floor.

The game screen's bar always has a call button. A call asks why (the floor's reason dialog), then: a sign across the
game screen, big enough to read from the counter, and the call sound; the call is listed in staff mode, where staff
acknowledge it (the sign goes). With the café floor configured the call also goes to the floor (kiosk/floor/ui.py's
FloorBridge.call), and the floor's acknowledgement takes the sign down too."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from kivy.metrics import dp
from kivy.uix.label import Label

from floor.report import REASONS
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import BODY, LEAD, PANEL, TEXT, Panel, TButton


@dataclass
class Call:
    reason: str
    at: float  # epoch seconds


class StaffCalls:
    """The table's open calls (this run of the kiosk; a restart forgets them, as a guest would call again)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.open: list[Call] = []

    def ask(self) -> None:
        """The reasons' dialog (the floor's); its pick comes back to `call`."""
        CallDialog(self).open()

    def call(self, reason: str) -> None:
        """A guest's call without the floor (with one, the floor's button and FloorBridge.call note it here)."""
        self.note(reason)
        self.app.toast(self.app.tr("floor.called"))

    def note(self, reason: str) -> None:
        """A call was made: listed for staff, the sign up, the call sound."""
        self.open.append(Call(reason, time.time()))
        self.app.play_sound("staff_call")
        self.show()

    def acknowledge(self) -> None:
        """Staff saw the calls (staff mode, or the floor's ack): the sign goes."""
        self.open.clear()
        self.show()

    def show(self) -> None:
        """The sign on the game screen (and the button's words) follow the open calls."""
        sm = getattr(self.app, "sm", None)
        if sm is None or not sm.has_screen("host"):
            return
        ids = self.app.get_screen("host").ids
        sign, button = ids.call_sign, ids.staff_call
        waiting = bool(self.open)
        sign.text = self.app.tr("staff_call.sign") if waiting else ""
        sign.height, sign.opacity = (dp(84), 1) if waiting else (0, 0)
        button.text = self.app.tr("floor.waiting" if waiting else "floor.call")
        button.kind = "primary" if waiting else "normal"
        floor = getattr(self.app, "floor", None) is not None  # the floor's own button is in the bar then
        button.disabled = floor
        button.width, button.opacity = (0, 0) if floor else (dp(110), 1)


class CallDialog(OneUse):
    """Why the guests call staff (with the café floor or without): four big buttons and cancel. Made for one use (kiosk.widgets.one_use): taken
    apart once closed."""

    def __init__(self, bridge: Any) -> None:  # a FloorBridge or StaffCalls: `app`, `call(reason)`
        from kivy.core.window import Window

        super().__init__(size_hint=(0.62, None), height=dp(520), auto_dismiss=False,
                         background_color=(0, 0, 0, 0.6), background="")
        tr = bridge.app.tr
        # made at the sizes they will have: made at Kivy's 100 px and laid out after, each button's words were
        # drawn twice in the tap's frame (bench/frames.py)
        width = Window.width * 0.62
        inner = width - 2 * dp(20)
        box = Panel(orientation="vertical", bg=PANEL, spacing=dp(14), padding=dp(20), size=(width, self.height))
        title = Label(text=tr("floor.reason_title"), color=TEXT, font_size=LEAD, size_hint_y=None, height=dp(60),
                      width=inner)
        box.add_widget(title)
        for reason in REASONS:
            b = TButton(text=tr(f"floor.reason.{reason}"), kind="primary", test_id=f"floor_reason_{reason}",
                        font_size=BODY, size_hint_y=None, height=dp(66), width=inner)
            b.bind(on_release=lambda _w, r=reason: self._pick(bridge, r))
            box.add_widget(b)
        cancel = TButton(text=tr("common.cancel"), test_id="floor_reason_cancel", size_hint_y=None, height=dp(64),
                         width=inner)
        cancel.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(cancel)
        self.add_widget(box)

    def _pick(self, bridge: Any, reason: str) -> None:
        self.dismiss()
        bridge.call(reason)


def calls_of(app: Any) -> StaffCalls:
    """The app's calls (made on first use)."""
    calls = getattr(app, "staff_calls", None)
    if calls is None:
        calls = app.staff_calls = StaffCalls(app)
    return calls


def staff_list(app: Any, panel: Any) -> None:
    """Staff mode → 테이블: the open calls with their reason and time, and 확인 (acknowledged: the sign goes)."""
    from kivy.uix.boxlayout import BoxLayout

    from kiosk.widgets.theme import DANGER_TEXT, TButton, TLabel

    calls = calls_of(app)
    if not calls.open:
        return
    lines = [app.tr("staff_call.line", reason=app.tr(f"floor.reason.{c.reason}"),
                    time=time.strftime("%H:%M", time.localtime(c.at))) for c in calls.open]
    panel.add_widget(TLabel(text=app.tr("staff_call.staff_title", n=len(calls.open)) + "\n" + "\n".join(lines),
                            color=DANGER_TEXT))
    row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(12))
    ack = TButton(text=app.tr("staff_call.ack"), kind="primary", test_id="staff_call_ack")

    def acknowledged(*_: Any) -> None:
        calls.acknowledge()
        app.get_screen("staff").refresh()

    ack.bind(on_release=acknowledged)
    row.add_widget(ack)
    panel.add_widget(row)
