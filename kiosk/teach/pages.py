"""The teaching run as a flat list of pages (a quiz step expands to one page per question) and the
narration of each page as audio segments (captions come from the same text)."""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.teach.model import Question, Step, Teaching


@dataclass(frozen=True)
class Page:
    id: str
    step: Step
    question: int | None = None  # index into Teaching.quiz for quiz pages


def pages(t: Teaching) -> list[Page]:
    out: list[Page] = []
    for step in t.steps:
        if step.kind == "quiz":
            out.extend(Page(f"{step.id}.{i + 1}", step, i) for i in range(len(t.quiz)))
        else:
            out.append(Page(step.id, step))
    return out


def question(t: Teaching, page: Page) -> Question | None:
    return t.quiz[page.question] if page.question is not None else None


def narration_text(t: Teaching, page: Page, lang: str) -> str:
    q = question(t, page)
    if q is None:
        return page.step.say.get(lang)
    options = " ".join(f"{i + 1}. {o.get(lang)}" for i, o in enumerate(q.options))
    return f"{q.q.get(lang)} {options}"


def segments(game_id: str, t: Teaching, page: Page, lang: str) -> list[object]:
    """The page's narration as audio.segments.Segment (id teach.<game>.<page>)."""
    from audio.segments import Segment

    text = narration_text(t, page, lang)
    return [Segment(f"teach.{game_id}.{page.id}", lang, text)] if text.strip() else []
