"""Clue's set-up form: player count, names, card mode, tablet detectives and their level, teaching aids; then
start. Made once and kept for the next Clue screen (kiosk/widgets/kept_form.py)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from kiosk.games.clue.parts import ClueText, ClueTitle, action_button
from kiosk.widgets.kept_form import Kept, KeptForm, clear_fields, name_fields
from kiosk.widgets.theme import LEAD, MUTED, SMALL, TButton
from table.seats import config_with


class ClueSetup(KeptForm, BoxLayout):
    """Player count, names, card mode, teaching aids; then start. Made once and kept for the next Clue screen
    (kiosk/widgets/kept_form.py)."""

    def __init__(self, host: Any) -> None:  # the ClueHost (kiosk/games/clue/host.py)
        super().__init__(orientation="vertical", padding=(dp(40), dp(16)), spacing=dp(12))
        self.host = host
        self.count, self.mode = 4, "digital"
        self.tablets, self.level = 0, "normal"  # tablet detectives (the last seats) and their level
        self.inputs: list[TextInput] = []
        self.build()

    def reset(self, host: Any) -> None:
        """Ready for a new Clue screen: four players, digital cards, no typed name (the aids are the screen's)."""
        self.host = host
        self.count, self.mode = 4, "digital"
        self.tablets, self.level = 0, "normal"
        clear_fields(self.inputs, [f"clue_name_{i}" for i in range(len(self.inputs))])
        self.show()

    def build(self) -> None:
        tr = self.host.ctx.tr
        self.clear_widgets()
        self.add_widget(ClueTitle(text=tr("clue.setup.title"), font_size=LEAD))
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        row.add_widget(ClueText(text=tr("clue.setup.players"), size_hint_x=None, width=dp(160), size_hint_y=1))
        lo, hi = self.host.ctx.game.info.players  # the one player range: content's game.yaml
        self.counts: dict[int, TButton] = {}
        for n in range(lo, hi + 1):
            b = TButton(text=str(n), test_id=f"clue_count_{n}")
            b.bind(on_release=lambda _w, k=n: self.set_count(k))
            row.add_widget(b)
            self.counts[n] = b
        self.add_widget(row)
        names, self.inputs = name_fields(hi, 3, lambda n: tr("clue.setup.name", n=n), "clue_name_")
        self.add_widget(names)
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        row.add_widget(ClueText(text=tr("clue.setup.mode"), size_hint_x=None, width=dp(160), size_hint_y=1))
        self.modes: dict[str, TButton] = {}
        for mode in ("digital", "physical"):
            b = TButton(text=tr(f"clue.setup.{mode}"), test_id=f"clue_mode_{mode}")
            b.bind(on_release=lambda _w, m=mode: self.set_mode(m))
            row.add_widget(b)
            self.modes[mode] = b
        self.add_widget(row)
        self.build_tablets()
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        row.add_widget(ClueText(text=tr("clue.setup.aids"), size_hint_y=1))
        self.aids_button = TButton(test_id="clue_aids", size_hint_x=None, width=dp(220))
        self.aids_button.bind(on_release=lambda *_: self.toggle_aids())
        row.add_widget(self.aids_button)
        self.add_widget(row)
        self.add_widget(Widget())
        action_button(self, tr("clue.setup.start"), "clue_start", self.start, "primary", 80)
        self.show()

    def build_tablets(self) -> None:
        """Tablet detectives (engines/clue/bots.py) in the last seats, and their level: digital cards only, two
        guests at least."""
        tr = self.host.ctx.tr
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        row.add_widget(ClueText(text=tr("clue.setup.tablets"), size_hint_x=None, width=dp(160), size_hint_y=1))
        self.tablet_buttons: dict[int, TButton] = {}
        for k in range(0, TABLETS_MAX + 1):
            b = TButton(text=str(k) if k else tr("clue.setup.tablets_none"), test_id=f"clue_tablets_{k}")
            b.bind(on_release=lambda _w, k=k: self.set_tablets(k))
            row.add_widget(b)
            self.tablet_buttons[k] = b
        row.add_widget(Widget(size_hint_x=0.3))
        self.level_buttons: dict[str, TButton] = {}
        for level in LEVELS:
            b = TButton(text=tr(f"tablet.level.{level}"), test_id=f"clue_level_{level}")
            b.bind(on_release=lambda _w, lv=level: self.set_level(lv))
            row.add_widget(b)
            self.level_buttons[level] = b
        self.add_widget(row)
        whys = BoxLayout(size_hint_y=None, height=dp(26), spacing=dp(8))  # one line: the form fits under the bar
        self.tablet_why = ClueText(text="", font_size=SMALL, color=MUTED, size_hint_y=1)
        self.level_why = ClueText(text="", font_size=SMALL, color=MUTED, size_hint_y=1)
        whys.add_widget(self.tablet_why)
        whys.add_widget(self.level_why)
        self.add_widget(whys)

    def tablet_reason(self, k: int) -> str:
        """Why `k` tablet detectives cannot sit at this table now ("" when they can)."""
        if k and self.mode != "digital":
            return str(self.host.ctx.tr("clue.setup.tablets_digital_only"))
        if self.count - k < GUESTS_MIN:
            return str(self.host.ctx.tr("clue.setup.tablets_guests", n=GUESTS_MIN))
        return ""

    def show(self) -> None:
        """The choices made so far, changed in place: the form (six text fields) is built once, not again on
        every tap."""
        while self.tablets and self.tablet_reason(self.tablets):
            self.tablets -= 1
        for n, b in self.counts.items():
            b.selected = n == self.count
        guests = self.count - self.tablets
        for i, ti in enumerate(self.inputs):
            ti.disabled = i >= guests
            # a tablet detective's seat greyed with its name; a seat not in play is no field at all (as Spyfall's)
            ti.opacity = 1 if i < guests else 0.3 if i < self.count else 0
            ti.hint_text = (self.host.ctx.tr("clue.setup.tablet_name", n=i + 1) if guests <= i < self.count
                            else self.host.ctx.tr("clue.setup.name", n=i + 1))
        whys = [self.tablet_reason(k) for k in self.tablet_buttons]
        for k, b in self.tablet_buttons.items():
            b.selected = k == self.tablets
            b.why = whys[k]
            b.disabled = bool(whys[k])
        for level, b in self.level_buttons.items():
            b.selected = self.tablets > 0 and level == self.level
            b.why = self.host.ctx.tr("clue.setup.level_why") if not self.tablets else ""
            b.disabled = not self.tablets
        # each greyed button's reason on its own line (the note when nothing is greyed)
        self.tablet_why.text = next((w for w in whys if w), "") or self.host.ctx.tr("clue.setup.tablets_note")
        self.level_why.text = self.level_buttons["easy"].why
        for mode, b in self.modes.items():
            b.selected = mode == self.mode
        self.aids_button.text = self.host.ctx.tr("clue.setup.aids_on" if self.host.aids else "clue.setup.aids_off")
        self.aids_button.selected = self.host.aids

    def set_count(self, n: int) -> None:
        self.count = n
        self.show()

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.show()

    def set_tablets(self, k: int) -> None:
        self.tablets = k
        self.show()

    def set_level(self, level: str) -> None:
        self.level = level
        self.show()

    def toggle_aids(self) -> None:
        self.host.aids = not self.host.aids
        self.show()

    def start(self) -> None:
        host, mode = self.host, self.mode  # the form is let go once the game is on
        guests = self.count - self.tablets
        names = [self.inputs[i].text.strip() or host.ctx.tr("clue.setup.name", n=i + 1) for i in range(guests)]
        names += [host.ctx.tr("clue.setup.tablet_name", n=i + 1) for i in range(guests, self.count)]
        config = config_with({"players": names, "mode": mode, "set": "classic"},
                             {i: self.level for i in range(guests, self.count)})
        if host.ctx.start(config) and mode == "digital":
            host.show_hand(0, chain=True)  # the tablet goes round: each guest sees their cards (not the tablet's)


TABLETS_MAX, GUESTS_MIN = 4, 2  # tablet detectives beside at least two guests (issue #40)
LEVELS = ("easy", "normal", "hard")  # engines/clue/bots.py's levels, in the form's order
KEPT: Kept[ClueSetup] = Kept()
