"""The Spyfall DC set-up form: seats (3-8, default names, tap one to rename), rounds, modules, deal mode,
vote mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout


class SpySetup(BoxLayout):
    host = ObjectProperty(None)
    count = NumericProperty(4)  # seats; a seat left unnamed keeps its default name ("3번 플레이어")
    rounds = NumericProperty(5)
    deal = StringProperty("digital")
    votes = StringProperty("open")
    modules = DictProperty({})  # the game's modules (game.yaml) → on/off
    ready = BooleanProperty(True)

    def toggle(self, module: str) -> None:
        self.modules[module] = not self.modules[module]

    def change_rounds(self, delta: int) -> None:
        self.rounds = max(1, min(23, int(self.rounds) + delta))

    def names(self) -> list[str]:
        tr = self.host.ctx.tr
        return [self.ids[f"name_{i}"].text.strip() or tr("spyfall.setup.name_hint", n=i + 1)
                for i in range(int(self.count))]

    def config(self) -> dict[str, Any]:
        return {"players": self.names(), "rounds": int(self.rounds),
                "modules": [m for m, on in self.modules.items() if on], "deal": self.deal, "votes": self.votes}

    def on_start_pressed(self) -> None:
        self.host.start_game(self.config())


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
