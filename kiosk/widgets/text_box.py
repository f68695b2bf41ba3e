"""Where a label's words are drawn, in window coordinates: its lines as Kivy laid them out, in its texture centred in
its box (as Kivy's Label rule draws it). A label's box is often far larger than its words (a full-width status line
with a short text): the toast (kiosk/widgets/toast.py) keeps off the words, and the test driver's sweep checks
that it does."""

from __future__ import annotations

from typing import Any

Box = tuple[float, float, float, float]


def drawn_text_box(w: Any, at: tuple[float, float] | None = None) -> Box | None:
    """(x0, y0, x1, y1) around the words `w` (a Kivy Label, or a TextInput: its text or hint) draws, or None when it
    draws none; `at`: where `w` is in the window, when known (else asked of `w.to_window`)."""
    from kivy.uix.textinput import TextInput

    if isinstance(w, TextInput):  # its text (or hint) fills its box less the padding, from the left
        if not (w.text or w.hint_text):
            return None
        x, y = w.to_window(w.x, w.y) if at is None else at
        return x + w.padding[0], y + w.padding[3], x + w.width - w.padding[2], y + w.height - w.padding[1]
    tw, th = w.texture_size
    if tw <= 1 or th <= 1:
        return None
    cx, cy = w.to_window(*w.center) if at is None else (at[0] + w.width / 2.0, at[1] + w.height / 2.0)
    x0, top = int(cx - tw / 2.0), int(cy - th / 2.0) + th
    core = w._label
    lines = [ln for ln in getattr(core, "_cached_lines", []) if ln.w > 0 and ln.words]
    if not lines:  # not laid out line by line (an image label): the whole texture
        return x0, top - th, x0 + tw, top
    # placed as Kivy's render_lines places them (their own x, y are set only when the texture is filled, later)
    pl, pt, pr, pb = (list(core.options.get("padding", (0, 0, 0, 0))) + [0, 0, 0, 0])[:4]
    lw, lh = max(ln.w for ln in lines), sum(ln.h for ln in lines)
    halign, valign = core.options.get("halign", "left"), core.options.get("valign", "bottom")
    left = (max(0, tw - lw - pr) if halign == "right" else max(pl, (tw - lw + pl - pr) / 2) if halign == "center"
            else pl)
    down = (max(pt, th - lh - pb) if valign == "bottom" else max(pt, (th - lh) / 2) if valign in ("middle", "center")
            else pt)  # from the texture's top
    return x0 + left, top - min(th, down + lh), x0 + min(tw, left + lw), top - down


def overlap(a: Box, b: Box, margin: float = 0.0) -> bool:
    """The two boxes share more than `margin` pixels both ways."""
    return min(a[2], b[2]) - max(a[0], b[0]) > margin and min(a[3], b[3]) - max(a[1], b[1]) > margin
