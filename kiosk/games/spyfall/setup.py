"""The Spyfall DC set-up form: names (3-8), rounds, modules, deal mode, vote mode."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.lang import Builder
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

MODULES = ("power_up", "harley", "prank", "multiverse")


class SpySetup(BoxLayout):
    host = ObjectProperty(None)
    rounds = NumericProperty(5)
    deal = StringProperty("digital")
    votes = StringProperty("open")
    modules = DictProperty({m: False for m in MODULES})
    ready = BooleanProperty(True)

    def toggle(self, module: str) -> None:
        self.modules[module] = not self.modules[module]

    def change_rounds(self, delta: int) -> None:
        self.rounds = max(1, min(23, int(self.rounds) + delta))

    def names(self) -> list[str]:
        boxes = [self.ids[f"name_{i}"] for i in range(8)]
        return [b.text.strip() for b in boxes if b.text.strip()]

    def config(self) -> dict[str, Any]:
        return {"players": self.names(), "rounds": int(self.rounds),
                "modules": [m for m in MODULES if self.modules[m]], "deal": self.deal, "votes": self.votes}

    def on_start_pressed(self) -> None:
        self.host.start_game(self.config())


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
