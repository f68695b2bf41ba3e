"""What every game's screen reads the running table through and acts by: its catalog, the table, its typed view,
the players' names, `send`; and the choice the shared screen is in the middle of (`Choice`), which a sent action
ends."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from engines.core import Action, Step
from kiosk.hosting import GameHost, HostContext
from kiosk.widgets.fit_scroll import FitScroll
from kiosk.widgets.kept_form import KeptForm
from kiosk.widgets.pieces import Pieces
from kiosk.widgets.winner import WinnerBanner
from table.table import Table

V = TypeVar("V")
F = TypeVar("F", bound=KeptForm)
Then = Callable[[Step[Any] | None], None]


@dataclass(frozen=True)
class Choice:
    """A choice open on the shared screen over several taps: what it is for (`mode`) and what was chosen so far (a
    seat, a card or a target)."""

    mode: str
    target: str = ""
    seat: int = -1


class GameScreen(GameHost, Generic[V]):
    """A game's screen (kiosk/HOSTING.md): `GAME` names its catalog's keys, `VIEW` its engine's typed part."""

    GAME = ""
    VIEW: type[Any] = object
    choice: Choice | None = None  # the choice open on the shared screen (none: the screen's own buttons)
    setup_form: Any = None  # the set-up form on show, kept between the game's screens (kiosk/widgets/kept_form.py)

    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, **kw)
        self.pieces = Pieces()  # a new table's parts, made one per frame

    def show_form(self, form: F) -> F:
        """The set-up form on show (it scrolls on a short window only, 1024x600)."""
        self.setup_form = form
        self.add_widget(FitScroll(form, size=self.size, pos=self.pos))  # at its size: the form laid out once
        return form

    def closing(self) -> None:
        """Its table's parts still to make are not made; the set-up form is let go, free for the next screen."""
        super().closing()
        self.pieces.cancel()
        if self.setup_form is not None:
            self.setup_form.let_go()

    def tr(self, key: str, **params: Any) -> str:
        """The game's own text (`<game>.<key>` in the catalogs), in the guests' language."""
        return self.ctx.tr(f"{self.GAME}.{key}", **params)

    @property
    def running(self) -> Table:
        """The running table (read it; act through `send`/`ctx.dispatch`)."""
        return self.ctx.table

    def seen(self, seat: int | None = None) -> V:
        """The game's part of `seat`'s view (None: the shared screen's), typed."""
        part: V = self.running.observe(seat).part(self.VIEW)
        return part

    def names(self) -> list[str]:
        """The players' names, by seat."""
        return [p.name for p in self.running.observe(None).players]

    def offered(self, action: str) -> set[int]:
        """The seats the table may be offered `action` for now: the view's public offers (never a seat's legal
        actions, which may depend on its secret)."""
        return {o.seat for o in self.running.observe(None).table if o.action == action}

    def banner(self, into: Any, names: str, line: str, nobody: str = "") -> None:
        """The results' banner, the same in every game: who won (`names`; `nobody` when none did), `line` under it;
        kept in `into` (a Fill: kiosk/widgets/keep.py) while its texts stay."""
        head = self.ctx.tr("results.winner", names=names) if names or not nobody else nobody
        into.built("winner", (head, line), lambda: WinnerBanner(head, line))

    def send(self, action: Action, question: str = "", then: Then | None = None, danger: bool = False) -> Step[Any] | None:
        """Send through the hosting layer (a FINAL action asks `question` first); the open choice is over."""
        self.choice = None
        return self.ctx.dispatch(action, question, then, danger)


def closing(done: Callable[[], None]) -> Then:
    """A `then` for `send` from a seat's private screen: the screen closes once the table took the action (a
    refusal leaves it open, its toast saying why)."""
    return lambda step: done() if step is not None else None
