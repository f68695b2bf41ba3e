"""The host bar with everything on it (voice, phones, undo, end: a café's usual set-up) still shows every game's
name whole, in both languages; its buttons carry drawn icons beside short labels."""

from __future__ import annotations

from typing import Any

import pytest

from audio.asr import VoiceController
from engines import find_engine
from kiosk.testing import stop_voice
from tests.audio.voice_fakes import FakeEngine
from tests.kiosk.conftest import start_table

pytestmark = pytest.mark.ui


class _Phones:
    """A phone server that is up (its button shows); no seat joins."""

    def attach(self, session: Any) -> None:
        pass

    def end_game(self) -> None:
        pass

    def route(self, _seat: int, _mode: str, _on_done: Any) -> bool:
        return False  # no phone joined: the tablet's hand-over


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_every_game_name_fits_beside_a_full_host_bar(driver: Any, lang: str) -> None:
    app = driver.app
    controller = VoiceController(engine=FakeEngine())
    controller.mic_available(True)
    app.start_voice(controller=controller)
    phones, app.phones = app.phones, _Phones()  # the app's own back after (None left the 휴대폰 button off for
    try:  # the tests after this one on the worker: test_one_use's phones panel could not be opened)
        app.set_lang(lang)
        for game in ("mr_jack_ny", "watson_holmes", "spyfall", "clue"):
            pack = app.library.games[game]
            config = find_engine(pack.engine_name).example_configs(pack.pack)[0]
            start_table(app, game, config, 1)
            app.host(game)
            driver.wait_screen("host")
            driver.pump(4)
            for tid in ("host_back", "host_phones", "host_undo", "host_end", "voice_mic"):
                assert driver.find(tid).opacity == 1, tid
            title = app.get_screen("host").ids.title
            assert title._label.get_extents(title.text)[0] <= title.width, (game, title.text, title.width)
            assert driver.find("voice_mic").text == app.tr("voice.hold")  # the mic's label follows a switch
            driver.screenshot(f"host_bar_{game}_{lang}")
            app.table.close()
            app.get_screen("host").clear_body()
    finally:
        app.phones = phones
        stop_voice(app)
        app.set_lang("ko")


def test_bar_buttons_stay_put_when_the_game_starts(driver: Any) -> None:
    """Set-up has nothing to undo or end: those two are hidden and off, in their own places, so starting the game
    by tap moves none of the bar's other buttons (they used to slide left under a guest's finger)."""
    app = driver.app
    phones, app.phones = app.phones, _Phones()
    try:
        app.host("clue")
        driver.wait_screen("host")
        driver.pump(2)
        for tid in ("host_undo", "host_end"):
            assert driver.find(tid).opacity == 0 and driver.find(tid).disabled, tid
        bar = ("host_back", "host_phones", "help")
        before = {tid: tuple(driver.find(tid).to_window(*driver.find(tid).pos)) for tid in bar}
        driver.screenshot("host_bar_clue_setup")
        driver.tap("clue_count_6")
        screen = app.get_screen("host")
        screen._tick = lambda _dt: None  # the bar's half-second sync off: the game's start must show undo and end
        try:
            driver.tap("clue_start")
        finally:
            del screen._tick
        assert app.table.playing
        for tid in ("host_undo", "host_end"):  # with the game, not at the host screen's next tick (0.5 s late)
            assert driver.find(tid).opacity == 1 and not driver.find(tid).disabled, tid
        after = {tid: tuple(driver.find(tid).to_window(*driver.find(tid).pos)) for tid in bar}
        assert after == before
    finally:
        app.phones = phones


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_title_shows_whole_on_a_small_window(driver: Any, size: tuple[int, int], lang: str) -> None:
    """Beside the 휴대폰 button, each game's name shows whole in the bar, at set-up and in play: at LEAD, else at SMALL
    (never smaller), else on two lines broken between words. At 1024x600 in English 'Mr. Jack in New York' was cut to
    'Mr. Jack...ew York' (the sweep's shortened_texts fails a label Kivy drew with an ellipsis)."""
    from kivy.core.window import Window
    from kivy.metrics import sp

    from kiosk.env import HEIGHT, WIDTH

    app = driver.app
    phones, app.phones = app.phones, _Phones()
    Window.size = size
    try:
        app.set_lang(lang)
        for game in ("mr_jack_ny", "watson_holmes", "spyfall", "clue"):
            pack = app.library.games[game]
            config = find_engine(pack.engine_name).example_configs(pack.pack)[0]
            for stage in ("setup", "play"):
                if stage == "play":
                    start_table(app, game, config, 1)
                app.host(game)
                driver.wait_screen("host")
                title = app.get_screen("host").ids.title
                driver.wait_for(lambda t=title: t.width < size[0] / 2)  # (the bar laid out at this window's size)
                path = driver.screenshot(f"host_title_{game}_{size[0]}x{size[1]}_{lang}_{stage}")
                drawn = "".join(word.text for line in title._label._cached_lines for word in line.words)
                where = (game, stage, title.text, title.width, title.font_size)
                assert title.opacity == 1 and title.font_size >= sp(20) - 0.5, where
                assert "".join(drawn.split()) == "".join(title.text.split()), where
                assert not [p for p in driver.problems if p.startswith(path.stem)], where
                app.dismiss_dialogs()
            app.table.close()
            app.get_screen("host").clear_body()
    finally:
        app.phones = phones
        app.set_lang("ko")
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_title_shows_with_the_mic_and_phones_on_a_narrow_window(driver: Any, size: tuple[int, int],
                                                                     lang: str) -> None:
    """Each game's name shows in play whatever the bar holds (the mic on or off, 휴대폰 on or off): at 1024x600 with
    both, the bar left it 22 px and it was hidden. There the bar goes compact: back, 휴대폰 and undo show their icons
    alone (their words kept in `label_text`), every button still at least TOUCH_MIN square."""
    from kivy.core.window import Window

    from kiosk.env import HEIGHT, WIDTH
    from kiosk.widgets.theme import TEXT_MIN_PX, TOUCH_MIN

    app = driver.app
    phones = app.phones
    Window.size = size
    words = {"host_back": "common.back", "host_phones": "host.phones", "host_undo": "host.undo"}
    bad: list[Any] = []
    try:
        app.set_lang(lang)
        for voice in (False, True):
            if voice:
                controller = VoiceController(engine=FakeEngine())
                controller.mic_available(True)
                app.start_voice(controller=controller)
            for with_phones in (False, True):
                app.phones = _Phones() if with_phones else None
                for game in ("mr_jack_ny", "watson_holmes", "spyfall", "clue"):
                    pack = app.library.games[game]
                    start_table(app, game, find_engine(pack.engine_name).example_configs(pack.pack)[0], 1)
                    app.host(game)
                    driver.wait_screen("host")
                    screen = app.get_screen("host")
                    title = screen.ids.title
                    driver.wait_for(lambda t=title: t.width < size[0] / 2)  # (the bar laid out at this size)
                    driver.pump(4)
                    name = f"host_bar_{size[0]}x{size[1]}_{lang}_{'mic' if voice else 'nomic'}_" \
                           f"{'phones' if with_phones else 'nophones'}_{game}"
                    path = driver.screenshot(name)
                    where = (name, title.text, round(title.width), getattr(screen, "compact", None))
                    drawn = "".join(word.text for line in title._label._cached_lines for word in line.words)
                    if title.opacity != 1 or title.font_size < TEXT_MIN_PX - 0.5 \
                            or "".join(drawn.split()) != "".join(title.text.split()):
                        bad.append(("title", where))
                    shown = ["host_back", "host_undo", "host_end", "help", "staff_call"] \
                        + ["host_phones"] * with_phones + ["voice_mic"] * voice
                    for tid in shown:
                        w = driver.find(tid)
                        if w.opacity != 1 or w.width < TOUCH_MIN - 0.5 or w.height < TOUCH_MIN - 0.5:
                            bad.append((tid, w.size, where))
                    for tid, key in words.items():
                        if getattr(driver.find(tid), "label_text", None) != app.tr(key):
                            bad.append((tid, "label", where))
                    bad += [p for p in driver.problems if p.startswith(path.stem + ":")]
                    app.table.close()
                    screen.clear_body()
            if voice:
                stop_voice(app)
        assert bad == []
    finally:
        app.phones = phones
        if getattr(app, "voice", None) is not None:
            stop_voice(app)
        app.set_lang("ko")
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)
