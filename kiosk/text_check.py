"""What no guest should read on a screen (used by the UI tests' sweep in kiosk.testing): "(이)가"-style particle
fallbacks, Korean and English mixed in one message, internal units or ids, and words a game's glossary
(content/i18n/glossary) avoids. No Kivy here."""

from __future__ import annotations

import re

from content.glossary import FALLBACK, violations

HANGUL = re.compile(r"[가-힣]")
LATIN = re.compile(r"[A-Za-z]")
# two Latin words in a row, one of them lower-case: an English phrase ("no microphone", "3-8 players" alone is
# caught by the " / " rule); names ("Cloud Rider", "Alex Kim", "Mr. Boddy") are capitalised and pass
ENGLISH_PHRASE = re.compile(r"[A-Za-z]{2,}[.,]?\s+[A-Za-z]{2,}")
ENGLISH_WORD = re.compile(r"(?<![A-Za-z])[a-z]{3,}(?![A-Za-z])")  # "players", "missing": not a name
KOREAN_SENTENCE = re.compile(r"[가-힣]+(요|다|까|니다|세요)(?![가-힣])|[가-힣]+\s[가-힣]+\s[가-힣]+")
CODE = re.compile(r"`[^`]*`|tablehost( [a-z-]+)*|\[/?[a-z]+(=[^\]]*)?\]")  # commands, Kivy markup tags
PATHS = re.compile(r"\S*\w[/\\]\S*|\S*[/\\]\w\S*")  # paths and addresses may hold anything
SNAKE_ID = re.compile(r"(?<![A-Za-z0-9])[a-z]+_[a-z0-9_]+")
UNITS = re.compile(r"\d\s*(비트|bits?)(?![A-Za-z])")


def _english_phrase(text: str) -> bool:
    return any(not m.group(0)[0].isupper() or any(w.islower() for w in m.group(0).split())
               for m in ENGLISH_PHRASE.finditer(text))


def _bilingual_name(text: str) -> bool:
    """A name given in both languages on purpose: "정의의 전당 · Hall of Justice" (a location list)."""
    parts = text.split(" · ")
    return len(parts) == 2 and any(
        HANGUL.search(a) and not LATIN.search(a) and b[:1].isupper() and not HANGUL.search(b)
        for a, b in (parts, parts[::-1]))


def mixed_languages(text: str, lang: str = "ko") -> bool:
    """Korean and English in one message: "3~8명 / 3-8 players", "마이크 없음 (no microphone)"; on an English
    screen, a Korean sentence inside English ("Bad setup: 이름이 겹쳐요") — Korean names of players are fine."""
    text = CODE.sub(" ", text)
    if not HANGUL.search(text) or _bilingual_name(text):
        return False
    if lang == "en":  # a Korean sentence inside an English one (a Korean caption of Korean speech stands alone)
        return bool(KOREAN_SENTENCE.search(text)) and bool(ENGLISH_WORD.search(text))
    text = SNAKE_ID.sub(" ", PATHS.sub(" ", text))  # ids are reported on their own
    if _english_phrase(text):
        return True
    parts = [p for p in re.split(r"\s/\s|\(|\)", text) if p.strip()]
    return (any(HANGUL.search(p) and not LATIN.search(p) for p in parts)
            and any(not HANGUL.search(p) and ENGLISH_WORD.search(p) for p in parts))


def problems(text: str, game: str = "", lang: str = "ko", guests: bool = True) -> list[str]:
    """Why `text` must not be shown (empty: fine). `game`: the game whose glossary applies, if any; `lang`: the
    screen's language. `guests=False` (the PIN-locked staff screen) checks only particles and the glossary: staff
    read technical reasons (a broker's or the content checker's English text, recording segment ids)."""
    out = []
    if FALLBACK.search(text):
        out.append("particle fallback")
    if guests and mixed_languages(text, lang):
        out.append("Korean and English mixed")
    bare = PATHS.sub(" ", text)
    if guests and (UNITS.search(bare) or SNAKE_ID.search(bare)):
        out.append("internal unit or id")
    if game:
        out.extend(f"glossary: {v}" for v in violations(text, game))
    return out
