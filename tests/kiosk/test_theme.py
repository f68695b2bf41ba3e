"""Design tokens: the type scale's floor and WCAG AA contrast of every text colour on every surface it is drawn on."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="module")
def theme() -> Any:
    from kiosk.widgets import theme as module  # Kivy-dependent: imported inside the tests

    return module


def _scale(theme: Any) -> list[float]:
    from kivy.metrics import sp

    return [sp(float(s.removesuffix("sp"))) for s in (theme.SMALL, theme.BODY, theme.LEAD, theme.TITLE, theme.HEADLINE,
                                                       theme.DISPLAY, theme.HERO, theme.CLOCK)]


def _pairs(theme: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    surfaces = {"BG": theme.BG, "PANEL": theme.PANEL, "PANEL_HI": theme.PANEL_HI, "FIELD": theme.FIELD}
    texts = {"TEXT": theme.TEXT, "MUTED": theme.MUTED, "ACCENT": theme.ACCENT, "OK": theme.OK,
             "DANGER_TEXT": theme.DANGER_TEXT}
    # buttons: (label colour, surface) as theme.kv draws them
    buttons = {"primary": (theme.BG, theme.ACCENT), "danger": (theme.TEXT, theme.DANGER),
               "selected": (theme.TEXT, theme.ACCENT_DARK), "normal": (theme.TEXT, theme.PANEL_HI),
               "ghost": (theme.TEXT, theme.PANEL), "right": (theme.TEXT, theme.OK_BG)}
    return surfaces, texts, buttons


def test_contrast_formula_matches_wcag_examples(theme: Any) -> None:
    assert round(theme.contrast((0, 0, 0), (1, 1, 1)), 1) == 21.0
    assert round(theme.contrast((0.467, 0.467, 0.467), (1, 1, 1)), 1) == 4.5  # #777 on white


def test_every_text_colour_reads_on_every_surface(theme: Any) -> None:
    surfaces, texts, _ = _pairs(theme)
    bad = [f"{t} on {s}: {theme.contrast(tc, sc):.2f}" for t, tc in texts.items() for s, sc in surfaces.items()
           if theme.contrast(tc, sc) < 4.5]
    assert not bad, bad


def test_button_labels_read_on_their_buttons(theme: Any) -> None:
    bad = [f"{k}: {theme.contrast(fg, bg):.2f}" for k, (fg, bg) in _pairs(theme)[2].items() if theme.contrast(fg, bg) < 4.5]
    assert not bad, bad


def test_type_scale_floor(theme: Any) -> None:
    """Body ≥ 24 px and nothing below 20 px at the tablet's density; the scale only grows."""
    px = _scale(theme)
    assert px == sorted(px) and len(set(px)) == len(px)
    assert px[1] >= 24
    assert px[0] >= 20 and theme.TEXT_MIN_PX == px[0]
