"""Clue's board on the table screen (kiosk/games/clue/board.py), driven by taps, checked in screenshots."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from engines.clue.state import SuggestionRecord
from engines.clue.views import ClueView

pytestmark = pytest.mark.ui


def _start(driver: Any, names: list[str]) -> Any:
    driver.app.host("clue")
    driver.wait_screen("host")
    driver.tap(f"clue_count_{len(names)}")
    for i, name in enumerate(names):
        driver.fill(f"clue_name_{i}", name)
    driver.tap("clue_start")
    driver.app.dismiss_dialogs()  # the round of hands (tested in test_clue.py)
    driver.pump(20)  # the rows, the board, the grids made ahead: one per frame
    return driver.app.table


def _check(driver: Any, name: str) -> None:
    assert driver.screenshot(name).stat().st_size > 5000
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def _cell(driver: Any, test_id: str) -> Any:
    found = [c for c in driver.drawn() if c.test_id == test_id]
    assert len(found) == 1, (test_id, [c.test_id for c in driver.drawn()])
    return found[0]


def _in_room(driver: Any, piece: str, room: str) -> bool:
    """The piece's name is drawn inside the room's box on the board (and the board says so)."""
    board = driver.find("clue_board")
    x, y, w, h = board.room_boxes[room]
    cx, cy = _cell(driver, piece).center
    return x <= cx <= x + w and y <= cy <= y + h and board.drawn_in[piece.rpartition("_")[2]] == room


def test_a_suggestion_moves_the_token_and_the_weapon_on_the_board(driver: Any) -> None:
    """Covers CLUE-31, CLUE-34, CLUE-08, CLUE-09: the board fills the table screen's empty half: nine rooms, each
    weapon in a room of its own, every token (the unused ones too) on the corridor strip. Scarlet's player rolls,
    enters the Lounge and suggests Mr. Green with the wrench, by taps: the board then shows 스칼렛, 그린 and 렌치
    in the Lounge (ringed: what the suggestion moved) and the wrench gone from the room it stood in."""
    session = _start(driver, ["지수", "민호", "서연", "하준"])
    board = driver.find("clue_board")
    assert board.opacity == 1 and board.height > 300
    rooms = session.state.cards.ids(2)
    assert all(_cell(driver, f"clue_board_room_{r}").text for r in rooms)
    assert _cell(driver, "clue_board_room_lounge").text == "라운지"
    assert _cell(driver, "clue_board_corridor").text == "복도/시작"
    for s, short in (("scarlet", "스칼렛"), ("green", "그린"), ("plum", "플럼")):
        assert _cell(driver, f"clue_board_token_{s}").text == short and board.drawn_in[s] == ""
    came_from = session.state.weapons[session.state.cards.ids(1).index("wrench")]
    assert _in_room(driver, "clue_board_weapon_wrench", came_from)
    assert len(set(board.drawn_in[w] for w in session.state.cards.ids(1))) == 6
    _check(driver, "clue_board_start")
    driver.tap("clue_roll")
    driver.tap("clue_room_lounge")
    driver.tap("clue_sus_green")
    driver.tap("clue_wpn_wrench")
    driver.tap("clue_suggest")
    assert session.state.history[-1].named == ("green", "wrench", "lounge")
    board = driver.find("clue_board")
    assert board.opacity == 1
    for piece in ("clue_board_token_scarlet", "clue_board_token_green", "clue_board_weapon_wrench"):
        assert _in_room(driver, piece, "lounge"), piece
    if came_from != "lounge":
        assert not _in_room(driver, "clue_board_weapon_wrench", came_from)
    assert board.ringed == {"green", "wrench"}  # what the suggestion moved (not Scarlet, who walked in)
    assert _cell(driver, "clue_board_token_mustard").text == "머스타드" and board.drawn_in["mustard"] == ""
    _check(driver, "clue_board_suggested")


def _board_view(tokens: dict[str, str], weapons: dict[str, str], suggestions: tuple[SuggestionRecord, ...]
                ) -> ClueView:
    """A classic game's table view with its pieces placed as given (the board draws the public part only)."""
    from engines.clue import ENGINE
    from tests.packs import pack_for

    state = ENGINE.setup({"players": ["가", "나", "다"], "mode": "digital", "set": "classic"}, pack_for("clue"), 1)
    return replace(ENGINE.observe(state, None).part(ClueView), tokens=tokens, weapons=weapons, suggestions=suggestions)


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_crowded_room_keeps_every_name_inside_it(driver: Any, lang: str) -> None:
    """Covers CLUE-38: no limit to the pieces in one room. All six tokens and six weapons in the Hall of a board
    at its smallest: every name drawn stays inside its room (the tokens keep their discs, their names go); at a
    roomy size the names come back. Where even that would cut a name (the longer English names), and below its
    smallest size, the board hides (the actions need the column)."""
    from engines.clue.content import CLASSIC
    from kiosk.games.clue.board import MIN_H, ClueBoard

    view = _board_view(dict.fromkeys(CLASSIC.ids(0), "hall"), dict.fromkeys(CLASSIC.ids(1), "hall"),
                       (SuggestionRecord(1, 0, "plum", "rope", "hall"),))
    board = ClueBoard(size=(812, MIN_H), pos=(0, 0))
    tr = driver.app.translator.catalogs[lang].get  # the catalog's words in that language
    board.show(view, CLASSIC, lambda c: CLASSIC.card(c).name(lang), lambda s: CLASSIC.card(s).short_name(lang),
               tr("clue.board.corridor"), lambda to: tr("clue.board.passage").format(room=CLASSIC.card(to).name(lang)))
    cells = board.drawn_cells()
    assert all(c.fits() for c in cells), [c.test_id for c in cells if not c.fits()]
    if lang == "ko":  # fits at its smallest, the tokens as discs
        assert board.opacity == 1 and all(board.drawn_in[p] == "hall" for p in (*CLASSIC.ids(0), *CLASSIC.ids(1)))
        texts = {c.test_id: c.text for c in cells}
        assert texts["clue_board_weapon_revolver"] == "연발 권총" and texts["clue_board_token_plum"] == ""
    else:
        assert board.opacity == 0 and cells == []
    board.size = (1200, 900)
    cells = board.drawn_cells()
    assert all(c.fits() for c in cells) and {c.test_id: c.text for c in cells}["clue_board_token_plum"] == (
        "플럼" if lang == "ko" else "Plum")
    from kiosk.testing import ARTIFACTS

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    board.export_to_png(str(ARTIFACTS / f"clue_board_crowded_{lang}.png"))  # looked at: the Hall's pieces, all inside
    board.size = (812, MIN_H - 1)
    assert board.drawn_cells() == [] and board.opacity == 0


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_on_a_1024_window_the_board_fits_or_hides(driver: Any, lang: str) -> None:
    """At 1024x600 the board's column is ~556 dp wide: the classic start (a weapon in six rooms, every token on the
    strip) is drawn with every name inside its room (Korean), or not at all where a name would not fit (English
    'Passage: Conservatory'); never cut."""
    from engines.clue.content import CLASSIC
    from kiosk.games.clue.board import ClueBoard
    from kiosk.testing import ARTIFACTS

    rooms = CLASSIC.ids(2)
    view = _board_view(dict.fromkeys(CLASSIC.ids(0), ""), {w: rooms[i] for i, w in enumerate(CLASSIC.ids(1))}, ())
    tr = driver.app.translator.catalogs[lang].get
    board = ClueBoard(size=(556, 400), pos=(0, 0))
    board.show(view, CLASSIC, lambda c: CLASSIC.card(c).name(lang), lambda s: CLASSIC.card(s).short_name(lang),
               tr("clue.board.corridor"), lambda to: tr("clue.board.passage").format(room=CLASSIC.card(to).name(lang)))
    cells = board.drawn_cells()
    assert all(c.fits() for c in cells), [c.test_id for c in cells if not c.fits()]
    assert (board.opacity == 1 and len(cells) > 20) if lang == "ko" else cells == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    board.export_to_png(str(ARTIFACTS / f"clue_board_1024_{lang}.png"))  # looked at
