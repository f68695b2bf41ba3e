"""W&H's, Clue's and Mr. Jack's set-up forms are made once and reset for the game's next screen (like Spyfall's,
test_spyfall_form.py): the same form comes back, nothing of the last table's names or choices is in it, and the
closed screen is not kept alive by it."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

pytestmark = pytest.mark.ui

# game: (a name field, the other choices' buttons the last table tapped, default names' seat count)
GAMES = {
    "watson_holmes": ("wh_name_0", ("wh_count_5", "wh_expert", "wh_play_on")),
    "clue": ("clue_name_0", ("clue_count_6", "clue_mode_physical")),
    "mr_jack_ny": ("mj_name_detective", ("mj_blitz_60",)),
}
START = {"watson_holmes": "wh_start", "clue": "clue_start", "mr_jack_ny": "mj_start"}


def _host(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host


def _choices(driver: Any) -> dict[str, bool]:
    """Which of the form's buttons are selected and which fields are in play: the form's state as shown."""
    form = _host(driver).setup_form
    return {w.test_id: (bool(getattr(w, "selected", False)), bool(w.disabled), w.text if w.test_id.startswith(
        ("wh_name", "clue_name", "mj_name")) else "") for w in form.walk() if getattr(w, "test_id", "")}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_next_screen_gets_the_form_back_reset(driver: Any, game: str) -> None:
    app = driver.app
    field, taps = GAMES[game]
    app.host(game)
    driver.wait_screen("host")
    form = _host(driver).setup_form
    fresh = _choices(driver)
    for tid in taps:
        driver.tap(tid)
    driver.fill(field, "지수")
    assert _choices(driver) != fresh and driver.find(field).text == "지수"
    old_host = weakref.ref(_host(driver))
    app.go("library")
    driver.wait_screen("library")
    app.host("spyfall")  # another game's screen closes this one
    driver.wait_screen("host")
    gc.collect()
    assert old_host() is None  # the kept form does not keep the closed screen alive
    app.host(game)
    driver.wait_screen("host")
    assert _host(driver).setup_form is form and form.host is _host(driver)
    assert _host(driver) in (form.parent, form.parent.parent)  # Mr. Jack's in a FitScroll (scrolls on a short window)
    assert _choices(driver) == fresh  # every choice back to its default, every field empty
    driver.screenshot(f"kept_form_{game}_reset")
    assert not driver.small_targets() and not driver.overflowing_labels()
    field_widget = driver.find(field)
    field_widget.do_undo()  # the last table's typing is not in the undo history either
    assert field_widget.text == ""
    driver.tap(START[game])
    assert app.table.playing
    names = [p["name"] for p in app.table.view(None)["common"]["players"]]
    assert "지수" not in names
    driver.screenshot(f"kept_form_{game}_started")


@pytest.mark.parametrize("game", [*GAMES, "spyfall"])
def test_a_kept_form_is_laid_out_once_at_its_size(driver: Any, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """#43: the game's screen and the set-up form's scroll were made at Kivy's default 100x100 and sized a moment
    later, so the kept form was laid out twice in the opening tap's frame, every wrapped text drawn at 100 px and then
    at its width (27-38 texts, 16-30 ms of that frame's UI-thread CPU here). Made at the size they are shown at, the
    kept form comes back laid out as it was: none of its texts is drawn again."""
    from kivy.uix.label import Label

    app = driver.app
    app.host(game)
    driver.wait_screen("host")
    form = _host(driver).setup_form
    app.go("library")
    driver.wait_screen("library")
    drawn: list[str] = []
    real = Label.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # named as Kivy's weak methods look it up
        if any(p is form for p in _parents(self)):
            drawn.append(self.text)
        real(self, *args)

    monkeypatch.setattr(Label, "texture_update", texture_update)
    app.host(game)  # not driver.wait_screen: its layout checks draw every label's text again themselves
    driver.wait_for(lambda: app.sm.current == "host" and not app.sm.transition.is_active)
    driver.pump(3)
    monkeypatch.undo()
    assert _host(driver).setup_form is form
    assert drawn == []
    driver.wait_screen("host")
    assert not driver.overflowing_labels()


def _parents(widget: Any) -> list[Any]:
    out = []
    while widget.parent is not None and widget.parent is not widget:
        widget = widget.parent
        out.append(widget)
    return out
