"""Phones at set-up on the tablet (issue 15 item 3): the phones' list opens from the set-up form, each
seat shows its code, a phone's typed name appears in the form's field, and the game starts with the
phones at their players' seats — a Spyfall table where nobody typed on the tablet."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from phones.channel import PhoneHub
from phones.server import PhoneServer
from tests.kiosk.test_phones_panel import Recorder, let_in_by_tap

pytestmark = pytest.mark.ui


@pytest.fixture
def hub(driver: Any) -> Iterator[PhoneHub]:
    """The app's phones: a hub and a server on 127.0.0.1 for this test (the test app runs without)."""
    app = driver.app
    hub = PhoneHub(run_on_main=lambda fn: fn())
    server = PhoneServer(hub, "127.0.0.1", 0)
    server.start()
    saved = app.phones, app.phones_server
    app.phones, app.phones_server = hub, server
    hub.follow(app.table)
    from kiosk.phones.ask import AskWatcher

    asks = AskWatcher(hub, app.tr)
    try:
        yield hub
    finally:
        asks.stop()
        if app.table.playing:
            hub.end_game()
        hub.unfollow()
        app.phones, app.phones_server = saved
        server.stop()


def test_phones_type_their_names_into_the_spyfall_set_up_form(driver: Any, hub: PhoneHub) -> None:
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    driver.pump(3)
    assert not driver.find("host_phones").disabled  # offered at set-up, before any game
    driver.tap("host_phones")
    driver.pump(3)
    assert hub.lobby.open and len(hub.status()) >= 3
    driver.tap("phones_show_1")
    code = hub.status()[1].code
    assert any(code in t for t in driver.texts())
    driver.screenshot("phones_setup_code")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []

    phones = {}
    for seat, name in ((0, "지수"), (1, "민호"), (2, "서연")):
        phone = phones[seat] = Recorder()
        let_in_by_tap(driver, hub, phone, hub.seat_pass(seat).token, number=f"{seat}{seat}07")
        assert phone.sent[-1]["t"] == "setup"
        assert hub.name_from_phone(phone, name)["t"] == "done"
    driver.pump(3)
    assert any("민호" in t for t in driver.texts())  # the seat list shows the phone's name
    driver.screenshot("phones_setup_list_names")
    driver.tap("phones_close")
    driver.wait_for(lambda: driver.find("spy_name_2").text == "서연")  # the form reads them twice a second
    assert [driver.find(f"spy_name_{i}").text for i in range(3)] == ["지수", "민호", "서연"]
    driver.screenshot("phones_setup_form_names")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []

    driver.tap("spy_start")
    driver.pump(5)
    assert app.table.playing and app.table.view(None)["players"][:3] == ["지수", "민호", "서연"]
    for seat, phone in phones.items():
        assert hub.connected(seat)
        states = [m for m in phone.sent if m["t"] == "state"]
        assert states and states[-1]["seat"] == seat
    assert not hub.lobby.open


def test_leaving_the_set_up_form_ends_its_phone_passes(driver: Any, hub: PhoneHub) -> None:
    from kivy.uix.modalview import ModalView

    app = driver.app
    app.host("clue")
    driver.wait_screen("host")
    driver.pump(3)
    driver.tap("host_phones")
    driver.pump(3)
    assert hub.lobby.open and len(hub.status()) >= 3
    phone = Recorder()
    let_in_by_tap(driver, hub, phone, hub.seat_pass(0).token)
    driver.pump(3)
    driver.tap("phones_close")
    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))  # the list slides away
    driver.tap("host_back")
    driver.wait_screen("detail")
    driver.wait_for(lambda: not hub.lobby.open)
    assert not hub.lobby.open and hub.status() == []
    assert phone.sent[-1] == hub.bye_message("ended")


@pytest.mark.parametrize("game, seats", [("spyfall", 3), ("clue", 3), ("watson_holmes", 3), ("mr_jack_ny", 2)])
def test_every_set_up_form_offers_its_name_fields_to_phones(driver: Any, game: str, seats: int) -> None:
    """The fields are found without per-form code: at least the game's fewest players (exactly the two of
    Mr. Jack), in seat order, each with the name the game would use for a seat nobody named."""
    from kiosk.phones.setup import name_fields, shown_name

    driver.app.host(game)
    driver.wait_screen("host")
    driver.pump(3)
    fields = name_fields(driver.app.get_screen("host").host_widget)
    ids = [getattr(f, "test_id", "") for f in fields]
    assert seats <= len(fields) <= 8 and all(shown_name(f) for f in fields), ids
    assert len(fields) == 2 if game == "mr_jack_ny" else ids == sorted(ids, key=lambda t: int(t.rsplit("_", 1)[1]))
