"""The Clue engine: set-up, turns, suggestions and disproval, accusations (see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engines.clue import messages as msg
from engines.clue.actions import (
    ACTIONS,
    Accuse,
    DieRoll,
    EndTurn,
    EnterRoom,
    NoteShown,
    Pass,
    RecordHand,
    ReportAccusation,
    RollDie,
    Show,
    StayOut,
    Suggest,
    Trapped,
    UsePassage,
)
from engines.clue.content import ROOM, SUSPECT, WEAPON, CardSet, sets_in
from engines.clue.knowledge import hand_sizes
from engines.clue.state import (
    ACCUSE_CHECK,
    AFTER,
    DIGITAL,
    HANDS,
    IN_ROOM,
    MOVE,
    NOTE,
    OVER,
    PHYSICAL,
    REFUTE,
    ROLL,
    START,
    AccusationRecord,
    ClueState,
    ShownCard,
    SuggestionRecord,
)
from engines.clue.views import hidden_variants, parts, secrets, view
from engines.core import CHANCE, Action, Engine, Event, Named, Offer, Outcome, Secret, Step, View, seeded_rng

ACCUSE_PHASES = (START, MOVE, IN_ROOM, AFTER)


def first_seat(cards: CardSet, suspects: Sequence[str]) -> int:
    """Miss Scarlet's player starts (CLUE-16); without her, the next start space clockwise (CLUE-17 A)."""
    order = cards.start_order
    k = order.index(cards.first)
    for i in range(len(order)):
        s = order[(k + i) % len(order)]
        if s in suspects:
            return list(suspects).index(s)
    return 0


class ClueEngine(Engine[ClueState]):
    name = "clue"
    version = "1"
    state_type = ClueState
    actions = ACTIONS
    content_types = {"sets/*.yaml": CardSet}

    # ------------------------------------------------------------ set-up
    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        sets = sets_in(pack)
        set_id = "classic" if "classic" in sets else next(iter(sets))
        return [
            {"players": ["지수", "민호", "서연"], "mode": DIGITAL, "set": set_id},
            {"players": ["A", "B", "C", "D", "E", "F"], "mode": DIGITAL, "set": set_id},
            {"players": ["가", "나", "다", "라"], "mode": PHYSICAL, "set": set_id,
             "suspects": ["mustard", "white", "green", "peacock"]},
        ]

    def setup(self, config: Mapping[str, Any], pack: Mapping[str, Any], seed: int) -> ClueState:
        sets = sets_in(pack)
        set_id = str(config.get("set", "classic"))
        if set_id not in sets:
            raise msg.bad_config("set")
        cards = sets[set_id]
        players = tuple(str(p) for p in config.get("players", ()))
        lo, hi = cards.players
        if not lo <= len(players) <= hi:
            raise msg.bad_config("players", lo=lo, hi=hi)
        suspects = tuple(config.get("suspects") or cards.start_order[: len(players)])
        if len(suspects) != len(players) or len(set(suspects)) != len(suspects) or not set(suspects) <= set(
                cards.ids(SUSPECT)):
            raise msg.bad_config("suspects")
        mode = str(config.get("mode", DIGITAL))
        if mode not in (DIGITAL, PHYSICAL):
            raise msg.bad_config("mode")
        first = first_seat(cards, suspects)
        n_dealt = len(cards.cards) - 3
        sizes = hand_sizes(n_dealt, len(players), first)
        # the public layout and the secret deal come from separate streams: one never narrows the other
        weapons = _place_weapons(cards, seeded_rng(seed, "clue", "layout"))
        hands: tuple[tuple[str, ...], ...] = tuple(() for _ in players)
        envelope: tuple[str, ...] = ()
        if mode == DIGITAL:
            rng = seeded_rng(seed, "clue", "deal")
            # each category shuffled apart, its top card into the envelope (CLUE-11)
            envelope = tuple(rng.choice(cards.ids(k)) for k in (SUSPECT, WEAPON, ROOM))
            rest = [c.id for c in cards.cards if c.id not in envelope]
            rng.shuffle(rest)
            dealt: list[list[str]] = [[] for _ in players]
            for i, c in enumerate(rest):  # clockwise from the starting player (CLUE-12)
                dealt[(first + i) % len(players)].append(c)
            hands = tuple(tuple(h) for h in dealt)
        return ClueState(
            players=players, suspects=suspects, cards=cards, mode=mode, hand_sizes=sizes, hands=hands,
            envelope=envelope, first=first, turn=first, phase=HANDS if mode == PHYSICAL else START,
            tokens=tuple("" for _ in cards.suspects), weapons=weapons,
            asking=0 if mode == PHYSICAL else -1,
        )

    def ref_ids(self, state: ClueState, catalog: str) -> tuple[str, ...] | None:
        """The names a suggestion, an accusation, a room entered or a hand recorded may use (the view's catalogs)."""
        category = {"suspects": SUSPECT, "weapons": WEAPON, "rooms": ROOM}.get(catalog)
        if category is not None:
            return state.cards.ids(category)
        return tuple(c.id for c in state.cards.cards) if catalog == "cards" else None

    # ------------------------------------------------------------ who acts
    def to_move(self, state: ClueState) -> frozenset[int]:
        if state.over:
            return frozenset()
        if state.phase == HANDS:
            return frozenset({state.asking})
        if state.phase == ROLL:
            return frozenset({CHANCE})
        if state.phase == REFUTE:
            return frozenset({state.asking})
        return frozenset({state.turn})

    def legal_actions(self, state: ClueState, seat: int) -> Sequence[Action]:
        return self._legal(state, seat, every=True)

    def offer_names(self, state: ClueState, seat: int) -> set[str]:
        """As from `legal_actions`, with one suggestion and one accusation standing for their 36 and 324 (the table
        view asks at every refresh: making them all was ~3 ms of the UI thread's frame here)."""
        return {a.NAME for a in self._legal(state, seat, every=False) if not type(a).PRIVATE}

    def _legal(self, state: ClueState, seat: int, every: bool) -> Sequence[Action]:
        """`seat`'s legal actions; not `every`: one of each suggestion and accusation (any combination is legal)."""
        if state.over or seat not in self.to_move(state):
            return []
        c = state.cards
        ph = state.phase
        out: list[Action] = []
        if ph == HANDS:
            size = state.hand_sizes[seat]
            offset = sum(state.hand_sizes[:seat])
            sample = tuple(x.id for x in c.cards[3 + offset: 3 + offset + size])
            out = [RecordHand(seat, ())]
            if len(sample) == size:
                out.append(RecordHand(seat, sample))
            return out
        if ph == ROLL:
            return [DieRoll(CHANCE, v) for v in range(1, 7)]
        if ph == REFUTE:
            rec = state.history[-1]
            if state.mode == DIGITAL:
                return [Show(seat, x) for x in rec.named if x in state.hands[seat]]
            holds = any(x in state.hands[seat] for x in rec.named)  # a recorded hand (else it is empty)
            fix = [RecordHand(seat, ())] if state.hands[seat] else []  # a mistaken record: correct or clear it
            return [Show(seat, "")] + ([] if holds else [Pass(seat)]) + fix
        if ph == NOTE:
            return [NoteShown(seat, "")] + [NoteShown(seat, x) for x in state.history[-1].named]
        if ph == ACCUSE_CHECK:
            return [ReportAccusation(seat, True), ReportAccusation(seat, False)]
        room = state.token_of(seat)
        if ph == START:
            out.append(RollDie(seat))
            if room and c.passage_from(room):
                out.append(UsePassage(seat))
            if room:
                out.append(Trapped(seat))
        elif ph == MOVE:
            out += [EnterRoom(seat, r) for r in c.ids(ROOM) if r != state.left_room]
            out.append(StayOut(seat))
        elif ph in (IN_ROOM, AFTER):
            out.append(EndTurn(seat))
        suspects, weapons, rooms = (c.ids(k) if every else c.ids(k)[:1] for k in (SUSPECT, WEAPON, ROOM))
        if self._may_suggest(state, seat):
            out += [Suggest(seat, s, w) for s in suspects for w in weapons]
        if ph in ACCUSE_PHASES and seat not in {a.seat for a in state.accusations}:
            out += [Accuse(seat, s, w, r) for s in suspects for w in weapons for r in rooms]
        return out

    def sample_chance(self, state: ClueState, rng: random.Random) -> Action:
        return DieRoll(CHANCE, rng.randint(1, 6))

    def _may_suggest(self, state: ClueState, seat: int) -> bool:
        if not state.token_of(seat):
            return False
        if state.phase == IN_ROOM:
            return state.may_suggest
        # moved here by someone else's suggestion: may suggest on the next turn without moving (CLUE-39)
        return state.phase == START and state.suspects[seat] in state.moved

    # ------------------------------------------------------------ apply
    def _apply(self, state: ClueState, action: Action) -> Step[ClueState]:
        handler = getattr(self, "_do_" + action.NAME)
        step: Step[ClueState] = handler(state, action)
        return step

    def _need(self, state: ClueState, *phases: str) -> None:
        if state.phase not in phases:
            raise msg.error("wrong_phase", phase=state.phase)

    def _do_record_hand(self, state: ClueState, a: RecordHand) -> Step[ClueState]:
        """At the start each seat in turn; later (physical mode, CLUE-15 notes are the player's own) the seat
        asked to disprove may correct a mistaken record, or clear it, before answering."""
        self._need(state, HANDS, REFUTE)
        if state.phase == REFUTE and state.mode == DIGITAL:
            raise msg.error("hand_dealt")
        size = state.hand_sizes[a.seat]
        if a.cards and (len(a.cards) != size or len(set(a.cards)) != size):
            raise msg.error("bad_hand", size=size)
        hands = tuple(tuple(a.cards) if i == a.seat else h for i, h in enumerate(state.hands))
        if state.phase == REFUTE:
            return Step(replace(state, hands=hands), (Event("hand_recorded", {"seat": a.seat}),))
        nxt = a.seat + 1
        if nxt < len(state.players):
            return Step(replace(state, hands=hands, asking=nxt), (Event("hand_recorded", {"seat": a.seat}),))
        return Step(replace(state, hands=hands, asking=-1, phase=START),
                    (Event("hand_recorded", {"seat": a.seat}), Event("turn", {"seat": state.turn})))

    def _do_roll_die(self, state: ClueState, a: RollDie) -> Step[ClueState]:
        self._need(state, START)
        return Step(replace(state, phase=ROLL), (Event("rolling", {"seat": a.seat}),))

    def _do_die_roll(self, state: ClueState, a: DieRoll) -> Step[ClueState]:
        self._need(state, ROLL)
        if not 1 <= a.value <= 6:
            raise msg.error("bad_die")
        return Step(replace(state, phase=MOVE, die=a.value), (Event("die", {"seat": state.turn, "value": a.value}),))

    def _move_token(self, state: ClueState, suspect: str, room: str) -> tuple[str, ...]:
        i = state.cards.ids(SUSPECT).index(suspect)
        return state.tokens[:i] + (room,) + state.tokens[i + 1:]

    def _do_enter_room(self, state: ClueState, a: EnterRoom) -> Step[ClueState]:
        self._need(state, MOVE)
        if a.room == state.left_room:
            raise msg.error("same_room")
        tokens = self._move_token(state, state.suspects[a.seat], a.room)
        return Step(replace(state, tokens=tokens, phase=IN_ROOM, may_suggest=True),
                    (Event("entered", {"seat": a.seat, "room": a.room}),))

    def _do_stay_out(self, state: ClueState, a: StayOut) -> Step[ClueState]:
        self._need(state, MOVE)
        tokens = self._move_token(state, state.suspects[a.seat], "")
        return Step(replace(state, tokens=tokens, phase=AFTER), (Event("corridor", {"seat": a.seat}),))

    def _do_use_passage(self, state: ClueState, a: UsePassage) -> Step[ClueState]:
        self._need(state, START)
        room = state.token_of(a.seat)
        to = state.cards.passage_from(room) if room else None
        if to is None:
            raise msg.error("no_passage")
        tokens = self._move_token(state, state.suspects[a.seat], to)
        return Step(replace(state, tokens=tokens, phase=IN_ROOM, may_suggest=True),
                    (Event("passage", {"seat": a.seat, "from": room, "room": to}),))

    def _do_trapped(self, state: ClueState, a: Trapped) -> Step[ClueState]:
        self._need(state, START)
        if not state.token_of(a.seat):
            raise msg.error("not_trapped")
        return self._end_turn(state, (Event("trapped", {"seat": a.seat}),))

    def _do_suggest(self, state: ClueState, a: Suggest) -> Step[ClueState]:
        self._need(state, START, IN_ROOM)
        room = state.token_of(a.seat)
        if not room:
            raise msg.error("not_in_room")
        if not self._may_suggest(state, a.seat):
            raise msg.error("already_suggested" if state.phase == IN_ROOM else "must_move")
        tokens = self._move_token(state, a.suspect, room)
        moved = set(state.moved) - {state.suspects[a.seat]}
        if a.suspect != state.suspects[a.seat] and tokens != state.tokens:
            moved.add(a.suspect)
        wi = state.cards.ids(WEAPON).index(a.weapon)
        weapons = state.weapons[:wi] + (room,) + state.weapons[wi + 1:]
        rec = SuggestionRecord(len(state.history) + 1, a.seat, a.suspect, a.weapon, room)
        st = replace(state, tokens=tokens, weapons=weapons, moved=frozenset(moved), may_suggest=False,
                     history=state.history + (rec,), phase=REFUTE)
        events = [Event("suggested", {"n": rec.n, "seat": a.seat, "suspect": a.suspect, "weapon": a.weapon,
                                      "room": room})]
        return self._ask(st, (a.seat + 1) % len(state.players), events)

    def _ask(self, state: ClueState, seat: int, events: list[Event]) -> Step[ClueState]:
        """Disproval goes clockwise from the suggester's left (CLUE-40); digital mode passes for those
        who hold none of the cards (CLUE-42) and stops at the first holder (CLUE-43)."""
        rec = state.history[-1]
        n = len(state.players)
        while seat != rec.seat:
            if state.mode == PHYSICAL or any(c in state.hands[seat] for c in rec.named):
                return Step(replace(state, asking=seat, phase=REFUTE), tuple(events))
            rec = replace(rec, passed=rec.passed + (seat,))
            events.append(Event("passed", {"n": rec.n, "seat": seat}))
            state = replace(state, history=state.history[:-1] + (rec,))
            seat = (seat + 1) % n
        rec = replace(rec, done=True)
        events.append(Event("nobody_showed", {"n": rec.n}))
        return Step(replace(state, history=state.history[:-1] + (rec,), asking=-1, phase=AFTER), tuple(events))

    def _do_show(self, state: ClueState, a: Show) -> Step[ClueState]:
        self._need(state, REFUTE)
        rec = state.history[-1]
        if state.mode == DIGITAL:
            if a.card not in rec.named:
                raise msg.error("not_named")
            if a.card not in state.hands[a.seat]:
                raise msg.error("not_holding")
        elif a.card:
            raise msg.error("not_named")
        rec = replace(rec, shown_by=a.seat, done=state.mode == DIGITAL)
        history = state.history[:-1] + (rec,)
        events = [Event("showed", {"n": rec.n, "seat": a.seat, "to": rec.seat})]
        if state.mode == DIGITAL:
            shown = state.shown + (ShownCard(rec.n, a.seat, rec.seat, a.card),)
            events.append(Event("card_shown", {"n": rec.n, "by": a.seat, "card": a.card},
                                frozenset({a.seat, rec.seat})))
            return Step(replace(state, history=history, shown=shown, asking=-1, phase=AFTER), tuple(events))
        return Step(replace(state, history=history, asking=-1, phase=NOTE), tuple(events))

    def _do_pass(self, state: ClueState, a: Pass) -> Step[ClueState]:
        self._need(state, REFUTE)
        if state.mode == DIGITAL:
            raise msg.error("must_show")
        rec = state.history[-1]
        if any(x in state.hands[a.seat] for x in rec.named):  # CLUE-41: the recorded hand holds one
            raise msg.error("must_show_recorded")
        rec = replace(rec, passed=rec.passed + (a.seat,))
        st = replace(state, history=state.history[:-1] + (rec,))
        events = [Event("passed", {"n": rec.n, "seat": a.seat})]
        return self._ask(st, (a.seat + 1) % len(state.players), events)

    def _do_note_shown(self, state: ClueState, a: NoteShown) -> Step[ClueState]:
        self._need(state, NOTE)
        rec = state.history[-1]
        if a.card and a.card not in rec.named:
            raise msg.error("not_named")
        shown = state.shown + ((ShownCard(rec.n, rec.shown_by, rec.seat, a.card),) if a.card else ())
        history = state.history[:-1] + (replace(rec, done=True),)
        events = (Event("noted", {"n": rec.n, "by": rec.shown_by, "card": a.card},
                        frozenset({a.seat, rec.shown_by})),) if a.card else ()
        return Step(replace(state, history=history, shown=shown, phase=AFTER), events)

    def _do_accuse(self, state: ClueState, a: Accuse) -> Step[ClueState]:
        self._need(state, *ACCUSE_PHASES)
        if a.seat in {x.seat for x in state.accusations}:
            raise msg.error("already_accused")
        rec = AccusationRecord(a.seat, a.suspect, a.weapon, a.room)
        ev = Event("accused", {"seat": a.seat, "suspect": a.suspect, "weapon": a.weapon, "room": a.room})
        if state.mode == PHYSICAL:
            return Step(replace(state, accusations=state.accusations + (rec,), phase=ACCUSE_CHECK), (ev,))
        return self._judge(state, rec, tuple(state.envelope) == rec.named, [ev])

    def _do_report_accusation(self, state: ClueState, a: ReportAccusation) -> Step[ClueState]:
        self._need(state, ACCUSE_CHECK)
        rec = state.accusations[-1]
        st = replace(state, accusations=state.accusations[:-1])
        return self._judge(st, rec, a.correct, [])

    def _judge(self, state: ClueState, rec: AccusationRecord, correct: bool,
               events: list[Event]) -> Step[ClueState]:
        rec = replace(rec, correct=correct)
        st = replace(state, accusations=state.accusations + (rec,))
        if correct:  # CLUE-51: the three cards are shown to everyone
            events.append(Event("accusation_right", {"seat": rec.seat, "cards": list(rec.named)}))
            return Step(replace(st, winner=rec.seat, over=True, phase=OVER, asking=-1), tuple(events))
        eliminated = st.eliminated | {rec.seat}
        st = replace(st, eliminated=eliminated)
        events.append(Event("accusation_wrong", {"seat": rec.seat}))
        if state.mode == DIGITAL:  # the accuser alone saw the envelope (CLUE-47)
            events.append(Event("envelope_seen", {"seat": rec.seat, "cards": list(state.envelope)},
                                frozenset({rec.seat})))
        if not st.token_of(rec.seat):  # CLUE-56: a token left in the corridors may block a door
            events.append(Event("clear_the_door", {"seat": rec.seat, "suspect": st.suspects[rec.seat]}))
        if len(eliminated) == len(st.players):  # CLUE-57 A: nobody wins, the envelope is revealed
            events.append(Event("everyone_out", {"cards": list(state.envelope)}))
            return Step(replace(st, over=True, phase=OVER, asking=-1), tuple(events))
        return self._end_turn(st, tuple(events))

    def _do_end_turn(self, state: ClueState, a: EndTurn) -> Step[ClueState]:
        self._need(state, IN_ROOM, AFTER)
        return self._end_turn(state, ())

    def _end_turn(self, state: ClueState, events: tuple[Event, ...]) -> Step[ClueState]:
        n = len(state.players)
        moved = state.moved - {state.suspects[state.turn]}
        nxt = state.turn
        for _ in range(n):
            nxt = (nxt + 1) % n
            if nxt not in state.eliminated:  # CLUE-53: a wrong accuser takes no more turns
                break
        st = replace(state, turn=nxt, phase=START, moved=moved, may_suggest=False, die=0, asking=-1,
                     left_room=state.token_of(nxt))
        return Step(st, events + (Event("turn", {"seat": nxt}),))

    # ------------------------------------------------------------ views
    def observe(self, state: ClueState, seat: int | None) -> View:
        c = state.cards
        named = {k: tuple(Named(x.id, x.ko, x.en) for x in cards)
                 for k, cards in (("suspects", c.suspects), ("weapons", c.weapons), ("rooms", c.rooms))}
        named["cards"] = named["suspects"] + named["weapons"] + named["rooms"]
        named["sets"] = (Named(c.id, c.ko, c.en),)
        game = view(state, seat)
        return self.make_view(state, seat, state.phase, game, catalogs=named,
                              mine=parts(game, c) if seat is not None else ())

    def table_offers(self, state: ClueState) -> tuple[Offer, ...]:
        """Show and pass are PRIVATE (a recorded hand decides them), except in physical mode for a seat that
        recorded no hand: nothing secret decides them, so the shared screen offers both (CLUE-41, CLUE-42)."""
        out = super().table_offers(state)
        seat = state.asking
        if state.phase == REFUTE and state.mode != DIGITAL and not state.hands[seat]:
            out += (Offer(seat, Show.NAME), Offer(seat, Pass.NAME))
        return out

    def secrets(self, state: ClueState) -> list[Secret]:
        return secrets(state)

    def hidden_variants(self, state: ClueState) -> list[tuple[ClueState, frozenset[int]]]:
        return hidden_variants(state)

    def outcome(self, state: ClueState) -> Outcome | None:
        if not state.over:
            return None
        if state.winner >= 0:
            return Outcome((state.winner,), "accusation", detail={"cards": list(state.accusations[-1].named)})
        return Outcome((), "everyone_out", detail={"cards": list(state.envelope)})


def _place_weapons(cards: CardSet, rng: random.Random) -> tuple[str, ...]:
    """Each weapon starts in a different room while rooms last (CLUE-09)."""
    rooms = list(cards.ids(ROOM))
    picks = rng.sample(rooms, min(len(rooms), len(cards.weapons)))
    while len(picks) < len(cards.weapons):
        picks.append(rooms[len(picks) % len(rooms)])
    return tuple(picks)


ENGINE = ClueEngine()
