"""The tablet's seat list for phones: who is connected, and one seat's QR code and short code at a time.

Only the seat being joined shows its code (others look away, as with pass-the-tablet); a code hides by
itself once its phone is connected, so nobody can scan it later from across the table. "New code" and
"No phone" call the hub's reissue / revoke. Open it from the host frame at set-up, or from staff mode.

Opened, it shows its frame at once and the seats' rows one per frame after (a row is ~3 ms of UI-thread CPU here:
eight in the frame of the tap made it 25-41 ms in bench/frames.py); they come below one another, nothing moves.
The QR code is encoded off the UI thread (segno is pure Python: 20-50 ms a code here, 4x on a Pi-class
tablet): the code text shows at once, the picture a few frames later (its texture is made on the UI
thread, GL). The last few codes' PNGs are kept, so a refresh of the same code does not encode again.
"""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.core.image import Image as CoreImage
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from kiosk import gc_policy
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import ACCENT, BG, BODY, LEAD, MUTED, OK, SMALL, TEXT, Panel, TButton
from phones.channel import PhoneHub
from phones.qr import qr_png

Translate = Callable[..., str]
PHONE_COLOURS = {"connected": OK, "asking": ACCENT, "away": TEXT}
log = logging.getLogger(__name__)
KEEP_PNGS = 16  # a code's PNG is ~2 kB: the seats of a table, a few reissues
_ENCODER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="phones-qr")
_PNGS: OrderedDict[str, bytes] = OrderedDict()  # url -> PNG, most recent last
_PNGS_LOCK = threading.Lock()


def _cached_png(url: str) -> bytes | None:
    with _PNGS_LOCK:
        png = _PNGS.get(url)
        if png is not None:
            _PNGS.move_to_end(url)
        return png


def _encode(url: str) -> bytes:
    """On the encoder thread: the code's PNG, kept for the next refresh."""
    png = _cached_png(url)
    if png is None:
        png = qr_png(url, scale=10, border=4)
        with _PNGS_LOCK:
            _PNGS[url] = png
            while len(_PNGS) > KEEP_PNGS:
                _PNGS.popitem(last=False)
    return png


def qr_texture(png: bytes) -> Texture:
    """A crisp QR code texture from its PNG (UI thread: GL); nearest-neighbour keeps the modules square."""
    texture: Texture = CoreImage(io.BytesIO(png), ext="png").texture
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


def _label(text: str, size: str = BODY, color: Any = TEXT, bold: bool = False, height: float = 40) -> Label:
    lbl = Label(text=text, font_size=size, color=color, bold=bold, halign="left", valign="middle",
                size_hint_y=None, height=dp(height))
    lbl.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
    return lbl


class PhonesPanel(OneUse):
    """`url_for(seat)` gives the seat's join address (PhoneServer.join_url); `base_url` the page to type
    a code into. Refreshes itself when phones come and go (hub.listen), until dismissed (however: its close
    button, a turnover's `dismiss_dialogs`). Made for one use (kiosk.widgets.one_use): taken apart once closed."""

    def __init__(self, hub: PhoneHub, url_for: Callable[[int], str | None], base_url: str, tr: Translate,
                 on_close: Callable[[], None] | None = None) -> None:
        super().__init__(size_hint=(0.94, 0.94), auto_dismiss=False, background="", background_color=BG)
        self.hub, self.url_for, self.base_url, self.tr, self.on_close = hub, url_for, base_url, tr, on_close
        self.shown: int | None = None
        self._qr: tuple[Image, str] | None = None  # the code picture on show and its url
        self._left: Widget | None = None  # the seat list, and what it shows
        self._rows_drawn: tuple[Any, ...] = ()
        self._buttons: dict[int, TButton] = {}
        self._rows: dict[int, tuple[Label, Label, TButton]] = {}  # a seat's name, its phone's state, its button
        self._status: dict[int, Any] = {}  # each seat's status as last drawn (hub.status)
        self._side: Widget | None = None  # the code side, and what it shows
        self._code_drawn: tuple[Any, str | None] = (None, None)
        self._listening = True
        self.pieces = Pieces()  # the seats' rows of its first list, one per frame
        hub.listen(self.refresh)
        self.box = BoxLayout(orientation="horizontal", padding=dp(24), spacing=dp(24))
        self.add_widget(self.box)
        self.refresh()

    def _pick(self, seat: int) -> None:
        if not self._status[seat].issued:  # the seat had gone back to the tablet: a fresh code
            self.hub.reissue(seat)
        self.show_seat(seat)

    def show_seat(self, seat: int | None) -> None:
        self.shown = seat
        self.refresh()

    def refresh(self) -> None:
        """Each half is made again only when what it shows changed: picking a seat touches only the code
        side (and the buttons' highlight), a change the panel already drew (its own reissue, heard again
        from the hub) touches nothing."""
        if not self._listening:
            return
        status = self.hub.status()
        if self.shown is not None and any(s.seat == self.shown and s.connected for s in status):
            self.shown = None  # joined: its code is hidden again
        rows = tuple((s.seat, s.name, s.issued, s.connected, s.phone) for s in status)
        current = next((s for s in status if s.seat == self.shown), None)
        url = self.url_for(current.seat) if current is not None and current.issued else None
        left, side = self._left, self._side
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
        if (current, url) != self._code_drawn or side is None:
            self._qr = None
            side, self._code_drawn = self._code_side(current, url), (current, url)
        if (left, side) != (self._left, self._side):
            for old in (self._left, self._side):
                if old is not None and old is not left and old is not side:  # its taps hold the panel
                    gc_policy.drop(old, None)  # (taken apart in a pause once off the panel)
            self._left, self._side = left, side
            self.box.clear_widgets()
            self.box.add_widget(left)
            self.box.add_widget(side)

    def _seat_list(self, seats: list[int], later: bool = False) -> Widget:
        """The seats' list; `later`: its rows in the frames after (the panel's first list), else all now."""
        left = BoxLayout(orientation="vertical", spacing=dp(10), size_hint_x=0.5)
        left.add_widget(_label(self.tr("phones.tablet.title"), LEAD, ACCENT, True, 52))
        hint = _label(self.tr("phones.tablet.hint"), SMALL, MUTED, height=84)
        left.add_widget(hint)
        rows = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_y=None)
        rows.bind(minimum_height=rows.setter("height"))
        self._buttons, self._rows = {}, {}
        self.pieces.cancel()
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

    def _code_side(self, current: Any, url: str | None) -> Widget:
        side = Panel(orientation="vertical", size_hint_x=0.5)
        if current is None or url is None:
            side.add_widget(Widget())
            side.add_widget(_label(self.tr("phones.tablet.pick_seat"), BODY, MUTED, height=80))
            side.add_widget(Widget())
            return side
        side.add_widget(_label(self.tr("phones.tablet.scan_now", name=current.name), LEAD, ACCENT, True, 48))
        side.add_widget(self._qr_image(url))
        side.add_widget(_label(self.tr("phones.tablet.code", code=current.code), LEAD, TEXT, True, 48))
        side.add_widget(_label(self.tr("phones.tablet.or_type", url=self.base_url), SMALL, MUTED, height=36))
        row = BoxLayout(orientation="horizontal", spacing=dp(12), size_hint_y=None, height=dp(64))
        new = TButton(text=self.tr("phones.tablet.reissue"), test_id="phones_reissue")
        new.bind(on_release=lambda *_: self._reissue(current.seat))
        off = TButton(text=self.tr("phones.tablet.revoke"), kind="danger", test_id="phones_revoke")
        off.bind(on_release=lambda *_: self._revoke(current.seat))
        row.add_widget(new)
        row.add_widget(off)
        side.add_widget(row)
        return side

    def _qr_image(self, url: str) -> Image:
        """The code's picture: blank until its PNG is encoded (on the encoder thread unless cached)."""
        img = Image(fit_mode="contain", size_hint_y=1, color=(1, 1, 1, 0))
        img.test_id = "phones_qr"
        self._qr = (img, url)
        png = _cached_png(url)
        if png is not None:
            self._show_qr(img, url, png)
        else:
            _ENCODER.submit(_encode, url).add_done_callback(
                lambda done: Clock.schedule_once(lambda dt: self._qr_done(img, url, done)))
        return img

    def _qr_done(self, img: Image, url: str, done: Future[bytes]) -> None:
        error = done.exception()
        if error is not None:  # the short code is still there to type
            log.warning("QR code not drawn for %s", url.split("#")[0], exc_info=error)
        elif self._listening and self._qr == (img, url):  # else a late answer for a picture gone
            self._show_qr(img, url, done.result())

    def _show_qr(self, img: Image, url: str, png: bytes) -> None:
        try:
            img.texture = qr_texture(png)
        except Exception:  # noqa: BLE001 - a bad picture must not take the panel down
            log.warning("QR code not shown for %s", url.split("#")[0], exc_info=True)
            return
        img.color = (1, 1, 1, 1)

    def _reissue(self, seat: int) -> None:
        self.hub.reissue(seat)
        self.refresh()

    def _revoke(self, seat: int) -> None:
        self.hub.revoke(seat)
        self.show_seat(None)

    def on_dismiss(self) -> None:
        self._listening = False
        self.pieces.cancel()
        self.hub.unlisten(self.refresh)

    def close(self) -> None:
        self.dismiss()
        if self.on_close is not None:
            self.on_close()
