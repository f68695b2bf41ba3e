"""A loopback TCP forwarder standing in for a tablet's Wi-Fi. `cut()` resets every connection and refuses new
ones until `restore()`; `cut(silent=True)` is a Wi-Fi that goes dead without a word: bytes already sent
vanish (the sender's TCP thinks they left), no reset is seen, and the dead connection is dropped when the
link comes back (as after a roam)."""

from __future__ import annotations

import socket
import threading


class Link:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.server.getsockname()[1])
        self.up = True
        self.silent = False
        self.closed = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="link-accept", daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=2)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if self.silent:
                    continue  # into the void
                dst.sendall(data)
        except OSError:
            pass
        if self.silent:
            return  # the other side hears nothing; restore() drops the connection
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self, silent: bool = False) -> None:
        self.up = False
        if silent:
            self.silent = True
            return
        self._drop()

    def _drop(self) -> None:
        with self._lock:
            socks, self._socks = self._socks, []
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass

    def restore(self) -> None:
        if self.silent:
            self._drop()
            self.silent = False
        self.up = True

    def close(self) -> None:
        self.closed = True
        self._drop()
        self.server.close()
