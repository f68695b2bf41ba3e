"""The staff screen's section panels. Each `build_<section>(app, panel, screen)` fills the panel."""

from __future__ import annotations

import time
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider

from audio.status import BOARD
from content.i18n_catalog import LANGS, one_language
from content.loader import load_library
from kiosk.screens.staff_recording import build_recordings  # noqa: F401  (a section of the staff screen)
from kiosk.staff_call import staff_list
from kiosk.widgets.keypad import Keypad
from kiosk.widgets.theme import ACCENT, BODY, DANGER_TEXT, MUTED, OK, SMALL, TEXT, TITLE, TButton, TLabel
from table import ops
from table.pin import valid_new_pin

DEVICES = ("speaker", "tts", "microphone", "asr_model")


def _title(panel: Any, text: str) -> None:
    panel.add_widget(TLabel(text=text, color=MUTED, font_size=BODY))


def _row(panel: Any, height: float = 72) -> BoxLayout:
    row = BoxLayout(size_hint_y=None, height=dp(height), spacing=dp(12))
    panel.add_widget(row)
    return row


def _scroll_text(panel: Any, text: str, size: str = SMALL) -> TLabel:
    scroll = ScrollView(do_scroll_x=False)
    label = TLabel(text=text, font_size=size)
    scroll.add_widget(label)
    panel.add_widget(scroll)
    return label


def build_table(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.table_title"))
    playing = app.table.playing
    name = app.table.game.info.name.get(app.lang) if playing else ""
    panel.add_widget(TLabel(text=app.tr("staff.table_playing", game=name) if playing else app.tr("staff.table_free")))
    staff_list(app, panel)  # guests' calls without the café floor (kiosk/staff_call.py)
    row = _row(panel, 84)
    b = TButton(text=app.tr("staff.new_table"), kind="primary", test_id="staff_new_table")

    def turnover(*_: Any) -> None:
        from kiosk.widgets.dialogs import ConfirmDialog

        def go() -> None:
            app.keeper.new_table()
            app.toast(app.tr("staff.new_table_done"))

        ConfirmDialog.ask(app.tr("staff.confirm_new_table"), app.tr("common.yes"), app.tr("common.no"), go,
                          danger=playing)

    b.bind(on_release=turnover)
    row.add_widget(b)
    minutes = int(app.keeper.idle_seconds // 60) if app.keeper else 0
    panel.add_widget(TLabel(text=app.tr("staff.idle_info", n=minutes), color=MUTED))
    _notices(app, panel, screen)
    panel.add_widget(Label())


def _notices(app: Any, panel: Any, screen: Any) -> None:
    """Damage found and handled since the kiosk started (table/notices.py), until staff have read it."""
    if not app.notices:
        return
    _title(panel, app.tr("damage.title"))
    for notice in app.notices:
        label = TLabel(text=app.tr(f"damage.{notice.key}", **notice.params), color=DANGER_TEXT, font_size=SMALL)
        label.test_id = f"notice_{notice.key}"
        panel.add_widget(label)
    row = _row(panel)
    b = TButton(text=app.tr("damage.dismiss"), test_id="notices_dismiss", size_hint_x=None, width=dp(260))

    def dismiss(*_: Any) -> None:
        app.notices.clear()
        screen.refresh()

    b.bind(on_release=dismiss)
    row.add_widget(b)
    row.add_widget(Label())


def build_general(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.language"))
    row = _row(panel)
    for code in LANGS:
        b = TButton(text=app.tr(f"staff.lang_{code}"), selected=app.settings.lang == code, test_id=f"staff_lang_{code}")

        def set_lang(_w: Any, code: str = code) -> None:
            app.settings.lang = code
            app.set_lang(code)
            app.save_settings()
            screen.refresh()

        b.bind(on_release=set_lang)
        row.add_widget(b)
    _title(panel, app.tr("staff.branch"))
    row = _row(panel)
    for br in app.library.branches.branches:
        b = TButton(text=br.name.get(app.lang), selected=app.branch == br.id, test_id=f"staff_branch_{br.id}")

        def set_branch(_w: Any, bid: str = br.id) -> None:
            app.settings.branch = bid
            app.branch = bid
            app.save_settings()
            screen.refresh()

        b.bind(on_release=set_branch)
        row.add_widget(b)
    panel.add_widget(Label())


def build_sound(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.volume", n=int(round(app.settings.volume * 100))))
    slider = Slider(min=0, max=1, value=app.settings.volume, size_hint_y=None, height=dp(72), cursor_size=(dp(44), dp(44)))
    slider.test_id = "staff_volume"

    def changed(_w: Any, value: float) -> None:
        app.settings.volume = round(value, 2)
        app.apply_audio_settings()

    slider.bind(value=changed, on_touch_up=lambda *_: app.save_settings())
    panel.add_widget(slider)
    _title(panel, app.tr("staff.voice"))
    row = _row(panel)
    for on in (True, False):
        b = TButton(text=app.tr("staff.voice_on" if on else "staff.voice_off"), selected=app.settings.voice_enabled == on,
                    test_id=f"staff_voice_{'on' if on else 'off'}")

        def set_voice(_w: Any, on: bool = on) -> None:
            app.settings.voice_enabled = on
            app.save_settings()
            app.apply_audio_settings()
            screen.refresh()

        b.bind(on_release=set_voice)
        row.add_widget(b)
    row = _row(panel)
    b = TButton(text=app.tr("voicecheck.open"), test_id="staff_voicecheck", size_hint_x=None, width=dp(260))

    def open_check(*_: Any) -> None:
        from kiosk.screens.staff_voicecheck import build_voicecheck

        screen.voicecheck = None  # a fresh start: the data folder may have changed
        build_voicecheck(app, panel, screen)

    b.bind(on_release=open_check)
    row.add_widget(b)
    row.add_widget(Label())
    panel.add_widget(Label())


def build_pin(app: Any, panel: Any, screen: Any) -> None:
    state = {"first": ""}
    prompt = TLabel(text=app.tr("staff.pin_new"), font_size=BODY)
    dots = TLabel(text="", font_size=TITLE, color=ACCENT)
    panel.add_widget(prompt)
    panel.add_widget(dots)

    def entered(value: str) -> None:
        if not state["first"]:
            if not valid_new_pin(value):
                prompt.text, prompt.color = app.tr("staff.pin_invalid"), DANGER_TEXT
                return
            state["first"] = value
            prompt.text, prompt.color = app.tr("staff.pin_again"), TEXT
            return
        if value != state["first"]:
            state["first"] = ""
            prompt.text, prompt.color = app.tr("staff.pin_mismatch"), DANGER_TEXT
            return
        app.settings.set_pin(value)
        app.save_settings()
        state["first"] = ""
        prompt.text, prompt.color = app.tr("staff.pin_changed"), OK
        screen.ids.pin_warning.text = ""

    pad = Keypad(app.tr("common.ok"), app.tr("pin.erase"), entered, prefix="newpin", size_hint=(None, None),
                 size=(dp(360), dp(330)))
    pad.bind(entered=lambda _w, v: setattr(dots, "text", "●" * len(v) or " "))
    dots.text = " "
    panel.add_widget(pad)
    panel.add_widget(Label())


def build_devices(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.devices"))
    known = {s.name: s for s in BOARD.all()}
    for name in sorted(set(DEVICES) | set(known)):
        status = known.get(name)
        if status is None:
            state, colour = app.tr("staff.device_unknown"), MUTED
        elif status.available and status.reason:  # works through a fallback (e.g. TTS worker gave up)
            state, colour = app.tr("staff.device_degraded", reason=one_language(status.reason, app.lang)), ACCENT
        elif status.available:
            state, colour = app.tr("staff.device_ok"), OK
        else:
            state, colour = app.tr("staff.device_off", reason=one_language(status.reason or "?", app.lang)), DANGER_TEXT
        row = _row(panel, 84 if status is not None and status.reason else 56)  # a reason may take 3 lines
        row.add_widget(TLabel(text=app.tr(f"staff.device_{name}") if name in DEVICES else name, size_hint_x=0.35))
        row.add_widget(TLabel(text=state, color=colour, size_hint_x=0.65))
    row = _row(panel, 56)
    row.add_widget(TLabel(text=app.tr("staff.device_phones"), size_hint_x=0.35))
    server = app.phones_server
    row.add_widget(TLabel(text=app.tr("staff.phones_at", url=server.url) if server is not None else
                          app.tr("staff.phones_off"), color=OK if server is not None else DANGER_TEXT, size_hint_x=0.65))
    panel.add_widget(Label())


def build_content(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.content"))
    panel.add_widget(TLabel(text=app.tr("staff.overlay_path", path=str(app.data_dir / "content")), font_size=SMALL))
    errors = app.library.errors
    text = (app.tr("staff.content_ok", n=len(app.library.games)) if not errors else
            app.tr("staff.content_errors", n=len(errors)) + "\n" + "\n".join(str(e) for e in errors[:12]))
    row = _row(panel)
    b = TButton(text=app.tr("staff.reload"), test_id="staff_reload")

    def reload(*_: Any) -> None:
        app.library = load_library(overlay=app.data_dir / "content")
        screen.refresh()
        app.toast(app.tr("staff.reloaded"))

    b.bind(on_release=reload)
    row.add_widget(b)
    row.add_widget(Label())
    _scroll_text(panel, text)


def build_stats(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.stats"))
    plays = ops.play_records(app.journal_dir)
    teach = ops.teach_records(app.data_dir)
    done = sum(1 for t in teach if t.finished)
    panel.add_widget(TLabel(text=app.tr("staff.stats_summary", plays=len(plays), teach=done, skipped=len(teach) - done)))
    result = TLabel(text="", color=OK, font_size=SMALL)
    row = _row(panel)
    b = TButton(text=app.tr("staff.export"), kind="primary", test_id="staff_export")

    def export(*_: Any) -> None:
        target = app.data_dir / "exports" / time.strftime("stats-%Y%m%d-%H%M%S.csv")
        n = ops.export_stats_csv(app.data_dir, target)
        result.text = app.tr("staff.exported", n=n, path=str(target))
        screen.last_export = target

    b.bind(on_release=export)
    row.add_widget(b)
    row.add_widget(Label())
    panel.add_widget(result)
    by_game: dict[str, list[float]] = {}
    for rec in plays:
        by_game.setdefault(rec.game, []).append(rec.minutes)
    lines = []
    for game_id, minutes in sorted(by_game.items()):
        game = app.library.games.get(game_id)
        name = game.info.name.get(app.lang) if game else game_id
        lines.append(app.tr("staff.stats_line", game=name, n=len(minutes), avg=round(sum(minutes) / len(minutes), 1)))
    _scroll_text(panel, "\n".join(lines))


def build_floor(app: Any, panel: Any, screen: Any) -> None:
    from kiosk.floor.ui import build_floor as build  # MQTT is imported only when staff open the section

    build(app, panel, screen)


def build_logs(app: Any, panel: Any, screen: Any) -> None:
    _title(panel, app.tr("staff.logs"))
    lines = ops.tail_log(app.data_dir, 60)
    if app.errors:
        lines += ["", app.tr("staff.errors_this_run", n=len(app.errors))] + app.errors[-5:]
    _scroll_text(panel, "\n".join(lines) or app.tr("staff.no_logs"), size=SMALL)
