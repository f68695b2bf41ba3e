"""QR codes for the tablet's seat list, drawn by segno (pure Python: no network, no Pillow).

The codes are made in the kiosk process for the tablet only; the web server never serves them."""

from __future__ import annotations

import io
import socket

import segno


def qr_png(text: str, scale: int = 8, border: int = 3) -> bytes:
    """A PNG (dark on white) for Kivy's CoreImage(BytesIO(png), ext="png")."""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="png", scale=scale, border=border)
    return out.getvalue()


def qr_svg(text: str, scale: int = 8, border: int = 3) -> str:
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(out, kind="svg", scale=scale, border=border, xmldecl=False)
    return out.getvalue().decode("utf-8")


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules (True: dark), without the quiet zone, for drawing with rectangles."""
    code = segno.make(text, error="m", micro=False)
    return [[bool(cell) for cell in row] for row in code.matrix]


def lan_address(fallback: str = "127.0.0.1") -> str:
    """This machine's address on the LAN: the source address the system would route from (a UDP socket
    is only connected, which sends nothing), or `fallback` when there is no network."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, no packet leaves
        address = str(sock.getsockname()[0])
    except OSError:
        return fallback
    finally:
        sock.close()
    return address if not address.startswith("0.") else fallback
