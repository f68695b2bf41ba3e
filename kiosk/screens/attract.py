"""Attract / home: the first thing a new table sees."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class AttractScreen(Screen):
    pass
