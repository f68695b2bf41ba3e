"""The shared screen of a game that has no screen of its own, drawn only from the engine's declarations.

Set-up: the player count from content (game.yaml), each seat with a default name. Play: the phase, whom
the game waits for, the scores, and one button per action the table is offered (`View.table`); an
action with several values lists them, labelled from the FieldSpecs and the view's catalogs (the
phones' labeller). A player's own moves — PRIVATE ones included — open only in that player's private
channel (their phone, or the tablet handed to them), where a refusal tells nothing they do not know.
FINAL actions ask first. Timeouts need nothing here: the table fires the engine's deadlines.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from engines.core import TABLE, Action, Step
from kiosk.flows.seats import Seats
from kiosk.hosting import GameHost, HostContext
from kiosk.widgets.buttons import button
from kiosk.widgets.theme import ACCENT, BODY, LEAD, MUTED, SMALL, TLabel
from kiosk.widgets.winner import WinnerBanner
from phones.labels import Catalogs, Labeller, fill_free


def _label(text: str, size: str = BODY, color: Any = None, height: float = 44) -> TLabel:
    lab = TLabel(text=text, font_size=size, size_hint_y=None, height=dp(height))
    if color is not None:
        lab.color = color
    return lab


class GenericHost(GameHost):
    def __init__(self, ctx: HostContext, **kw: Any) -> None:
        super().__init__(ctx, padding=dp(24), spacing=dp(12), **kw)
        self.labeller = Labeller(Catalogs.load(), ctx.game.id)
        lo, _hi = ctx.game.info.players
        self.count = lo
        if not ctx.playing:
            self.show_setup()

    # ------------------------------------------------------------ helpers
    def text(self, entry: Mapping[str, Any]) -> str:
        return self.labeller.words(entry, self.ctx.lang)

    def names(self) -> list[str]:
        return [p["name"] for p in self.ctx.table.view(None)["common"]["players"]]

    # ------------------------------------------------------------ set-up
    def show_setup(self) -> None:
        self.clear_widgets()
        self.add_widget(_label(self.ctx.game.info.name.get(self.ctx.lang), LEAD, ACCENT, 56))
        self.add_widget(_label(self.ctx.tr("host.generic.players"), BODY))
        Seats(self, None, self.ctx.game.info.players, "gen", self._count, height=72).draw(self.count)
        self.add_widget(Widget())
        button(self, self.ctx.tr("host.generic.start"), "gen_start", self.start, "primary", height=72)

    def _count(self, n: int) -> None:
        self.count = n
        self.show_setup()

    def start(self) -> None:
        names = [self.ctx.tr("host.generic.seat", n=i + 1) for i in range(self.count)]
        self.ctx.start({"players": names})

    # ------------------------------------------------------------ play
    def refresh(self, step: Step[Any] | None) -> None:
        session = self.ctx.table
        if not self.ctx.playing:
            self.show_setup()
            return
        self.clear_widgets()
        view = session.view(None)
        common = view["common"]
        names = [p["name"] for p in common["players"]]
        outcome = session.outcome
        if outcome is not None:  # the same banner as every game's results (the sound: HostContext.celebrate)
            winners = ", ".join(names[s] for s in outcome.winners)
            scores = "   ".join(f"{n} {s}" for n, s in zip(names, common["scores"], strict=False))
            self.add_widget(WinnerBanner(self.ctx.tr("results.winner", names=winners) if winners
                                         else self.ctx.tr("results.nobody"), scores))
            self.add_widget(Widget())
            button(self, self.ctx.tr("host.end"), "gen_end", self.ctx.end_game, "primary", height=72)
            return
        game = self.ctx.game.id
        phase = self.ctx.tr(f"{game}.phase.{common['phase']}")
        self.add_widget(_label(phase if "." not in phase else common["phase"], LEAD, ACCENT, 52))
        waiting = sorted({names[p["seat"]] for p in common["prompts"] if p["seat"] >= 0})
        if waiting:
            self.add_widget(_label(self.ctx.tr("host.generic.waiting", names=", ".join(waiting)), BODY, MUTED))
        if common["scores"]:
            scores = "   ".join(f"{n} {s}" for n, s in zip(names, common["scores"], strict=False))
            self.add_widget(_label(scores, BODY))
        grid = GridLayout(cols=2, spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        seen: set[tuple[int, str]] = set()
        for offer in common["table"]:
            key = (offer["seat"], offer["action"])
            if key in seen:
                continue
            seen.add(key)
            label = self.labeller.group_label(offer["action"]).get(self.ctx.lang, offer["action"])
            who = "" if offer["seat"] == TABLE else names[offer["seat"]] + ": "
            # a claim: its owner's private channel decides
            pick = partial(self.mine, offer["seat"]) if offer.get("private") else partial(
                self.choose, offer["seat"], offer["action"])
            button(grid, who + label, f"gen_offer_{offer['action']}_{offer['seat']}", pick, height=72)
        for seat in sorted({p["seat"] for p in common["prompts"] if p["seat"] >= 0}):
            button(grid, self.ctx.tr("host.generic.mine", name=names[seat]), f"gen_mine_{seat}",
                   partial(self.mine, seat), "ghost", height=72)
        scroll = ScrollView()
        scroll.add_widget(grid)
        self.add_widget(scroll)

    def choose(self, seat: int, name: str) -> None:
        """An offered action: one value → send it; several → list them (the values of an action that is
        not PRIVATE never depend on a secret: the conformance tests check it)."""
        actions = [a for a in self.ctx.table.legal(seat) if a.NAME == name]
        entries = self.labeller.entries(actions, self.ctx.table.view(None))
        if len(entries) == 1 and not entries[0]["free"]:
            self.go(actions[entries[0]["id"]], self.text(entries[0]))
            return
        self.clear_widgets()
        self.add_widget(_label(self.labeller.group_label(name).get(self.ctx.lang, name), LEAD, ACCENT, 52))
        self.add_widget(self._entries(actions, entries, self.go))
        button(self, self.ctx.tr("host.generic.back"), "gen_back", lambda: self.refresh(None), "ghost", height=72)

    def _entries(self, actions: Sequence[Action], entries: Sequence[Mapping[str, Any]],
                 pick: Callable[[Action, str], None]) -> ScrollView:
        grid = GridLayout(cols=2, spacing=dp(8), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for entry in entries:
            action = actions[entry["id"]]
            if entry["free"]:
                grid.add_widget(self._form(action, entry, pick))
            else:
                button(grid, self.text(entry), f"gen_pick_{entry['id']}",
                       partial(self._picked, pick, action, entry), height=72)
        scroll = ScrollView()
        scroll.add_widget(grid)
        return scroll

    def _picked(self, pick: Callable[[Action, str], None], action: Action, entry: Mapping[str, Any]) -> None:
        pick(action, self.text(entry))

    def _form(self, action: Action, entry: Mapping[str, Any], pick: Callable[[Action, str], None]) -> BoxLayout:
        """Text typed by the player (an answer): one field per string the action takes."""
        box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6))
        inputs: list[tuple[str, bool, TextInput]] = []
        for spec in entry["free"]:
            for _ in range(spec["count"] or 1):
                field = TextInput(multiline=False, size_hint_y=None, height=dp(56), font_size=BODY)
                box.add_widget(field)
                inputs.append((spec["field"], spec["count"] is not None, field))

        def submit() -> None:
            typed: dict[str, Any] = {}
            for name, many, field in inputs:
                if many:
                    typed.setdefault(name, []).append(field.text)
                else:
                    typed[name] = field.text
            try:
                filled = fill_free(action, typed, entry, self.ctx.table.engine.action_from_dict)
            except (ValueError, KeyError):
                return
            pick(filled, self.text(entry))

        button(box, self.text(entry), f"gen_form_{entry['id']}", submit, "primary", height=72)
        box.height = dp(62) * len(inputs) + dp(80)
        return box

    def mine(self, seat: int) -> None:
        """The player's own moves, in their private channel only."""
        name = self.names()[seat]

        def content(done: Callable[[], None]) -> Widget:
            actions = self.ctx.table.legal(seat)
            view = self.ctx.table.view(seat)
            entries = self.labeller.entries(actions, view)
            box = BoxLayout(orientation="vertical", spacing=dp(8))
            for widget in self._parts(view):
                box.add_widget(widget)
            if not entries:
                box.add_widget(_label(self.ctx.tr("host.generic.no_moves"), BODY, MUTED))
            else:
                def pick(a: Action, text: str) -> None:
                    done()
                    self.go(a, text)

                box.add_widget(self._entries(actions, entries, pick))
            button(box, self.ctx.tr("host.generic.back"), "gen_private_back", done, "ghost", height=72)
            return box

        self.ctx.private(name, content, None, "input", seat=seat)

    def _parts(self, view: Mapping[str, Any]) -> list[Widget]:
        """The seat's private part (its card, hand, notes…) from the view's display parts, as the phones
        draw it: a label, a title, lines; a list's items on one line, its cards one line each."""
        def say(words: Mapping[str, str]) -> str:
            return words.get(self.ctx.lang) or words["ko"]

        def text(words: str, size: str = BODY, color: Any = None) -> TLabel:
            lab = TLabel(text=words, font_size=size)
            if color is not None:
                lab.color = color
            return lab

        out: list[Widget] = []
        for part in self.labeller.parts(view):
            out.append(text(say(part["label"]), BODY, MUTED))
            if part.get("title"):
                out.append(text(say(part["title"]), LEAD, ACCENT))
            if part.get("items"):
                out.append(text("  ·  ".join(say(w) for w in part["items"])))
            out += [text(say(w)) for w in part.get("lines", ())]
            for card in part.get("cards", ()):
                out.append(text(" · ".join(x for x in (say(card["label"]), say(card["title"])) if x)))
                out += [text(say(w), SMALL, MUTED) for w in card.get("lines", ())]
        return out

    def go(self, action: Action, text: str) -> None:
        self.ctx.dispatch(action, self.ctx.tr("host.generic.confirm", what=text))
