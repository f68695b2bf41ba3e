"""bench/frames.py's background load: voice commands into the kiosk's VoiceController and the Clue notebook's
tutor, each on its own thread while the scripted play runs."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

PHRASES = ("다음", "이전", "다시", "멈춰", "네", "아니요", "도움말", "처음으로")

class Voice(threading.Thread):
    """Push-to-talk utterances into the kiosk's VoiceController, back to back."""

    def __init__(self, controller: Any, paced: bool = False) -> None:
        super().__init__(name="bench-voice", daemon=True)
        self.controller = controller
        # paced: the next utterance once the last one's vote is decided, as a guest waits for the answer (else
        # on a loaded machine the votes queue up without bound: 143 threads and 1.9 GB RSS in one run)
        self.paced = paced
        self.stop = threading.Event()
        self.quiet = threading.Event()  # set: nobody speaks (nobody at the table)
        self.count = 0
        from audio import speechgen as sg

        self.clips: list[bytes] = []
        if not sg.tools_available():
            for i, p in enumerate(PHRASES):
                self.clips.append(sg.silence(0.3) + sg.speak(p, sg.Voice("", 140 + 10 * (i % 4), 50))
                                  + sg.silence(0.5))

    def run(self) -> None:
        from kivy.clock import Clock

        rng = random.Random(5)
        while not self.stop.is_set() and self.clips:
            if self.quiet.is_set():
                time.sleep(0.1)
                continue
            pcm = rng.choice(self.clips)
            Clock.schedule_once(lambda _dt: self.controller.press())
            time.sleep(0.05)
            for i in range(0, len(pcm), 3200):
                self.controller.feed(pcm[i : i + 3200])
                time.sleep(0.02)  # 0.1 s of audio every 20 ms: five times real time
            Clock.schedule_once(lambda _dt: self.controller.release())
            self.count += 1
            time.sleep(1.0)
            deadline = time.monotonic() + 30
            while self.paced and getattr(self.controller, "_deciding", 0) and time.monotonic() < deadline:
                time.sleep(0.1)


class Tutor(threading.Thread):
    """The Clue notebook's tutor (its own worker pool) on fresh 6-player notebooks, one after another."""

    def __init__(self) -> None:
        super().__init__(name="bench-tutor", daemon=True)
        self.stop = threading.Event()
        self.count = 0

    def run(self) -> None:
        from engines.clue.content import CLASSIC
        from engines.clue.simulate import deal, play
        from kiosk.games.clue import notebook

        cats = tuple(CLASSIC.ids(k) for k in range(3))
        g = 0
        while not self.stop.is_set():
            rng = random.Random(f"frames:{g}")
            d = deal(cats, 6, rng)
            for turn, kn in play(d, rng, 30):
                if self.stop.is_set():
                    return
                if turn % 6 == 5:
                    notebook._POOL.submit(notebook.tutor, kn, None, True).result()
                    self.count += 1
                    time.sleep(0.5)
            g += 1
