"""Narrator service: queue, sources in order, pause/resume/stop/skip (ordering and state only; timings are
measured in bench/narration.py), captions, volume, sounds over narration, the microphone gate.
Covers issue 7 items 1, 2, 4, 5, 7."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from audio.cache import render_all
from audio.captions import CaptionState, estimate_duration
from audio.narrator import Narrator
from audio.pcm import peak, write_wav
from audio.segments import Segment, overlay_path
from audio.tts import EspeakSynth, VoiceSettings
from tests.audio.narration_fakes import SpySynth, rig, tone, wait_for

INTRO = Segment("wh.case01.intro", "ko",
                "안개가 짙은 밤이었습니다. 템스 강가에서 한 남자가 쓰러진 채 발견되었습니다. "
                "경감은 여러분에게 도움을 청합니다!")


@pytest.fixture()
def env(tmp_path: Path) -> Iterator[dict]:
    mixer, dev, gate, board = rig()
    synth = SpySynth()
    caps: list[CaptionState] = []
    n = Narrator(mixer=mixer, synth=synth, overlay_dir=tmp_path / "overlay", cache_dir=tmp_path / "cache",
                 gate=None, board=board, tick=0.01)
    n.listen(caps.append)
    yield {"n": n, "mixer": mixer, "dev": dev, "gate": gate, "board": board, "synth": synth, "caps": caps,
           "tmp": tmp_path}
    n.close()
    mixer.close()


def test_live_narration_has_plausible_duration_and_exact_captions(env: dict) -> None:
    """A case intro is synthesised sentence by sentence; the audio handed over has the synthesised length."""
    n, dev, synth, caps = env["n"], env["dev"], env["synth"], env["caps"]
    utt = n.speak(INTRO)
    assert utt.done.wait(10)
    assert utt.state == "finished"
    assert utt.sources == ["live", "live", "live"]
    assert synth.texts == utt.sentences
    expected = sum(synth.per_char * len(s) for s in utt.sentences)
    assert abs(len(dev.samples) / 22050 - expected) < 0.05
    final = caps[-1]
    assert final.state == "finished" and final.progress == 1.0 and final.current == 2
    assert abs(final.duration - expected) < 0.05


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed")
def test_real_voice_case_intro_has_plausible_duration(env: dict) -> None:
    """Through the whole pipeline with a real synthesiser (espeak-ng): the audio handed to the device
    lasts about as long as the text takes to say, and the captions end at that length."""
    mixer, dev, caps = env["mixer"], env["dev"], env["caps"]
    n = Narrator(mixer=mixer, synth=EspeakSynth(), board=env["board"], tick=0.01)
    n.listen(caps.append)
    try:
        utt = n.speak(INTRO)
        assert utt.done.wait(20) and utt.sources == ["live"] * 3
        seconds = len(dev.samples) / 22050
        assert 0.5 < seconds / estimate_duration(INTRO.text) < 2.0
        assert abs(caps[-1].duration - seconds) < 0.1
    finally:
        n.close()


def test_captions_are_monotonic_and_cover_the_text(env: dict) -> None:
    n, caps = env["n"], env["caps"]
    env["synth"].per_char = 0.1  # each sentence lasts ≥ 60 ms of wall time: every one gets highlighted
    assert n.speak(INTRO).done.wait(10)
    mine = [c for c in caps if c.segment_id == INTRO.id]
    assert [c.current for c in mine] == sorted(c.current for c in mine)
    positions = [c.position for c in mine]
    assert positions == sorted(positions)
    assert {c.current for c in mine} == {0, 1, 2}  # every sentence was highlighted in turn
    assert re.sub(r"\s", "", "".join(mine[-1].sentences)) == re.sub(r"\s", "", INTRO.text)
    assert all(c.audible for c in mine)


def test_queue_plays_in_order(env: dict) -> None:
    n, synth = env["n"], env["synth"]
    a = n.say("첫 번째 안내입니다.", segment_id="a")
    b = n.say("두 번째 안내입니다.", segment_id="b")
    assert b.done.wait(10)
    assert a.state == b.state == "finished"
    assert synth.texts == ["첫 번째 안내입니다.", "두 번째 안내입니다."]
    assert a.first_sample is not None and b.first_sample is not None and a.first_sample < b.first_sample


def test_pause_holds_output_and_resume_continues(env: dict) -> None:
    n, dev, caps = env["n"], env["dev"], env["caps"]
    env["synth"].per_char = 0.15  # ~10 s of audio (0.5 s at the fake device's 20x): still playing when we act
    utt = n.speak(INTRO)
    assert wait_for(lambda: utt.state == "playing" and len(dev.writes) > 5)
    n.pause()
    assert utt.state == "paused" and n.paused
    assert wait_for(lambda: caps[-1].state == "paused")
    count = len(dev.writes)
    assert not wait_for(lambda: len(dev.writes) > count + 1, timeout=0.2)  # nothing written while paused
    assert not utt.done.is_set()
    n.resume()
    assert utt.done.wait(10)
    assert utt.state == "finished"
    states = [c.state for c in caps]
    assert states.index("paused") < len(states) - 1 - states[::-1].index("playing")


def test_stop_silences_and_drops_the_queue(env: dict) -> None:
    n, dev, gate = env["n"], env["dev"], env["gate"]
    env["synth"].per_char = 0.15  # ~10 s of audio (0.5 s at the fake device's 20x): still playing when we act
    first = n.speak(INTRO)
    second = n.say("이 문장은 들리지 않아야 합니다.", segment_id="later")
    assert wait_for(lambda: len(dev.writes) > 3)
    n.stop()
    assert first.done.wait(2) and second.done.wait(2)
    assert first.state == "stopped" and second.state == "stopped"
    assert wait_for(lambda: bool(dev.flushes))  # the buffered tail is dropped, not played out
    count = len(dev.writes)
    assert not wait_for(lambda: len(dev.writes) > count + 1, timeout=0.2)
    assert wait_for(lambda: not gate.muted, timeout=2)
    assert "이 문장은 들리지 않아야 합니다." not in env["synth"].texts


def test_a_stop_is_told_for_the_utterances_it_dropped_too(env: dict) -> None:
    """An utterance stopped while still queued (a guest's 그만 right after 다시, before it started: the
    Watson & Holmes opening then waited for a speech that never came, under load in the clean-clone CI) is told
    to the caption listeners as stopped, like the one that was playing."""
    n, dev = env["n"], env["dev"]
    env["synth"].per_char = 0.15
    heard: list[CaptionState] = []
    n.listen(heard.append)
    first = n.speak(INTRO)
    second = n.say("이 문장은 들리지 않아야 합니다.", segment_id="later")
    assert wait_for(lambda: len(dev.writes) > 3)
    n.stop()
    assert first.done.wait(2) and second.done.wait(2)
    assert wait_for(lambda: {c.utterance for c in heard if c.state == "stopped"} >= {first.id, second.id})


def test_skip_ends_current_and_goes_on(env: dict) -> None:
    n, dev = env["n"], env["dev"]
    env["synth"].per_char = 0.15  # ~10 s of audio (0.5 s at the fake device's 20x): still playing when we act
    first = n.speak(INTRO)
    second = n.say("다음 안내입니다.", segment_id="next")
    assert wait_for(lambda: len(dev.writes) > 3)
    n.skip()
    assert second.done.wait(10)
    assert first.state == "skipped" and second.state == "finished"


def test_interrupt_replaces_what_is_playing(env: dict) -> None:
    n, dev = env["n"], env["dev"]
    env["synth"].per_char = 0.15  # ~10 s of audio (0.5 s at the fake device's 20x): still playing when we act
    first = n.speak(INTRO)
    assert wait_for(lambda: len(dev.writes) > 3)
    urgent = n.speak(Segment("timeup", "ko", "시간이 다 되었습니다."), interrupt=True)
    assert urgent.done.wait(10)
    assert first.state == "stopped" and urgent.state == "finished"


def test_recorded_file_beats_cache_and_tts(env: dict) -> None:
    n, synth, tmp = env["n"], env["synth"], env["tmp"]
    write_wav(overlay_path(tmp / "overlay", INTRO), tone(0.8, rate=16000))
    utt = n.speak(INTRO)
    assert utt.done.wait(10)
    assert utt.sources == ["recorded"] * 3
    assert synth.texts == []
    assert abs(len(env["dev"].samples) / 22050 - 0.8) < 0.02  # resampled 16 kHz → mixer rate


def test_overlay_recording_beats_the_contents_own_recording(env: dict) -> None:
    n, tmp, dev = env["n"], env["tmp"], env["dev"]
    shipped = tmp / "content" / "intro.wav"
    write_wav(shipped, tone(0.3))
    seg = Segment("wh.case02.intro", "ko", "짧은 소개입니다.", recording=str(shipped))
    assert n.speak(seg).done.wait(10)
    assert abs(len(dev.samples) / 22050 - 0.3) < 0.02
    write_wav(overlay_path(tmp / "overlay", seg), tone(0.6))
    utt = n.speak(seg)
    assert utt.done.wait(10) and utt.source == "recorded"
    assert abs(len(dev.samples) / 22050 - 0.9) < 0.03


def test_cache_beats_live_and_is_keyed_by_rate(env: dict) -> None:
    n, synth, tmp = env["n"], env["synth"], env["tmp"]
    renderer = SpySynth(per_char=0.01)
    report = render_all([INTRO], tmp / "cache", synth=renderer, settings=VoiceSettings())
    assert report.rendered == 3
    utt = n.speak(INTRO)
    assert utt.done.wait(10)
    assert utt.sources == ["cached"] * 3 and synth.texts == []
    n.set_rate(1.3)
    utt = n.speak(INTRO)
    assert utt.done.wait(10)
    assert utt.sources == ["live"] * 3 and synth.calls[0][2] == 260


def test_volume_scales_the_narration(env: dict) -> None:
    n, dev = env["n"], env["dev"]
    assert n.say("소리 크기 확인입니다.").done.wait(10)
    loud = peak(dev.samples)
    start = len(dev.samples)
    n.set_volume(0.5)
    assert n.say("소리 크기 확인입니다.").done.wait(10)
    assert abs(peak(dev.samples[start:]) - loud / 2) < 0.01


def test_sound_mixes_over_narration_without_cutting_it(env: dict) -> None:
    n, dev, synth = env["n"], env["dev"], env["synth"]
    synth.per_char = 0.3  # 5 s of narration: the chime (0.8 s) starts and ends inside it
    utt = n.say("효과음이 겹쳐도 끝까지 읽습니다.")
    assert wait_for(lambda: len(dev.writes) > 2)
    chime = n.play_sound("your_turn")
    assert chime is not None
    assert chime.finished.wait(10)
    assert not utt.done.is_set()  # the narration went on under the chime
    assert utt.done.wait(10) and chime.finished.wait(10)
    assert utt.state == "finished" and chime.end_reason == "end"
    voice_seconds = synth.per_char * len("효과음이 겹쳐도 끝까지 읽습니다.")
    assert abs(utt.playback.frames / 22050 - voice_seconds) < 0.01  # every narration frame was played
    assert peak(dev.samples) > 0.55  # narration (0.24) + chime (0.48) summed, not one replacing the other


def test_unknown_sound_is_ignored(env: dict) -> None:
    assert env["n"].play_sound("no-such-sound") is None


def test_microphone_is_muted_while_narration_plays(env: dict) -> None:
    n, gate = env["n"], env["gate"]
    flips: list[bool] = []
    gate.listen(flips.append)
    utt = n.speak(INTRO)
    assert wait_for(lambda: gate.muted)
    assert utt.done.wait(10)
    assert wait_for(lambda: not gate.muted, timeout=2)
    assert flips == [True, False]


def test_microphone_is_unmuted_while_paused(env: dict) -> None:
    n, gate = env["n"], env["gate"]
    env["synth"].per_char = 0.15  # ~10 s of audio (0.5 s at the fake device's 20x): still playing when we act
    utt = n.speak(INTRO)
    assert wait_for(lambda: gate.muted)
    n.pause()
    assert wait_for(lambda: not gate.muted, timeout=2)
    n.resume()
    assert wait_for(lambda: gate.muted)
    assert utt.done.wait(10)


def test_pause_drops_the_buffered_tail_and_resume_replays_it_exactly() -> None:
    """Pause is silent at once (the device buffer is flushed) and nothing is lost or repeated."""
    from array import array

    from audio.pcm import Clip

    mixer, dev, _gate, _board = rig(speed=10)
    clip = Clip(array("h", (i % 20000 for i in range(22050 * 2))), 22050)  # a ramp: order is checkable
    try:
        p = mixer.play_clip(clip)
        assert wait_for(lambda: len(dev.writes) > 5)
        p.pause()
        assert wait_for(lambda: bool(dev.flushes) and p.pause_done)
        assert 0 < p.frames < clip.frames
        p.resume()
        assert p.finished.wait(10) and p.end_reason == "end"
        heard = dev.samples
        assert heard[: clip.frames] == clip.samples  # the last chunk is padded with silence
        assert not any(heard[clip.frames :])
        assert p.frames == clip.frames
    finally:
        mixer.close()


def test_stop_sounds_ends_the_effects_and_leaves_the_narration(env: dict) -> None:
    """A table turnover stops the last table's fanfare (the microphone opens again); the narration goes on."""
    n, gate, synth = env["n"], env["gate"], env["synth"]
    synth.per_char = 0.3
    utt = n.say("효과음만 멈추고 안내는 계속합니다.")
    chime = n.play_sound("winner")
    assert chime is not None and wait_for(lambda: gate.muted)
    n.stop_sounds()
    assert chime.finished.wait(2) and chime.end_reason == "stopped"
    assert not utt.done.is_set()
    n.stop()
    assert utt.done.wait(5) and wait_for(lambda: not gate.muted, timeout=2)
