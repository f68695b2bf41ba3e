"""The layout sweep's geometry (kiosk/testing.py's Driver runs it on every screenshot and screen change): which
widgets are shown and take touches, what a control lies under, what a toast covers, which texts overlap or are
shortened."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from kiosk.widgets import marks


def is_shown(w: Any) -> bool:
    while w is not None:
        if getattr(w, "opacity", 1) <= 0.01:
            return False
        parent = w.parent
        if parent is w:
            break
        w = parent
    return True


def _paints(w: Any) -> bool:
    """True when the widget paints an opaque-ish area of its own (a background, a bar), not only text."""
    from kivy.graphics import BorderImage, Color, Rectangle, RoundedRectangle
    from kivy.uix.label import Label

    canvases = [w.canvas.before] if isinstance(w, Label) else [w.canvas.before, w.canvas]
    for canvas in canvases:
        alpha = 1.0
        for ins in canvas.children:
            if isinstance(ins, Color):
                alpha = ins.a
            elif isinstance(ins, (Rectangle, RoundedRectangle, BorderImage)) and alpha > 0.3 \
                    and ins.size[0] > 1 and ins.size[1] > 1 and _plain(getattr(ins, "texture", None)):
                return True
    return False


_DEFAULT_TEXTURE: list[Any] = []


def _plain(texture: Any) -> bool:
    """No image or text of its own: no texture, or the 1-colour default texture Kivy gives a plain rectangle (with
    a window up, a Rectangle's texture is that default one, never None: bars and panels counted as not painting)."""
    if texture is None:
        return True
    if not _DEFAULT_TEXTURE:
        from kivy.graphics import Rectangle

        _DEFAULT_TEXTURE.append(Rectangle().texture)
    return texture is _DEFAULT_TEXTURE[0]


def _covers_by_design(w: Any) -> bool:
    while w is not None:
        if type(w).__name__ == "OnScreenKeyboard":
            return True
        parent = w.parent
        w = None if parent is w else parent
    return False


def _takes_touch(w: Any) -> bool:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.modalview import ModalView
    from kivy.uix.textinput import TextInput

    return isinstance(w, (ButtonBehavior, TextInput, ModalView)) or marks.takes_touch(w)


def _window_rect(w: Any) -> tuple[float, float, float, float]:
    """The widget's box in window coordinates, cut to what its scroll views (stencils) let show and touch."""
    return _cut_to_stencils(w, _box(w))


def _box(w: Any) -> tuple[float, float, float, float]:
    """The widget's box in window coordinates."""
    x0, y0 = w.to_window(w.x, w.y)
    return x0, y0, x0 + w.width, y0 + w.height


def _cut_to_stencils(w: Any, box: tuple[float, float, float, float],
                     upto: Any = None) -> tuple[float, float, float, float]:
    """`box` cut to what the scroll views (stencils) around `w` let show (those inside `upto`, if given)."""
    from kivy.uix.stencilview import StencilView

    x0, y0, x1, y1 = box
    parent = w.parent
    while parent is not None and parent is not upto and parent is not parent.parent:
        if isinstance(parent, StencilView):
            px0, py0 = parent.to_window(parent.x, parent.y)
            x0, y0 = max(x0, px0), max(y0, py0)
            x1, y1 = min(x1, px0 + parent.width), min(y1, py0 + parent.height)
        parent = parent.parent
    return x0, y0, x1, y1


def covered_targets(roots: list[Any], order: list[Any]) -> list[str]:
    from kivy.uix.modalview import ModalView

    index = {id(w): i for i, w in enumerate(order)}
    modals = [w for w in order if isinstance(w, ModalView) and is_shown(w)]
    scope = modals[-1] if modals else None

    # Left out: the on-screen keyboard (a sheet the guest called up to type; it keeps the focused field clear
    # itself). The toast counts: it is placed where it covers no control (kiosk.widgets.toast).
    blockers = [w for w in order if is_shown(w) and w.width > 1 and w.height > 1
                and (_takes_touch(w) or _paints(w)) and not _covers_by_design(w)]
    bad = []
    for target in order:
        if not _takes_touch(target) or isinstance(target, ModalView) or target.disabled or not is_shown(target):
            continue
        if scope is not None and not _inside(target, scope):
            continue
        cx, cy = target.to_window(*target.center)
        tx0, ty0, tx1, ty1 = _window_rect(target)
        if not (tx0 <= cx <= tx1 and ty0 <= cy <= ty1):
            continue  # scrolled out of view: nobody can see or tap it
        for other in blockers:
            if index[id(other)] <= index[id(target)] or _inside(other, target) or _inside(target, other):
                continue
            x0, y0, x1, y1 = _window_rect(other)
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                name = getattr(target, "test_id", "") or getattr(target, "text", "") or type(target).__name__
                by = getattr(other, "test_id", "") or type(other).__name__
                bad.append(f"{name!r} under {by}")
                break
    return bad


def _is_control(w: Any) -> bool:
    """A widget a finger taps: a button (or anything with on_press/on_release), a text field, a drawn row to tap."""
    from kivy.uix.modalview import ModalView

    return not isinstance(w, ModalView) and (_takes_touch(w) or hasattr(w, "on_press") or hasattr(w, "on_release"))


def scroll_bars(order: list[Any]) -> Iterator[tuple[Any, str, float, float]]:
    """The bars drawn now: (scroll view, "y" for a vertical bar or "x" for a horizontal one, the strip it runs in
    across its axis, in window coordinates: x0, x1 for "y", y0, y1 for "x"). Kivy draws a bar (over the content's
    edge, kivy/data/style.kv) while its scroll view scrolls that way and its content is larger than the view; once
    still it fades to bar_inactive_color, still drawn."""
    from kivy.uix.scrollview import ScrollView

    for sv in order:
        if not isinstance(sv, ScrollView) or not is_visible(sv) or sv.bar_width <= 0.5 \
                or max(sv.bar_color[3], sv.bar_inactive_color[3]) <= 0.01:
            continue
        x0, y0 = sv.to_window(sv.x, sv.y)
        width, margin = min(sv.bar_width, sv.width), sv.bar_margin
        if sv.do_scroll_y and sv.viewport_size[1] > sv.height:
            left = x0 + sv.width - width - margin if sv.bar_pos_y == "right" else x0 + margin
            yield sv, "y", left, left + width
        if sv.do_scroll_x and sv.viewport_size[0] > sv.width:
            low = y0 + margin if sv.bar_pos_x == "bottom" else y0 + sv.height - width - margin
            yield sv, "x", low, low + width


def under_scroll_bars(order: list[Any], cells: list[Any]) -> list[str]:
    """Controls inside a scrolling scroll view whose edge lies under its bar's strip (Kivy draws the bar over the
    content's right edge, or bottom edge for a horizontal bar): wherever the list is scrolled to, the bar runs over
    that edge of every row it passes. A row keeps clear of it with padding on that side (kiosk.widgets.theme
    BAR_CLEAR). Rows scrolled out of view count too: scrolling brings them under the bar."""
    bad = []
    for sv, axis, a0, a1 in scroll_bars(order):
        controls = [w for w in order if w is not sv and _is_control(w) and not marks.draws_cells(w) and is_shown(w)
                    and w.width > 1 and w.height > 1 and _inside(w, sv)]  # a drawn row: its cells to tap, below
        # each box cut to the scroll views inside `sv`, not to `sv` itself: a row scrolled out of its view still
        # comes under its bar when scrolled to
        boxes = [(w, _cut_to_stencils(w, _box(w), upto=sv)) for w in controls]
        boxes += [(c, (c.box[0], c.box[1], c.box[0] + c.box[2], c.box[1] + c.box[3])) for c in cells
                  if c.touchable and _inside(c.row, sv)]
        for w, (x0, y0, x1, y1) in boxes:
            lo, hi = (x0, x1) if axis == "y" else (y0, y1)
            if x1 - x0 > 1 and y1 - y0 > 1 and min(hi, a1) - max(lo, a0) > 0.5:
                name = getattr(w, "test_id", "") or getattr(w, "text", "") or type(w).__name__
                by = getattr(sv, "test_id", "") or type(sv).__name__
                bad.append(f"{name!r} under the scroll bar of {by} ({'right' if axis == 'y' else 'bottom'} edge)")
    return bad


def read_texts(order: list[Any], scope: Any) -> Iterator[Any]:
    """The labels a guest reads, in drawing order: with text, shown, in the dialog on top (`scope`) if any; not in
    a toast or the keyboard sheet (drawn over the screen by design)."""
    from kivy.uix.label import Label

    for w in order:
        if not isinstance(w, Label) or not w.text.strip() or not is_visible(w) or _covers_by_design(w):
            continue
        if (scope is not None and not _inside(w, scope)) or any(type(a).__name__ == "Toast" for a in ancestors(w)):
            continue
        yield w


def covered_texts(order: list[Any]) -> list[str]:
    """Texts partly or wholly under a widget drawn after them that paints a background (the host bar, a panel, a
    button): what a guest cannot read. A label inside the painter (a button's own words) or under a modal that is
    meant to cover it does not count; toasts are toast_covers' and the keyboard sheet covers by design."""
    from kivy.uix.modalview import ModalView

    from kiosk.widgets.text_box import drawn_text_box, overlap

    index = {id(w): i for i, w in enumerate(order)}
    modals = [w for w in order if isinstance(w, ModalView) and is_shown(w)]
    scope = modals[-1] if modals else None
    painters = [w for w in order if is_visible(w) and _paints(w) and not _covers_by_design(w)
                and not isinstance(w, ModalView) and type(w).__name__ != "Toast"]
    bad = []
    for w in read_texts(order, scope):
        box = drawn_text_box(w)
        if box is None:
            continue
        box = _cut_to_stencils(w, box)
        if box[2] - box[0] <= 1 or box[3] - box[1] <= 1:
            continue  # scrolled out of view
        for other in painters:
            if index[id(other)] <= index[id(w)] or _inside(w, other) or _inside(other, w):
                continue
            if scope is not None and not _inside(other, scope):
                continue
            if overlap(box, _window_rect(other), 4):
                by = getattr(other, "test_id", "") or type(other).__name__
                bad.append(f"text {w.text[:30]!r} under {by}")
                break
    return bad


def toast_covers(toast: Any, order: list[Any], cells: list[Any]) -> list[str]:
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView
    from kivy.uix.textinput import TextInput

    from kiosk.widgets.text_box import drawn_text_box, overlap

    modals = [w for w in order if isinstance(w, ModalView) and is_shown(w) and not getattr(w, "closing", False)]
    scope = modals[-1] if modals else None
    tx0, ty0 = toast.to_window(toast.x, toast.y)
    spot = (tx0, ty0, tx0 + toast.width, ty0 + toast.height)
    bad = []
    for w in order:
        if (w is toast or _inside(w, toast) or not is_visible(w) or isinstance(w, ModalView)
                or (scope is not None and not _inside(w, scope))):
            continue
        if _takes_touch(w) and not w.disabled:
            if overlap(spot, _window_rect(w), 2):
                name = getattr(w, "test_id", "") or getattr(w, "text", "") or type(w).__name__
                bad.append(f"toast {toast.text[:30]!r} over control {name!r}")
        elif isinstance(w, (Label, TextInput)) and (w.text.strip() or getattr(w, "hint_text", "")):
            box = drawn_text_box(w)
            if box is not None and overlap(spot, _cut_to_stencils(w, box), 2):  # a text scrolled out of view: none
                bad.append(f"toast {toast.text[:30]!r} over text {(w.text or w.hint_text)[:30]!r}")
    for c in cells:
        x, y, cw, ch = c.box
        if (c.text.strip() or c.touchable and not c.disabled) \
                and overlap(spot, _cut_to_stencils(c.row, (x, y, x + cw, y + ch)), 2) \
                and (scope is None or _inside(c.row, scope)):
            bad.append(f"toast {toast.text[:30]!r} over cell {c.test_id or c.text!r}")
    return bad


def shortened_texts(order: list[Any]) -> list[str]:
    """Labels Kivy drew cut within their box, where no overflow shows it: with `shorten` on, a text wider than its
    box loses its middle to an ellipsis ("Mr. Jack...ew York"); with `max_lines`, or a text box of a fixed height
    (`text_size` (w, h)), the lines after the last that fits are dropped (W&H's tiles lost their third line). With a
    dialog open, only the dialog's."""
    from kivy.uix.modalview import ModalView

    modals = [w for w in order if isinstance(w, ModalView) and is_shown(w)]
    scope = modals[-1] if modals else None
    bad = []
    for w in read_texts(order, scope):
        # (a markup label's drawn words keep no tags to compare with)
        if w.shorten or (not w.markup and (w.max_lines or w.text_size[1] is not None)):
            w.texture_update()
            drawn = "".join(word.text for line in w._label._cached_lines for word in line.words)
            if getattr(w._label, "is_shortened", False) or "".join(drawn.split()) != "".join(w.text.split()):
                cut = "lines dropped" if w.text_size[1] is not None and not w.shorten else "shortened"
                bad.append(f"text {w.text[:40]!r} {cut} to fit {w.width:.0f}x{w.height:.0f} px")
    return bad


def overlapping_texts(order: list[Any]) -> list[str]:
    """Pairs of visible labels whose drawn text (the texture, centred in the label as Kivy draws it) overlap
    by more than a few pixels both ways; with a dialog open, only the dialog's. Toasts and the keyboard sheet
    are left out (drawn over the screen by design)."""
    from kivy.uix.modalview import ModalView

    modals = [w for w in order if isinstance(w, ModalView) and is_shown(w)]
    scope = modals[-1] if modals else None

    boxes = []
    for w in read_texts(order, scope):
        tw, th = w.texture_size
        cx, cy = w.to_window(*w.center)
        x0, y0, x1, y1 = _window_rect(w)
        box = (max(cx - tw / 2, x0), max(cy - th / 2, y0), min(cx + tw / 2, x1), min(cy + th / 2, y1))
        if box[2] - box[0] > 1 and box[3] - box[1] > 1:
            boxes.append((w, box))
    bad = []
    for i, (a, (ax0, ay0, ax1, ay1)) in enumerate(boxes):
        for b, (bx0, by0, bx1, by1) in boxes[i + 1:]:
            if _inside(a, b) or _inside(b, a):
                continue
            if min(ax1, bx1) - max(ax0, bx0) > 4 and min(ay1, by1) - max(ay0, by0) > 4:
                bad.append(f"text {a.text[:30]!r} over {b.text[:30]!r}")
    return bad


def _inside(w: Any, ancestor: Any) -> bool:
    return any(a is ancestor for a in ancestors(w))


def ancestors(w: Any) -> Iterator[Any]:
    while w is not None:
        yield w
        parent = w.parent
        w = None if parent is w else parent


MARKUP_SIZE = re.compile(r"\[size=([0-9.]+)(sp|dp|px)?\]")


def is_visible(w: Any) -> bool:
    """Drawn with some opacity (its own and every parent's) and not a zero-sized box."""
    if w.width <= 1 or w.height <= 1:
        return False
    return is_shown(w)
