"""The voice system as the kiosk starts it (`start_voice`: model loader, controller on its worker thread,
microphone watchdog), and one recording through a screen's grammar (`recognise_wav`).

Kiosk wiring (all calls return at once; listeners run on the voice worker — hop to Kivy's main thread):

    voice = start_voice()                         # model loads in the background, mic watchdog starts
    voice.controller.listen(on_voice_event)       # "heard" → show e.text (e.intent None: not understood;
                                                  # e.detail "noisy"); "confirm" → say e.pending.intent
                                                  # back with 네/아니요 buttons (the kiosk's catalog words);
                                                  # "intent" → navigation, or to_action(e.intent, ...)
    voice.controller.set_context("spyfall.round", ["next", "help", "spyfall.accuse"],
                                 {"player": {"민호": 0, "지수": 1}})   # on every screen/state change
    voice.controller.press() / .release()         # the mic button (push-to-talk, the default)
    voice.controller.tap_confirm(True)            # the on-screen 네 button
    voice.set_enabled(False)                      # staff switch
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audio.asr import Mode, VoiceController
from audio.intents import Intent, SlotInput, VoiceCatalog, build_phrasebook, load_catalog
from audio.recognizer import PERTURB_STAGES, RATE, ModelLoader, SpeechEngine
from audio.status import BOARD, MIC_GATE, MicGate, StatusBoard


def recognise_wav(
    path: Path, engine: SpeechEngine, intents: Iterable[str], slots: SlotInput | None = None,
    catalog: VoiceCatalog | None = None,
) -> tuple[str, Intent | None]:
    """What the recogniser makes of a recording (16 kHz mono 16-bit WAV) with the grammar of the given
    intents: (text heard, intent or None). For the command line and for checking café recordings."""
    import wave

    catalog = catalog or load_catalog()
    with wave.open(str(path), "rb") as wav:
        if (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) != (RATE, 1, 2):
            raise ValueError(f"{path}: need 16 kHz mono 16-bit PCM (sox in.wav -r 16000 -c 1 -b 16 out.wav)")
        pcm = wav.readframes(wav.getnframes())
    book = build_phrasebook([catalog.intents[n] for n in intents], slots, engine.vocabulary, catalog.decoys)
    rec = engine.recognizer(book.grammar)
    for i in range(0, len(pcm), 3200):
        heard = rec.accept(pcm[i : i + 3200])
        if heard is not None and heard.candidates:
            return book.pick(heard.candidates)
    return book.pick(rec.final().candidates)


@dataclass
class VoiceSystem:
    """Everything voice needs, wired: the background model loader, the controller and the microphone
    watchdog. `start_voice()` builds and starts one; the kiosk calls `controller.set_context(...)` on every
    screen/state change, `press()`/`release()` from the mic button, and listens for `VoiceEvent`s."""

    loader: ModelLoader
    controller: VoiceController
    microphone: Any  # audio.mic.Microphone (imported lazily: tests build controllers without it)

    def set_enabled(self, on: bool) -> None:
        self.controller.set_enabled(on)

    def stop(self) -> None:
        self.microphone.stop()
        self.controller.stop_worker()


def start_voice(
    catalog: VoiceCatalog | None = None,
    mode: Mode = Mode.PUSH_TO_TALK,
    board: StatusBoard = BOARD,
    gate: MicGate = MIC_GATE,
    backend: Any = None,
    model_path: Path | None = None,
    cache: Path | None = None,
) -> VoiceSystem:
    """Start loading the model in the background (progress on the status board as "asr_model") and open
    the microphone (retried every few seconds, so a mic plugged in later is picked up without a restart).
    `cache`: a folder for the grammar-only copy of the installed model (less memory; see audio/grammar_model).
    Nothing here blocks the UI thread."""
    from audio.mic import Microphone

    controller = VoiceController(catalog, None, mode, gate=gate, board=board, stages=PERTURB_STAGES, denoise=True)
    controller.background_vote = True
    controller.serve_in_background()  # the kiosk calls it on its UI thread: no vosk work there
    loader = ModelLoader(model_path, board=board, cache=cache)

    def on_progress(progress: float, _phase: str) -> None:
        if progress >= 1.0 and loader.engine is not None:
            controller.set_engine(loader.engine)
        else:
            controller.refresh_status()

    loader.listen(on_progress)
    microphone = Microphone(controller.feed, controller.mic_available, backend=backend, board=board)
    loader.start()
    microphone.start()
    return VoiceSystem(loader, controller, microphone)
