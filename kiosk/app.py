"""The Kivy application. Import only after kiosk.env.configure() (kiosk/__main__.py does it)."""

from __future__ import annotations

import errno
import importlib
import logging
import os
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from content.i18n_catalog import Translator
from kiosk import gl_frames
from kiosk.splash import register_fonts
from table import ops, paths, storage
from table import settings as settings_mod
from table.notices import Notice, add
from table.session import CURRENT
from table.table import Table

if TYPE_CHECKING:
    from content.loader import Library

log = logging.getLogger(__name__)
__all__ = ["TableHostApp", "register_fonts"]

SCREENS = {  # name → (module, class); built on first visit (TableHostApp.get_screen)
    "attract": ("kiosk.screens.attract", "AttractScreen"),
    "library": ("kiosk.screens.library", "LibraryScreen"),
    "detail": ("kiosk.screens.detail", "DetailScreen"),
    "host": ("kiosk.screens.host", "HostScreen"),
    "teach": ("kiosk.screens.teach", "TeachScreen"),
    "pin": ("kiosk.screens.pin", "PinScreen"),
    "staff": ("kiosk.screens.staff", "StaffScreen"),
}


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


class _KeepRunning(ExceptionHandler):
    """An uncaught error is logged; the guests see "one moment" and then their game again, resumed from the
    journal. Errors in a burst end the process instead (systemd restarts it and the journal resumes)."""

    def __init__(self, app: TableHostApp) -> None:
        self.app = app

    def handle_exception(self, inst: BaseException) -> int:
        if isinstance(inst, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        log.error("uncaught error in the kiosk", exc_info=inst)
        self.app.errors.append(repr(inst))
        if storage.is_storage_error(inst):  # the recovery goes on in memory (check_storage)
            self.app.storage_error = f"{type(inst).__name__}: {inst}"
        keeper = self.app.keeper
        if keeper is None or keeper.on_error(inst):
            return ExceptionManager.PASS
        log.critical("too many errors in a minute; exiting for a clean restart")
        return ExceptionManager.RAISE


def _test_mixer() -> Any:
    """TABLEHOST_AUDIO_DEVICE=fake: narration is synthesised and played into a recording fake device (UI
    tests and benches run with the sound on, on a machine without a sound card). Otherwise the real one."""
    if os.environ.get("TABLEHOST_AUDIO_DEVICE") != "fake":
        return None
    from audio.playback import FakeOutput, Mixer

    return Mixer(device=FakeOutput())


class TableHostApp(App):
    lang = StringProperty("ko")
    branch = StringProperty("")
    title = "TableHost"

    def __init__(self, data_dir: Path | None = None, clock: Any = time.time, defer_content: bool = False,
                 **kw: Any) -> None:
        """`defer_content` (tablehost run): the content library loads after the attract screen is up (in a
        thread; anything that needs it before then waits for it), not before the first frame."""
        super().__init__(**kw)
        self._library: Library | None = None
        self._library_job: threading.Thread | None = None
        self._library_loaded: Library | BaseException | None = None
        self._defer_content = defer_content
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
        self._settings_stamp = _stamp(self.settings_path)
        self.translator = Translator(self.settings.lang)
        self.lang = self.translator.lang
        self.journal_dir = data_dir / "journal"
        if getattr(self, "table", None) is None:
            self.table: Table = Table(lambda: self.library, self.journal_dir, clock=self.now, notices=self.notices)
        else:
            self.table.close()
            self.table.journal_dir, self.table.notices = self.journal_dir, self.notices
        self._library = None
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
        if self._library is None:
            from content.loader import Library, load_library

            job = self._library_job
            if job is not None:
                job.join()
            loaded = self._library_loaded
            if isinstance(loaded, BaseException):
                log.error("content failed to load in the background; loading again", exc_info=loaded)
            self.library = loaded if isinstance(loaded, Library) else load_library(overlay=self.data_dir / "content")
        assert self._library is not None
        return self._library

    @library.setter
    def library(self, library: Library) -> None:
        self._library, self._library_job, self._library_loaded = library, None, None
        self.branch = self.settings.branch or library.branches.default

    def library_ready(self) -> bool:
        return self._library is not None

    def _load_library_soon(self) -> None:
        """Load the content in a thread once the attract screen is drawn, then show the games on it and resume
        an unfinished game."""
        overlay = self.data_dir / "content"

        def load() -> None:
            from content.loader import load_library

            try:
                self._library_loaded = load_library(overlay=overlay)
            except BaseException as exc:  # handed to the UI thread (the library property loads again)
                self._library_loaded = exc
            Clock.schedule_once(lambda dt: self._library_arrived())

        self._library_job = threading.Thread(target=load, name="content-load", daemon=True)
        self._library_job.start()

    def _library_arrived(self) -> None:
        _ = self.library  # takes the loaded library (unless something needed it earlier)
        if self.sm.current == "attract":
            self.sm.current_screen.refresh()
        if not self.table.playing:
            self.resume_game()

    # ------------------------------------------------------------ build
    def build(self) -> FloatLayout:
        from kiosk.widgets.dialogs import Toast
        from kiosk.widgets.theme import BG

        Window.clearcolor = BG
        Window.bind(on_keyboard=self._on_keyboard, on_request_close=self._on_request_close)
        gl_frames.finish_headless_frames()  # else software GL keeps what it drew (tests, benches)
        ExceptionManager.add_handler(_KeepRunning(self))
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
        root.add_widget(column)
        self.toast_widget = Toast()
        root.add_widget(self.toast_widget)
        self.root_layout = root
        from kiosk.widgets.keyboard import KeyboardHost

        self.keyboard = KeyboardHost(self.tr, lambda: self.lang)  # for every text field, on every screen
        from kiosk.keeper import TableKeeper

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
        if started_with_splash:  # tablehost run: the attract screen first; content, narration's imports and the
            # phone server load in threads once it is drawn (not competing with its first frame)
            def soon() -> None:
                if not self.library_ready():
                    self._load_library_soon()
                self._start_narrator_soon()
                phones.start()

            self._after_first_frame(soon)
        else:
            self.start_narrator()
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

    def _start_narrator_soon(self) -> None:
        """Import the audio stack (numpy, the mixer: ~1 s) in a thread, then start the narrator on the UI thread."""
        def load() -> None:
            try:
                import audio.narrator  # noqa: F401
            except Exception:
                log.exception("narration modules failed to import")
            Clock.schedule_once(lambda dt: self.start_narrator())

        threading.Thread(target=load, name="narrator-import", daemon=True).start()

    def start_narrator(self) -> None:
        """Narration with captions; without a speaker or a voice it degrades to captions only (audio/)."""
        if os.environ.get("TABLEHOST_NO_AUDIO") == "1":
            return
        try:
            from audio.narrator import Narrator
            from content import ROOT as CONTENT_ROOT

            self.narrator = Narrator(mixer=_test_mixer(), overlay_dir=self.data_dir / "recordings",
                                     cache_dir=self.data_dir / "cache" / "narration", content_root=CONTENT_ROOT)
            self.narrator.captions_only = os.environ.get("TABLEHOST_CAPTIONS_ONLY") == "1"
            self.apply_audio_settings(start_voice=False)
        except Exception:
            log.exception("narration unavailable; captions only where screens show them")
            self.narrator = None
            return
        from kiosk.narration_scope import NarrationScope

        self.narration = NarrationScope(self, self.narrator)
        self.caption_bar = self.narration.bar

    def start_voice(self, controller: Any = None) -> None:
        """Offline Korean voice commands (push-to-talk). The model loads in the background; with no model,
        PortAudio or microphone the mic button stays hidden and the staff screen shows the reason.
        `controller`: an audio.asr.VoiceController to use instead of the real microphone (tests)."""
        if self.voice is not None:
            return
        system = None
        if controller is None:
            if os.environ.get("TABLEHOST_NO_VOICE") == "1" or not self.settings.voice_enabled:
                return
            try:
                from audio.voice_choices import kiosk_catalog
                from audio.voice_system import start_voice

                in_memory = any(n.key == "storage_readonly" for n in self.notices)  # 190 MB of RAM: not there
                system = start_voice(kiosk_catalog(self.data_dir / "content"),  # with the café's voice choices
                                     cache=None if in_memory else self.data_dir / "cache" / "voice-model")
                controller = system.controller
            except Exception:
                log.exception("voice commands unavailable")
                return
        from kiosk.voice import VoiceBridge

        self.voice = VoiceBridge(self, controller, system)  # puts its mic button in the screen's voice_slot

    def start_phones(self) -> None:
        """Players' phones as private screens, served on the café LAN; without a network (or with the port
        taken) the kiosk goes on with pass-the-tablet only."""
        if os.environ.get("TABLEHOST_NO_PHONES") == "1" or not self.settings.phones_enabled:
            return
        try:
            from phones.channel import PhoneHub
            from phones.qr import lan_address
            from phones.server import PhoneServer

            hub = PhoneHub(run_on_main=lambda fn: Clock.schedule_once(lambda dt: fn()),
                           store=self.data_dir / "phone_passes.json")
            host = os.environ.get("TABLEHOST_PHONES_HOST") or lan_address()
            server = PhoneServer(hub, host=host, port=self.settings.phones_port)
            server.start()
        except OSError as exc:  # no LAN address, or the port is taken (a second kiosk, another program)
            log.warning("phones off: pass-the-tablet only (%s)", exc)
            taken = exc.errno == errno.EADDRINUSE
            add(self.notices, "phones_port_taken" if taken else "phones_no_network", port=self.settings.phones_port)
            return
        except Exception:
            log.exception("phones off: pass-the-tablet only")
            return
        Clock.schedule_once(lambda dt: self._phones_ready(hub, server))

    def _phones_ready(self, hub: Any, server: Any) -> None:
        from kiosk.phones.ask import AskWatcher

        self.phones, self.phones_server = hub, server
        AskWatcher(hub, self.tr)  # "is this your phone?" on any screen, for a phone new to its seat (admit.py)
        hub.follow(self.table)  # a game resumed before the server was up is attached at once

    def start_floor(self) -> None:
        """The café floor (MQTT) when staff configured one; without it the tablet works exactly as before."""
        if os.environ.get("TABLEHOST_NO_FLOOR") == "1":
            return
        if self.floor is not None or self.settings.floor_host:
            from kiosk.floor.ui import restart

            restart(self)

    def open_phones_panel(self) -> None:
        if self.phones is None or self.phones_server is None:
            self.toast(self.tr("host.phones_off"))
            return
        from kiosk.phones.panel import PhonesPanel

        host = self.get_screen("host")
        if not self.table.playing and host.ctx is not None and host.host_widget is not None:
            from kiosk.phones.setup import SetupLink  # set-up: phones join now and type their names

            if not SetupLink(self.phones, host.host_widget, host.ctx.game.id).open():
                self.toast(self.tr("host.phones_off"))
                return
        PhonesPanel(self.phones, self.phones_server.join_url, self.phones_server.url, self.tr).open()

    def on_stop(self) -> None:
        self.table.close()
        if self.floor is not None:
            self.floor.stop()
        if self.voice is not None:
            self.voice.stop()
        if self.phones_server is not None:
            try:
                self.phones_server.stop()
            except Exception:
                log.exception("phone server stop failed")
        from phones import tokens

        tokens.flush()  # the phones' passes still being written (tokens.py)
        if self.narrator is not None:
            try:
                self.narrator.close()
            except Exception:
                log.exception("narrator close failed")

    def check_storage(self) -> bool:
        """The data folder went read-only (or full) while the kiosk runs: go on from a folder in memory, the
        game resuming from a copy of its journal (table/storage.py). True when it switched."""
        error, self.storage_error = self.storage_error, ""
        problem = storage.write_problem(self.data_dir)
        if not problem and storage.journal_problem(self.journal_dir):  # the journal folder alone (#42): renewed,
            self.table.close()  # else (a read-only mount of it) in memory too
            problem = storage.renew_journal_folder(self.journal_dir, self.notices)
            if not problem:
                return False
        problem = problem or error
        if not problem:
            return False
        self.table.close()
        source = self.data_dir
        folder, _ = storage.choose(source, problem)
        # settings and content stay as loaded; only where the kiosk writes moves
        self.data_dir, self.settings_path, self.journal_dir = folder, folder / "settings.json", folder / "journal"
        self.table.journal_dir = self.journal_dir
        add(self.notices, "storage_readonly", folder=str(source), problem=problem)
        ops.setup_logging(folder)
        return True

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
        self.sounds = []
        if self.keyboard is not None:
            self.keyboard.close()
        if self.narration is not None:
            self.narration.hush()  # not a word of the last table's narration reaches the next guests
        self.use_data_dir(data_dir)  # the table lets its game go (it resumed from its journal, if ever)
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
            self.toast_widget.opacity = 0
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

    def play_sound(self, name: str) -> None:
        """A sound effect through the narrator's effect channel (mixed over speech); kept in `sounds` for tests."""
        self.sounds.append(name)
        narrator = self.narrator
        if narrator is not None and hasattr(narrator, "play_sound"):
            try:
                narrator.play_sound(name)
            except Exception:
                log.exception("sound %s not played", name)

    def toast(self, text: str) -> None:
        if self.toast_widget is not None:
            self.toast_widget.show(text)

    def save_settings(self) -> None:
        try:
            settings_mod.save(self.settings_path, self.settings)
        except OSError as exc:  # the data folder went read-only or full while running: keep going in memory
            log.error("settings not saved: %s", exc)
            if not any(n.key == "settings_unsaved" for n in self.notices):
                add(self.notices, "settings_unsaved", problem=f"{type(exc).__name__}: {exc.strerror or exc}")
        self._settings_stamp = _stamp(self.settings_path)

    def reload_settings_if_changed(self) -> None:
        """Staff ran `tablehost pin reset` (or edited the file) while the kiosk runs: take the file's settings
        before the next PIN entry, so the kiosk does not save its old PIN over the new one."""
        stamp = _stamp(self.settings_path)
        if stamp != self._settings_stamp:
            log.info("settings file changed outside the kiosk; reloading it")
            self.settings = settings_mod.load(self.settings_path, self.notices, self.now)
            self._settings_stamp = stamp

    def apply_audio_settings(self, start_voice: bool = True) -> None:
        """Volume and voice on/off reach the narrator and the recogniser (when they are running)."""
        narrator = getattr(self, "narrator", None)
        if narrator is not None and hasattr(narrator, "set_volume"):
            narrator.set_volume(self.settings.volume)
        if self.voice is not None:
            self.voice.set_enabled(self.settings.voice_enabled)
        elif start_voice and self.settings.voice_enabled and self.root_layout is not None:
            self.start_voice()  # switched on by staff after a start without voice

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
