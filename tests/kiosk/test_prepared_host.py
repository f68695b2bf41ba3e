"""The game's screen built behind its page while guests read it (kiosk/screens/detail.py, HostScreen.prepare): the
tap on 게임 시작 shows what was built, and nothing stale is ever shown."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui



def _after() -> float:
    from kiosk.screens.detail import PREPARE_AFTER_S

    return float(PREPARE_AFTER_S)


def _page(driver: Any, game: str) -> Any:
    """The library tapped open, then `game`'s card: its page on show; the host frame."""
    driver.tap("start")
    driver.wait_screen("library")
    driver.tap(f"game_{game}")
    driver.wait_screen("detail")
    return driver.app.get_screen("host")


def _prepared(driver: Any, game: str) -> Any:
    """Guests read `game`'s page until its screen is built and drawn behind it; that screen's widget."""
    _page(driver, game)
    return _read(driver, game)


def _read(driver: Any, game: str) -> Any:
    """Guests read the page on show until `game`'s screen is built and drawn behind it; that screen's widget."""
    host = driver.app.get_screen("host")
    driver.wait(_after())
    driver.wait_for(lambda: host.prepared == (game, "ko") and not driver.app.get_screen("detail")._pieces._todo)
    assert driver.app.sm.current == "detail"  # nothing shown but the page
    return host.prepared_widget(game)


def test_the_tap_on_a_game_shows_the_screen_built_behind_its_page(driver: Any) -> None:
    """Clue's screen and its set-up form are made while its page is read; the tap only shows them (built in the tap,
    it was the slowest frame a guest felt: 25-37 ms of UI-thread CPU in bench/frames.py). The form works as made."""
    from kiosk.games.clue import ClueHost

    built = _prepared(driver, "clue")
    assert isinstance(built, ClueHost)
    driver.tap("host")
    driver.wait_screen("host")
    host = driver.app.get_screen("host")
    assert host.host_widget is built and host.game_id == "clue" and host.prepared is None
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.screenshot("prepared_clue_form")
    _start_clue(driver)
    assert driver.app.table.state.players == ("지수", "민호", "서연")


def _start_clue(driver: Any) -> None:
    """Clue's set-up form, on show, filled in by taps for three players and started."""
    driver.tap("clue_count_3")
    for i, name in enumerate(["지수", "민호", "서연"]):
        driver.fill(f"clue_name_{i}", name)
    driver.tap("clue_mode_physical")
    driver.tap("clue_start")
    assert driver.app.table.playing and driver.app.table.game.id == "clue"


def test_a_page_left_before_its_tap_shows_the_next_game_not_the_prepared_one(driver: Any) -> None:
    """Clue's screen built behind its page; the guests go back and open Spyfall, and tap 게임 시작 at once: Spyfall's
    screen is made in that tap (nothing prepared for it yet), never Clue's."""
    from kiosk.games.spyfall import SpyfallHost

    clue = _prepared(driver, "clue")
    driver.tap("back")
    driver.wait_screen("library")
    assert driver.app.get_screen("host").prepared is None  # the page was left: not shown as is
    driver.tap("game_spyfall")
    driver.wait_screen("detail")
    driver.tap("host")
    driver.wait_screen("host")
    host = driver.app.get_screen("host")
    assert host.game_id == "spyfall" and isinstance(host.host_widget, SpyfallHost) and host.host_widget is not clue


def test_the_same_game_after_the_library_is_made_again(driver: Any) -> None:
    """Prepared, then the page left for the library and opened again, tapped before the page prepares anew: the screen
    is made in the tap (the page was left: the staff mode or the table may have changed), not the old one shown."""
    old = _prepared(driver, "clue")
    driver.tap("back")
    driver.wait_screen("library")
    driver.tap("game_clue")
    driver.wait_screen("detail")
    driver.tap("host")
    driver.wait_screen("host")
    host = driver.app.get_screen("host")
    assert host.game_id == "clue" and host.host_widget is not None and host.host_widget is not old


def _a_game_on(driver: Any) -> None:
    """A Spyfall game open at the table (as after a restart), the attract screen on show with its 이어서 하기."""
    driver.app.table.start("spyfall", {"players": ["지수", "민호", "서연", "도윤"], "rounds": 2}, seed=4)
    if driver.app.sm.current != "library":
        if driver.app.sm.current != "attract":
            driver.app.go("attract")
            driver.wait_screen("attract")
        driver.tap("start")
        driver.wait_screen("library")
    driver.tap("back")
    driver.wait_screen("attract")


def _home(driver: Any) -> None:
    """From the game's screen back to the attract screen by taps: its page, the library, home."""
    for button, screen in (("host_back", "detail"), ("back", "library"), ("back", "attract")):
        driver.tap(button)
        driver.wait_screen(screen)


def test_a_game_on_is_shown_again_as_it_was_left(driver: Any) -> None:
    """A game on, the guests go back to its page and tap 이어서 하기: its screen, still following the table, is shown as
    they left it (not built again in the tap's frame: 15-26 ms of UI-thread CPU), nothing built behind the page. The
    game's own page, though another game's showed last (the back button went to whichever page was left on the page
    screen: a game resumed from the attract screen or after a restart came back to another game's page, or an empty
    one)."""
    app = driver.app
    _page(driver, "clue")
    _a_game_on(driver)
    driver.tap("resume_game")
    driver.wait_screen("host")
    host = app.get_screen("host")
    playing = host.host_widget
    driver.tap("host_back")
    driver.wait_screen("detail")
    assert app.get_screen("detail").game_id == "spyfall"
    driver.wait(_after() + 0.3)
    assert host.prepared is None and host.host_widget is playing and not app.get_screen("detail")._pieces._todo
    driver.tap("host")
    driver.wait_screen("host")
    assert app.table.playing and host.ctx.playing and host.game_id == "spyfall" and host.host_widget is playing


def test_a_game_on_comes_back_in_the_language_switched_to_meanwhile(driver: Any) -> None:
    """A game on, the guests go to the attract screen, switch to English and tap 이어서 하기 (Continue): the game's
    screen is made again, in English (shown as it was, it would have stayed Korean)."""
    app = driver.app
    _a_game_on(driver)
    driver.tap("resume_game")
    driver.wait_screen("host")
    korean = app.get_screen("host").host_widget
    _home(driver)
    driver.tap("lang_toggle")
    driver.tap("resume_game")
    driver.wait_screen("host")
    host = app.get_screen("host")
    assert app.lang == "en" and host.host_widget is not korean and host.ctx.playing
    assert "Spyfall" in " ".join(t for t in driver.texts() if isinstance(t, str))


@pytest.mark.parametrize("game", ["clue", "watson_holmes"])
def test_behind_the_page_each_step_has_a_frame_of_its_own(driver: Any, monkeypatch: pytest.MonkeyPatch,
                                                          game: str) -> None:
    """The old screen taken off, the new one made, laid out (the frame after: Kivy's layout trigger) and drawn each in
    a frame of their own, the drawing not in a frame a piece of the screen ran in (Watson & Holmes builds two in the
    frames after it is made; Clue none): a layout and a drawing in one frame were 14-17 ms of UI-thread CPU."""
    from kivy.clock import Clock

    from kiosk.screens.host import HostScreen
    from kiosk.widgets import pieces

    frames: dict[str, list[int]] = {}

    def noted(name: str) -> None:
        fn = getattr(HostScreen, name)

        def run(*args: Any, **kw: Any) -> Any:
            frames.setdefault(name, []).append(Clock.frames_displayed)
            return fn(*args, **kw)
        monkeypatch.setattr(HostScreen, name, run)

    for name in ("clear_body", "prepare", "export_as_image"):
        noted(name)
    piece_frames: list[int] = []
    real_next = pieces.Pieces._next

    def _next(self: Any, dt: float) -> None:  # (named as the method: Kivy calls it back by name)
        left = len(self._todo)
        real_next(self, dt)
        if len(self._todo) < left and self is not driver.app.get_screen("detail")._pieces:
            piece_frames.append(Clock.frames_displayed)

    monkeypatch.setattr(pieces.Pieces, "_next", _next)
    driver.app.open_game("spyfall")  # a screen there before (as after a game): it is taken off first
    driver.wait_screen("detail")
    driver.tap("host")
    driver.wait_screen("host")
    driver.tap("host_back")
    driver.wait_screen("detail")
    driver.tap("back")
    driver.wait_screen("library")
    frames.clear()
    piece_frames.clear()
    driver.tap(f"game_{game}")
    driver.wait_screen("detail")
    _read(driver, game)
    made, drawn = frames["prepare"][-1], frames["export_as_image"][-1]
    assert frames["clear_body"][0] < made  # (open_game's own call, in `prepare`'s frame, finds nothing left)
    assert made + 2 <= drawn and drawn not in piece_frames
    assert piece_frames or game != "watson_holmes"  # W&H's spare table and opening came in pieces


def _on_and_away(driver: Any, game: str) -> tuple[Any, Any]:
    """A Spyfall game on, its screen shown; the guests go back to the library and open `game`'s page. The Spyfall
    screen and its context."""
    _a_game_on(driver)
    driver.tap("resume_game")
    driver.wait_screen("host")
    host = driver.app.get_screen("host")
    playing, ctx = host.host_widget, host.ctx
    driver.tap("host_back")
    driver.wait_screen("detail")
    driver.tap("back")
    driver.wait_screen("library")
    driver.tap(f"game_{game}")
    driver.wait_screen("detail")
    return playing, ctx


def test_with_another_game_on_the_screen_is_built_aside_and_shown_by_the_tap(driver: Any,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Spyfall on, the guests read Clue's page: Clue's screen is built aside (made in the tap, it was the slowest
    frame of the bench's game switches), laid out and drawn once in frames of their own, while Spyfall's screen stays
    the open game's (voice from the page still acts on it). The tap shows the Clue screen built; Spyfall's is closed;
    the form starts Clue."""
    from kivy.clock import Clock
    from kivy.uix.widget import Widget

    from kiosk.games.clue import ClueHost
    from kiosk.screens.host import HostScreen

    app = driver.app
    playing, spyfall = _on_and_away(driver, "clue")
    host = app.get_screen("host")
    made: list[int] = []
    drawn: list[tuple[Any, int]] = []
    real_prepare, real_export = HostScreen.prepare, Widget.export_as_image

    def prepare(self: Any, game_id: str) -> Any:
        made.append(Clock.frames_displayed)
        return real_prepare(self, game_id)

    def export(self: Any, *args: Any, **kw: Any) -> Any:
        drawn.append((self, Clock.frames_displayed))
        return real_export(self, *args, **kw)

    monkeypatch.setattr(HostScreen, "prepare", prepare)
    monkeypatch.setattr(Widget, "export_as_image", export)
    built = _read(driver, "clue")
    assert isinstance(built, ClueHost) and built.get_root_window() is None
    assert [w for w, _ in drawn] == [built] and made[-1] + 2 <= drawn[0][1]
    assert host.host_widget is playing and host.ctx is spyfall and spyfall.playing and spyfall.alive
    driver.tap("host")
    driver.wait_screen("host")
    assert host.host_widget is built and host.game_id == "clue" and built.ctx is host.ctx and host.prepared is None
    assert not spyfall.alive and playing.parent is None
    driver.screenshot("prepared_aside_clue_form")
    _start_clue(driver)
    assert host.ctx.playing


def test_a_screen_built_aside_is_taken_apart_when_its_page_is_left(driver: Any) -> None:
    """Built aside and never shown (the guests went back): its context stops following the table and the screen is
    let go; Spyfall's screen is still the open game's, shown again as left by 이어서 하기."""
    app = driver.app
    playing, spyfall = _on_and_away(driver, "watson_holmes")
    host = app.get_screen("host")
    built = _read(driver, "watson_holmes")
    assert built is not None and built.ctx.alive
    driver.tap("back")
    driver.wait_screen("library")
    assert not built.ctx.alive and built.parent is None and host.prepared_widget("watson_holmes") is None
    driver.tap("back")
    driver.wait_screen("attract")
    driver.tap("resume_game")
    driver.wait_screen("host")
    assert host.host_widget is playing and host.ctx is spyfall and spyfall.playing


def test_a_screen_built_aside_is_made_anew_after_a_language_switch(driver: Any) -> None:
    """Built aside in Korean, the language switched to English while the page shows (a voice command, a staff's
    change): the tap makes Clue's screen anew, never the Korean one."""
    app = driver.app
    _on_and_away(driver, "clue")
    host = app.get_screen("host")
    korean = _read(driver, "clue")
    app.set_lang("en")
    driver.pump(2)
    driver.tap("host")
    driver.wait_screen("host")
    assert host.game_id == "clue" and host.host_widget is not korean and not korean.ctx.alive
    assert host.made_for == ("clue", "en", False)


def test_a_set_up_form_left_with_another_game_on_and_the_page_read_again(driver: Any) -> None:
    """Spyfall on, the guests open Clue's set-up, go back and read Clue's page again: a second Clue screen is built
    aside while the first, with the kept form, is still in the frame; the tap shows the one built aside, its form
    whole and working (the two never share the kept form), and Clue starts."""
    app = driver.app
    _on_and_away(driver, "clue")
    driver.tap("host")
    driver.wait_screen("host")
    host = app.get_screen("host")
    first = host.host_widget
    driver.tap("host_back")
    driver.wait_screen("detail")
    built = _read(driver, "clue")
    assert built is not None and built is not first and host.host_widget is first
    driver.tap("host")
    driver.wait_screen("host")
    assert host.host_widget is built and first.parent is None
    driver.screenshot("prepared_aside_clue_form_again")
    _start_clue(driver)
