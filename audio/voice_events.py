"""What the voice controller tells the kiosk (`VoiceEvent`), and its modes and phases."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from audio.confirm import Answer, Pending
from audio.intents import Intent


class Mode(Enum):
    PUSH_TO_TALK = "push_to_talk"
    WAKE_PHRASE = "wake_phrase"


class Phase(Enum):
    IDLE = "idle"  # push-to-talk: button up; wake mode: waiting for the wake phrase
    LISTENING = "listening"  # button held, or the wake window is open
    CONFIRMING = "confirming"  # a final intent waits for 네 / 아니요 / tap


@dataclass(frozen=True)
class VoiceEvent:
    """kind: "heard" (text, intent or None) · "intent" (dispatch it) · "confirm" (pending: show the prompt)
    · "confirm_done" (answer) · "phase" (detail = new phase) · "dropped" (detail = why)."""

    kind: str
    text: str = ""
    intent: Intent | None = None
    pending: Pending | None = None
    answer: Answer | None = None
    detail: str = ""

