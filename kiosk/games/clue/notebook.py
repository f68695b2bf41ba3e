"""The private detective notebook, opened only while its player holds the tablet.

Built from that seat's own view (engines.clue.views.knowledge_from_view), never from the state. Two
levels: "notebook" — the rulebook's notation filled in (O / X / numbered marks) with the latest reasons;
"tutor" — the player marks their own grid and each mark is graded right / wrong / not yet deducible.
Probabilities and advice appear only when the table turned the teaching aids on (off by default).

The tutor's work (exact counting, advice sampling) runs on a worker thread, never on the UI thread: the
panel shows "working it out" and fills in when the result arrives. Results are kept per knowledge (a few),
so reopening a notebook that learnt nothing new is instant."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView

from audio import heap
from engines.clue.content import Card, CardSet
from engines.clue.knowledge import Knowledge
from engines.clue.solver import Advice, Analysis, Verdict, analyse, grade, reason, verdict
from engines.clue.views import ClueView, knowledge_from_view
from kiosk import gc_policy
from kiosk.games.clue.parts import SUSPECT_RGBA, ClueText, ClueTitle, card_name
from kiosk.widgets.art import notebook_sign
from kiosk.widgets.buttons import button
from kiosk.widgets.drawn import Cell, DrawnRow, px
from kiosk.widgets.theme import BAR_CLEAR, DANGER, DANGER_TEXT, MUTED, OK, OK_BG, PANEL, PANEL_HI, SMALL, TEXT, TButton

Tr = Callable[..., str]
CYCLE = {"": "O", "O": "X", "X": ""}
SECTIONS = ("suspects", "weapons", "rooms")  # as CardSet.categories

Result = tuple[Analysis, tuple[Verdict, Advice | None] | None]
_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clue-tutor")
_DONE: OrderedDict[tuple[Knowledge, str | None, bool], Result] = OrderedDict()
_LOCK = threading.Lock()
FIRST_ROWS = 10  # the sheet's rows made in the frame its result arrives (what shows at once; a row is ~0.3 ms here
# with its words drawn before, ~3 ms the first time: a Label a cell, 6 rows were that frame's 50-60 ms)
FILL_CPU = 0.006  # then UI-thread CPU a frame for the rest


def tutor(kn: Knowledge, room: str | None, aids: bool) -> Result:
    """Analysis (+ advice in words when the aids are on) for one notebook; remembered for the last few knowledges."""
    key = (kn, room, aids)
    with _LOCK:
        if key in _DONE:
            _DONE.move_to_end(key)
            return _DONE[key]
    a = analyse(kn)
    result: Result = (a, verdict(a, room=room) if aids and not a.contradiction else None)
    heap.release()  # the counting's layers, freed on this worker thread
    with _LOCK:
        _DONE[key] = result
        while len(_DONE) > 8:
            _DONE.popitem(last=False)
    return result


class NotebookPanel(BoxLayout):
    def __init__(self, tr: Tr, lang: str, view: ClueView, cards: CardSet, aids: bool,
                 marks: dict[tuple[str, int], str], level: str, on_close: Callable[[], None],
                 on_level: Callable[[str], None]) -> None:
        super().__init__(orientation="vertical", spacing=dp(8), size_hint_y=8)
        self.tr, self.lang, self.v, self.cards, self.aids = tr, lang, view, cards, aids
        self.marks, self.level = marks, level
        self.on_close, self.on_level = on_close, on_level
        if view.me is None:
            raise ValueError("a notebook is drawn from its seat's own view")
        self.seat = view.me
        self.analysis: Analysis | None = None
        self.advice: tuple[Verdict, Advice | None] | None = None
        self.feedback = ClueText(text="", color=MUTED)
        self._fill: Any = None  # the sheet's remaining rows, made a few a frame
        room = view.room_of(self.seat) or None
        future = _POOL.submit(tutor, knowledge_from_view(view), room, aids)
        self.build()
        future.add_done_callback(lambda f: Clock.schedule_once(lambda _dt: self._ready(f.result())))

    def _ready(self, result: Result) -> None:
        self.analysis, self.advice = result
        self.build()

    def name(self, owner: int) -> str:
        if owner == len(self.v.players):
            return self.tr("clue.notebook.envelope")
        return self.v.name(owner)

    def cname(self, cid: str) -> str:
        return card_name(self.cards, cid, self.lang)

    def build(self) -> None:
        if self._fill is not None:
            self._fill.cancel()
            self._fill = None
        for old in self.children:  # made for this build only (the feedback line is kept): taken apart in a pause
            if old is not self.feedback:  # (frozen with the screen, a sheet was garbage until a thaw)
                gc_policy.drop(old, None)
        self.clear_widgets()
        top = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        top.add_widget(ClueTitle(text=self.tr("clue.notebook.title", name=self.name(self.seat))))
        for lvl in ("notebook", "tutor"):
            b = TButton(text=self.tr(f"clue.notebook.level_{lvl}"), size_hint_x=None, width=dp(130),
                        test_id=f"clue_nb_level_{lvl}", selected=self.level == lvl)
            b.bind(on_release=lambda _w, level=lvl: self.set_level(level))
            top.add_widget(b)
        button(top, self.tr("clue.notebook.close"), "clue_nb_close", self.on_close, "primary")
        top.children[0].size_hint_x = None
        top.children[0].width = dp(130)
        self.add_widget(top)
        a = self.analysis
        if a is None:
            thinking = ClueText(text=self.tr("clue.notebook.thinking"), color=MUTED)
            thinking.test_id = "clue_nb_thinking"
            self.add_widget(thinking)
            return
        if a.contradiction:
            self.add_widget(ClueText(text=self.tr("clue.notebook.contradiction"), color=DANGER_TEXT))
        elif self.level == "tutor":
            self.feedback.text = self.feedback.text or self.tr("clue.notebook.tutor_hint")
            self.add_widget(self.feedback)
        if self.aids and not a.contradiction:
            self.add_widget(self._advice())
        self.add_widget(self._grid())
        if self.level == "notebook" and not a.contradiction:
            lines: list[str] = []
            for d in reversed(a.notebook.deductions):
                line = reason(d, self.cname, self.name, self.lang)
                if d.rule not in ("hand", "one_owner") and line not in lines:
                    lines.append(line)
                if len(lines) == 2:
                    break
            for line in lines:
                self.add_widget(ClueText(text="· " + line, color=MUTED, font_size=SMALL))

    def set_level(self, level: str) -> None:
        self.level = level
        self.on_level(level)
        self.feedback.text = ""
        self.build()

    def _advice(self) -> ClueText:
        """The best suggestion from here, said in words: how much it can teach, that the envelope is known
        (time to accuse), or that no suggestion here can teach anything."""
        assert self.analysis is not None
        if self.advice is None:
            return ClueText(text="")
        said, b = self.advice
        if b is None:
            return ClueText(text=self.tr(f"clue.notebook.{said}"), color=OK if said == "solved" else MUTED)
        approx = "" if self.analysis.probs.exact else " " + self.tr("clue.notebook.approximate")
        text = " ".join((self.tr("clue.notebook.advice", suspect=self.cname(b.suspect), weapon=self.cname(b.weapon),
                                 room=self.cname(b.room)), self.tr(f"clue.notebook.{said}")))
        return ClueText(text=text + approx, color=OK)

    def _grid(self) -> ScrollView:
        """The sheet as the box's detective notebook has it: three sections (suspects, weapons, rooms), each under
        a heading with its drawn sign and the column names again, a margin line after the card names, and each
        suspect's token colour beside the name. A row is one widget drawing its cells (kiosk/widgets/drawn.py):
        a Label a cell made the sheet ~100,000 objects at 6 players."""
        owners = len(self.v.players) + 1
        gap = dp(3) if self.level == "tutor" else 0
        sheet = BoxLayout(orientation="vertical", size_hint_y=None, spacing=gap, padding=(0, 0, BAR_CLEAR, 0))
        sheet.bind(minimum_height=sheet.setter("height"))
        self.cells: dict[tuple[str, int], tuple[DrawnRow, int]] = {}
        a = self.analysis
        assert a is not None
        known = set(a.knowledge.cards)
        small, margin = px(SMALL), (DANGER_TEXT[0], DANGER_TEXT[1], DANGER_TEXT[2], 0.7)

        def add(cells: list[Cell]) -> DrawnRow:
            r = DrawnRow(cells, first=dp(190), gap=gap, size_hint_y=None, height=dp(56))
            sheet.add_widget(r)
            return r

        def heading(section: str) -> None:
            cells = [Cell(self.tr(f"clue.notebook.{section}"), PANEL_HI, TEXT, small, "left", margin_line=margin,
                          sign=partial(notebook_sign, section))]
            cells += [Cell(self.name(o)[:5], PANEL_HI, TEXT, small) for o in range(owners)]
            if self.aids:
                cells.append(Cell(self.tr("clue.notebook.prob")[:5], PANEL_HI, TEXT, small))
            add(cells)

        def row(card: Card) -> None:
            cells = [Cell(self.cname(card.id), PANEL, TEXT, small, "left", margin_line=margin,
                          dot=SUSPECT_RGBA.get(card.color_en))]
            cells += [self._cell(card.id, o) for o in range(owners)]
            if self.aids:
                p = a.probs.envelope(card.id) if not a.contradiction else 0.0
                cells.append(Cell(f"{p * 100:.0f}%", PANEL, TEXT, small))
            r = add(cells)
            for o in range(owners):
                self.cells[(card.id, o)] = (r, 1 + o)
                if self.level == "tutor":
                    self._paint(card.id, o)

        rows: list[Callable[[], None]] = []
        for section, group in zip(SECTIONS, self.cards.categories, strict=True):
            rows.append(partial(heading, section))
            rows += [partial(row, card) for card in group if card.id in known]
        sv = ScrollView(do_scroll_x=False, bar_width=dp(10))
        sv.add_widget(sheet)
        for make in rows[:FIRST_ROWS]:
            make()
        todo = iter(rows[FIRST_ROWS:])

        def fill(_dt: float = 0.0) -> None:
            end = time.thread_time() + FILL_CPU
            for make in todo:
                make()
                if time.thread_time() >= end:
                    self._fill = Clock.schedule_once(fill, 0)
                    return
            self._fill = None
            sv.test_id = "clue_nb_sheet"  # every row made

        self._fill = Clock.schedule_once(fill, 0)  # the rest from the next frame on
        return sv

    def _cell(self, cid: str, owner: int) -> Cell:
        small = px(SMALL)
        if self.level == "tutor":
            return Cell("", PANEL_HI, TEXT, small, test_id=f"clue_cell_{cid}_{owner}",
                        on_tap=lambda: self.tap(cid, owner))
        a = self.analysis
        assert a is not None
        m = a.cell(cid, owner) if not a.contradiction else a.notebook.marks[cid][owner]
        nums = a.notebook.numbers.get(cid, [()] * (owner + 1))[owner]
        text = "O" if m == 1 else "X" if m == 0 else ",".join(str(n) for n in nums)
        return Cell(text, OK_BG if m == 1 else PANEL, TEXT if m is not None else MUTED, small)

    def _paint(self, cid: str, owner: int) -> None:
        """A tutor cell: the player's own mark, on its grade's colour."""
        r, i = self.cells[(cid, owner)]
        mark = self.marks.get((cid, owner), "")
        bg = PANEL_HI
        if mark and self.analysis and not self.analysis.contradiction:
            g = grade(self.analysis, cid, owner, mark)
            bg = OK_BG if g == "right" else DANGER if g == "wrong" else PANEL_HI
        r.update(i, text=mark, bg=bg)

    def tap(self, cid: str, owner: int) -> None:
        """Cycle the player's own mark (blank → O → X) and grade it in place (no rebuild: keeps scroll)."""
        mark = CYCLE[self.marks.get((cid, owner), "")]
        if mark and self.analysis:
            self.marks[(cid, owner)] = mark
            verdict = grade(self.analysis, cid, owner, mark)
            self.feedback.text = f"{self.cname(cid)} · {self.name(owner)}: {mark} — " + self.tr(
                f"clue.notebook.{verdict}")
        else:
            self.marks.pop((cid, owner), None)
            self.feedback.text = self.tr("clue.notebook.tutor_hint")
        self._paint(cid, owner)
