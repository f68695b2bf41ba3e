"""What the set-up form and the private flows need of the Watson & Holmes screen (kiosk/games/watson_holmes/
host.py), so that they import nothing of it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from kivy.uix.modalview import ModalView

from engines.core import Action, Step
from engines.watson_holmes.content import Case, Text
from engines.watson_holmes.views import WhView
from kiosk.hosting import HostContext
from table.table import Table


class WhScreen(Protocol):
    ctx: HostContext

    @property
    def running(self) -> Table: ...

    def tr(self, key: str, **params: Any) -> str: ...

    def pick(self, text: Text | None) -> str: ...

    def cases(self) -> list[Case]: ...

    def seen(self, seat: int | None = None) -> WhView: ...

    def case(self) -> Case: ...

    def played_cases(self) -> set[str]: ...

    def next_case(self, after: str) -> Case | None: ...

    def name(self, seat: int) -> str: ...

    def send(self, action: Action, question: str = "", then: Callable[[Step[Any] | None], None] | None = None,
             danger: bool = False) -> Step[Any] | None: ...

    def start_game(self, case_id: str, names: list[str], expert: bool, play_on: bool = False) -> None: ...

    def close_menu(self, menu: ModalView) -> None: ...
