"""kiosk.gc_policy.settle_after and the app's warm-up: what first visits would build, made in idle frames
before the heap is frozen."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest

from kiosk.warm_up import KEEPS_ITS_FORM, LAID_OUT, PHONES_PANEL, SCREENS, warm_steps

# steps before the games': phones' catalogs, both languages, the table's refusals', keyboard, the screens, the phones
# panel's module, library made, drawn, and the screens laid out and drawn at their size
WARM = 6 + len(SCREENS) + 2 + 2 * len(LAID_OUT)


def rules_indexed(app: Any) -> None:
    """The rule look-up's index built already: the warm-up has no frames to wait for it (a count of steps)."""
    from kiosk.teach.lookup import index, overlay_for

    index(overlay_for(app.data_dir))


def test_steps_run_one_per_frame_then_the_heap_is_settled(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from kiosk import gc_policy

    ran: list[Any] = []
    monkeypatch.setattr(gc_policy, "settle", lambda: ran.append("settled") or 7)

    def broken() -> None:
        raise RuntimeError("a step that fails is skipped")

    gc_policy.settle_after([lambda: ran.append(1), broken, lambda: ran.append(2)], done=ran.append)
    driver.pump(1)
    assert ran == [1]  # one step in a frame, not all of them
    driver.pump(4)
    assert ran == [1, 2, "settled", 7]


def test_warm_up_builds_the_screens_and_loads_every_playable_game(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Also the catalogs read on first use: the first confirmation asked from code read both phones' catalogs in
    its frame (~160 ms here), a switch to English the screen's English catalog, the first refusal the table's own
    two (39 ms in a guest's tap); and the set-up form each game's
    screen keeps, so the first tap on a game takes it."""
    from content.i18n_catalog import LANGS
    from kiosk.games.clue import host as clue
    from kiosk.games.mr_jack_ny import host as mr_jack_ny
    from kiosk.games.spyfall import setup
    from kiosk.games.watson_holmes import host as watson_holmes
    from kiosk.widgets.kept_form import Kept
    from phones import labels
    from table import table

    app = driver.app
    table._translator.cache_clear()  # the table's refusals' catalogs: read at the first refusal otherwise
    monkeypatch.setattr(labels, "_LOADED", {})
    monkeypatch.setattr(app.translator, "catalogs", type(app.translator.catalogs)(app.translator.catalogs.roots))
    kept = {"spyfall": setup, "watson_holmes": watson_holmes, "mr_jack_ny": mr_jack_ny, "clue": clue}
    for module in kept.values():
        monkeypatch.setattr(module, "KEPT", Kept())
    rules_indexed(app)
    steps = list(warm_steps(app))
    playable = [g.id for g in app.library.games.values() if g.playable]
    assert set(KEEPS_ITS_FORM) == set(kept) and set(kept) <= set(playable)
    assert len(steps) == WARM + len(playable) + 2 * len(kept)
    assert [s for s in steps if getattr(s, "args", ()) == (PHONES_PANEL,)]  # imported before the first 휴대폰 tap
    for step in steps:
        step()
        driver.pump(1)  # one step per frame, as gc_policy.settle_after runs them
    assert labels.Catalogs in labels._LOADED and set(app.translator.catalogs) == set(LANGS)
    assert "ko" in table._translator("ko").catalogs and "en" in table._translator("en").catalogs
    forms = {game: module.KEPT.form for game, module in kept.items()}  # made and let go: the first tap takes them
    assert all(f is not None and f.host is None and f.parent is None for f in forms.values()), [
        (g, f, f and f.host, f and f.parent) for g, f in forms.items()]
    sizes = {game: tuple(f.size) for game, f in forms.items()}  # laid out (and drawn) at the size they are shown at
    assert app.get_screen("host").host_widget is None
    assert all(app.sm.has_screen(name) for name in ("library", "detail", "host"))
    assert all(f"kiosk.games.{g}" in sys.modules or g not in kept for g in playable)
    assert app.sm.current == "attract"  # built, not shown
    from kiosk.warm_up import draw_and_close, open_off_screen

    monkeypatch.setattr(app.table, "_session", object())  # a game on (resumed): its screen is not built and closed
    open_off_screen(app, "spyfall")
    draw_and_close(app, "spyfall")
    assert forms["spyfall"].host is None and app.get_screen("host").host_widget is None
    monkeypatch.setattr(app.table, "_session", None)
    for game in kept:
        app.host(game)
        driver.wait_screen("host")
        assert app.get_screen("host").ctx.host.setup_form is forms[game]
        assert tuple(forms[game].size) == sizes[game], game
        app.go("library")
        driver.wait_screen("library")


def test_warm_up_waits_for_the_content_still_loading(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    app = driver.app
    library = app.library
    playable = [g for g in library.games.values() if g.playable]
    rules_indexed(app)
    monkeypatch.setattr(app.content, "library", None)  # still loading in its thread
    monkeypatch.setattr(app.content, "job", object())
    steps = warm_steps(app)
    for _ in range(3):
        next(steps)()  # a frame of waiting each, nothing built
    monkeypatch.setattr(app.content, "library", library)
    assert len(list(steps)) == WARM + len(playable) + 2 * len(KEEPS_ITS_FORM)
    monkeypatch.setattr(app.content, "library", None)
    monkeypatch.setattr(app.content, "job", None)  # it failed and nothing is loading it: no warm-up
    assert list(warm_steps(app)) == []


def test_the_rule_index_and_the_keyboard_are_made_before_the_first_search(driver: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The first keystroke in the rule look-up ("?" on a game's screen, or voice's 도움말) built every game's rule
    index in its frame: 250-470 ms of UI-thread CPU here. The warm-up builds it in a thread and waits for it (so
    it is frozen with the rest); the search then finds it built. The first focused field made the on-screen
    keyboard's keys in its frame (53-58 ms): the warm-up makes them."""
    from kiosk.teach import loader, lookup

    app = driver.app
    app.keyboard.close()
    app.keyboard.widget = None  # as at start: no field focused yet
    monkeypatch.setattr(lookup, "_INDEX", {})
    real, read = loader.load_teaching, []

    def load_teaching(*args: Any, **kw: Any) -> Any:  # read for the index, once per game
        read.append(threading.current_thread().name)
        return real(*args, **kw)

    monkeypatch.setattr(loader, "load_teaching", load_teaching)
    for step in warm_steps(app):
        step()
        driver.pump(1)
    built = set(read)
    assert built == {"rule-index"}
    keys = app.keyboard.widget
    assert keys is not None and keys.parent is None and not app.keyboard.visible
    app.host("spyfall")
    driver.wait_screen("host")
    driver.tap("help")
    box = driver.find("lookup_input")
    driver.tap(box)
    assert app.keyboard.widget is keys and driver.find("kb_ㄷ") is keys.keys["ㄷ"]
    for key in ("kb_ㄷ", "kb_ㅣ", "kb_ㄹ", "kb_ㄹ", "kb_ㅓ"):  # 딜러
        driver.tap(key)
    driver.pump(2)
    assert box.text == "딜러" and driver.find("lookup_hit_0").text == "딜러"
    assert set(read) == built  # not again, nor on the UI thread
    driver.tap("kb_done")
    driver.tap("lookup_close")


def test_the_library_first_visit_finds_its_cards_made_and_drawn(driver: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """#21: the library's first visit (voice's 처음으로 from a game) made its cards and filter buttons and drew their
    markup in one frame, 24-44 ms of UI-thread CPU; the warm-up makes and draws them at the library's size."""
    from kivy.uix.label import Label

    app = driver.app
    rules_indexed(app)
    for step in warm_steps(app):
        step()
        driver.pump(1)
    library = app.get_screen("library")
    made = library._keep.made
    assert made > 0 and app.sm.current == "attract"
    drawn: list[str] = []
    real = Label.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # named as Kivy's weak methods look it up
        drawn.append(self.text)
        real(self, *args)

    monkeypatch.setattr(Label, "texture_update", texture_update)
    app.go("library")  # not driver.wait_screen: its layout checks draw every label's text again themselves
    driver.wait_for(lambda: app.sm.current == "library" and not app.sm.transition.is_active)
    driver.pump(3)
    assert library._keep.made == made  # no card nor filter made anew
    cards = [w for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")]
    assert cards and not [c.text for c in cards if c.text in drawn]  # nor their texts drawn again


@pytest.mark.parametrize("name", ["detail", "teach"])
def test_a_screens_first_visit_finds_it_laid_out_and_the_teaching_read(driver: Any, monkeypatch: pytest.MonkeyPatch,
                                                                        name: str) -> None:
    """#43: the game's page and the teaching were laid out on their first visit from Kivy's default 100x100, every
    text drawn at width 0 and then at its own in the tap's frame (the page 22 ms of UI-thread CPU here, 8 ms on later
    visits), and the teaching's first visit to a game read and checked its content there (64 ms) though the rule
    look-up's index had read it already in a thread. The warm-up lays both out at their size; a teaching read is
    kept until its files change."""
    from kivy.uix.label import Label

    from kiosk.teach import loader

    app = driver.app
    if app.sm.current in ("detail", "teach"):
        app.go("attract")
        driver.wait_for(lambda: not app.sm.transition.is_active)
    rules_indexed(app)
    for step in warm_steps(app):
        step()
        driver.pump(1)
    screen = app.get_screen(name)
    drawn: dict[int, int] = {}
    real = Label.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # named as Kivy's weak methods look it up
        drawn[id(self)] = drawn.get(id(self), 0) + 1
        real(self, *args)

    read: list[str] = []
    monkeypatch.setattr(loader, "load_typed", lambda *a: read.append(str(a[0])) or (None, None))
    monkeypatch.setattr(Label, "texture_update", texture_update)
    game = "clue"
    app.open_game(game) if name == "detail" else app.teach(game)
    driver.wait_for(lambda: app.sm.current == name and not app.sm.transition.is_active)
    driver.pump(3)
    monkeypatch.undo()
    assert [n for n in drawn.values() if n > 1] == []  # no text drawn at two widths
    assert read == []  # the teaching was not read again on the UI thread
    if name == "teach":
        assert screen.gt is not None and screen.gt.game_id == game and screen.pages
