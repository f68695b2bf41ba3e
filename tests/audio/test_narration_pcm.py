"""PCM helpers under every source: WAV in/out, resampling, silence trimming."""

from __future__ import annotations

import wave
from array import array
from pathlib import Path

import pytest

from audio.pcm import Clip, ClipReader, CorruptAudio, concat, read_wav, trim_silence, write_wav
from tests.audio.narration_fakes import tone


def test_round_trip(tmp_path: Path) -> None:
    clip = tone(0.2)
    back = read_wav(write_wav(tmp_path / "a" / "x.wav", clip))
    assert back.rate == clip.rate and back.samples == clip.samples
    assert not list(tmp_path.rglob("*.tmp"))


def test_stereo_keeps_first_channel_and_8_bit_is_widened(tmp_path: Path) -> None:
    path = tmp_path / "s.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(array("h", [100, -5, 200, -5, 300, -5]).tobytes())
    assert list(read_wav(path).samples) == [100, 200, 300]
    path8 = tmp_path / "b.wav"
    with wave.open(str(path8), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(bytes([128, 255, 0]))
    assert list(read_wav(path8).samples) == [0, 127 << 8, -128 << 8]


@pytest.mark.parametrize("content", [b"", b"RIFF", b"not a wav", b"RIFF\x24\x00\x00\x00WAVEfmt " + bytes(40)])
def test_corrupt_files_raise_corrupt_audio(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.wav"
    path.write_bytes(content)
    with pytest.raises(CorruptAudio):
        read_wav(path)


def test_missing_file_is_corrupt_audio(tmp_path: Path) -> None:
    with pytest.raises(CorruptAudio):
        read_wav(tmp_path / "none.wav")


def test_resampling_keeps_duration() -> None:
    src = tone(1.0, rate=16000)
    reader = ClipReader(src, 22050)
    out = array("h")
    while not reader.done:
        out.extend(reader.read(300))
    assert abs(len(out) - 22050) <= 2
    assert abs(concat([src, tone(0.5)], 22050).duration - 1.5) < 0.001


def test_trim_silence_both_ends_with_padding() -> None:
    quiet = array("h", bytes(2 * 11025))
    clip = Clip(quiet + tone(1.0).samples + quiet, 22050)
    trimmed = trim_silence(clip, pad=0.1)
    assert 1.15 <= trimmed.duration <= 1.25
    assert trim_silence(Clip(quiet, 22050)).frames == 0
    assert trim_silence(Clip(array("h"), 22050)).frames == 0


def _aiff(samples: list[int], rate: int, kind: bytes = b"AIFF") -> bytes:
    import struct

    e = rate.bit_length() - 1
    comm = struct.pack(">hIhHQ", 1, len(samples), 16, 16383 + e, rate << (63 - e))
    if kind == b"AIFC":
        comm += b"NONE\x00\x00"
    data = array("h", samples)
    data.byteswap()
    ssnd = struct.pack(">II", 0, 0) + data.tobytes()
    body = kind + b"COMM" + struct.pack(">I", len(comm)) + comm + b"SSND" + struct.pack(">I", len(ssnd)) + ssnd
    return b"FORM" + struct.pack(">I", len(body)) + body


@pytest.mark.parametrize("kind", [b"AIFF", b"AIFC"])
def test_aiff_from_the_macos_synthesiser_reads(tmp_path: Path, kind: bytes) -> None:
    path = tmp_path / "mac.wav"  # NSSpeechSynthesizer writes AIFF whatever the name says
    path.write_bytes(_aiff([1, -2, 300, -32768], 22050, kind))
    clip = read_wav(path)
    assert clip.rate == 22050 and list(clip.samples) == [1, -2, 300, -32768]
