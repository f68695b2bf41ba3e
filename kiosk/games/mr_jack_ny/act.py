"""Mr. Jack's act panel (the card just picked: its ability, the spy, an arrest or the escape, the turn's end), and
the same widgets made ahead in a frame after the pick panel shows: made in the pick's frame, they were ~25 ms of
UI-thread CPU here (~53 profiled); kept (host.keep), not shown, the pick's frame changes their texts only."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from engines.mr_jack_ny.actions import Arrest, EndTurn, Escape, UseAbility, VisitSpy
from engines.mr_jack_ny.views import JackView
from kiosk.games.mr_jack_ny.panels import MjTitle
from kiosk.widgets.keep import Fill
from kiosk.widgets.theme import BODY, LEAD, MUTED, SMALL, TLabel

PANEL = "mj_act_"  # the act panel's key with no choice open (host._center's Fill)


def _head(host: Any, box: Fill, cid: str) -> None:
    box.add(MjTitle, "title", text=host.card_name(cid), font_size=LEAD)
    box.add(TLabel, "summary", text=host.card_summary(cid), font_size=BODY)
    box.add(TLabel, "reminder", text=host.tr("act.reminder"), font_size=BODY, color=MUTED)


def _moves(box: Fill) -> Fill:
    return box.box_of(GridLayout, "moves", cols=2, spacing=dp(12), size_hint_y=None, height=dp(2 * 72 + 12))


def panel(host: Any, box: Fill, view: JackView) -> None:
    """The act panel of `view.current` into `box`."""
    cur = view.current
    if cur is None:
        return
    seat, cid = cur.seat, cur.character
    legal = host.running.legal(seat)
    _head(host, box, cid)
    if host.choice:
        host._choice_panel(box, view, host.choice, legal, seat, cid)
        return
    box.add(Widget, "gap")
    with _moves(box) as grid:
        can_ability = any(isinstance(a, UseAbility) for a in legal)
        label = host.tr("act.ability_done") if cur.ability_used else host.tr("act.ability")
        host._button(grid, label, "mj_ability", lambda: host._ability(view, seat, cid, legal), enabled=can_ability)
        host._button(grid, host.tr("act.spy"), "mj_spy", lambda: host._visit(seat), enabled=VisitSpy(seat) in legal)
        if seat in host.offered(Escape.NAME):  # the escape: a claim (private)
            host._button(grid, host.tr("act.escape"), "mj_escape", host._ask_escape, kind="danger")
        else:
            host._button(grid, host.tr("act.arrest"), "mj_arrest", host._open_arrest, kind="danger",
                         enabled=seat in host.offered(Arrest.NAME))
            ahead_later(host, "arrest")  # its choice of a suspect (a dozen widgets: ~36 ms in the arrest's tap)
        host._button(grid, host.tr("act.end"), "mj_end", lambda: host.send(EndTurn(seat)), kind="primary")


def ahead_later(host: Any, mode: str = "") -> None:
    """Ask for the act panel's widgets ("": the pick panel shows; "arrest": its choice of a suspect, the act panel
    shows) in a later frame, unless made or asked already."""
    asked = getattr(host, "act_asked", None)
    if asked is None:
        host.act_asked = asked = set()
    if f"{PANEL}{mode}/title" in host.keep or (mode in asked and len(host.pieces)):
        return
    asked.add(mode)
    host.pieces.add(partial(make_ahead, host, mode))


def _nothing() -> None:
    pass


def make_ahead(host: Any, mode: str = "") -> None:
    """The act panel's widgets (for the first card on offer; the arrest's for the card being played), kept and not
    shown, at the width they will be shown at (their texts drawn now, not in the frame that shows them)."""
    host.act_asked.discard(mode)
    if not (host.ctx.alive and host.ctx.playing) or host.table is None or f"{PANEL}{mode}/title" in host.keep:
        return
    view = host.seen()
    if mode == "arrest" and view.phase == "act" and view.current is not None:
        box = _arrest_ahead(host, view, view.current.character)
    elif mode == "" and view.phase == "pick" and view.offer:
        box = _act_ahead(host, view.offer[0])
    else:
        return
    center = host.table.ids.center
    inner = center.width - center.padding[0] - center.padding[2]
    for widget in box.items:
        widget.width = inner


def _arrest_ahead(host: Any, view: JackView, cid: str) -> Fill:
    box = Fill(host.keep, None, f"{PANEL}arrest")  # never done: what it makes is kept, not put anywhere
    _head(host, box, cid)
    box.add(MjTitle, "question", text=host.tr("act.choose_suspect", card=host.card_name(cid)), font_size=BODY)
    with box.box_of(GridLayout, "options", cols=3, spacing=dp(10)) as grid:
        for c in view.characters:
            host._button(grid, host.card_name(c.id), f"mj_choose_{c.id}", _nothing, height=64, font=SMALL)
    host._button(box, host.tr("act.cancel"), "mj_cancel", _nothing, kind="ghost", height=64)
    return box


def _act_ahead(host: Any, cid: str) -> Fill:
    box = Fill(host.keep, None, PANEL)  # never done: what it makes is kept, not put anywhere
    _head(host, box, cid)
    box.add(Widget, "gap")
    with _moves(box) as grid:
        for text, test_id, kind in (("act.ability", "mj_ability", "normal"), ("act.spy", "mj_spy", "normal"),
                                    ("act.arrest", "mj_arrest", "danger"), ("act.end", "mj_end", "primary")):
            host._button(grid, host.tr(text), test_id, _nothing, kind=kind)
    return box
