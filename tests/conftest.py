"""Test-wide set-up: Kivy's environment is set before any test module can import kivy (headless, no
argv parsing, its home in a temp folder), and the data folder is a temp folder, never the user's."""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("TABLEHOST_DATA", tempfile.mkdtemp(prefix="tablehost-test-"))
os.environ.setdefault("TABLEHOST_PHONES_HOST", "127.0.0.1")
os.environ.setdefault("TABLEHOST_NO_VOICE", "1")
# the staff PIN as an install sets it (deploy/install.sh --pin): the tests' kiosks start with 0000 instead of asking
# for a PIN at their first start; the tests of that first start take it away (monkeypatch.delenv)
os.environ.setdefault("TABLEHOST_PIN", "0000")
# the UI app narrates with the sound on: real synthesis (in the TTS worker process, so a crash in libespeak
# costs one sentence, not the test process) played into a recording fake device (no sound card here)
os.environ.setdefault("TABLEHOST_AUDIO_DEVICE", "fake")

from kiosk import env  # noqa: E402

env.configure(headless=True)
env.apply_config()  # window size etc. before any import can create the Window (1280x800, not Kivy's 800x600)


@pytest.hookimpl(trylast=True)  # after -m/-k have chosen
def pytest_collection_modifyitems(config, items) -> None:  # type: ignore[no-untyped-def]
    """Tests marked `alone` measure the app's own memory, so they need a process of their own: the hundreds
    of tests before them leave the test process's heap at 1-2 GB. In a run with other tests they are
    deselected and said so; run-tests runs them afterwards by themselves (`pytest -m alone`)."""
    alone = [item for item in items if item.get_closest_marker("alone")]
    if alone and len(alone) < len(items):
        config.hook.pytest_deselected(items=alone)
        items[:] = [item for item in items if not item.get_closest_marker("alone")]
        print(f"\n{len(alone)} test(s) marked 'alone' deselected here: run-tests runs them in a process of their own")
    if hasattr(config, "workerinput"):
        _longest_files_first(items)
    if not all(item.get_closest_marker("alone") for item in items):
        _no_multisampling()


def _no_multisampling() -> None:
    """The UI tests draw without multisampling (Kivy's default, and so the kiosk's: 2 samples): in software GL
    (llvmpipe, headless) it took half of a UI test's CPU (a Mr. Jack game against the tablet: 16 s -> 8 s). What the
    tests check (layout, texts, touches, label textures) does not depend on it. A run of only the memory tests
    (`alone`) draws as the kiosk does. Before the Window exists: the UI fixture creates it, after collection."""
    from kivy.config import Config

    Config.set("graphics", "multisamples", "0")


# seconds, from a full run's --durations (idle 2-core machine, 2 workers): the tests far above their kind's guess
KNOWN_SECONDS = {
    "tests/engines/test_fuzz.py::test_fuzz_random_play_illegal_probes_and_secret_swaps[clue]": 45,
    "tests/kiosk/games/test_tablet_seats_ui.py::test_two_guests_play_a_full_clue_game_against_two_tablet_detectives_by_taps": 58,
    "tests/kiosk/journey/test_watson_holmes_journey.py::test_watson_holmes_evening_by_taps": 54,
    "tests/kiosk/journey/test_watson_holmes_journey.py::test_rematch_after_every_case_was_played_lets_them_choose": 46,
    "tests/kiosk/games/test_tablet_seats_ui.py::test_a_guests_undo_takes_back_their_own_action_and_the_tablet_moves_again_after_it": 37,
    "tests/kiosk/games/test_tablet_seats_ui.py::test_a_power_cut_resumes_with_the_tablet_seats_at_the_same_point": 34,
    "tests/kiosk/test_gc_policy.py::test_play_time_collections_skip_the_frozen_game_screen_and_thaws_free_the_closed_ones": 32,
    "tests/kiosk/journey/test_spyfall_journey.py::test_spyfall_evening_by_taps": 30,
    "tests/kiosk/journey/test_leads_on.py::test_results_offer_rematch_other_game_and_leave": 27,
    "tests/kiosk/journey/test_clue_journey.py::test_clue_evening_by_taps": 27,
}


def _guess_seconds(item: pytest.Item) -> float:
    """A test's time, roughly: known, else by its kind (a UI test ~7 s on average, a slow one ~20 s)."""
    if item.nodeid in KNOWN_SECONDS:
        return KNOWN_SECONDS[item.nodeid]
    if item.get_closest_marker("slow"):
        return 20
    return 7 if "driver" in getattr(item, "fixturenames", ()) else 0.3


def _longest_files_first(items: list[pytest.Item]) -> None:
    """In run-tests' parallel run (pytest-xdist, whole files to a worker: --dist loadfile --no-loadscope-reorder)
    the files go out longest first, by _guess_seconds, so that no long file starts last while the other worker has
    nothing left to do (xdist's own order, most tests first, sent the few long journeys and kill tests last). Each
    file keeps its own order; a run in one process keeps the collection's."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    order = sorted(files, key=lambda f: -sum(_guess_seconds(i) for i in files[f]))
    items[:] = [item for f in order for item in files[f]]


def pytest_collection_finish(session) -> None:  # type: ignore[no-untyped-def]
    """No test module may create Kivy's Window while being imported: the UI fixture must create it (its
    size, fonts and offscreen driver). Importing a Kivy widget module at collection once did, and every
    screenshot came out 800x600."""
    import sys

    if "kivy.core.window" in sys.modules:
        raise RuntimeError("a test module imported kivy.core.window at collection time; import Kivy-dependent "
                           "kiosk modules inside tests or fixtures")
