"""Kivy markup: every text from content, a café overlay or a guest (game and card names, player names,
narration) goes through `esc` before it is put inside a `markup=True` label, so "[size=300sp]" in a name is
shown as typed instead of taking over the tile."""

from __future__ import annotations


def esc(text: object) -> str:
    """Kivy's markup escapes (the same as kivy.utils.escape_markup, without importing Kivy)."""
    return str(text).replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
