"""Mr. Jack in New York host screens, driven by touch offscreen, with screenshots (kiosk/HOSTING.md)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _check(driver: Any, name: str) -> None:
    path = driver.screenshot(name)
    assert path.exists() and path.stat().st_size > 5000
    assert driver.small_targets() == []
    assert driver.overflowing_labels() == []


def _open(driver: Any) -> None:
    driver.app.host("mr_jack_ny")
    driver.wait_screen("host")


def _start(driver: Any, detective: str = "민호", jack: str = "지수", open_first: bool = True) -> Any:
    if open_first:
        _open(driver)
    driver.fill("mj_name_detective", detective)
    driver.fill("mj_name_jack", jack)
    driver.tap("mj_start")
    session = driver.app.table
    assert session is not None and session.game.id == "mr_jack_ny"
    return session


def _secret(driver: Any) -> list[str]:
    """Texts of the pass-the-tablet secret, only while it is visible (held)."""
    ho = driver.app.get_screen("host").ctx.open_dialog
    if ho is None or ho.secret is None or ho.secret.opacity == 0:
        return []
    return [w.text for w in ho.secret.walk() if getattr(w, "text", "")]


def _done(driver: Any) -> None:
    """Close the pass-the-tablet screen and wait until it is gone (it animates out)."""
    from kivy.uix.modalview import ModalView

    driver.tap("handover_done")
    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def _confirm(driver: Any, answer: str) -> None:
    from kivy.uix.modalview import ModalView

    driver.tap(answer)
    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def _held(driver: Any) -> list[str]:
    seen: list[list[str]] = []
    driver.hold("handover_hold", 0.2, during=lambda: seen.append(_secret(driver)))
    return seen[0]


def _jack_identity(driver: Any, session: Any, shot: str | None = None) -> None:
    jack = session.state.jack
    name = next(c.name.ko for c in session.game.pack["characters"].characters if c.id == jack)
    assert any("지수" in t for t in driver.texts())  # "give the tablet to 지수"
    driver.tap("handover_i_am")
    assert _secret(driver) == []  # hidden until held
    assert name in _held(driver)
    assert _secret(driver) == []  # hidden again on release
    if shot:
        driver.hold("handover_hold", 0.2, during=lambda: _check(driver, shot))
    _done(driver)


def _pick_first(driver: Any, session: Any) -> str:
    cid = session.state.remaining()[0]
    driver.tap(f"mj_pick_{cid}")
    assert session.state.current is not None and session.state.current.character == cid
    return cid


def test_setup_form_and_jack_sees_his_identity_alone(driver: Any) -> None:
    """Covers JACK-01, JACK-09: two names, then pass-the-tablet to Jack."""
    _open(driver)
    _check(driver, "mr_jack_setup")
    session = _start(driver, open_first=False)
    assert session.view(None).get("jack") is None
    assert session.state.players == ("민호", "지수")
    _jack_identity(driver, session, shot="mr_jack_identity")
    jack = session.state.jack
    table_texts = " ".join(driver.texts())
    assert "라운드 1/8" in table_texts
    assert session.view(None)["phase"] == "pick"
    _check(driver, "mr_jack_pick")
    # the detective's secrets screen never shows Jack's card
    driver.tap("mj_secret_detective")
    driver.tap("handover_i_am")
    shown = _held(driver)
    name = next(c.name.ko for c in session.game.pack["characters"].characters if c.id == jack)
    assert "민호" in shown and not any(name in t for t in shown)
    _done(driver)


def test_one_round_by_touch(driver: Any) -> None:
    """Covers JACK-11, JACK-15, JACK-17, JACK-19, JACK-24, JACK-28: a whole round by taps."""
    session = _start(driver)
    _jack_identity(driver, session)
    # Turn 1 (detective): pick, use the ability (with a choice when needed), visit the spy, end.
    cid = _pick_first(driver, session)
    _check(driver, "mr_jack_act")
    driver.tap("mj_ability")
    kind = session.state.kind_of(cid)
    if kind in ("swap", "move_other", "garden"):
        _check(driver, "mr_jack_ability_choice")
        opts = [w for w in driver.walk() if getattr(w, "test_id", "").startswith("mj_choose_") and not w.disabled]
        driver.tap(opts[0])
        if kind == "swap":
            opts = [w for w in driver.walk() if getattr(w, "test_id", "").startswith("mj_choose_")]
            driver.tap(opts[0])
    assert session.state.current.ability_used
    driver.tap("mj_spy")
    drawn = session.state.alibis[-1]
    assert drawn.seat == 0
    driver.tap("handover_i_am")
    drawn_name = next(c.name.ko for c in session.game.pack["characters"].characters if c.id == drawn.card)
    assert drawn_name in _held(driver)
    _done(driver)
    assert driver.find("mj_spy").disabled  # the spy is silent now
    driver.tap("mj_end")
    # Turns 2-3 (Jack), 4 (detective)
    for expected_seat in (1, 1, 0):
        assert session.state.mover() == expected_seat
        _pick_first(driver, session)
        if expected_seat == 1:
            assert driver.find_all("mj_escape") and not driver.find_all("mj_arrest")
        else:
            assert driver.find_all("mj_arrest") and not driver.find_all("mj_escape")
        driver.tap("mj_end")
    assert session.view(None)["phase"] == "witness"
    # Witness call: tap two characters that are not Jack → Jack unseen → they are cleared.
    jack = session.state.jack
    pair = [c for c in session.state.roster if c != jack][:2]
    for c in pair:
        driver.tap(f"mj_seen_{c}")
    assert driver.find(f"mj_seen_{pair[0]}").selected
    _check(driver, "mr_jack_witness")
    driver.tap("mj_witness_confirm")
    _confirm(driver, "confirm_yes")
    state = session.state
    assert state.round == 2 and not state.witness_lit and state.innocent == frozenset(pair)
    assert driver.find(f"mj_suspect_{pair[0]}").innocent
    assert not driver.find(f"mj_suspect_{jack}").innocent
    assert "목격 카드: 어두운 면 (숨음)" in driver.texts()
    _check(driver, "mr_jack_round2")


def test_arrest_with_confirmation_and_winner_screen(driver: Any) -> None:
    """Covers JACK-47, JACK-48: arrest asks first; the winner screen reveals Jack."""
    session = _start(driver)
    _jack_identity(driver, session)
    cid = _pick_first(driver, session)
    jack = session.state.jack
    suspect = jack if jack != cid else next(c for c in session.state.roster if c != cid)
    driver.tap("mj_arrest")
    _check(driver, "mr_jack_arrest_choice")
    driver.tap(f"mj_choose_{suspect}")
    _confirm(driver, "confirm_no")
    assert session.outcome is None  # "no" keeps the picker open and changes nothing
    driver.tap(f"mj_choose_{suspect}")
    _confirm(driver, "confirm_yes")
    out = session.outcome
    assert out is not None and out.reason == ("arrest_right" if suspect == jack else "arrest_wrong")
    name = next(c.name.ko for c in session.game.pack["characters"].characters if c.id == jack)
    assert f"잭의 정체: {name}" in driver.texts()
    winner = session.view(None)["players"][0 if out.reason == "arrest_right" else 1]
    assert driver.find("winner_banner").title.text == f"{winner} 승리!"  # names who won, with the sound
    assert driver.app.sounds.count("winner") == 1
    _check(driver, "mr_jack_over")


def test_escape_is_claimed_on_jacks_private_screen_only(driver: Any) -> None:
    """Covers JACK-45, JACK-46 (issue 19: no shared-screen oracle). The escape button shows on every Jack
    turn and only hands the tablet to Jack; whether the claim is possible is said on Jack's screen alone,
    so the table never sees a refusal (nor can the detective test a character by tapping it)."""
    from kivy.uix.modalview import ModalView

    session = _start(driver)
    _jack_identity(driver, session)
    _pick_first(driver, session)
    driver.tap("mj_end")
    _pick_first(driver, session)  # Jack's turn, round 1: the witness card is lit, so escape is impossible
    driver.tap("mj_escape")
    assert session.outcome is None and driver.app.get_screen("host").ctx.last_error is None
    assert any("지수" in t for t in driver.texts())  # "give the tablet to 지수" (Jack)
    driver.tap("handover_i_am")
    assert not driver.find_all("mj_escape_go")
    assert any("지금은 탈출할 수 없어요" in t for t in driver.texts())
    _check(driver, "mr_jack_escape_private")
    driver.tap("mj_escape_back")
    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))
    assert session.outcome is None and driver.app.get_screen("host").ctx.last_error is None
    assert "탈출" not in driver.app.toast_widget.last_text


def test_undo_after_an_arrest_needs_the_staff_pin(driver: Any) -> None:
    """Covers JACK-48 (issue 19: Undo never crosses a revealed secret without staff). An arrest shows Jack;
    Undo then asks for the staff PIN: a wrong PIN changes nothing, the right one takes the arrest back."""
    session = _start(driver)
    _jack_identity(driver, session)
    cid = _pick_first(driver, session)
    suspect = next(c for c in session.state.roster if c != cid)
    driver.tap("mj_arrest")
    driver.tap(f"mj_choose_{suspect}")
    _confirm(driver, "confirm_yes")
    assert session.outcome is not None
    driver.tap("host_undo")
    assert driver.find_all("staffpin_ok") and not driver.find_all("confirm_yes")
    _check(driver, "mr_jack_undo_pin")
    driver.enter_pin("1234", pad="staffpin")
    assert session.outcome is not None and any("PIN이 맞지 않아요" in t for t in driver.texts())
    driver.enter_pin("0000", pad="staffpin")
    driver.wait_for(lambda: session.outcome is None)
    assert session.state.phase == "act" and session.state.current is not None
    driver.wait_for(lambda: not driver.find_all("staffpin_ok"))  # the PIN dialog closes once the check is back


def test_blitz_timer_and_english_screen(driver: Any) -> None:
    """Covers JACK-10: the optional per-turn timer shows on the status bar; the screen follows English."""
    _open(driver)
    driver.tap("mj_blitz_60")
    assert driver.find("mj_blitz_60").selected
    session = _start(driver, open_first=False)
    _jack_identity(driver, session)
    host = driver.app.get_screen("host").ctx.host
    assert host.blitz == 60, host.blitz
    assert any(t.startswith("남은 시간 ") for t in driver.texts()), (host.deadline, host.table.ids.timer_label.text)
    driver.app.set_lang("en")
    driver.pump(4)
    host = driver.app.get_screen("host").ctx.host
    host.refresh(None)
    driver.pump(4)
    texts = driver.texts()
    assert "Round 1/8" in texts and "Suspects" in texts and "Rounds" in texts
    assert any(t.endswith("s left") for t in texts)
    _check(driver, "mr_jack_pick_en")
    driver.app.set_lang("ko")


def test_catalogs_have_the_same_keys_in_korean_and_english() -> None:
    import yaml

    from content import ROOT

    def keys(tree: Any, prefix: str = "") -> set[str]:
        if isinstance(tree, dict):
            return set().union(*(keys(v, f"{prefix}.{k}" if prefix else str(k)) for k, v in tree.items()))
        return {prefix}

    ko = keys(yaml.safe_load((ROOT / "i18n" / "ko" / "mr_jack_ny.yaml").read_text("utf-8")))
    en = keys(yaml.safe_load((ROOT / "i18n" / "en" / "mr_jack_ny.yaml").read_text("utf-8")))
    assert ko == en and len(ko) > 50


def test_undo_and_resume_after_a_restart(driver: Any) -> None:
    """Covers JACK-15, JACK-09: the frame's undo takes back a pick; after a restart the game resumes with
    the same secret culprit and the board-side screen redrawn."""
    session = _start(driver)
    _jack_identity(driver, session)
    jack = session.state.jack
    _pick_first(driver, session)
    driver.tap("host_undo")
    _confirm(driver, "confirm_yes")
    assert session.state.phase == "pick" and session.state.current is None
    assert driver.find_all(f"mj_pick_{session.state.remaining()[0]}")
    _pick_first(driver, session)
    driver.tap("mj_end")
    journal = session.journal
    session.close()
    assert driver.app.resume_game()
    driver.wait_screen("host")
    resumed = driver.app.table
    assert resumed.journal is not journal and resumed.state.jack == jack and resumed.state.turn == 1
    assert "잭이 카드를 고를 차례예요 (지수)" in driver.texts()


def test_round_track_is_made_a_row_per_frame_and_rows_do_not_move(driver: Any) -> None:
    """#21: the whole track (8 rows, a kv rule each) in one frame took 25-48 ms of UI-thread CPU in bench/frames.py;
    made a row per drawn frame, every row is there at the end, in order, and a row shown never moves."""
    from kivy.clock import Clock

    from kiosk.games.mr_jack_ny import panels

    made: list[int] = []
    real = panels.MjTrackRow.__init__

    def counted(self: Any, **kw: Any) -> None:
        made.append(Clock.frames_displayed)
        real(self, **kw)

    panels.MjTrackRow.__init__ = counted  # type: ignore[method-assign]
    try:
        session = _start(driver)
        first: dict[str, float] = {}  # each row's y the first frame after it was made (laid out)

        def all_made() -> bool:
            for row in driver.walk():
                if isinstance(row, panels.MjTrackRow):
                    first.setdefault(row.label, row.y)
            return len(first) == 8

        driver.wait_for(all_made)
        driver.pump(3)
    finally:
        panels.MjTrackRow.__init__ = real  # type: ignore[method-assign]
    assert len(set(made)) == 8  # one row a frame
    rows = sorted((w for w in driver.walk() if isinstance(w, panels.MjTrackRow)), key=lambda r: -r.y)
    assert [r.label for r in rows] == [str(n) for n in range(1, 9)]  # round 1 on top
    assert {r.label: r.y for r in rows} == first  # where each was first laid out
    assert [r.current for r in rows] == [n == session.state.round for n in range(1, 9)]


def test_offer_buttons_are_kept_by_place_and_each_text_drawn_once(driver: Any) -> None:
    """#21: the offer's markup texts (a few ms each to draw) were drawn in pause frames of 35-45 ms in bench/frames.py:
    each new button drawn 2-3 times in its first frame (made at Kivy's default width, then laid out), and a new
    round made 4 new buttons. Now the round's buttons are the last round's, each new text drawn once."""
    from kivy.uix.label import Label

    drawn: list[str] = []
    real = Label.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # named as Kivy's weak methods look it up
        if self.markup and self.text.startswith("[b]"):
            drawn.append(self.text)
        real(self, *args)

    def offer() -> list[Any]:
        return sorted((w for w in driver.walk() if getattr(w, "test_id", "").startswith("mj_pick_")),
                      key=lambda w: (-w.y, w.x))

    Label.texture_update = texture_update  # type: ignore[method-assign]
    try:
        session = _start(driver)
        driver.tap("handover_i_am")
        _done(driver)
        driver.wait_for(lambda: len(offer()) == 4)
        driver.pump(3)
        first = offer()
        assert sorted(drawn) == sorted(b.text for b in first)  # once each
        while session.state.round == 1:
            if session.view(None)["phase"] == "pick":
                _pick_first(driver, session)
            elif session.view(None)["phase"] == "witness":
                driver.tap("mj_witness_confirm")
                drawn.clear()
                _confirm(driver, "confirm_yes")  # the next round's offer
            else:
                driver.tap("mj_end")
        driver.pump(3)
    finally:
        Label.texture_update = real  # type: ignore[method-assign]
    again = offer()
    assert [id(b) for b in again] == [id(b) for b in first]  # the same buttons, in their places
    assert {b.test_id for b in again} == {f"mj_pick_{c}" for c in session.view(None)["offer"]}
    assert sorted(drawn) == sorted(b.text for b in again)  # the new round's texts, once each


@pytest.mark.parametrize("size", [(1024, 600), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_tablets_lines_never_squeeze_the_offered_cards(driver: Any, monkeypatch: pytest.MonkeyPatch,
                                                           size: tuple[int, int]) -> None:
    """A guest alone against the tablet's Jack: three lines of the tablet's moves above the four offered cards. At
    1024x600 they came out of the cards' room and a card's text (217 px) overflowed its 176 px box (the sweep
    failed this test on the old code); now the table grows by what the cards miss and scrolls. At 1280x800 the
    cards have room (a few pixels more at most). Without the lines the table gives the room back."""
    from kivy.core.window import Window
    from kivy.metrics import dp

    from kiosk import hosting
    from kiosk.env import HEIGHT, WIDTH
    from kiosk.games.mr_jack_ny.host import TABLE_MIN_HEIGHT, MrJackHost

    monkeypatch.setattr(hosting, "TABLET_PAUSE", 600.0)
    # every offered card with Monk Eastman's long text (it overflowed): the deal is random, the case is not
    monk = MrJackHost.card_summary
    monkeypatch.setattr(MrJackHost, "card_summary", lambda self, cid: monk(self, "eastman"))
    Window.size = size
    driver.pump(6)
    try:
        _open(driver)
        driver.tap("mj_tablet_jack")
        driver.tap("mj_level_easy")
        driver.tap("mj_start")
        for _ in range(6):  # the detective is the guest's; Jack's identity is the tablet's own
            dialog = driver.app.get_screen("host").ctx.open_dialog
            if dialog is None:
                break
            driver.tap("handover_i_am" if getattr(dialog, "stage", "") == "ask" else "handover_done")
            driver.pump(3)
        host = driver.app.get_screen("host")
        host.ctx.tablet_said = "\n".join(f"잭(태블릿): 카드를 골랐어요 · 말 {n}" for n in range(1, 4))
        host.host_widget.refresh(None)
        name = f"mj_tablet_said_{size[0]}"
        driver.screenshot(name)
        assert [p for p in driver.problems if p.startswith(f"{name}:")] == []
        scroll = host.host_widget.table_scroll
        with_lines = scroll.min_height
        host.ctx.tablet_said = ""
        host.host_widget.refresh(None)
        driver.pump(6)
        assert driver.overflowing_labels() == []
        if size == (1024, 600):  # grew by about the lines (3 x 28 dp), and gives that room back without them
            assert with_lines > scroll.min_height + dp(60)
        else:  # the cards had room: at most a few pixels more, and the designed height without the lines
            assert with_lines < dp(TABLE_MIN_HEIGHT) + dp(20)
            assert scroll.min_height == pytest.approx(dp(TABLE_MIN_HEIGHT), abs=1)
        driver.tap("mj_pick_" + driver.app.table.view(None)["offer"][0])
        assert driver.app.table.view(None)["phase"] == "act"
    finally:
        driver.app.dismiss_dialogs()
        Window.size = (WIDTH, HEIGHT)
        driver.pump(6)


def test_the_act_panel_is_made_ahead_while_the_pick_panel_shows(driver: Any) -> None:
    """A pick shows the act panel with widgets made in a frame after the pick panel showed (#43: made in the pick's
    frame, ~25 ms of UI-thread CPU): none is made in the pick's frame, and they show the card picked (not the one
    they were made ahead for), the arrest and the turn's end."""
    session = _start(driver)
    _jack_identity(driver, session)
    host = driver.app.get_screen("host").ctx.host
    driver.pump(12)
    ahead = {id(w) for w in host.keep.widgets()}
    assert "mj_act_/title" in host.keep and "mj_act_/moves/mj_end" in host.keep
    cid = session.state.remaining()[1]  # not the first on offer (the one the panel was made ahead for)
    driver.tap(f"mj_pick_{cid}")
    assert session.state.current is not None and session.state.current.character == cid
    center = host.table.ids.center
    shown = list(center.walk(restrict=True))[1:]  # (the first: the panel itself)
    assert driver.find("mj_end") in shown and driver.find("mj_spy") in shown
    assert len(shown) >= 9 and all(id(w) in ahead for w in shown)  # none made now
    assert host.keep.kept("mj_act_/title").text == host.card_name(cid)
    assert host.keep.kept("mj_act_/summary").text == host.card_summary(cid)


def test_the_arrest_choice_is_made_ahead_while_the_act_panel_shows(driver: Any) -> None:
    """A tap on 체포 shows the choice of a suspect with widgets made in a frame after the act panel showed (#43: made
    in the tap's frame, 36 ms of UI-thread CPU in bench/frames.py): none is made in the tap's frame; it offers the
    suspects the engine allows, and the cancel."""
    session = _start(driver)
    _jack_identity(driver, session)
    host = driver.app.get_screen("host").ctx.host
    cid = _pick_first(driver, session)
    driver.pump(6)
    ahead = {id(w) for w in host.keep.widgets()}
    driver.tap("mj_arrest")
    shown = list(host.table.ids.center.walk(restrict=True))[1:]  # (the first: the panel itself)
    choices = {w.test_id for w in shown if getattr(w, "test_id", "").startswith("mj_choose_")}
    assert choices == {f"mj_choose_{a.suspect}" for a in session.legal(session.state.mover()) if a.NAME == "arrest"}
    assert driver.find("mj_cancel") in shown and host.card_name(cid) in [w.text for w in shown if hasattr(w, "text")]
    assert len(shown) >= 9 and all(id(w) in ahead for w in shown)  # none made now
