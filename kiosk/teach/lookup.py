"""Rule look-up: every rule piece searchable by typing or by voice, Korean-aware.

Query words and the pieces' titles, keywords and texts are compared as jamo strings (kiosk.teach.jamo):
an exact word scores highest, then a word being typed (a prefix, partial syllables included), then a
word inside a longer one, then a word with a typo (one or two jamo off). Titles and keywords weigh more
than the body text. Particles (은/는/이/가/을/를 …) and voice filler ("규칙", "알려줘") are ignored.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kiosk.hangul import initials, is_initials_query
from kiosk.teach.jamo import best_substring_distance, decompose, is_hangul
from kiosk.teach.model import RulePiece

FILLER = {"규칙", "룰", "rule", "rules", "알려줘", "알려", "줘", "주세요", "뭐야", "뭐예요", "어떻게", "돼",
          "되나요", "해", "해요", "하나요", "뭔가요", "설명", "설명해줘", "what", "how", "is", "the", "a", "an",
          "does", "do", "work", "of", "in", "to", "about", "?"}
PARTICLES = ("에서는", "으로는", "에게서", "에서", "으로", "에게", "한테", "까지", "부터", "이랑", "하고", "은", "는",
             "이", "가", "을", "를", "에", "의", "로", "도", "만", "랑", "와", "과")
TEXT_W = 1.0


@dataclass(frozen=True)
class Hit:
    game_id: str
    piece: RulePiece
    score: float


@dataclass
class _Entry:
    game_id: str
    piece: RulePiece
    strong: list[tuple[str, float]]  # jamo terms from titles and keywords, with their weight
    weak: list[str]  # jamo words of the texts
    body: str  # the whole text, jamo, no spaces (for substring matches)
    initials: list[str]  # each Korean title and keyword by its initial consonants (경찰 토큰 → ㄱㅊㅌㅋ)


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\s,.;:!?()\[\]\"'·/~…-]+", text.lower()) if w]


def query_words(query: str) -> list[str]:
    """The words that carry meaning: filler dropped, particles stripped (both forms kept if unsure)."""
    out: list[str] = []
    for w in _words(query):
        if w in FILLER:
            continue
        out.append(w)
    return out


def _variants(word: str) -> list[str]:
    forms = [word]
    for p in PARTICLES:
        if word.endswith(p) and len(word) - len(p) >= 1 and len(word) >= 2:
            forms.append(word[: -len(p)])
            break
    return [decompose(f) for f in forms]


def _match(q: str, term: str) -> float:
    if q == term:
        return 1.0
    if term.startswith(q):
        return 0.9 if len(q) >= 2 else 0.5
    if len(q) >= 3 and q in term:
        return 0.75
    if len(q) >= 3:
        limit = 1 if len(q) <= 7 else 2
        d = best_substring_distance(q, term, limit)
        if d <= limit:
            return 0.65 - 0.1 * d
    return 0.0


def _score_initials(word: str, e: _Entry) -> float:
    """A word of bare consonants (ㄱㅊ, typed fast on a tablet) against titles and keywords by their initials."""
    if not is_initials_query(word):
        return 0.0
    return max((3.0 if head.startswith(word) else 2.5 if word in head else 0.0 for head in e.initials), default=0.0)


class RuleIndex:
    def __init__(self, pieces: Iterable[tuple[str, RulePiece]]) -> None:
        self.entries: list[_Entry] = []
        for game_id, piece in pieces:
            terms: dict[str, float] = {}
            for text, whole_w, word_w in [(piece.title.ko, 3.5, 3.0), (piece.title.en, 3.5, 3.0),
                                          *((k, 3.2, 2.8) for k in piece.keywords)]:
                for term, w in [(decompose(text.replace(" ", "")), whole_w),
                                *((decompose(x), word_w) for x in _words(text))]:
                    terms[term] = max(terms.get(term, 0.0), w)
            weak = sorted({decompose(w) for t in (piece.text.ko, piece.text.en) for w in _words(t)})
            body = decompose((piece.text.ko + " " + piece.text.en).replace(" ", ""))
            heads = [initials(t) for t in (piece.title.ko, *piece.keywords) if is_hangul(t)]
            self.entries.append(_Entry(game_id, piece, sorted(terms.items()), weak, body, heads))
        self.by_id = {(e.game_id, e.piece.id): e.piece for e in self.entries}

    def piece(self, game_id: str, rule_id: str) -> RulePiece | None:
        return self.by_id.get((game_id, rule_id))

    def _score_word(self, variants: list[str], e: _Entry) -> float:
        best = 0.0
        for q in variants:
            for term, weight in e.strong:
                best = max(best, _match(q, term) * weight)
            if best < TEXT_W:
                for term in e.weak:
                    best = max(best, (1.0 if q == term else 0.85 if term.startswith(q) and len(q) >= 3 else 0.0)
                               * TEXT_W)
                if best == 0 and len(q) >= 4 and q in e.body:
                    best = 0.6 * TEXT_W
        return best

    def search(self, query: str, game_id: str | None = None, limit: int = 5) -> list[Hit]:
        words = query_words(query)
        if not words:
            return []
        variants = [_variants(w) for w in words]
        joined = [decompose("".join(words))] if len(words) > 1 else []
        hits: list[Hit] = []
        for e in self.entries:
            if game_id is not None and e.game_id != game_id:
                continue
            per_word = [max(self._score_word(v, e), _score_initials(w, e)) for w, v in zip(words, variants, strict=True)]
            score = sum(per_word) + 0.5 * sum(1 for s in per_word if s > 0)
            if joined:
                whole = max((_match(joined[0], t) * w for t, w in e.strong), default=0.0) * len(words)
                score = max(score, whole + 0.5 * len(words))
            if score > 0:
                hits.append(Hit(e.game_id, e.piece, round(score, 3)))
        hits.sort(key=lambda h: (-h.score, len(h.piece.title.ko), h.piece.id))  # ties: the general piece
        return hits[:limit]


_INDEX: dict[str, RuleIndex] = {}
_BUILDING = threading.Lock()  # one build at a time: a search during the background build waits for it


def overlay_for(data_dir: Path | None) -> Path | None:
    """The café's content folder the kiosk's look-up reads with the shipped content (None: none)."""
    return data_dir / "content" if data_dir is not None and (data_dir / "content").is_dir() else None


def index(overlay: Path | None = None) -> RuleIndex:
    """All games' rule pieces (cached per overlay folder)."""
    key = str(overlay)
    found = _INDEX.get(key)
    if found is None:
        with _BUILDING:
            found = _INDEX.get(key)
            if found is None:
                found = _INDEX[key] = _build(overlay)
    return found


def _build(overlay: Path | None) -> RuleIndex:
    from kiosk.teach.loader import load_teaching, teaching_game_ids

    pieces: list[tuple[str, RulePiece]] = []
    for game_id in teaching_game_ids(overlay):
        gt, _ = load_teaching(game_id, overlay)
        if gt is not None:
            pieces.extend((game_id, p) for p in gt.rules.rules)
    return RuleIndex(pieces)


def build_in_background(overlay: Path | None = None) -> threading.Thread | None:
    """Build the index in a thread (the kiosk, soon after start): made on the UI thread by the first search,
    it took that keystroke's frame ~250-470 ms of UI-thread CPU here (every game's teaching read and checked).
    None when it is built already."""
    if str(overlay) in _INDEX:
        return None
    job = threading.Thread(target=index, args=(overlay,), name="rule-index", daemon=True)
    job.start()
    return job


def voice_phrases(game_id: str | None = None, overlay: Path | None = None) -> list[str]:
    """Phrases a restricted voice grammar can accept for rule questions: "규칙 <keyword>" for every Korean
    keyword and title (the voice side drops words missing from the model's vocabulary)."""
    out: set[str] = set()
    for e in index(overlay).entries:
        if game_id is not None and e.game_id != game_id:
            continue
        for text in (e.piece.title.ko, *e.piece.keywords):
            if is_hangul(text):
                out.add(f"규칙 {text}")
    return sorted(out)


@dataclass(frozen=True)
class Answer:
    game_id: str
    piece: RulePiece
    related: tuple[RulePiece, ...]

    def text(self, lang: str) -> str:
        return f"{self.piece.title.get(lang)}. {self.piece.text.get(lang)}"

    def segments(self, lang: str) -> list[object]:
        """The answer as narration segments (audio.segments.Segment), to be read aloud on request."""
        from audio.segments import Segment

        return [Segment(f"teach.{self.game_id}.rule.{self.piece.id}", lang, self.text(lang))]


def answer(query: str, game_id: str | None = None, overlay: Path | None = None) -> Answer | None:
    """For voice ("규칙 경찰 토큰"): the best piece with its related pieces, or None when nothing matches."""
    idx = index(overlay)
    hits = idx.search(query, game_id, limit=1)
    if not hits:
        return None
    top = hits[0]
    related = tuple(p for p in (idx.piece(top.game_id, r) for r in top.piece.related) if p is not None)
    return Answer(top.game_id, top.piece, related)
