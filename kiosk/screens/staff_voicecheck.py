"""Staff mode "음성 점검" (from the sound section): the tablet shows the phrases of a set one by one, staff or
willing guests say them, each take is kept in `<data>/voicecheck/<speaker>/<phrase>.wav` and scored with the
kiosk's own recogniser and vote (audio/voicecheck.py); the results page shows right / wrong (heard as what)
/ nothing per phrase and per speaker and exports a CSV to `<data>/exports`. Scoring runs on a thread."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from audio.voicecheck import BASIC, SETS, CheckPhrase, Score, VoiceCheck, summarise, write_csv
from kiosk.screens.staff_recording import LevelMeter
from kiosk.widgets.theme import ACCENT, BODY, DANGER_TEXT, DISPLAY, MUTED, OK, SMALL, TEXT, TButton, TLabel

MAX_TAKE = 8.0  # seconds; a take stops by itself after this


@dataclass
class CheckState:
    check: VoiceCheck
    which: str = BASIC
    speaker: str = "1"
    index: int = 0
    last: str = ""  # the last take's result line
    recorder: Any = None
    scoring: int = 0
    scores: list[Score] = field(default_factory=list)


def _tagged(widget: Any, test_id: str) -> Any:
    widget.test_id = test_id
    return widget


def _engine(app: Any) -> Any:
    voice = getattr(app, "voice", None)
    controller = getattr(voice, "controller", None)
    return getattr(controller, "engine", None)


def _state(app: Any, screen: Any) -> CheckState:
    state = getattr(screen, "voicecheck", None)
    if state is None:
        from audio.intents import load_catalog

        engine = _engine(app)
        # every shipped phrasing, whatever the café chose (so alternatives can be compared)
        check = VoiceCheck(app.data_dir / "voicecheck", load_catalog(), engine.vocabulary if engine is not None else None)
        speakers = check.speakers()
        state = CheckState(check, speaker=speakers[-1] if speakers else "1")
        screen.voicecheck = state
    return state


def _wake_now(app: Any) -> str:
    """The wake phrase the kiosk listens for (the café's choice, else the shipped one)."""
    from audio import voice_choices as vc
    from audio.intents import WAKE, load_catalog

    shipped = load_catalog()
    return vc.apply(shipped, vc.read(app.data_dir / "content", shipped)[0]).intents[WAKE].templates[0]


def _set_name(app: Any, which: str) -> str:
    if which == BASIC:
        return str(app.tr("voicecheck.set_basic"))
    game = app.library.games.get(which)
    return str(game.info.name.get(app.lang)) if game is not None else which


def _buttons(panel: Any, specs: list[tuple[str, str, str]], app: Any) -> dict[str, TButton]:
    row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(10))
    out = {}
    for key, text, kind in specs:
        b = TButton(text=text, kind=kind, test_id=f"vc_{key}", font_size=SMALL)
        out[key] = b
        row.add_widget(b)
    panel.add_widget(row)
    return out


def build_voicecheck(app: Any, panel: Any, screen: Any) -> None:
    """The start page: which set, who speaks, start / results / back."""
    state = _state(app, screen)
    panel.clear_widgets()
    panel.add_widget(TLabel(text=app.tr("voicecheck.title"), color=MUTED, font_size=BODY))
    panel.add_widget(TLabel(text=app.tr("voicecheck.intro"), font_size=SMALL))
    row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(10))
    for which in SETS:
        b = TButton(text=_set_name(app, which), selected=state.which == which, test_id=f"vc_set_{which}",
                    font_size=SMALL)

        def choose(_w: Any, which: str = which) -> None:
            state.which, state.index = which, 0
            build_voicecheck(app, panel, screen)

        b.bind(on_release=choose)
        row.add_widget(b)
    panel.add_widget(row)
    who = _tagged(TLabel(text=app.tr("voicecheck.speaker", n=state.speaker), font_size=BODY), "vc_speaker")
    panel.add_widget(who)
    panel.add_widget(_tagged(TLabel(text=app.tr("voicecheck.wake_now", phrase=_wake_now(app)), font_size=SMALL,
                                    color=MUTED), "vc_wake_now"))
    buttons = _buttons(panel, [("new_speaker", app.tr("voicecheck.new_speaker"), "normal"),
                               ("start", app.tr("voicecheck.start"), "primary"),
                               ("results", app.tr("voicecheck.results"), "normal"),
                               ("back", app.tr("voicecheck.back"), "normal")], app)

    def new_speaker(*_: Any) -> None:
        state.speaker, state.index, state.last = state.check.new_speaker(), 0, ""
        build_voicecheck(app, panel, screen)

    def start(*_: Any) -> None:
        state.index, state.last = 0, ""
        _build_phrase(app, panel, screen)

    buttons["new_speaker"].bind(on_release=new_speaker)
    buttons["start"].bind(on_release=start)
    buttons["results"].bind(on_release=lambda *_: _build_results(app, panel, screen))
    buttons["back"].bind(on_release=lambda *_: screen.refresh())
    if _engine(app) is None:
        panel.add_widget(TLabel(text=app.tr("voicecheck.no_model"), color=ACCENT, font_size=SMALL))
    panel.add_widget(Widget())


def _result_line(app: Any, score: Score) -> tuple[str, Any]:
    if score.outcome == "right":
        return app.tr("voicecheck.right", phrase=score.phrase), OK
    if score.outcome == "wrong":
        return app.tr("voicecheck.wrong", phrase=score.phrase, heard=score.heard), DANGER_TEXT
    return app.tr("voicecheck.nothing", phrase=score.phrase), ACCENT


def _hint(app: Any, phrase: CheckPhrase) -> str:
    if phrase.kind == "wake":
        return str(app.tr("voicecheck.kind_wake"))
    if phrase.kind == "confirm":
        yes = phrase.intent.endswith("yes")
        label = app.tr("voicecheck.answer_yes") if yes else app.tr("voicecheck.answer_no")
        return str(app.tr("voicecheck.kind_confirm", label=label))
    return str(app.tr(f"voicecheck.kind_{phrase.kind}", label=phrase.label))


def _build_phrase(app: Any, panel: Any, screen: Any) -> None:
    """One phrase: record (stop by tap or after MAX_TAKE s), keep, score in the background, next phrase."""
    from audio.recording import RecordingSession
    from audio.segments import Segment

    state = _state(app, screen)
    phrases = state.check.phrases(state.which)
    panel.clear_widgets()
    if state.index >= len(phrases):
        panel.add_widget(_tagged(TLabel(text=state.last, font_size=SMALL), "vc_last"))
        panel.add_widget(TLabel(text=app.tr("voicecheck.done"), font_size=BODY, color=OK))
        buttons = _buttons(panel, [("results", app.tr("voicecheck.results"), "primary"),
                                   ("home", app.tr("voicecheck.home"), "normal")], app)
        buttons["results"].bind(on_release=lambda *_: _build_results(app, panel, screen))
        buttons["home"].bind(on_release=lambda *_: build_voicecheck(app, panel, screen))
        panel.add_widget(Widget())
        return
    phrase = phrases[state.index]
    panel.add_widget(TLabel(text=app.tr("voicecheck.progress", set=_set_name(app, state.which), i=state.index + 1,
                                        n=len(phrases), speaker=state.speaker), color=MUTED, font_size=SMALL))
    big = Label(text=phrase.text, font_size=DISPLAY, bold=True, color=TEXT, size_hint_y=None, height=dp(110))
    big.test_id = "vc_phrase"
    panel.add_widget(big)
    panel.add_widget(TLabel(text=_hint(app, phrase), color=MUTED, font_size=SMALL))
    meter = LevelMeter()
    panel.add_widget(meter)
    status = _tagged(TLabel(text=app.tr("voicecheck.press_record"), font_size=SMALL), "vc_status")
    panel.add_widget(status)
    last = _tagged(TLabel(text=state.last, font_size=SMALL), "vc_last")
    panel.add_widget(last)
    buttons = _buttons(panel, [("record", app.tr("voicecheck.record"), "primary"),
                               ("stop", app.tr("voicecheck.stop"), "normal"),
                               ("skip", app.tr("voicecheck.skip"), "normal"),
                               ("results", app.tr("voicecheck.results"), "normal"),
                               ("home", app.tr("voicecheck.home"), "normal")], app)
    panel.add_widget(Widget())
    factory = getattr(app, "recording_input_factory", None)
    rec = RecordingSession(Segment("voicecheck", "ko", phrase.text), state.check.folder,
                           input_device=factory() if factory else None, rate=16000)
    state.recorder = rec
    cancelled: list[bool] = []

    def sync() -> None:
        busy = rec.state in ("countdown", "recording")
        buttons["record"].disabled = busy
        buttons["stop"].disabled = not busy
        if rec.state == "recording":
            status.text, status.color = app.tr("voicecheck.recording"), DANGER_TEXT
        elif rec.state == "failed":
            status.text, status.color = app.tr("voicecheck.failed", reason=rec.error or "?"), DANGER_TEXT

    def on_level(level: Any) -> None:
        def show(_dt: float) -> None:
            meter.set(level.meter)
            sync()
        Clock.schedule_once(show)

    def on_done(take: Any) -> None:
        Clock.schedule_once(lambda dt: finished(take))

    def finished(take: Any) -> None:
        if cancelled:
            return
        meter.set(0)
        if take is None:
            sync()
            return
        if not take.clip.frames:
            status.text, status.color = app.tr("voicecheck.empty"), ACCENT
            sync()
            return
        state.check.save(state.speaker, phrase.text, take.clip)
        _score_in_background(app, panel, screen, state, phrase)
        state.index += 1
        cancelled.append(True)
        _build_phrase(app, panel, screen)

    def record(*_: Any) -> None:
        rec.start(countdown=0, max_seconds=MAX_TAKE, on_level=on_level, on_done=on_done)
        Clock.schedule_once(lambda dt: sync(), 0.1)
        sync()

    def skip(*_: Any) -> None:
        leave()
        state.index += 1
        _build_phrase(app, panel, screen)

    def leave() -> None:
        cancelled.append(True)  # a take that ends after the page was left is not kept
        if rec.state in ("countdown", "recording"):
            threading.Thread(target=rec.stop, daemon=True).start()

    buttons["record"].bind(on_release=record)
    buttons["stop"].bind(on_release=lambda *_: threading.Thread(target=rec.stop, daemon=True).start())
    buttons["skip"].bind(on_release=skip)
    def results(*_: Any) -> None:
        leave()
        _build_results(app, panel, screen)

    def home(*_: Any) -> None:
        leave()
        build_voicecheck(app, panel, screen)

    buttons["results"].bind(on_release=results)
    buttons["home"].bind(on_release=home)
    sync()


def _score_in_background(app: Any, panel: Any, screen: Any, state: CheckState, phrase: CheckPhrase) -> None:
    engine = _engine(app)
    speaker = state.speaker
    if engine is None:
        state.last = app.tr("voicecheck.no_model")
        return
    state.scoring += 1
    state.last = app.tr("voicecheck.scoring", phrase=phrase.text)

    def work() -> None:
        try:
            score = state.check.score(engine, speaker, phrase.text)
        finally:
            state.scoring -= 1
        Clock.schedule_once(lambda dt: show(score))

    def show(score: Score) -> None:
        text, colour = _result_line(app, score)
        state.last = text
        for w in panel.walk():
            if getattr(w, "test_id", "") == "vc_last":
                w.text, w.color = text, colour

    threading.Thread(target=work, name="voicecheck-score", daemon=True).start()


def _build_results(app: Any, panel: Any, screen: Any) -> None:
    state = _state(app, screen)
    panel.clear_widgets()
    panel.add_widget(TLabel(text=app.tr("voicecheck.results_title"), color=MUTED, font_size=BODY))
    total = _tagged(TLabel(text=app.tr("voicecheck.results_scoring", n="…"), font_size=BODY), "vc_total")
    panel.add_widget(total)
    buttons = _buttons(panel, [("export", app.tr("voicecheck.export"), "primary"),
                               ("choices", app.tr("voicecheck.choices"), "normal"),
                               ("home", app.tr("voicecheck.home"), "normal")], app)
    buttons["choices"].bind(on_release=lambda *_: _build_choices(app, panel, screen))
    exported = _tagged(TLabel(text="", color=OK, font_size=SMALL), "vc_exported")
    panel.add_widget(exported)
    scroll = ScrollView(do_scroll_x=False)
    body = _tagged(TLabel(text="", font_size=SMALL, size_hint_y=None), "vc_table")
    body.bind(texture_size=lambda w, s: setattr(w, "height", s[1]))
    scroll.add_widget(body)
    panel.add_widget(scroll)
    buttons["export"].disabled = True

    def show(scores: list[Score]) -> None:
        state.scores = scores
        if not scores:
            total.text = app.tr("voicecheck.results_empty")
            return
        per_phrase, per_speaker, tally = summarise(scores)
        total.text = app.tr("voicecheck.total", n=tally.total, right=tally.counts["right"],
                            pct=round(100 * tally.rate()), wrong=tally.counts["wrong"], nothing=tally.counts["nothing"])
        lines = [f"[{app.tr('voicecheck.by_speaker')}]"]
        for speaker, t in sorted(per_speaker.items(), key=lambda kv: (len(kv[0]), kv[0])):
            lines.append(app.tr("voicecheck.line_speaker", speaker=speaker, right=t.counts["right"], n=t.total,
                                wrong=t.counts["wrong"], nothing=t.counts["nothing"]))
        lines += ["", f"[{app.tr('voicecheck.by_phrase')}]"]
        for phrase, t in sorted(per_phrase.items(), key=lambda kv: (kv[1].rate(), kv[0])):
            heard = ", ".join(f"{k}×{n}" for k, n in t.heard_as.most_common(3))
            lines.append(app.tr("voicecheck.line_phrase", phrase=phrase, right=t.counts["right"], n=t.total,
                                wrong=t.counts["wrong"], nothing=t.counts["nothing"],
                                heard=app.tr("voicecheck.heard_as", heard=heard) if heard else ""))
        body.text = "\n".join(lines)
        buttons["export"].disabled = False

    def export(*_: Any) -> None:
        target = app.data_dir / "exports" / time.strftime("voicecheck-%Y%m%d-%H%M%S.csv")
        n = write_csv(state.scores, target)
        exported.text = app.tr("voicecheck.exported", n=n, path=str(target))
        screen.last_voicecheck_export = target

    def work() -> None:
        while state.scoring > 0:  # takes still being scored after the last phrase
            time.sleep(0.05)
        scores = state.check.results(_engine(app))
        Clock.schedule_once(lambda dt: show(scores))

    buttons["export"].bind(on_release=export)
    buttons["home"].bind(on_release=lambda *_: build_voicecheck(app, panel, screen))
    threading.Thread(target=work, name="voicecheck-results", daemon=True).start()


def _best(scores: list[Score]) -> list[str]:
    """The phrasings that scored best (right at least once), best first."""
    per_phrase, _, _ = summarise(scores)
    rates = {p: t.rate() for p, t in per_phrase.items() if t.counts["right"]}
    top = max(rates.values(), default=0.0)
    return sorted((p for p, r in rates.items() if r >= top), key=lambda p: -per_phrase[p].total)


def _build_choices(app: Any, panel: Any, screen: Any) -> None:
    """Per intent measured: its phrasings' scores, "voice off" and "only the best phrasings" (saved as the
    overlay's voice/choices.yaml and applied to the running recogniser at once)."""
    from audio import voice_choices as vc
    from audio.intents import WAKE, load_catalog

    state = _state(app, screen)
    overlay = app.data_dir / "content"
    shipped = load_catalog()
    choices, _errors = vc.read(overlay, shipped)
    phrases = state.check.all_phrases()
    by_intent: dict[str, list[Score]] = {}
    for score in state.scores:
        if score.phrase in phrases:
            by_intent.setdefault(phrases[score.phrase].intent, []).append(score)
    panel.clear_widgets()
    panel.add_widget(TLabel(text=app.tr("voicecheck.choices_title"), color=MUTED, font_size=SMALL))
    saved = _tagged(TLabel(text="", color=OK, font_size=SMALL), "vc_saved")
    scroll = ScrollView(do_scroll_x=False)
    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(8))
    box.bind(minimum_height=box.setter("height"))

    def save() -> None:
        path = vc.write(overlay, choices)
        voice = getattr(app, "voice", None)
        if voice is not None:
            voice.controller.set_catalog(vc.apply(shipped, choices))
            voice.update_context()
        saved.text = app.tr("voicecheck.choices_saved", path=str(path))
        _build_choices(app, panel, screen)
        for w in panel.walk():
            if getattr(w, "test_id", "") == "vc_saved":
                w.text = saved.text

    box.add_widget(_wake_row(app, shipped, choices, by_intent.get(WAKE, []), save))
    for name, scores in sorted(by_intent.items()):
        if name == WAKE:
            continue
        spec = shipped.intents[name]
        per_phrase, _, _ = summarise(scores)
        measured = " · ".join(f"{p} {t.counts['right']}/{t.total}" for p, t in per_phrase.items())
        if name in choices.off:
            now = app.tr("voicecheck.now_off")
        elif name in choices.prefer:
            now = app.tr("voicecheck.now_only", phrases=", ".join(choices.prefer[name]))
        else:
            now = ""
        row = BoxLayout(size_hint_y=None, height=dp(84), spacing=dp(10))
        label = TLabel(text=f"{spec.label_ko or name}: {measured}{now}", font_size=SMALL, size_hint_x=0.5,
                       halign="left", valign="middle")
        label.bind(size=lambda w, size: setattr(w, "text_size", size))
        row.add_widget(label)
        off = TButton(text=app.tr("voicecheck.turn_on" if name in choices.off else "voicecheck.turn_off"),
                      test_id=f"vc_off_{name}", font_size=SMALL, size_hint_x=0.25, disabled=name in vc.REQUIRED)
        best = [p for p in _best(scores) if p in vc.offered(shipped, name)]
        only = TButton(text=app.tr("voicecheck.all_phrases" if name in choices.prefer else "voicecheck.only_best"),
                       test_id=f"vc_best_{name}", font_size=SMALL, size_hint_x=0.25,
                       disabled=name not in choices.prefer and not best)

        def toggle_off(_w: Any, name: str = name) -> None:
            if name in choices.off:
                choices.off.remove(name)
            else:
                choices.off.append(name)
            save()

        def toggle_best(_w: Any, name: str = name, best: list[str] = best) -> None:
            if choices.prefer.pop(name, None) is None:
                choices.prefer[name] = best
            save()

        off.bind(on_release=toggle_off)
        only.bind(on_release=toggle_best)
        row.add_widget(off)
        row.add_widget(only)
        box.add_widget(row)
    scroll.add_widget(box)
    panel.add_widget(scroll)
    panel.add_widget(saved)
    buttons = _buttons(panel, [("results", app.tr("voicecheck.results"), "normal"),
                               ("home", app.tr("voicecheck.home"), "normal")], app)
    buttons["results"].bind(on_release=lambda *_: _build_results(app, panel, screen))
    buttons["home"].bind(on_release=lambda *_: build_voicecheck(app, panel, screen))


def _wake_row(app: Any, shipped: Any, choices: Any, scores: list[Score], save: Any) -> BoxLayout:
    """The café's wake phrase, picked among the measured candidates: each button shows how often the café's
    own voices woke the kiosk with it (right / takes; "-" when nobody said it yet) and, when the bench measured
    it (content/voice/ko.yaml `wake.measured`, held-out voices), its wake rate and false wakes per hour."""
    per_phrase, _, _ = summarise(scores)
    now = choices.wake or shipped.wake_candidates[0]
    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
    box.bind(minimum_height=box.setter("height"))
    box.add_widget(TLabel(text=app.tr("voicecheck.wake_pick"), font_size=SMALL))
    row = BoxLayout(size_hint_y=None, height=dp(136), spacing=dp(8))
    for phrase in shipped.wake_candidates:
        t = per_phrase.get(phrase)
        ours = app.tr("voicecheck.wake_ours", right=t.counts["right"], total=t.total) if t is not None else (
            app.tr("voicecheck.wake_ours_none"))
        fig = shipped.wake_measured.get(phrase)
        bench = "" if fig is None else "\n" + app.tr(
            "voicecheck.wake_bench", rate=round(100 * fig.woke / max(1, fig.takes)), fph=f"{fig.false_per_hour:g}")
        b = TButton(text=f"{phrase}\n{ours}{bench}", selected=phrase == now, test_id=f"vc_wake_{phrase}",
                    font_size=SMALL)

        def pick(_w: Any, phrase: str = phrase) -> None:
            choices.wake = "" if phrase == shipped.wake_candidates[0] else phrase
            save()

        b.bind(on_release=pick)
        row.add_widget(b)
    box.add_widget(row)
    return box
