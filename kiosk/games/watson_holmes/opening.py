"""The case opening: the intro, the questions and the special rules narrated with captions and a progress
bar (pause, resume, replay, skip), then the start player, chosen at random as the rulebook says when a
recording replaces the reader (WH-33, WH-34, WH-35).

Speech goes to the app's narrator when it is running (a café recording wins over TTS there); the captions
and the progress bar follow their own estimate, so the opening also works muted or without audio."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from audio.captions import CaptionState, estimate_duration, split_sentences
from engines.watson_holmes.content import Case, Text
from kiosk.games.watson_holmes.case_file import case_parts

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


def _pick(text: Text | None, lang: str) -> str:
    if text is None:
        return ""
    return text.en if lang == "en" and text.en else text.ko


class WhOpening(BoxLayout):
    caption = StringProperty("")
    part_label = StringProperty("")
    progress = NumericProperty(0.0)
    paused = BooleanProperty(False)
    finished = BooleanProperty(False)
    start_text = StringProperty("")
    note = StringProperty("")  # what comes next, or why the opening stands still

    def __init__(self, **kw: Any) -> None:
        """Its widgets (made ahead, in a frame of the set-up form's: a start's frame makes none); `play` plays it."""
        super().__init__(**kw)
        self.alive = False

    def play(self, case: Case, lang: str, tr: Callable[..., str], start_name: str,
             on_begin: Callable[[], None]) -> WhOpening:
        """The case's opening, narrated from its start (once)."""
        self.tr, self.lang, self.on_begin = tr, lang, on_begin
        self.parts = case_parts(case, lambda text: _pick(text, lang))
        self.sentences: list[tuple[int, str, float, float]] = []  # part, sentence, start, end
        t = 0.0
        for i, (_key, text, _audio) in enumerate(self.parts):
            for sentence in split_sentences(text, lang):
                d = estimate_duration(sentence, lang)
                self.sentences.append((i, sentence, t, t + d))
                t += d
        self.total = max(t, 0.1)
        self.part_start = [min((st for p, _s, st, _e in self.sentences if p == i), default=0.0)
                           for i in range(len(self.parts))]
        self.part_len = [sum(e - st for p, _s, st, e in self.sentences if p == i) for i in range(len(self.parts))]
        self.position = 0.0
        self.current_part = 0
        self.seg_index = {f"wh.{case.id}.{key}": i for i, (key, _t, _a) in enumerate(self.parts)}
        self.case_id = case.id
        self.start_text = tr("watson_holmes.opening.start_player", name=start_name)
        self.alive = True
        self.halted = False  # the speech was stopped from outside (voice 그만, a hush): waiting for the guests
        self._mine: set[int] = set()  # utterances of the current playback; older ones are ours no more
        self.narrator = self._narrator()
        if self.narrator is not None:
            self.narrator.listen(self._caption_from_thread)
            self._queue_from(0)
        self._ev = Clock.schedule_interval(self._tick, 0.1)
        self._show()
        return self

    # ------------------------------------------------------------ narration
    def _narrator(self) -> Any:
        app = App.get_running_app()
        return getattr(app, "narrator", None) if app is not None else None

    def _queue_from(self, first: int) -> None:
        """Speak the parts from `first` on (a café recording wins over TTS inside the narrator)."""
        from audio.segments import Segment

        self._mine = set()
        self.halted = False
        for i, (key, text, audio) in enumerate(self.parts):
            if i >= first:
                utt = self.narrator.speak(Segment(f"wh.{self.case_id}.{key}", self.lang, text,
                                                  recording=audio or None), interrupt=i == first)
                self._mine.add(utt.id)

    def _caption_from_thread(self, cap: CaptionState) -> None:
        if self.alive:
            Clock.schedule_once(lambda dt: self._caption(cap))

    def _caption(self, cap: CaptionState) -> None:
        """The narrator's caption state drives the caption and the progress bar."""
        part = self.seg_index.get(cap.segment_id)
        if part is None or cap.utterance not in self._mine or not self.alive or self.finished:
            return  # not ours, or a part we interrupted by skipping or replaying
        if cap.state == "stopped":
            self._halt()
            return
        self.current_part = part
        self.position = self.part_start[part] + cap.progress * self.part_len[part]
        if cap.state in ("finished", "skipped") and part == len(self.parts) - 1:
            self._finish()
        self._show(cap.sentences[cap.current] if cap.sentences else "")

    def _part_at(self, t: float) -> int:
        for part, _s, start, end in self.sentences:
            if start <= t < end:
                return part
        return len(self.parts) - 1

    def _tick(self, dt: float) -> None:
        if self.narrator is not None or self.paused or self.finished:
            return
        self.position = min(self.position + dt, self.total)
        self.current_part = self._part_at(self.position)
        if self.position >= self.total:
            self._finish()
        self._show()

    def _halt(self) -> None:
        """Stopped from outside: stand still, say so, and let 계속 read this part again."""
        self.halted = True
        self.paused = True
        self._mine = set()
        self._show()

    def _show(self, caption: str | None = None) -> None:
        self.progress = self.position / self.total
        if self.finished:
            self.caption = ""
            self.part_label = ""
            self.note = ""
            return
        self.note = self.tr("watson_holmes.opening.halted" if self.halted else "watson_holmes.opening.next")
        part = self.current_part
        key = self.parts[part][0]
        self.part_label = self.tr("watson_holmes.opening.part", part=self.tr(f"watson_holmes.opening.{key}"),
                                  n=part + 1, total=len(self.parts))
        if caption is None:
            caption = next((s for p, s, start, end in self.sentences if start <= self.position < end and p == part),
                           next((s for p, s, _st, _e in self.sentences if p == part), ""))
        self.caption = caption

    def _finish(self) -> None:
        self.finished = True
        self.position = self.total

    # ------------------------------------------------------------ buttons
    def toggle_pause(self) -> None:
        self.paused = not self.paused
        if self.narrator is None:
            self._show()
            return
        if self.halted:  # nothing left to resume: read the part again
            self.narrator.resume()
            self.position = self.part_start[self.current_part]
            self._queue_from(self.current_part)
        else:
            (self.narrator.pause if self.paused else self.narrator.resume)()
        self._show()

    def replay(self) -> None:
        self.position, self.finished, self.paused, self.current_part = 0.0, False, False, 0
        if self.narrator is not None:
            self.narrator.resume()
            self._queue_from(0)
        self._show()

    def skip(self) -> None:
        """Skip to the next part (after the last: the end of the opening)."""
        part = self.current_part
        if part + 1 >= len(self.parts):
            self._finish()
            if self.narrator is not None:
                self.narrator.stop()
        else:
            self.current_part = part + 1
            self.position = self.part_start[part + 1]
            if self.narrator is not None:
                self.narrator.resume()
                self.paused = False
                self._queue_from(part + 1)
        self._show()

    def close(self) -> None:
        """The opening goes away (begun, undone, its game ended): its speech ends with it."""
        if not self.alive:
            return
        self.alive = False
        self._ev.cancel()
        if self.narrator is not None:
            self.narrator.unlisten(self._caption_from_thread)  # the narrator outlives this opening
        if self.narrator is not None and self._mine:
            self.narrator.stop()
        self._mine = set()

    def begin(self) -> None:
        self.close()
        self.on_begin()
