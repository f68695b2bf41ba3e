"""Sealed phone traffic (issue 19): every WebSocket message after the greeting is a NaCl secretbox
(XSalsa20-Poly1305, PyNaCl here, TweetNaCl on the page), so a Wi-Fi eavesdropper reads no view, secret,
token, code or device key, and cannot forge or replay an input.

Keys:
- A seat's key is SHA-512(token)[:32]. The token (256 bits, one per seat per game, new when the host
  reissues the seat's code) travels only in the QR code's URL fragment (`#t=`), which browsers never send;
  the server learns which seat joined by which seat key opens the join box. A player who scanned their
  own QR code cannot open another seat's traffic.
- A phone that types the short code has no key yet: it agrees one with the server by X25519 (NaCl box,
  an ephemeral key pair on each side per connection) and sends the code inside the box; the seat's token
  then comes back sealed, for the next connection. This keeps a passive listener out; an active attacker
  on the Wi-Fi at that moment could relay it — the QR code is the safer way in.

Every box holds {"c": the connection's challenge, "i": a counter rising per direction, "d": "up"|"dn",
"m": the message}: a box from another connection, an old box or a reflected one is refused.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from nacl.exceptions import CryptoError
from nacl.exceptions import RuntimeError as NaclRuntimeError
from nacl.public import Box, PrivateKey, PublicKey
from nacl.secret import SecretBox


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def unb64(text: Any, limit: int = 64 * 1024) -> bytes | None:
    if not isinstance(text, str) or len(text) > limit:
        return None
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def seat_key(token: str) -> bytes:
    """The seat's secretbox key from its token (the page computes the same with nacl.hash)."""
    return hashlib.sha512(token.encode("utf-8")).digest()[:SecretBox.KEY_SIZE]


class Channel:
    """One connection's sealing: its challenge, the server's ephemeral key pair, the agreed key, counters.
    Used on the server's loop thread only."""

    def __init__(self) -> None:
        self.challenge = b64(secrets.token_bytes(16))
        self._ephemeral = PrivateKey.generate()
        self.key: bytes | None = None
        self._sent = 0
        self._heard = 0

    def greeting(self) -> dict[str, Any]:
        """Sent in the clear when the socket opens: nothing secret."""
        return {"t": "hi", "c": self.challenge, "pk": b64(bytes(self._ephemeral.public_key))}

    def agree(self, phone_public: Any) -> bytes | None:
        """The key shared with a phone that sent its ephemeral public key (typed-code joins)."""
        raw = unb64(phone_public, 64)
        if raw is None or len(raw) != PublicKey.SIZE:
            return None
        try:
            return bytes(Box(self._ephemeral, PublicKey(raw)).shared_key())
        except NaclRuntimeError:  # a low-order point (all zeros…): libsodium refuses it
            return None

    def open(self, box: Any, key: bytes | None = None) -> dict[str, Any] | None:
        """The message in a phone's box, or None (wrong key, tampered, replayed, another connection's)."""
        key = key if key is not None else self.key
        raw = unb64(box)
        if key is None or raw is None or len(raw) <= SecretBox.NONCE_SIZE:
            return None
        try:
            inner = json.loads(SecretBox(key).decrypt(raw))
        except (CryptoError, ValueError, UnicodeDecodeError):
            return None
        if not isinstance(inner, dict) or inner.get("d") != "up" or inner.get("c") != self.challenge:
            return None
        count, message = inner.get("i"), inner.get("m")
        if not isinstance(count, int) or isinstance(count, bool) or count <= self._heard or not isinstance(message, dict):
            return None
        self._heard = count
        return message

    def open_join(self, box: Any, tokens: Iterable[str]) -> tuple[str, dict[str, Any]] | None:
        """Which seat's key opens this join box: (token, message), and that key is the connection's now."""
        for token in tokens:
            key = seat_key(token)
            message = self.open(box, key)
            if message is not None:
                self.key = key
                return token, message
        return None

    def wrap(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """What goes on the wire: sealed once a key is agreed (before that only greetings and refusals)."""
        if self.key is None:
            return dict(message)
        self._sent += 1
        inner = json.dumps({"c": self.challenge, "i": self._sent, "d": "dn", "m": message}, ensure_ascii=False)
        return {"box": b64(bytes(SecretBox(self.key).encrypt(inner.encode("utf-8"))))}
