"""Crash-proof synthesis: pyttsx3 in a worker process (audio.synth_process / audio.synth_worker).

Covers: real Korean synthesis through the worker; a worker that segfaults or aborts costs one request
(SynthError) while this process lives on and the next request gets a fresh worker; a hung worker is
killed after the timeout; a worker killed while idle is replaced without losing the request; repeated
failures give SynthUnavailable (Korean + English) and FallbackSynth / the narrator move on to the
espeak-ng command line, with the reason on the status board; a missing engine is unavailable at once;
close() and a dying parent leave no worker process behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from audio.captions import estimate_duration
from audio.narrator import Narrator
from audio.segments import Segment
from audio.synth_process import ProcessSynth
from audio.synth_types import SynthError, SynthUnavailable
from audio.tts import EspeakSynth, FallbackSynth, default_synth
from tests.audio.narration_fakes import SpySynth, rig, wait_for

SENTENCE = "안녕하세요. 오늘 사건을 함께 풀어 봅시다."
FAULTS = {"TABLEHOST_SYNTH_FAULTS": "💥=segv,☠=abort,⏳=hang"}
ROOT = Path(__file__).resolve().parents[2]


def gone(pid: int) -> bool:
    """POSIX: the process no longer runs (reaped, or a zombie whose parent is not us)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z"


@pytest.fixture(scope="module")
def engine_works() -> None:
    """Skip (with the reason) where the worker cannot start pyttsx3, e.g. libespeak-ng is not installed."""
    synth = ProcessSynth()
    try:
        synth.voices()
    except SynthUnavailable as exc:
        pytest.skip(f"pyttsx3 cannot start in a worker here: {exc}")
    finally:
        synth.close()


@pytest.fixture
def synth(engine_works: None) -> Iterator[ProcessSynth]:
    s = ProcessSynth(env=FAULTS, timeout=1.0)
    yield s
    s.close()


def test_worker_process_speaks_a_korean_sentence(synth: ProcessSynth) -> None:
    clip = synth.synthesize(SENTENCE, "ko", 200)
    assert clip.rate > 8000 and 0.5 < clip.duration / estimate_duration(SENTENCE) < 2.0
    assert max(clip.samples) > 1000  # speech, not silence
    pid = synth.pid
    assert pid is not None and pid != os.getpid()
    assert synth.synthesize("둘.", "ko", 200).duration < clip.duration
    assert synth.pid == pid and synth.starts == 1  # one long-lived worker
    assert any(v.id == "ko" for v in synth.voices()) or sys.platform != "linux"


@pytest.mark.parametrize("marker, signame", [
    pytest.param("💥", "SIGSEGV", marks=pytest.mark.skipif(os.name == "nt", reason="POSIX signals")),
    pytest.param("☠", "SIGABRT" if os.name != "nt" else "", id="abort"),
])
def test_a_crashing_worker_costs_one_request_and_restarts(synth: ProcessSynth, marker: str, signame: str) -> None:
    synth.synthesize("준비.", "ko", 200)
    first, worker = synth.pid, synth._worker
    assert first is not None and worker is not None
    with pytest.raises(SynthError, match=signame):
        synth.synthesize(f"{marker} 이 문장에서 엔진이 죽습니다.", "ko", 200)
    assert worker.proc.returncode is not None and synth.pid is None  # dead and reaped; we are still here
    assert synth.synthesize(SENTENCE, "ko", 200).duration > 1.0  # a fresh worker, transparently
    assert synth.pid not in (None, first) and synth.starts == 2 and len(synth.crashes) == 1


def test_a_hung_worker_is_killed_after_the_timeout(synth: ProcessSynth) -> None:
    synth.synthesize("준비.", "ko", 200)
    hung = synth._worker
    assert hung is not None
    t0 = time.monotonic()
    with pytest.raises(SynthError, match="hung"):
        synth.synthesize("⏳ 멈춥니다.", "ko", 200)
    assert time.monotonic() - t0 < 5
    assert hung.proc.returncode is not None  # killed and reaped
    assert synth.synthesize("다시 말합니다.", "ko", 200).frames > 0 and synth.starts == 2


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_a_worker_killed_while_idle_is_replaced_without_losing_the_request(synth: ProcessSynth) -> None:
    synth.synthesize("준비.", "ko", 200)
    pid = synth.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    assert wait_for(lambda: synth._worker is not None and not synth._worker.alive)
    assert synth.synthesize(SENTENCE, "ko", 200).frames > 0  # no SynthError for this one
    assert synth.starts == 2 and len(synth.crashes) == 1


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng command line not installed")
def test_repeated_crashes_give_up_and_the_espeak_command_line_speaks(engine_works: None) -> None:
    worker = ProcessSynth(env=FAULTS, timeout=1.0, max_crashes=3)
    chain = FallbackSynth([worker, EspeakSynth()])
    try:
        for marker in ("☠", "⏳"):
            with pytest.raises(SynthError):
                chain.synthesize(f"{marker} 실패.", "ko", 200)
            assert chain.name == "pyttsx3-process" and chain.degraded == ""
        clip = chain.synthesize("☠ 세 번째에는 명령줄이 읽습니다.", "ko", 200)  # 3rd crash: this sentence still spoken
        assert clip.duration > 1.0 and chain.name == "espeak-ng"
        assert "3번 멈췄습니다" in chain.degraded and "failed 3 times in 60 s" in chain.degraded
        with pytest.raises(SynthUnavailable):
            worker.synthesize("준비.", "ko", 200)  # it stays given up: no more restarts
        assert worker.starts == 3 and worker.pid is None
    finally:
        chain.close()


def test_the_narrator_survives_crashes_and_the_board_says_why(engine_works: None) -> None:
    """Kiosk level: a crash makes that utterance captions-only; after the limit the fallback speaks and the
    staff screen's "tts" entry carries the reason."""
    mixer, _dev, _gate, board = rig()
    spy = SpySynth()
    synth = FallbackSynth([ProcessSynth(env=FAULTS, timeout=1.0, max_crashes=2), spy])
    n = Narrator(mixer=mixer, synth=synth, board=board, tick=0.01, caption_speed=20)
    try:
        first = n.speak(Segment("t.crash1", "ko", "💥 첫 문장입니다."))
        assert first.done.wait(10) and first.state == "finished" and first.sources == ["captions"]
        second = n.speak(Segment("t.crash2", "ko", "💥 두 번째 문장입니다."))
        assert second.done.wait(10) and second.sources == ["live"]
        assert spy.texts == ["💥 두 번째 문장입니다."]
        tts = board.get("tts")
        assert tts is not None and tts.available and "2번 멈췄습니다" in tts.reason
    finally:
        n.close()
        mixer.close()
        synth.close()


def test_a_missing_engine_is_unavailable_at_once() -> None:
    synth = ProcessSynth(driver="no_such_driver")
    try:
        with pytest.raises(SynthUnavailable, match="TTS unavailable.*no_such_driver"):
            synth.synthesize("안녕.", "ko", 200)
        assert synth.starts == 1 and synth.pid is None and not synth.crashes
    finally:
        synth.close()


def test_close_ends_the_worker_even_mid_request(synth: ProcessSynth) -> None:
    synth.synthesize("준비.", "ko", 200)
    worker = synth._worker
    assert worker is not None
    synth.close()
    assert worker.proc.returncode is not None  # ended and reaped (no zombie)
    assert not synth._tmp.exists()

    busy = ProcessSynth(env=FAULTS, timeout=30)
    busy.synthesize("준비.", "ko", 200)
    w = busy._worker
    assert w is not None
    errors: list[BaseException] = []

    def hang() -> None:
        try:
            busy.synthesize("⏳", "ko", 200)
        except BaseException as exc:
            errors.append(exc)

    t = threading.Thread(target=hang)
    t.start()
    assert wait_for(busy._lock.locked)  # the request is in flight
    time.sleep(0.05)
    busy.close()
    t.join(5)
    assert not t.is_alive() and isinstance(errors[0], SynthError) and w.proc.returncode is not None


@pytest.mark.skipif(os.name == "nt", reason="SIGKILL")
def test_the_worker_exits_when_the_kiosk_process_dies(engine_works: None, tmp_path: Path) -> None:
    """Even in the middle of a hung request: the worker's stdin closes and it leaves."""
    script = textwrap.dedent("""
        import os, signal, threading, time
        from audio.synth_process import ProcessSynth
        s = ProcessSynth(env={"TABLEHOST_SYNTH_FAULTS": "⏳=hang"}, timeout=60)
        s.synthesize("준비.", "ko", 200)
        print(s.pid, flush=True)
        threading.Thread(target=s.synthesize, args=("⏳", "ko", 200), daemon=True).start()
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=20,
                         env={**os.environ, "TMPDIR": str(tmp_path)})  # its temp folder is never removed
    assert out.returncode == -signal.SIGKILL, out.stderr
    pid = int(out.stdout.split()[0])
    assert wait_for(lambda: gone(pid), timeout=5)


def test_default_synth_isolates_pyttsx3_and_starts_it_in_the_background(engine_works: None,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEHOST_TTS", raising=False)
    synth = default_synth()
    try:
        assert isinstance(synth, FallbackSynth) and synth.name == "pyttsx3-process"
        worker = synth._synths[0]
        assert isinstance(worker, ProcessSynth)
        assert wait_for(lambda: worker.pid is not None)  # started without any request
        synth.synthesize("준비.", "ko", 200)
        assert worker.starts == 1
    finally:
        synth.close()
