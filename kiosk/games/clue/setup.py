"""Clue's set-up form: player count, names, card mode, tablet detectives and their level, teaching aids; then
start. Made once and kept for the next Clue screen (kiosk/widgets/kept_form.py)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.flows.seats import Seats, options, row, select, weigh_by_text
from kiosk.games.clue.parts import ClueText, ClueTitle
from kiosk.widgets.buttons import button
from kiosk.widgets.kept_form import Kept, KeptForm
from kiosk.widgets.theme import FORM_GAP, FORM_PAD_Y, LEAD, MUTED, SMALL, TButton, TLabel
from table.seats import config_with


def _lead(text: str) -> ClueText:
    return ClueText(text=text, size_hint_x=None, width=dp(160), size_hint_y=1)


class ClueSetup(KeptForm, BoxLayout):
    """Player count, names, card mode, teaching aids; then start. Made once and kept for the next Clue screen
    (kiosk/widgets/kept_form.py)."""

    def __init__(self, host: Any) -> None:  # the ClueHost (kiosk/games/clue/host.py)
        super().__init__(orientation="vertical", padding=(dp(40), FORM_PAD_Y), spacing=FORM_GAP)
        self.host = host
        self.count, self.mode = 4, "digital"
        self.tablets, self.level = 0, "normal"  # tablet detectives (the last seats) and their level
        self.build()

    def reset(self, host: Any) -> None:
        """Ready for a new Clue screen: four players, digital cards, no typed name (the aids are the screen's)."""
        self.host = host
        self.count, self.mode = 4, "digital"
        self.tablets, self.level = 0, "normal"
        self.seats.clear()
        self.show()

    def build(self) -> None:
        tr = self.host.ctx.tr
        self.clear_widgets()
        self.add_widget(ClueTitle(text=tr("clue.setup.title"), font_size=LEAD))
        self.seats = Seats(self, _lead(tr("clue.setup.players")), self.host.ctx.game.info.players, "clue",
                           lambda n: self._set(count=n), lambda n: self.host.ctx.tr("clue.setup.name", n=n))
        self.seats.add_names(self, 3)
        self.modes = options(row(self, _lead(tr("clue.setup.mode"))),
                             [(m, tr(f"clue.setup.{m}"), f"clue_mode_{m}") for m in ("digital", "physical")],
                             lambda m: self._set(mode=m))
        self.build_tablets()
        line = row(self, ClueText(text=tr("clue.setup.aids"), size_hint_y=1))
        self.aids_button = TButton(test_id="clue_aids", size_hint_x=None, width=dp(220))
        self.aids_button.bind(on_release=lambda *_: self.toggle_aids())
        line.add_widget(self.aids_button)
        self.add_widget(Widget())
        button(self, tr("clue.setup.start"), "clue_start", self.start, "primary", 80)
        self.show()

    def build_tablets(self) -> None:
        """Tablet detectives (engines/clue/bots.py) in the last seats, and their level: digital cards only, two
        guests at least."""
        tr = self.host.ctx.tr
        line = row(self, _lead(tr("clue.setup.tablets")))
        self.tablet_buttons = options(line, [(k, str(k) if k else tr("clue.setup.tablets_none"), f"clue_tablets_{k}")
                                             for k in range(0, TABLETS_MAX + 1)], lambda k: self._set(tablets=k))
        line.add_widget(Widget(size_hint_x=dp(24)))
        self.level_buttons = options(line, [(lv, tr(f"tablet.level.{lv}"), f"clue_level_{lv}") for lv in LEVELS],
                                     lambda lv: self._set(level=lv))
        # eight buttons on a line: at 1024 px, shared alike, 어려움, None and Normal broke in the middle
        weigh_by_text([*self.tablet_buttons.values(), *self.level_buttons.values()])
        # each half as tall as its text (a reason wrapped on two lines at 1024 px was cut to the one line's box)
        whys = BoxLayout(size_hint_y=None, spacing=dp(8))
        self.tablet_why = TLabel(font_size=SMALL, color=MUTED, pos_hint={"top": 1})
        self.level_why = TLabel(font_size=SMALL, color=MUTED, pos_hint={"top": 1})
        for why in (self.tablet_why, self.level_why):
            why.bind(height=lambda *_: setattr(whys, "height", max(self.tablet_why.height, self.level_why.height)))
            whys.add_widget(why)
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
        tr = self.host.ctx.tr
        while self.tablets and self.tablet_reason(self.tablets):
            self.tablets -= 1
        # a tablet detective's seat greyed with its name; a seat not in play is no field at all (as Spyfall's)
        self.seats.draw(self.count, self.count - self.tablets, 0, lambda n: tr("clue.setup.tablet_name", n=n))
        whys = [self.tablet_reason(k) for k in self.tablet_buttons]
        select(self.tablet_buttons, self.tablets)
        for k, b in self.tablet_buttons.items():
            b.why = whys[k]
            b.disabled = bool(whys[k])
        select(self.level_buttons, self.level if self.tablets else "")
        for b in self.level_buttons.values():
            b.why = tr("clue.setup.level_why") if not self.tablets else ""
            b.disabled = not self.tablets
        # each greyed button's reason on its own line (the note when nothing is greyed)
        self.tablet_why.text = next((w for w in whys if w), "") or tr("clue.setup.tablets_note")
        self.level_why.text = self.level_buttons["easy"].why
        select(self.modes, self.mode)
        self.aids_button.text = tr("clue.setup.aids_on" if self.host.aids else "clue.setup.aids_off")
        self.aids_button.selected = self.host.aids

    def _set(self, **changes: Any) -> None:
        for k, v in changes.items():
            setattr(self, k, v)
        self.show()

    def toggle_aids(self) -> None:
        self.host.aids = not self.host.aids
        self.show()

    def start(self) -> None:
        host, mode = self.host, self.mode  # the form is let go once the game is on
        guests = self.count - self.tablets
        names = self.seats.names(guests) + [host.ctx.tr("clue.setup.tablet_name", n=i + 1)
                                            for i in range(guests, self.count)]
        config = config_with({"players": names, "mode": mode, "set": "classic"},
                             {i: self.level for i in range(guests, self.count)})
        if host.ctx.start(config) and mode == "digital":
            host.show_hand(0, chain=True)  # the tablet goes round: each guest sees their cards (not the tablet's)


TABLETS_MAX, GUESTS_MIN = 4, 2  # tablet detectives beside at least two guests (issue #40)
LEVELS = ("easy", "normal", "hard")  # engines/clue/bots.py's levels, in the form's order
KEPT: Kept[ClueSetup] = Kept()
