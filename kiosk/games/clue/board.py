"""Clue's board on the table screen: the mansion's rooms, each suspect's token and the weapons where they stand.

Public only (engines.clue.views.places: the tokens and weapons every view has, as on the physical board). The
rooms come from the set's room list, in its order, on a grid (3×3 for the classic nine: the corner rooms are the
board's corners, their secret passages marked by a corner triangle); each token is its colour's disc with the
suspect's short name (content), each weapon a diamond with its name; tokens on their start spaces or in the
corridors stand on the strip below the rooms. What the last suggestion moved is ringed, its room outlined.

One widget drawing on its own canvas (kiosk/widgets/drawn.py's way): made once per screen, a step only moves
and repaints its instructions (the textures of the names are kept). It hides itself where the actions above it
leave too little room (a suggestion's or an accusation's buttons). Tests read its texts through
`drawn_cells()` as a guest sees them."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Quad, Rectangle, RoundedRectangle, Triangle
from kivy.metrics import dp
from kivy.uix.widget import Widget

from engines.clue.content import CardSet
from engines.clue.views import ClueView, Places, places
from kiosk.games.clue.parts import SUSPECT_RGBA
from kiosk.widgets.drawn import DrawnCell, px, texture
from kiosk.widgets.theme import ACCENT, MUTED, PANEL, PANEL_HI, SMALL, TEXT

PAD, GAP, LINE = dp(8), dp(8), dp(30)
DISC, MARK, ITEM_GAP, CORNER = dp(20), dp(12), dp(14), dp(22)
MIN_H = dp(300)  # below this the board hides: the actions above need the column
NONE = (0.0, 0.0, 0.0, 0.0)


class _Piece:
    """A name on the board and its marker (a token's disc, a weapon's diamond, nothing for a title): instructions
    kept, moved and repainted in place, only when where it stands changed."""

    def __init__(self, group: InstructionGroup, test_id: str, text: str, ink: tuple[float, ...],
                 disc: tuple[float, ...] | None = None, diamond: bool = False, bold: bool = False) -> None:
        self.test_id, self.text, self.ink_rgba = test_id, text, ink
        self.font = px(SMALL)
        self.tex = texture(text, self.font, bold)
        self.lead = (DISC + dp(6)) if disc is not None else (MARK + dp(6)) if diamond else 0.0
        self.full = self.width = self.lead + self.tex.width
        self.compact = False  # a token in a crowded room: its disc only
        self.disc: Ellipse | None = None
        self.diamond: Quad | None = None
        if disc is not None:
            group.add(Color(*disc))
            self.disc = Ellipse(size=(DISC, DISC), segments=24)  # a 20 dp disc: 24 sides look round
            group.add(self.disc)
        if diamond:
            group.add(Color(*MUTED))
            self.diamond = Quad()
            group.add(self.diamond)
        self.ink = Color(*ink)
        self.rect = Rectangle(texture=self.tex, size=self.tex.size)
        group.add(self.ink)
        group.add(self.rect)
        self.at: tuple[float, float, bool] | None = None  # where it was last placed (x, y, compact)
        self.box = (0.0, 0.0, 0.0, 0.0)  # where it is drawn (x, y, width, height), cut to its room
        self.bg: tuple[float, ...] = PANEL_HI
        self.shown = False

    def place(self, x: float, y: float, limit: tuple[float, float, float, float], bg: tuple[float, ...]) -> None:
        """At (x, y) (its line's bottom left), inside `limit` (its room's box): what falls outside is cut."""
        h = LINE
        self.shown, self.bg = True, bg
        lx, ly, lw, lh = limit  # the name's own extent, cut to its room: a name cut shows as not fitting
        th = DISC if self.compact else self.tex.height
        ty = y + (h - th) / 2
        x0, y0, x1, y1 = max(x, lx), max(ty, ly), min(x + self.width, lx + lw), min(ty + th, ly + lh)
        self.box = (x0, y0, max(0.0, x1 - x0), max(0.0, y1 - y0))
        if self.at == (x, y, self.compact):
            return
        self.at = (x, y, self.compact)
        mid = y + h / 2
        if self.disc is not None:
            self.disc.pos = (x, mid - DISC / 2)
        if self.diamond is not None:
            cx, r = x + MARK / 2, MARK / 2
            self.diamond.points = (cx, mid + r, cx + r, mid, cx, mid - r, cx - r, mid)
        self.rect.pos = (round(x + self.lead), round(mid - self.tex.height / 2))
        self.ink.rgba = NONE if self.compact else self.ink_rgba

    def ring(self) -> tuple[float, float, float, float, float]:
        """A ring around it (a rounded rectangle: x, y, width, height, radius)."""
        x, y = self.at[:2] if self.at else (0.0, 0.0)
        return (x - dp(4), y, self.width + dp(8), LINE, dp(8))

    def squeeze(self, compact: bool) -> None:
        """A token's disc without its name (compact) or with it."""
        self.compact = compact and self.disc is not None
        self.width = DISC if self.compact else self.full

    def hide(self) -> None:
        self.shown, self.at = False, None
        self.ink.rgba = NONE
        self.rect.pos = (-10000, -10000)
        if self.disc is not None:
            self.disc.pos = (-10000, -10000)
        if self.diamond is not None:
            self.diamond.points = (0, 0, 0, 0, 0, 0, 0, 0)


class ClueBoard(Widget):
    """The board: `show(view, cards, names)` after each step (cheap when nothing moved); laid out again on resize."""

    test_id = "clue_board"

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.cards: CardSet | None = None
        self.board: Places | None = None
        self.last: tuple[str, str, str] = ("", "", "")  # the last suggestion's suspect, weapon, room
        self._drawn_for: tuple[Any, ...] = ()
        self._made_for: tuple[str, ...] = ()
        self._shown_pieces: list[_Piece] = []
        self.drawn_in: dict[str, str] = {}  # a piece's id (a token's, a weapon's) → the room drawn in ("" the strip)
        self.room_boxes: dict[str, tuple[float, float, float, float]] = {}  # room → its box (window coordinates)
        self._later = Clock.create_trigger(self._layout)  # a move and a resize in one frame: laid out once
        self.bind(pos=self._later, size=self._later)

    # -- made once per card set and language
    def _build(self, cards: CardSet, name: Callable[[str], str], short: Callable[[str], str], corridor: str,
               passage: Callable[[str], str]) -> None:
        self.canvas.clear()
        self.cards = cards
        self.rooms: dict[str, tuple[RoundedRectangle, _Piece, Triangle]] = {}
        self.passages: dict[str, _Piece] = {}  # a corner room's line: where its secret passage leads
        with self.canvas:
            self.strip_bg = Color(*PANEL)
            self.strip = RoundedRectangle(radius=[dp(10)])
        group = InstructionGroup()
        for rid in cards.ids(2):
            box, tri = RoundedRectangle(radius=[dp(10)], segments=4), Triangle()
            for ins in (Color(*PANEL_HI), box, Color(*(ACCENT if cards.passage_from(rid) else NONE)), tri):
                group.add(ins)
            title = _Piece(group, f"clue_board_room_{rid}", name(rid), ACCENT, bold=True)
            self.rooms[rid] = (box, title, tri)
            to = cards.passage_from(rid)
            if to:
                self.passages[rid] = _Piece(group, f"clue_board_passage_{rid}", passage(to), MUTED)
        self.corridor = _Piece(group, "clue_board_corridor", corridor, MUTED, bold=True)
        self.tokens = {s.id: _Piece(group, f"clue_board_token_{s.id}", short(s.id), TEXT,
                                    disc=SUSPECT_RGBA.get(s.color_en, MUTED)) for s in cards.suspects}
        self.weapons = {w: _Piece(group, f"clue_board_weapon_{w}", name(w), TEXT, diamond=True)
                        for w in cards.ids(1)}
        self.canvas.add(group)
        # on top: the last suggestion's room outlined, what it moved ringed (three lines for the whole board)
        self.edge, self.rings = Line(width=dp(2)), (Line(width=dp(1.5)), Line(width=dp(1.5)))
        for ins in (Color(*ACCENT), self.edge, *self.rings):
            self.canvas.add(ins)
        self.ringed: set[str] = set()  # the pieces ringed now (tokens' and weapons' ids)
        self._outlined: dict[int, tuple[float, ...] | None] = {}

    def show(self, view: ClueView, cards: CardSet, name: Callable[[str], str],
             short: Callable[[str], str], corridor: str, passage: Callable[[str], str]) -> None:
        """The board of this view (its public part). Made on the first call (and for another set or language),
        then only moved."""
        made_for = (cards.id, corridor, name(cards.ids(2)[0]))
        if self.cards is None or made_for != self._made_for:
            self._made_for = made_for
            self._build(cards, name, short, corridor, passage)
            self._drawn_for = ()
        self.board = places(view)
        self.last = view.last.named if view.last is not None else ("", "", "")
        self._later()

    # -- laid out on every change of what it shows or of its size
    def _grid(self, n: int) -> tuple[int, int]:
        cols = 3 if n == 9 else max(1, math.ceil(math.sqrt(n)))
        return cols, math.ceil(n / cols)

    def _layout(self, *_: Any) -> None:
        if self.board is None or self.cards is None:
            return
        key = (tuple(self.pos), tuple(self.size), self.board, self.last)
        if key == self._drawn_for:
            return
        self._drawn_for = key
        hidden = self.height < MIN_H or self.width < dp(300)
        self.opacity = 0 if hidden else 1
        if hidden:
            return
        suspect, weapon, where = self.last
        edge: tuple[float, ...] | None = None
        self.ringed = set()
        # the strip of tokens outside the rooms, at the bottom: as many lines as its tokens need
        out = [self.tokens[s] for s in self.board.out]
        for t in out:
            t.squeeze(False)
        lines = self._lines([self.corridor, *out], self.width - 2 * PAD, (0.0, 0.0))
        strip_h = lines * LINE + 2 * PAD
        self.strip.pos, self.strip.size = (self.x, self.y), (self.width, strip_h)
        strip_box = (self.x, self.y, self.width, strip_h)
        self._flow([self.corridor, *out], strip_box, PANEL, (0.0, 0.0))
        self.drawn_in = {s: "" for s in self.board.out}
        # the rooms on a grid above it: each row as tall as its most crowded room needs, the rest shared out
        cols, rows = self._grid(len(self.board.rooms))
        rw = (self.width - GAP * (cols - 1)) / cols
        heights = self._row_heights(cols, rows, rw, self.height - strip_h - GAP - GAP * (rows - 1))
        if heights is None:  # the rooms' names would be cut: no board rather than a cut one
            self.opacity = 0
            return
        for i, (rid, suspects, weapons) in enumerate(self.board.rooms):
            r, c = divmod(i, cols)
            rh = heights[r]
            x, y = self.x + c * (rw + GAP), self.top - sum(heights[: r + 1]) - r * GAP
            box, title, tri = self.rooms[rid]
            box.pos, box.size = (x, y), (rw, rh)
            self.room_boxes[rid] = (*self.to_window(x, y), rw, rh)
            self.drawn_in.update({p: rid for p in (*suspects, *weapons)})
            if rid == where:
                edge = (x + dp(1), y + dp(1), rw - dp(2), rh - dp(2), dp(10))
            corner = self._corner(r, c, rows, cols)
            inner = (x, y, rw, rh)
            way = self.passages.get(rid)
            if way is not None:  # the triangle in the corner, the passage's line along the room's bottom
                cx = x if corner[0] == "l" else x + rw
                cy = y + rh if corner[1] == "t" else y
                sx = CORNER if corner[0] == "l" else -CORNER
                sy = -CORNER if corner[1] == "t" else CORNER
                tri.points = [cx, cy, cx + sx, cy, cx, cy + sy]
                way.place(x + PAD + (CORNER if corner == "lb" else 0.0), y + PAD, (x, y, rw, rh), PANEL_HI)
                inner = (x, y + LINE, rw, rh - LINE)
            self._flow(self._room_pieces(rid), inner, PANEL_HI, self._cut(rid, corner))
            if rid == where:
                self.ringed = {p for p in (suspect, weapon) if p in (*suspects, *weapons)}
        shown = {*self.board.out, *(s for _, ss, ws in self.board.rooms for s in (*ss, *ws))}
        for group in (self.tokens, self.weapons):
            for pid, piece in group.items():
                if pid not in shown:
                    piece.hide()
        self._outline(self.edge, edge)
        ringed = [p.ring() for p in (self.tokens.get(suspect), self.weapons.get(weapon))
                  if p is not None and p.shown and (suspect if p.disc else weapon) in self.ringed]
        for i, line in enumerate(self.rings):
            self._outline(line, ringed[i] if i < len(ringed) else None)

    def _outline(self, line: Line, rounded: tuple[float, ...] | None) -> None:
        """A line drawn round `rounded` (x, y, width, height, radius), or not drawn; changed only when it moves (a
        wide line is laid out on the CPU each time)."""
        if self._outlined.get(id(line), ()) == rounded:
            return
        self._outlined[id(line)] = rounded
        if rounded is None:
            line.points = []
        else:
            line.rounded_rectangle = rounded

    def _room_pieces(self, rid: str) -> list[_Piece]:
        assert self.board is not None
        suspects, weapons = self.board.room(rid)
        return [self.rooms[rid][1], *(self.tokens[s] for s in suspects), *(self.weapons[w] for w in weapons)]

    def _cut(self, rid: str, corner: str) -> tuple[float, float]:
        """What a corner mark takes off the first line (left, right)."""
        if rid not in self.passages:
            return (0.0, 0.0)
        return (CORNER if corner == "lt" else 0.0, CORNER if corner == "rt" else 0.0)

    def _row_heights(self, cols: int, rows: int, rw: float, room_h: float) -> list[float] | None:
        """Each row's height: what its most crowded room needs (a crowded room's tokens lose their names when the
        names do not fit), the height left shared out evenly."""
        assert self.board is not None

        def need(rid: str, r: int, c: int, compact: bool) -> float:
            pieces = self._room_pieces(rid)
            for p in pieces:
                p.squeeze(compact)
            corner = self._corner(r, c, rows, cols)
            way = self.passages.get(rid)
            if any(p.width > rw - 2 * PAD for p in pieces) or (
                    way is not None and way.width > rw - 2 * PAD - (CORNER if corner[1] == "b" else 0.0)):
                return math.inf  # a name wider than its room (a narrow window): no board
            lines = self._lines(pieces, rw - 2 * PAD, self._cut(rid, corner))
            return float((lines + (1 if way is not None else 0)) * LINE + 2 * PAD)

        even = room_h / rows
        needs = [0.0] * rows
        for i, (rid, _, _) in enumerate(self.board.rooms):
            r, c = divmod(i, cols)
            full = need(rid, r, c, False)
            if full > even:  # crowded: its tokens' discs only, if that helps (left squeezed for the layout)
                tight = need(rid, r, c, True)
                full = tight if tight < full else need(rid, r, c, False)
            needs[r] = max(needs[r], full)
        spare = room_h - sum(needs)
        if spare >= 0:
            return [n + spare / rows for n in needs]
        return None  # too little room

    @staticmethod
    def _corner(r: int, c: int, rows: int, cols: int) -> str:
        """The room's corner on the board's edge ('lt', 'rt', 'lb', 'rb'): a corner room's outer corner."""
        return ("l" if c == 0 else "r" if c == cols - 1 else "r") + ("t" if r == 0 else "b" if r == rows - 1 else "t")

    @staticmethod
    def _lines(pieces: list[_Piece], width: float, cut: tuple[float, float]) -> int:
        """The lines `_flow` takes for these pieces in this width."""
        lines, x, right = 1, cut[0], width - cut[1]
        for p in pieces:
            if x > cut[0] and x + p.width > right:
                lines, x, right = lines + 1, 0.0, width
            x += p.width + ITEM_GAP
        return lines

    @staticmethod
    def _flow(pieces: list[_Piece], box: tuple[float, float, float, float], bg: tuple[float, ...],
              cut: tuple[float, float]) -> None:
        """Left to right from the top, wrapping; the first line leaves `cut` (left, right) for a corner mark."""
        bx, by, bw, bh = box
        x, line = bx + PAD + cut[0], 0
        right = bx + bw - PAD - cut[1]
        for p in pieces:
            if x > bx + PAD + cut[0] and x + p.width > right:
                line += 1
                x, right = bx + PAD, bx + bw - PAD
            p.place(x, by + bh - PAD - (line + 1) * LINE, (bx, by, bw, bh), bg)
            x += p.width + ITEM_GAP

    # -- what tests see (kiosk/widgets/marks.py)
    def _pieces(self) -> list[_Piece]:
        if self.cards is None or self.opacity == 0:
            return []
        return [*(r[1] for r in self.rooms.values()), *self.passages.values(), self.corridor, *self.tokens.values(),
                *self.weapons.values()]

    def drawn_cells(self) -> list[DrawnCell]:
        self._layout()  # a layout still to come in this frame: now (nothing when it is done)
        out = []
        self._shown_pieces = [p for p in self._pieces() if p.shown]
        for i, p in enumerate(self._shown_pieces):
            x, y, w, h = p.box
            wx, wy = self.to_window(x, y)
            out.append(DrawnCell(self, i, p.test_id, "" if p.compact else p.text, p.font, tuple(p.ink_rgba), tuple(p.bg), False,
                                 (wx, wy, w, h), (DISC, DISC) if p.compact else (float(p.tex.width), float(p.tex.height))))
        return out

    def text_room(self, i: int) -> float:
        """The width left for a drawn name (its box, cut to its room, less its marker), or for a disc without one."""
        p = self._shown_pieces[i]
        return p.box[2] if p.compact else p.box[2] - p.lead  # a disc alone: its own box
