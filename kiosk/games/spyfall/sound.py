"""Play a short synthesised cue through Kivy's audio (SDL2 mixer); silently nothing without a device."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

_loaded: dict[str, Any] = {}


def play_clip(clip: Any, name: str) -> bool:
    from kivy.core.audio import SoundLoader

    from audio.pcm import write_wav

    snd = _loaded.get(name)
    if snd is None:
        path = Path(tempfile.gettempdir()) / f"tablehost_{name}.wav"
        write_wav(path, clip)
        snd = SoundLoader.load(str(path))
        if snd is None:
            return False
        _loaded[name] = snd
    snd.play()
    return True
