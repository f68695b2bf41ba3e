"""Staff mode: record the café's own narration for a segment (a case intro, a question, a teaching step):
countdown, level meter, play back, keep or discard. Kept takes go to the narrator's overlay folder and are
used from then on. The recorder reports on its own thread; everything here hops to the UI thread."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from kiosk.widgets.theme import (
    ACCENT,
    BAR_CLEAR,
    BODY,
    DANGER_TEXT,
    DISPLAY,
    MUTED,
    OK,
    PANEL_HI,
    SMALL,
    TButton,
    TLabel,
)


def recordings_dir(app: Any) -> Any:
    return app.data_dir / "recordings"


class LevelMeter(Widget):
    def __init__(self, **kw: Any) -> None:
        super().__init__(size_hint_y=None, height=dp(28), **kw)
        self.level = 0.0
        with self.canvas:
            Color(*PANEL_HI)
            self._bg = Rectangle()
            Color(*ACCENT)
            self._bar = Rectangle()
        self.bind(pos=self._draw, size=self._draw)

    def set(self, level: float) -> None:
        self.level = max(0.0, min(1.0, level))
        self._draw()

    def _draw(self, *_: Any) -> None:
        self._bg.pos, self._bg.size = self.pos, self.size
        self._bar.pos, self._bar.size = self.pos, (self.width * self.level, self.height)


def build_recordings(app: Any, panel: Any, screen: Any) -> None:
    from audio.recording import inventory
    from kiosk.narration import all_segments

    panel.add_widget(TLabel(text=app.tr("staff.rec_title"), color=MUTED, font_size=BODY))
    segments = [s for s in all_segments(app.library, app.data_dir / "content") if s.lang == "ko"]
    scroll = ScrollView(do_scroll_x=False)
    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(8), padding=(0, 0, BAR_CLEAR, 0))
    box.bind(minimum_height=box.setter("height"))
    for seg, existing in inventory(segments, recordings_dir(app)):
        mark = app.tr("staff.rec_has") if existing else app.tr("staff.rec_none")
        b = TButton(text=f"{seg.id}   ·   {mark}", size_hint_y=None, height=dp(60), font_size=SMALL,
                    test_id=f"rec_{seg.id}", halign="left", selected=existing is not None)
        b.bind(on_release=lambda _w, seg=seg: _open_recorder(app, panel, screen, seg))
        box.add_widget(b)
    scroll.add_widget(box)
    panel.add_widget(scroll)


def _open_recorder(app: Any, panel: Any, screen: Any, segment: Any) -> None:
    from audio.recording import RecordingSession

    panel.clear_widgets()
    factory = getattr(app, "recording_input_factory", None)
    mixer = getattr(app.narrator, "mixer", None) if app.narrator is not None else None
    rec = RecordingSession(segment, recordings_dir(app), input_device=factory() if factory else None, mixer=mixer)
    screen.recorder = rec
    panel.add_widget(TLabel(text=segment.id, color=MUTED, font_size=SMALL))
    text = TLabel(text=segment.text[:400], font_size=SMALL)
    panel.add_widget(text)
    big = Label(text="", font_size=DISPLAY, color=ACCENT, size_hint_y=None, height=dp(80))
    panel.add_widget(big)
    meter = LevelMeter()
    panel.add_widget(meter)
    status = TLabel(text="", font_size=SMALL)
    panel.add_widget(status)
    row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(10))
    buttons = {}
    for key, kind in (("start", "primary"), ("stop", "normal"), ("play", "normal"), ("keep", "primary"),
                      ("discard", "danger"), ("back", "normal")):
        b = TButton(text=app.tr(f"staff.rec_{key}"), kind=kind, test_id=f"rec_{key}", font_size=SMALL)
        buttons[key] = b
        row.add_widget(b)
    panel.add_widget(row)
    panel.add_widget(Widget())

    def sync() -> None:
        state = rec.state
        buttons["start"].disabled = state in ("countdown", "recording")
        buttons["stop"].disabled = state not in ("countdown", "recording")
        buttons["play"].disabled = buttons["keep"].disabled = buttons["discard"].disabled = state != "recorded"
        if state == "failed":
            status.text, status.color = app.tr("staff.rec_failed", reason=rec.error or "?"), DANGER_TEXT
        elif state == "recorded" and rec.take is not None:
            status.text, status.color = app.tr("staff.rec_take", s=round(rec.take.duration, 1)), OK
        elif state == "kept":
            status.text, status.color = app.tr("staff.rec_kept"), OK
        elif state == "discarded":
            status.text, status.color = app.tr("staff.rec_discarded"), MUTED
        elif state == "recording":
            status.text, status.color = app.tr("staff.rec_recording"), DANGER_TEXT

    def shown(text: str, level: float | None = None, again: bool = False) -> None:
        big.text = text
        if level is not None:
            meter.set(level)
        if again:
            sync()

    def on_countdown(n: int) -> None:  # the recorder's thread: each report hops to the UI thread
        Clock.schedule_once(lambda dt: shown(str(n) if n else "", again=True))

    def on_level(level: Any) -> None:
        Clock.schedule_once(lambda dt: shown(f"{level.elapsed:.0f}s", level.meter))

    def on_done(_take: Any) -> None:
        Clock.schedule_once(lambda dt: shown("", 0, again=True))

    def press(key: str) -> None:
        if key == "start":
            rec.start(on_countdown=on_countdown, on_level=on_level, on_done=on_done)
        else:
            getattr(rec, key)()  # stop, play, keep, discard
        sync()

    for key in ("start", "stop", "play", "keep", "discard"):
        buttons[key].bind(on_release=lambda _w, k=key: press(k))

    def back(*_: Any) -> None:
        if rec.state in ("countdown", "recording"):
            rec.stop()
        screen.refresh()

    buttons["back"].bind(on_release=back)
    sync()
