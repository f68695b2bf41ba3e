"""Watson & Holmes's location tiles show their words whole on both tablet sizes, in both languages, with the
detectives standing on them (the sweep's shortened_texts fails a tile whose fixed-height text box dropped lines:
at 1024x600 "1. Palmer House -" and "9. Finch the" lost their last lines)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.conftest import start_table

pytestmark = pytest.mark.ui

NAMES = ["Alexandra", "Maximilian", "Jonathan", "Elizabeth", "Christopher", "Katherine", "Sebastian"]


def _visit(driver: Any, location: str) -> bool:
    driver.tap(f"wh_loc_{location}")
    go = driver.find_all("wh_visit")
    if not go or go[0].disabled:
        return False
    driver.tap("wh_visit")
    return True


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_tile_shows_its_words_whole(driver: Any, size: tuple[int, int], lang: str) -> None:
    from kivy.core.window import Window

    from kiosk.env import HEIGHT, WIDTH
    from kiosk.widgets.theme import TOUCH_MIN

    app = driver.app
    Window.size = size
    try:
        app.set_lang(lang)
        bad: list[Any] = []
        for case in ("case_01", "case_02", "case_03"):
            start_table(app, "watson_holmes", {"players": NAMES, "case": case}, 7)
            app.host("watson_holmes")
            driver.wait_screen("host")
            driver.find("wh_loc_1")
            driver.pump(6)
            host = app.get_screen("host").ctx.host
            numbers = [str(loc.number) for loc in host.case().locations]
            placed = [n for n in numbers if _visit(driver, n)][:4]
            driver.pump(4)
            tiles = [driver.find(f"wh_loc_{n}") for n in numbers]
            path = driver.screenshot(f"wh_tiles_{case}_{size[0]}x{size[1]}_{lang}")
            where = (case, size, lang, placed)
            bad += [(where, p) for p in driver.problems if p.startswith(path.stem + ":")]
            bad += [(where, tile.text, tile.size) for tile in tiles if min(tile.size) < TOUCH_MIN - 0.5]
            app.table.close()
            app.get_screen("host").clear_body()
        assert bad == []
    finally:
        app.set_lang("ko")
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)
