"""Shared helpers for the Watson & Holmes tests: a small rulebook-style case and a tiny driver."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from engines.core import Action, Event, RuleError
from engines.watson_holmes import ENGINE
from engines.watson_holmes.content import (
    Case,
    CaseRules,
    CharacterCard,
    Components,
    Location,
    Question,
    Rewards,
    Text,
    TokenCounts,
)
from engines.watson_holmes.state import WhState
from tests.packs import pack_for

DEFAULT_TOKENS = TokenCounts()
NAMES = ["수지", "마르코", "지수", "민호", "서연", "도윤", "하은"]


def t(ko: str) -> Text:
    return Text(ko, ko + " (en)")


BANK_CASE = Case(
    id="bank", number=99, title=t("은행 사건"), difficulty=1, intro=t("소개"),
    questions=(
        Question(1, t("범인은?"), person=True, accepted=("존 스미스", "John Smith")),
        Question(2, t("무엇을 훔쳤나?"), keywords=(("금괴", "gold"),)),
    ),
    locations=(
        Location(1, t("은행"), clue=t("은행 단서")),
        Location(2, t("런던 경시청"), clue=t("경시청 단서"), rewards=Rewards(police=True, withdraw=True)),
        Location(3, t("박물관"), clue=t("박물관 단서"), no_police=True, no_watson=True),
        Location(4, t("부두 창고"), clue=t("창고 단서"), locked=True),
        Location(5, t("술집"), clue=t("술집 단서"), rewards=Rewards(carriages=2)),
        Location(6, t("열쇠공"), clue=t("열쇠공 단서"), rewards=Rewards(lockpick=True)),
        Location(7, t("정원"), clue=t("정원 단서"), zone=2),
    ),
    solution=t("존 스미스가 금괴를 훔쳤다"), reasoning=t("추론"),
)

CHARACTERS = (
    CharacterCard("irene", t("아이린"), t("요약")),
    CharacterCard("mycroft", t("마이크로프트"), t("왓슨 관련"), mentions_watson=True),
    CharacterCard("hopkins", t("홉킨스"), t("비용 2"), cost=2),
    CharacterCard("wiggins", t("위긴스"), t("토큰")),
    CharacterCard("toby", t("토비"), t("개")),
    CharacterCard("hudson", t("허드슨"), t("부인")),
    CharacterCard("lestrade", t("레스트레이드"), t("경감")),
)


def bank_pack(case: Case = BANK_CASE, tokens: TokenCounts = DEFAULT_TOKENS, characters: bool = False) -> dict[str, Any]:
    return {"components": Components(tokens, CHARACTERS if characters else ()), f"cases/{case.id}": case}


def with_rules(case: Case, **rules: Any) -> Case:
    return dataclasses.replace(case, rules=dataclasses.replace(CaseRules(), **rules))


def new_game(n: int = 2, case: Case = BANK_CASE, tokens: TokenCounts = DEFAULT_TOKENS, characters: bool = False,
             **config: Any) -> WhState:
    config.setdefault("start_player", 0)
    return ENGINE.setup({"players": NAMES[:n], "case": case.id, **config},
                        bank_pack(case, tokens, characters), seed=7)


def real_pack() -> Any:
    return pack_for("watson_holmes")


def real_game(case_id: str, n: int = 3, **config: Any) -> WhState:
    config.setdefault("start_player", 0)
    return ENGINE.setup({"players": NAMES[:n], "case": case_id, **config}, real_pack(), seed=3)


def set_player(state: WhState, seat: int, **changes: Any) -> WhState:
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], **changes)
    return dataclasses.replace(state, players=tuple(players))


def play(state: WhState, *actions: Action) -> tuple[WhState, list[Event]]:
    events: list[Event] = []
    for action in actions:
        step = ENGINE.apply(state, action)
        state = step.state
        events.extend(step.events)
    return state, events


def refused(state: WhState, action: Action, code: str | None = None) -> RuleError:
    """The action raises a RuleError with a Korean message, and the state is unchanged."""
    before = ENGINE.state_to_dict(state)
    try:
        ENGINE.apply(state, action)
    except RuleError as exc:
        assert ENGINE.state_to_dict(state) == before
        assert any("\uac00" <= ch <= "\ud7a3" for ch in exc.ko), exc.ko
        if code is not None:
            assert exc.code == code, (exc.code, exc.ko)
        return exc
    raise AssertionError(f"{action} was accepted")


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def total_carriages(state: WhState) -> int:
    return (state.supply.carriages + sum(p.carriages for p in state.players)
            + sum(p.bid for p in state.placements if state.phase in ("visit", "watson")))
