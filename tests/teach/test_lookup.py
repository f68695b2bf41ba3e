"""Rule look-up: typed queries, typos and partial syllables find the right rule piece first."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.teach.jamo import decompose, edit_distance
from kiosk.teach.lookup import answer, index, query_words, voice_phrases

QUERIES = [
    # (game, typed query, expected rule piece) — plain words
    ("watson_holmes", "경찰 토큰", "police_token"),
    ("watson_holmes", "철수", "withdraw_token"),
    ("watson_holmes", "만능열쇠", "lockpick_token"),
    ("watson_holmes", "왓슨", "watson_card"),
    ("watson_holmes", "마차 정류장", "carriage_stop"),
    ("watson_holmes", "위긴스", "wiggins"),
    ("watson_holmes", "홈즈 카드", "holmes_card"),
    ("watson_holmes", "전체 이름", "full_name"),
    ("watson_holmes", "6명 준비", "setup_many_players"),
    ("watson_holmes", "자물쇠", "locked_card"),
    ("spyfall", "투표", "vote_unanimous"),
    ("spyfall", "점수", "scoring"),
    ("spyfall", "딜러", "dealer"),
    ("spyfall", "동점", "final_vote"),
    ("spyfall", "신의 자부심", "god_pride"),
    ("spyfall", "조커의 장난", "prank"),
    ("clue", "비밀 통로", "secret_passage"),
    ("clue", "반박", "disprove"),
    ("clue", "고소", "accusation"),
    ("clue", "틀린 고소", "wrong_accusation"),
    ("clue", "봉투", "envelope"),
    ("clue", "스칼렛", "start_player"),
    ("mr_jack_ny", "목격 카드", "witness"),
    ("mr_jack_ny", "스파이", "spy"),
    ("mr_jack_ny", "체포", "arrest"),
    ("mr_jack_ny", "탈출", "escape"),
    ("mr_jack_ny", "차례 순서", "turn_order"),
    ("mr_jack_ny", "8라운드", "eight_rounds"),
    # with particles and voice filler
    ("watson_holmes", "규칙 경찰 토큰", "police_token"),
    ("watson_holmes", "경찰 토큰은 어떻게 써", "police_token"),
    ("watson_holmes", "밀려나면", "outbid"),
    ("spyfall", "지목하기", "accusation"),
    ("clue", "카드 보여주기", "disprove"),
    # typos (a jamo or a syllable off)
    ("watson_holmes", "경찰 토근", "police_token"),
    ("watson_holmes", "맘능 열쇠", "lockpick_token"),
    ("watson_holmes", "왓스", "watson_card"),
    ("spyfall", "질뭄", "questions"),
    ("spyfall", "할리퀸", "harley"),
    ("clue", "비밀퉁로", "secret_passage"),
    # partial syllables while typing
    ("watson_holmes", "경ㅊ", "police_token"),
    ("watson_holmes", "정류", "carriage_stop"),
    ("spyfall", "할리 ㅋ", "harley"),
    ("spyfall", "타이머 8분", "timer"),
    ("mr_jack_ny", "목격", "witness"),
    # English
    ("watson_holmes", "police", "police_token"),
    ("clue", "secret passage", "secret_passage"),
    ("mr_jack_ny", "arest", "arrest"),
]


@pytest.mark.parametrize("game,query,expected", QUERIES)
def test_query_finds_the_right_rule_first(game: str, query: str, expected: str) -> None:
    hits = index().search(query, game)
    assert hits, query
    assert hits[0].piece.id == expected, [(h.piece.id, h.score) for h in hits[:3]]


@pytest.mark.parametrize("query,game,expected", [
    ("비밀 통로", "clue", "secret_passage"),
    ("할리 퀸", "spyfall", "harley"),
    ("왓슨 카드", "watson_holmes", "watson_card"),
    ("가로등", "mr_jack_ny", "witness"),
])
def test_search_across_all_games(query: str, game: str, expected: str) -> None:
    top = index().search(query)[0]
    assert (top.game_id, top.piece.id) == (game, expected)


def test_voice_answer_comes_with_related_rules_and_a_segment() -> None:
    ans = answer("규칙 경찰 토큰", "watson_holmes")
    assert ans is not None and ans.piece.id == "police_token"
    assert {p.id for p in ans.related} == {"withdraw_token", "lockpick_token", "police_place"}
    segs = ans.segments("ko")
    assert len(segs) == 1 and segs[0].text.startswith("경찰 토큰.") and segs[0].id == "teach.watson_holmes.rule.police_token"
    assert answer("규칙", "watson_holmes") is None  # nothing but filler
    assert answer("zzzzqqq", "clue") is None


def test_jamo_decomposition() -> None:
    assert decompose("경찰") == "ㄱㅕㅇㅊㅏㄹ"
    assert decompose("과") == "ㄱㅗㅏ"  # compound vowel split, so "고" is a prefix of "과"
    assert decompose("값") == "ㄱㅏㅂㅅ"
    assert decompose("경찰").startswith(decompose("경ㅊ")) and decompose("경찰").startswith(decompose("경차"))
    assert decompose("Police") == "police"
    assert edit_distance(decompose("토근"), decompose("토큰"), 2) == 1
    assert query_words("규칙 경찰 토큰 알려줘") == ["경찰", "토큰"]


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=12))
def test_any_typed_text_searches_without_error(text: str) -> None:
    hits = index().search(text, "clue")
    assert all(h.score > 0 for h in hits) and len(hits) <= 5


def test_voice_phrases_lead_back_to_their_rule() -> None:
    """Every "규칙 <keyword>" phrase finds, among its first three answers, a piece that lists the keyword."""
    phrases = voice_phrases("watson_holmes")
    assert "규칙 경찰 토큰" in phrases and all(p.startswith("규칙 ") for p in phrases)
    for phrase in phrases:
        said = phrase.removeprefix("규칙 ")
        top3 = [h.piece for h in index().search(phrase, "watson_holmes", limit=3)]
        assert any(said in (p.title.ko, *p.keywords) for p in top3), phrase


def test_initial_consonants_find_the_rule() -> None:
    """Tablet typing is slow: ㄱㅊㅌㅋ (경찰 토큰) and ㅈㅋ (조커) are enough."""
    assert index().search("ㄱㅊㅌㅋ", "watson_holmes", limit=1)[0].piece.id == "police_token"
    assert index().search("ㅂㅁ ㅌㄹ", "clue", limit=1)[0].piece.id == "secret_passage"


def test_one_build_for_the_background_and_the_first_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search while the index is built in the background waits for that build instead of making another."""
    import threading

    from kiosk.teach import lookup

    monkeypatch.setattr(lookup, "_INDEX", {})
    real, started, go, built = lookup._build, threading.Event(), threading.Event(), []

    def build(overlay: object) -> lookup.RuleIndex:
        built.append(threading.current_thread().name)
        started.set()
        go.wait(10)
        return real(None)

    monkeypatch.setattr(lookup, "_build", build)
    job = lookup.build_in_background(None)
    assert job is not None and started.wait(10)
    threading.Timer(0.2, go.set).start()
    assert index(None).search("딜러", "spyfall")[0].piece.id == "dealer"
    job.join(10)
    assert built == ["rule-index"] and lookup.build_in_background(None) is None
