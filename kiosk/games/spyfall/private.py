"""The Spyfall screen's private moments: each seat's own card while the tablet goes round, the claims whose
legality is a seat's secret (the Joker's reveal, a one-shot, God's Pride) on that seat's own screen, and
sealed ballots. Everything here is built from that seat's view and legal actions only (its phone, when
connected, takes the moment instead: HostContext.private)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from engines.core import Action
from engines.spyfall import actions as A
from engines.spyfall.views import RoundView, SpyView
from kiosk.flows.screen import GameScreen, closing
from kiosk.games.spyfall.panels import note, player_grid, private_card, title
from kiosk.widgets.buttons import button
from kiosk.widgets.theme import BODY, LEAD


class SpyPrivate(GameScreen[SpyView]):
    """The private moments of the Spyfall screen (SpyfallHost, which keeps `card_seen`)."""

    GAME, VIEW = "spyfall", SpyView
    card_seen: tuple[int, set[int]]

    @staticmethod
    def now(view: SpyView) -> RoundView:
        """The round under way (a game on the table always has one)."""
        assert view.round is not None
        return view.round

    def show_cards(self, seat: int, chain: bool = True) -> None:
        """Pass the tablet: `seat` holds to see their own card; with `chain`, then the next seat."""
        if not self.ctx.playing:
            return  # the game ended while the tablet was going round
        names = self.names()
        if seat >= len(names):
            return
        mine = self.seen(seat)  # this seat's own view only
        me, prank = mine.me, mine.settings.prank

        def content(_done: Callable[[], None]) -> Widget:
            return private_card(me, self.ctx.tr, self.ctx.lang, prank)

        def done() -> None:
            fresh = seat not in self.card_seen[1]
            self.card_seen[1].add(seat)
            if chain:
                self.ctx.later(lambda: self.show_cards(seat + 1), 0.35)
            if fresh and len(self.card_seen[1]) >= len(names):
                self.refresh(None)  # everyone has seen their card: the clock may start

        self.ctx.private(names[seat], content, done, "reveal")

    def claim(self, seat: int, purpose: str) -> None:
        """A move whose legality is a secret (the Joker's reveal, a one-shot, God's Pride) is offered only on
        the seat's private channel: their own card, the button if the engine lists the move for them, else
        a line saying why; either way a way back. The table sees nothing unless the move is made."""
        cls = A.RevealJoker if purpose == "reveal" else A.UseAbility
        name = self.names()[seat]

        def content(done: Callable[[], None]) -> Widget:
            mine = self.seen(seat)  # this seat's own view only
            box = BoxLayout(orientation="vertical", spacing=dp(12))
            box.add_widget(private_card(mine.me, self.ctx.tr, self.ctx.lang, mine.settings.prank))
            if any(type(a) is cls for a in self.running.legal(seat)):
                button(box, self.tr(f"claim.{purpose}_go"), "spy_claim_go",
                       lambda: self.send(cls(seat), self.tr(f"ask.claim_{purpose}"), danger=True,
                                         then=closing(done)), kind="danger", height=80)
            else:
                note(box, self.tr(f"claim.{purpose}_no"), BODY)
            button(box, self.tr("claim.back"), "spy_claim_back", done, kind="ghost", height=64)
            return box

        self.ctx.private(name, content, None, "input", seat=seat)

    def route_private(self, action: Action) -> bool:
        """Voice (a shared channel) asks for a move whose legality is a secret: hand it to its owner."""
        digital = self.ctx.playing and self.seen().settings.deal == "digital"
        if isinstance(action, A.RevealJoker) and digital:
            self.claim(action.seat, "reveal")
            return True
        if isinstance(action, A.UseAbility) and action.seat >= 0:
            phase = self.now(self.seen()).phase
            self.claim(action.seat, "pride" if phase == "pride" else "ability")
            return True
        return False

    def _next_voter(self, ballot: Callable[[int, Callable[[], None]], Widget], again: Callable[[], None]) -> None:
        """A sealed vote: pass the tablet to the next seat still to vote; `ballot(seat, done)` is what it
        sees alone; `again` runs once it closes (for the seat after)."""
        vote = self.now(self.seen()).vote
        if vote is None or not vote.sealed:
            return
        left = [x for x in vote.eligible if x not in vote.voted]
        if left:
            seat = left[0]
            self.ctx.private(self.names()[seat], lambda done: ballot(seat, done),
                             lambda: self.ctx.later(again, 0.35), "input")

    def sealed_ballots(self, question: str) -> None:
        """Pass the tablet to each voter still to vote; each taps yes or no alone."""
        def content(seat: int, done: Callable[[], None]) -> Widget:
            box = BoxLayout(orientation="vertical", spacing=dp(16))
            title(box, question, LEAD)
            row = BoxLayout(size_hint_y=None, height=dp(110), spacing=dp(20))
            choices = ((True, "vote.yes_button", "spy_ballot_yes"), (False, "vote.no_button", "spy_ballot_no"))

            def vote(yes: bool) -> None:
                self.send(A.VoteYesNo(seat, yes), self.tr("ask.ballot_yes" if yes else "ask.ballot_no"),
                          then=closing(done))

            for yes, key, tid in choices:
                button(row, self.tr(key), tid, partial(vote, yes), kind="primary" if yes else "normal", height=110)
            box.add_widget(row)
            return box

        self._next_voter(content, lambda: self.sealed_ballots(question))

    def sealed_points(self) -> None:
        """Pass the tablet to each pointer still to point; each taps a player alone."""
        names = self.names()

        def content(seat: int, done: Callable[[], None]) -> Widget:
            box = BoxLayout(orientation="vertical", spacing=dp(16))
            title(box, self.tr("points.who"), LEAD)
            targets = [a.target for a in self.running.legal(seat) if isinstance(a, A.PointAt)]
            player_grid(box, names, lambda t: self.send(
                A.PointAt(seat, t), self.tr("ask.point", name=names[t]), then=closing(done)),
                "spy_ballot", targets)
            box.add_widget(Widget())
            return box

        self._next_voter(content, self.sealed_points)
