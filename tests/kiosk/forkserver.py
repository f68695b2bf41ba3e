"""A fork server for the kill -9 tests: one interpreter imports the child's module once (and runs its `preload`, if
it has one: e.g. the content's load); each run is a fork of it, a process of its own that the test kills with
SIGKILL as it would a fresh `python -m MODULE ARGS`. Nothing of the run's (its journal, the journal's thread, its
files) exists before the fork. Saves each run the interpreter's start, the imports and the preload: 0.5-1 s a run
for the content's games, over 250 kills.

    with ForkServer("tests.kiosk.killee_any") as server:   # runs `python -m tests.kiosk.forkserver MODULE`
        child = server.run(game, str(folder))              # as subprocess.Popen: stdout, send_signal, wait, returncode

The server's stdout carries the run's lines, then END and the run's exit code (negative: the signal that ended it,
as Popen's returncode) once the server has reaped it. Runs follow one another, one at a time."""

from __future__ import annotations

import importlib
import json
import os
import signal
import subprocess
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parents[2]
END = "\x00forkserver-end"


class Child:
    """One run, as much of subprocess.Popen as the kill tests use (`child.stdout` is the child itself)."""

    def __init__(self, pid: int, stream: object) -> None:
        self.pid = pid
        self._stream = stream
        self.returncode: int | None = None

    @property
    def stdout(self) -> Child:
        return self

    def readline(self) -> str:
        """The run's next line, or "" once it has ended (as a pipe at EOF)."""
        if self.returncode is not None:
            return ""
        line = self._stream.readline()  # type: ignore[attr-defined]
        assert line, "the fork server ended"
        if END in line:  # after a line the kill cut short ("ACK 44" of "ACK 445", no newline): never a whole line,
            self.returncode = int(line.partition(END)[2].split()[0])  # so dropped, as a reader of whole lines would
            return ""
        return str(line)

    def __iter__(self) -> Iterator[str]:
        while line := self.readline():
            yield line

    def send_signal(self, sig: int) -> None:
        # the server reaps the run only after it ended, and pids are not reused within milliseconds
        if self.returncode is None:
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:  # ended and reaped already (the server's END not read yet)
                pass

    def wait(self) -> int:
        for _ in self:
            pass
        assert self.returncode is not None
        return self.returncode


class ForkServer:
    def __init__(self, module: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.kiosk.forkserver", module], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.child: Child | None = None

    def run(self, *args: str) -> Child:
        """Fork a run of the module's main() with sys.argv[1:] = args; the last run must have ended (waited)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(args) + "\n")
        self.proc.stdin.flush()
        first = self.proc.stdout.readline()
        assert first.startswith("PID "), f"the fork server did not start a run: {first!r}"
        self.child = Child(int(first.split()[1]), self.proc.stdout)
        return self.child

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if kind is not None:  # a failed test: its run (which plays on forever) and the server go
            if self.child is not None and self.child.returncode is None:
                self.child.send_signal(signal.SIGKILL)
            self.proc.kill()
        self.close()


def serve(name: str) -> None:
    module = importlib.import_module(name)
    if hasattr(module, "preload"):
        module.preload()
    for line in sys.stdin:
        args = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the run: its own process from here on, never back in this loop
            code = 1
            try:
                print(f"PID {os.getpid()}", flush=True)
                sys.argv = [name, *args]
                module.main()
                code = 0
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        print(f"{END} {os.waitstatus_to_exitcode(status)}", flush=True)


if __name__ == "__main__":
    serve(sys.argv[1])
