"""Issue 37 part 4: names guests can match to their box, and Korean that reads naturally. No Korean string says
"당신"; Spyfall's multiverse module has one name on every screen (the glossary's)."""

from __future__ import annotations

from content.glossary import violations
from tests.i18n.strings import korean_strings


def test_no_korean_string_says_dangsin() -> None:
    bad = [f"{s.where}: {s.text[:60]!r}" for s in korean_strings() if "당신" in s.text]
    assert bad == []


def test_the_multiverse_module_has_one_name_everywhere() -> None:
    assert violations("다중우주 덱 (8장씩)", "spyfall") and violations("혼합된 우주", "spyfall")
    named = [s for s in korean_strings() if s.game == "spyfall" and ("우주" in s.text or "멀티버스" in s.text)]
    assert named and all("다중우주" not in s.text and "혼합된 우주" not in s.text for s in named)


def test_default_seat_names_are_the_same_in_every_game_and_take_no_honorific() -> None:
    """"1번 자리님에게", "2번 플레이어님", "잭님": a seat's default name is a place, the same in every game, and the
    honorific placeholder leaves 님 off it while a typed name keeps it, with the particle that fits either."""
    from content.i18n_catalog import Translator

    tr = Translator("ko")
    defaults = {tr("clue.setup.name", n=2), tr("spyfall.setup.name_hint", n=2), tr("watson_holmes.setup.player_default",
                n=2), tr("host.generic.seat", n=2), tr("mr_jack_ny.setup.jack_default")}
    assert defaults == {"플레이어 2"}
    assert tr("mr_jack_ny.setup.detective_default") == "플레이어 1"
    assert tr("handover.give", name="플레이어 1") == "플레이어 1에게 태블릿을 건네주세요"
    assert tr("handover.give", name="지수") == "지수님에게 태블릿을 건네주세요"
    assert tr("spyfall.accuse.title", accuser="플레이어 2", accused="플레이어 3") == "플레이어 2가 플레이어 3을 지목했어요"
    assert tr("spyfall.accuse.title", accuser="지수", accused="민호") == "지수님이 민호님을 지목했어요"
    assert tr("watson_holmes.opening.start_player", name="민수") == "제비뽑기로 민수님이 먼저 시작해요."
    assert tr("watson_holmes.status.must_solve", name="플레이어 1").startswith("플레이어 1은 ")


def test_no_korean_template_appends_nim_by_hand() -> None:
    """Every "님" after a name goes through the honorific placeholder ("{name:님이/가}"), never "{name}님"."""
    import re

    bad = [f"{s.where}: {s.text[:60]!r}" for s in korean_strings() if re.search(r"\{\w+\}님", s.text)]
    assert bad == []
