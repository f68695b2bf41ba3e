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

from audio.captions import estimate_duration, split_sentences
from engines.watson_holmes.content import Case, Text

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

    def __init__(self, case: Case, lang: str, tr: Callable[..., str], start_name: str,
                 on_begin: Callable[[], None], **kw: Any) -> None:
        super().__init__(**kw)
        self.tr, self.lang, self.on_begin = tr, lang, on_begin
        questions = "\n".join(f"{q.number}. {_pick(q.text, lang)}" for q in case.questions)
        parts = [("intro", _pick(case.intro, lang), case.intro_audio),
                 ("questions", questions, case.questions_audio),
                 ("rules", _pick(case.special_rules, lang), "")]
        self.parts = [(key, text, audio) for key, text, audio in parts if text.strip()]
        self.case_id = case.id
        self.sentences: list[tuple[int, str, float, float]] = []  # part, sentence, start, end
        t = 0.0
        for i, (_key, text, _audio) in enumerate(self.parts):
            for sentence in split_sentences(text, lang):
                d = estimate_duration(sentence, lang)
                self.sentences.append((i, sentence, t, t + d))
                t += d
        self.total = max(t, 0.1)
        self.position = 0.0
        self.spoken = -1
        self.start_text = tr("watson_holmes.opening.start_player", name=start_name)
        self._ev = Clock.schedule_interval(self._tick, 0.1)
        self._show()

    # ------------------------------------------------------------ narration
    def _narrator(self) -> Any:
        app = App.get_running_app()
        return getattr(app, "narrator", None) if app is not None else None

    def _speak(self, index: int) -> None:
        narrator = self._narrator()
        if narrator is None or index == self.spoken:
            return
        self.spoken = index
        try:
            from audio.segments import Segment

            key, text, audio = self.parts[index]
            narrator.speak(Segment(f"wh.{self.case_id}.{key}", self.lang, text, recording=audio or None),
                           interrupt=True)
        except Exception:  # the narrator reports its own failures; the captions go on
            pass

    def _part_at(self, t: float) -> int:
        for part, _s, start, end in self.sentences:
            if start <= t < end:
                return part
        return len(self.parts) - 1

    def _tick(self, dt: float) -> None:
        if self.paused or self.finished:
            return
        self.position = min(self.position + dt, self.total)
        if self.position >= self.total:
            self._finish()
        self._show()

    def _show(self) -> None:
        self.progress = self.position / self.total
        if self.finished:
            self.caption = ""
            self.part_label = ""
            return
        part = self._part_at(self.position)
        self._speak(part)
        key = self.parts[part][0]
        self.part_label = self.tr("watson_holmes.opening.part", part=self.tr(f"watson_holmes.opening.{key}"),
                                  n=part + 1, total=len(self.parts))
        self.caption = next((s for _p, s, start, end in self.sentences if start <= self.position < end),
                            self.sentences[-1][1] if self.sentences else "")

    def _finish(self) -> None:
        self.finished = True
        self.position = self.total
        narrator = self._narrator()
        if narrator is not None:
            narrator.stop()

    # ------------------------------------------------------------ buttons
    def toggle_pause(self) -> None:
        self.paused = not self.paused
        narrator = self._narrator()
        if narrator is not None:
            (narrator.pause if self.paused else narrator.resume)()

    def replay(self) -> None:
        self.position, self.finished, self.paused, self.spoken = 0.0, False, False, -1
        self._show()

    def skip(self) -> None:
        """Skip to the next part (after the last: the end of the opening)."""
        part = self._part_at(self.position)
        starts = [start for p, _s, start, _e in self.sentences if p == part + 1]
        if starts:
            self.position = starts[0]
        else:
            self._finish()
        self._show()

    def begin(self) -> None:
        self._ev.cancel()
        narrator = self._narrator()
        if narrator is not None:
            narrator.stop()
        self.on_begin()
