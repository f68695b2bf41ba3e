"""The tablet's side of phones at set-up (issue 15): the set-up form's name fields ↔ the hub's lobby.

The fields are found in the game's set-up form by their test ids (`*_name_<n>`, seat n; Mr. Jack's
`mj_name_detective` / `mj_name_jack`), enabled ones only, so no form needs code of its own. While the
lobby is open the link keeps the hub's seats and names in step with the form twice a second, and writes
a name typed on a phone into its field, where the tablet shows it.
"""

from __future__ import annotations

import re
from typing import Any

from kivy.clock import Clock
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from phones.channel import PhoneHub

NUMBERED = re.compile(r"_name_(\d+)$")
NAMED = ("mj_name_detective", "mj_name_jack")  # Mr. Jack: seat 0 the detective, seat 1 Jack


def name_fields(root: Widget) -> list[TextInput]:
    """The set-up form's name fields in seat order (those in use: enabled)."""
    numbered: dict[int, TextInput] = {}
    named: dict[str, TextInput] = {}
    for w in root.walk(restrict=True):
        tid = str(getattr(w, "test_id", "") or "")
        if not isinstance(w, TextInput) or w.disabled:
            continue
        m = NUMBERED.search(tid)
        if m:
            numbered[int(m.group(1))] = w
        elif tid in NAMED:
            named[tid] = w
    if named:
        return [named[t] for t in NAMED if t in named]
    return [numbered[n] for n in sorted(numbered)]


def shown_name(field: TextInput) -> str:
    """The name the form will use for the seat: what is typed, else its default (the hint)."""
    return str(field.text).strip() or str(field.hint_text).strip()


class SetupLink:
    """One set-up form's seats on the hub, for as long as the form shows and no game has started."""

    active: SetupLink | None = None  # the one link in step (opening the list twice makes no second)

    def __init__(self, hub: PhoneHub, form: Widget, game: str) -> None:
        self.hub, self.form, self.game = hub, form, game
        self._event: Any = None

    def open(self) -> bool:
        """Open the lobby with the form's seats; False when the form has no name fields."""
        if not name_fields(self.form):
            return False
        old = SetupLink.active
        if old is not None and old._event is not None and old.form is self.form and old.hub is self.hub:
            old.sync()
            return True
        if old is not None:
            old.stop()  # another form's link: its set-up is over
        SetupLink.active = self
        self.sync()
        self._event = Clock.schedule_interval(lambda dt: self.sync(), 0.5)
        return True

    def sync(self) -> None:
        if self.form.get_root_window() is None or self.hub.table is not None:  # left the form, or game on
            self.stop()
            return
        fields = name_fields(self.form)
        for seat, name in self.hub.setup_typed().items():
            if seat < len(fields):
                fields[seat].text = name
        self.hub.open_setup(self.game, [shown_name(f) for f in fields])

    def stop(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        if SetupLink.active is self:
            SetupLink.active = None
            if self.hub.table is None:
                self.hub.close_setup()
