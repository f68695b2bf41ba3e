"""Kivy markup: every text from content, a café overlay or a guest (game and card names, player names,
narration) goes through `esc` before it is put inside a `markup=True` label, so "[size=300sp]" in a name is
shown as typed instead of taking over the tile."""

from __future__ import annotations


def esc(text: object) -> str:
    """Kivy's markup escapes (the same as kivy.utils.escape_markup, without importing Kivy)."""
    return str(text).replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def keep_together(text: str) -> str:
    """A short fact that never breaks across lines ("설명 약 8분" wrapped as "설명 약" / "8분"): its spaces made
    no-break spaces (Kivy breaks lines at plain spaces only)."""
    return str(text).replace(" ", "\u00a0")
