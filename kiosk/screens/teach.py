"""The teaching player: one idea per page, captions + narration, a picture drawn on the canvas, the set-up
checklist for this table, try-it moves on the real engine, a quiz, resume, skip to playing.

All teaching logic lives in kiosk.teach (content, checklist, try-it runner, progress); this screen only
shows pages and forwards taps. Voice navigation calls next_page / prev_page / repeat / skip.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from kiosk import gc_policy
from kiosk.teach import pages as pages_mod
from kiosk.teach import speech
from kiosk.teach.draw import Illustration  # noqa: F401  (kv class)
from kiosk.teach.loader import GameTeaching, load_teaching
from kiosk.teach.lookup_view import HelpButton  # noqa: F401  (kv class)
from kiosk.teach.progress import GameProgress, ProgressStore
from kiosk.teach.setup import allowed_modules, checklist
from kiosk.teach.tryit import Result, TryError, TryRun
from kiosk.widgets.keep import Fill, Keep
from kiosk.widgets.theme import ACCENT, BODY, DANGER_TEXT, MUTED, OK, SMALL, TButton, TLabel


class TeachProgress(Widget):
    value = NumericProperty(0.0)


class PageButton(TButton):
    """A page's button (a checklist item, a try-it choice, a quiz option): as tall as its wrapped text needs."""

    KEEP_IN_PLACE = TButton.KEEP_IN_PLACE  # no kv rule of its own: its colours are TButton's

    def on_texture_size(self, _w: Any, size: Any) -> None:
        self.height = max(dp(64), size[1] + dp(20))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class TeachScreen(Screen):
    game_id = StringProperty("")
    shows_captions = True  # its own captions and playback controls: no caption bar here

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.gt: GameTeaching | None = None
        self.pages: list[pages_mod.Page] = []
        self.index = 0
        self.store: ProgressStore | None = None
        self.runs: dict[str, TryRun] = {}
        self.last_result: Result | None = None
        self.spoken: list[Any] = []  # the last narration segments (tests, repeat)
        # the page's own controls, kept from one redraw to the next (a tick on the checklist made the whole panel
        # again: ~25 ms of UI-thread CPU in the tap's frame here); cleared for another game
        self.keep = Keep(on_drop=gc_policy.drop)
        self.keep_for = ""  # the game whose controls it keeps

    # ------------------------------------------------------------ lifecycle
    @property
    def app(self) -> Any:
        return App.get_running_app()

    def on_pre_enter(self, *args: Any) -> None:
        app = self.app
        overlay = app.data_dir / "content"
        self.gt, _errors = load_teaching(self.game_id, overlay if overlay.is_dir() else None)
        if self.keep_for != self.game_id:  # another game's pages: nothing of the last one's controls is kept
            self.keep.clear()
            self.keep_for = self.game_id
        self.store = ProgressStore(app.data_dir)
        self.runs = {}
        p = self.progress
        if p.players == 0 and self.gt is not None:
            p.players = self._default_players()
        self._paginate()
        self.index = min(p.page, max(0, len(self.pages) - 1))
        p.started = app.now()
        self.store.save()
        if self.index > 0:
            app.toast(app.tr("teaching.resumed"))
        self.show()

    def on_game_id(self, *_args: Any) -> None:
        if self.manager is not None and self.manager.current == self.name:  # another game while on screen
            self.on_pre_enter()

    def on_leave(self, *args: Any) -> None:
        speech.stop(self.app)
        if self.store is None or not self.game_id:
            return
        p = self.progress
        if p.started:
            p.spent += self.app.now() - p.started
            p.started = 0.0
        self.store.save()

    @property
    def progress(self) -> GameProgress:
        assert self.store is not None
        return self.store.get(self.game_id)

    def _paginate(self) -> None:
        """The pages for this table (the tutorial branches on player count and modules)."""
        if self.gt is None:
            self.pages = []
            return
        p = self.progress
        self.pages = pages_mod.pages(self.gt.teaching, p.players, p.modules)

    def _default_players(self) -> int:
        assert self.gt is not None
        lo, hi = self.gt.teaching.players
        session = getattr(self.app.get_screen("library"), "players", 0)
        return session if lo <= session <= hi else lo

    def refresh(self) -> None:
        """Language switch: redraw the page in the new language."""
        self.show(speak=False)

    # ------------------------------------------------------------ navigation (touch and voice)
    def go_to(self, index: int) -> None:
        self.index = max(0, min(index, len(self.pages) - 1))
        if self.store is not None:
            self.progress.page = self.index
            self.store.save()
        self.last_result = None
        self.show()

    def next_page(self) -> None:
        if self.index >= len(self.pages) - 1:
            self.finish(finished=True)
        else:
            self.go_to(self.index + 1)

    def prev_page(self) -> None:
        if self.index > 0:
            self.go_to(self.index - 1)

    def repeat(self) -> None:
        self.show()

    def restart(self) -> None:
        if self.store is not None:
            keep = self.progress
            self.store.games[self.game_id] = GameProgress(players=keep.players, modules=keep.modules,
                                                          started=keep.started, spent=keep.spent)
        self.runs = {}
        self.go_to(0)

    def skip(self) -> None:
        self.finish(finished=False)

    def handle_voice(self, intent: str, text: str = "") -> bool:
        """Navigation intents from audio (content/voice/ko.yaml `navigation`) and rule questions
        ("규칙 경찰 토큰" → the look-up dialog with the answer). False: not for this screen."""
        if intent == "next":
            self.next_page()
        elif intent == "previous":
            self.prev_page()
        elif intent == "repeat":
            self.repeat()
        elif intent == "stop":
            speech.stop(self.app)
        elif intent in ("help", "rule"):
            from kiosk.teach.lookup_view import open_lookup

            open_lookup(text, self.game_id or None)
        else:
            return False
        return True

    def finish(self, finished: bool = True) -> None:
        """Teaching over (last page, or "skip to playing": not `finished`): record it, then host the game."""
        app = self.app
        if self.store is not None and self.game_id:
            self.store.finish(self.game_id, app.now(), finished=finished)
        game = app.library.games.get(self.game_id)
        if game is not None and game.playable:
            app.host(self.game_id)
        else:
            app.go("detail")

    def leave(self) -> None:
        self.app.go("detail")

    # ------------------------------------------------------------ drawing a page
    @property
    def page(self) -> pages_mod.Page | None:
        return self.pages[self.index] if self.pages else None

    def show(self, speak: bool = True) -> None:
        app, ids = self.app, self.ids
        lang = app.lang
        game = app.library.games.get(self.game_id)
        name = game.info.name.get(lang) if game is not None else self.game_id
        ids.title.text = app.tr("teaching.title", game=name)
        page = self.page
        if self.gt is None or page is None:
            ids.extra.clear_widgets()
            ids.caption.text = app.tr("teaching.none")
            ids.step_title.text = ""
            ids.picture.shapes = []
            ids.progress.value = 0
            ids.progress_text.text = ""
            return
        t = self.gt.teaching
        total = len(self.pages)
        ids.progress.value = (self.index + 1) / total
        section = app.tr(f"teaching.sections.{page.step.section}")
        ids.progress_text.text = f"{section} · " + app.tr("teaching.progress", n=self.index + 1, total=total)
        ids.picture.lang = lang
        ids.picture.shapes = self.shapes_for(page)
        ids.next.text = app.tr("teaching.finish") if self.index == total - 1 else app.tr("teaching.next")
        ids.prev.disabled = self.index == 0
        question = pages_mod.question(t, page)
        with Fill(self.keep, ids.extra, page.id) as fill:
            if question is not None:
                assert page.question is not None
                ids.step_title.text = app.tr("teaching.quiz_title", n=page.question + 1, total=len(t.quiz))
                ids.caption.text = question.q.get(lang)
                self._quiz(fill, page, question)
            else:
                ids.step_title.text = page.step.title.get(lang)
                ids.caption.text = page.step.say.get(lang)
                if page.step.kind == "setup":
                    self._setup(fill)
                elif page.step.kind == "try":
                    self._try(fill, page)
        ids.scroll.scroll_y = 1
        if speak:
            self.spoken = pages_mod.segments(self.game_id, t, page, lang)
            speech.speak(app, self.spoken)

    @staticmethod
    def _label(fill: Fill, key: str, text: str, color: Any = None, size: str = BODY) -> TLabel:
        colour = {} if color is None else {"color": color}
        return fill.add(TLabel, key, text=text, font_size=size, **colour)

    @staticmethod
    def _button(fill: Fill, text: str, test_id: str, on_release: Any, **kw: Any) -> PageButton:
        return fill.add(PageButton, test_id, on_release, text=text, test_id=test_id, size_hint_y=None, height=dp(64),
                        font_size=SMALL, **kw)

    # -- set-up checklist
    def _setup(self, fill: Fill) -> None:
        assert self.gt is not None
        app, t, p = self.app, self.gt.teaching, self.progress
        lang = app.lang
        lo, hi = t.players
        if hi > lo:
            self._label(fill, "players_label", app.tr("teaching.players_label"), MUTED, SMALL)
            with fill.box_of(BoxLayout, "players", size_hint_y=None, height=dp(60), spacing=dp(8)) as row:
                for n in range(lo, hi + 1):
                    row.add(TButton, f"teach_players_{n}", partial(self.set_players, n),
                            text=app.tr("teaching.players", n=n), test_id=f"teach_players_{n}", font_size=SMALL,
                            selected=(n == p.players))
        allowed = allowed_modules(t, p.players)
        if t.modules:
            self._label(fill, "modules_label", app.tr("teaching.modules_label"), MUTED, SMALL)
            for m in t.modules:
                on = m.id in p.modules and m.id in allowed
                self._button(fill, ("● " if on else "○ ") + m.name.get(lang), f"teach_module_{m.id}",
                             partial(self.toggle_module, m.id), selected=on, disabled=m.id not in allowed,
                             halign="left")
        items = checklist(t, p.players, p.modules, lang)
        done = sum(1 for it in items if it.id in p.ticks)
        self._label(fill, "checklist_done", app.tr("teaching.checklist_done", done=done, total=len(items)), ACCENT,
                    SMALL)
        for it in items:
            ticked = it.id in p.ticks
            self._button(fill, ("● " if ticked else "○ ") + it.text, f"teach_check_{it.id}", partial(self.tick, it.id),
                         selected=ticked, halign="left")

    def checklist_items(self) -> list[Any]:
        assert self.gt is not None
        p = self.progress
        return checklist(self.gt.teaching, p.players, p.modules, self.app.lang)

    def set_players(self, n: int) -> None:
        self.progress.players = n
        self._save_and_redraw()

    def toggle_module(self, module: str) -> None:
        mods = self.progress.modules
        if module in mods:
            mods.remove(module)
        else:
            mods.append(module)
        self._save_and_redraw()

    def tick(self, item: str) -> None:
        ticks = self.progress.ticks
        if item in ticks:
            ticks.remove(item)
        else:
            ticks.append(item)
        self._save_and_redraw()

    def _save_and_redraw(self) -> None:
        current = self.page.id if self.page is not None else ""
        self._paginate()
        ids = [pg.id for pg in self.pages]
        if current in ids:
            self.index = ids.index(current)
        if self.store is not None:
            self.progress.page = self.index
            self.store.save()
        self.show(speak=False)

    # -- try-it
    def run_for(self, page: pages_mod.Page) -> TryRun | None:
        assert self.gt is not None and page.step.try_it is not None
        if page.id not in self.runs:
            try:
                self.runs[page.id] = TryRun(page.step.try_it, self.gt.folder).start()
            except TryError:
                return None
        return self.runs[page.id]

    def _try(self, fill: Fill, page: pages_mod.Page) -> None:
        app = self.app
        lang = app.lang
        label = self._label
        run = self.run_for(page)
        if run is None:
            label(fill, "none", app.tr("teaching.none"), DANGER_TEXT)
            return
        status = run.status(lang)
        if status:
            label(fill, "status", status, ACCENT, SMALL)
        res = self.last_result
        if res is not None:
            if res.error is not None:
                label(fill, "refused", app.tr("teaching.try_refused", message=res.message(lang)), DANGER_TEXT)
            label(fill, "explain_" + ("on" if res.advanced else "again"), res.choice.explain.get(lang),
                  OK if res.advanced else ACCENT)
            if not res.advanced:
                label(fill, "try_again", app.tr("teaching.try_again"), MUTED, SMALL)
        if run.done:
            label(fill, "done", app.tr("teaching.try_done"), OK)
            self._button(fill, app.tr("teaching.try_restart"), "teach_try_again", partial(self.restart_try, page))
            return
        move = run.spec.moves[run.move]
        label(fill, "prompt", move.prompt.get(lang), None, BODY)
        for i, choice in enumerate(move.choices):
            self._button(fill, choice.label.get(lang), f"teach_choice_{i}", partial(self.choose, i))

    def shapes_for(self, page: pages_mod.Page) -> list[Any]:
        """The page's picture; on a try-it page, shapes follow the engine's state (a police token goes)."""
        if page.step.kind != "try":
            return list(pages_mod.picture(self.gt.teaching, page) if self.gt is not None else page.step.picture)
        run = self.run_for(page)
        return [s for s in page.step.picture if run is None or run.shows(s)]

    def choose(self, index: int) -> Result | None:
        page = self.page
        if page is None or page.step.kind != "try":
            return None
        run = self.run_for(page)
        if run is None or run.done:
            return None
        self.last_result = run.choose(index)
        self.show(speak=False)
        from audio.segments import Segment

        lang = self.app.lang
        said = self.last_result.choice.explain.get(lang)
        if self.last_result.error is not None:
            said = self.last_result.message(lang) + " " + said
        speech.speak(self.app, [Segment(f"teach.{self.game_id}.{page.id}.result", lang, said)])
        return self.last_result

    def restart_try(self, page: pages_mod.Page) -> None:
        self.runs.pop(page.id, None)
        self.last_result = None
        self.show(speak=False)

    # -- quiz
    def _quiz(self, fill: Fill, page: pages_mod.Page, question: Any) -> None:
        app = self.app
        lang = app.lang
        chosen = self.progress.quiz.get(page.id)
        for i, option in enumerate(question.options):
            kind = "normal"
            if chosen is not None and i == question.answer:
                kind = "primary"
            elif chosen is not None and i == chosen:
                kind = "danger"
            self._button(fill, option.get(lang), f"teach_option_{i}", partial(self.answer, i), kind=kind)
        if chosen is not None:
            right = chosen == question.answer
            verdict = app.tr("teaching.quiz_right") if right else app.tr(
                "teaching.quiz_wrong", answer=question.options[question.answer].get(lang))
            self._label(fill, "verdict_" + ("right" if right else "wrong"), verdict, OK if right else DANGER_TEXT, BODY)
            self._label(fill, "why", question.why.get(lang))

    def answer(self, option: int) -> bool | None:
        page = self.page
        if page is None or page.question is None or self.gt is None:
            return None
        self.progress.quiz[page.id] = option
        if self.store is not None:
            self.store.save()
        self.show(speak=False)
        return option == self.gt.teaching.quiz[page.question].answer
