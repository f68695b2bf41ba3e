"""Resume where the table left off and the measured teach time, persisted in the data folder."""

from __future__ import annotations

from pathlib import Path

from kiosk.teach.progress import ProgressStore, measured_minutes, teach_minutes


def test_position_and_ticks_survive_a_restart(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path)
    p = store.get("clue")
    p.page, p.players, p.ticks = 5, 4, ["deal", "envelope"]
    store.save()
    again = ProgressStore(tmp_path).get("clue")
    assert (again.page, again.players, again.ticks) == (5, 4, ["deal", "envelope"])


def test_finishing_records_the_time_and_starts_over(tmp_path: Path) -> None:
    store = ProgressStore(tmp_path)
    p = store.get("spyfall")
    p.page, p.spent, p.started = 9, 300.0, 1000.0
    assert store.finish("spyfall", 1000.0 + 150.0) == 450.0
    assert store.get("spyfall").page == 0
    store2 = ProgressStore(tmp_path)
    store2.get("spyfall").started = 50.0
    store2.finish("spyfall", 50.0 + 600.0)
    assert ProgressStore(tmp_path).times["spyfall"] == [450.0, 600.0]
    assert measured_minutes(tmp_path, "spyfall") == 9  # median 525 s → 9 minutes (rounded up)
    assert measured_minutes(tmp_path, "clue") is None


def test_a_broken_file_starts_fresh(tmp_path: Path) -> None:
    (tmp_path / "teach").mkdir()
    (tmp_path / "teach" / "progress.json").write_text("{not json", encoding="utf-8")
    store = ProgressStore(tmp_path)
    assert store.games == {} and store.times == {}
    store.get("clue").page = 2
    store.save()
    assert ProgressStore(tmp_path).get("clue").page == 2


def test_library_teach_minutes_prefer_the_measured_time(tmp_path: Path) -> None:
    assert teach_minutes(tmp_path, "clue") == (7, False)  # the content's estimate before any table
    store = ProgressStore(tmp_path)
    store.get("clue").started = 0.0
    store.get("clue").spent = 185.0
    store.finish("clue", 0.0)
    assert teach_minutes(tmp_path, "clue") == (4, True)
    assert teach_minutes(tmp_path, "no_such_game") is None


def test_a_skipped_teaching_is_counted_apart_never_in_the_estimate(tmp_path: Path) -> None:
    """Issue 37: skipping after two pages (a minute) made every later guest read "설명 실측 약 1분", while staff
    statistics said 0 teachings. Only finished teachings make the median; every run is a row for staff."""
    from table import ops

    store = ProgressStore(tmp_path)
    store.get("spyfall").started = 1000.0
    assert store.finish("spyfall", 1000.0 + 60.0, finished=False) is None
    assert measured_minutes(tmp_path, "spyfall") is None
    assert teach_minutes(tmp_path, "spyfall") == (teach_minutes(tmp_path / "none", "spyfall") or (0, False))
    for spent in (400.0, 500.0, 900.0):
        store.get("spyfall").started = 2000.0
        store.finish("spyfall", 2000.0 + spent)
    assert measured_minutes(tmp_path, "spyfall") == 9  # the median of 400, 500, 900 s: 500 s, rounded up
    rows = ops.teach_records(tmp_path)
    assert [(r.minutes, r.finished) for r in rows] == [(1.0, False), (6.67, True), (8.33, True), (15.0, True)]
