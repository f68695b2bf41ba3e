"""Every guest-facing error of Mr. Jack in New York (Korean first, English second), in one catalog."""

from __future__ import annotations

from typing import Any

from engines.core import ConfigError, IllegalActionError

# code → (Korean, English); `{placeholders}` are filled from params.
CATALOG: dict[str, tuple[str, str]] = {
    "players": ("미스터 잭 인 뉴욕은 정확히 두 사람(탐정 1명, 잭 1명)이 해요.",
                "Mr. Jack in New York is for exactly two players: the detective and Jack."),
    "bad_blitz": ("차례 타이머는 0초(끄기)에서 600초 사이로 정해 주세요.",
                  "The turn timer must be between 0 (off) and 600 seconds."),
    "bad_shuffle": ("캐릭터 카드 8장을 빠짐없이 한 번씩 섞어야 해요.",
                    "The shuffle must hold each of the 8 character cards once."),
    "not_pick_time": ("지금은 캐릭터 카드를 고를 때가 아니에요.", "This is not the time to pick a character card."),
    "not_offered": ("‘{name_ko}’ 카드는 지금 고를 수 있는 카드가 아니에요.",
                    "{name_en} is not among the cards you can pick now."),
    "not_acting": ("먼저 캐릭터 카드를 한 장 골라야 해요.", "Pick a character card first."),
    "ability_twice": ("이번 차례에 특수능력을 이미 썼어요.", "The ability has already been used this turn."),
    "no_tile": ("남은 {tile_ko} 타일이 없어요. 이번에는 능력을 건너뛰고 차례를 마치세요.",
                "No {tile_en} tile is left; skip the ability and end the turn."),
    "no_tile_on_board": ("게임판에 정원으로 뒤집을 {tile_ko} 타일이 없어요.",
                         "There is no {tile_en} tile on the board to turn into a garden."),
    "bad_tile": ("정원으로 뒤집을 타일을 골라 주세요: 가로등, 지하철, 건축물 중 하나예요.",
                 "Choose the tile to flip into a garden: lamp, subway or building."),
    "extra_detail": ("이 캐릭터의 능력에는 대상을 고르지 않아요.", "This character's ability takes no target."),
    "swap_same": ("자리를 바꿀 서로 다른 두 대상을 골라 주세요.", "Choose two different pieces to swap."),
    "swap_target": ("위치 교환 캐릭터 옆에 있는 캐릭터(또는 스파이)를 골라 주세요.",
                    "Choose the character (or the spy) next to the swapper."),
    "eastman_target": ("멍크 이스트먼이 대신 움직일 다른 캐릭터를 골라 주세요.",
                       "Choose another character for Monk Eastman to move instead."),
    "spy_silent": ("스파이가 말하지 않는 상태라 방문할 수 없어요. 지나갈 수만 있어요.",
                   "The spy is silent: you may pass through but not visit."),
    "deck_empty": ("알리바이 카드가 더 남아 있지 않아요.", "No alibi card is left."),
    "detective_only": ("검거는 탐정이 자기 차례에만 선언할 수 있어요.",
                       "Only the detective may declare an arrest, on his own turn."),
    "arrest_self": ("방금 움직인 캐릭터 자신을 검거할 수는 없어요. 용의자의 칸으로 들어간 다른 인물을 고르세요.",
                    "The character you moved cannot arrest itself; choose the one whose space it entered."),
    "arrest_eastman": ("멍크 이스트먼이 움직인 캐릭터로는 검거할 수 없어요.",
                       "A character moved by Monk Eastman cannot make an arrest."),
    "jack_only": ("탈출은 잭만 선언할 수 있어요.", "Only Jack may claim an escape."),
    # Deliberately says nothing about why (identity, witness card, card played): JACK-46.
    "escape_refused": ("지금은 탈출할 수 없어요.", "Escape is not possible."),
    "not_witness_time": ("목격 확인은 라운드의 네 차례가 모두 끝난 뒤에 해요.",
                         "The witness call comes after all four turns of the round."),
    "witness_time": ("라운드가 끝났어요. 먼저 목격 확인을 해 주세요.",
                     "The round is over: make the witness call first."),
}

TILE_NAMES: dict[str, tuple[str, str]] = {
    "lamp": ("가로등", "lamp"), "subway": ("지하철", "subway"), "building": ("건축물", "building"),
}


def error(code: str, **params: Any) -> IllegalActionError:
    ko, en = CATALOG[code]
    return IllegalActionError(code, ko, en, **params)


def config_error(code: str) -> ConfigError:
    ko, en = CATALOG[code]
    return ConfigError(ko, en, code=code)


def tile_error(code: str, kind: str) -> IllegalActionError:
    ko, en = TILE_NAMES[kind]
    return error(code, tile_ko=ko, tile_en=en)
