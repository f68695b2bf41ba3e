"""A closed game's screen is taken apart (kiosk/widgets/dismantle.py): reference counting frees (nearly) all of it
even while frozen, so that a thaw (a traversal of every object, kiosk/gc_policy.py) is rarely needed."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from kiosk import gc_policy
from tests.tables import tap

pytestmark = pytest.mark.ui

GAMES = ("spyfall", "watson_holmes", "mr_jack_ny", "clue")


def start(driver: Any, game: str, seed: int, actions: int) -> Any:
    from engines import find_engine

    app = driver.app
    app.host(game)
    driver.wait_screen("host")
    ctx = app.get_screen("host").ctx
    g = app.library.games[game]
    ctx.start(find_engine(g.engine_name).example_configs(g.pack)[0], seed=seed)
    for _ in range(actions):
        legal = [a for seat in range(6) for a in ctx.table.legal(seat)]
        if legal and ctx.table.outcome is None:
            tap(ctx, legal[seed % len(legal)])
        driver.pump(2)
    return ctx


def screens_garbage() -> int:
    """Collect; how many objects were cyclic garbage, less Kivy's own bookkeeping of unit values: a property set
    in dp or sp is observed by the global Metrics through a BoundCallback that, once its widget is freed, is left
    in a cycle with its own unbind method (2-3 objects a property; after tests that changed the metrics, as
    test_spyfall_form.py's, Spyfall's screen left ~930 of them: share 0.84, everything of the screen itself freed)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
    finally:
        gc.set_debug(0)
    metrics = {"BoundCallback.unbind_callback", "NumericProperty._dpi_callback",
               "VariableListProperty._dpi_callback"}
    kivys = [o for o in gc.garbage if type(o).__name__ == "method" and o.__qualname__ in metrics]
    skip = {id(o) for o in kivys}
    todo = [m.__self__ for m in kivys if m.__qualname__ == "BoundCallback.unbind_callback"]
    while todo:  # those BoundCallbacks, their arguments (a tuple) and weak references
        o = todo.pop()
        if id(o) not in skip:
            skip.add(id(o))
            todo += [r for r in gc.get_referents(o) if type(r).__name__ in ("tuple", "ReferenceType")]
    n = sum(1 for o in gc.garbage if id(o) not in skip)
    gc.garbage.clear()
    return n


def test_a_closed_frozen_game_screen_is_freed_by_reference_counting(driver: Any, monkeypatch: Any) -> None:
    """Each game's screen, played, frozen (as during play) and closed: at least 97 % of what it leaves is freed at
    once by reference counting (measured 0.989-0.992; before, 0.62-0.93: the host held in a cycle by its table's
    `host`, a helper or a clock's callback, a clock off screen not taken apart, Kivy's alias links made while
    unbinding, canvases' before and after groups); the next screen of the same game takes its kept set-up form
    intact and plays. Only what was frozen counts: the garbage of the frames since (the game's page, a toast) is
    collected first, before the thaw, so what earlier tests left or made does not blur the figure."""
    monkeypatch.setattr(gc_policy, "COLLECTOR", None)  # taken apart at once
    app = driver.app
    freed: dict[str, float] = {}
    left: dict[str, int] = {}
    try:
        for game in GAMES:
            start(driver, game, seed=1, actions=4)
            gc.collect()
            gc.freeze()
            frozen = gc.get_freeze_count()
            app.go("detail")
            driver.pump(2)
            app.get_screen("host").clear_body()
            driver.pump(3)
            by_refcount = frozen - gc.get_freeze_count()
            gc.collect()  # the frames' own garbage, not frozen
            gc.unfreeze()
            left[game] = screens_garbage()  # what was frozen and is cyclic garbage now: what the closed screen left
            freed[game] = by_refcount / (by_refcount + left[game])
    finally:
        gc.unfreeze()
    assert min(freed.values()) >= 0.97, (freed, left)
    for game in GAMES:  # a kept set-up form was left out: the next screen takes it and its game starts
        ctx = start(driver, game, seed=2, actions=2)
        assert ctx.playing and ctx.host.children
    assert not app.errors


def test_late_callbacks_on_a_taken_apart_screen_still_run(driver: Any, monkeypatch: Any) -> None:
    """A clock callback that comes after its screen was taken apart (a layout, a label's texture, a clock's tick, a
    row redrawing its tokens) runs without error and draws nothing; a table's `host`, now held weakly, still
    answers while the host lives."""
    from kiosk.widgets.dismantle import closed_widgets, dismantle

    monkeypatch.setattr(gc_policy, "COLLECTOR", None)
    for game in ("spyfall", "mr_jack_ny"):
        ctx = start(driver, game, seed=1, actions=4)
        host = ctx.host
        widgets = closed_widgets(host)
        assert host.table in widgets
        if game == "spyfall":
            assert host.clock.parent is None and host.clock in widgets  # off screen, held by the host: taken too
        driver.app.get_screen("host").clear_body()
        dismantle(widgets)
        assert host.table.host.ctx is ctx  # through the proxy
        for w in widgets:
            for late in ("_trigger_layout", "texture_update", "_tick", "_draw"):
                fn = getattr(w, late, None)
                if callable(fn):
                    fn(0) if late == "_tick" else fn()
            assert not w.children and w.get_root_window() is None
        driver.pump(3)
    assert not driver.app.errors


def test_widgets_a_frozen_screen_replaced_during_play_are_freed_in_a_pause(driver: Any, monkeypatch: Any) -> None:
    """During play a game's screen is frozen (kiosk/gc_policy.py); a widget its Keep replaces after that (a Watson &
    Holmes location tile whose tokens changed, a button of another kind) is frozen cyclic garbage, freed only by a
    thaw, a traversal of every object (most of what a thaw freed in bench/frames.py). Handed to the collector by
    the Keep, it is taken apart in the next pause and freed by reference counting; what the screen shows or keeps
    is untouched and play goes on."""
    import weakref

    from kiosk.games.watson_holmes.tiles import WhTile
    from kiosk.widgets.keep import TEXT_ONLY

    collector = gc_policy.IdleCollector()  # not installed: its pause work is run by hand below
    monkeypatch.setattr(gc_policy, "COLLECTOR", collector)
    # a tile changes its tokens and its chosen state in place now (f0788ce); as any kept widget whose other
    # properties change, it was made again: so here, for the replacements this test is about
    monkeypatch.setattr(WhTile, "KEEP_IN_PLACE", TEXT_ONLY)
    ctx = start(driver, "watson_holmes", seed=3, actions=2)
    keep = ctx.host.keep
    gc.collect()
    gc.freeze()
    gc.disable()  # what is freed below is freed by reference counting
    try:
        before = [weakref.ref(w) for w in {*ctx.host.walk(restrict=True), *keep.widgets()}]
        start_actions = ctx.table.count
        for i in range(12):
            legal = [a for seat in range(6) for a in ctx.table.legal(seat)]
            if not legal or ctx.table.outcome is not None:
                break
            tap(ctx, legal[(i * 7 + 3) % len(legal)])
            driver.pump(2)
        assert ctx.table.count > start_actions
        shown = {id(w) for w in ctx.host.walk(restrict=True)} | keep.holds()
        replaced = [r for r in before if r() is not None and id(r()) not in shown]
        assert replaced, "the play replaced nothing: the test shows nothing"
        while collector.dropped or collector.closed:
            collector.take_closed()
        alive = [r() for r in replaced if r() is not None]
        assert not alive, f"{len(alive)} of {len(replaced)} replaced widgets still alive: {alive[:3]}"
        for i in range(4):  # the screen still plays
            legal = [a for seat in range(6) for a in ctx.table.legal(seat)]
            if legal and ctx.table.outcome is None:
                tap(ctx, legal[i % len(legal)])
            driver.pump(2)
    finally:
        gc.enable()
        gc.unfreeze()
    assert all(w.parent is not None or id(w) in keep.holds() for w in ctx.host.walk(restrict=True))
    assert not driver.app.errors


def test_what_a_taken_apart_widget_scheduled_on_itself_is_cancelled(driver: Any, monkeypatch: Any) -> None:
    """Spyfall's location list makes its rows a few a frame (kiosk/widgets/pieces.py). Taken apart with its screen
    before the last rows were made, the next piece read its `ids` (weak, its children freed) and raised
    ReferenceError in the clock (the random-touch soak found it); now a widget's own pending pieces and clock
    triggers are cancelled when it is taken apart."""
    from kiosk.games.spyfall.panels import LocationList
    from kiosk.widgets.dismantle import closed_widgets, dismantle

    monkeypatch.setattr(gc_policy, "COLLECTOR", None)
    ctx = start(driver, "spyfall", seed=1, actions=0)
    lists: list[Any] = []
    for _ in range(12):  # on show once the roles are dealt
        driver.pump(6)
        lists = [w for w in ctx.host.walk(restrict=True) if isinstance(w, LocationList)]
        legal = [a for seat in range(6) for a in ctx.table.legal(seat)]
        if lists or not legal:
            break
        tap(ctx, legal[0])
        driver.pump(2)
    assert lists
    for w in lists:
        w.fill()
    assert any(len(w.pieces) for w in lists), "no rows left for later frames: the test shows nothing"
    widgets = closed_widgets(ctx.host)
    driver.app.get_screen("host").clear_body()
    dismantle(widgets)
    del widgets, lists
    gc.collect()
    driver.pump(12)
    assert not driver.app.errors


def test_a_taken_apart_scroll_view_is_freed_at_once_though_its_bar_was_fading(driver: Any) -> None:
    """Kivy keeps an animated widget alive until its animation ends: a scroll view's bar fades out (0.5 s, begun
    0.5 s after it last moved), so a list taken apart while it faded lived on, and its canvases became cyclic
    garbage whenever the fade ended (two tests counted them as their own). Taken apart, its animations stop and
    reference counting frees it at once."""
    import weakref

    from kivy.animation import Animation
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from kiosk.widgets.dismantle import closed_widgets, dismantle

    sv = ScrollView()
    sv.add_widget(Label(text="가", size_hint_y=None, height=2000))
    Animation(bar_color=[0.7, 0.7, 0.7, 0], duration=5).start(sv)  # as its bar's fade-out does
    ref = weakref.ref(sv)
    gc.disable()  # only reference counting from here
    try:
        widgets = closed_widgets(sv)
        dismantle(widgets)
        del widgets, sv
        assert ref() is None
    finally:
        gc.enable()
    driver.pump(2)


def test_a_taken_apart_widget_s_kv_bindings_on_the_app_are_gone(driver: Any, monkeypatch: Any) -> None:
    """The Watson & Holmes opening's pause button reads `app.lang` in its kv rule, through `root`. Taken apart with
    its screen while something still held the button, the opening (its root) was freed first and the next language
    change raised ReferenceError in that rule (the random-touch soak: a tap on the attract screen's language
    button). A widget taken apart now drops its kv rules' bindings on other objects."""
    from kivy.lang.builder import _handlers
    from kivy.uix.widget import Widget

    from kiosk.widgets.dismantle import closed_widgets, dismantle

    monkeypatch.setattr(gc_policy, "COLLECTOR", None)
    ctx = start(driver, "watson_holmes", seed=1, actions=0)
    widgets = closed_widgets(ctx.host)
    bound = [w for w in widgets if w.uid in _handlers]
    assert bound, "no kv bindings: the test shows nothing"
    held = list(widgets)  # something still holds them all (a pending callback, a listener)
    driver.app.get_screen("host").clear_body()
    dismantle(widgets)
    assert not [w for w in held if isinstance(w, Widget) and w.uid in _handlers]
    driver.app.set_lang("en")
    driver.app.set_lang("ko")
    driver.pump(2)
    assert not driver.app.errors


def test_a_game_resumed_after_voice_left_it_and_then_replaced_by_a_new_one_is_freed_in_a_pause(
        driver: Any, monkeypatch: Any) -> None:
    """Voice's 이전 takes the guests off a game's screen mid-game (bench/frames.py's guests only ever left a game so:
    its taps skip the back button). Back on the game, a new screen resumes it, frozen once its game is on; a new
    game started there made its table again, and the resumed game's table (with Spyfall's clock) was dropped
    without being taken apart: frozen cyclic garbage until a thaw, 17,000-20,000 objects a time with voice in
    bench/frames.py (~800 a screen without). Now what the screen shows no more after a new game's start is taken
    apart in a pause and reference counting frees it, for each game."""
    import weakref

    from audio.asr import VoiceController
    from engines import find_engine
    from kiosk.testing import stop_voice
    from kiosk.widgets.kept_form import KeptForm
    from tests.audio.voice_fakes import FakeEngine

    collector = gc_policy.IdleCollector()  # not installed: its pause work is run by hand below
    monkeypatch.setattr(gc_policy, "COLLECTOR", collector)
    app = driver.app
    controller = VoiceController(engine=FakeEngine())
    controller.mic_available(True)
    app.start_voice(controller=controller)
    left: dict[str, int] = {}
    try:
        for game in GAMES:
            start(driver, game, seed=1, actions=3)
            app.dismiss_dialogs()  # a question or a hand-over on show: voice waits for its answer
            driver.pump(2)
            controller.press()
            controller.feed("이전".encode())
            controller.feed(b"")
            controller.release()
            driver.wait_screen("detail")
            app.host(game)  # the guests come back: a new screen resumes the game
            driver.wait_screen("host")
            driver.pump(30)  # what the screen makes a part per frame
            ctx = app.get_screen("host").ctx
            resumed = [weakref.ref(w) for w in ctx.host.walk(restrict=True)
                       if not isinstance(w, KeptForm) and not w.__dict__.get("_shelved")]
            gc.collect()
            gc.freeze()  # as the pause collection does once the game is on
            gc.disable()  # what is freed below is freed by reference counting
            try:
                g = app.library.games[game]
                ctx.start(find_engine(g.engine_name).example_configs(g.pack)[0], seed=2)
                driver.pump(30)
                while collector.dropped or collector.closed:
                    collector.take_closed()
                    driver.pump(1)

                def unshown(ctx: Any = ctx, resumed: list[Any] = resumed) -> int:
                    shown = {id(w) for w in ctx.host.walk(restrict=True)} | ctx.host.keep.holds()
                    return sum(1 for r in resumed if r() is not None and id(r()) not in shown)

                # what the last take-apart left scheduled on them lets go in a frame or two: counted after them, not
                # in the frame it ended (under tests/fastclock.py 3 Clue's board, panels and scrolls were still
                # held there, freed one frame later)
                for _ in range(30):
                    if not unshown():
                        break
                    driver.pump(1)
                left[game] = unshown()
            finally:
                gc.enable()
                gc.unfreeze()
            assert ctx.playing and ctx.host.children  # the new game plays
    finally:
        stop_voice(app)
    assert left == dict.fromkeys(GAMES, 0), left
    assert not app.errors


def test_the_watson_holmes_opening_once_begun_is_freed_in_a_pause(driver: Any, monkeypatch: Any) -> None:
    """Watson & Holmes's opening (the case read aloud before the table) plays with the game on, so its screen is
    frozen with it; once begun it was dropped whole: ~3,000 objects of cyclic garbage frozen until a thaw at every
    game's start (28 left now). It is taken apart in a pause and reference counting frees it."""
    import weakref

    collector = gc_policy.IdleCollector()  # not installed: its pause work is run by hand below
    monkeypatch.setattr(gc_policy, "COLLECTOR", collector)
    app = driver.app
    app.host("watson_holmes")
    driver.wait_screen("host")
    host = app.get_screen("host").ctx.host
    host.start_game(host.cases()[0].id, ["지수", "민호", "서연"], False)
    driver.pump(20)
    assert host.opening is not None
    opening = weakref.ref(host.opening)
    gc.collect()
    gc.freeze()  # as the pause collection does once the game is on
    gc.disable()  # what is freed below is freed by reference counting
    try:
        host.opening.begin()
        driver.pump(5)
        while collector.dropped or collector.closed:
            collector.take_closed()
            driver.pump(1)
        assert opening() is None
    finally:
        gc.enable()
        gc.unfreeze()
    assert host.table is not None and host.table.parent.parent is host  # the table plays (in its FitScroll)
    assert not app.errors
