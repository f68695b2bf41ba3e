"""Spyfall's set-up form is made once and reset for the next screen: nothing of the last table's choices stays."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _form(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.host.setup_form


def test_the_next_spyfall_screen_gets_the_form_back_reset(driver: Any) -> None:
    app = driver.app
    app.host("spyfall")
    driver.wait_screen("host")
    form = _form(driver)
    lo, hi = app.library.games["spyfall"].info.players
    default = int(form.count)
    driver.tap(f"spy_count_{hi}")
    driver.fill("spy_name_0", "지수")
    module = next(iter(form.modules))
    driver.tap(f"spy_mod_{module}")
    driver.tap("spy_votes_sealed")
    assert form.modules[module] and form.votes == "sealed"
    old_host = weakref.ref(app.get_screen("host").host_widget)
    app.go("library")
    driver.wait_screen("library")
    app.host("watson_holmes")  # another game's screen closes Spyfall's
    driver.wait_screen("host")
    gc.collect()
    assert old_host() is None  # the kept form does not keep the closed screen alive
    app.host("spyfall")
    driver.wait_screen("host")
    assert _form(driver) is form and form.host is app.get_screen("host").ctx.host
    assert int(form.count) == default and form.votes == "open" and form.deal == "digital"
    assert not any(form.modules.values()) and [f.text for f in form.fields] == [""] * hi
    assert driver.find(f"spy_count_{default}").selected and not driver.find(f"spy_count_{hi}").selected
    assert driver.find("spy_name_0").hint_text != "" and driver.find(f"spy_name_{hi - 1}").disabled
    driver.fill("spy_name_1", "민호")
    driver.tap("spy_start")
    assert app.table.playing and app.table.view(None)["common"]["players"][1]["name"] == "민호"
    assert app.table.view(None)["common"]["players"][0]["name"] != "지수"
