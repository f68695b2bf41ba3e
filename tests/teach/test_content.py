"""The shipped teaching content: valid, complete per game, bilingual; the loader names file and line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiosk.teach import validate_teaching
from kiosk.teach.loader import load_teaching, teaching_game_ids
from kiosk.teach.pages import narration_text, pages, segments

GAMES = ["clue", "mr_jack_ny", "spyfall", "watson_holmes"]
CHECKLIST = Path("/work/shared/rules/CHECKLIST.md")


def test_every_game_has_valid_teaching() -> None:
    assert teaching_game_ids() == GAMES
    assert validate_teaching() == []


@pytest.mark.parametrize("game", GAMES)
def test_steps_cover_goal_components_setup_round_special_end_try_quiz(game: str) -> None:
    gt, errors = load_teaching(game)
    assert errors == [] and gt is not None
    t = gt.teaching
    assert {s.section for s in t.steps} >= {"goal", "components", "setup", "round", "end", "try", "quiz"}
    assert [s.kind for s in t.steps].count("setup") == 1 and [s.kind for s in t.steps].count("try") >= 1
    assert 3 <= len(t.quiz) <= 5
    for s in t.steps:
        assert s.title.ko and s.title.en and s.say.ko and s.say.en, s.id
        assert any("\uac00" <= ch <= "\ud7a3" for ch in s.say.ko)
        assert len(s.say.ko) <= 160, f"{s.id}: one idea per step, short narration"
        if s.kind != "quiz":
            assert s.picture, f"{s.id} has no illustration"
    for q in t.quiz:
        assert q.why.ko and q.why.en and all(o.ko and o.en for o in q.options)


@pytest.mark.parametrize("game", GAMES)
def test_every_page_has_narration_segments_in_both_languages(game: str) -> None:
    gt, _ = load_teaching(game)
    assert gt is not None
    ids = set()
    for page in pages(gt.teaching):
        for lang in ("ko", "en"):
            segs = segments(game, gt.teaching, page, lang)
            assert len(segs) == 1 and segs[0].lang == lang and segs[0].text == narration_text(gt.teaching, page, lang)
            ids.add(segs[0].id)
    assert len(ids) == len(pages(gt.teaching))  # one stable id per page (recordings are named by it)


@pytest.mark.parametrize("game", GAMES)
def test_rule_pieces_are_small_bilingual_and_linked(game: str) -> None:
    gt, _ = load_teaching(game)
    assert gt is not None
    rules = gt.rules.rules
    assert len(rules) >= 14
    ids = {r.id for r in rules}
    for r in rules:
        assert r.title.ko and r.title.en and r.text.ko and r.text.en and r.keywords
        assert len(r.text.ko) <= 220, f"{r.id} is not a small piece"
        assert set(r.related) <= ids and r.id not in r.related
    for s in gt.teaching.steps:
        assert set(s.rules) <= ids


@pytest.mark.skipif(not CHECKLIST.is_file(), reason="the shared CHECKLIST is not on this machine")
def test_rule_pieces_restate_every_checklist_rule() -> None:
    """Every atomic rule of the four rulebooks is restated by some rule piece (covers: [...])."""
    prefix = {"watson_holmes": "WH", "spyfall": "SPY", "clue": "CLUE", "mr_jack_ny": "JACK"}
    listed = set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", CHECKLIST.read_text(encoding="utf-8"), re.M))
    covered: set[str] = set()
    for game in GAMES:
        gt, _ = load_teaching(game)
        assert gt is not None
        for r in gt.rules.rules:
            assert all(c.startswith(prefix[game] + "-") for c in r.covers), r.id
            covered.update(r.covers)
    assert covered <= listed
    missing = sorted(listed - covered)
    assert missing == []


def test_a_cafe_adds_teaching_for_another_game_with_files_alone(tmp_path: Path) -> None:
    folder = tmp_path / "games" / "yut"
    (folder / "teach").mkdir(parents=True)
    (folder / "teach.yaml").write_text(
        "players: [2, 4]\n"
        "steps:\n"
        "  - id: goal\n    section: goal\n    title: {ko: 목표, en: Goal}\n"
        "    say: {ko: 말 네 개를 먼저 내보내면 이겨요., en: Get four pieces home first.}\n"
        "    picture: [{kind: token, x: 0.5, y: 0.5}]\n"
        "    rules: [goal]\n"
        "setup:\n  - id: board\n    text: {ko: 윷판을 펴요., en: Open the board.}\n"
        "  - id: teams\n    text: {ko: '{players}명이 편을 나눠요.', en: '{players} players split into teams.'}\n"
        "    when: {players: [4, 4]}\n",
        encoding="utf-8")
    (folder / "teach" / "rules.yaml").write_text(
        "rules:\n  - id: goal\n    title: {ko: 목표, en: Goal}\n    text: {ko: 네 말이 먼저 나면 이겨요., en: Four home wins.}\n"
        "    keywords: [목표]\n", encoding="utf-8")
    assert "yut" in teaching_game_ids(overlay=tmp_path)
    gt, errors = load_teaching("yut", overlay=tmp_path)
    assert errors == [] and gt is not None
    from kiosk.teach.setup import checklist
    assert [c.text for c in checklist(gt.teaching, 4)] == ["윷판을 펴요.", "4명이 편을 나눠요."]
    assert [c.id for c in checklist(gt.teaching, 2)] == ["board"]
    assert validate_teaching(overlay=tmp_path) == []


def test_a_teaching_is_read_once_until_its_files_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#43: the teaching screen read and checked a game's teaching on every visit, in the tap's frame; now once, and
    again when a file changes (a staff edit in the café's folder), also one rewritten within the clock's tick."""
    from kiosk.teach import loader

    reads: list[str] = []
    real = loader.load_typed
    monkeypatch.setattr(loader, "load_typed", lambda *a: reads.append(Path(a[0]).name) or real(*a))
    folder = tmp_path / "games" / "yut"
    folder.mkdir(parents=True)
    body = ("players: [2, 4]\nsteps:\n  - id: goal\n    section: goal\n    title: {ko: 목표, en: Goal}\n"
            "    say: {ko: %s, en: Home first.}\n    picture: [{kind: token, x: 0.5, y: 0.5}]\n")
    (folder / "teach.yaml").write_text(body % "먼저 나요.", encoding="utf-8")
    first, errors = load_teaching("yut", overlay=tmp_path)
    assert errors == [] and first is not None and reads == ["teach.yaml"]
    again, _ = load_teaching("yut", overlay=tmp_path)
    assert again is first and reads == ["teach.yaml"]
    (folder / "teach.yaml").write_text(body % "말 넷이 먼저 나면 이겨요.", encoding="utf-8")  # at once: same tick
    changed, _ = load_teaching("yut", overlay=tmp_path)
    assert changed is not None and changed.teaching.steps[0].say.ko == "말 넷이 먼저 나면 이겨요."
    assert reads == ["teach.yaml", "teach.yaml"]
    (folder / "teach.yaml").write_text("players: [2\n", encoding="utf-8")  # broken: the errors, every time
    for _ in range(2):
        gt, errors = load_teaching("yut", overlay=tmp_path)
        assert gt is None and errors and errors[0].file.endswith("teach.yaml")


def test_broken_teaching_names_the_file_and_line(tmp_path: Path) -> None:
    folder = tmp_path / "games" / "spyfall"
    folder.mkdir(parents=True)
    (folder / "teach.yaml").write_text(
        "players: [3, 8]\nsteps:\n  - id: goal\n    section: goal\n    title: {ko: 목표}\n    say: {ko: 안녕}\n"
        "    picture:\n      - {kind: hexagon}\n", encoding="utf-8")
    errors = validate_teaching(overlay=tmp_path, game_ids=["spyfall"])
    assert len(errors) == 1
    assert errors[0].file.endswith("games/spyfall/teach.yaml") and errors[0].line == 8
    assert "hexagon" in errors[0].problem
    # an unknown rule link and a try-it that does not fit its engine are caught by the cross-check
    (folder / "teach.yaml").write_text(
        "players: [3, 8]\nsteps:\n  - id: t\n    section: try\n    kind: try\n    title: {ko: 연습}\n"
        "    say: {ko: 연습}\n    rules: [nowhere]\n    try_it:\n      engine: spyfall\n      config: {players: [a, b, c]}\n"
        "      moves:\n        - prompt: {ko: 해 봐요}\n          choices:\n            - label: {ko: 날기}\n"
        "              actions: [{name: fly, seat: 0}]\n              explain: {ko: 없어요}\n", encoding="utf-8")
    problems = " ".join(e.problem for e in validate_teaching(overlay=tmp_path, game_ids=["spyfall"]))
    assert "nowhere" in problems and "fly" in problems


def test_the_tutorial_branches_on_player_count_and_modules() -> None:
    """Module pages only when the module is played (and allowed at this count); big/small-table pages."""
    from tests.teach.helpers import teaching

    spy = teaching("spyfall").teaching
    ids = lambda t, n, mods=(): [p.id for p in pages(t, n, mods)]  # noqa: E731
    assert not any(i.startswith("module_") for i in ids(spy, 4))
    assert "module_harley" not in ids(spy, 4, ["harley"])  # Harley Quinn only from 5 players
    got = ids(spy, 6, ["harley", "prank"])
    assert "module_harley" in got and "module_prank" in got and "module_multiverse" not in got
    assert len(pages(spy)) == len(ids(spy, 6, ["harley", "prank", "power_up", "multiverse"]))
    wh = teaching("watson_holmes").teaching
    assert "big_table" in ids(wh, 6) and "big_table" not in ids(wh, 5)
    assert "expert" in ids(wh, 4, ["expert"]) and "expert" not in ids(wh, 4)
    clue = teaching("clue").teaching
    assert "small_table" in ids(clue, 4) and "small_table" not in ids(clue, 6)
