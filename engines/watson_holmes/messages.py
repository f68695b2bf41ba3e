"""Guest-facing texts of the Watson & Holmes engine (Korean first, English second), in one catalog."""

from __future__ import annotations

from typing import Any

from engines.core import IllegalActionError

ERRORS: dict[str, tuple[str, str]] = {
    "wrong_phase": ("지금은 그 행동을 할 수 없어요.", "That cannot be done now."),
    "already_placed": ("이번 라운드에 이미 말을 놓았어요.", "Your piece is already on a card this round."),
    "no_such_location": ("이 사건에 '{location}' 장소는 없어요.", "This case has no location '{location}'."),
    "not_enough_carriages": ("마차가 부족해요: {need}개가 필요한데 {have}개뿐이에요.",
                             "Not enough carriages: {need} needed, you have {have}."),
    "must_outbid": ("{location}번에는 {occupant:님이/가} 마차 {bid}개로 있어요. {need}개 이상을 놓아야 해요.",
                    "{occupant} holds card {location} with {bid} carriages; place at least {need}."),
    "no_bidding": ("{place_ko}에는 마차를 놓지 않아요(경매가 없어요).",
                   "No carriages are placed on {place_en} (it is never bid for)."),
    "no_police_place": ("{place_ko}에는 경찰 토큰이 없어요.", "There is no police token at {place_en}."),
    "policed": ("{location}번은 경찰이 지키고 있어요. 철수 토큰이나 만능 열쇠가 필요해요.",
                "Card {location} is watched by the police: you need a withdraw token or a lockpick."),
    "locked": ("{location}번은 잠겨 있어요. 만능 열쇠가 필요해요.",
               "Card {location} is locked: you need a lockpick."),
    "no_withdraw": ("철수 토큰이 없어요.", "You have no withdraw token."),
    "no_police_there": ("{location}번에는 경찰 토큰이 없어요.", "Card {location} has no police token."),
    "watson_taken": ("왓슨 카드는 이번 라운드에 이미 누군가 가져갔어요.",
                     "The Watson card was already taken this round."),
    "watson_expert": ("전문가 버전에서는 왓슨 카드를 쓰지 않아요.", "The expert variant plays without Watson."),
    "must_solve": ("추가 라운드가 끝났어요. 221B 베이커가로 가서 사건을 풀어야 해요.",
                   "Your extra rounds are over: go to 221B Baker Street and solve the case."),
    "watson_target": ("그 플레이어의 카드는 왓슨으로 고를 수 없어요.",
                      "Watson cannot choose that player's card."),
    "not_reading": ("지금 읽을 카드가 없어요.", "You have no card to read now."),
    "police_here": ("경찰 토큰을 이 카드에 놓을 수 없어요.", "You cannot put a police token on this card."),
    "no_police_token": ("경찰 토큰이 없어요.", "You have no police token."),
    "gains_digital": ("디지털 사건에서는 카드의 토큰 보상을 태블릿이 처리해요.",
                      "In a digital case the tablet grants the card's tokens."),
    "answer_count": ("질문 {n}개 모두에 답해야 해요.", "Answer all {n} questions."),
    "answer_empty": ("{q}번 질문의 답이 비어 있어요.", "The answer to question {q} is empty."),
    "submitted": ("답을 이미 제출했어요.", "Your answers are already locked in."),
    "not_judged": ("{player}번 자리는 지금 판정할 차례가 아니에요.", "Seat {player} is not being judged now."),
    "bad_right": ("맞힌 개수는 0에서 {n} 사이여야 해요.", "The number right must be from 0 to {n}."),
    "holmes_down": ("홈즈 카드가 아직 뒤집히지 않았어요.", "The Holmes card is not face up yet."),
    "not_failed": ("그 플레이어는 해결에 실패한 플레이어가 아니에요.", "That player has not failed a solution."),
    "consulted": ("그 플레이어의 답은 이미 봤어요.", "You have already read that player's answers."),
    "checked": ("답변 확인은 게임 동안 한 번만 할 수 있어요.", "You may check an answer only once per game."),
    "bad_question": ("{q}번 질문은 없어요.", "There is no question {q}."),
    "not_active": ("탈락했거나 이미 사건을 푼 플레이어는 할 수 없어요.",
                   "Eliminated players and solvers cannot do that."),
    "no_check": ("확인할 답이 없어요.", "No answer is waiting to be checked."),
    "no_character": ("사용할 캐릭터 카드가 없어요.", "You have no character card to use."),
    "character_used": ("캐릭터 카드는 이미 썼어요.", "Your character card is already used."),
    "play_on_only": ("게임을 계속하는 중에만 테이블이 끝낼 수 있어요.",
                     "The table can end the game only while playing on after a win."),
    "no_failed": ("아직 해결에 실패한 플레이어가 없어요.", "Nobody has failed a solution yet."),
}

PLACES: dict[str, tuple[str, str]] = {
    "cab": ("마차 정류장", "the carriage stop"),
    "221b": ("221B 베이커가", "221B Baker Street"),
}


def err(code: str, **params: Any) -> IllegalActionError:
    ko, en = ERRORS[code]
    return IllegalActionError(code, ko, en, **params)
