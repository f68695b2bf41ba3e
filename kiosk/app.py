"""The Kivy application. Import only after kiosk.env.configure() (kiosk/__main__.py does it)."""

from __future__ import annotations

import importlib
import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.base import ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager
from kivy.uix.widget import Widget

from content.i18n_catalog import Translator
from kiosk import data_folder, devices, gl_frames
from kiosk.content_load import ContentLoad
from table import ops, paths
from table import settings as settings_mod
from table.notices import Notice
from table.session import CURRENT
from table.table import Table

if TYPE_CHECKING:
    from content.loader import Library

log = logging.getLogger(__name__)

SCREENS = {  # name → (module, class); built on first visit (TableHostApp.get_screen)
    "attract": ("kiosk.screens.attract", "AttractScreen"),
    "library": ("kiosk.screens.library", "LibraryScreen"),
    "detail": ("kiosk.screens.detail", "DetailScreen"),
    "host": ("kiosk.screens.host", "HostScreen"),
    "teach": ("kiosk.screens.teach", "TeachScreen"),
    "pin": ("kiosk.screens.pin", "PinScreen"),
    "staff": ("kiosk.screens.staff", "StaffScreen"),
}


class TableHostApp(App):
    lang = StringProperty("ko")
    branch = StringProperty("")
    title = "TableHost"

    def __init__(self, data_dir: Path | None = None, clock: Any = time.time, defer_content: bool = False,
                 **kw: Any) -> None:
        """`defer_content` (tablehost run): the content library loads after the attract screen is up (in a
        thread; anything that needs it before then waits for it), not before the first frame."""
        super().__init__(**kw)
        self.content = ContentLoad()
        self._defer_content = defer_content
        self._after_content: Any = None  # what starts once the deferred content is in (on_start)
        self.now = clock
        self.errors: list[str] = []
        self.storage_error = ""  # an uncaught error that was the data folder's (read-only, full, I/O)
        self._allow_exit = False
        self.toast_widget: Any = None
        self.keeper: Any = None
        self.narrator: Any = None
        self.caption_bar: Any = None
        self.narration: Any = None
        self.caption_slot: Any = None
        self.toast_lane: Any = None
        self.phones: Any = None
        self.phones_server: Any = None
        self.phones_start: threading.Thread | None = None  # the background start of the phone server
        self.voice: Any = None
        self.floor: Any = None  # kiosk.floor.ui.FloorBridge when staff configured the café floor
        self.root_layout: Any = None
        self.keyboard: Any = None
        self.splash: Any = None  # kiosk.splash.Splash while starting (tablehost run)
        self.staff_mode = False  # after the staff PIN until the attract screen: staff-only content is offered
        self.sounds: list[str] = []  # sound effects played (tests)
        self.use_data_dir(data_dir or paths.data_dir())

    def use_data_dir(self, data_dir: Path) -> None:
        """(Re)load settings, content and the journal location from a data folder."""
        self.notices: list[Notice] = []  # damage found and handled, for the staff screen
        self.data_dir = data_dir
        self.settings_path = data_dir / "settings.json"
        self.settings = settings_mod.load(self.settings_path, self.notices, self.now)
        self.settings_stamp = data_folder.stamp(self.settings_path)
        self.translator = Translator(self.settings.lang)
        self.lang = self.translator.lang
        self.journal_dir = data_dir / "journal"
        if getattr(self, "table", None) is None:
            self.table: Table = Table(lambda: self.library, self.journal_dir, clock=self.now, notices=self.notices)
        else:
            self.table.close()
            self.table.journal_dir, self.table.notices = self.journal_dir, self.notices
            self.table.load_played()  # what was played tonight at that folder's table
        self.content = ContentLoad()
        if self._defer_content:
            self._defer_content = False  # only the first folder: later ones (turnover, tests) load at once
            self.branch = self.settings.branch
        else:
            from content.loader import load_library

            self.library = load_library(overlay=data_dir / "content")

    # ------------------------------------------------------------ content, loaded at start or soon after
    @property
    def library(self) -> Library:
        """The content library; while it loads in the background, waits for it."""
        if self.content.library is None:
            self.library = self.content.wait(self.data_dir / "content", self.data_dir / "cache" / "content")
        assert self.content.library is not None
        return self.content.library

    @library.setter
    def library(self, library: Library) -> None:
        self.content.take(library)
        self.branch = self.settings.branch or library.branches.default

    def library_ready(self) -> bool:
        return self.content.library is not None

    def _library_arrived(self) -> None:
        _ = self.library  # takes the loaded library (unless something needed it earlier)
        if self.sm.current == "attract":
            self.sm.current_screen.refresh()
        if not self.table.playing:
            self.resume_game()
        after, self._after_content = self._after_content, None
        if after is not None:
            self._after_first_frame(after)  # once the games' tiles are drawn

    # ------------------------------------------------------------ build
    def build(self) -> FloatLayout:
        from kiosk.keeper import KeepRunning, TableKeeper
        from kiosk.widgets.theme import BG
        from kiosk.widgets.toast import Toast

        Window.clearcolor = BG
        Window.bind(on_keyboard=self._on_keyboard, on_request_close=self._on_request_close)
        gl_frames.finish_headless_frames()  # else software GL keeps what it drew (tests, benches)
        ExceptionManager.add_handler(KeepRunning(self))
        root = FloatLayout()
        # an instant change: a fade draws both whole screens into two new framebuffers for every frame it
        # lasts, which a tablet's software GL pays for on the UI thread (bench/frames.py, "opening")
        self.sm = ScreenManager(transition=NoTransition())
        # Kivy moves only the screen on show with its manager, and never during a change: a keyboard lift
        # dropped while the screens changed would leave a screen shifted for good (title cut off). Re-seat them.
        self.sm.transition.bind(on_complete=lambda *_: self._seat_screens())
        self.get_screen("attract")  # the others are built on their first visit
        column = BoxLayout(orientation="vertical")
        column.add_widget(self.sm)
        # the caption bar's reserved strip under every screen: zero-high until narration plays (never over a
        # control; the screen gets its room back when the speech ends)
        self.caption_slot = BoxLayout(size_hint_y=None, height=0, padding=(dp(16), 0, dp(16), dp(8)))
        column.add_widget(self.caption_slot)
        # the toast lane, the bottom strip: zero-high until a toast finds no place on the screen free of text and
        # controls; then the screen lays out above it while the toast shows (kiosk/widgets/toast.py)
        self.toast_lane = Widget(size_hint_y=None, height=0)
        column.add_widget(self.toast_lane)
        root.add_widget(column)
        self.toast_widget = Toast(lane=self.toast_lane, screen=lambda: self.sm.current_screen)
        root.add_widget(self.toast_widget)
        self.root_layout = root
        from kiosk.widgets.keyboard import KeyboardHost

        self.keyboard = KeyboardHost(self.tr, lambda: self.lang)  # for every text field, on every screen
        self.keeper = TableKeeper(self)
        return root

    def _seat_screens(self) -> None:
        for screen in self.sm.screens:
            if screen.pos != self.sm.pos:
                screen.pos = self.sm.pos

    def get_screen(self, name: str) -> Any:
        """A screen, built on first use (its module, kv and widgets load then, not at start-up)."""
        if not self.sm.has_screen(name):
            module, cls = SCREENS[name]
            self.sm.add_widget(getattr(importlib.import_module(module), cls)())
        return self.sm.get_screen(name)

    def on_start(self) -> None:
        started_with_splash = self.splash is not None
        if self.splash is not None:  # the next frame draws the attract screen; the splash has shown till now
            self.splash.close()
            self.splash = None
        ops.setup_logging(self.data_dir)
        for notice in self.notices:  # found before the log file was open
            log.error("damage found at start-up: %s", notice)
        phones = threading.Thread(target=self.start_phones, name="phones-start", daemon=True)  # aiohttp
        self.phones_start = phones  # tests wait for it before they start a server of their own
        if started_with_splash:  # tablehost run: the attract screen first, then the content in a thread; narration's
            # imports, the phone server and the voice model once the games are on it (each competed with the
            # content for the one core a tablet gives Python: ~0.35 s of CPU each here, bench/startup.py)
            def rest() -> None:
                devices.start_narrator_soon(self)
                phones.start()
                Clock.schedule_once(lambda dt: self.start_voice(), 2.0)

            def soon() -> None:
                if self.library_ready():
                    rest()
                else:
                    self._after_content = rest
                    self.content.soon(self.data_dir / "content", self.data_dir / "cache" / "content",
                                      lambda: Clock.schedule_once(lambda dt: self._library_arrived()))

            self._after_first_frame(soon)
        else:
            devices.start_narrator(self)
            phones.start()
            # the voice model (~1.2 s of loading, 450 MB) loads once the first screens are up
            Clock.schedule_once(lambda dt: self.start_voice(), 2.0)
        if self.library_ready() or (self.journal_dir / CURRENT).exists():
            self.resume_game()  # an unfinished game: its content at once, straight back into it
        # else nothing to resume (checked again once the content is in: _library_arrived)
        if self.settings.pin_unset and self.sm.current == "attract":
            self.go("pin")  # no staff PIN yet: staff choose one first (#42)
        self.start_floor()
        ops.sd_notify("READY=1")
        if self.notices:  # `systemctl status tablehost` shows it too
            ops.sd_notify("STATUS=damage found: " + ", ".join(n.key for n in self.notices))
        interval = ops.watchdog_interval()
        if interval:
            Clock.schedule_interval(lambda dt: ops.sd_notify("WATCHDOG=1"), interval)

    def _after_first_frame(self, fn: Any) -> None:
        """Run `fn` on the UI thread right after the next frame is on the screen."""
        def flipped(*_: Any) -> None:
            Window.unbind(on_flip=flipped)
            Clock.schedule_once(lambda dt: fn())

        Window.bind(on_flip=flipped)

    # ------------------------------------------------------------ devices (kiosk/devices.py)
    def start_voice(self, controller: Any = None) -> None:
        devices.start_voice(self, controller)

    def start_phones(self) -> None:
        devices.start_phones(self)

    def start_floor(self) -> None:
        devices.start_floor(self)

    def open_phones_panel(self) -> None:
        devices.open_phones_panel(self)

    def apply_audio_settings(self, start_voice: bool = True) -> None:
        devices.apply_audio_settings(self, start_voice)

    def play_sound(self, name: str) -> None:
        devices.play_sound(self, name)

    def on_stop(self) -> None:
        self.table.close()
        devices.stop_all(self)

    # ------------------------------------------------------------ data folder (kiosk/data_folder.py)
    def check_storage(self) -> bool:
        return data_folder.check_storage(self)

    def save_settings(self) -> None:
        data_folder.save_settings(self)

    def reload_settings_if_changed(self) -> None:
        data_folder.reload_settings_if_changed(self)

    def resume_game(self, announce: bool = True) -> bool:
        """After a restart (or a power cut) go straight back into the unfinished game."""
        self.check_storage()
        try:
            report = self.table.resume()
        except Exception:
            log.exception("could not resume the journal; starting fresh")
            return False
        if report is None:
            return False
        self.get_screen("detail").game_id = self.table.game.id
        self.host(self.table.game.id)
        if announce:
            self.toast(self.tr("host.resumed"))
        return True

    def dismiss_dialogs(self) -> None:
        from kivy.uix.modalview import ModalView

        for w in list(Window.children):
            if isinstance(w, ModalView):
                w.dismiss(animation=False)

    def reset_for(self, data_dir: Path) -> None:
        """Back to a fresh attract screen on another data folder (tests; table turnover builds on it)."""
        self.dismiss_dialogs()
        if getattr(self, "staff_calls", None) is not None:
            self.staff_calls.acknowledge()  # the last table's call and its sign go with it
        self.sounds = []
        if self.keyboard is not None:
            self.keyboard.close()
        if self.narration is not None:
            self.narration.hush()  # not a word of the last table's narration reaches the next guests
        if self.narrator is not None and hasattr(self.narrator, "stop_sounds"):
            self.narrator.stop_sounds()  # nor its sounds
        self.use_data_dir(data_dir)  # the table lets its game go (it resumed from its journal, if ever)
        self.table.clock = self.now  # the app's clock again (a test, or a staff shortcut, may have moved the table's)
        self.set_lang(self.settings.lang)  # as a turnover does: the keyboard's layout too, not only the texts
        self.start_floor()
        if self.sm.has_screen("library"):
            library = self.get_screen("library")
            library.players, library.minutes = 0, 0
        if self.sm.has_screen("host"):
            host = self.get_screen("host")
            host.clear_body()
            host.ctx = None
        if self.toast_widget is not None:
            self.toast_widget.hide()
        if self.keeper is not None:
            self.keeper.last_touch = time.monotonic()
            self.keeper.asking = None
        self.go("attract")

    # ------------------------------------------------------------ navigation
    def go(self, name: str) -> None:
        if name == "attract" and self.settings.pin_unset:  # no staff PIN yet: staff choose one first (#42)
            name = "pin"
        if self.narration is not None and name != self.sm.current:
            self.narration.hush()  # before the next screen is built: the leave is heard at once
        if name == "staff":
            self.staff_mode = True
        elif name == "attract":
            self.staff_mode = False
        self.get_screen(name)  # built on its first visit
        self.sm.current = name

    def open_game(self, game_id: str) -> None:
        self.get_screen("detail").game_id = game_id
        self.go("detail")

    def host(self, game_id: str) -> None:
        self.get_screen("host").open_game(game_id)
        self.go("host")

    def teach(self, game_id: str) -> None:
        self.get_screen("teach").game_id = game_id
        self.go("teach")

    # ------------------------------------------------------------ language, text
    def tr(self, key: str, *_bind: Any, **params: Any) -> str:
        """Translate; extra positional args (app.lang in kv) only make kv re-evaluate on a switch."""
        return self.translator(key, **params)

    def set_lang(self, lang: str) -> None:
        self.translator.set_lang(lang)
        self.lang = self.translator.lang
        if self.keyboard is not None:
            self.keyboard.relabel()
        current = self.sm.current_screen
        if hasattr(current, "refresh"):
            current.refresh()

    def toggle_lang(self) -> None:
        self.set_lang("en" if self.lang == "ko" else "ko")

    def branch_name(self, _lang: str, branch: str) -> str:
        if not self.library_ready():  # named once the content is in (a moment after start)
            return ""
        for br in self.library.branches.branches:
            if br.id == branch:
                return br.name.get(self.lang)
        return branch

    def toast(self, text: str) -> None:
        if self.toast_widget is not None:
            self.toast_widget.show(text)

    # ------------------------------------------------------------ kiosk lock-down
    def _install_settings_keys(self, window: Any) -> None:
        """Kivy binds F1 (and Android's menu key) to its settings panel, which can change any Kivy setting:
        not in a kiosk."""

    def open_settings(self, *_args: Any) -> bool:
        return False

    def _on_keyboard(self, _window: Any, key: int, *_args: Any) -> bool:
        # 27: Esc / Android back. In kiosk mode no key leaves the app; back goes to the previous screen.
        if key == 27:
            return True
        return False

    def _on_request_close(self, *_args: Any, **_kw: Any) -> bool:
        return not self._allow_exit  # True blocks closing (Alt+F4, window manager close)

    def exit_kiosk(self) -> None:
        """Staff only (behind the PIN): leave the app."""
        self.table.close()
        self._allow_exit = True
        self.stop()
