"""Sounds we make ourselves (no downloaded assets): synthesised in pure Python at the mixer rate, once.

    SOUNDS = {"timer_warning", "alarm", "your_turn", "reveal", "winner", "staff_call"}
    narrator.play_sound("your_turn")   # mixed over narration (effect channel), never cutting it
"""

from __future__ import annotations

import math
import threading
from array import array
from collections.abc import Callable
from functools import cache

from audio.pcm import MAX, Clip
from audio.playback import RATE

Note = tuple[float, float, float, float]  # (start s, frequency Hz, length s, amplitude 0..1)


def _render(notes: list[Note], total: float, *, rate: int = RATE, decay: float = 6.0,
            harmonics: tuple[float, ...] = (1.0, 0.35, 0.12), attack: float = 0.006) -> Clip:
    buf = [0.0] * int(total * rate)
    two_pi = 2 * math.pi
    for start, freq, length, amp in notes:
        first = int(start * rate)
        n = min(int(length * rate), len(buf) - first)
        release = min(0.02, length / 4)
        for k in range(n):
            t = k / rate
            env = min(1.0, t / attack) * math.exp(-decay * t)
            if t > length - release:
                env *= max(0.0, (length - t) / release)
            w = two_pi * freq * t
            buf[first + k] += amp * env * sum(h * math.sin(w * (i + 1)) for i, h in enumerate(harmonics))
    loud = max((abs(x) for x in buf), default=0.0) or 1.0
    scale = 0.8 * MAX / loud
    return Clip(array("h", (int(x * scale) for x in buf)), rate)


def timer_warning() -> Clip:
    """Two short high beeps: time is running out."""
    return _render([(0.0, 880.0, 0.12, 1.0), (0.22, 880.0, 0.12, 1.0)], 0.4, decay=2.0,
                   harmonics=(1.0, 0.2))


def alarm() -> Clip:
    """Time is up: six alternating pulses, about 1.5 s."""
    notes = [(i * 0.25, 988.0 if i % 2 == 0 else 784.0, 0.2, 1.0) for i in range(6)]
    return _render(notes, 1.55, decay=1.0, harmonics=(1.0, 0.5, 0.25))


def your_turn() -> Clip:
    """A soft two-note bell (E6 → C6)."""
    return _render([(0.0, 1318.5, 0.45, 0.8), (0.18, 1046.5, 0.6, 1.0)], 0.8, decay=5.0,
                   harmonics=(1.0, 0.3, 0.08))


def reveal() -> Clip:
    """A rising arpeggio into a held minor chord: the solution is coming."""
    arp = [(i * 0.09, f, 0.35, 0.7) for i, f in enumerate((220.0, 261.6, 329.6, 440.0))]
    chord = [(0.38, f, 0.9, 0.6) for f in (220.0, 261.6, 329.6)]
    return _render(arp + chord, 1.3, decay=2.2, harmonics=(1.0, 0.45, 0.2))


def winner() -> Clip:
    """A bright major fanfare (C5 E5 G5 → C6 chord), about 1.4 s: the game is won."""
    arp = [(i * 0.11, f, 0.3, 0.8) for i, f in enumerate((523.3, 659.3, 784.0))]
    chord = [(0.36, f, 1.0, 0.7) for f in (523.3, 659.3, 784.0, 1046.5)]
    return _render(arp + chord, 1.4, decay=1.8, harmonics=(1.0, 0.4, 0.15))


def staff_call() -> Clip:
    """A guest called staff: a three-note door chime (G5 E5 C5), about 1.2 s, heard at the counter."""
    notes = [(i * 0.3, f, 0.6, 1.0) for i, f in enumerate((784.0, 659.3, 523.3))]
    return _render(notes, 1.2, decay=3.0, harmonics=(1.0, 0.5, 0.1))


SOUNDS: dict[str, Callable[[], Clip]] = {
    "timer_warning": timer_warning,
    "alarm": alarm,
    "your_turn": your_turn,
    "reveal": reveal,
    "winner": winner,
    "staff_call": staff_call,  # a guest called staff (kiosk/staff_call.py)
}


@cache
def sound(name: str) -> Clip:
    """The named sound (rendered once per process). KeyError for an unknown name."""
    return SOUNDS[name]()


_prewarm_lock = threading.Lock()
_prewarmed = False


def prewarm() -> None:
    """Generate every sound once in a background thread (~0.8 s of pure Python), so the first
    play_sound() on the UI thread does not stall. Only the first call in a process does anything."""
    global _prewarmed
    with _prewarm_lock:
        if _prewarmed:
            return
        _prewarmed = True
    threading.Thread(target=lambda: [sound(name) for name in SOUNDS], name="sounds", daemon=True).start()
