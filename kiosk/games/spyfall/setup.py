"""The Spyfall DC set-up form: seats (the game's player range from game.yaml, default names, tap one to
rename), rounds, modules (game.yaml's list), deal mode, vote mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.flows.seats import options, select, weigh_by_text
from kiosk.widgets.kept_form import Kept, KeptForm, clear_fields
from kiosk.widgets.pieces import Pieces
from kiosk.widgets.theme import SMALL


class SpySetup(KeptForm, BoxLayout):
    host = ObjectProperty(None, allownone=True)  # None once its screen closed (kept for the next one)
    count = NumericProperty(4)  # seats; a seat left unnamed keeps its default name ("플레이어 3")
    rounds = NumericProperty(5)
    deal = StringProperty("digital")
    votes = StringProperty("open")
    modules = DictProperty({})  # the game's modules (game.yaml) → on/off
    ready = BooleanProperty(True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        lo, hi = self.host.ctx.game.info.players
        self.count = max(lo, min(hi, int(self.count)))
        self.count_buttons = options(self.ids.counts, [(n, str(n), f"spy_count_{n}") for n in range(lo, hi + 1)],
                                     lambda n: setattr(self, "count", n), size_hint_x=None, width=dp(64))
        # the name fields of the seats in play now, the others one per frame after (a text field costs 5-10 ms of
        # UI-thread CPU to make here: eight made in the frame of the tap took half of it); the grid keeps the
        # height of all of them from the start, so nothing below it moves as they come
        rows = -(-hi // self.ids.names.cols)
        self.ids.names.height = rows * dp(56) + (rows - 1) * dp(8)
        self.fields: list[Any] = []
        self.pieces = Pieces()
        for i in range(hi):
            if i < self.count:
                self._add_field()
            else:
                self.pieces.add(self._add_field)
        self.module_buttons = options(self.ids.modules_row, [(m, "", f"spy_mod_{m}") for m in self.modules],
                                      self.toggle, font_size=SMALL)
        self.defaults = (self.count, self.rounds, self.deal, self.votes)
        self.bind(count=lambda *_: self._drop_what_cannot_apply(), modules=lambda *_: self._draw())
        app = App.get_running_app()
        if app is not None:  # a bound method: Kivy holds it weakly (a lambda kept every old form, and its
            app.bind(lang=self._lang_changed)  # game screen, alive for good: found by the soak's widget count)
        self._draw()

    def reset(self, host: Any) -> None:
        """Ready for a new Spyfall screen: nothing of the last table's choices or typed names is kept."""
        self.host = host
        self.pieces.finish()
        clear_fields(self.fields, [f"spy_name_{i}" for i in range(len(self.fields))])
        self.count, self.rounds, self.deal, self.votes = self.defaults
        self.modules = {m: False for m in host.ctx.game.info.modules}
        self._draw()

    def let_go(self) -> None:
        self.pieces.finish()  # its fields, while the form still knows its game
        super().let_go()

    def _add_field(self) -> None:
        field = Factory.SpyName(size_hint_y=None, height=dp(56))
        field.test_id = f"spy_name_{len(self.fields)}"
        self.fields.append(field)
        self.ids.names.add_widget(field)
        self._draw_field(len(self.fields) - 1)

    def _lang_changed(self, *_: Any) -> None:
        if self.host is not None:  # kept off screen: redrawn when a screen takes it back
            self._draw()

    def _draw_field(self, i: int) -> None:
        field = self.fields[i]
        field.hint_text = self.host.ctx.tr("spyfall.setup.name_hint", n=i + 1)
        field.disabled = i >= self.count
        field.opacity = 1 if i < self.count else 0  # a seat not in play is no field to read (a toast may go there)

    def _draw(self) -> None:
        tr = self.host.ctx.tr
        if len(self.fields) < self.count:  # more seats before the last fields came: made now
            self.pieces.finish()
        select(self.count_buttons, self.count)
        for i in range(len(self.fields)):
            self._draw_field(i)
        config = self.config()
        refusal = self.host.ctx.setup_refusal
        base_ok = refusal(config) == ""  # (else the start's own refusal says what is wrong: the names)
        whys = []
        names = {m: tr(f"spyfall.module.{m}") for m in self.module_buttons}
        if any(b.text != names[m] for m, b in self.module_buttons.items()):
            for m, b in self.module_buttons.items():
                b.text = names[m]
            # shared out by their words, each on one line (alike, at 1024x600 two English names wrapped)
            weigh_by_text(self.module_buttons.values())
        for m, b in self.module_buttons.items():
            # an option that cannot apply now is greyed with the engine's reason (kept on show below the row)
            on = bool(self.modules[m])
            why = refusal({**config, "modules": [*config["modules"], m]}) if base_ok and not on else ""
            b.selected = on
            b.disabled, b.why = bool(why), why
            whys += [why] if why else []
        self.ids.modules_why.text = " ".join(dict.fromkeys(whys))

    def toggle(self, module: str) -> None:
        self.modules[module] = not self.modules[module]
        self._drop_what_cannot_apply()
        self.change_rounds(0)  # fewer decks in play may lower the most rounds

    def _drop_what_cannot_apply(self) -> None:
        """A module chosen that no longer applies (fewer seats than Harley Quinn needs) is switched off; the draw
        then greys it with the reason."""
        for m in [m for m, on in self.modules.items() if on]:
            config = self.config()
            if self.host.ctx.setup_refusal({**config, "modules": [x for x in config["modules"] if x != m]}) == "" \
                    and self.host.ctx.setup_refusal(config):
                self.modules[m] = False
        self._draw()

    def change_rounds(self, delta: int) -> None:
        lo, hi = self.host.ctx.setup_limits(self.config())["rounds"]  # the engine's: decks the modules bring
        self.rounds = max(lo, min(hi, int(self.rounds) + delta))

    def names(self) -> list[str]:
        tr = self.host.ctx.tr
        return [self.fields[i].text.strip() or tr("spyfall.setup.name_hint", n=i + 1) for i in range(int(self.count))]

    def config(self) -> dict[str, Any]:
        return {"players": self.names(), "rounds": int(self.rounds),
                "modules": [m for m, on in self.modules.items() if on], "deal": self.deal, "votes": self.votes}

    def on_start_pressed(self) -> None:
        self.host.start_game(self.config())


KEPT: Kept[SpySetup] = Kept()


def form_for(host: Any) -> SpySetup:
    """The set-up form of a new Spyfall screen (kiosk/widgets/kept_form.py): making it (its kv rules, a dozen
    buttons, the name fields) and drawing its texts took 35-45 ms of UI-thread CPU in the frame of the tap."""
    info = host.ctx.game.info
    modules = {m: False for m in info.modules}
    return KEPT.take(host, (*info.players, tuple(modules)), lambda: SpySetup(host=host, modules=modules))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
