"""The generic host frame: top bar (back, title, undo, end game) around the game's own host widget,
or a "coming soon" page while a game has no host module. No rules logic here."""

from __future__ import annotations

import importlib
import logging
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp, dpi2px
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk import gc_policy
from kiosk.generic_host import GenericHost
from kiosk.hosting import GameHost, HostContext
from kiosk.staff_call import calls_of
from kiosk.teach.lookup_view import HelpButton  # noqa: F401  (used in host.kv)
from kiosk.widgets.dismantle import closed_widgets, forget_detached_field
from kiosk.widgets.theme import LEAD, PHONES_BUTTON, SMALL, TEXT

Builder.load_file(str(Path(__file__).with_suffix(".kv")))
log = logging.getLogger(__name__)


def host_class(game_id: str) -> type[GameHost] | None:
    """The game's host widget class; a game without a kiosk module gets the generic screen, drawn from
    its engine's declarations (kiosk/generic_host.py)."""
    try:
        module = importlib.import_module(f"kiosk.games.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name in (f"kiosk.games.{game_id}",):
            return GenericHost
        raise
    cls = getattr(module, "HOST", None)
    return cls if isinstance(cls, type) and issubclass(cls, GameHost) else None


def title_fit(text: str, font: str, width: float, height: float) -> tuple[str, int, float] | None:
    """The largest (font size, lines) of LEAD on one line, SMALL on one line and SMALL on two lines broken between
    words at which bold `text` fits `width` x `height` whole, with the width its longest line takes (two lines: the
    break that makes them most even, 'Mr. Jack in / New York'); None if none does."""
    from kivy.core.text import Label as CoreLabel

    words = text.split()
    for size, most in ((LEAD, 1), (SMALL, 1), (SMALL, 2)):
        core = CoreLabel(font_size=dpi2px(size[:-2], "sp"), bold=True, font_name=font)
        if most * core.get_extents(text or " ")[1] > height:
            continue
        splits = [(words,)] if most == 1 else [(words[:i], words[i:]) for i in range(1, len(words))]
        used = min((max(core.get_extents(" ".join(line))[0] for line in lines) for lines in splits), default=None)
        if used is not None and used <= width:
            return size, most, used
    return None


def _closed(widget: Any) -> list[Any]:
    """A game's screen going for good: `closing()` (a failure logged, never raised) and its widgets, parents first,
    for the collector to take apart."""
    try:
        widget.closing()
    except Exception:
        log.exception("the game's screen did not close cleanly")
    return closed_widgets(widget)


class Rows(BoxLayout):
    """A vertical BoxLayout in which a fixed-height row that is empty (0 high: the staff-call sign, the results'
    buttons until they show) takes no room at all, not even the spacing (a BoxLayout gives every child its gap:
    24 px lost on every game screen); shown, it is laid out as usual."""

    def do_layout(self, *largs: Any) -> None:
        empty = [c for c in self.children if c.size_hint_y is None and c.height <= 0]
        if not empty:
            super().do_layout(*largs)
            return
        shown = [c for c in self.children if all(c is not e for e in empty)]
        for i, x, y, w, h in self._iterate_layout([(c.size, c.size_hint, c.pos_hint, c.size_hint_min,
                                                     c.size_hint_max) for c in shown]):
            c = shown[i]
            c.pos = x, y
            if c.size_hint_x is not None:
                c.width = w
            if c.size_hint_y is not None:
                c.height = h
        left, _top, right, _bottom = self.padding
        for c in empty:  # where it would show, at the top of the row below it (children run bottom to top)
            below = [s for s in self.children[:self.children.index(c)] if all(s is not e for e in empty)]
            c.pos = self.x + left, below[-1].top if below else self.y + self.padding[3]
            if c.size_hint_x is not None:
                c.width = (self.width - left - right) * c.size_hint_x


class HostScreen(Screen):
    game_id = StringProperty("")
    ctx = ObjectProperty(None, allownone=True)
    host_widget = ObjectProperty(None, allownone=True)
    compact = BooleanProperty(False)  # the bar's back, 휴대폰 and undo as icons alone (HostScreen._fit_title)
    prepared: tuple[str, str] | None = None  # (game, language) of a screen built by `prepare`, not shown since
    made_for: tuple[str, str, bool] | None = None  # the game's screen built: (game, language, staff mode)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        # a screen built while another game is open (`prepare`): (game, language, staff mode), its context, its widget
        self._ahead: tuple[tuple[str, str, bool], HostContext, GameHost] | None = None
        self._holder = Widget()  # where it is kept until shown: not on show, never in the window

    def open_game(self, game_id: str) -> None:
        app = App.get_running_app()
        if self.shows_as_is(game_id):
            self.prepared = None
            self._sync_bar()
            return
        game = app.library.games[game_id]
        ahead = self._take_ahead(game_id)
        self.game_id = game_id
        body = self.ids.body
        self.clear_body()
        self.ids.title.text = game.info.name.get(app.lang)
        self.ctx, host = ahead or self._build(game)
        app.table.subscribe(self._on_table)  # the results' way on follows the table (once: subscribe dedups)
        self.host_widget = host
        if host is None:
            msg = Label(text=app.tr("host.coming_soon", game=game.info.name.get(app.lang)), font_size=LEAD,
                        halign="center", valign="middle", color=TEXT)
            msg.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - 40, None)))
            body.add_widget(msg)
            self._sync_bar()
            return
        self.made_for = (game_id, app.lang, bool(app.staff_mode))
        if host.parent is not None:
            host.parent.remove_widget(host)
        body.add_widget(host)
        if self.ctx.playing:
            self.ctx.attach()
        self._sync_bar()

    def _build(self, game: Any) -> tuple[HostContext, GameHost | None]:
        """A context for `game` and its screen (None: no host module yet), made at the size the body shows it at: a
        set-up form in it is laid out once, not at Kivy's default 100x100 first (every wrapped text then drawn twice
        in the opening tap's frame)."""
        app = App.get_running_app()
        ctx = HostContext(app, game)
        cls = host_class(game.id) if game.playable else None
        body = self.ids.body
        ctx.host = cls(ctx, size=body.size, pos=body.pos) if cls is not None else None
        return ctx, ctx.host

    def _take_ahead(self, game_id: str) -> tuple[HostContext, GameHost] | None:
        """The screen built ahead for `game_id` (`prepare` while another game was open), if made in the language and
        staff mode now on; taken out of its holder's keeping either way."""
        app = App.get_running_app()
        ahead, self._ahead = self._ahead, None
        if ahead is None:
            return None
        made_for, ctx, host = ahead
        if made_for == (game_id, app.lang, bool(app.staff_mode)) and ctx.alive:
            return ctx, host
        self._drop((ctx, host))
        return None

    def shows_as_is(self, game_id: str) -> bool:
        """Whether the screen built for `game_id` is shown again as it is, not made anew (in that language and staff
        mode): built behind its page (`prepare`) with no game open, or its game's, still following the table (the
        guests went to the game's page or the teaching and came back: the board as they left it, and the tap's frame
        does not build it again, 15-26 ms of UI-thread CPU in bench/frames.py)."""
        app = App.get_running_app()
        ctx, widget = self.ctx, self.host_widget
        if widget is None or ctx is None or self.made_for != (game_id, app.lang, bool(app.staff_mode)):
            return False
        if ctx.playing:
            return ctx.alive and ctx.host is widget
        return self.prepared == (game_id, app.lang) and not app.table.playing

    def prepare(self, game_id: str) -> GameHost | None:
        """Build `game_id`'s screen (its set-up form) at the size it is shown at while the game's page is on show, so
        the tap that opens it only shows it: made, laid out and drawn in the tap's frame it was the slowest frame a
        guest felt (Clue's 25-37 ms of UI-thread CPU in bench/frames.py: layout, its texts, the first drawing).
        With another game open at the table, it is built aside (`_ahead`, in a holder not on show): the open game's
        screen stays as it is, voice commands from the page still reach it, until the tap. Not for the game open at
        the table (its screen is shown again as left), nor while the host frame is on show. Kept for the next
        `open_game` of that game in that language only while the page stays on show (`forget_prepared`). The
        screen built, or None."""
        app = App.get_running_app()
        game = app.library.games.get(game_id)
        table = app.table
        if app.sm.current == "host" or game is None or not game.playable or (
                table.playing and table.game.id == game_id):
            return None
        self.pos, self.size = app.sm.pos, app.sm.size
        self.prepared = None
        if not table.playing:
            self.open_game(game_id)
            self.prepared = (game_id, app.lang)
            shown: GameHost | None = self.host_widget
            return shown
        self._drop_ahead()
        ctx, host = self._build(game)
        if host is None:
            ctx.detach()
            return None
        self._holder.add_widget(host)  # laid out at the body's size (its layouts run off the window too)
        self._ahead = ((game_id, app.lang, bool(app.staff_mode)), ctx, host)
        self.prepared = (game_id, app.lang)
        return host

    def prepared_widget(self, game_id: str) -> GameHost | None:
        """The screen `prepare` built for `game_id` in the language on show, not shown since; else None."""
        app = App.get_running_app()
        if self.prepared != (game_id, app.lang):
            return None
        if self._ahead is not None:
            return self._ahead[2] if self._ahead[0][0] == game_id else None
        shown: GameHost | None = self.host_widget
        return shown

    def forget_prepared(self) -> None:
        """The game's page was left: what it prepared is not shown as is (the staff mode, the table may change); a
        screen built aside is taken apart."""
        self.prepared = None
        self._drop_ahead()

    def _drop_ahead(self) -> None:
        if self._ahead is not None:
            self._drop(self._ahead[1:])
            self._ahead = None

    def _drop(self, built: tuple[HostContext, GameHost | None]) -> None:
        """A context and screen built and never shown: the context stops following the table, the screen is taken
        apart in a pause (as `clear_body` does)."""
        ctx, host = built
        closed = _closed(host) if host is not None else []
        if host is not None and host.parent is not None:
            host.parent.remove_widget(host)
        ctx.detach()
        if closed:
            gc_policy.discard(closed)

    def _fit_title(self) -> None:
        """The game's name whole beside the bar's buttons: at LEAD on one line if it fits, else at SMALL (the floor for
        guest text), else at SMALL on two lines broken between words (at 1024x600 in English, beside the 휴대폰
        button, 'Mr. Jack in New York' needed 195 px of 172 and was cut to 'Mr. Jack...ew York'). Where not even
        that fits with the buttons' words, the bar is `compact`: back, 휴대폰 and undo show their icons alone, each
        still a finger's size (BUTTON_H square; at 1024x600 with the mic and 휴대폰 the name had 22 px and was
        hidden). Where not even then (never, at 1024 px or wider), it is not shown rather than shown cut."""
        title = self.ids.title
        compact = self._needs_compact()
        if compact != self.compact:
            self.compact = compact  # the buttons resize; the title's new width calls this again
            return
        room = title.width - 4
        fit = title_fit(title.text, title.font_name, room, title.height)
        size, lines, used = fit or (SMALL, 1, room)
        title.font_size, title.max_lines, title.shorten = size, lines, lines == 1
        # two lines: the text box as wide as the longer line, so Kivy breaks where title_fit did
        title.padding = [0, 0, room - used if lines == 2 else 0, 0]
        title.opacity = 1 if fit else 0

    def _needs_compact(self) -> bool:
        """Whether the game's name fits nowhere beside the bar's buttons at their full widths (words and icons)."""
        bar, title = self.ids.bar, self.ids.title
        others = [c for c in bar.children if c.proxy_ref is not title]  # (ids hold proxies)
        used = sum(c.width if getattr(c, "wide", None) is None else c.wide for c in others) + bar.spacing * len(others)
        room = bar.width - bar.padding[0] - bar.padding[2] - used - 4
        return title_fit(title.text, title.font_name, room, title.height) is None

    def refresh(self) -> None:
        """After a language switch: the frame's title follows (the game's own widget redraws itself)."""
        app = App.get_running_app()
        game = app.library.games.get(self.game_id)
        if game is not None:
            self.ids.title.text = game.info.name.get(app.lang)

    def clear_body(self) -> None:
        """Remove the game's widget for good: text fields give up the keyboard first (a focused TextInput
        stays bound to the Window's keyboard and would keep the whole old game screen alive)."""
        from kivy.uix.textinput import TextInput

        fields = [w for w in self.ids.body.walk(restrict=True) if isinstance(w, TextInput)]
        for w in fields:
            if w.focus:
                w.focus = False
        closed = _closed(self.host_widget) if self.host_widget is not None else []
        self.ids.body.clear_widgets()
        self.prepared = self.made_for = None
        self._drop_ahead()
        forget_detached_field()
        if closed:
            gc_policy.discard(closed)  # taken apart in a pause: reference counting frees most of it
        if self.ctx is not None:
            self.ctx.detach()
            self.ctx.open_dialog = None
        self.host_widget = None

    def _sync_bar(self) -> None:
        has = self.ctx is not None and self.ctx.playing
        for button in (self.ids.undo, self.ids.end):  # set-up: nothing to undo/end, hidden in their places
            button.disabled = not has  # (kept wide: the bar's other buttons stay put when the game starts)
            button.opacity = 1 if has else 0
        app = App.get_running_app()
        # without the phone server (turned off, or it could not start) the button is not shown at all: a
        # greyed 휴대폰 would only make guests wonder; staff see why on the staff screen
        off = app is None or app.phones is None
        phones = self.ids.phones
        phones.disabled = off or self.host_widget is None  # set-up too
        phones.opacity, phones.wide = (0, 0) if off else (1, dp(PHONES_BUTTON))
        if app is not None:
            calls_of(app).show()  # the call button (hidden when the floor's is there) and the sign

        self._sync_results()

    def _on_table(self, _table: Any, change: Any) -> None:
        if change.kind in ("started", "resumed", "ended", "closed"):
            self._sync_bar()  # undo and end come with the game (at the next 0.5 s tick they came up to 0.5 s late)
        else:
            self._sync_results()

    def _sync_results(self) -> None:
        """Once the game has a result, the way on: 한 판 더 (same seats and names), 다른 게임, 끝내기."""
        ctx = self.ctx
        done = ctx is not None and ctx.playing and ctx.table.outcome is not None
        box = self.ids.results
        box.height, box.opacity = (dp(64), 1) if done else (0, 0)  # the game's screen gives way: keep it low
        for button in box.children:
            button.disabled = not done

    def rematch(self) -> None:
        """The same game again with the same players (phones keep their seats: Change.rematch)."""
        if self.ctx is not None and self.ctx.playing:
            if self.host_widget is not None:
                self.host_widget.rematch()  # the game's screen says what the next game is (GameHost.rematch)
            else:
                self.ctx.rematch()

    def other_game(self) -> None:
        """The finished game is archived; the library is next."""
        app = App.get_running_app()
        if self.ctx is not None and self.ctx.playing:
            self.ctx.table.end(later=True)
        app.go("library")

    def leave_table(self) -> None:
        """The guests are done: the table turnover, back to the attract screen."""
        app = App.get_running_app()
        if app.keeper is not None:
            app.keeper.new_table()
        else:
            app.table.turnover()
            app.go("attract")

    def on_pre_enter(self, *args: Any) -> None:
        self._sync_bar()

    def call_staff(self) -> None:
        """The bar's call button (without the café floor; with one, the floor's button): why, then the sign."""
        calls_of(App.get_running_app()).ask()

    def on_enter(self, *args: Any) -> None:
        Clock.schedule_interval(self._tick, 0.5)

    def on_leave(self, *args: Any) -> None:
        Clock.unschedule(self._tick)

    def _tick(self, _dt: float) -> None:
        """Submit due timeouts (a clock that ran out) to the table."""
        self._sync_bar()
        if self.ctx is not None and self.ctx.playing:
            self.ctx.table.check()  # a failure of the journal's thread is raised here, on the UI thread
            self.ctx.table.tick()

    def ask_undo(self) -> None:
        """Undo with a confirmation; across a step that revealed or probed a secret, only with the staff PIN
        (else Undo would make every reveal a free probe: an escape, an arrest, the Joker's card)."""
        app = App.get_running_app()
        if self.ctx is None or not self.ctx.playing:
            return
        if self.ctx.table.undo_needs_staff():
            from kiosk.widgets.pin_dialog import StaffPinDialog

            dlg = StaffPinDialog(app, app.tr("host.undo_staff"), lambda: self._undo(staff=True))
            self.ctx.opened(dlg)
            dlg.open()
            return
        self.ctx.confirm(app.tr("host.confirm_undo"), self._undo)

    def _undo(self, staff: bool = False) -> None:
        app = App.get_running_app()
        if self.ctx is not None and not self.ctx.undo(staff):
            app.toast(app.tr("host.nothing_to_undo"))

    def ask_end(self) -> None:
        app = App.get_running_app()
        if self.ctx is None or not self.ctx.playing:
            return
        self.ctx.confirm(app.tr("host.confirm_end"), self._end, danger=True)

    def _end(self) -> None:
        if self.ctx is not None:
            self.ctx.end_game()

    def leave(self) -> None:
        """Back to this game's page (also when it was not come to from there: a game resumed from the attract screen or
        after a restart, whose page showed another game or none); an unfinished game stays saved and resumes there."""
        App.get_running_app().open_game(self.game_id)
