"""A game's screen closed for good, taken apart so that reference counting frees (nearly) all of it.

A Kivy widget is cyclic garbage once dropped: its dict properties (`ids`, a label's `refs`...) hold it
strongly, kv rules and `bind` put its own methods and the screen's lambdas in its observer lists, children
and parent point at each other, a kept widget's `_keep_tap` and `_keep_props` hold the screen's callbacks, every
instruction points back at its canvas. Only a full collection frees such garbage, and not at all while it is
frozen (kiosk/gc_policy.py: a game's screen is frozen during play; freeing what a closed one leaves needs a thaw,
a traversal of every object). Taking it apart breaks the cycles inside it: every observer of its widgets'
properties and events unbound (aliases first: see `unbind_all`), their dict properties let go of them, object
properties pointing at another widget (a table's `host`) hold it weakly, Keep's callbacks dropped, children
removed, canvases and the groups in them emptied. Taken apart too: what the screen holds off screen (its Keep's
widgets, a clock not shown now in its attributes). The game's own helpers let go of it on close (`closing()`, or a
weak reference). Measured on a closed, frozen screen after four actions (objects freed by reference counting
out of all it left frozen; tests/kiosk/test_gc_dismantle.py): Spyfall 0.99 (147 objects left cyclic), Watson &
Holmes 0.99 (183), Mr. Jack 0.99 (231), Clue 0.99 (86) — before 0.77 (4,000), 0.67 (5,300), 0.62 (7,400), 0.94
(600), and 0-3 % with nothing taken apart. What is left: drawn canvases, each its own compiled group (Kivy's). 6-14
ms of UI-thread CPU here, so the kiosk does it in the guests' pauses, a few milliseconds a frame
(`gc_policy.discard`).
Only for widgets nobody shows again: a kept set-up form (kiosk/widgets/kept_form.py) is skipped with what is
inside it. A closed widget keeps its attributes (a late clock callback on it still runs; nothing is drawn).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kivy.animation import Animation
from kivy.clock import ClockEvent
from kivy.graphics import Canvas, InstructionGroup
from kivy.input import MotionEvent
from kivy.lang import Builder
from kivy.properties import AliasProperty, DictProperty, ObjectProperty, ObservableDict, ReferenceListProperty
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget
from kivy.weakproxy import WeakProxy

from kiosk.widgets.kept_form import KeptForm
from kiosk.widgets.pieces import Pieces

_OTHER = object()
_ORDER = {ReferenceListProperty: 0, AliasProperty: 1}  # made of aliases, aliases, the rest (`unbind_all`)


def closed_widgets(root: Any) -> list[Any]:
    """`root`'s widgets, those its `keep` (kiosk/widgets/keep.py) holds off screen and those off screen it holds in
    its attributes (a clock not shown now), each once, parents first; a kept set-up form and its insides left
    out."""
    out: dict[int, Any] = {}
    keep = getattr(root, "keep", None)
    todo = [root, *(keep.widgets() if keep is not None else ()), *held_off_screen(root)]
    while todo:
        w = todo.pop()
        if not isinstance(w, Widget) or isinstance(w, KeptForm) or id(w) in out:
            continue
        out[id(w)] = w
        todo.extend(w.children)
    return list(out.values())


def unshown_inside(root: Any, held: set[int]) -> list[Any]:
    """`root` and the widgets inside it, parents first, but those in `held` (ids: a Keep's), a Shelf's and a kept
    set-up form, with what is inside them."""
    out: list[Any] = []
    todo = [root]
    while todo:
        w = todo.pop()
        if isinstance(w, KeptForm) or id(w) in held or w.__dict__.get("_shelved"):
            continue
        out.append(w)
        todo.extend(w.children)
    return out


def held_off_screen(root: Any) -> list[Any]:
    """The widgets without a parent `root`'s attributes hold (directly or in a list, tuple or dict); not a weak proxy
    (Kivy's `proxy_ref`, of `root` itself once asked for)."""
    found = []
    for value in vars(root).values():
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else (value,)
        found += [w for w in items if isinstance(w, Widget) and type(w) is not WeakProxy and w.parent is None]
    return found


def unbind_all(w: Any) -> None:
    """Every observer of `w`'s properties and events, however bound (kv rules, `bind`, `fbind`). Kivy links an
    alias (`right`, `center`...) to what it is made of only once it is read or observed: asking for its observers
    links it, so aliases go first and what they are made of after (else each freed widget left ~50 objects of
    cyclic garbage, its linked observer lists)."""
    props = w.properties()
    for name in (*sorted(props, key=lambda n: _ORDER.get(type(props[n]), 2)), *w.events()):
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
        Builder.unbind_widget(w.uid)  # its kv rules' bindings on other objects (the app's `lang`: a rule reading
        # `root`, freed first, raised ReferenceError when the language changed; found by the random-touch soak)
        unbind_all(w)
        if isinstance(w, ScrollView):  # its scroll effects are bound to their own methods
            unbind_all(w.effect_x)
            unbind_all(w.effect_y)
        elif isinstance(w, TextInput):
            forget_detached_field()  # (a dialog's field, the last one adjusted)
            if w._refresh_text_from_property_ev is not None:
                w._refresh_text_from_property_ev.cancel()  # a lambda holding the field
                w._refresh_text_from_property_ev = None
    except Exception:  # a property a subclass made unreadable: the rest still goes
        pass
    for name, prop in w.properties().items():
        if isinstance(prop, DictProperty):
            value = getattr(w, name)
            if isinstance(value, ObservableDict) and value.__dict__.get("obj") is w:
                value.obj = None  # the only strong link from a property's value back to its widget
        elif type(prop) is ObjectProperty and name != "parent":
            value = getattr(w, name)
            if isinstance(value, Widget) and value is not w and type(value) is not WeakProxy:
                try:  # e.g. a table's `host`: held weakly, as kv's ids are (it still answers while it lives)
                    setattr(w, name, _OTHER)  # a proxy compares equal to its widget: not stored over it
                    setattr(w, name, value.proxy_ref)
                except Exception:  # a property that checks its value's class
                    setattr(w, name, value)
            elif isinstance(value, MotionEvent):  # a button's `last_touch`: the touch holds it in `ud` (a cycle)
                value.ud.pop(w, None)
    if "_keep_tap" in w.__dict__:  # kiosk/widgets/keep.py's: the screen's callbacks
        w._keep_tap, w._keep_props = None, {}
    for value in list(w.__dict__.values()):  # what it scheduled on itself: rows still to make, a redraw
        if isinstance(value, (Pieces, ClockEvent)):  # (its children are gone: their weak ids raise)
            value.cancel()
    Animation.cancel_all(w)  # Kivy holds an animated widget until its animation ends: a scroll view's bar fading
    # (0.5 s, begun 0.5 s after it last moved) kept it, and freed then, its canvases were cyclic garbage at a moment
    # nobody chose (the flaky-test audit, session 20: test_voice_ui's garbage count, test_one_use)
    w.clear_widgets()
    if w.canvas is not None:
        clear_canvas(w.canvas)


def forget_detached_field() -> None:
    """Kivy's `TextInput._adjust_viewport` is a `Clock.triggered` function: its closure, shared by the class,
    keeps the arguments of its last call, so the last text field adjusted (a set-up form's name field) and
    through its parents the whole game screen stayed alive after the game left (found with
    bench/memory.py: the last game's host after every table turnover; and a set-up form a game had already
    taken off its screen, found by the soak test). When that field is on no window any more, its pending
    adjustment is cancelled and the arguments dropped."""
    fn = TextInput._adjust_viewport
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            args = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(args, list) and args and isinstance(args[0], TextInput) and args[0].get_root_window() is None:
            fn.cancel()
            args.clear()


def clear_canvas(group: InstructionGroup) -> None:
    """`group` and the groups in it (a ScrollView's viewport, a row's drawn tokens) emptied: each instruction
    points back at its group. A canvas's before and after groups, only if made (reading them makes them), are
    taken out of it too (drawn into later: not shown)."""
    ends = [c for c in (group.before if group.has_before else None, group.after if group.has_after else None)
            if c is not None] if isinstance(group, Canvas) else []
    inner = [c for c in group.children if isinstance(c, InstructionGroup) and not any(c is e for e in ends)]
    group.clear()  # a canvas keeps its before and after
    for c in inner + ends:
        clear_canvas(c)
    for c in ends:
        group.remove(c)


def dismantle(widgets: Iterable[Any]) -> int:
    """Take apart widgets closed for good (see the module's docstring), children first; how many."""
    ws = list(widgets)
    for w in reversed(ws):
        take_apart(w)
    return len(ws)
