"""The UI sweep's judge (kiosk.text_check): what it flags and what it lets through."""

from __future__ import annotations

import pytest

from kiosk.text_check import mixed_languages, problems


@pytest.mark.parametrize("text", [
    "설정이 잘못됐어요: 3~8명 / 3-8 players",
    "마이크 없음 / no microphone",
    "음성 합성이 종료되었습니다 (synthesiser closed)",
    "Bad setup: 이름이 겹쳐요",
])
def test_mixed_sentences_are_flagged(text: str) -> None:
    assert mixed_languages(text)


@pytest.mark.parametrize("text", [
    "Alex님에게 태블릿을 건네주세요", "제가 Alex예요", "클라우드 라이더를 움직이는 중이에요 (Alex Kim)",
    "직원 PIN을 입력하세요", "O / X 를 표시하면", "네 / 아니요", "English", "켜짐: http://10.0.0.5:8080/join",
    "카페 콘텐츠 폴더: /tmp/pytest-of-root/test_x0/content", "Cpt. James H. Callahan", "221B 베이커가",
])
def test_names_acronyms_and_paths_pass(text: str) -> None:
    assert problems(text, "mr_jack_ny") == []


def test_fallbacks_units_ids_and_glossary_words_are_flagged() -> None:
    assert problems("민호이(가) 나에게 보여줬어요") == ["particle fallback"]
    assert problems("추천 추리: 그린, 칼, 부엌 (2.55비트)") == ["internal unit or id"]
    assert problems("지금은 그 행동을 할 수 없어요 (start_turn).") == ["internal unit or id"]
    assert problems("멈추고 고발하기", "spyfall") == ["glossary: 고발 → 지목"]
    assert problems("멈추고 고발하기") == []  # outside a game no glossary applies


def test_english_screens_may_name_korean_players_but_not_speak_korean() -> None:
    assert problems("Detective (민호) picks a card", lang="en") == []
    assert problems("Round 1 · Visit phase · 하은's turn", lang="en") == []
    assert problems("Bad setup: 이름이 비었거나 겹쳐요", lang="en") == ["Korean and English mixed"]


def test_a_location_named_in_both_languages_is_a_name_not_a_mixed_sentence() -> None:
    assert problems("정의의 전당 · Hall of Justice", "spyfall") == []
    assert problems("Fortress of Solitude · 고독의 요새", "spyfall") == []


def test_bilingual_status_reasons_are_cut_to_one_language() -> None:
    from content.i18n_catalog import one_language

    assert one_language("마이크 없음 / no microphone", "ko") == "마이크 없음"
    assert one_language("마이크 없음 / no microphone", "en") == "no microphone"
    reason = "출력 장치가 없습니다 (no output device: Error querying device -1)"
    assert one_language(reason, "ko") == "출력 장치가 없습니다"
    assert one_language(reason, "en") == "no output device: Error querying device -1"
    assert one_language("준비됨", "ko") == "준비됨"
    assert problems(one_language(reason, "ko")) == []


def test_commands_and_markup_are_not_english_sentences() -> None:
    assert problems("설정이 손상되어 PIN을 쓸 수 없어요. 관리자: tablehost pin reset") == []
    assert problems("첫 문장입니다. [color=#f5efe6][b]두 번째 문장입니다.[/b][/color]") == []


def test_a_korean_caption_on_an_english_screen_stands_alone() -> None:
    caption = "[color=#f5efe6][b]매 라운드 한 명은 조커예요.[/b][/color] 영웅들은 모두 같은 장소 카드를 받아요."
    assert problems(caption, lang="en") == []
