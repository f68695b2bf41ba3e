"""A real mosquitto on loopback for the floor tests and the bench, configured by deploy/floor/install.sh itself
(a dry run into a scratch root: the café's config, ACL and password file, listener 127.0.0.1)."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    def __init__(self, folder: Path, tables: int = 30, port: int | None = None, extra: tuple[str, ...] = ()) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.root = folder / "root"
        out = subprocess.run(["bash", str(ROOT / "deploy/floor/install.sh"), "--root", str(self.root), "--dry-run",
                              "--address", "127.0.0.1", "--port", str(self.port), "--tables", str(tables),
                              "--pin", "2468", *extra],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise RuntimeError(f"install.sh failed: {out.stderr}")
        self.passwords = dict(line.split() for line in
                              (self.root / "etc/tablehost/floor-tables.txt").read_text().splitlines())
        data = folder / "data"
        data.mkdir(exist_ok=True)
        # what Debian's /etc/mosquitto/mosquitto.conf adds around the café's conf.d file (user root: the test
        # folder is root's own)
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(f"persistence true\npersistence_location {data}/\nuser root\n"
                             f"log_dest file {folder}/mosquitto.log\n"
                             f"include_dir {self.root}/etc/mosquitto/conf.d\n")
        self.proc: subprocess.Popen[bytes] | None = None
        self.ever_started = False  # clients know its port from then on

    def start(self, timeout: float = 10.0) -> None:
        """Our mosquitto listening on `port`. A port found free can be taken by another test's broker (the other
        xdist worker) before ours binds it: ours then exits ("Address already in use") while the connection check
        reached the other one, whose passwords are not ours ("Not authorized"). So it waits for its own log's
        "running"; on a taken port it moves to another, while no client has been given this one (first start)."""
        for _ in range(5):
            if self._started(timeout):
                self.ever_started = True
                return
            if self.ever_started:
                raise RuntimeError(f"port {self.port} was taken while the broker was down: {self.log()}")
            self._move(free_port())
        raise RuntimeError(f"no free port for mosquitto: {self.log()}")

    def _started(self, timeout: float) -> bool:
        """Started and listening (True), or exited because its port is taken (False)."""
        before = len(self.log())  # the log goes on across restarts: only this start's lines count
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                self.proc = None
                if "Address already in use" in err + self.log()[before:]:
                    return False
                raise RuntimeError(f"mosquitto exited: {err} {self.log()}")
            if " running" in self.log()[before:]:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1.0):
                    return True
            time.sleep(0.05)
        raise RuntimeError("mosquitto did not listen in time")

    def _move(self, port: int) -> None:
        """The broker's listener (and the floor page's setting) on `port` instead: the configuration install.sh
        wrote is kept (its passwords may already be in another broker's, a chain's bridges)."""
        for path, old, new in ((self.root / "etc/mosquitto/conf.d/tablehost.conf", f"listener {self.port} ",
                                f"listener {port} "),
                               (self.root / "etc/tablehost/floor.env", f"TABLEHOST_FLOOR_PORT={self.port}\n",
                                f"TABLEHOST_FLOOR_PORT={port}\n")):
            text = path.read_text()
            assert old in text, (path, old)
            path.write_text(text.replace(old, new))
        self.port = port

    def kill(self) -> None:
        """Hard stop (SIGKILL): what a power cut does to the broker."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(5)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
            self.proc = None

    def log(self) -> str:
        path = self.folder / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid
