"""The toast's place search (kiosk.widgets.toast.free_spot) finds the same spot as checking every candidate
against every box, the way it was written first."""

from __future__ import annotations

import random

from kivy.metrics import dp


def _reference(boxes: list[tuple[float, float, float, float]], width: float, height: float, screen_w: float,
               screen_h: float) -> tuple[float, float] | None:
    step = dp(16)
    centre = (screen_w - width) / 2
    xs = [centre] + [x for k in range(1, int(centre // step) + 1) for x in (centre - k * step, centre + k * step)]
    y = screen_h - height - dp(8)
    while y >= dp(8):
        for x in xs:
            if not any(bx0 < x + width and bx1 > x and by0 < y + height and by1 > y for bx0, by0, bx1, by1 in boxes):
                return x, y
        y -= step
    return None


def test_free_spot_agrees_with_the_exhaustive_search() -> None:
    from kiosk.widgets.toast import free_spot

    rng = random.Random(21)
    found = 0
    for _ in range(3000):
        boxes = []
        for _ in range(rng.randrange(0, 60)):
            x, y = rng.uniform(-50, 1280), rng.uniform(-50, 800)
            boxes.append((x, y, x + rng.choice([0, 16, rng.uniform(1, 700)]), y + rng.uniform(1, 200)))
        if rng.random() < 0.3:  # boxes on the candidates' grid: edges that touch exactly
            boxes = [(round(a / 16) * 16, b, round(c / 16) * 16, d) for a, b, c, d in boxes]
        width, height = rng.choice([800.0, 640.0, 480.0, 400.0, 1300.0, 1260.0]), rng.uniform(60, 200)
        spot = free_spot(boxes, width, height, 1280, 800)
        assert spot == _reference(boxes, width, height, 1280, 800)
        found += spot is not None
    assert 300 < found < 2900  # both outcomes were exercised
