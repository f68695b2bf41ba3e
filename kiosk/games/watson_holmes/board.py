"""Watson & Holmes's board on its table screen: the case's rows of location tiles (kiosk/games/watson_holmes/tiles.py),
split into lines the board's width takes, and the stops' line (the carriage stop, 221B). Mixed into WatsonHolmesHost
(host.py)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from engines.watson_holmes.content import Case
from engines.watson_holmes.views import LocationRow, WhView
from kiosk.games.watson_holmes.result import ResultParts
from kiosk.games.watson_holmes.tiles import TILE_MIN_W, TileLine, TileRows, WhTile
from kiosk.widgets.keep import Fill, Place


class WhTable(BoxLayout):
    """The table screen (its look: host.kv)."""


class BoardParts(ResultParts):
    """The board of the W&H table screen (WatsonHolmesHost's base)."""

    table: WhTable | None
    sel: str  # the location chosen on the grid
    rows_drawn: int  # the board's rows with their tiles so far (the stops' row last)
    tiles_a_line: int  # the most tiles a line of the board had at its last drawing
    drawn: set[str]  # the table's parts drawn so far

    if TYPE_CHECKING:  # WatsonHolmesHost's, declared for the type checker only
        def choose(self, location: str) -> None: ...

    @staticmethod
    def _rows(case: Case) -> list[list[int]]:
        """The case's layout of location numbers, row by row."""
        return [list(r) for r in case.layout] or [
            [loc.number for loc in case.locations[i:i + 5]] for i in range(0, len(case.locations), 5)]

    def _board(self, view: WhView) -> None:
        """The locations' rows and the stops (cab, 221B); only the first `rows_drawn` rows' tiles while a new table
        is still being made."""
        ids = self.table.ids  # type: ignore[union-attr]  # (drawn on a table)
        over = view.phase == "over"
        with Fill(self.keep, ids.stops, "wh_stops") as line:  # (none under the solution)
            if not over:
                self._stops(line, view)
        with Fill(self.keep, ids.board, "wh_board") as box:  # kept widgets
            if over:
                self._solution(box, view)
                return
            case = self.case()
            by_number = {loc.number: loc for loc in view.locations}
            rows = self._rows(case)
            self.tiles_a_line = self._tiles_a_line()
            for i, row in enumerate(rows):
                with box.box_of(TileRows, f"row{i}", orientation="vertical", spacing=dp(6)) as lines:
                    if i >= self.rows_drawn:  # its tiles still to make (a frame a row)
                        lines.add(Place, "place")
                        continue
                    for j, part in enumerate(self._lines(row)):
                        with lines.box_of(TileLine, f"line{j}", spacing=dp(6)) as line:
                            for number in part:
                                self._tile(line, case, by_number[number])

    def _stops(self, line: Fill, view: WhView) -> None:
        """The carriage stop and 221B (the last of a new table's rows to be made: their room kept till then)."""
        if len(self._rows(self.case())) >= self.rows_drawn:
            line.add(Place, "place")
            return
        for key, seats in (("cab", view.cab), ("221b", tuple(b.seat for b in view.baker))):
            names = ", ".join(self.name(s) for s in seats)
            text = self.tr(f"loc.{'cab' if key == 'cab' else 'baker'}")
            if names:
                text += "\n" + self.tr("loc.here", names=names)
            line.add(WhTile, "", partial(self.choose, key), text=text, test_id=f"wh_loc_{key}",
                     picked=self.sel == key, signs=["cab" if key == "cab" else "baker"])

    def _tiles_a_line(self) -> int:
        """How many tiles a line of the board takes at TILE_MIN_W each at least."""
        board = self.table.ids.board  # type: ignore[union-attr]  # (drawn on a table)
        return max(1, int((board.width + dp(6)) // (dp(TILE_MIN_W) + dp(6))))

    def _lines(self, row: list[int]) -> list[list[int]]:
        """A case's row in even lines of at most `tiles_a_line` tiles (5 at 1024x600, 3 a line: 3 and 2)."""
        count = -(-len(row) // self.tiles_a_line)
        size = -(-len(row) // count) if row else 1
        return [row[i:i + size] for i in range(0, len(row), size)]

    def _board_width(self, *_: Any) -> None:
        """Its lines again when the board's width takes another number of tiles a line (the window resized)."""
        if "_board" in self.drawn and self.table is not None and self._tiles_a_line() != self.tiles_a_line \
                and self.ctx.playing:
            self._board(self.seen())

    def marks(self, location: str) -> str:
        """A location's marks in words (its tile draws them as signs): "경찰 불가 · 잠김"."""
        if location in ("cab", "221b"):
            return ""
        card = self.case().location(int(location))
        view = self.seen().location(location)
        police = view is not None and view.police
        return " · ".join(self.tr(k) for k, on in (("loc.police", police), ("loc.locked", card.locked),
                                                    ("loc.no_police", card.no_police),
                                                    ("loc.no_watson", card.no_watson)) if on)

    def _tile(self, line: Fill, case: Case, loc: LocationRow) -> WhTile:
        card = case.location(loc.number)
        lines = [f"{card.number}. {self.pick(card.name)}"]  # its marks: its signs, and in words once chosen
        if loc.occupant is not None:
            who = self.name(loc.occupant)
            lines.append(self.tr("loc.occupant", name=who, n=loc.bid) if loc.bid
                         else self.tr("loc.walker", name=who))
        signs = [k for k, on in (("police", loc.police), ("locked", card.locked), ("no_police", card.no_police),
                                 ("no_watson", card.no_watson)) if on]
        return line.add(WhTile, "", partial(self.choose, str(card.number)), text="\n".join(x for x in lines if x),
                        test_id=f"wh_loc_{card.number}", picked=self.sel == str(card.number), signs=signs)
