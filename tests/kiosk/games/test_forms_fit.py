"""Each game's set-up form fits the room under the host bar at the tablet's own size, 1280x800: nothing to scroll,
its start button in full view, in every state that adds a line (a greyed option's reason, a tablet seat's note) and
in both languages. At 1024x600 it may scroll (kiosk.widgets.fit_scroll) but nothing is covered or cut (the sweep)
and the start button scrolls into view."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.ui

# game: (its start button, the taps that put the form in each state looked at; the first: as it opens)
FORMS: dict[str, tuple[str, list[tuple[str, ...]]]] = {
    "watson_holmes": ("wh_start", [(), ("wh_count_7",)]),
    "spyfall": ("spy_start", [(), ("spy_count_3",), ("spy_count_8",)]),
    "mr_jack_ny": ("mj_start", [(), ("mj_tablet_jack",), ("mj_tablet_detective", "mj_level_hard")]),
    "clue": ("clue_start", [(), ("clue_count_6",), ("clue_count_6", "clue_tablets_2"), ("clue_mode_physical",)]),
}


@pytest.fixture
def sized(driver: Any) -> Iterator[Any]:
    """A setter of the window's size, the app's (kiosk.env) set back after the test, in Korean."""
    from kivy.core.window import Window

    from kiosk.env import HEIGHT, WIDTH

    def size(wh: tuple[int, int]) -> None:
        Window.size = wh
        driver.pump(6)

    try:
        yield size
    finally:
        driver.app.set_lang("ko")
        size((WIDTH, HEIGHT))


def _open(driver: Any, game: str) -> tuple[Any, Any]:
    """The game's screen with its set-up form on show: (the form, its scroll)."""
    driver.app.host(game)
    driver.wait_screen("host")
    driver.pump(4)
    form = driver.app.get_screen("host").ctx.host.setup_form
    return form, form.parent


def _wrapped(form: Any) -> list[str]:
    """The form's option buttons whose words are on more than one line: a word broken in the middle (Clue's 어려움,
    None and Normal were), a two-word name split between its words (Spyfall's 'Harley Quinn helper' and 'Multiverse
    madness' at 1024x600), both read as broken. A case's line in Watson & Holmes's list is a sentence: it may wrap."""
    from kiosk.widgets.theme import TButton

    bad = []
    for b in form.walk():
        if isinstance(b, TButton) and b.opacity > 0 and not b.test_id.startswith("wh_case_"):
            b.texture_update()
            if b.texture_size[1] > 1.5 * b.font_size:
                bad.append(b.text)
    return bad


def _window_box(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


@pytest.mark.parametrize("game", list(FORMS))
def test_the_form_fits_at_1280x800(driver: Any, sized: Any, game: str) -> None:
    """Mr. Jack's form needed 683 px, Spyfall's 705 and Clue's 682 of the 672 under the host bar: a scroll bar, and
    the start button half under the window's edge until the guest scrolled."""
    sized((1280, 800))
    start, states = FORMS[game]
    for lang in ("ko", "en"):
        driver.app.set_lang(lang)
        for n, taps in enumerate(states):
            form, scroll = _open(driver, game)  # (a new screen: the kept form reset to its defaults)
            for tid in taps:
                driver.tap(tid)
            driver.pump(3)
            where = (lang, taps, f"needs {form.minimum_height:.0f} of {scroll.height:.0f}")
            assert form.minimum_height <= scroll.height and not scroll.do_scroll_y, where
            sx0, sy0, sx1, sy1 = _window_box(scroll)
            bx0, by0, bx1, by1 = _window_box(driver.find(start))
            assert sx0 <= bx0 and bx1 <= sx1 and sy0 <= by0 and by1 <= sy1, where  # in full view, unscrolled
            driver.screenshot(f"form_fit_{game}_1280x800_{lang}_{n}")
            assert not driver.small_targets(), where
            assert _wrapped(form) == [], where


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("game", list(FORMS))
def test_the_form_scrolls_whole_at_1024x600(driver: Any, sized: Any, game: str, lang: str) -> None:
    """On a smaller tablet the form keeps its rows' sizes and scrolls; its start button scrolls into view, nothing
    covered or cut on the way (the sweep on both screenshots), every option button's words on one line, in each
    state the form is looked at in."""
    sized((1024, 600))
    driver.app.set_lang(lang)
    start, states = FORMS[game]
    for taps in states:
        form, scroll = _open(driver, game)
        for tid in taps:
            driver.tap(tid)
        driver.pump(3)
        assert _wrapped(form) == [], taps
    driver.screenshot(f"form_fit_{game}_1024x600_{lang}_top")
    button = driver.find(start)
    driver.scroll_into_view(button)
    driver.pump(3)
    sx0, sy0, sx1, sy1 = _window_box(scroll)
    bx0, by0, bx1, by1 = _window_box(button)
    assert sx0 <= bx0 and bx1 <= sx1 and sy0 - 1 <= by0 and by1 <= sy1 + 1, (by0, by1, sy0, sy1)
    driver.screenshot(f"form_fit_{game}_1024x600_{lang}_bottom")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_case_played_tonight_fits_its_button(driver: Any, sized: Any, lang: str) -> None:
    """Watson & Holmes marks a case this table played tonight on its button, its name over the mark: the mark was a
    third line under the case's line (two lines in English, and at 1024x600 in Korean), spilling out of its 64 dp
    button."""
    from engines import find_engine
    from tests.kiosk.conftest import start_table

    app = driver.app
    app.set_lang(lang)
    pack = app.library.games["watson_holmes"]
    start_table(app, "watson_holmes", find_engine(pack.engine_name).example_configs(pack.pack)[0], 1)
    app.table.close()  # played here tonight (Table.played)
    for size in ((1280, 800), (1024, 600)):
        sized(size)
        form, _scroll = _open(driver, "watson_holmes")
        mark = app.get_screen("host").ctx.host.tr("setup.played")
        played = [b for b in form.case_buttons.values() if mark in b.text]
        assert len(played) == 1, [b.text for b in form.case_buttons.values()]
        driver.screenshot(f"form_fit_watson_holmes_played_{size[0]}x{size[1]}_{lang}")
        assert driver.overflowing_labels() == [], size
