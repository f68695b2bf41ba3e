"""Confirmation before final actions (vote, accuse, end a round, reveal, new game).

A final intent is held, shown on screen ("민호 지목할까요? 네 / 아니요") and dispatched only after "네" (by voice
or a tap) within `timeout` seconds; "아니요", a tap on cancel, or the timeout drops it. Time is an input
(`now`), so the flow is tested without sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from audio.intents import Intent

DEFAULT_TIMEOUT = 6.0


class Answer(Enum):
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    TIMED_OUT = "timed_out"
    CANCELLED = "cancelled"  # the screen changed before an answer


@dataclass(frozen=True)
class Pending:
    intent: Intent
    deadline: float



class ConfirmFlow:
    """At most one pending final intent at a time."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.timeout = timeout
        self.pending: Pending | None = None

    def request(self, intent: Intent, now: float) -> Pending:
        self.pending = Pending(intent, now + self.timeout)
        return self.pending

    def answer(self, yes: bool, now: float) -> tuple[Answer, Intent] | None:
        """Resolve the pending intent; None if nothing is pending (or it already expired)."""
        expired = self.expire(now)
        if expired is not None or self.pending is None:
            return expired
        intent = self.pending.intent
        self.pending = None
        return (Answer.CONFIRMED if yes else Answer.REJECTED), intent

    def expire(self, now: float) -> tuple[Answer, Intent] | None:
        if self.pending is not None and now >= self.pending.deadline:
            intent = self.pending.intent
            self.pending = None
            return Answer.TIMED_OUT, intent
        return None

    def cancel(self) -> Intent | None:
        intent = self.pending.intent if self.pending else None
        self.pending = None
        return intent
