"""Intents: what a phrase means. Loads the voice templates (content/voice/ko.yaml), expands them for the
current screen into a phrase book, and maps a recognised utterance — the whole utterance, nothing less or
more — to an intent with its slots.

An intent is navigation (다음, 이전, 다시 … dispatched at once), a confirmation word (네 / 아니요), the wake
phrase, or a game intent naming an engine action (`action`) whose fields its slots fill (`$player:accused`
→ field "accused"); intents marked `final` wait for a confirmation before they are dispatched.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from audio.grammar import Node, Slot, SlotValue, TemplateError, expand, normalise, parse, slot_names

DEFAULT_TEMPLATES = Path(__file__).resolve().parent.parent / "content" / "voice" / "ko.yaml"

# The vote (`PhraseBook.vote`): how many decodes of an utterance must pick an intent (content may ask more of
# one intent: `votes:`), and how much a decode that heard a decoy / no phrase at all counts against it (one
# that heard another intent counts 1). Chosen on the tuning part of bench/voice_split.py (session 16,
# bench/voice_rules.py over bench/voice_why.py's decodes of 2 x 2 tuning voices, clean + pink, babble, clatter
# at 10 dB, n=784 commands): a decode that heard no phrase now counts 0.25 against (was 0) and the most-voted
# intent must be alone at the top (a tie used to leave it to the normal decode): commands right 69.6 -> 66.0 %,
# wrong accepts 3.6 -> 1.5 %. Tried: 3 decodes needed (61 % right, 1.3 % wrong), decoys 0.5 or 1.5.
# bench/voice.py --decoy-weight tries others, on the tuning part only.
VOTE_NEED = 2
DECOY_WEIGHT = 1.0
UNHEARD_WEIGHT = 0.25
# In a quiet room (the utterance QUIET_SNR_DB over the noise, audio/recognizer.py) a decode that heard a decoy counts
# a quarter against: decoys are there to soak up other tables' talk, and with nobody else talking a decoy is mostly
# the grammar gluing a robotic or unclear command onto the nearest short word (뒤로 heard by 2 of 9 decodes, 이거 /
# 누구 / 어디 by 5). Session 19, tuning part (bench/voice_rules.py over bench/voice_why.py's decodes; numbers in
# that commit): quiet decoy weight 0 / 0.25 / 0.5 / 1 (as in noise) tried, 0.25 scored best (right - 4 x wrong).
QUIET_DECOY_WEIGHT = 0.25

YES = "confirm.yes"
NO = "confirm.no"
WAKE = "wake"


class VoiceContentError(ValueError):
    """content/voice is malformed; the message names the file and the intent."""


@dataclass(frozen=True)
class IntentSpec:
    """`name` is "next" for navigation or "<game>.<intent>" for a game intent."""

    name: str
    templates: tuple[str, ...]
    label_ko: str = ""
    final: bool = False
    action: str | None = None
    slot_types: frozenset[str] = frozenset()
    # a game intent's slot type → where its values come from, read from the action field it fills:
    # "player" for a seat field, the catalog a `ref(...)` field names ("locations"); from the engine
    slot_sources: tuple[tuple[str, str], ...] = ()
    kind: str = "nav"  # nav | game | confirm | wake
    # in the grammar whenever its game is hosted, legal or not: for actions whose legality depends on a
    # secret (Mr. Jack's escape), so whether the phrase is understood reveals nothing
    always: bool = False
    # confirmed although its engine does not mark it FINAL: speech mishears the words it is filled from
    say_back: bool = False
    votes: int = 0  # decodes of an utterance that must pick it (0: VOTE_NEED); content's `votes:`


@dataclass(frozen=True)
class Intent:
    """A recognised intent. `text` is what was heard; `slots` action field → value (e.g. a seat)."""

    spec: IntentSpec
    text: str
    slots: Mapping[str, object]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def final(self) -> bool:
        return self.spec.final

    def action_fields(self) -> dict[str, object]:
        """The engine action's fields filled by this utterance (`$player:accused` → "accused"). The
        session builds `actions[spec.action](**fields)` and adds what voice cannot know (`seat` when not
        spoken — a microphone cannot tell who spoke — and `at`)."""
        return dict(self.slots)


@dataclass(frozen=True)
class WakeFigure:
    """A wake candidate as bench/voice.py measured it on the held-out part (content/voice/ko.yaml
    `wake.measured`): takes that woke the kiosk, of `takes`, and false wakes per hour of café audio."""

    woke: int
    takes: int
    false_per_hour: float


@dataclass(frozen=True)
class VoiceCatalog:
    intents: Mapping[str, IntentSpec]
    decoys: tuple[str, ...]
    # wake phrases the café may choose instead of the shipped one (content/voice/ko.yaml `wake.candidates`;
    # the choice: audio/voice_choices.py). The kiosk listens for one wake phrase only: `intents[WAKE]`.
    wake_candidates: tuple[str, ...] = ()
    wake_measured: Mapping[str, WakeFigure] = field(default_factory=dict)  # the bench's figures per candidate

    def game_intents(self, game: str) -> list[IntentSpec]:
        return [s for n, s in self.intents.items() if n.startswith(game + ".")]

    def navigation(self) -> list[IntentSpec]:
        return [s for s in self.intents.values() if s.kind == "nav"]

    def with_wake(self, phrase: str) -> VoiceCatalog:
        """This catalog listening for `phrase` as its one wake phrase."""
        return replace(self, intents={**self.intents, WAKE: replace(self.intents[WAKE], templates=(phrase,))})


def _spec(name: str, raw: Any, where: str, kind: str) -> IntentSpec:
    if isinstance(raw, list):
        raw = {"templates": raw}
    if not isinstance(raw, dict) or not raw.get("templates"):
        raise VoiceContentError(f"{where}: intent {name!r} needs a non-empty `templates` list")
    templates = tuple(str(t) for t in raw["templates"])
    used: set[str] = set()
    for t in templates:
        try:
            used |= slot_names(parse(t))
        except TemplateError as exc:
            raise VoiceContentError(f"{where}: intent {name!r}: {exc}") from exc
    if used and kind != "game":
        raise VoiceContentError(f"{where}: intent {name!r}: only game intents take slots, found {sorted(used)}")
    return IntentSpec(
        name=name,
        templates=templates,
        label_ko=str(raw.get("label", "")),
        final=bool(raw.get("final", False)),
        action=str(raw["action"]) if raw.get("action") else None,
        slot_types=frozenset(used),
        kind=kind,
        always=bool(raw.get("always", False)),
        votes=_votes(raw.get("votes", 0), name, where),
    )


def _votes(raw: Any, name: str, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 9:
        raise VoiceContentError(f"{where}: intent {name!r}: `votes` must be a whole number of decodes, 0-9")
    return raw


def _engine_final(game: str, action: str, where: str) -> bool:
    """A game action needs a confirmation when its engine marks it FINAL (engines/core.py)."""
    from engines import find_engine

    try:
        return bool(find_engine(game).actions[action].FINAL)
    except KeyError:
        raise VoiceContentError(f"{where}: game {game!r} has no engine action {action!r}") from None


def _slots(node: Node) -> list[Slot]:
    if isinstance(node, Slot):
        return [node]
    return [s for child in getattr(node, "items", ()) or getattr(node, "options", ()) for s in _slots(child)]


def _slot_sources(game: str, spec: IntentSpec, where: str) -> tuple[tuple[str, str], ...]:
    """Each slot's values, from the action field it fills (engines/core.py FieldSpec): `$player:f` needs
    a seat field; `$<any word>:f` a `ref(catalog)` field, whose catalog gives the values."""
    from engines import find_engine
    from engines.core import field_specs

    assert spec.action is not None
    specs = field_specs(find_engine(game).actions[spec.action])
    out: dict[str, str] = {}
    for slot in [s for t in spec.templates for s in _slots(parse(t))]:
        fs = specs.get(slot.field)
        if fs is None:
            raise VoiceContentError(f"{where}: {spec.name}: ${slot.name}:{slot.field}: "
                                    f"{spec.action!r} has no field {slot.field!r}")
        if (slot.name == "player") != (fs.kind == "seat") or fs.kind not in ("seat", "ref"):
            raise VoiceContentError(f"{where}: {spec.name}: ${slot.name}:{slot.field} fills a {fs.kind} field "
                                    "($player fills a seat, any other slot a ref(catalog) field)")
        source = "player" if fs.kind == "seat" else fs.of
        if out.setdefault(slot.name, source) != source:
            raise VoiceContentError(f"{where}: {spec.name}: ${slot.name} names two catalogs")
    return tuple(sorted(out.items()))


def load_catalog(path: Path = DEFAULT_TEMPLATES) -> VoiceCatalog:
    """Read the template file; errors name the file and the intent."""
    where = str(path)
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise VoiceContentError(f"{where}: {exc}") from exc
    if not isinstance(data, dict):
        raise VoiceContentError(f"{where}: expected a mapping at the top")
    specs: dict[str, IntentSpec] = {}
    specs[WAKE] = _spec(WAKE, data.get("wake"), where, "wake")
    confirm = data.get("confirm") or {}
    specs[YES] = _spec(YES, confirm.get("accept"), where, "confirm")
    specs[NO] = _spec(NO, confirm.get("reject"), where, "confirm")
    for name, raw in (data.get("navigation") or {}).items():
        specs[str(name)] = _spec(str(name), raw, where, "nav")
    for game, intents in (data.get("games") or {}).items():
        for name, raw in (intents or {}).items():
            full = f"{game}.{name}"
            spec = _spec(full, raw, where, "game")
            if spec.action is None:
                raise VoiceContentError(f"{where}: game intent {full!r} needs `action` (an engine action NAME)")
            if isinstance(raw, dict) and "final" in raw:
                raise VoiceContentError(f"{where}: game intent {full!r}: `final` comes from the engine's FINAL mark")
            # `say_back: true`: heard words fill it that speech confuses too often (card names) to act
            # at once, though the rules would not ask; it can only add a confirmation, never drop FINAL's
            say_back = bool(raw.get("say_back", False)) if isinstance(raw, dict) else False
            spec = replace(spec, final=_engine_final(str(game), spec.action, where) or say_back,
                           say_back=say_back)
            specs[full] = replace(spec, slot_sources=_slot_sources(str(game), spec, where))
    decoys = tuple(normalise(str(d)) for d in data.get("decoys") or ())
    wake = data.get("wake")
    raw = wake.get("candidates") or [] if isinstance(wake, dict) else []
    if not isinstance(raw, list):
        raise VoiceContentError(f"{where}: wake: `candidates` must be a list of phrases")
    candidates = tuple(dict.fromkeys([*specs[WAKE].templates[:1], *(normalise(str(c)) for c in raw)]))
    for c in candidates:
        if "$" in c or any(ch in c for ch in "[]()|"):
            raise VoiceContentError(f"{where}: wake: candidate {c!r} must be a plain phrase")
    return VoiceCatalog(specs, decoys, candidates, _wake_measured(wake, candidates, where))


def _wake_measured(wake: Any, candidates: tuple[str, ...], where: str) -> dict[str, WakeFigure]:
    """`wake.measured: {phrase: [woke, takes, false wakes per hour]}`, for candidates only."""
    raw = wake.get("measured") or {} if isinstance(wake, dict) else {}
    out: dict[str, WakeFigure] = {}
    for phrase, fig in (raw.items() if isinstance(raw, dict) else [(None, None)]):
        text = normalise(str(phrase))
        nums = [float(x) for x in fig if isinstance(x, (int, float))] if isinstance(fig, list) else []
        if phrase is None or len(nums) != 3 or len(fig or ()) != 3 or text not in candidates or not 0 <= nums[0] <= nums[1]:
            raise VoiceContentError(f"{where}: wake: `measured` maps a candidate to [woke, takes, false wakes per "
                                    f"hour] ({phrase!r}: {fig!r})")
        out[text] = WakeFigure(int(nums[0]), int(nums[1]), nums[2])
    return out


@dataclass(frozen=True)
class PhraseBook:
    """The phrases one grammar accepts. `phrases` text → (spec, slots); `decoys` absorb other speech and
    match nothing; `dropped` lists phrases left out and why (words missing from the model, ambiguity)."""

    phrases: Mapping[str, tuple[IntentSpec, Mapping[str, object]]]
    decoys: tuple[str, ...]
    dropped: tuple[tuple[str, str], ...] = ()

    def examples(self, n: int = 3) -> list[str]:
        """Phrases to suggest when nothing was understood: the first phrasing of each intent (templates list
        the best-measured phrasing first), game intents before navigation."""
        first: dict[str, str] = {}
        for text, (spec, _) in self.phrases.items():
            first.setdefault(spec.name, text)
        order = sorted(first, key=lambda name: self.phrases[first[name]][0].kind != "game")
        return [first[name] for name in order[:n]]

    @property
    def grammar(self) -> list[str]:
        """The list to hand to the recogniser (phrases first, then decoys)."""
        return sorted(self.phrases) + list(self.decoys)

    def match(self, text: str) -> Intent | None:
        """The intent of a whole utterance; None for silence, a decoy, or several phrases run together."""
        key = normalise(text)
        hit = self.phrases.get(key)
        if hit is None:
            return None
        spec, slots = hit
        return Intent(spec, key, dict(slots))


    def pick(self, candidates: Iterable[str]) -> tuple[str, Intent | None]:
        """Given the recogniser's n-best texts (best first), the first that is exactly one phrase or one
        decoy decides: (that text, its intent or None for a decoy). Otherwise (best text, None)."""
        cands = [normalise(c) for c in candidates if c.strip()]
        for c in cands:
            if c in self.phrases:
                return c, self.match(c)
            if c in self.decoys:
                return c, None
        return (cands[0] if cands else ""), None


    def groups(self, decodes: Iterable[Iterable[str]]) -> list[list[tuple[str, Intent]]]:
        """Each decode's pick, grouped by intent (with its slots), biggest group first; decoys and
        non-phrases belong to no group."""
        groups: dict[tuple[str, str], list[tuple[str, Intent]]] = {}
        for candidates in decodes:
            text, intent = self.pick(candidates)
            if intent is not None:
                groups.setdefault(_key(intent), []).append((text, intent))
        return sorted(groups.values(), key=len, reverse=True)

    def agreed(self, decodes: Iterable[Iterable[str]], need: int) -> tuple[str, Intent] | None:
        """The intent (with its slots) at least `need` decodes pick, and more than any other intent."""
        groups = self.groups(decodes)
        if groups and len(groups[0]) >= need and (len(groups) == 1 or len(groups[1]) < len(groups[0])):
            return groups[0][0]
        return None

    def tally(self, decodes: Iterable[Iterable[str]], quiet: bool = False) -> Tally:
        """What several decodes of one utterance picked (`pick`): votes per intent (with its slots), decoys,
        and decodes that heard neither one phrase nor one decoy; `quiet`: said in a quiet room."""
        t = Tally(quiet=quiet)
        for candidates in decodes:
            text, intent = self.pick(candidates)
            if intent is not None:
                k = _key(intent)
                t.votes[k] = t.votes.get(k, 0) + 1
                t.first.setdefault(k, (text, intent))
            elif text in self.decoys:
                t.decoys += 1
            else:
                t.unheard += 1
        return t

    def need(self, intent: Intent) -> int:
        """Decodes that must pick `intent` (content's `votes:` for it, else `VOTE_NEED`)."""
        return intent.spec.votes or VOTE_NEED

    def vote(self, decodes: Iterable[Iterable[str]], quiet: bool = False) -> tuple[str, Intent | None]:
        """Several decodes of one utterance (n-best lists; the normal decode first, then perturbed ones) vote:
        the intent most of them pick stands if no other has as many, at least `need` picked it, and its
        votes are at least the other intents' + `DECOY_WEIGHT` x the decoys (`QUIET_DECOY_WEIGHT` when `quiet`)
        + `UNHEARD_WEIGHT` x the decodes that heard no phrase. Otherwise nothing: a wrong accept costs more
        than a miss (the guest taps or says it again). Chosen on the tuning part of bench/voice_split.py
        (bench/voice_rules.py; see VOTE_NEED)."""
        decodes = [tuple(c) for c in decodes]
        if not decodes:
            return "", None
        t = self.tally(decodes, quiet)
        best = t.leader()
        if best is None:
            return self.pick(decodes[0])[0], None
        text, intent = t.first[best]
        return (text, intent) if t.accepts(best, self.need(intent)) else (text, None)

    def settled(self, decodes: Iterable[Iterable[str]], remaining: int, quiet: bool = False) -> bool:
        """Whether `vote` over these decodes and `remaining` more must come out as over these alone (so
        the rest need not be decoded)."""
        decodes = [tuple(c) for c in decodes]
        t = self.tally(decodes, quiet)
        against = t.decoy_weight * t.decoys + UNHEARD_WEIGHT * t.unheard
        now = self.vote(decodes, quiet)[1]
        if now is not None:  # stays accepted whatever the rest hear: each may go to the runner-up or count against
            k = _key(now)
            second = max((v for key, v in t.votes.items() if key != k), default=0)
            worst = max(1.0, t.decoy_weight, UNHEARD_WEIGHT)
            return t.votes[k] > second + remaining and t.margin(k) >= worst * remaining
        # stays rejected unless the rest could all go to one intent (one heard already, or a new one) and carry it
        for k, (_, intent) in t.first.items():
            v = t.votes[k] + remaining
            second = max((n for key, n in t.votes.items() if key != k), default=0)
            if v > second and v >= self.need(intent) and v - (t.total - t.votes[k]) - against >= 0:
                return False
        top = max(t.votes.values(), default=0)
        return not (remaining > top and remaining - t.total - against >= 0)


@dataclass
class Tally:
    """`PhraseBook.tally`: votes per intent key (`_key`), the first (text, intent) of each, decoys, and
    decodes that heard no phrase."""

    votes: dict[tuple[str, str], int] = field(default_factory=dict)
    first: dict[tuple[str, str], tuple[str, Intent]] = field(default_factory=dict)
    decoys: int = 0
    unheard: int = 0
    quiet: bool = False  # said in a quiet room: decoys weigh QUIET_DECOY_WEIGHT

    @property
    def decoy_weight(self) -> float:
        return QUIET_DECOY_WEIGHT if self.quiet else DECOY_WEIGHT

    @property
    def total(self) -> int:
        return sum(self.votes.values())

    def leader(self) -> tuple[str, str] | None:
        """The intent with the most votes; None when none has any or two share the most."""
        ranked = sorted(self.votes.items(), key=lambda kv: -kv[1])
        if not ranked or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
            return None
        return ranked[0][0]

    def margin(self, k: tuple[str, str]) -> float:
        return self.votes[k] - (self.total - self.votes[k]) - self.decoy_weight * self.decoys - UNHEARD_WEIGHT * self.unheard

    def accepts(self, k: tuple[str, str], need: int) -> bool:
        return self.votes[k] >= need and self.margin(k) >= 0


def _key(intent: Intent) -> tuple[str, str]:
    """An intent with its slot values, as the vote groups them."""
    return intent.name, repr(sorted((k, repr(v)) for k, v in intent.slots.items()))


SlotInput = Mapping[str, Iterable[SlotValue] | Mapping[str, object]]


def slot_values(slots: SlotInput | None) -> dict[str, tuple[SlotValue, ...]]:
    """Slot values as given by the kiosk — `{"player": {"민호": 0, "지수": 1}}` (spoken text → value,
    aliases allowed) or SlotValue lists — normalised to SlotValue tuples."""
    out: dict[str, tuple[SlotValue, ...]] = {}
    for name, values in (slots or {}).items():
        if isinstance(values, Mapping):
            out[name] = tuple(SlotValue(normalise(str(k)), v) for k, v in values.items())
        else:
            out[name] = tuple(values)
    return out


def build_phrasebook(
    specs: Iterable[IntentSpec],
    slots: SlotInput | None = None,
    vocabulary: Container[str] | None = None,
    decoys: Iterable[str] = (),
) -> PhraseBook:
    """Expand the specs with the current slot values. With a vocabulary, phrases using an unknown word are
    dropped (Kaldi would silently cut the word out). A text two intents share (say a player named "다시") is
    dropped from both: an ambiguous phrase must not act."""
    given = slot_values(slots)
    found: dict[str, list[tuple[IntentSpec, Mapping[str, object]]]] = {}
    dropped: list[tuple[str, str]] = []
    for spec in specs:
        # a game intent's slots take their values from the catalog its fields name (slot_sources)
        values_by_type = {**given, **{t: given.get(source, ()) for t, source in spec.slot_sources}}
        for template in spec.templates:
            for words, values in expand(template, values_by_type):
                text = " ".join(words)
                if vocabulary is not None:
                    missing = [w for w in words if w not in vocabulary]
                    if missing:
                        dropped.append((text, f"not in the model's vocabulary: {' '.join(missing)}"))
                        continue
                entry = (spec, dict(values))
                bucket = found.setdefault(text, [])
                if all(e[0].name != spec.name or e[1] != entry[1] for e in bucket):
                    bucket.append(entry)
    phrases: dict[str, tuple[IntentSpec, Mapping[str, object]]] = {}
    for text, entries in found.items():
        if len(entries) > 1:
            dropped.append((text, "ambiguous: " + ", ".join(e[0].name for e in entries)))
        else:
            phrases[text] = entries[0]
    kept_decoys: list[str] = []
    for d in decoys:
        if d in phrases or d in kept_decoys:
            continue
        if vocabulary is not None and any(w not in vocabulary for w in d.split()):
            dropped.append((d, "decoy not in the model's vocabulary"))
            continue
        kept_decoys.append(d)
    return PhraseBook(phrases, tuple(kept_decoys), tuple(dropped))


def to_action(intent: Intent, actions: Mapping[str, Any], **extra: object) -> Any:
    """The engine action a game intent stands for, built exactly as touch would build it:
    `actions` is the engine's name → class mapping (`Engine.actions`); `extra` holds what the session knows
    and voice does not (`seat`, `at`). Raises KeyError for a navigation intent or an unknown action name."""
    if intent.spec.action is None:
        raise KeyError(f"{intent.name} is not a game action")
    cls = actions[intent.spec.action]
    return cls(**{**intent.action_fields(), **extra})
