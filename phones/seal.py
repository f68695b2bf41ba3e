"""Sealed phone traffic (issues 19, 42): after a short handshake every WebSocket message is a NaCl
secretbox (XSalsa20-Poly1305, PyNaCl here, TweetNaCl on the page) under a key made for that connection
alone, so a Wi-Fi eavesdropper reads no view, secret, token, code or device key, cannot forge or replay
an input, and a photo of a QR code taken later opens none of the traffic recorded before (forward
secrecy).

The handshake (the protocol in full: phones/README.md):
1. kiosk → `{"t": "hi", "v": 2, "c": challenge, "h": SHA-512(kiosk_pk)[:32]}`: a fresh X25519 key pair per
   connection, committed to but not shown yet;
2. phone → `{"t": "key", "pk": phone_pk}`: the phone's own fresh key pair;
3. kiosk → `{"t": "key", "pk": kiosk_pk}`: the phone checks it against the commitment. Neither side chose
   its key after seeing the other's, so a relay in the middle cannot grind its keys until the number
   both screens show (`number`) matches;
4. phone → `{"t": "join", "via": "qr"|"code", "box": ...}` sealed under
   K = SHA-512("tablehost/2" ‖ DH ‖ phone_pk ‖ kiosk_pk ‖ SHA-512(challenge) ‖ pass)[:32], where `pass` is
   the seat's pass for a QR join — SHA-512(token)[:32] and, for a device the seat already knows,
   SHA-512(device key)[:32] — and zeros for a typed code (whose code rides inside the box). The kiosk
   finds which seat's pass opens the box; nobody without the pass can make K, and the ephemeral secrets
   die with the connection.
The kiosk takes K as the connection's key only once the pass or code is accepted, and for good: a
connection joins once; no later join, key or box under another key changes it.

Every box holds {"c": the connection's challenge, "i": a counter rising per direction, "d": "up"|"dn",
"m": the message}: a box from another connection, an old box or a reflected one is refused.
JSON is read strictly (`loads`): no NaN or Infinity, no duplicate trickery beyond the standard.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import secrets
from collections.abc import Mapping
from typing import Any

from nacl.exceptions import CryptoError
from nacl.exceptions import RuntimeError as NaclRuntimeError
from nacl.public import Box, PrivateKey, PublicKey
from nacl.secret import SecretBox

VERSION = 2
NO_PASS = bytes(32)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: Any, limit: int = 64 * 1024) -> bytes | None:
    if not isinstance(text, str) or len(text) > limit:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def _no_constant(name: str) -> Any:
    raise ValueError(f"non-standard JSON constant {name}")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999
        raise ValueError("a number out of range")
    return value


def loads(text: str | bytes) -> Any:
    """Strict JSON: NaN, Infinity, -Infinity and numbers too large for a float are refused (ValueError), as
    is anything not JSON; nesting too deep raises RecursionError."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite)


def _half(data: bytes) -> bytes:
    return hashlib.sha512(data).digest()[:32]


def seat_key(token: str) -> bytes:
    """The seat's part of the pass, from its token (the page computes the same with nacl.hash)."""
    return _half(token.encode("utf-8"))


def pass_of(token: str, device: str = "") -> bytes:
    """What a QR join proves: the seat's token and, for a phone the seat knows, its device key."""
    return seat_key(token) + (_half(device.encode("utf-8")) if device else NO_PASS)


def number_of(key: bytes) -> str:
    """The four digits both the phone and the tablet show for a connection (from its key): equal only
    when nobody sits between them."""
    digest = hashlib.sha512(b"tablehost/number" + key).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 10000:04d}"


class Channel:
    """One connection's sealing: its challenge, the kiosk's ephemeral key pair, the phone's public key,
    the agreed key, counters. Used on the server's loop thread only."""

    def __init__(self) -> None:
        self.challenge = b64(secrets.token_bytes(16))
        self._ephemeral: PrivateKey | None = PrivateKey.generate()
        self._public = bytes(self._ephemeral.public_key)
        self._phone: bytes | None = None
        self._shared: bytes | None = None
        self.key: bytes | None = None
        self.final = False  # joined (or waiting for the tablet's OK): no other join on this connection
        self._sent = 0
        self._heard = 0

    def greeting(self) -> dict[str, Any]:
        """Sent in the clear when the socket opens: the kiosk's key committed to, not shown."""
        return {"t": "hi", "v": VERSION, "c": self.challenge, "h": b64(_half(self._public))}

    def exchange(self, phone_public: Any) -> dict[str, Any] | None:
        """The phone's ephemeral public key (once per connection): the kiosk's key in reply, or None."""
        raw = unb64(phone_public, 64)
        if self._phone is not None or self._ephemeral is None or raw is None or len(raw) != PublicKey.SIZE:
            return None
        try:
            shared = bytes(Box(self._ephemeral, PublicKey(raw)).shared_key())
        except NaclRuntimeError:  # a low-order point (all zeros…): libsodium refuses it
            return None
        self._phone, self._shared = raw, shared
        self._ephemeral = None  # the secret half is not needed again
        return {"t": "key", "pk": b64(self._public)}

    def key_for(self, seat_pass: bytes) -> bytes | None:
        """K for this connection and a pass (NO_PASS twice for a typed code); None before the exchange."""
        if self._shared is None or self._phone is None:
            return None
        parts = (b"tablehost/2", self._shared, self._phone, self._public,
                 hashlib.sha512(self.challenge.encode("ascii")).digest(), seat_pass)
        return hashlib.sha512(b"".join(parts)).digest()[:SecretBox.KEY_SIZE]

    def take(self, key: bytes) -> None:
        """The join was accepted: `key` is this connection's for good."""
        self.key = key
        self.final = True

    def open(self, box: Any, key: bytes | None = None) -> dict[str, Any] | None:
        """The message in a phone's box, or None (wrong key, tampered, replayed, another connection's)."""
        key = key if key is not None else self.key
        raw = unb64(box)
        if key is None or raw is None or len(raw) <= SecretBox.NONCE_SIZE:
            return None
        try:
            inner = loads(SecretBox(key).decrypt(raw))
        except (CryptoError, ValueError, UnicodeDecodeError, RecursionError):
            return None
        if not isinstance(inner, dict) or inner.get("d") != "up" or inner.get("c") != self.challenge:
            return None
        count, message = inner.get("i"), inner.get("m")
        if not isinstance(count, int) or isinstance(count, bool) or count <= self._heard or not isinstance(message, dict):
            return None
        self._heard = count
        return message

    def wrap(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """What goes on the wire: sealed once a key is taken (before that only greetings and refusals)."""
        if self.key is None:
            return dict(message)
        self._sent += 1
        inner = json.dumps({"c": self.challenge, "i": self._sent, "d": "dn", "m": message}, ensure_ascii=False,
                           allow_nan=False)
        return {"box": b64(bytes(SecretBox(self.key).encrypt(inner.encode("utf-8"))))}
