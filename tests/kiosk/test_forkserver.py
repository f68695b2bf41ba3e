"""tests/kiosk/forkserver.py: a run killed in the middle of writing a line ends cleanly for the reader."""

from __future__ import annotations

import io

from tests.kiosk.forkserver import END, Child


def test_a_line_cut_short_by_the_kill_is_dropped_and_the_end_still_read() -> None:
    """The kill cut "ACK 445" before its newline; the server's END came on the same line, and a full run failed on
    int('445\\x00forkserver-end'). The cut line is dropped, the exit code read."""
    child = Child(123, io.StringIO(f"ACK 443\nACK 445{END} -9\n"))
    assert list(child) == ["ACK 443\n"]
    assert child.returncode == -9 and child.readline() == ""
    whole = Child(124, io.StringIO(f"ACK 1\n{END} 0\n"))
    assert whole.wait() == 0
