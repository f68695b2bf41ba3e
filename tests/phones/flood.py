"""A Wi-Fi guest holding idle WebSockets open: run as a separate process (its own file-handle limit) by
tests/phones/test_limits.py.

    python -m tests.phones.flood PORT COUNT ADDRESSES

Opens COUNT WebSocket connections to 127.0.0.1:PORT, spread over ADDRESSES source addresses (127.0.0.2,
127.0.0.3, ...), completes each handshake and then sends nothing. Prints one JSON line with what
happened ({"tried", "upgraded", "refused"}), then keeps the sockets open until stdin closes (the test
kills it), counting those the server closed."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import resource
import socket
import sys

HANDSHAKE = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")


async def one(port: int, source: str) -> tuple[str, asyncio.StreamReader | None, asyncio.StreamWriter | None]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((source, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock)
    except OSError:
        sock.close()
        return "refused", None, None
    try:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(HANDSHAKE.format(port=port, key=key).encode())
        line = await asyncio.wait_for(reader.readline(), 10)
        if b" 101 " in line:
            return "upgraded", reader, writer
    except (TimeoutError, OSError):
        pass
    writer.close()
    return "refused", None, None


async def main(port: int, count: int, addresses: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 200)), hard))
    sources = [f"127.0.0.{2 + i % addresses}" for i in range(count)]
    results = []
    for start in range(0, count, 100):  # in waves, as a script on a laptop would
        results += await asyncio.gather(*(one(port, s) for s in sources[start:start + 100]))
    upgraded = [r for r in results if r[0] == "upgraded"]
    print(json.dumps({"tried": count, "upgraded": len(upgraded), "refused": count - len(upgraded)}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # hold until the test is done


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
