"""Watson & Holmes at the tablet by touch: the steps the W&H screen tests share (tests/kiosk/games/
test_watson_holmes*.py, the journey, one-use), and a fake narrator."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def captions_only(driver: Any) -> Any:
    """Without the app's narrator the opening times its captions itself (deterministic, no speech);
    the narrator path is tested with a fake below."""
    before = getattr(driver.app, "narrator", None)
    driver.app.narrator = None
    yield
    driver.app.narrator = before


def check(driver: Any, name: str) -> None:
    path = driver.screenshot(name)
    assert path.exists() and path.stat().st_size > 5000
    assert driver.small_targets() == []
    assert driver.overflowing_labels() == []


def closed(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def open_case(driver: Any, case_id: str = "case_01", names: tuple[str, ...] = ("지수", "민호", "서연"),
               shot: str | None = None, toggles: tuple[str, ...] = ()) -> Any:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap(f"wh_case_{case_id}")
    driver.tap(f"wh_count_{len(names)}")
    for tid in toggles:
        driver.tap(tid)
    for i, name in enumerate(names):
        driver.fill(f"wh_name_{i}", name)
    if shot:
        check(driver, shot)
    driver.tap("wh_start")
    session = driver.app.table
    assert session is not None and session.game.id == "watson_holmes"
    return session


def resumed(driver: Any) -> Any:
    """A game started by the form, and resumed by a new screen (as after a restart: its screen gone, left for the game's
    page, the same screen is shown again as it was): that screen's W&H host."""
    app = driver.app
    app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap("wh_start")
    app.go("detail")
    driver.wait_screen("detail")
    app.get_screen("host").clear_body()
    app.host("watson_holmes")
    return app.get_screen("host").ctx.host


def skip_opening(driver: Any) -> None:
    for _ in range(3):
        if driver.find("wh_open_begin").disabled:
            driver.tap("wh_open_skip")
    driver.tap("wh_open_begin")
    driver.find("wh_loc_1")


def visit(driver: Any, location: str, extra: tuple[str, ...] = ()) -> None:
    driver.tap(f"wh_loc_{location}")
    for tid in extra:
        driver.tap(tid)
    driver.tap("wh_visit")


def read_private(driver: Any, session: Any, seat: int, shot: str | None = None) -> list[str]:
    driver.tap(f"wh_read_{seat}")
    driver.tap("handover_i_am")
    texts = driver.texts()
    if shot:
        check(driver, shot)
    driver.tap("wh_read_done")
    closed(driver)
    return texts


class FakeNarrator:
    """Stands in for audio.narrator.Narrator: records calls; the test plays the caption states."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.spoken: list[tuple[str, bool]] = []
        self.calls: list[str] = []

    def listen(self, fn: Any) -> None:
        self.listeners.append(fn)

    def unlisten(self, fn: Any) -> None:
        self.listeners.remove(fn)

    def speak(self, segment: Any, interrupt: bool = False) -> Any:
        from types import SimpleNamespace

        self.spoken.append((segment.id, interrupt))
        return SimpleNamespace(id=1)  # the utterance the caption states below belong to

    def reveal(self, segment: Any, interrupt: bool = True) -> None:
        self.spoken.append((segment.id, interrupt))

    def pause(self) -> None:
        self.calls.append("pause")

    def resume(self) -> None:
        self.calls.append("resume")

    def stop(self) -> None:
        self.calls.append("stop")

    def caption(self, segment_id: str, sentences: tuple[str, ...], current: int, position: float,
                duration: float, state: str) -> None:
        from audio.captions import CaptionState

        for fn in self.listeners:
            fn(CaptionState(1, segment_id, "ko", sentences, current, position, duration, state, True))
