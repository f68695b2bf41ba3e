"""The café floor under load, through a real mosquitto on loopback (configured by deploy/floor/install.sh):
N tablets publish their status once a second each and call staff now and then; the floor page (board, event
store, web page) pushes to the staff's page, which acknowledges every call it shows.

The page is the real one in headless Chromium (the default): the latency is from a guest's call
(TableFloor.call on the tablet, wall clock) to the call's row in the page's DOM at the next animation frame
(p50/p95/max), with Chromium's CPU (all its processes). `--page python` uses a WebSocket client instead
(latency to the socket only). Also CPU and memory of the broker, the tablets' processes (N kiosk clients)
and the floor page process; bytes pushed to the page.

    python -m bench.floor --tables 200 --seconds 30      # the café of #39.3
    python -m bench.floor --page python                  # 50 tables, 60 s, no browser
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PER_PROCESS = 100
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu_rss(pid: int) -> tuple[float, float]:
    """(CPU seconds, RSS MB) of a process from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    rss = 0.0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    return cpu, rss


# ---------------------------------------------------------------- the tablets' process
def run_tablets(port: int, passwords: dict[str, str], first: int, tables: int, seconds: float, call_every: float,
                folder: Path) -> None:
    from floor.client import FloorConfig
    from floor.report import REASONS
    from floor.table import TableFloor

    floors = []
    for i in range(first, first + tables):
        table = f"t{i + 1:02d}"
        floor = TableFloor(FloorConfig("127.0.0.1", port, table, passwords[table]), folder / table)
        floor.start()
        floor.seated()
        floors.append(floor)
    end = time.monotonic() + 15
    while time.monotonic() < end and not all(f.client.connected for f in floors):
        time.sleep(0.05)
    print(json.dumps({"ready": True}), flush=True)
    rng = random.Random(first)
    start = time.monotonic()
    next_call = start + call_every
    statuses = calls = 0
    second = 0
    while time.monotonic() - start < seconds:
        second += 1
        tick_end = start + second
        for n, floor in enumerate(floors):  # one status a second each, spread over the second
            slot = start + second - 1 + n / len(floors)
            while time.monotonic() < slot:
                if time.monotonic() >= next_call:
                    f = rng.choice(floors)
                    t0 = time.time()
                    call = f.call(rng.choice(REASONS))
                    print(json.dumps({"call": call["id"], "t": t0}), flush=True)
                    calls += 1
                    next_call += call_every
                time.sleep(0.001)
            floor.heartbeat()
            statuses += 1
        while time.monotonic() < tick_end:
            time.sleep(0.001)
    for f in floors:
        f.client.wait_idle(10)
    cpu, rss = proc_cpu_rss(os.getpid())
    pending = sum(f.outbox.pending() for f in floors)
    for f in floors:
        f.stop()
    print(json.dumps({"done": True, "cpu": cpu, "rss": rss, "statuses": statuses, "calls": calls,
                      "pending": pending}), flush=True)


# ---------------------------------------------------------------- the page client
class PageClient:
    def __init__(self, url: str, pin: str) -> None:
        self.url, self.pin = url, pin
        self.cpu = 0.0
        self.seen: dict[str, float] = {}
        self.messages = 0
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stopping = False
        self.floor: Any = None
        threading.Thread(target=self.loop.run_until_complete, args=(self._run(),), daemon=True).start()

    async def _run(self) -> None:
        import aiohttp

        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(self.url + "/login", json={"pin": self.pin}) as r:
                assert r.status == 200, await r.text()
            async with http.ws_connect(self.url.replace("http", "ws") + "/ws") as ws:
                self.ready.set()
                async for msg in ws:
                    now = time.time()
                    self.messages += 1
                    data = json.loads(msg.data)
                    for table in data.get("tables", []):
                        for call in table.get("calls", []):
                            if call["id"] not in self.seen:
                                self.seen[call["id"]] = now
                                await ws.send_str(json.dumps({"t": "ack", "table": table["table"],
                                                              "call": call["id"]}))
                    if self.stopping:
                        return


# In the page: each call row, when it enters the DOM, is timed at the next animation frame (wall clock, ms) and
# acknowledged, as staff would.
WATCH = """
window.benchSeen = {};
new MutationObserver((muts) => {
  for (const m of muts) for (const n of m.addedNodes) {
    if (n.nodeType !== 1) continue;
    for (const row of (n.matches(".call") ? [n] : n.querySelectorAll(".call"))) {
      const button = row.querySelector("button");
      const id = button ? button.dataset.testid.split("-").pop() : "";
      if (id in window.benchSeen) continue;
      window.benchSeen[id] = 0;
      requestAnimationFrame(() => {
        window.benchSeen[id] = performance.timeOrigin + performance.now();
        setTimeout(() => { if (button.isConnected) button.click(); }, 50);
      });
    }
  }
}).observe(document.getElementById("tables"), { childList: true, subtree: true });
"""


class BrowserPage:
    """The floor page in headless Chromium (Playwright, sync API: used from the main thread only)."""

    def __init__(self, url: str, pin: str) -> None:
        from playwright.sync_api import sync_playwright

        from tests.phones.test_e2e_browser import ARGS, CHROMIUM

        self._pw = sync_playwright().start()
        self.browser = self._pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        self.page = self.browser.new_page(viewport={"width": 1920, "height": 1080})
        self.page.goto(url + "/")
        self.page.get_by_test_id("pin").fill(pin)
        self.page.get_by_test_id("login-go").click()
        self.page.get_by_test_id("tables").wait_for()
        self.page.evaluate(WATCH)
        self.seen: dict[str, float] = {}
        self.messages = 0
        self.cpu = 0.0

    def collect(self) -> None:
        self.cpu = sum(proc_cpu_rss(pid)[0] for pid in chromium_pids())
        seen = self.page.evaluate("window.benchSeen")
        self.seen = {k: v / 1000 for k, v in seen.items() if v}
        self.messages = len(seen)

    def close(self) -> None:
        self.browser.close()
        self._pw.stop()


def chromium_pids() -> list[int]:
    """Chromium's processes under this one (the browser, its renderers, GPU and utility processes)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parents[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - mine
        mine |= frontier
    out = []
    for pid in mine:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"chrom" in f.read():
                    out.append(pid)
        except OSError:
            continue
    return out


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description="the café floor under load (real mosquitto)")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--call-every", type=float, default=0.5, help="seconds between calls (all tables)")
    parser.add_argument("--page", choices=("chromium", "python"), default="chromium",
                        help="the staff's page: the real one in Chromium, or a WebSocket client")
    parser.add_argument("--role", default="main", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--folder", default="", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.role == "tablets":
        passwords = json.loads(sys.stdin.readline())
        run_tablets(args.port, passwords, args.first, args.tables, args.seconds, args.call_every, Path(args.folder))
        return

    sys.path.insert(0, str(ROOT))
    from floor.serve import Floor, FloorSetup
    from tests.floor.broker import Broker

    folder = Path(tempfile.mkdtemp(prefix="tablehost-floor-bench-"))
    broker = Broker(folder / "broker", tables=args.tables)
    broker.start()
    setup = FloorSetup(broker="127.0.0.1", broker_port=broker.port, password=broker.passwords["floor"],
                       listen="127.0.0.1", web_port=0, pin="2468", data_dir=folder / "floorbox")
    floor = Floor(setup)
    floor.start()
    floor.board.wait_connected()
    page: Any
    if args.page == "chromium":
        page = BrowserPage(floor.server.url, "2468")
    else:
        page = PageClient(floor.server.url, "2468")
        page.ready.wait(10)
    # tablets in processes of at most PER_PROCESS (paho waits on select(): file numbers must stay under 1024)
    groups = [(first, min(PER_PROCESS, args.tables - first)) for first in range(0, args.tables, PER_PROCESS)]
    children = []
    for first, count in groups:
        child = subprocess.Popen([sys.executable, "-m", "bench.floor", "--role", "tablets", "--port", str(broker.port),
                                  "--first", str(first), "--tables", str(count), "--seconds", str(args.seconds),
                                  "--call-every", str(args.call_every * len(groups)), "--folder",
                                  str(folder / "tablets")],
                                 cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert child.stdin is not None
        child.stdin.write(json.dumps(broker.passwords) + "\n")
        child.stdin.flush()
        children.append(child)
    calls: dict[str, float] = {}
    summary: dict[str, Any] = {"cpu": 0.0, "rss": 0.0, "statuses": 0, "calls": 0, "pending": 0}
    lines: queue.Queue[str] = queue.Queue()
    for child in children:
        threading.Thread(target=lambda c=child: [lines.put(x) for x in c.stdout], daemon=True).start()
    ready = done = 0
    b0 = f0 = (0.0, 0.0)
    t0 = time.monotonic()
    while done < len(children):
        data = json.loads(lines.get())
        if data.get("ready"):
            ready += 1
            if ready == len(children):
                b0, f0 = proc_cpu_rss(broker.pid()), proc_cpu_rss(os.getpid())
                c0 = sum(proc_cpu_rss(pid)[0] for pid in chromium_pids()) if args.page == "chromium" else 0.0
                t0 = time.monotonic()
        elif "call" in data:
            calls[data["call"]] = data["t"]
        elif data.get("done"):
            done += 1
            for k in ("cpu", "rss", "statuses", "calls", "pending"):
                summary[k] += data[k]
    for child in children:
        child.wait()
    wall = time.monotonic() - t0
    time.sleep(1.0)
    b1, f1 = proc_cpu_rss(broker.pid()), proc_cpu_rss(os.getpid())
    if args.page == "chromium":
        page.collect()
        page.close()
    lat = [(page.seen[c] - t) * 1000 for c, t in calls.items() if c in page.seen]
    missing = len(calls) - len(lat)
    page.stopping = True
    pushed = floor.server.pushed_bytes
    floor.stop()
    broker.stop()
    n = args.tables
    broker_cpu = (b1[0] - b0[0]) / wall * 100
    floor_cpu = (f1[0] - f0[0]) / wall * 100
    client_cpu = summary["cpu"] / wall * 100
    print(f"{n} tables, {args.seconds:.0f} s, {summary['statuses']} statuses ({summary['statuses'] / args.seconds:.0f}/s), "
          f"{len(calls)} calls, {missing} not seen on the page, {summary['pending']} left in outboxes")
    if lat:
        print(f"call → {'row in Chromium' if args.page == 'chromium' else 'page socket'}: p50 {percentile(lat, 0.5):.1f} ms, p95 {percentile(lat, 0.95):.1f} ms, "
              f"max {max(lat):.1f} ms")
    print(f"pushed to the page: {floor.server.pushes} messages, {pushed / 1024:.0f} KiB "
          f"({pushed / wall / 1024:.1f} KiB/s)")
    if args.page == "chromium":
        print(f"Chromium (all its processes): CPU {(page.cpu - c0) / wall * 100:.1f} % of a core")
    print(f"broker (mosquitto): CPU {broker_cpu:.1f} % of a core, RSS {b1[1]:.1f} MB")
    print(f"tablets' processes ({n} kiosk clients in {len(children)}): CPU {client_cpu:.1f} % of a core "
          f"({client_cpu / n:.2f} % per tablet), RSS {summary['rss']:.1f} MB")
    print(f"floor page process (board, store, web, and the measuring page client): CPU {floor_cpu:.1f} % "
          f"of a core, RSS {f1[1]:.1f} MB")
    scale = 200 / n
    print(f"estimate for 200 tables (linear in tables): broker {broker_cpu * scale:.1f} %, floor page "
          f"{floor_cpu * scale:.1f} % of a core; each tablet's own client stays at {client_cpu / n:.2f} %")


if __name__ == "__main__":
    main()
