"""#36: one door to the game. The same FINAL action — the detective's arrest in Mr. Jack — asked for on the tablet's
screen, on the detective's phone and by voice: each reaches the running table as exactly one `Table.act`, from its own
channel, confirmed, after exactly one confirmation asked on that channel."""

from __future__ import annotations

from typing import Any

import pytest

from engines.mr_jack_ny.actions import Arrest, EndTurn, Pick
from engines.mr_jack_ny.state import ACT, DETECTIVE
from kiosk.testing import stop_voice
from table.table import TOUCH, VOICE, phone
from tests.kiosk.conftest import start_table
from tests.tables import act

pytestmark = pytest.mark.ui
NAMES = ["민호", "지수"]  # the detective, Jack


def _detectives_turn(driver: Any) -> Any:
    """A fresh Mr. Jack game on the tablet's screen, played (by staff) up to the detective's action phase."""
    app = driver.app
    table = start_table(app, "mr_jack_ny", {"players": NAMES, "blitz": 0}, 5)
    app.host("mr_jack_ny")
    driver.wait_screen("host")
    while not (table.state.phase == ACT and table.state.mover() == DETECTIVE):
        seat = table.state.mover()
        legal = table.legal(seat)
        move = next(a for a in legal if isinstance(a, (Pick, EndTurn)))
        act(table, move)
    driver.pump(4)
    return table


def _counted(table: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any, bool]]:
    calls: list[tuple[Any, Any, bool]] = []
    real = table.act

    def counting(action: Any, channel: Any, confirmed: bool = False) -> Any:
        calls.append((action, channel, confirmed))
        return real(action, channel, confirmed)

    monkeypatch.setattr(table, "act", counting)
    return calls


def _suspect(table: Any) -> str:
    return next(a.suspect for a in table.legal(DETECTIVE) if isinstance(a, Arrest))


def _questions(driver: Any) -> list[Any]:
    from kiosk.widgets.dialogs import ConfirmDialog

    return [w for w in driver.roots() if isinstance(w, ConfirmDialog)]


def test_an_arrest_from_the_screen_a_phone_and_voice_is_one_act_each_asked_once(driver: Any,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from audio.asr import VoiceController
    from phones.channel import PhoneHub
    from tests.audio.voice_fakes import FakeEngine
    from tests.kiosk.test_phones_panel import Recorder
    from tests.phones.helpers import admit

    app = driver.app
    # the tablet's screen: the arrest button, a suspect, one question, yes
    table = _detectives_turn(driver)
    calls = _counted(table, monkeypatch)
    suspect = _suspect(table)
    driver.tap("mj_arrest")
    driver.tap(f"mj_choose_{suspect}")
    assert len(_questions(driver)) == 1 and calls == []  # asked, nothing sent yet
    driver.tap("confirm_yes")
    driver.pump(2)
    assert calls == [(Arrest(DETECTIVE, suspect), TOUCH, True)] and table.outcome is not None
    monkeypatch.undo()

    # the detective's phone: its page asks (the entry is marked final) and sends it confirmed
    table = _detectives_turn(driver)
    calls = _counted(table, monkeypatch)
    suspect = _suspect(table)
    hub = PhoneHub()
    hub.follow(table)
    try:
        detective = Recorder()
        assert admit(hub, detective, token=hub.seat_pass(DETECTIVE).token, number="1234")["t"] == "joined"
        state = [m for m in detective.sent if m["t"] == "state"][-1]
        arrests = [e for e in state["actions"] if e["group"] == "arrest"]
        assert arrests and all(e["final"] for e in arrests)  # what page.js asks before sending, once
        sent = Arrest(DETECTIVE, suspect).to_dict()
        reply = hub.act(detective, {"action": sent, "confirmed": True}).result(timeout=5)
        assert reply["t"] == "done"
        assert [(c[0].NAME, c[1], c[2]) for c in calls] == [("arrest", phone(DETECTIVE), True)]
        assert table.outcome is not None and _questions(driver) == []  # nothing asked on the tablet
    finally:
        hub.unfollow()
    monkeypatch.undo()

    # voice: the suspect's name and 범인, one question said back (네 / 아니요), yes
    table = _detectives_turn(driver)
    calls = _counted(table, monkeypatch)
    suspect = _suspect(table)
    controller = VoiceController(engine=FakeEngine())
    controller.mic_available(True)
    app.start_voice(controller=controller)
    try:
        driver.pump(3)
        card = table.game.pack["characters"].get(suspect)
        # the narration (the detective's turn) is still speaking: holding the mic button silences it
        app.voice.press()
        driver.wait_for(lambda: not controller.gate.muted, 5)
        controller.feed(f"{card.name.ko} 범인".encode())
        controller.feed(b"")
        app.voice.release()
        driver.pump(4)
        assert app.voice.confirm_dialog is not None and len(_questions(driver)) == 1 and calls == []
        driver.tap("confirm_yes")
        driver.pump(3)
        assert [(c[0].NAME, c[0].suspect, c[1], c[2]) for c in calls] == [("arrest", suspect, VOICE, True)]
        assert table.outcome is not None
    finally:
        stop_voice(app)
