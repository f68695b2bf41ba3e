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
from kiosk.widgets.theme import BODY, LEAD, MUTED, TLabel

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
        host._button(grid, host.tr("act.end"), "mj_end", lambda: host.send(EndTurn(seat)), kind="primary")


def ahead_later(host: Any) -> None:
    """Ask for the act panel's widgets in a later frame (the pick panel shows), unless made or asked already."""
    if f"{PANEL}/title" in host.keep or (getattr(host, "act_asked", False) and len(host.pieces)):
        return
    host.act_asked = True
    host.pieces.add(partial(make_ahead, host))


def _nothing() -> None:
    pass


def make_ahead(host: Any) -> None:
    """The act panel's widgets for the first card on offer, kept and not shown, at the width they will be shown at
    (their texts drawn now, not in the pick's frame)."""
    host.act_asked = False
    if not (host.ctx.alive and host.ctx.playing) or host.table is None or f"{PANEL}/title" in host.keep:
        return
    view = host.seen()
    if view.phase != "pick" or not view.offer:
        return
    box = Fill(host.keep, None, PANEL)  # never done: what it makes is kept, not put anywhere
    _head(host, box, view.offer[0])
    box.add(Widget, "gap")
    with _moves(box) as grid:
        for text, test_id, kind in (("act.ability", "mj_ability", "normal"), ("act.spy", "mj_spy", "normal"),
                                    ("act.arrest", "mj_arrest", "danger"), ("act.end", "mj_end", "primary")):
            host._button(grid, host.tr(text), test_id, _nothing, kind=kind)
    center = host.table.ids.center
    inner = center.width - center.padding[0] - center.padding[2]
    for widget in box.items:
        widget.width = inner
