"""bench/voice_rules.py --ceiling (issue #38): per condition, how many takes have the right phrase as the normal
decode's top text, anywhere in its n-best, anywhere in any decode's n-best, and in a free decode's text."""

from __future__ import annotations

from audio.intents import build_phrasebook, load_catalog
from bench.voice_rules import ceiling_cells

CATALOG = load_catalog()
NAV = ["next", "previous"]


def take(cond: str, normal: list[str], perturbed: list[list[str]], **extra: object) -> dict:
    return {"phrase": "이전", "intent": "previous", "kind": "nav", "game": None, "intents": NAV, "slots": {},
            "voice": "v", "room": "none", "cond": cond, "bare": "nothing", "bare_heard": "",
            "votes": [{"normal": normal, "perturbed": perturbed + [[]] * (8 - len(perturbed)), "snr": 30.0}],
            **extra}


def test_the_ceiling_counts_where_the_right_phrase_was_heard() -> None:
    book = build_phrasebook([CATALOG.intents[n] for n in NAV], decoys=["누구"])
    rows = [
        take("clean", ["이전"], [["이전"], ["이전"]], free=["이 전 화면"]),  # top, and the vote takes it
        take("clean", ["다음", "이전"], [["다음"], ["다음"]], free=["다 음"]),  # second in the n-best: wrong
        take("pink@10", ["누구"], [["누구", "이전 화면"]]),  # only a perturbed decode's second text
        take("babble@10", ["누구"], [["다음 누구"]]),  # nowhere
    ]
    cells = ceiling_cells(rows, {"이전": book})
    assert cells["clean"]["(a) top"] == [1, 2] and cells["clean"]["(b) n-best"] == [2, 2]
    assert cells["clean"]["kiosk"] == [1, 2] and cells["clean"]["kiosk wrong"] == [1, 2]
    assert cells["clean"]["free top"] == [1, 2] and cells["clean"]["free n-best"] == [1, 2]
    assert cells["10 dB"]["(b) n-best"] == [0, 2] and cells["10 dB"]["(c) any decode"] == [1, 2]
    assert cells["all"]["(c) any decode"] == [3, 4] and cells["all"]["free top"] == [1, 2]
    assert cells["all"]["(d) most picks"] == [1, 4]
    assert "free top" not in cells["pink@10"]
