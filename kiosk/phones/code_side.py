"""The phones panel's code side: one seat's QR code, short code and the address to type it into, changed in place.

Made once per panel (ahead, in a frame after the seats' rows) and kept: picking a seat or a new code sets its
labels' texts and replaces the picture's texture (a rebuild was 15-20 ms of the tap's UI-thread CPU here). The
picture's place is kept blank until its texture is drawn, a frame after the tap at the earliest: the QR code is
encoded off the UI thread (segno is pure Python: 20-50 ms a code here, 4x on a Pi-class tablet) into one byte per
pixel of the module grid (a quiet zone of 4 modules); the UI thread blits those bytes into a texture of one pixel per
module (~45 x 45), drawn magnified with nearest-neighbour filtering, so the modules stay square. The last few codes'
pixels are kept, so a refresh or the same seat picked again does not encode again.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label

from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import ACCENT, BODY, LEAD, MUTED, SMALL, TEXT, Panel, TButton
from phones.qr import qr_matrix

log = logging.getLogger(__name__)
QUIET = 4  # modules of white around the code (the standard's quiet zone)
KEEP = 16  # a code's pixels are ~2-7 kB: the seats of a table, a few reissues
_ENCODER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="phones-qr")
_PIXELS: OrderedDict[str, tuple[int, bytes]] = OrderedDict()  # url -> (side in pixels, RGBA rows bottom-up)
_LOCK = threading.Lock()


def cached(url: str) -> tuple[int, bytes] | None:
    with _LOCK:
        pixels = _PIXELS.get(url)
        if pixels is not None:
            _PIXELS.move_to_end(url)
        return pixels


def encode(url: str) -> tuple[int, bytes]:
    """On the encoder thread: the code's pixels, one per module, dark on white, RGBA rows bottom-up (GL's order),
    kept for the next time."""
    pixels = cached(url)
    if pixels is None:
        matrix = qr_matrix(url)
        side = len(matrix) + 2 * QUIET
        white, dark = b"\xff\xff\xff\xff", b"\x00\x00\x00\xff"
        blank = white * side
        rows = [blank] * QUIET + [white * QUIET + b"".join(dark if m else white for m in row) + white * QUIET
                                  for row in matrix] + [blank] * QUIET
        pixels = side, b"".join(reversed(rows))
        with _LOCK:
            _PIXELS[url] = pixels
            while len(_PIXELS) > KEEP:
                _PIXELS.popitem(last=False)
    return pixels


def qr_texture(pixels: tuple[int, bytes]) -> Texture:
    """The code's texture (UI thread: GL), a pixel per module; nearest-neighbour keeps the modules square."""
    side, buf = pixels
    texture: Texture = Texture.create(size=(side, side), colorfmt="rgba")
    texture.blit_buffer(buf, colorfmt="rgba", bufferfmt="ubyte")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


def label(text: str, size: str = BODY, color: Any = TEXT, bold: bool = False, height: float = 40) -> Label:
    lbl = Label(text=text, font_size=size, color=color, bold=bold, halign="left", valign="middle",
                size_hint_y=None, height=dp(height))
    lbl.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
    return lbl


class CodeSide(Panel):
    """A seat's code: `show(name, code, url)` changes it in place; `stop()` once the panel has gone."""

    def __init__(self, tr: Callable[..., str], base_url: str, on_reissue: Callable[[], None],
                 on_revoke: Callable[[], None]) -> None:
        super().__init__(orientation="vertical", size_hint_x=0.5)
        self.tr, self.url = tr, ""
        self.title = label("", LEAD, ACCENT, True, 48)
        self.qr = Image(fit_mode="contain", size_hint_y=1, color=(1, 1, 1, 0))  # its place, blank until drawn
        self.qr.test_id = "phones_qr"
        self.code = label("", LEAD, TEXT, True, 48)
        self.code.test_id = "phones_code"
        address = label(tr("phones.tablet.or_type", url=base_url), SMALL, MUTED, height=36)
        row = BoxLayout(orientation="horizontal", spacing=dp(12), size_hint_y=None, height=dp(64))
        new = TButton(text=tr("phones.tablet.reissue"), test_id="phones_reissue")
        new.bind(on_release=lambda *_: on_reissue())
        off = TButton(text=tr("phones.tablet.revoke"), kind="danger", test_id="phones_revoke")
        off.bind(on_release=lambda *_: on_revoke())
        row.add_widget(new)
        row.add_widget(off)
        for w in (self.title, self.qr, self.code, address, row):
            self.add_widget(w)
        self._later = Pieces()  # the picture, in a frame after the one that shows the texts

    def show(self, name: str, code: str, url: str) -> None:
        self.title.text = self.tr("phones.tablet.scan_now", name=name)
        self.code.text = self.tr("phones.tablet.code", code=code)
        if url == self.url:
            return
        self.url = url
        self.qr.color = (1, 1, 1, 0)  # never another seat's code under this seat's name
        self._later.cancel()
        pixels = cached(url)
        if pixels is not None:
            self._later.add(partial(self._draw, url, pixels))
        else:
            _ENCODER.submit(encode, url).add_done_callback(
                lambda done: Clock.schedule_once(lambda dt: self._encoded(url, done)))

    def stop(self) -> None:
        """Shown no more: a late picture is dropped."""
        self.url = ""
        self._later.cancel()

    def _encoded(self, url: str, done: Future[tuple[int, bytes]]) -> None:
        error = done.exception()
        if error is not None:  # the short code is still there to type
            log.warning("QR code not drawn for %s", url.split("#")[0], exc_info=error)
        elif url == self.url:  # else a late answer for a code gone
            self._draw(url, done.result())

    def _draw(self, url: str, pixels: tuple[int, bytes]) -> None:
        if url != self.url:
            return
        try:
            self.qr.texture = qr_texture(pixels)
        except Exception:  # noqa: BLE001 - a bad picture must not take the panel down
            log.warning("QR code not shown for %s", url.split("#")[0], exc_info=True)
            return
        self.qr.color = (1, 1, 1, 1)
