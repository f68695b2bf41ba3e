"""What each seat may see (`ClueView`, the game's part of a view, typed), the secrets list, and one seat's
knowledge for the solver.

Hands and the envelope appear only where allowed: a hand in its owner's view; the envelope in the view
of a player who accused wrongly (they looked inside, CLUE-47) and, when the game is over, in every view;
a shown card only in the suggester's and the shower's views. The seat's private screen (`parts`) is drawn
from the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from engines.clue.content import SUSPECT, WEAPON, CardSet
from engines.clue.knowledge import Fact, Knowledge
from engines.clue.state import DIGITAL, REFUTE, AccusationRecord, ClueState, SuggestionRecord
from engines.core import GamePart, Secret
from engines.parts import Card, Items, Part, Words, said
from engines.parts import phrase as ph


@dataclass(frozen=True)
class CardIds:
    """The set's card ids per category, in the set's order."""

    suspects: tuple[str, ...]
    weapons: tuple[str, ...]
    rooms: tuple[str, ...]


@dataclass(frozen=True)
class Detective:
    """A player as everyone sees them: their token, how many cards they hold (`recorded`: physical mode, whether
    they recorded their hand), whether a wrong accusation put them out."""

    seat: int
    name: str
    suspect: str
    hand_size: int
    recorded: bool
    out: bool


@dataclass(frozen=True)
class SeenCard:
    n: int  # the suggestion's number
    card: str


@dataclass(frozen=True)
class PrivateCard:
    """A card shown for a suggestion, in the views of the one who showed it (`by`) and the one shown (`to`)."""

    shown_card: SeenCard
    by: int
    to: int


@dataclass(frozen=True)
class ClueView(GamePart):
    """The game's part of one seat's view. Public: the set, the players, the turn, the tokens and weapons, the
    log of suggestions (who showed, never which card) and accusations. The fields defaulting to None are held by
    some views only (left out of the JSON there): the envelope (every view once the game is over; before that a
    wrong accuser's, CLUE-47), the seat's own part (`me`; `hand` once dealt or recorded; `private_cards`, the
    cards it showed or was shown; `can_show` while it must answer a suggestion)."""

    set: str
    mode: str
    cards: CardIds
    players: tuple[Detective, ...]
    first: int
    turn: int
    phase: str
    die: int
    asking: int  # the seat to answer a suggestion (physical set-up: to record its hand), else -1
    may_suggest: bool
    moved: tuple[str, ...]  # suspects moved by another's suggestion since their last turn
    tokens: Mapping[str, str]  # suspect → room ("": start space or corridor)
    weapons: Mapping[str, str]  # weapon → room
    suggestions: tuple[SuggestionRecord, ...]
    accusations: tuple[AccusationRecord, ...]
    winner: int
    over: bool
    envelope: tuple[str, ...] | None = None
    me: int | None = None
    hand: tuple[str, ...] | None = None
    private_cards: tuple[PrivateCard, ...] | None = None
    can_show: tuple[str, ...] | None = None

    def name(self, seat: int) -> str:
        return self.players[seat].name if 0 <= seat < len(self.players) else ""

    def room_of(self, seat: int) -> str:
        """The room `seat`'s token is in ("": start space or corridor)."""
        return self.tokens.get(self.players[seat].suspect, "")

    @property
    def last(self) -> SuggestionRecord | None:
        """The latest suggestion (done or not)."""
        return self.suggestions[-1] if self.suggestions else None

    def shown(self, n: int, to: int) -> str:
        """The card shown to `to` for suggestion `n`, if this view holds it (else "")."""
        return next((p.shown_card.card for p in self.private_cards or () if p.shown_card.n == n and p.to == to), "")


@dataclass(frozen=True)
class Places:
    """Where the pieces stand on the physical board, as every view has it (public): per room of the set, in the
    set's order, the suspects' tokens and the weapons in it; the tokens on their start spaces or in the corridors
    (`out`, in the set's order); weapons in no room (`loose`: none in the rules, kept for a set that has any)."""

    rooms: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
    out: tuple[str, ...]
    loose: tuple[str, ...] = ()

    def room(self, room: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(suspects, weapons) in `room`."""
        for rid, suspects, weapons in self.rooms:
            if rid == room:
                return suspects, weapons
        raise KeyError(room)


def places(v: ClueView) -> Places:
    """The board from a view's public part (`tokens`, `weapons`): a suggestion moved the named suspect and weapon
    into the suggester's room (CLUE-31)."""
    c = v.cards
    rooms = tuple((r, tuple(s for s in c.suspects if v.tokens.get(s) == r),
                   tuple(w for w in c.weapons if v.weapons.get(w) == r)) for r in c.rooms)
    known = set(c.rooms)
    return Places(rooms, tuple(s for s in c.suspects if v.tokens.get(s, "") not in known),
                  tuple(w for w in c.weapons if v.weapons.get(w, "") not in known))


def view(state: ClueState, seat: int | None) -> ClueView:
    c = state.cards
    own = seat is not None and 0 <= seat < len(state.players)
    hand = state.hands[seat] if seat is not None and own else ()
    envelope = state.envelope if state.envelope and (state.over or own and seat in state.eliminated) else None
    can_show = (tuple(x for x in state.history[-1].named if x in hand)
                if own and state.phase == REFUTE and state.asking == seat and (state.mode == DIGITAL or hand)
                else None)
    return ClueView(
        set=c.id,
        mode=state.mode,
        cards=CardIds(c.ids(0), c.ids(1), c.ids(2)),
        players=tuple(Detective(i, name, state.suspects[i], state.hand_sizes[i], bool(state.hands[i]),
                                i in state.eliminated) for i, name in enumerate(state.players)),
        first=state.first,
        turn=state.turn,
        phase=state.phase,
        die=state.die,
        asking=state.asking,
        may_suggest=state.may_suggest,
        moved=tuple(sorted(state.moved)),
        tokens={s: state.tokens[i] for i, s in enumerate(c.ids(SUSPECT))},
        weapons={w: state.weapons[i] for i, w in enumerate(c.ids(WEAPON))},
        suggestions=state.history,
        accusations=state.accusations,
        winner=state.winner,
        over=state.over,
        envelope=envelope,
        me=seat if own else None,
        hand=hand or None,
        private_cards=tuple(PrivateCard(SeenCard(s.n, s.card), s.by, s.to) for s in state.shown
                            if seat in (s.by, s.to)) if own else None,
        can_show=can_show,
    )


def parts(game: ClueView, cards: CardSet) -> list[Part]:
    """The seat's private screen, from its view's own fields (the card names from the set): its hand, the cards
    shown to it and by it, the envelope once it looked inside (CLUE-47), and what it may show now."""
    if game.me is None:
        return []

    def name(card: str) -> Words:
        c = cards.card(card)
        return said(c.ko, c.en)

    out: list[Part] = []
    if game.hand:
        out.append(Items(ph("hand"), tuple(name(c) for c in game.hand)))
    shown = game.private_cards or ()
    to_me = tuple(Card(said(game.name(p.by)), name(p.shown_card.card)) for p in shown if p.to == game.me)
    by_me = tuple(Card(said(game.name(p.to)), name(p.shown_card.card)) for p in shown if p.by == game.me)
    if to_me:
        out.append(Items(ph("shown_to_me"), cards=to_me))
    if by_me:
        out.append(Items(ph("shown_by_me"), cards=by_me))
    if game.envelope is not None and not game.over:
        out.append(Items(ph("envelope"), tuple(name(c) for c in game.envelope)))
    if game.can_show is not None:
        out.append(Items(ph("can_show"), tuple(name(c) for c in game.can_show)))
    return out


def secrets(state: ClueState) -> list[Secret]:
    out = [Secret("hand", list(h), frozenset({i})) for i, h in enumerate(state.hands) if h]
    if state.envelope and not state.over:
        out.append(Secret("envelope", list(state.envelope), frozenset(state.eliminated)))
    out += [Secret("shown_card", {"n": s.n, "card": s.card}, frozenset({s.by, s.to})) for s in state.shown]
    return out


def knowledge_from_view(v: ClueView) -> Knowledge:
    """The same facts as `knowledge_for`, rebuilt from that seat's own view only (what the kiosk's
    private notebook and the tablet detectives use: they never read the state)."""
    if v.me is None:
        raise ValueError("a seat's own view is needed (this one is the table's)")
    seat = v.me
    cats = (v.cards.suspects, v.cards.weapons, v.cards.rooms)
    sizes = tuple(p.hand_size for p in v.players)
    facts: list[Fact] = [Fact("has", seat, (x,)) for x in v.hand or ()]
    seen = {(p.shown_card.n, p.by): p.shown_card.card for p in v.private_cards or () if p.to == seat}
    ref = 0
    for r in v.suggestions:
        for p in r.passed:
            if p != seat:
                facts.append(Fact("lacks", p, r.named))
        by = r.shown_by
        if by < 0 or by == seat:
            continue
        card = seen.get((r.n, by))
        if card:
            facts.append(Fact("has", by, (card,)))
        else:
            ref += 1
            facts.append(Fact("one_of", by, r.named, ref))
    for a in v.accusations:
        if a.correct is False:
            facts.append(Fact("not_triple", -1, a.named))
    if v.players[seat].out and v.envelope is not None:
        facts += [Fact("envelope", -1, (x,)) for x in v.envelope]
    return Knowledge(cats, sizes, tuple(facts), seat)


def knowledge_for(state: ClueState, seat: int) -> Knowledge:
    """The facts `seat` may use: own hand, public passes and shows, cards shown to them, accusations."""
    c = state.cards
    cats = tuple(c.ids(k) for k in range(3))
    facts: list[Fact] = [Fact("has", seat, (x,)) for x in state.hands[seat]] if 0 <= seat < len(state.hands) else []
    seen = {(s.n, s.by): s.card for s in state.shown if s.to == seat}
    ref = 0
    for r in state.history:
        for p in r.passed:
            if p != seat:
                facts.append(Fact("lacks", p, r.named))
        if r.shown_by < 0 or r.shown_by == seat:
            continue
        card = seen.get((r.n, r.shown_by))
        if card:
            facts.append(Fact("has", r.shown_by, (card,)))
        else:
            ref += 1
            facts.append(Fact("one_of", r.shown_by, r.named, ref))
    for a in state.accusations:
        if a.correct is False:
            facts.append(Fact("not_triple", -1, a.named))
    if seat in state.eliminated and state.envelope:
        facts += [Fact("envelope", -1, (x,)) for x in state.envelope]
    return Knowledge(cats, state.hand_sizes, tuple(facts), seat)


def hidden_variants(state: ClueState) -> list[tuple[ClueState, frozenset[int]]]:
    """The game with one hidden fact changed, and who may see it: a card (never shown) moved between two
    hands (the two holders), or between the envelope and a hand (the holder and whoever saw the envelope)."""
    if state.over or state.mode != DIGITAL:
        return []
    shown = {s.card for s in state.shown}
    out: list[tuple[ClueState, frozenset[int]]] = []
    hands = state.hands
    free = [(seat, card) for seat, hand in enumerate(hands) for card in hand if card not in shown]
    c = state.cards
    for seat, card in free:
        other = next(((s2, x) for s2, x in free if s2 != seat and c.category_of(x) == c.category_of(card)), None)
        if other is not None:
            s2, x = other
            new = [list(h) for h in hands]
            new[seat][new[seat].index(card)] = x
            new[s2][new[s2].index(x)] = card
            out.append((replace(state, hands=tuple(tuple(h) for h in new)), frozenset({seat, s2})))
            break
    for seat, card in free:
        k = c.category_of(card)
        secret = state.envelope[k]
        new = [list(h) for h in hands]
        new[seat][new[seat].index(card)] = secret
        envelope = tuple(card if i == k else e for i, e in enumerate(state.envelope))
        out.append((replace(state, hands=tuple(tuple(h) for h in new), envelope=envelope),
                    frozenset({seat}) | state.eliminated))
        break
    return out
