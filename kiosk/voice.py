"""Voice in the kiosk: the bridge between audio.asr (recogniser, push-to-talk, confirmation) and the
screens. On every screen or game change it gives the recogniser exactly what that screen accepts
(navigation, plus the game's intents with player / location / … names from the table view); recognised
intents become the same engine actions touch sends, dispatched through the host context; final actions
wait for "네" or a tap. What was heard is always shown ("들은 말: …"). Without a microphone or model the
mic button hides and the staff screen says why (audio.status.BOARD)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk import gc_policy
from kiosk.voice_intents import acting_seat, game_intents, slot_values
from kiosk.widgets.handover import HoldButton
from kiosk.widgets.theme import MUTED, SMALL, TEXT
from table.table import VOICE

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp

log = logging.getLogger(__name__)
NAVIGATION = ("next", "previous", "repeat", "stop", "help", "score", "time_left", "new_game")
GUEST_SPOKE = ("heard", "intent", "confirm", "confirm_done")  # voice events that are a guest's command


class VoiceBar(BoxLayout):
    """The mic button (hold to talk), placed in the game screen's top bar; what was heard is shown as a
    toast and kept in `heard` (for tests and the staff log)."""

    def __init__(self, bridge: VoiceBridge, **kw: Any) -> None:
        super().__init__(orientation="horizontal", size_hint=(None, 1), width=dp(150), **kw)
        self.bridge = bridge
        self.mic = HoldButton(text=bridge.app.tr("voice.hold"), test_id="voice_mic", font_size=SMALL)
        self.mic.bind(held=lambda _w, held: bridge.press() if held else bridge.release())
        bridge.app.bind(lang=self._lang_changed)  # a method: held weakly (a lambda would keep the bar for good)
        self.heard = Label(text="", color=MUTED)  # not on screen: the toast shows it
        self.add_widget(self.mic)

    def _lang_changed(self, *_: Any) -> None:
        self.mic.text = self.bridge.app.tr("voice.hold")


class VoiceBridge:
    def __init__(self, app: KioskApp, controller: Any, system: Any = None) -> None:
        self.app = app
        self.controller = controller
        self.system = system
        self.confirm_dialog: Any = None
        self._asked = 0
        self.last_heard = ""
        self.dispatched: list[Any] = []
        controller.listen(lambda ev: Clock.schedule_once(lambda dt: self.on_event(ev)))
        self.bar = VoiceBar(self)
        self._tick = Clock.schedule_interval(lambda dt: self._safe_tick(), 0.2)
        self._on_screen = lambda *_: self.update_context()
        app.sm.bind(current=self._on_screen)
        self.update_context()

    # ------------------------------------------------------------ context
    def _place_bar(self) -> None:
        """The mic button sits in the current screen's `voice_slot` (game and teaching screens)."""
        slot = self.app.sm.current_screen.ids.get("voice_slot") if self.app.sm.current_screen else None
        if slot is None or self.bar.parent is slot:
            return
        if self.bar.parent is not None:
            self.bar.parent.remove_widget(self.bar)
        slot.add_widget(self.bar)

    def update_context(self) -> None:
        app = self.app
        screen = app.sm.current
        self._place_bar()
        intents = list(NAVIGATION)
        slots: dict[str, dict[str, object]] = {}
        table = app.table
        if screen == "host" and table.playing:
            game = table.game.id
            try:
                intents += game_intents(self.controller.catalog, table)
            except Exception:  # a voice problem must never stop the game: listen for everything instead
                log.exception("legal voice intents not computed")
                intents += [spec.name for spec in self.controller.catalog.game_intents(game)]
            slots = slot_values(table.engine.observe(table.state, None))
        try:
            self.controller.set_context(screen, intents, slots)
        except Exception:
            log.exception("voice context not set")
        self._show(self.available())

    def _show(self, visible: bool) -> None:
        self.bar.opacity = 1 if visible else 0
        self.bar.disabled = not visible
        self.bar.width = dp(150) if visible else 0

    def available(self) -> bool:
        try:
            return bool(self.controller.available) and bool(self.app.settings.voice_enabled)
        except Exception:
            return False

    def set_enabled(self, on: bool) -> None:
        self.controller.set_enabled(on)
        self.update_context()

    def press(self) -> None:
        """The mic button went down: the guest wants to talk now, so the narration stops (the microphone is
        deaf while the kiosk speaks; "다시 읽어줘" reads it again)."""
        narrator = self.app.narrator
        if narrator is not None and hasattr(narrator, "stop"):
            try:
                narrator.stop()
            except Exception:
                log.exception("narration not stopped for the mic")
        self.controller.press()

    def release(self) -> None:
        self.controller.release()

    def _safe_tick(self) -> None:
        try:
            self.controller.tick()
        except Exception:
            log.exception("voice tick failed")
        visible = self.available()
        if (self.bar.opacity == 1) != visible:
            self._show(visible)

    # ------------------------------------------------------------ events (UI thread)
    def on_event(self, ev: Any) -> None:
        if ev.kind in GUEST_SPOKE:  # busy: no collection now (kiosk/gc_policy.py); the listening light and
            gc_policy.note_voice()  # dropped noise are not a guest at the screen
        if ev.kind == "heard":
            self.last_heard = self.heard_line(ev)
            self.bar.heard.text = self.last_heard
            self.bar.heard.color = TEXT if ev.intent is not None else MUTED
            toast = self.last_heard
            if ev.detail == "noisy":
                toast = self.last_heard = self.app.tr("voice.noisy")
            elif ev.intent is None:
                examples = self.controller.book().examples(3)
                if examples:
                    toast += "\n" + self.app.tr("voice.try", examples=" · ".join(examples))
            self.app.toast(toast)
        elif ev.kind == "intent" and ev.intent is not None:
            why = "" if ev.intent.name == "stop" else self._not_now()
            if why:
                self.app.toast(why)
            else:
                self.run_intent(ev.intent)
        elif ev.kind == "confirm" and ev.pending is not None:
            self._ask(ev.pending)
        elif ev.kind == "confirm_done":
            if self.confirm_dialog is not None:
                dlg, self.confirm_dialog = self.confirm_dialog, None
                if dlg.asked == self._asked:  # still voice's question, not another one asked in the kept dialog since
                    dlg.withdraw()

    def heard_line(self, ev: Any) -> str:
        """What the bar and the toast show so people see what the kiosk understood."""
        if ev.detail == "noisy":
            return str(self.app.tr("voice.noisy"))
        if not ev.text:
            return str(self.app.tr("voice.heard_nothing"))
        return str(self.app.tr("voice.heard" if ev.intent is not None else "voice.heard_unknown", text=ev.text))

    def confirm_line(self, pending: Any) -> str:
        """The heard words said back before a confirmed action: the command's name when it differs."""
        from audio.intents import NO, YES

        intent, intents = pending.intent, self.controller.catalog.intents
        words = {"heard": intent.text, "yes": intents[YES].templates[0], "no": intents[NO].templates[0]}
        label = intent.spec.label_ko
        if label and label != intent.text:
            return str(self.app.tr("voice.confirm", label=label, **words))
        return str(self.app.tr("voice.confirm_plain", **words))

    def _ask(self, pending: Any) -> None:
        """Voice's question; refused (cancelled as a tap on 아니요 would) while the screen's own is on show or one
        person's screen is (`_not_now`): heard hands-free, or from a press begun before it, a command must not take
        away a question a guest at the screen is reading, nor put one over a guest's secret."""
        from kiosk.widgets.dialogs import ConfirmDialog

        why = self._not_now()
        if why:
            self.controller.tap_confirm(False)
            self.app.toast(why)
            return
        shown = ConfirmDialog.showing()
        if shown is not None:
            shown._on_cancel = None  # voice's own, replaced by the controller itself: nothing to cancel
        self.confirm_dialog = ConfirmDialog.ask(
            self.confirm_line(pending), self.app.tr("common.yes"),
            self.app.tr("common.no"), on_yes=lambda: self.controller.tap_confirm(True),
            on_no=lambda: self.controller.tap_confirm(False))
        self._asked = self.confirm_dialog.asked

    def _not_now(self) -> str:
        """Why no command ("stop" aside) acts now, else "": under a question that is not voice's own, a seat's
        private screen (a hand-over: one guest looks at their secret; a question over it could be answered by
        another, and "이전" left the game's screen with the hand-over still over the game's page) or the staff
        PIN pad (a question over it while staff type) a tap reaches nothing either."""
        from kiosk.widgets.dialogs import for_one_on_show

        if self._question_on_show():
            return str(self.app.tr("voice.answer_first"))
        key = {"private": "voice.private_first", "staff": "voice.staff_first"}.get(for_one_on_show())
        return str(self.app.tr(key)) if key else ""

    def _question_on_show(self) -> bool:
        """A question on show that is not voice's own (the screen's, the idle check's)."""
        from kiosk.widgets.dialogs import ConfirmDialog

        shown = ConfirmDialog.showing()
        return shown is not None and (shown is not self.confirm_dialog or shown.asked != self._asked)

    def run_intent(self, intent: Any) -> None:
        """Navigation acts on the screen; a game intent becomes the engine action touch would send."""
        app = self.app
        name = intent.name
        if name in NAVIGATION:
            self._navigate(name, intent)
            return
        table = app.table
        host = app.get_screen("host")
        if host.ctx is None or not host.ctx.playing:
            return
        from audio.intents import to_action

        fields = intent.action_fields()
        extra: dict[str, object] = {}
        cls = table.engine.actions.get(intent.spec.action or "")
        if "seat" not in fields and cls is not None:
            seat = acting_seat(table.engine.observe(table.state, None), cls.NAME, cls.BY, cls.PRIVATE)
            if seat is None:
                app.toast(app.tr("voice.who"))
                return
            extra["seat"] = seat
        try:
            action = to_action(intent, table.engine.actions, **extra)
        except (KeyError, TypeError) as exc:
            log.warning("voice intent %s does not make an action: %s", name, exc)
            app.toast(app.tr("voice.not_now"))
            return
        game_host = getattr(host, "host_widget", None)
        if type(action).PRIVATE:  # its legality is a secret: only its owner's private channel may offer it
            if game_host is None or not game_host.route_private(action):
                app.toast(app.tr("voice.private"))
            return
        self.dispatched.append(action)
        # FINAL ones were confirmed by voice (its 네); a refusal — the rules', or the table's pacing that greys the
        # screen's button with the same reason — is a toast
        host.ctx.dispatch(action, confirmed=True, channel=VOICE)

    def _navigate(self, name: str, intent: Any) -> None:
        app = self.app
        screen = app.sm.current_screen
        handler = getattr(screen, "handle_voice", None)
        if handler is not None:
            try:
                if handler(name, intent.text):
                    return
            except Exception:
                log.exception("screen voice handler failed")
        if name == "stop" and app.narrator is not None:
            app.narrator.stop()
        elif name == "help":
            from kiosk.teach.lookup_view import open_lookup

            open_lookup()
        elif name == "previous":
            back = {"library": "attract", "detail": "library", "teach": "detail", "host": "detail"}
            if app.sm.current in back:
                app.go(back[app.sm.current])
        elif name == "new_game":
            app.go("library")
        else:
            app.toast(app.tr("voice.not_here"))

    def stop(self) -> None:
        self.app.sm.unbind(current=self._on_screen)
        if self.bar.parent is not None:
            self.bar.parent.remove_widget(self.bar)
        self._tick.cancel()
        if self.system is not None:
            try:
                self.system.stop()
            except Exception:
                log.exception("voice stop failed")
