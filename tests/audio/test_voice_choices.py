"""The café's voice choices overlay (audio/voice_choices.py): validation with clear messages, what the kiosk
listens for once applied, and `tablehost content check --overlay` reporting a bad file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from audio import voice_choices as vc
from audio.intents import build_phrasebook, load_catalog

CATALOG = load_catalog()
ROOT = Path(__file__).resolve().parents[2]


def test_bad_entries_are_named_and_skipped() -> None:
    data = {"disabled": ["stop", "confirm.yes", "nope"], "prefer": {"repeat": ["다시 읽어줘", "다시 해봐"], "score": ["점수"]}}
    choices, errors = vc.parse(data, CATALOG, "choices.yaml")
    assert choices == vc.VoiceChoices(["stop"], {"score": ["점수"]})
    assert len(errors) == 3
    assert any("'confirm.yes' cannot be turned off" in e for e in errors)
    assert any("unknown voice intent 'nope'" in e for e in errors)
    assert any("repeat: not among its templates: ['다시 해봐']" in e for e in errors)
    assert vc.parse(["x"], CATALOG, "f")[1] == ["f: expected a mapping with `disabled`, `prefer` and/or `wake`"]


def test_applied_choices_change_what_is_listened_for(tmp_path: Path) -> None:
    vc.write(tmp_path, vc.VoiceChoices(["stop"], {"repeat": ["다시 말해줘"], "previous": ["이전 화면"]}))
    catalog = vc.kiosk_catalog(tmp_path)
    book = build_phrasebook([catalog.intents[n] for n in ("next", "previous", "repeat", "stop")])
    assert "계속" in book.phrases and "이전 화면" in book.phrases and "다시 말해줘" in book.phrases
    assert not {"그만", "일시 정지", "뒤로", "전 화면", "다시", "다시 읽어줘"} & set(book.phrases)
    assert vc.kiosk_catalog(None) == CATALOG


def test_the_cafe_picks_its_wake_phrase_among_the_measured_candidates(tmp_path: Path) -> None:
    pick = CATALOG.wake_candidates[1]
    choices, errors = vc.parse({"wake": pick}, CATALOG, "choices.yaml")
    assert (choices.wake, errors) == (pick, [])
    _, errors = vc.parse({"wake": "아무 말"}, CATALOG, "choices.yaml")
    assert errors and "'아무 말' is not a measured wake phrase" in errors[0]
    vc.write(tmp_path, vc.VoiceChoices(wake=pick))
    catalog = vc.kiosk_catalog(tmp_path)
    assert catalog.intents["wake"].templates == (pick,)
    assert set(build_phrasebook([catalog.intents["wake"]]).phrases) == {pick}
    assert CATALOG.intents["wake"].templates == ("게임 도우미",)  # the shipped catalog is untouched
    assert catalog.wake_measured == CATALOG.wake_measured  # the bench's figures stay with the candidates


def test_wake_candidates_carry_the_benchs_held_out_figures(tmp_path: Path) -> None:
    """content/voice/ko.yaml `wake.measured` (shown on the staff's wake phrase buttons): every candidate,
    woke <= takes; a figure for a phrase that is no candidate is refused."""
    import yaml

    from audio.intents import VoiceContentError

    assert set(CATALOG.wake_measured) == set(CATALOG.wake_candidates)
    assert all(0 <= f.woke <= f.takes and f.false_per_hour >= 0 for f in CATALOG.wake_measured.values())
    data = yaml.safe_load((ROOT / "content" / "voice" / "ko.yaml").read_text(encoding="utf-8"))
    data["wake"]["measured"]["아무 말"] = [1, 2, 0]
    bad = tmp_path / "ko.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    try:
        load_catalog(bad)
    except VoiceContentError as exc:
        assert "'아무 말'" in str(exc)
    else:
        raise AssertionError("a figure for a phrase that is no candidate was accepted")


def test_content_check_reports_a_bad_voice_choices_file(tmp_path: Path) -> None:
    (tmp_path / "voice").mkdir()
    (tmp_path / "voice" / "choices.yaml").write_text("disabled: [wake]\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "kiosk.cli", "content", "check", "--overlay", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 1
    assert "choices.yaml: disabled: 'wake' cannot be turned off" in out.stdout
