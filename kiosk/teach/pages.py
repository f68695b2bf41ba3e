"""The teaching run as a flat list of pages (a quiz step expands to one page per question) and the
narration of each page as audio segments (captions come from the same text)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from kiosk.teach.model import Question, Shape, Step, Teaching


@dataclass(frozen=True)
class Page:
    id: str
    step: Step
    question: int | None = None  # index into Teaching.quiz for quiz pages


def pages(t: Teaching, players: int | None = None, modules: Iterable[str] = ()) -> list[Page]:
    """The pages for this table: steps whose `when` does not match (player count, modules) are left out;
    `players=None` gives every page."""
    out: list[Page] = []
    mods = list(modules)
    if players is not None:  # a module not played at this player count is off (as in the checklist)
        mods = [m.id for m in t.modules if m.id in mods and m.players[0] <= players <= m.players[1]]
    for step in t.steps:
        if not step.when.matches(players, mods):
            continue
        if step.kind == "quiz":
            out.extend(Page(f"{step.id}.{i + 1}", step, i) for i in range(len(t.quiz)))
        else:
            out.append(Page(step.id, step))
    return out


def question(t: Teaching, page: Page) -> Question | None:
    return t.quiz[page.question] if page.question is not None else None


def picture(t: Teaching, page: Page) -> tuple[Shape, ...]:
    """The page's picture; a quiz question shows the picture of the step that taught its rule (the first
    explaining step listing that rule and drawing something; bare and grey when its labels spell the
    answer), or none: never a placeholder."""
    q = question(t, page)
    if q is None:
        return page.step.picture
    for step in t.steps:
        if step.kind in ("info", "setup") and q.rule in step.rules and step.picture:
            return neutral(step.picture) if spells_answer(step.picture, q) else step.picture
    return ()


def neutral(shapes: Iterable[Shape]) -> tuple[Shape, ...]:
    """The same shapes without their labels and all in one colour: the layout stays, the answer goes."""
    return tuple(replace(s, label=None, color="grey") for s in shapes)


def spells_answer(shapes: Iterable[Shape], q: Question) -> bool:
    """The picture's labels, read left to right, say the right option (in either language): a give-away."""
    ordered = sorted((s for s in shapes if s.label is not None), key=lambda s: (-round(s.y, 2), s.x))

    def words(text: str) -> list[str]:
        return "".join(c if c.isalnum() else " " for c in text.lower()).split()

    right = q.options[q.answer]
    for lang in ("ko", "en"):
        said = [w for s in ordered if s.label is not None for w in words(s.label.get(lang))]
        if said and said == words(right.get(lang)):
            return True
    return False


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
