"""Keeping the table: idle timeout back to the attract screen (asking first during a game), table
turnover (nothing of the previous table stays visible), and recovery after an uncaught error
("잠시만요", then the same game again, resumed from the journal)."""

from __future__ import annotations

import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from kiosk.widgets.dialogs import ConfirmDialog, for_one_on_show
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import ACCENT, BG, HEADLINE
from table import storage

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp

log = logging.getLogger(__name__)
IDLE_SECONDS = 10 * 60
ASK_SECONDS = 60
MAX_ERRORS_PER_MINUTE = 5


class TableKeeper:
    def __init__(self, app: KioskApp, idle_seconds: float = IDLE_SECONDS) -> None:
        self.app = app
        self.idle_seconds = idle_seconds
        self.last_touch = time.monotonic()
        self.asking: ConfirmDialog | None = None
        self.errors: deque[float] = deque(maxlen=MAX_ERRORS_PER_MINUTE + 1)
        self.recovering = False
        Window.bind(on_touch_down=self._touched)
        self._ev = Clock.schedule_interval(self.check_idle, 5)

    # ------------------------------------------------------------ idle
    def _touched(self, *_: Any) -> bool:
        self.last_touch = time.monotonic()
        return False  # never swallow the touch

    def idle_for(self) -> float:
        return time.monotonic() - self.last_touch

    def check_idle(self, _dt: float = 0) -> None:
        app = self.app
        if for_one_on_show() == "staff":  # staff at the PIN pad (waiting out a lock, maybe): no question over it,
            self.last_touch = time.monotonic()  # and their time is not the table's idle time
            return
        if self.asking is not None or self.idle_for() < self.idle_seconds:
            return
        if app.sm.current in ("attract", "pin", "staff"):
            return
        if app.table.playing and app.table.outcome is None:
            self.asking = ConfirmDialog.ask(app.tr("table.still_playing"), app.tr("table.still_playing_yes"),
                                            app.tr("table.still_playing_no"), on_yes=self._still_playing,
                                            on_no=self._left, timeout=ASK_SECONDS,
                                            on_cancel=self._still_playing)  # another question: somebody's there
            return
        self.new_table()

    def _still_playing(self) -> None:
        self.asking = None
        self.last_touch = time.monotonic()

    def _left(self) -> None:
        self.asking = None
        log.info("idle table: nobody answered; archiving the unfinished game and resetting")
        self.new_table()

    # ------------------------------------------------------------ turnover
    def new_table(self) -> None:
        """Archive the game (kept for statistics, never shown again), clear names and scores, reset language
        and filters, back to attract."""
        app = self.app
        app.dismiss_dialogs()
        app.table.turnover()
        host = app.get_screen("host")
        host.clear_body()
        host.ctx = None
        library = app.get_screen("library")
        library.players, library.minutes = 0, 0
        app.set_lang(app.settings.lang)
        # kv rules of widgets now gone left dead observers on the app's properties; a dispatch sweeps them
        for name in ("lang", "branch"):
            app.property(name).dispatch(app)
        app.go("attract")
        self.last_touch = time.monotonic()
        self.asking = None

    # ------------------------------------------------------------ recovery
    def on_error(self, exc: BaseException) -> bool:
        """Called for an uncaught error in the UI loop. Returns False when errors come too fast (the process
        should exit and let systemd restart it; the journal resumes the game)."""
        now = time.monotonic()
        self.errors.append(now)
        if len(self.errors) > MAX_ERRORS_PER_MINUTE and now - self.errors[0] < 60:
            return False
        if not self.recovering:
            self.recovering = True
            overlay = OneUse(size_hint=(1, 1), auto_dismiss=False, background="", background_color=BG)
            overlay.add_widget(Label(text=self.app.tr("errors.crashed"), font_size=HEADLINE, color=ACCENT))
            overlay.test_id = "recovering"
            try:
                overlay.open(animation=False)
            except Exception:
                log.exception("could not show the recovery overlay")
            Clock.schedule_once(lambda dt: self._recover(overlay), 0.8)
        return True

    def _recover(self, overlay: OneUse) -> None:
        app = self.app
        try:
            for w in list(Window.children):
                if isinstance(w, ModalView) and w is not overlay:
                    w.dismiss(animation=False)
            app.table.close()
            if not app.resume_game(announce=False):
                app.go("attract")
        except Exception:
            log.exception("recovery failed; back to the attract screen")
            try:
                app.table.close()
            except Exception:
                log.exception("the table did not let its game go cleanly")
            app.go("attract")
        finally:
            overlay.dismiss(animation=False)
            self.recovering = False


class KeepRunning(ExceptionHandler):
    """An uncaught error is logged; the guests see "one moment" and then their game again, resumed from the
    journal. Errors in a burst end the process instead (systemd restarts it and the journal resumes)."""

    def __init__(self, app: KioskApp) -> None:
        self.app = app

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, (KeyboardInterrupt, SystemExit)):
            return int(ExceptionManager.RAISE)
        log.error("uncaught error in the kiosk", exc_info=inst)
        self.app.errors.append(repr(inst))
        if storage.is_storage_error(inst):  # the recovery goes on in memory (kiosk/data_folder.check_storage)
            self.app.storage_error = f"{type(inst).__name__}: {inst}"
        keeper = self.app.keeper
        if keeper is None or keeper.on_error(inst):
            return int(ExceptionManager.PASS)
        log.critical("too many errors in a minute; exiting for a clean restart")
        return int(ExceptionManager.RAISE)
