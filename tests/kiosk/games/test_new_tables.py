"""A new game's table is made a part per frame, not all in the frame of the tap that started (or resumed) the game:
W&H's while the case opening plays (off screen), else over the frames after it shows; Clue's player rows and Mr.
Jack's panels in the frames after the first. What is there does not move as the rest comes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.games.watson_holmes_steps import resumed

pytestmark = pytest.mark.ui


@pytest.fixture(autouse=True)
def _captions_only(driver: Any) -> Any:
    before = getattr(driver.app, "narrator", None)
    driver.app.narrator = None
    yield
    driver.app.narrator = before


def _host(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host


def _tiles(table: Any) -> list[Any]:
    from kiosk.games.watson_holmes.tiles import WhTile

    return [w for box in (table.ids.board, table.ids.stops) for w in box.walk(restrict=True) if isinstance(w, WhTile)]


def test_the_table_is_made_while_the_opening_plays(driver: Any) -> None:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    host = _host(driver)
    spare = host.spare  # the table's frame, made in a frame of the set-up form's: the start's frame makes none
    assert spare is not None and spare.parent is None
    driver.tap("wh_start")
    assert host.opening is not None
    driver.pump(12)
    table = host.table
    assert table is spare and table.parent is None  # made, not shown: the opening plays
    tiles = _tiles(table)
    assert len(tiles) >= 9 and all(t.text for t in tiles) and table.ids.players.children
    assert table.size == host.size  # laid out at the size it is shown at
    for _ in range(3):
        if driver.find("wh_open_begin").disabled:
            driver.tap("wh_open_skip")
    made = host.keep.made
    driver.tap("wh_open_begin")
    assert host.table is table and table.parent.parent is host and host.opening is None
    assert host.keep.made == made  # the tap that begins the game makes no widget of the table
    driver.screenshot("wh_table_made_during_opening")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def test_a_resumed_table_fills_in_without_moving(driver: Any) -> None:
    """Resumed, the tap's frame makes the screen only (no set-up form either), the next the table's frame and its
    status; the first row comes in the frame after, the action bar, the other rows and a player row a frame each after
    it, and nothing shown moves as the rest comes."""
    app = driver.app
    host = resumed(driver)  # the game resumes: no opening
    assert host.setup_form is None and host.table is None and not host.children
    driver.pump(2)  # drawn, then the table's frame
    table = host.table
    assert table is not None and table.parent.parent is host and table.ids.status.text
    assert not _tiles(table) and not table.ids.actions.children and not table.ids.players.children
    rows = host._rows(host.case())
    players = len(app.table.view(None)["common"]["players"])
    driver.pump(1)  # the first row
    first = _tiles(table)
    assert len(first) == len(rows[0])
    driver.pump(1)  # laid out and drawn: the first row where it stays
    where = _where(first)
    for _ in range(len(rows) + players + 2):
        driver.pump(1)
        assert _where(first) == where and _tiles(table)[: len(first)] == first
    tiles = _tiles(table)
    assert len(tiles) == sum(len(r) for r in rows) + 2 and len(table.ids.players.children) == players + 1
    assert table.ids.actions.children and not host.pieces
    driver.wait_screen("host")
    driver.screenshot("wh_table_resumed")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def test_a_tile_tapped_while_the_table_fills_in_is_chosen(driver: Any) -> None:
    """A tap on the first row before the rest of a resumed table is made is not lost: the tile is chosen and the
    action bar, made after the tap, offers the visit."""
    host = resumed(driver)
    driver.pump(3)
    tile = _tiles(host.table)[0]
    assert host.pieces  # the rest still to make
    driver.tap(tile, frames=0)
    driver.pump(12)
    assert not host.pieces and host.sel == tile.test_id.removeprefix("wh_loc_")
    assert driver.find(tile.test_id).picked  # (its own property: see WhTile)
    assert driver.find("wh_visit") and driver.find("wh_bid_more")


def test_a_new_game_on_a_resumed_screen_reuses_its_table(driver: Any) -> None:
    """A new game started on a screen that resumed one (the guests' voice 이전, then a start): the last table's frame,
    emptied, is the new one's; nothing of the last game is on it once the new game's parts are made."""
    from engines import find_engine

    app = driver.app
    host = resumed(driver)
    driver.pump(20)
    table, old = host.table, _tiles(host.table)  # held: no id used again
    game = app.library.games["watson_holmes"]
    config = find_engine(game.engine_name).example_configs(game.pack)[-1]
    ctx = app.get_screen("host").ctx
    assert ctx.start(config, seed=3)
    assert host.table is table and not _tiles(table) and table.ids.prompt.text == ""
    driver.pump(20)
    rows = host._rows(host.case())
    tiles = _tiles(table)
    assert len(tiles) == sum(len(r) for r in rows) + 2 and not set(map(id, tiles)) & set(map(id, old))
    names = [p["name"] for p in app.table.view(None)["common"]["players"]]
    assert len(table.ids.players.children) == len(names) + (len(names) < 7)
    shown = " ".join(driver.texts())
    assert all(n in shown for n in names)


def _where(widgets: list[Any]) -> list[tuple[float, ...]]:
    return [tuple(w.to_window(*w.pos)) + tuple(w.size) for w in widgets]


def test_clue_player_rows_come_one_per_frame_in_their_places(driver: Any) -> None:
    """The start tap's frame shows the title and the places; the actions come in the next frame, then the rows."""
    app = driver.app
    app.host("clue")
    driver.wait_screen("host")
    driver.tap("clue_count_6")
    driver.tap("clue_start", frames=0)
    n = len(app.table.view(None)["players"])
    assert n == 6
    driver.pump(1)  # the start tap's frame
    assert not driver.find_all("clue_notebook_0") and not driver.find_all("clue_roll")
    driver.pump(1)
    assert driver.find_all("clue_roll") and not driver.find_all("clue_notebook_0")
    driver.pump(1)
    assert len(driver.find_all("clue_notebook_0")) == 1 and not driver.find_all("clue_notebook_1")
    driver.pump(1)
    first = [driver.find("clue_notebook_0"), driver.find("clue_roll")]
    where = _where(first)
    driver.pump(n + 2)
    assert all(driver.find_all(f"clue_notebook_{i}") for i in range(n))
    assert _where(first) == where and driver.find("clue_notebook_0") is first[0]


def test_mr_jack_panels_come_after_the_start_frame(driver: Any) -> None:
    app = driver.app
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    spare = _host(driver).spare  # the table's frame, made in a frame of the set-up form's
    assert spare is not None and spare.parent is None
    driver.tap("mj_start", frames=0)  # the start tap's frame: the status line, empty panels, Jack's hand-over
    table = _host(driver).table
    assert _host(driver).table_scroll is spare and table is spare.children[0]
    assert not table.ids.center.children and not table.ids.suspects.children
    driver.pump(1)
    where = _where([table.ids.center, table.ids.track, table.ids.suspects])
    driver.pump(5)
    assert table.ids.center.children and table.ids.track.children and table.ids.suspects.children
    assert _where([table.ids.center, table.ids.track, table.ids.suspects]) == where


def test_mr_jack_new_game_on_its_screen_reuses_the_table(driver: Any) -> None:
    """한 판 더 or a new game on the same screen: the last table's frame, emptied, holds the new game's panels, made a
    piece per frame again; nothing of the last game is left on it."""
    from engines import find_engine

    app = driver.app
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start")
    app.dismiss_dialogs()
    driver.pump(20)
    host = _host(driver)
    scroll, table = host.table_scroll, host.table
    ids = table.ids
    boxes = (ids.track, ids.center, ids.suspects)
    old = [w for box in boxes for w in box.walk(restrict=True) if w not in boxes]  # held: no id used again
    assert len(host.suspect_tiles) == 8 and len(host.track_rows) == 8
    game = app.library.games["mr_jack_ny"]
    config = find_engine(game.engine_name).example_configs(game.pack)[0]
    assert app.get_screen("host").ctx.start(config, seed=5)
    assert host.table_scroll is scroll and host.table is table and scroll.parent is host
    assert not ids.center.children and not ids.track.children and not ids.suspects.children
    driver.pump(20)
    assert len(host.suspect_tiles) == 8 and len(host.track_rows) == 8
    assert len(ids.suspects.children) == 10 and len(ids.track.children) == 10  # title, 8, filler: once each
    new = {id(w) for box in boxes for w in box.walk(restrict=True)}
    assert not new & {id(w) for w in old}
    assert ids.round_label.text == app.tr("mr_jack_ny.status.round", n=1)


def test_mr_jack_resumed_by_a_new_screen_fills_in_without_moving(driver: Any) -> None:
    """The tap that resumes the game makes the screen only; its table's frame and status come in the next frame, the
    panels after it, in their places."""
    app = driver.app
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    driver.tap("mj_start")
    app.dismiss_dialogs()
    app.go("detail")
    driver.wait_screen("detail")
    app.get_screen("host").clear_body()  # as after a restart (left for the page, the same screen shows again)
    app.host("mr_jack_ny")
    host = _host(driver)
    assert host.setup_form is None and host.table is None and not host.children
    driver.pump(2)
    table = host.table
    assert table is not None and table.ids.round_label.text and not table.ids.center.children
    driver.pump(1)
    where = _where([table.ids.center, table.ids.track, table.ids.suspects, table.ids.bottom_row])
    driver.pump(16)
    assert len(host.track_rows) == 8 and len(host.suspect_tiles) == 8 and driver.find_all("mj_secret_jack")
    assert _where([table.ids.center, table.ids.track, table.ids.suspects, table.ids.bottom_row]) == where
    assert not host.pieces


def test_mr_jack_cards_on_offer_come_two_a_frame_in_their_places(driver: Any) -> None:
    """A new table's first pick: the centre's title and the cards' places first, the cards (markup: the most drawing of
    the centre) two a frame in those places; the first ones do not move as the others come, and a tap on one picks."""
    from engines import find_engine

    app = driver.app
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    game = app.library.games["mr_jack_ny"]
    ctx = app.get_screen("host").ctx
    assert ctx.start(find_engine(game.engine_name).example_configs(game.pack)[0], seed=1)
    center = _host(driver).table.ids.center

    def cards() -> list[Any]:
        return [w for w in center.walk(restrict=True) if str(getattr(w, "test_id", "")).startswith("mj_pick_")]

    counts, first, where = [], [], []
    for _ in range(8):
        driver.pump(1)
        counts.append(len(cards()))
        if counts[-1] == 2 and not first:
            first = cards()
            where = _where(first)
    assert counts[-1] == 4 and first and all(b - a <= 2 for a, b in zip(counts, counts[1:], strict=False))
    driver.pump(3)
    assert _where(first) == where and all(w in cards() for w in first)
    driver.tap(first[0])
    assert app.table.view(None)["common"]["phase"] == "act"
