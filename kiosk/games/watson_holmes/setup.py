"""The Watson & Holmes set-up form: case, player count and names (default names), the expert and play-on
variants; made once and kept for the next W&H screen (kiosk/widgets/kept_form.py)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from kiosk.flows.seats import Seats
from kiosk.games.watson_holmes.protocol import WhScreen
from kiosk.widgets.kept_form import Kept, KeptForm
from kiosk.widgets.theme import BAR_CLEAR, BODY, FORM_GAP, FORM_PAD_Y, LEAD, SMALL, TButton


def label(text: str, size: str = SMALL, color: Any = None, height: float = 36, bold: bool = False) -> Label:
    lbl = Label(text=text, font_size=size, size_hint_y=None, height=dp(height), halign="left", valign="middle",
                bold=bold, shorten=True)
    if color is not None:
        lbl.color = color
    lbl.bind(size=lambda w, s: setattr(w, "text_size", s))
    return lbl


class WhSetup(KeptForm, BoxLayout):
    """Case, player count and names, expert variant; then start. Made once and kept for the next W&H screen
    (kiosk/widgets/kept_form.py); a tap changes the choices in place."""

    def __init__(self, host: WhScreen) -> None:
        super().__init__(orientation="vertical", padding=(dp(40), FORM_PAD_Y), spacing=FORM_GAP)
        self.host = host
        self.cases = host.cases()
        tr = host.tr
        self.title = label(tr("setup.title"), LEAD, height=52, bold=True)
        self.add_widget(self.title)
        rows = (len(self.cases) + 1) // 2
        # past three rows it scrolls: the right column clear of the scroll bar
        grid = GridLayout(cols=2, spacing=dp(8), size_hint_y=None, padding=(0, 0, BAR_CLEAR if rows > 3 else 0, 0))
        grid.bind(minimum_height=grid.setter("height"))
        self.case_buttons: dict[str, TButton] = {}
        self.case_texts: dict[str, tuple[str, str]] = {}  # a case's line, and its line once played here tonight
        played = tr("setup.played")
        for case in self.cases:
            kind = tr("setup.digital" if case.digital else "setup.physical")
            head = f"{case.number}. {host.pick(case.title)}"
            text = f"{head}  ·  {tr('setup.difficulty', n=case.difficulty)} · {kind}"
            # played: its name and the mark, two lines (with its difficulty and cards too, three in English, or at
            # 1024x600 in Korean: more than its button holds)
            self.case_texts[case.id] = text, f"{head}\n{played}"
            b = TButton(text=text, test_id=f"wh_case_{case.id}", size_hint_y=None, height=dp(64), font_size=SMALL)
            b.bind(on_release=lambda _w, c=case.id: self._set(case_id=c))
            grid.add_widget(b)
            self.case_buttons[case.id] = b
        scroll = ScrollView(do_scroll_x=False, size_hint_y=None, height=dp(72) * min(rows, 3) - dp(8))
        scroll.add_widget(grid)  # a café's own boxes add cases: the list scrolls past three rows
        self.add_widget(scroll)
        self.seats = Seats(self, label(tr("setup.players"), BODY, height=64), host.ctx.game.info.players, "wh",
                           lambda n: self._set(count=n), lambda n: self.host.tr("setup.player_default", n=n))
        row = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        self.expert_button = TButton(text=tr("setup.expert"), test_id="wh_expert")
        self.expert_button.bind(on_release=lambda *_: self._set(expert=not self.expert))
        row.add_widget(self.expert_button)
        self.play_on_button = TButton(text=tr("setup.play_on"), test_id="wh_play_on")
        self.play_on_button.bind(on_release=lambda *_: self._set(play_on=not self.play_on))
        row.add_widget(self.play_on_button)
        self.add_widget(row)
        self.inputs = self.seats.add_names(self, 4)
        self.add_widget(BoxLayout())
        start = TButton(text=tr("setup.start"), kind="primary", test_id="wh_start", size_hint_y=None,
                        height=dp(88), font_size=LEAD)
        start.bind(on_release=lambda *_: self.host.start_game(self.case_id, self.names(), self.expert,
                                                              self.play_on))
        self.add_widget(start)
        self.reset(host)

    def reset(self, host: Any) -> None:
        """Ready for a new W&H screen: the first case this table has not played tonight (else the first), three
        players, no variant, no typed name."""
        self.host = host
        first = host.next_case("")
        self.case_id = first.id if first is not None else self.cases[0].id if self.cases else ""
        self.count, self.expert, self.play_on = 3, False, False
        self.title.text = host.tr("setup.title")
        self.seats.clear()
        self._draw()

    def again(self, names: list[str], config: dict[str, Any]) -> None:
        """한 판 더 with every case played here tonight: the same players and variants, the case after theirs chosen,
        the played cases marked; they may choose another."""
        ids = [c.id for c in self.cases]
        last = str(config.get("case", ""))
        self.case_id = ids[(ids.index(last) + 1) % len(ids)] if last in ids else (ids[0] if ids else "")
        self.count = len(names)
        self.expert, self.play_on = bool(config.get("expert")), bool(config.get("play_on"))
        for field, name in zip(self.inputs, names, strict=False):
            field.text = name
        self.title.text = self.host.tr("setup.all_played")
        self._draw()

    def _draw(self) -> None:
        played = self.host.played_cases() if self.host is not None else set()
        for case_id, b in self.case_buttons.items():
            b.selected = case_id == self.case_id
            line, played_line = self.case_texts[case_id]
            b.text = played_line if case_id in played else line
        self.seats.draw(self.count)
        self.expert_button.selected = self.expert
        self.play_on_button.selected = self.play_on

    def _set(self, **changes: Any) -> None:
        for k, v in changes.items():
            setattr(self, k, v)
        self._draw()

    def names(self) -> list[str]:
        return self.seats.names(self.count)


KEPT: Kept[WhSetup] = Kept()
