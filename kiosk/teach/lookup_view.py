"""The rule look-up dialog ("?" on every game screen): typed search, the answer, related rules, read aloud."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from kiosk.teach import speech
from kiosk.teach.lookup import Answer, index, overlay_for
from kiosk.teach.model import RulePiece
from kiosk.widgets.keyboard import lines_now
from kiosk.widgets.one_use import OneUse
from kiosk.widgets.theme import ACCENT, BG, BODY, LEAD, MUTED, PANEL, SMALL, TEXT, TButton, TLabel


def current_game_id(app: Any) -> str | None:
    """The game the guests are looking at: the open screen's game, else the running table's."""
    screen = app.sm.current_screen
    game_id = getattr(screen, "game_id", "") or ""
    if not game_id and getattr(app, "table", None) is not None and app.table.playing:
        game_id = app.table.game.id
    return game_id or None


class RuleLookup(OneUse):
    reused = True  # opened again for the same game and language; retired when replaced (kiosk.widgets.one_use)

    def __init__(self, game_id: str | None = None, query: str = "", **kw: Any) -> None:
        super().__init__(size_hint=(0.92, 0.9), auto_dismiss=True, background_color=(0, 0, 0, 0.7), **kw)
        self.app = App.get_running_app()
        self.game_id = game_id
        self.shown: Answer | None = None
        lang = self.app.lang
        tr = self.app.tr
        root = BoxLayout(orientation="vertical", padding=dp(20), spacing=dp(12))
        from kivy.graphics import Color, RoundedRectangle

        with root.canvas.before:
            Color(*BG)
            self._bg = RoundedRectangle(radius=[dp(18)])
        root.bind(pos=lambda w, _v: setattr(self._bg, "pos", w.pos), size=lambda w, _v: setattr(self._bg, "size", w.size))
        top = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(12))
        top.add_widget(Label(text=tr("lookup.title"), font_size=LEAD, bold=True, color=ACCENT,
                             size_hint_x=None, width=dp(220), halign="left", valign="middle",
                             text_size=(dp(220), dp(64))))
        self.input = TextInput(hint_text=tr("lookup.hint"), multiline=False, font_size=BODY,
                               background_color=PANEL, foreground_color=TEXT, cursor_color=ACCENT,
                               padding=[dp(14), dp(16)])
        self.input.test_id = "lookup_input"
        lines_now(self.input)
        # searched in the next frame: a typed letter shows first, and quick taps make one search
        searching = Clock.create_trigger(lambda _dt: self.search(self.input.text), 0)
        self.input.bind(text=lambda *_: searching())
        top.add_widget(self.input)
        close = TButton(text=tr("lookup.close"), size_hint_x=None, width=dp(130), test_id="lookup_close")
        close.bind(on_release=lambda *_: self.dismiss(animation=False))
        top.add_widget(close)
        root.add_widget(top)
        body = BoxLayout(spacing=dp(16))
        self.hits_box = BoxLayout(orientation="vertical", spacing=dp(8), size_hint_x=0.36)
        body.add_widget(self.hits_box)
        scroll = ScrollView(do_scroll_x=False)
        self.detail = BoxLayout(orientation="vertical", spacing=dp(10), size_hint_y=None, padding=[dp(4), 0])
        self.detail.bind(minimum_height=self.detail.setter("height"))
        scroll.add_widget(self.detail)
        body.add_widget(scroll)
        root.add_widget(body)
        self.add_widget(root)
        self.lang = lang
        if query:
            self.input.text = query
        else:
            self.search("")

    def search(self, text: str) -> None:
        hits = index(self._overlay()).search(text, self.game_id, limit=5) if text.strip() else []
        self.hits_box.clear_widgets()
        for i, hit in enumerate(hits):
            btn = TButton(text=hit.piece.title.get(self.lang), size_hint_y=None, height=dp(64), font_size=SMALL,
                          test_id=f"lookup_hit_{i}", selected=(i == 0))
            btn.bind(on_release=lambda _b, h=hit: self.show(h.game_id, h.piece))
            self.hits_box.add_widget(btn)
        from kivy.uix.widget import Widget

        self.hits_box.add_widget(Widget())
        if hits:
            self.show(hits[0].game_id, hits[0].piece)
        else:
            self.shown = None
            self.detail.clear_widgets()
            if text.strip():
                self.detail.add_widget(TLabel(text=self.app.tr("lookup.none"), color=MUTED, font_size=BODY))

    def _overlay(self) -> Any:
        return overlay_for(getattr(self.app, "data_dir", None))

    def show(self, game_id: str, piece: RulePiece) -> None:
        idx = index(self._overlay())
        related = tuple(p for p in (idx.piece(game_id, r) for r in piece.related) if p is not None)
        self.shown = Answer(game_id, piece, related)
        for child in self.hits_box.children:
            if isinstance(child, TButton):
                child.selected = child.text == piece.title.get(self.lang)
        d = self.detail
        d.clear_widgets()
        d.add_widget(TLabel(text=piece.title.get(self.lang), font_size=LEAD, bold=True, color=ACCENT))
        d.add_widget(TLabel(text=piece.text.get(self.lang), font_size=BODY))
        read = TButton(text=self.app.tr("lookup.read"), size_hint_y=None, height=dp(60), test_id="lookup_read")
        read.bind(on_release=lambda *_: self.read_aloud())
        d.add_widget(read)
        if related:
            d.add_widget(TLabel(text=self.app.tr("lookup.related"), color=MUTED, font_size=SMALL))
            for p in related:
                btn = TButton(text=p.title.get(self.lang), size_hint_y=None, height=dp(58), kind="ghost",
                              test_id=f"lookup_related_{p.id}")
                btn.bind(on_release=lambda _b, p=p: self.show(game_id, p))
                d.add_widget(btn)

    def read_aloud(self) -> bool:
        if self.shown is None:
            return False
        return speech.speak(self.app, self.shown.segments(self.lang))


_kept: list[RuleLookup] = []  # the last dialog, opened again for the same game and language


def open_lookup(query: str = "", game_id: str | None = None) -> RuleLookup:
    """Open the look-up dialog (from the "?" button, or from voice with the recognised query): the last one
    again, search field reset, when it was for the same game and language (made anew: 20-40 ms of
    UI-thread CPU here, its text field alone several)."""
    app = App.get_running_app()
    game_id = game_id or current_game_id(app)
    view = _kept[0] if _kept else None
    if view is not None and view.game_id == game_id and view.lang == app.lang:
        if view.input.text != query:
            view.input.text = query  # searched in the next frame
        view.input.focus = False
        view.detail.parent.scroll_y = 1
        if view._is_open:  # asked again while on show (voice's 도움말): the same dialog, not a second on top
            return view
    else:
        if view is not None:
            view.retire()  # shown no more: taken apart in a pause
        view = RuleLookup(game_id, query)
        _kept[:] = [view]
    view.open(animation=False)
    return view


class HelpButton(TButton):
    """The "?" button for every game screen's top bar: opens the rule look-up for the game on screen."""

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("test_id", "help")
        super().__init__(**kw)
        app = App.get_running_app()
        self.text = app.tr("lookup.help") if app is not None else "?"
        self.font_size = LEAD
        self.bold = True

    def on_release(self) -> None:
        open_lookup()
