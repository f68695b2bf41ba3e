"""The app's devices and services, each optional: narration (speaker), voice commands (microphone), the players'
phones (LAN server) and the café floor (MQTT). Each starts in the background where it is slow and degrades to
nothing when missing: the kiosk goes on without it (DESIGN.md, audio/)."""

from __future__ import annotations

import errno
import logging
import os
import threading
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock

from table.notices import add

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp

log = logging.getLogger(__name__)


def mixer_for_tests() -> Any:
    """TABLEHOST_AUDIO_DEVICE=fake: narration is synthesised and played into a recording fake device (UI
    tests and benches run with the sound on, on a machine without a sound card). Otherwise the real one."""
    if os.environ.get("TABLEHOST_AUDIO_DEVICE") != "fake":
        return None
    from audio.playback import FakeOutput, Mixer

    return Mixer(device=FakeOutput())


def start_narrator_soon(app: KioskApp) -> None:
    """Import the audio stack (numpy, the mixer: ~1 s) in a thread, then start the narrator on the UI thread."""
    def load() -> None:
        try:
            import audio.narrator  # noqa: F401
        except Exception:
            log.exception("narration modules failed to import")
        Clock.schedule_once(lambda dt: start_narrator(app))

    threading.Thread(target=load, name="narrator-import", daemon=True).start()


def start_narrator(app: KioskApp) -> None:
    """Narration with captions; without a speaker or a voice it degrades to captions only (audio/)."""
    if os.environ.get("TABLEHOST_NO_AUDIO") == "1":
        return
    try:
        from audio.narrator import Narrator
        from content import ROOT as CONTENT_ROOT

        app.narrator = Narrator(mixer=mixer_for_tests(), overlay_dir=app.data_dir / "recordings",
                                cache_dir=app.data_dir / "cache" / "narration", content_root=CONTENT_ROOT)
        app.narrator.captions_only = os.environ.get("TABLEHOST_CAPTIONS_ONLY") == "1"
        apply_audio_settings(app, start=False)
    except Exception:
        log.exception("narration unavailable; captions only where screens show them")
        app.narrator = None
        return
    from kiosk.narration_scope import NarrationScope

    app.narration = NarrationScope(app, app.narrator)
    app.caption_bar = app.narration.bar


def start_voice(app: KioskApp, controller: Any = None) -> None:
    """Offline Korean voice commands (push-to-talk). The model loads in the background; with no model,
    PortAudio or microphone the mic button stays hidden and the staff screen shows the reason.
    `controller`: an audio.asr.VoiceController to use instead of the real microphone (tests)."""
    if app.voice is not None:
        return
    system = None
    if controller is None:
        if os.environ.get("TABLEHOST_NO_VOICE") == "1" or not app.settings.voice_enabled:
            return
        try:
            from audio.voice_choices import kiosk_catalog
            from audio.voice_system import start_voice as start_system

            in_memory = any(n.key == "storage_readonly" for n in app.notices)  # 190 MB of RAM: not there
            system = start_system(kiosk_catalog(app.data_dir / "content"),  # with the café's voice choices
                                  cache=None if in_memory else app.data_dir / "cache" / "voice-model")
            controller = system.controller
        except Exception:
            log.exception("voice commands unavailable")
            return
    from kiosk.voice import VoiceBridge

    app.voice = VoiceBridge(app, controller, system)  # puts its mic button in the screen's voice_slot


def apply_audio_settings(app: KioskApp, start: bool = True) -> None:
    """Volume and voice on/off reach the narrator and the recogniser (when they are running)."""
    narrator = getattr(app, "narrator", None)
    if narrator is not None and hasattr(narrator, "set_volume"):
        narrator.set_volume(app.settings.volume)
    if app.voice is not None:
        app.voice.set_enabled(app.settings.voice_enabled)
    elif start and app.settings.voice_enabled and app.root_layout is not None:
        app.start_voice()  # switched on by staff after a start without voice


def play_sound(app: KioskApp, name: str) -> None:
    """A sound effect through the narrator's effect channel (mixed over speech); kept in `sounds` for tests."""
    app.sounds.append(name)
    narrator = app.narrator
    if narrator is not None and hasattr(narrator, "play_sound"):
        try:
            narrator.play_sound(name)
        except Exception:
            log.exception("sound %s not played", name)


def start_phones(app: KioskApp) -> None:
    """Players' phones as private screens, served on the café LAN; without a network (or with the port
    taken) the kiosk goes on with pass-the-tablet only."""
    if os.environ.get("TABLEHOST_NO_PHONES") == "1" or not app.settings.phones_enabled:
        return
    try:
        from phones.channel import PhoneHub
        from phones.qr import lan_address
        from phones.server import PhoneServer

        hub = PhoneHub(run_on_main=lambda fn: Clock.schedule_once(lambda dt: fn()),
                       store=app.data_dir / "phone_passes.json")
        host = os.environ.get("TABLEHOST_PHONES_HOST") or lan_address()
        server = PhoneServer(hub, host=host, port=app.settings.phones_port)
        server.start()
    except OSError as exc:  # no LAN address, or the port is taken (a second kiosk, another program)
        log.warning("phones off: pass-the-tablet only (%s)", exc)
        taken = exc.errno == errno.EADDRINUSE
        add(app.notices, "phones_port_taken" if taken else "phones_no_network", port=app.settings.phones_port)
        return
    except Exception:
        log.exception("phones off: pass-the-tablet only")
        return
    Clock.schedule_once(lambda dt: _phones_ready(app, hub, server))


def _phones_ready(app: KioskApp, hub: Any, server: Any) -> None:
    from kiosk.phones.ask import AskWatcher

    app.phones, app.phones_server = hub, server
    AskWatcher(hub, app.tr)  # "is this your phone?" on any screen, for a phone new to its seat (admit.py)
    hub.follow(app.table)  # a game resumed before the server was up is attached at once


def open_phones_panel(app: KioskApp) -> None:
    if app.phones is None or app.phones_server is None:
        app.toast(app.tr("host.phones_off"))
        return
    from kiosk.phones.panel import PhonesPanel

    host = app.get_screen("host")
    if not app.table.playing and host.ctx is not None and host.host_widget is not None:
        from kiosk.phones.setup import SetupLink  # set-up: phones join now and type their names

        if not SetupLink(app.phones, host.host_widget, host.ctx.game.id).open():
            app.toast(app.tr("host.phones_off"))
            return
    PhonesPanel(app.phones, app.phones_server.join_url, app.phones_server.url, app.tr).open()


def start_floor(app: KioskApp) -> None:
    """The café floor (MQTT) when staff configured one; without it the tablet works exactly as before."""
    if os.environ.get("TABLEHOST_NO_FLOOR") == "1":
        return
    if app.floor is not None or app.settings.floor_host:
        from kiosk.floor.ui import restart

        restart(app)


def stop_all(app: KioskApp) -> None:
    """At the app's stop: the floor, voice, the phone server (its passes written) and the narrator."""
    if app.floor is not None:
        app.floor.stop()
    if app.voice is not None:
        app.voice.stop()
    if app.phones_server is not None:
        try:
            app.phones_server.stop()
        except Exception:
            log.exception("phone server stop failed")
    from phones import tokens

    tokens.flush()  # the phones' passes still being written (tokens.py)
    from table import tonight

    tonight.flush()  # and tonight's games (table/tonight.py)
    if app.narrator is not None:
        try:
            app.narrator.close()
        except Exception:
            log.exception("narrator close failed")
