"""A game's screen closed for good, taken apart so that reference counting frees most of it.

A Kivy widget is cyclic garbage once dropped: its dict properties (`ids`, a label's `refs`...) hold it
strongly, kv rules and `bind` put its own methods and the screen's lambdas in its observer lists, children
and parent point at each other, a kept widget's `_keep_tap` and `_keep_props` hold the screen's callbacks. Only
a full collection frees such garbage, and not at all while it is frozen (kiosk/gc_policy.py: a game's screen is
frozen during play; freeing what a closed one leaves needs a thaw, a traversal of every object). Taking it
apart breaks the cycles inside it: every observer of its widgets' properties and events unbound, their dict
properties let go of them, Keep's callbacks dropped, children removed, canvases cleared. Measured on a closed,
frozen screen after six actions (objects freed by reference counting out of all it left; before, 0-3 %): Clue
92-96 % (of ~36,000), Spyfall 77-80 %, Watson & Holmes 61-68 %, Mr. Jack 62-65 % (what is left: its own Python
objects pointing back at it, e.g. a helper holding the screen, a clock's callback). 8-30 ms of UI-thread CPU here,
so the kiosk does it in the guests' pauses, a few milliseconds a frame (`gc_policy.discard`).
Only for widgets nobody shows again: a kept set-up form (kiosk/widgets/kept_form.py) is skipped with what is
inside it. A closed widget keeps its attributes (a late clock callback on it still runs; nothing is drawn).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kivy.properties import DictProperty, ObservableDict
from kivy.uix.widget import Widget

from kiosk.widgets.kept_form import KeptForm


def closed_widgets(root: Any) -> list[Any]:
    """`root`'s widgets and those its `keep` (kiosk/widgets/keep.py) holds off screen, each once, parents
    first; a kept set-up form and its insides left out."""
    out: dict[int, Any] = {}
    keep = getattr(root, "keep", None)
    todo = [root, *(keep.widgets() if keep is not None else ())]
    while todo:
        w = todo.pop()
        if not isinstance(w, Widget) or isinstance(w, KeptForm) or id(w) in out:
            continue
        out[id(w)] = w
        todo.extend(w.children)
    return list(out.values())


def unbind_all(w: Any) -> None:
    """Every observer of `w`'s properties and events, however bound (kv rules, `bind`, `fbind`)."""
    for name in (*w.properties(), *w.events()):
        for callback, largs, kwargs, is_ref, uid in w.get_property_observers(name, True):
            if uid:
                w.unbind_uid(name, uid)
            elif is_ref:  # bind(): a WeakMethod
                fn = callback()
                if fn is not None:
                    w.unbind(**{name: fn})
            else:
                w.funbind(name, callback, *largs, **kwargs)


def take_apart(w: Any) -> None:
    """One widget closed for good (any order: its children are taken apart on their own)."""
    try:
        unbind_all(w)
    except Exception:  # a property a subclass made unreadable: the rest still goes
        pass
    for name, prop in w.properties().items():
        value = getattr(w, name) if isinstance(prop, DictProperty) else None
        if isinstance(value, ObservableDict) and value.__dict__.get("obj") is w:
            value.obj = None  # the only strong link from a property's value back to its widget
    if "_keep_tap" in w.__dict__:  # kiosk/widgets/keep.py's: the screen's callbacks
        w._keep_tap, w._keep_props = None, {}
    w.clear_widgets()
    canvas = w.canvas
    if canvas is not None:  # before and after only if made (reading them makes them)
        for c in (canvas.before if canvas.has_before else None, canvas, canvas.after if canvas.has_after else None):
            if c is not None:
                c.clear()


def dismantle(widgets: Iterable[Any]) -> int:
    """Take apart widgets closed for good (see the module's docstring), children first; how many."""
    ws = list(widgets)
    for w in reversed(ws):
        take_apart(w)
    return len(ws)
