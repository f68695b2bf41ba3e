"""Every guest-facing text of the Clue engine and solver, Korean first, English second."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.clue.notation import Deduction, O
from engines.core import ConfigError, IllegalActionError
from engines.korean import fmt

ERRORS: dict[str, tuple[str, str]] = {
    "bad_config": ("게임 설정이 잘못됐어요: {problem_ko}", "The game settings are wrong: {problem_en}"),
    "wrong_phase": ("지금은 그 행동을 할 수 없어요.", "That cannot be done now."),
    "unknown_card": ("이 세트에 없는 카드예요.", "That card is not in this set."),
    "not_in_room": ("말이 방 안에 있어야 추리할 수 있어요.", "Your token must be in a room to suggest."),
    "already_suggested": ("이 방에 들어온 뒤 이미 추리했어요. 다른 방에 들어가야 해요.",
                          "You already suggested since entering this room; enter another room first."),
    "must_move": ("방에 머물며 차례를 넘길 수 없어요. 주사위를 굴리거나 비밀 통로를 쓰세요.",
                  "You may not stay in a room to skip moving: roll the die or take a secret passage."),
    "no_passage": ("이 방에는 비밀 통로가 없어요.", "There is no secret passage from this room."),
    "same_room": ("같은 차례에 방금 나온 방에 다시 들어갈 수 없어요.",
                  "You cannot re-enter the room you left this turn."),
    "bad_die": ("주사위 값은 1에서 6 사이예요.", "A die shows 1 to 6."),
    "must_show": ("추리한 카드 중 하나를 가지고 있으니 한 장을 보여줘야 해요.",
                  "You hold one of the named cards, so you must show one."),
    "must_show_recorded": ("기록해 둔 손패에 추리에 나온 카드가 있어요. 그중 한 장을 보여 주세요.",
                           "Your recorded hand holds a named card: show one of them."),
    "not_holding": ("그 카드는 추리에 나온 카드 중 내가 가진 카드가 아니에요.",
                    "That is not one of the named cards in your hand."),
    "not_named": ("그 카드는 이번 추리에 나온 카드가 아니에요.", "That card was not named in this suggestion."),
    "already_accused": ("범인 밝히기는 게임마다 한 번만 할 수 있어요.", "You may accuse only once per game."),
    "hand_dealt": ("태블릿이 나눠 준 카드는 바꿀 수 없어요.", "The cards the tablet dealt cannot be changed."),
    "bad_hand": ("손패는 카드 {size}장이어야 해요 (또는 비워 두세요).",
                 "A hand has {size} cards (or leave it empty)."),
    "not_trapped": ("방 안에 있을 때만 갇혔다고 할 수 있어요.", "Only a token in a room can be trapped."),
}


def error(code: str, **params: Any) -> IllegalActionError:
    ko, en = ERRORS[code]
    return IllegalActionError(code, ko, en, **params)


# The problem named by bad_config, each language on its own (a guest sees one language).
CONFIG: dict[str, tuple[str, str]] = {
    "set": ("카드 세트를 찾을 수 없어요.", "the card set is missing."),
    "players": ("인원은 {lo}~{hi}명이에요.", "{lo} to {hi} players."),
    "suspects": ("사람마다 다른 용의자를 하나씩 골라 주세요.", "one different suspect per player."),
    "mode": ("카드를 나누는 방식을 다시 골라 주세요.", "choose how the cards are dealt again."),
}


def bad_config(problem: str, **params: Any) -> ConfigError:
    ko, en = ERRORS["bad_config"]
    pko, pen = CONFIG[problem]
    return ConfigError(ko, en, problem_ko=fmt(pko, **params), problem_en=fmt(pen, **params))


REASONS: dict[str, tuple[str, str]] = {
    "hand": ("내 손패에 {card:이/가} 있어요.", "{card} is in my hand."),
    "shown": ("{player:이/가} 나에게 {card:을/를} 보여줬어요.", "{player} showed me {card}."),
    "pass": ("{player:이/가} {cards} 추리에 패스했으니 셋 다 없어요.",
             "{player} passed on {cards}, so holds none of them."),
    "one_owner_o": ("{card:은/는} 다른 누구에게도 없으니 {player}에게 있어요.",
                    "Nobody else can hold {card}, so {player} does."),
    "one_owner_x": ("{card:은/는} 이미 주인이 정해졌어요.", "{card} already has its owner."),
    "full_hand": ("{player}의 카드({cards})를 모두 알아냈으니 나머지는 X예요.",
                  "All of {player}'s cards are known ({cards}), so every other card is X."),
    "fill_hand": ("{player}에게 남은 빈칸({cards})이 손패 수와 같으니 모두 O예요.",
                  "{player}'s blank cells ({cards}) equal the cards left in hand, so all are O."),
    "number": ("{player}의 {ref}번 표시 중 {card}만 남았으니 O예요.",
               "Only {card} is left of {player}'s mark {ref}, so it is O."),
    "numbers_fill": ("{player}의 손패는 O와 번호 표시({cards})로 꽉 차서 나머지는 X예요.",
                     "{player}'s hand is filled by O's and numbered marks ({cards}), so the rest is X."),
    "envelope_o": ("{card}만 남았으니 봉투 안에 있어요.", "Only {card} is left in its category: it is in the envelope."),
    "envelope_x": ("봉투에는 종류마다 한 장뿐이라 {card:은/는} 봉투에 없어요.",
                   "The envelope holds one card per category, so {card} is not in it."),
    "accusation": ("밝힌 범인({cards})이 틀렸으니 {card:은/는} 봉투에 없어요.",
                   "A wrong accusation ({cards}) rules {card} out of the envelope."),
}


def reason(d: Deduction, card_name: Callable[[str], str], player_name: Callable[[int], str],
           lang: str = "ko") -> str:
    key = d.rule
    if key in ("one_owner", "envelope"):
        key += "_o" if d.value == O else "_x"
    ko, en = REASONS.get(key, ("{card}: {rule}", "{card}: {rule}"))
    template = en if lang == "en" else ko
    return fmt(template, card=card_name(d.card), player=player_name(d.owner),
                           cards=", ".join(card_name(c) for c in d.because), ref=d.ref, rule=d.rule)


CONTRADICTION = ("기록된 내용끼리 서로 맞지 않아요 ({rule}). 테이블에서 입력한 기록을 확인해 주세요.",
                 "The recorded facts contradict each other ({rule}). Please check what was entered.")
