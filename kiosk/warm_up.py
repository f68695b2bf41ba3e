"""Warm-up before the heap is frozen: what the first visits of the game screens would build anyway, one piece
per idle frame (`gc_policy.settle_after` runs the steps, then collects and freezes), so a guest's first tap
on a game pays neither the import nor the build."""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kiosk.app_api import KioskApp


PHONES_PANEL = "kiosk.phones.panel"  # the host bar's phones panel (and its code side)


def warm_steps(app: KioskApp) -> Iterator[Callable[[], Any]]:
    """What the first visits of the game screens would build anyway, one piece per step (gc_policy.settle_after
    runs them in idle frames before freezing the heap): the library, game page and host frame, each
    playable game's screen module (its engine and kv rules), and the string catalogs read on first use (the
    phones' labels in both languages, which also word the first confirmation asked from code, the
    screen's other language, the table's refusals' own two: ~80 ms each), the on-screen keyboard's keys, the library's cards and filters (made
    and drawn at its size: its first visit made them in one frame, 24-44 ms), and the set-up form a game's screen
    keeps; meanwhile the rule look-up's index is built in a thread (the first search built it in a keystroke's
    frame) and waited for at the end, so it is frozen too. Waits a frame at a time for the content, still loading in its thread (the screens would wait for it
    on the UI thread); none if it never comes."""
    from content.i18n_catalog import LANGS
    from kiosk.screens.host import host_class
    from kiosk.teach.lookup import build_in_background, overlay_for
    from phones.labels import Catalogs

    deadline = time.monotonic() + 60
    while not app.library_ready() and app.content.job is not None and time.monotonic() < deadline:
        yield lambda: None
    if not app.library_ready():
        return
    rules = build_in_background(overlay_for(app.data_dir))
    yield Catalogs.load
    for lang in LANGS:
        yield functools.partial(app.translator.catalogs.__getitem__, lang)
    yield refusal_texts
    if app.keyboard is not None:
        yield app.keyboard.prepare
    for name in SCREENS:
        yield functools.partial(app.get_screen, name)
    yield functools.partial(importlib.import_module, PHONES_PANEL)  # compiled in the first 휴대폰 tap: 6-8 ms
    yield functools.partial(library_off_screen, app)
    yield functools.partial(draw_off_screen, app, "library")
    for name in LAID_OUT:
        yield functools.partial(size_off_screen, app, name)
        yield functools.partial(draw_off_screen, app, name)
    for game in app.library.games.values():
        if game.playable:
            yield functools.partial(host_class, game.id)
    for game_id in KEEPS_ITS_FORM:
        if game_id in app.library.games and app.library.games[game_id].playable:
            yield functools.partial(open_off_screen, app, game_id)
            yield functools.partial(draw_and_close, app, game_id)
    deadline = time.monotonic() + 60
    while rules is not None and rules.is_alive() and time.monotonic() < deadline:
        yield lambda: None


def refusal_texts() -> None:
    """The table's refusals are worded in both languages from catalogs of their own, read at the first refusal: a
    guest's 'yes' to a confirmation the table then refused read them in that tap's frame (39 ms of UI-thread CPU,
    bench/frames.py)."""
    from table.table import TableRefusal

    TableRefusal("no_game")


# games whose screen keeps its set-up form for the next screen (kiosk/widgets/kept_form.py; the first too)
KEEPS_ITS_FORM = ("spyfall", "watson_holmes", "mr_jack_ny", "clue")


# the screens built before a guest's first visit; those laid out and drawn at their size too (a game's page, the
# teaching): their first visit laid them out from Kivy's default 100x100, every text drawn at width 0 and then at its
# own (the game's page 22 ms of UI-thread CPU in its tap's frame here, 8 ms on later visits; the teaching 64 ms)
SCREENS = ("library", "detail", "host", "teach")
LAID_OUT = ("detail", "teach")


def size_off_screen(app: KioskApp, name: str) -> None:
    """A screen not on show given the size it is shown at: laid out in the frame after."""
    if app.sm.current != name:
        screen = app.get_screen(name)
        screen.pos, screen.size = app.sm.pos, app.sm.size


def library_off_screen(app: KioskApp) -> None:
    """The library's cards and filter buttons made at the size the library is shown at (kept by its Keep: its first
    visit finds them made). Not while it is on show."""
    if app.sm.current == "library":
        return
    screen = app.get_screen("library")
    screen.pos, screen.size = app.sm.pos, app.sm.size
    screen.refresh()


def draw_off_screen(app: KioskApp, name: str) -> None:
    """Draw a screen not on show once, into a texture nobody sees: its labels' texts are drawn (at their laid-out
    width) before its first visit."""
    if app.sm.current != name:
        app.get_screen(name).export_as_image()


def open_off_screen(app: KioskApp, game_id: str) -> None:
    """Build a game's screen in the host frame without showing it, at the size it is shown at (laid out and its
    texts drawn in the frame after): what it keeps for the next screen (its set-up form, 20-45 ms of UI-thread
    CPU in the tap's frame otherwise) is made now. Not while a game is on (the frame would attach it) or the host
    frame is on show."""
    if app.table.playing or app.sm.current == "host":
        return
    screen = app.get_screen("host")
    screen.pos, screen.size = app.sm.pos, app.sm.size
    screen.open_game(game_id)


def draw_and_close(app: KioskApp, game_id: str) -> None:
    """Draw the screen `open_off_screen` built once, into a texture nobody sees (the first drawing of its
    widgets, ~15 ms of UI-thread CPU here, is not in the frame of the first tap on the game), then close it."""
    screen = app.get_screen("host")
    if app.table.playing or app.sm.current == "host" or screen.game_id != game_id or screen.ctx is None:
        return
    screen.export_as_image()
    screen.clear_body()
