"""The pre-rendered narration cache and `render_all` (what `tablehost narration render` runs).

Entries are one WAV per sentence, named by a hash of (voice, rate, text), so a changed text, voice or rate
simply misses and is synthesised live (and can be rendered again). Sentence-sized entries give exact
caption timing and let playback start after the first sentence. File names carry no text."""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from audio.captions import split_sentences
from audio.pcm import Clip, CorruptAudio, read_wav, write_wav
from audio.segments import Segment
from audio.synth_types import SynthError, SynthUnavailable
from audio.tts import Synthesizer, VoiceSettings, choose_voice

DEFAULT_VOICES = {"ko": "ko", "en": "en"}  # espeak-ng ids; used when no synthesiser can list voices


class RenderCache:
    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)

    @staticmethod
    def key(text: str, voice: str, wpm: int) -> str:
        return hashlib.sha256(f"{voice}\x1f{wpm}\x1f{text}".encode()).hexdigest()[:32]

    def path(self, text: str, voice: str, wpm: int) -> Path:
        k = self.key(text, voice, wpm)
        return self.root / k[:2] / f"{k}.wav"

    def get(self, text: str, voice: str, wpm: int) -> Clip | None:
        p = self.path(text, voice, wpm)
        if not p.exists():
            return None
        try:
            return read_wav(p)
        except CorruptAudio:
            p.unlink(missing_ok=True)  # a damaged entry is a miss; render again later
            return None

    def has(self, text: str, voice: str, wpm: int) -> bool:
        return self.path(text, voice, wpm).exists()

    def put(self, text: str, voice: str, wpm: int, clip: Clip) -> Path:
        return write_wav(self.path(text, voice, wpm), clip)


def resolve_voice(synth: Synthesizer | None, settings: VoiceSettings, lang: str,
                  memo: dict[str, str] | None = None) -> str:
    """The voice id for a language: the setting, else the platform's best voice, else espeak-ng's id."""
    if lang in settings.voices:
        return settings.voices[lang]
    if memo is not None and lang in memo:
        return memo[lang]
    voice = None
    if synth is not None:
        try:
            voice = choose_voice(synth.voices(), lang)
        except (SynthUnavailable, SynthError, OSError):
            voice = None
    voice = voice or DEFAULT_VOICES.get(lang, lang)
    if memo is not None:
        memo[lang] = voice
    return voice


@dataclass
class RenderReport:
    segments: int = 0
    sentences: int = 0
    rendered: int = 0
    already: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  # (segment id, reason)


Progress = Callable[[int, int, str], None]  # (segments done, segments total, segment id)


def progress_bar(stream: TextIO | None = None, width: int = 30) -> Progress:
    """A text progress bar for the command line: `[#######.......]  12/40  wh.case01.intro`."""
    out = stream if stream is not None else sys.stderr

    def show(done: int, total: int, segment_id: str) -> None:
        filled = int(width * done / total) if total else width
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:>4}/{total:<4} {segment_id[:40]:<40}")
        if done >= total:
            out.write("\n")
        out.flush()

    return show


def render_all(segments: Iterable[Segment], cache_dir: str | Path, progress: Progress | None = None, *,
               synth: Synthesizer | None = None, settings: VoiceSettings | None = None,
               force: bool = False) -> RenderReport:
    """Pre-render every sentence of every segment into the cache. Secret segments are rendered too (the
    files are named by hash and only played after a reveal). Stops early if the synthesiser is missing
    (the reason is in `failed`). `progress` is called after each segment."""
    from audio.tts import default_synth

    segs = list(segments)
    settings = settings or VoiceSettings()
    own = synth is None
    synth = synth or default_synth()
    cache = RenderCache(cache_dir)
    report = RenderReport(segments=len(segs))
    memo: dict[str, str] = {}
    try:
        for i, seg in enumerate(segs, 1):
            voice = resolve_voice(synth, settings, seg.lang, memo)
            for sentence in split_sentences(seg.text, seg.lang):
                report.sentences += 1
                if not force and cache.has(sentence, voice, settings.wpm):
                    report.already += 1
                    continue
                try:
                    cache.put(sentence, voice, settings.wpm, synth.synthesize(sentence, voice, settings.wpm))
                    report.rendered += 1
                except SynthError as exc:
                    report.failed.append((seg.id, str(exc)))
                except SynthUnavailable as exc:
                    report.failed.append((seg.id, str(exc)))
                    return report
            if progress is not None:
                progress(i, len(segs), seg.id)
    finally:
        if own:
            synth.close()
    return report
