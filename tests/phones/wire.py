"""What crosses the network between phones and the kiosk, as a Wi-Fi eavesdropper would record it: a TCP
proxy on loopback that forwards every byte and keeps a copy, and a reader that turns a recorded
connection into its HTTP heads and WebSocket messages (unmasked, inflated when compressed)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import threading
import zlib
from dataclasses import dataclass, field


@dataclass
class Recorded:
    up: bytearray = field(default_factory=bytearray)  # phone → kiosk
    down: bytearray = field(default_factory=bytearray)  # kiosk → phone


class RecordingProxy:
    """127.0.0.1:`port` → 127.0.0.1:`target`, on its own thread; `connections` keeps every byte."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = 0
        self.connections: list[Recorded] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.AbstractServer | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="recording-proxy", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> RecordingProxy:
        self._thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5)

    def _run(self) -> None:
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._server = loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        loop.run_forever()
        self._server.close()
        tasks = asyncio.all_tasks(loop)
        for task in tasks:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        record = Recorded()
        self.connections.append(record)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter, into: bytearray) -> None:
            try:
                while data := await src.read(65536):
                    into += data
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(pipe(reader, up_writer, record.up), pipe(up_reader, writer, record.down))


def _head(stream: bytes) -> tuple[str, bytes]:
    head, _, rest = stream.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


def ws_messages(record: Recorded) -> tuple[list[bytes], list[bytes]]:
    """The WebSocket messages of a recorded connection (phone → kiosk, kiosk → phone); ([], []) when it
    was plain HTTP."""
    down_head, down_rest = _head(bytes(record.down))
    if " 101 " not in down_head.split("\r\n", 1)[0]:
        return [], []
    _, up_rest = _head(bytes(record.up))
    deflate = "permessage-deflate" in down_head.lower()
    return _frames(up_rest, deflate), _frames(down_rest, deflate)


def _frames(data: bytes, deflate: bool) -> list[bytes]:
    out: list[bytes] = []
    inflater = zlib.decompressobj(-15)
    i, parts, compressed = 0, bytearray(), False
    while i + 2 <= len(data):
        b0, b1 = data[i], data[i + 1]
        i += 2
        n = b1 & 0x7F
        if n == 126:
            n, i = int.from_bytes(data[i:i + 2], "big"), i + 2
        elif n == 127:
            n, i = int.from_bytes(data[i:i + 8], "big"), i + 8
        mask = b""
        if b1 & 0x80:
            mask, i = data[i:i + 4], i + 4
        payload = bytearray(data[i:i + n])
        i += n
        if mask:
            for k in range(len(payload)):
                payload[k] ^= mask[k % 4]
        opcode = b0 & 0x0F
        if opcode >= 8:  # close, ping, pong
            continue
        if opcode in (1, 2):
            parts, compressed = bytearray(), bool(b0 & 0x40)
        parts += payload
        if b0 & 0x80:
            message = bytes(parts)
            if deflate and compressed:
                try:
                    message = inflater.decompress(message + b"\x00\x00\xff\xff")
                except zlib.error:
                    inflater = zlib.decompressobj(-15)
                    message = inflater.decompress(message + b"\x00\x00\xff\xff")
            out.append(message)
    return out


def forms(secret: str) -> list[bytes]:
    """The ways a secret string could appear on the wire: as UTF-8, JSON-escaped, in base64."""
    raw = secret.encode("utf-8")
    escaped = secret.encode("ascii", "backslashreplace").replace(b"\\x", b"\\u00")
    return list({raw, escaped, base64.b64encode(raw).rstrip(b"="), base64.urlsafe_b64encode(raw).rstrip(b"=")})
