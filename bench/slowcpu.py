"""A slowed CPU for the benches (`--slow 4`): this process, its threads and every child it starts afterwards pinned
to one core and given 1/FACTOR of it by a CFS bandwidth quota, so what a guest feels on a tablet core FACTOR times
slower (the wall time of a tap's frame, a start-up) shows as wall time here.

The quota: cgroup v2's `cpu.max` where the cpu controller is on the unified hierarchy, else cgroup v1's
`cpu.cfs_quota_us` / `cpu.cfs_period_us` (the same CFS bandwidth control; this machine kind mounts v1 for cpu).
The period is short (10 ms, 2.5 ms of it at 4x) so the slowing is spread over a frame, not a 75 ms stall every
100 ms. The group is given a high weight (SHARES_V1 / WEIGHT_V2) so that, on a loaded machine, the quota and not
the other work on the core is what slows it; it still waits for a core when others hold it inside a period (report
`uptime` beside the figures). Needs root (the benches run as root here); without a writable cgroup it says so and
only pins. Not modelled: llvmpipe's drawing threads share the quota (a tablet draws on its GPU), so wall times here
include drawing that a tablet's GPU would do.
"""

from __future__ import annotations

import atexit
import os
import time
from pathlib import Path

PERIOD_US = 10_000
# The group's weight against the rest of the machine: high, so that the quota is what slows the kiosk, not the
# other work on its core (at load 15-20 on 2 cores a fair share is ~10 % of a core, under the quota's 25 %). The
# quota bounds what this takes from the others: 1/FACTOR of one core.
SHARES_V1 = 16 * 1024
WEIGHT_V2 = 1600
V2_ROOT = Path("/sys/fs/cgroup")
V1_CPU = Path("/sys/fs/cgroup/cpu")


def _v2_dir() -> Path | None:
    """The unified hierarchy's root when its cpu controller can be given to a child group."""
    for root in (V2_ROOT, V2_ROOT / "unified"):
        ctl = root / "cgroup.controllers"
        if ctl.exists() and "cpu" in ctl.read_text().split():
            return root
    return None


def slow_down(factor: float, core: int | None = None) -> str:
    """Pin this process (all its threads) to `core` (default: the last) and, when factor > 1, cap it (children
    included) at 1/factor of that core. Returns a line saying what was done, for the bench's output."""
    cpus = sorted(os.sched_getaffinity(0))
    core = cpus[-1] if core is None else core
    # llvmpipe sizes its drawing threads by the cores it may use: pinned to one it has none and draws on the UI
    # thread (its CPU time then counts the drawing a tablet's GPU does). Its threads are kept, under the same quota.
    os.environ.setdefault("LP_NUM_THREADS", str(len(cpus)))
    for tid in os.listdir("/proc/self/task"):  # every thread started so far; new ones inherit it
        try:
            os.sched_setaffinity(int(tid), {core})
        except OSError:
            pass
    done = f"pinned to core {core} (llvmpipe's threads {os.environ['LP_NUM_THREADS']})"
    if factor <= 1:
        return done
    quota = int(PERIOD_US / factor)
    name = f"tablehost-bench-{os.getpid()}"
    try:
        v2 = _v2_dir()
        _sweep(v2 or V1_CPU)
        if v2 is not None:
            (v2 / "cgroup.subtree_control").write_text("+cpu")
            group = v2 / name
            group.mkdir(exist_ok=True)
            (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            (group / "cpu.weight").write_text(str(WEIGHT_V2))
            how = f"cgroup v2 cpu.max {quota} {PERIOD_US}, cpu.weight {WEIGHT_V2}"
        else:
            group = V1_CPU / name
            group.mkdir(exist_ok=True)
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
            (group / "cpu.shares").write_text(str(SHARES_V1))
            how = f"cgroup v1 cpu.cfs_quota_us {quota} per {PERIOD_US} us, cpu.shares {SHARES_V1}"
        (group / "cgroup.procs").write_text(str(os.getpid()))  # moves every thread of the process
    except OSError as exc:
        return f"{done}; NO quota ({exc}): the figures are not slowed"
    atexit.register(_leave, group, group.parent)
    return f"{done}, {how} (1/{factor:g} of a core)"


def _leave(group: Path, parent: Path) -> None:
    try:  # this process, and children still running (the kiosk's speech worker ends after it)
        for pid in [str(os.getpid()), *(group / "cgroup.procs").read_text().split()]:
            (parent / "cgroup.procs").write_text(pid)
    except OSError:
        return
    for _ in range(20):  # a thread still exiting keeps it busy a moment
        try:
            group.rmdir()
            return
        except OSError:
            time.sleep(0.05)
    # left: the next slowed run removes it (`_sweep`)


def _sweep(root: Path) -> None:
    """Remove the groups earlier slowed runs left (their process gone, nothing in them)."""
    for group in root.glob("tablehost-bench-*"):
        pid = group.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            try:
                group.rmdir()
            except OSError:
                pass
