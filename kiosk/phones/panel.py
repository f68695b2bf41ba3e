"""The tablet's seat list for phones: who is connected, and one seat's QR code and short code at a time.

Only the seat being joined shows its code (others look away, as with pass-the-tablet); a code hides by
itself once its phone is connected, so nobody can scan it later from across the table. "New code" and
"No phone" call the hub's reissue / revoke. Open it from the host frame at set-up, or from staff mode.

Opened, it shows its frame at once and the seats' rows one per frame after (a row is ~3 ms of UI-thread CPU here:
eight in the frame of the tap made it 25-41 ms in bench/frames.py); they come below one another, nothing moves.
The code side (kiosk/phones/code_side.py) is made in the frame after the rows and changed in place: picking a seat
or a new code sets its texts at once and its QR picture a frame later at the earliest, in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from kiosk import gc_policy
from kiosk.phones.code_side import CodeSide
from kiosk.phones.code_side import label as _label
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import ACCENT, BAR_CLEAR, BG, BODY, LEAD, MUTED, OK, SMALL, TEXT, Panel, TButton
from phones.channel import PhoneHub

Translate = Callable[..., str]
PHONE_COLOURS = {"connected": OK, "asking": ACCENT, "away": TEXT}


class PhonesPanel(OneUse):
    """`url_for(seat)` gives the seat's join address (PhoneServer.join_url); `base_url` the page to type
    a code into. Refreshes itself when phones come and go (hub.listen), until dismissed (however: its close
    button, a turnover's `dismiss_dialogs`). Made for one use (kiosk.widgets.one_use): taken apart once closed."""

    def __init__(self, hub: PhoneHub, url_for: Callable[[int], str | None], base_url: str, tr: Translate,
                 on_close: Callable[[], None] | None = None) -> None:
        super().__init__(size_hint=(0.94, 0.94), auto_dismiss=False, background="", background_color=BG)
        self.hub, self.url_for, self.base_url, self.tr, self.on_close = hub, url_for, base_url, tr, on_close
        self.shown: int | None = None
        self._left: Widget | None = None  # the seat list, and what it shows
        self._rows_drawn: tuple[Any, ...] = ()
        self._buttons: dict[int, TButton] = {}
        self._rows: dict[int, tuple[Label, Label, TButton]] = {}  # a seat's name, its phone's state, its button
        self._status: dict[int, Any] = {}  # each seat's status as last drawn (hub.status)
        self._side: Widget | None = None  # the side on show: no seat's code, or one seat's
        self._no_code = Panel(orientation="vertical", size_hint_x=0.5)
        self._hints = (_label("", SMALL, MUTED, height=84), _label("", BODY, MUTED, height=80))  # texts: a frame later
        for w in (Widget(), self._hints[1], Widget()):
            self._no_code.add_widget(w)
        self._code: CodeSide | None = None  # made in a frame after the rows (or when a code is shown first)
        self._listening = True
        self.pieces = Pieces()  # the seats' rows of its first list, one per frame, then the code side
        hub.listen(self.refresh)
        self.box = BoxLayout(orientation="horizontal", padding=dp(24), spacing=dp(24))
        self.add_widget(self.box)
        self.refresh()
        self.pieces.add(self._code_side)

    def _pick(self, seat: int) -> None:
        if not self._status[seat].issued:  # the seat had gone back to the tablet: a fresh code
            self.hub.reissue(seat)
        self.show_seat(seat)

    def show_seat(self, seat: int | None) -> None:
        self.shown = seat
        self.refresh()

    def refresh(self) -> None:
        """Each half changes in place: picking a seat or a new code sets the code side's texts and picture and the
        rows' texts (a change of seats alone makes the list again); a change the panel already drew (its own
        reissue, heard again from the hub) touches nothing."""
        if not self._listening:
            return
        status = self.hub.status()
        if self.shown is not None and any(s.seat == self.shown and s.connected for s in status):
            self.shown = None  # joined: its code is hidden again
        rows = tuple((s.seat, s.name, s.issued, s.connected, s.phone) for s in status)
        current = next((s for s in status if s.seat == self.shown), None)
        url = self.url_for(current.seat) if current is not None and current.issued else None
        left = self._left
        seats = [s.seat for s in status]
        self._status = {s.seat: s for s in status}
        if left is not None and rows != self._rows_drawn and seats == [r[0] for r in self._rows_drawn]:
            self._rows_drawn = rows  # the same seats: their rows changed in place (a rebuild was 10-20 ms of a tap's
            for seat in self._rows:  # frame here, a phone coming or going, the code shown, revoked, reissued)
                self._draw_row(seat)
        elif rows != self._rows_drawn or left is None:
            left, self._rows_drawn = self._seat_list(seats, later=left is None), rows
        for seat, btn in self._buttons.items():
            btn.selected = seat == self.shown
        if current is None or url is None:
            side: Widget = self._no_code
        else:
            side = self._code_side()
            side.show(current.name, current.code, url)  # in place: its texts now, its picture a frame later
        if left is not self._left:
            if self._left is not None:  # its taps hold the panel (taken apart in a pause once off the panel)
                gc_policy.drop(self._left, None)
            self._left, self._side = left, side
            self.box.clear_widgets()
            self.box.add_widget(left)
            self.box.add_widget(side)
        elif side is not self._side:
            self.box.remove_widget(self._side)
            self._side = side
            self.box.add_widget(side)

    def _seat_list(self, seats: list[int], later: bool = False) -> Widget:
        """The seats' list; `later`: its rows in the frames after (the panel's first list), else all now."""
        left = BoxLayout(orientation="vertical", spacing=dp(10), size_hint_x=0.5)
        left.add_widget(_label(self.tr("phones.tablet.title"), LEAD, ACCENT, True, 52))
        hint = self._hints[0]
        if hint.parent is not None:
            hint.parent.remove_widget(hint)
        left.add_widget(hint)
        # its right padding keeps the buttons clear of the scroll bar (drawn over the list's right edge)
        rows = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_y=None, padding=(0, 0, BAR_CLEAR, 0))
        rows.bind(minimum_height=rows.setter("height"))
        self._buttons, self._rows = {}, {}
        self.pieces.cancel()
        if not hint.text:  # the hints' texts in the frame after the panel's (their places kept): ~3 ms less in the
            self.pieces.add(self._hint_texts)  # tap's frame, the long hint's wrapped layout
        for seat in seats:
            if later:
                self.pieces.add(partial(self._seat_row, rows, seat))
            else:
                self._seat_row(rows, seat)
        scroll = ScrollView(do_scroll_x=False, bar_width=dp(6))  # up to eight seats: they scroll if need be
        scroll.add_widget(rows)
        left.add_widget(scroll)
        close = TButton(text=self.tr("phones.tablet.close"), kind="primary", size_hint_y=None, height=dp(72),
                        test_id="phones_close")
        close.bind(on_release=lambda *_: self.close())
        left.add_widget(close)
        return left

    def _hint_texts(self) -> None:
        self._hints[0].text = self.tr("phones.tablet.hint")
        self._hints[1].text = self.tr("phones.tablet.pick_seat")

    def _seat_row(self, rows: Widget, seat: int) -> None:
        """A seat's row, drawn from its status as last heard (a row made a few frames after the list)."""
        row = BoxLayout(orientation="horizontal", spacing=dp(10), size_hint_y=None, height=dp(64))
        name = _label("", BODY, TEXT, True, 64)
        row.add_widget(name)
        state = _label("", SMALL, MUTED, height=64)
        state.test_id = f"phones_state_{seat}"  # the seat's phone as it is (hub.status: SeatStatus.phone)
        row.add_widget(state)
        btn = TButton(size_hint=(None, None), width=dp(170), height=dp(64), test_id=f"phones_show_{seat}")
        btn.bind(on_release=lambda *_: self._pick(seat))
        self._buttons[seat] = btn
        row.add_widget(btn)
        rows.add_widget(row)
        self._rows[seat] = (name, state, btn)
        self._draw_row(seat)

    def _draw_row(self, seat: int) -> None:
        s = self._status[seat]
        name, state, btn = self._rows[seat]
        name.text = s.name
        state.text, state.color = self.tr(f"phones.tablet.phone_{s.phone}"), PHONE_COLOURS.get(s.phone, MUTED)
        btn.text = self.tr("phones.tablet.show_code" if s.issued else "phones.tablet.use_phone")
        btn.selected, btn.disabled = self.shown == seat, s.connected

    def _code_side(self) -> CodeSide:
        if self._code is None:
            self._code = CodeSide(self.tr, self.base_url, lambda: self._reissue(self.shown),
                                  lambda: self._revoke(self.shown))
            if self._side is self._no_code:  # laid out ahead at its place's size: its labels wrap (and draw their
                self._code.size = self._no_code.size  # texts) now, not in the tap that shows it
                self._code.do_layout()
        return self._code

    def _reissue(self, seat: int | None) -> None:
        if seat is None:  # the code side's buttons are on show only with a seat's code
            return
        self.hub.reissue(seat)
        self.refresh()

    def _revoke(self, seat: int | None) -> None:
        if seat is None:
            return
        self.hub.revoke(seat)
        self.show_seat(None)

    def on_dismiss(self) -> None:
        self._listening = False
        self.pieces.cancel()
        if self._code is not None:
            self._code.stop()
        self.hub.unlisten(self.refresh)

    def close(self) -> None:
        self.dismiss()
        if self.on_close is not None:
            self.on_close()
