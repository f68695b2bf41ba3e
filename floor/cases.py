"""A café's own Watson & Holmes box, entered through a form instead of YAML: the form's fields become the
same case file as content/games/watson_holmes/CASE_FORMAT.md describes (a physical box: names, numbers and
symbols only, no card texts), checked by the content loader itself before anything is published.

A content item is a set of files with their destination under a tablet's data folder: the case file goes to
`content/games/watson_holmes/cases/<id>.yaml`, a recorded intro to `recordings/ko/wh.<id>.intro.wav` (the
narrator's café recordings, which win over TTS). The manifest lists every item with each file's SHA-256;
its own hash names the whole set."""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import tempfile
import wave
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

CASES_DIR = "content/games/watson_holmes/cases"
MAX_AUDIO = 30 * 1024 * 1024
MAX_ITEM_BYTES = 31 * 1024 * 1024  # one item's files together (sent in parts: floor.topics.CHUNK)
MAX_TOTAL_BYTES = 256 * 1024 * 1024  # every item of a manifest together
MAX_ITEMS = 100
MAX_FILES = 4  # per item
MAX_MANIFEST_JSON = 256 * 1024
# the only files an item may write (matched whole: a name with a newline or a '/..' is no path)
SAFE_PATH = re.compile(r"content/games/[a-z0-9_]+/cases/[a-z0-9_]+\.yaml|recordings/(ko|en)/wh\.[a-z0-9_]+\.intro\.wav")
SHA = re.compile(r"[0-9a-f]{64}")


def safe_path(path: object) -> bool:
    return isinstance(path, str) and SAFE_PATH.fullmatch(path) is not None


class FormError(ValueError):
    """A form field that cannot make a case; `ko` and `en` say which and why."""

    def __init__(self, ko: str, en: str) -> None:
        super().__init__(ko)
        self.ko, self.en = ko, en


@dataclass(frozen=True)
class BoxLocation:
    number: int
    ko: str
    en: str = ""
    no_police: bool = False
    no_watson: bool = False
    locked: bool = False


@dataclass(frozen=True)
class BoxCase:
    number: int
    title_ko: str
    difficulty: int
    locations: tuple[BoxLocation, ...]
    questions: int
    title_en: str = ""
    layout: tuple[tuple[int, ...], ...] = ()
    persons: frozenset[int] = field(default_factory=frozenset)

    @property
    def id(self) -> str:
        return f"cafe_box_{self.number}"


def _int(value: Any, ko: str, en: str, lo: int, hi: int) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise FormError(ko, en) from None
    if not lo <= n <= hi:
        raise FormError(ko, en)
    return n


def parse_layout(text: str) -> tuple[tuple[int, ...], ...]:
    """'1 2 3 / 4 5 6' (rows split by '/' or new lines) → ((1, 2, 3), (4, 5, 6))."""
    rows = [r for r in re.split(r"[/\n]", text or "") if r.strip()]
    try:
        return tuple(tuple(int(x) for x in re.split(r"[\s,]+", r.strip())) for r in rows)
    except ValueError:
        raise FormError("배치는 장소 번호를 줄마다 적어 주세요 (예: 1 2 3 / 4 5 6).",
                        "Write the layout as rows of location numbers (e.g. 1 2 3 / 4 5 6).") from None


def parse_form(data: Mapping[str, Any]) -> BoxCase:
    """The floor page's (or the tablet's) form fields → a BoxCase; a bad field raises FormError."""
    number = _int(data.get("number"), "사건 번호는 1~999 사이 숫자예요.", "The case number is 1 to 999.", 1, 999)
    title = str(data.get("title_ko", "")).strip()
    if not title:
        raise FormError("사건 제목(한국어)을 적어 주세요.", "Enter the case title in Korean.")
    difficulty = _int(data.get("difficulty"), "난이도는 1~5예요.", "Difficulty is 1 to 5.", 1, 5)
    questions = _int(data.get("questions"), "질문 수는 1~20이에요.", "The number of questions is 1 to 20.", 1, 20)
    locations = []
    for row in data.get("locations") or []:
        if not isinstance(row, Mapping) or not str(row.get("ko", "")).strip():
            continue
        n = _int(row.get("number"), "장소 번호는 1~99 사이 숫자예요.", "Location numbers are 1 to 99.", 1, 99)
        locations.append(BoxLocation(n, str(row["ko"]).strip(), str(row.get("en", "")).strip(),
                                     bool(row.get("no_police")), bool(row.get("no_watson")), bool(row.get("locked"))))
    if not locations:
        raise FormError("장소를 하나 이상 적어 주세요.", "Enter at least one location.")
    persons = frozenset(int(x) for x in re.findall(r"\d+", str(data.get("persons", ""))))
    return BoxCase(number, title, difficulty, tuple(locations), questions, str(data.get("title_en", "")).strip(),
                   parse_layout(str(data.get("layout", ""))), persons)


def _text(ko: str, en: str = "") -> dict[str, str]:
    return {"ko": ko, "en": en} if en else {"ko": ko}


def case_yaml(case: BoxCase, recorded: bool) -> str:
    """The case file, in the documented format (a physical box)."""
    doc: dict[str, Any] = {
        "id": case.id, "number": case.number, "difficulty": case.difficulty,
        "title": _text(case.title_ko, case.title_en),
        "intro": {"ko": "상자의 사건 책자에 있는 소개글을 읽어 주세요." + (" 태블릿이 녹음을 들려줘요." if recorded else ""),
                  "en": "Read the introduction in the box's case booklet."},
        "questions": [{"number": i, "text": {"ko": f"사건 책자의 {i}번 질문", "en": f"Question {i} in the case booklet"},
                       **({"person": True} if i in case.persons else {})} for i in range(1, case.questions + 1)],
        "locations": [{"number": loc.number, "name": _text(loc.ko, loc.en),
                       **{k: True for k in ("no_police", "no_watson", "locked") if getattr(loc, k)}}
                      for loc in case.locations],
    }
    if case.layout:
        doc["layout"] = [list(r) for r in case.layout]
    head = ("# A café's own box, entered on the floor page's form (floor/cases.py); see "
            "../CASE_FORMAT.md.\n")
    return head + str(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=None, width=110))


def check_wav(data: bytes) -> None:
    if len(data) > MAX_AUDIO:
        raise FormError("녹음 파일이 너무 커요 (30MB까지).", "The recording is too large (30 MB at most).")
    try:
        with wave.open(io.BytesIO(data)) as w:
            if w.getnframes() == 0:
                raise wave.Error("no frames")
    except (wave.Error, EOFError):
        raise FormError("녹음은 WAV 파일이어야 해요.", "The recording must be a WAV file.") from None


def item_files(case: BoxCase, intro_wav: bytes | None) -> dict[str, bytes]:
    files = {f"{CASES_DIR}/{case.id}.yaml": case_yaml(case, intro_wav is not None).encode("utf-8")}
    if intro_wav is not None:
        check_wav(intro_wav)
        files[f"recordings/ko/wh.{case.id}.intro.wav"] = intro_wav
    return files


def validate(files: Mapping[str, bytes], base: Path | None = None) -> list[str]:
    """The content loader's verdict on these files laid over `base` (a data folder's content, or nothing):
    the loader's messages for them, [] when the cases load."""
    from content.loader import load_library

    bad = [p for p in files if not safe_path(p)]
    if bad:
        return [f"{p}: not a path a café item may write" for p in bad]
    with tempfile.TemporaryDirectory(prefix="tablehost-case-") as tmp:
        root = Path(tmp)
        if base is not None and (base / "content").is_dir():
            shutil.copytree(base / "content", root / "content")
        for path, data in files.items():
            if path.endswith(".wav"):
                try:
                    check_wav(data)
                except FormError as exc:
                    return [f"{path}: {exc.ko}"]
                continue
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        library = load_library(overlay=root / "content")
        names = {Path(p).name for p in files}
        problems = [str(e).replace(tmp + "/", "") for e in library.errors if Path(e.file).name in names]
        if problems:
            return problems
        game = library.games.get("watson_holmes")
        for path in files:
            if path.endswith(".yaml") and (game is None or f"cases/{Path(path).stem}" not in game.pack):
                return [f"{path}: the case did not load"]
    return []


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def item_problem(item: Any) -> str:
    """Why a manifest's item cannot be taken ("" when it can): its id, its files' names, hashes and sizes."""
    if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not isinstance(item.get("files"), list):
        return "item: not an item"
    files = item["files"]
    if not re.fullmatch(r"[a-z0-9_]{1,40}", item["id"]) or not 0 < len(files) <= MAX_FILES:
        return f"{str(item['id'])[:40]!r}: bad id or number of files"
    total = 0
    for f in files:
        if not isinstance(f, dict) or not safe_path(f.get("path")):
            return f"{item['id']}: a file name no item may write"
        size = f.get("size")
        if not SHA.fullmatch(str(f.get("sha256"))) or not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return f"{item['id']}: {f['path']}: bad hash or size"
        total += size
    if total > MAX_ITEM_BYTES:
        return f"{item['id']}: {total} bytes, more than an item may hold ({MAX_ITEM_BYTES})"
    return ""


def manifest_problem(data: Any, encoded_size: int) -> str:
    """Why a whole manifest is refused ("" when its items may each be looked at)."""
    if not isinstance(data, dict) or not isinstance(data.get("items"), list) or not isinstance(data.get("hash"), str):
        return "manifest: not a manifest"
    if encoded_size > MAX_MANIFEST_JSON or len(data["items"]) > MAX_ITEMS:
        return f"manifest: too large ({len(data['items'])} items, {encoded_size} bytes)"
    sizes = [f.get("size") for i in data["items"] if isinstance(i, dict) and isinstance(i.get("files"), list)
             for f in i["files"] if isinstance(f, dict)]
    if sum(s for s in sizes if isinstance(s, int)) > MAX_TOTAL_BYTES:
        return f"manifest: its files together exceed {MAX_TOTAL_BYTES} bytes"
    return ""


def manifest(items: list[dict[str, Any]]) -> dict[str, Any]:
    """{"items": [{id, title, files: [{path, sha256, size}]}], "hash": …}"""
    body = json.dumps(items, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return {"v": 1, "items": items, "hash": sha256(body)[:16]}
