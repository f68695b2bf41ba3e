"""Every guest-facing rule message of Spyfall DC, Korean first (one catalog; codes are stable)."""

from __future__ import annotations

from typing import Any

from engines.core import ConfigError, IllegalActionError
from engines.korean import fmt

CATALOG: dict[str, tuple[str, str]] = {
    "bad_config": ("설정이 잘못됐어요: {what_ko}", "Bad setup: {what_en}"),
    "bad_seat": ("그런 자리는 없어요.", "There is no such seat."),
    "wrong_phase": ("지금은 그 행동을 할 수 없어요.", "That cannot be done now."),
    "bad_deck": ("이번 세션에 쓸 수 없는 덱이에요.", "That deck cannot be used in this session."),
    "bad_deal": ("카드 분배가 규칙에 맞지 않아요. 덱 바닥에서 인원수만큼, 한 장씩 나눠야 해요.",
                 "The deal breaks the rules: as many cards as players, from the bottom of the deck, one each."),
    "bad_abilities": ("능력 카드는 서로 다른 카드로 한 장씩 나눠야 해요.",
                      "Deal one different ability card to each player."),
    "clock_not_running": ("시계가 가고 있지 않아요.", "The clock is not running."),
    "clock_running": ("시계가 이미 가고 있어요.", "The clock is already running."),
    "time_is_up": ("시간이 다 됐어요. 이제 토론하고 지목할 차례예요.",
                   "Time is up: now discuss and point."),
    "time_not_up": ("아직 시간이 남았어요.", "Time is not up yet."),
    "already_accused": ("이번 라운드에 이미 시계를 멈추고 의심했어요. 라운드마다 한 번만 할 수 있어요.",
                        "You have already stopped the clock to accuse this round; once per round."),
    "self_accuse": ("자기 자신을 의심할 수는 없어요.", "You cannot accuse yourself."),
    "self_point": ("자기 자신을 가리킬 수는 없어요.", "You cannot point at yourself."),
    "not_joker": ("조커 카드를 가진 사람만 공개할 수 있어요.", "Only a player holding a Joker card may reveal."),
    "not_revealer": ("카드를 공개한 조커만 장소를 말할 수 있어요.",
                     "Only the Joker who revealed may name the location."),
    "module_off": ("이번 세션에는 {module_ko} 모듈을 쓰지 않아요.", "The {module_en} module is not in play."),
    "already_called": ("이번 라운드에 이미 멀티버스 투표를 불렀어요.",
                       "You have already called a multiverse vote this round."),
    "accused_votes": ("의심받은 사람은 투표하지 않아요.", "The accused does not vote."),
    "joker_votes": ("조커는 할리 퀸 찾기 투표에 참여하지 않아요.", "The Joker does not vote in the Harley hunt."),
    "not_a_voter": ("이 투표에는 참여할 수 없어요.", "You may not vote in this vote."),
    "already_voted": ("이미 투표했어요. 투표는 바꿀 수 없어요.", "You have already voted; a vote cannot be changed."),
    "sealed_votes": ("이번 세션은 비밀 투표예요. 각자 태블릿으로 투표해 주세요.",
                     "Votes are sealed this session: each player votes on the tablet."),
    "open_votes": ("이번 세션은 공개 투표예요. 테이블에서 결과를 입력해 주세요.",
                   "Votes are open this session: the table enters the result."),
    "bad_counts": ("표의 수가 맞지 않아요: {what_ko}", "The vote counts do not add up: {what_en}"),
    "no_ability": ("쓸 수 있는 원샷 능력 카드가 없어요.", "You have no one-shot ability card to use."),
    "not_one_shot": ("이 능력 카드는 원샷이 아니에요.", "This ability card is not a one-shot."),
    "pride_timing": ("신의 자부심은 중간 의심 투표에서 찬성이 반대보다 많을 때만 쓸 수 있어요.",
                     "God's Pride works only in a mid-round accusation vote with more yes than no."),
    "pride_side": ("신의 자부심은 찬성(다수) 쪽에 투표한 사람만 쓸 수 있어요.",
                   "Only a player who voted with the majority (yes) may use God's Pride."),
    "pride_used": ("이번 투표에서 신의 자부심이 이미 쓰였어요.", "God's Pride has already been used in this vote."),
    "physical_only": ("실물 카드 모드에서만 입력하는 정보예요.", "This is entered only in physical-card mode."),
    "digital_only": ("디지털 카드 모드에서만 하는 행동이에요.", "This is only for digital-card mode."),
    "bad_cards": ("공개된 카드 정보가 앞의 진행과 맞지 않아요: {what_ko}",
                  "The revealed cards contradict what happened: {what_en}"),
    "self_question": ("자기 자신에게 질문할 수는 없어요.", "You cannot ask yourself."),
    "dealer_asks_first": ("첫 질문은 딜러가 해요.", "The dealer asks the first question."),
    "answerer_asks": ("방금 대답한 사람이 다음 질문을 해요.", "The player who just answered asks next."),
    "no_ask_back": ("방금 나에게 질문한 사람에게는 되물을 수 없어요.",
                    "You cannot ask back the player who just asked you."),
    "not_candidate": ("그 사람은 지목할 수 없어요.", "That player cannot be pointed at."),
    "session_over": ("정한 라운드를 모두 마쳤어요.", "All agreed rounds are played."),
}


def err(code: str, **params: Any) -> IllegalActionError:
    """The RuleError for `code`, with its Korean and English message from the catalog."""
    ko, en = CATALOG[code]
    return IllegalActionError(code, ko, en, **params)


def bad_config(key: str, **params: Any) -> ConfigError:
    """A set-up refused, with the detail `key` of DETAILS in each language."""
    ko, en = CATALOG["bad_config"]
    dko, den = DETAILS[key]
    return ConfigError(ko, en, what_ko=fmt(dko, **params), what_en=fmt(den, **params))


MODULE_NAMES: dict[str, tuple[str, str]] = {
    "power_up": ("파워 업", "Power-up"),
    "harley": ("할리 퀸 도우미", "Harley Quinn helper"),
    "prank": ("조커의 장난", "Joker's prank"),
    "multiverse": ("멀티버스 매드니스", "Multiverse madness"),
}


# The `what` of bad_config / bad_counts / bad_cards, each language on its own (a guest sees one language).
DETAILS: dict[str, tuple[str, str]] = {
    "players": ("인원은 3~8명이에요.", "3 to 8 players."),
    "names": ("이름이 비었거나 겹쳐요.", "every player needs a different name."),
    "modules": ("없는 모듈이 있어요.", "unknown module."),
    "harley_players": ("할리 퀸 도우미는 5명 이상일 때만 써요.", "the Harley Quinn helper needs 5 or more players."),
    "modes": ("카드와 투표 방식을 다시 골라 주세요.", "choose the card and vote modes again."),
    "content": ("장소 덱과 능력 카드를 불러오지 못했어요.", "the location decks and ability cards did not load."),
    "rounds": ("라운드 수는 1~{n:이에요/예요}.", "rounds must be 1 to {n}."),
    "ability_cards": ("능력 카드가 인원보다 적어요.", "fewer ability cards than players."),
    "voter_twice": ("같은 사람을 두 번 셌어요.", "a voter was counted twice."),
    "counts": ("자리마다 0 이상의 수를 {n}개 넣어 주세요.", "enter {n} counts, none negative."),
    "all_point": ("조커를 포함해 모두 {n}명이 한 명씩 가리켜요.", "all {n} players, the Joker too, point once each."),
    "hunt_point": ("조커 {joker:을/를} 뺀 {n}명이 한 명씩 가리켜요.",
                   "the {n} players other than the Joker, {joker}, point once each."),
    "missing": ("지금 {total}표라서 {k}표가 모자라요.", "{total} entered, {k} missing."),
    "extra": ("지금 {total}표라서 {k}표가 많아요.", "{total} entered, {k} too many."),
    "deck_off": ("이번 세션에 없는 덱이에요.", "that deck is not in play."),
    "joker_owner": ("조커 카드를 낸 사람을 골라 주세요.", "choose who showed the Joker card."),
    "harley_icon": ("할리 퀸 아이콘 카드가 맞지 않아요.", "the Harley icon card does not fit."),
    "no_single": ("이 덱에는 조커나 할리 퀸이 한 명만 있지 않아요.", "this deck has no single Joker or Harley."),
    "revealer": ("조커 카드를 공개한 사람과 맞지 않아요.", "it contradicts the player who revealed a Joker card."),
    "guessed": ("조커가 맞힌 장소와 맞지 않아요.", "it contradicts the location guessed right."),
}


def detail(code: str, key: str, **params: Any) -> IllegalActionError:
    """bad_counts / bad_cards with the detail `key` of DETAILS, in Korean and in English."""
    ko, en = DETAILS[key]
    return err(code, what_ko=fmt(ko, **params), what_en=fmt(en, **params))


def short_fingers(voters: int, total: int, joker: str | None) -> IllegalActionError:
    """bad_counts: a pointing tally whose fingers are not one per voter (`joker`: the Joker's name in the
    Harley hunt, where the Joker does not point)."""
    who = DETAILS["all_point" if joker is None else "hunt_point"]
    tail = DETAILS["missing" if total < voters else "extra"]
    ko, en = (f"{fmt(w, n=voters, joker=joker)} {fmt(t, total=total, k=abs(voters - total))}"
              for w, t in zip(who, tail, strict=True))
    return err("bad_counts", what_ko=ko, what_en=en)


def self_fingers(name: str, most: int) -> IllegalActionError:
    """self_point, in a tally: more fingers on `name` than the other voters have."""
    return IllegalActionError("self_point", "{name}에게는 {most}표까지예요. 자기 자신은 가리키지 않아요.",
                              "At most {most} for {name}: no one points at themselves.", name=name, most=most)


def module_off(module: str) -> IllegalActionError:
    ko, en = MODULE_NAMES[module]
    return err("module_off", module_ko=ko, module_en=en)
