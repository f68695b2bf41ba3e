"""What every synthesiser shares (the in-process ones in audio.tts, the worker process in
audio.synth_process): its errors and what it says of a voice."""

from __future__ import annotations

from dataclasses import dataclass


class SynthUnavailable(Exception):
    """Synthesis cannot work at all (engine missing); `str(exc)` is the reason shown to staff."""


class SynthError(Exception):
    """One utterance failed; the engine may still work for the next."""


@dataclass(frozen=True)
class VoiceInfo:
    id: str
    name: str
    languages: tuple[str, ...] = ()
