"""The café's voice choices, made from its own voice check: intents turned off for voice, and intents kept to
some of the phrasings the shipped templates already offer. A content overlay file,
`<overlay>/voice/choices.yaml` (the kiosk's overlay is `<data>/content`), checked by
`tablehost content check --overlay DIR`:

    disabled: [stop, spyfall.pause_clock]   # not listened for by voice (touch still works)
    prefer:
      stop: [일시 정지, 중지]                 # only these phrasings; each is one of the intent's templates
                                            # or a phrase a slot-free template expands to
    wake: 안녕 테이블                         # the café's wake phrase: one of content/voice's `wake.candidates`

The wake phrase and 네/아니요 cannot be turned off (final actions need them), only narrowed; the kiosk listens
for one wake phrase (two in one grammar split the perturbed decodes' agreement), the staff voice check
measures every candidate with the café's own voices.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from audio.grammar import expand, normalise
from audio.intents import NO, WAKE, YES, VoiceCatalog, load_catalog

CHOICES_FILE = Path("voice") / "choices.yaml"
REQUIRED = (WAKE, YES, NO)


@dataclass
class VoiceChoices:
    off: list[str] = field(default_factory=list)
    prefer: dict[str, list[str]] = field(default_factory=dict)
    wake: str = ""  # "" = the shipped wake phrase

    def to_yaml(self) -> str:
        data: dict[str, Any] = {}
        if self.off:
            data["disabled"] = list(self.off)  # not "off": YAML reads that key as false
        if self.prefer:
            data["prefer"] = {k: list(v) for k, v in self.prefer.items()}
        if self.wake:
            data["wake"] = self.wake
        head = "# Voice choices made with the staff voice check (audio/voice_choices.py)\n"
        return head + str(yaml.safe_dump(data, allow_unicode=True, sort_keys=True))


def offered(catalog: VoiceCatalog, name: str) -> list[str]:
    """The phrasings an intent may be narrowed to: its templates, then what slot-free templates expand to."""
    spec = catalog.intents[name]
    out = list(spec.templates)
    for t in spec.templates:
        if "$" not in t:
            out += [" ".join(words) for words, _ in expand(t)]
    return list(dict.fromkeys(out))


def parse(data: Any, catalog: VoiceCatalog, where: str) -> tuple[VoiceChoices, list[str]]:
    """The choices in `data` (a loaded YAML document) and every problem, each naming the file."""
    errors: list[str] = []
    if data is None:
        return VoiceChoices(), errors
    if not isinstance(data, dict) or set(data) - {"disabled", "prefer", "wake"}:
        return VoiceChoices(), [f"{where}: expected a mapping with `disabled`, `prefer` and/or `wake`"]
    off_raw = data.get("disabled") or []
    prefer_raw = data.get("prefer") or {}
    if not isinstance(off_raw, list) or not isinstance(prefer_raw, dict):
        return VoiceChoices(), [f"{where}: `disabled` must be a list and `prefer` a mapping"]
    choices = VoiceChoices()
    for name in map(str, off_raw):
        if name not in catalog.intents:
            errors.append(f"{where}: disabled: unknown voice intent {name!r}")
        elif name in REQUIRED:
            errors.append(f"{where}: disabled: {name!r} cannot be turned off (final actions need it)")
        else:
            choices.off.append(name)
    for name, phrasings in prefer_raw.items():
        name = str(name)
        if name not in catalog.intents:
            errors.append(f"{where}: prefer: unknown voice intent {name!r}")
            continue
        if not isinstance(phrasings, list) or not phrasings:
            errors.append(f"{where}: prefer: {name}: a non-empty list of phrasings")
            continue
        allowed = {normalise(p): p for p in offered(catalog, name)}
        bad = [str(p) for p in phrasings if normalise(str(p)) not in allowed]
        if bad:
            errors.append(f"{where}: prefer: {name}: not among its templates: {bad} (offered: {list(allowed.values())})")
            continue
        choices.prefer[name] = [allowed[normalise(str(p))] for p in phrasings]
    wake = normalise(str(data.get("wake") or ""))
    if wake and wake not in catalog.wake_candidates:
        errors.append(f"{where}: wake: {wake!r} is not a measured wake phrase (candidates: {list(catalog.wake_candidates)})")
    elif wake:
        choices.wake = wake
    return choices, errors


def read(overlay: Path | None, catalog: VoiceCatalog) -> tuple[VoiceChoices, list[str]]:
    """The overlay's choices (none when the file is absent) and its problems."""
    if overlay is None:
        return VoiceChoices(), []
    path = Path(overlay) / CHOICES_FILE
    if not path.exists():
        return VoiceChoices(), []
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        return VoiceChoices(), [f"{path}: {exc}"]
    return parse(data, catalog, str(path))


def write(overlay: Path, choices: VoiceChoices) -> Path:
    path = Path(overlay) / CHOICES_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(choices.to_yaml(), encoding="utf-8")
    tmp.replace(path)
    return path


def apply(catalog: VoiceCatalog, choices: VoiceChoices) -> VoiceCatalog:
    """The catalog the kiosk listens with: the café's wake phrase, an intent turned off keeps no phrasing
    (so nothing is heard as it), a preferred one keeps only the chosen phrasings, first one first (it is
    the one suggested)."""
    if choices.wake:
        catalog = catalog.with_wake(choices.wake)
    intents = dict(catalog.intents)
    for name, phrasings in choices.prefer.items():
        intents[name] = replace(intents[name], templates=tuple(phrasings))
    for name in choices.off:
        intents[name] = replace(intents[name], templates=())
    return replace(catalog, intents=intents)


def check(overlay: Path | None) -> list[str]:
    """For `tablehost content check`: the problems of the overlay's voice choices."""
    return read(overlay, load_catalog())[1]


def kiosk_catalog(overlay: Path | None) -> VoiceCatalog:
    """The shipped templates with the café's valid choices applied (a bad entry is skipped: see `check`)."""
    catalog = load_catalog()
    return apply(catalog, read(overlay, catalog)[0])
