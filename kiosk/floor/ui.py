"""The kiosk's side of the café floor (Kivy): the "직원 호출" button in the game screen's top bar with its
reason dialog, the acknowledgement shown on the tablet, and the staff settings section. It only watches the
app (session, screen, voice) once a second and hands what changed to the Kivy-free `TableFloor`; nothing
here exists unless staff configured a broker."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from floor import topics
from floor.client import DEFAULT_PORT, FloorConfig
from floor.table import TableFloor
from kiosk.staff_call import CallDialog, calls_of  # noqa: F401  (CallDialog: the reasons, shared)
from kiosk.widgets.theme import BODY, DANGER_TEXT, MUTED, OK, SMALL, TEXT, TButton, TLabel

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp

log = logging.getLogger(__name__)
HEARTBEAT = 60.0  # the status is re-sent this often even when nothing changed (time at the table)


def config_of(app: KioskApp) -> FloorConfig:
    s = app.settings
    return FloorConfig(s.floor_host.strip(), int(s.floor_port or DEFAULT_PORT), s.floor_table.strip(),
                       s.floor_password)


def restart(app: KioskApp) -> None:
    """(Re)start the floor from the settings; off when they name no broker. Never stops the kiosk."""
    old = getattr(app, "floor", None)
    app.floor = None
    if old is not None:
        old.stop()
    config = config_of(app)
    if not config.enabled:
        return
    try:
        app.floor = FloorBridge(app, config)
    except Exception:
        log.exception("café floor unavailable; the table works on its own")


class FloorBridge:
    def __init__(self, app: KioskApp, config: FloorConfig) -> None:
        self.app = app
        self.table = TableFloor(config, app.data_dir, clock=app.now,
                                on_ack=lambda calls: Clock.schedule_once(lambda dt: self._acked(calls)))
        self.button = TButton(text="", test_id="floor_call", size_hint_x=None, width=dp(150), font_size=SMALL)
        self.button.bind(on_release=lambda *_: self.ask())
        self._changed = True  # the table changed since the last tick (Table.subscribe)
        app.table.subscribe(self._on_table)
        self._screen = app.sm.current
        self._teach: tuple[str, float] | None = None
        self._voice = self._voice_count()
        self._beat = time.monotonic()
        self.table.start()
        if self._screen not in ("attract", "pin", "staff"):
            self.table.seated()
        self._ev = Clock.schedule_interval(lambda dt: self.tick(), 1.0)
        app.sm.bind(current=self._on_screen)
        self.tick()

    def _on_table(self, _table: Any, _change: Any) -> None:
        self._changed = True  # reported at the next tick, on the UI thread, at most once a second

    def stop(self) -> None:
        self._ev.cancel()
        self.app.table.unsubscribe(self._on_table)
        self.app.sm.unbind(current=self._on_screen)
        if self.button.parent is not None:
            self.button.parent.remove_widget(self.button)
        try:
            self.table.stop()
        except Exception:
            log.exception("floor stop failed")

    # ------------------------------------------------------------ guests
    def ask(self) -> None:
        CallDialog(self).open()

    def call(self, reason: str) -> None:
        self.table.call(reason)
        calls_of(self.app).note(reason)  # the sign across the game screen, the sound, staff mode's list
        self.app.toast(self.app.tr("floor.called"))
        self._show_button()

    def _acked(self, calls: list[dict[str, Any]]) -> None:
        self.app.toast(self.app.tr("floor.acked"))
        calls_of(self.app).acknowledge()
        self._show_button()

    def _show_button(self) -> None:
        waiting = bool(self.table.open_calls())
        self.button.text = self.app.tr("floor.waiting" if waiting else "floor.call")
        self.button.kind = "primary" if waiting else "normal"

    # ------------------------------------------------------------ watching the app (UI thread)
    def tick(self) -> None:
        try:
            self._place()
            table = self.app.table
            playing = table.playing
            if self._changed:
                self._changed = False
                self.table.observe(table if playing else None)
            voice = self._voice_count()
            if voice > self._voice:
                game = table.game.id if playing else ""
                self.table.note_voice(game, voice - self._voice)
            self._voice = voice
            if time.monotonic() - self._beat >= HEARTBEAT:
                self._beat = time.monotonic()
                self.table.heartbeat()
            self._show_button()
            if self._screen == "attract" and not playing and self.table.content_waiting():
                self._apply_content()  # between guests: the floor's new content goes in now
        except Exception:
            log.exception("floor tick failed")

    def _apply_content(self) -> None:
        from content.loader import load_library

        if self.table.apply_content():
            self.app.library = load_library(overlay=self.app.data_dir / "content")
            log.info("floor content applied; %d games loaded", len(self.app.library.games))

    def _place(self) -> None:
        screen = self.app.sm.current_screen
        slot = screen.ids.get("floor_slot") if screen is not None else None
        if slot is None or self.button.parent is slot:
            return
        if self.button.parent is not None:
            self.button.parent.remove_widget(self.button)
        slot.add_widget(self.button)

    def _voice_count(self) -> int:
        voice = self.app.voice
        return len(getattr(voice, "dispatched", ())) if voice is not None else 0

    def _on_screen(self, _sm: Any, name: str) -> None:
        old, self._screen = self._screen, name
        if name == "staff":
            self.table.note_staff()  # the staff PIN was entered here: the floor page's locks lift
        if name == "attract":
            self.table.left()
        elif old == "attract" and name not in ("pin", "staff"):
            self.table.seated()
        if old == "teach" and self._teach is not None:
            game, since = self._teach
            self._teach = None
            self.table.note_teach(game, (time.monotonic() - since) / 60.0)
        if name == "teach":
            self._teach = (str(self.app.get_screen("teach").game_id), time.monotonic())
        self.tick()


# ---------------------------------------------------------------- staff settings section
def build_floor(app: Any, panel: Any, screen: Any) -> None:
    """Staff mode → 카페 플로어: broker address, port, table id, password; the link's state."""
    panel.add_widget(TLabel(text=app.tr("floor.settings.title"), color=MUTED, font_size=BODY))
    s = app.settings
    fields: dict[str, TextInput] = {}
    for name, value in (("host", s.floor_host), ("port", str(s.floor_port or DEFAULT_PORT)),
                        ("table", s.floor_table), ("password", s.floor_password)):
        row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(12))
        label = Label(text=app.tr(f"floor.settings.{name}"), size_hint_x=0.3, color=TEXT, font_size=SMALL,
                      halign="left", valign="middle")
        label.bind(size=lambda w, size: setattr(w, "text_size", size))
        row.add_widget(label)
        ti = TextInput(text=value, multiline=False, font_size=BODY, password=name == "password",
                       padding=(dp(12), dp(14)), write_tab=False)
        ti.test_id = f"floor_{name}"
        fields[name] = ti
        row.add_widget(ti)
        panel.add_widget(row)
    state = TLabel(text=_link_text(app), font_size=SMALL)
    state.test_id = "floor_state"
    row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(12))
    save = TButton(text=app.tr("floor.settings.save"), kind="primary", test_id="floor_save")
    off = TButton(text=app.tr("floor.settings.off"), test_id="floor_off")

    problem = [""]  # a form problem stays shown until the next save

    def apply(host: str, port: str, table: str, password: str) -> None:
        problem[0] = ""
        if host and not topics.valid_table_id(table):
            problem[0] = app.tr("floor.settings.bad_table")
        elif not port.isdigit() or not 0 < int(port) < 65536:
            problem[0] = app.tr("floor.settings.bad_port")
        if problem[0]:
            state.text, state.color = problem[0], DANGER_TEXT
            return
        s.floor_host, s.floor_port, s.floor_table, s.floor_password = host, int(port), table, password
        app.save_settings()
        restart(app)
        screen.refresh()  # the section as it is now (the tablet-only case form goes when a floor comes)

    save.bind(on_release=lambda *_: apply(fields["host"].text.strip(), fields["port"].text.strip(),
                                          fields["table"].text.strip().lower(), fields["password"].text))
    off.bind(on_release=lambda *_: apply("", str(DEFAULT_PORT), "", ""))
    row.add_widget(save)
    row.add_widget(off)
    panel.add_widget(row)
    panel.add_widget(state)
    panel.add_widget(TLabel(text=app.tr("floor.settings.hint"), color=MUTED, font_size=SMALL))
    if app.floor is None:  # no floor: a café's box is added on this tablet itself
        row = BoxLayout(size_hint_y=None, height=dp(72), spacing=dp(12))
        add = TButton(text=app.tr("floor.case.open"), test_id="floor_case_open", size_hint_x=0.5)

        def open_form(*_: Any) -> None:
            from kiosk.floor.case_form import CaseForm

            CaseForm(app).open()

        add.bind(on_release=open_form)
        row.add_widget(add)
        hint = Label(text=app.tr("floor.case.no_floor_hint"), color=MUTED, font_size=SMALL, halign="left",
                     valign="middle")
        hint.bind(size=lambda w, size: setattr(w, "text_size", size))
        row.add_widget(hint)
        panel.add_widget(row)
    panel.add_widget(Label())

    def refresh(dt: float) -> None:
        if state.parent is None:
            ev.cancel()
        elif not problem[0]:
            state.text = _link_text(app)
            state.color = OK if app.floor is not None and app.floor.table.client.connected else TEXT

    ev = Clock.schedule_interval(refresh, 1.0)


def _link_text(app: Any) -> str:
    bridge = getattr(app, "floor", None)
    if bridge is None:
        return str(app.tr("floor.settings.is_off"))
    client = bridge.table.client
    pending = client.outbox.pending()
    if client.connected:
        return str(app.tr("floor.settings.connected", table=bridge.table.config.table, n=pending))
    if client.last_error:
        return str(app.tr("floor.settings.refused", reason=client.last_error, n=pending))
    return str(app.tr("floor.settings.connecting", n=pending))
