"""Content model of Watson & Holmes: cases (ours or a café's own boxes) and the components file.

A case is *digital* when every location card carries its clue text and every question its accepted
answers: the tablet shows the cards and checks the answers. Otherwise it is *physical*: players read
the café's real cards and the table confirms the verdicts (see content/games/watson_holmes/CASE_FORMAT.md).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Literal

CAB = "cab"
BAKER = "221b"


@dataclass(frozen=True)
class Text:
    """A guest-facing text, Korean first."""

    ko: str
    en: str = ""


@dataclass(frozen=True)
class Rewards:
    """Token symbols printed on a location card's back: granted to its reader (WH-12, WH-14, WH-15, WH-17)."""

    carriages: int = 0
    police: bool = False
    withdraw: bool = False
    lockpick: bool = False

    def any(self) -> bool:
        return bool(self.carriages or self.police or self.withdraw or self.lockpick)


@dataclass(frozen=True)
class Location:
    """One location card (WH-05). `clue` is None for a physical box (players read the real card)."""

    number: int
    name: Text
    clue: Text | None = None
    no_police: bool = False
    no_watson: bool = False
    locked: bool = False
    rewards: Rewards = Rewards()
    zone: int = 1


@dataclass(frozen=True)
class Question:
    """A case question. `person`: the answer is a person and needs the full name (WH-78).

    `accepted`: answers that count as right after normalising (case, spacing, punctuation).
    `keywords`: for non-person questions, groups of alternatives; an answer is right when it contains
    one alternative of every group. Both empty → a physical box: the table judges.
    """

    number: int
    text: Text
    person: bool = False
    accepted: tuple[str, ...] = ()
    keywords: tuple[tuple[str, ...], ...] = ()
    answer: Text | None = None


@dataclass(frozen=True)
class CaseRules:
    """Case parameters that override the defaults (WH-04)."""

    starting_carriages: int = 10
    starting_police: bool = True
    characters: bool = True
    police_at_start: tuple[int, ...] = ()


@dataclass(frozen=True)
class Case:
    id: str
    number: int
    title: Text
    difficulty: int
    intro: Text
    questions: tuple[Question, ...]
    locations: tuple[Location, ...]
    special_rules: Text | None = None
    rules: CaseRules = CaseRules()
    solution: Text | None = None
    reasoning: Text | None = None
    intro_audio: str = ""
    questions_audio: str = ""
    solution_audio: str = ""
    layout: tuple[tuple[int, ...], ...] = ()
    example: bool = False  # a sample for staff (how a café enters its own box): offered only in staff mode

    def __post_init__(self) -> None:
        numbers = [loc.number for loc in self.locations]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"case {self.id}: location numbers repeat")
        if not self.questions:
            raise ValueError(f"case {self.id}: a case needs at least one question")
        if [q.number for q in self.questions] != list(range(1, len(self.questions) + 1)):
            raise ValueError(f"case {self.id}: questions must be numbered 1, 2, 3 …")

    @property
    def digital(self) -> bool:
        return all(loc.clue is not None for loc in self.locations) and all(
            q.accepted or q.keywords for q in self.questions)

    def location(self, number: int) -> Location:
        for loc in self.locations:
            if loc.number == number:
                return loc
        raise KeyError(number)


@dataclass(frozen=True)
class CharacterCard:
    """A character card (WH-95): our own one-line summary; the table applies the ability."""

    id: str
    name: Text
    summary: Text
    cost: int = 0
    mentions_watson: bool = False


@dataclass(frozen=True)
class TokenCounts:
    """How many tokens of each kind the box holds (WH-10, WH-32)."""

    carriages: int = 100
    police: int = 10
    withdraw: int = 8
    lockpick: int = 6


@dataclass(frozen=True)
class Components:
    tokens: TokenCounts
    characters: tuple[CharacterCard, ...] = ()


_DROP = re.compile(r"[\s\.,·'\"‘’“”\-_()\[\]!?~:;/]+")


def normalise(answer: str) -> str:
    """Compare answers without case, spacing or punctuation: '존  스미스' == '존스미스'."""
    return _DROP.sub("", unicodedata.normalize("NFKC", answer).casefold())


def answer_is_right(question: Question, answer: str) -> bool:
    """Digital check of one free-text answer (WH-76, WH-78)."""
    given = normalise(answer)
    if not given:
        return False
    if any(given == normalise(a) for a in question.accepted):
        return True
    if question.person or not question.keywords:
        return False
    return all(any(normalise(k) in given for k in group) for group in question.keywords)


def count_right(case: Case, answers: tuple[str, ...]) -> int:
    return sum(1 for q, a in zip(case.questions, answers, strict=False) if answer_is_right(q, a))


KIND = Literal["digital", "physical"]
