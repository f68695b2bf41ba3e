"""What a widget is to the toast (kiosk/widgets/toast.py) and to the test driver (kiosk/testing.py) beyond its Kivy
class. A widget says it with an attribute of the mark's name (a kv rule may set one: `keep_clear: True`); only the
functions here read them.

- `keep_clear`: a text a toast never covers, even on a screen without free room: whose turn it is (Mr. Jack's
  `turn_label`). Set in kv.
- `reserved`: a secret hidden until held (opacity 0 until the hand-over's button is held, kiosk/widgets/handover.py):
  its words count as shown, and as text a toast never covers (placed over its empty place, a toast sat on it once
  held).
- `takes_touch`: a control that is no Kivy button or text field (a `DrawnRow` with cells to tap,
  kiosk/widgets/drawn.py): a toast keeps off it, and the driver checks that nothing is drawn over it.
- `drawn_cells()`: a widget drawing cells on its own canvas says what they are as a guest sees them (`DrawnCell`:
  text, size, colours, where to tap): the driver finds, taps and checks them as widgets; they are text to a toast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

if TYPE_CHECKING:
    from kiosk.widgets.drawn import DrawnCell


class DrawsCells(Protocol):
    def drawn_cells(self) -> list[DrawnCell]: ...


def keep_clear(w: Any) -> bool:
    """A text a toast never covers (whose turn it is)."""
    return bool(getattr(w, "keep_clear", False))


def reserved(w: Any) -> bool:
    """A secret hidden until held: shown as far as a toast is concerned, and never covered by it."""
    return bool(getattr(w, "reserved", False))


def takes_touch(w: Any) -> bool:
    """A control by its own word (a Kivy button or text field is one by its class, which the readers check)."""
    return bool(getattr(w, "takes_touch", False))


def draws_cells(w: object) -> TypeGuard[DrawsCells]:
    """A widget whose `drawn_cells()` are what a guest sees of it."""
    return hasattr(w, "drawn_cells")
