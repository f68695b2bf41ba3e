"""kiosk.gc_policy.IdleCollector's thaws: off play, once what closed screens left frozen is worth a traversal of
every object, never under a finger; the frozen count (a walk of every frozen object) read only when it could matter."""

from __future__ import annotations

from typing import Any

from kiosk import gc_policy
from kiosk.gc_policy import IDLE_S, THAW_IDLE_S
from tests.kiosk.gc_fake import Fake, Named


def test_a_thaw_runs_off_play_once_a_frozen_screen_is_gone_and_never_under_a_finger() -> None:
    f = Fake()
    c = f.collector()
    f.show("game A")
    f.frames(c, IDLE_S + 0.2)
    assert c.collected["froze"] == 1
    f.shown = ""  # back to the game's page with the game on: the screen is kept, its objects alive
    c.note_input()
    assert "thaw" not in f.frames(c, THAW_IDLE_S * 3)
    f.show("game B")  # the next game's screen: A's is gone (its frozen objects are garbage nobody traverses)
    c.note_input()
    assert "thaw" not in f.frames(c, THAW_IDLE_S * 3) and c.collected["froze"] == 2  # never during play
    f.shown = "set-up"
    assert "thaw" not in f.frames(c, THAW_IDLE_S * 3)  # nor while the guests fill in a set-up form
    f.key, f.shown = None, ""  # a table turnover: no game's screen
    c.note_input()
    assert "thaw" not in f.frames(c, THAW_IDLE_S - 0.1)
    f.pending = True
    assert "thaw" not in f.frames(c, 1)
    f.pending = False
    f.moving = True
    assert "thaw" not in f.frames(c, 1)
    f.moving = False
    assert f.frames(c, 1 / 60) == ["thaw"] and f.thawed == 1 and f.young == 0
    assert c.base == f.frozen and set(f.frames(c, 60)) == {""}  # nothing frozen since: no thaw again


def test_a_screen_kept_through_a_thaw_is_thawed_once_it_is_gone() -> None:
    f = Fake()
    c = f.collector()
    f.show("game A")
    f.frames(c, IDLE_S + 0.2)
    f.show("game B")
    f.frames(c, IDLE_S + 0.2)
    f.shown = ""  # B left with its game on; A gone
    assert "thaw" in f.frames(c, THAW_IDLE_S + 0.2) and f.thawed == 1
    assert set(f.frames(c, THAW_IDLE_S * 2)) == {""}  # B is still built: thawing again would free nothing
    f.shown = "play"
    f.frames(c, IDLE_S * 2)
    assert c.collected["froze"] == 2  # B back on show: frozen by the thaw already
    f.show("game C")
    f.frames(c, IDLE_S + 0.2)
    f.shown = ""
    assert "thaw" in f.frames(c, THAW_IDLE_S + 0.2) and f.thawed == 2


def test_closed_screens_are_taken_apart_in_a_pause_and_a_thaw_waits_for_what_they_left_frozen() -> None:
    """A closed screen taken apart (kiosk/widgets/dismantle.py) is mostly freed by reference counting, frozen or
    not: its widgets are handed over when it closes and taken apart in the next pause, never under a finger;
    a thaw (a traversal of every object) runs only once what closed screens left frozen reaches `thaw_at`."""
    f = Fake()
    taken: list[Any] = []
    c = f.collector(thaw_at=20_000, take_apart=lambda w: taken.append(w.name))
    f.show("game A")
    f.frames(c, IDLE_S + 0.2)
    assert c.frozen_keys == {"game A": 30_000}
    f.show("game B")  # A's screen closed: handed over
    held = [Named("A's screen"), Named("a widget in it")]  # frozen: alive until taken apart
    c.discard(held)
    c.note_input()
    assert "take apart" not in f.frames(c, IDLE_S - 0.1) and not taken  # the guests are busy
    f.pending = True
    assert "take apart" not in f.frames(c, 1) and not taken
    f.pending = False
    assert "take apart" in f.frames(c, 1 / 60) and taken == ["a widget in it", "A's screen"] and not c.closed
    f.frames(c, IDLE_S)
    assert c.frozen_keys == {"game A": 30_000, "game B": 30_000} and f.frozen == 61_000
    f.frozen -= 25_000  # taken apart, most of A was freed by reference counting, frozen as it was
    f.shown = ""  # B left with its game on; A gone, 5,000 of it left frozen (cycles inside its own objects)
    c.note_input()
    assert c.left_over("game B") == 5_000 and "thaw" not in f.frames(c, THAW_IDLE_S * 3)
    f.frozen += 16_000  # what more closed screens left (counted again within COUNT_EVERY_S: it walks them all)
    # guests on the game's page: a thaw (a 150-280 ms frame) waits for 4x as much; on the attract screen it runs
    assert "thaw" not in f.frames(c, gc_policy.COUNT_EVERY_S) and c.left_over("game B") == 21_000
    f.shown = "rest"  # the attract screen: guests reach it too (voice's "back" from the library), and touch it
    c.note_input()
    assert "thaw" not in f.frames(c, gc_policy.REST_IDLE_S - 0.1) and f.thawed == 0
    assert "thaw" in f.frames(c, 0.2) and f.thawed == 1  # nobody at the table


def test_off_play_the_frozen_count_is_read_once_a_minute() -> None:
    """gc.get_freeze_count() walks the whole permanent generation (20-30 ms of UI-thread CPU at 250,000 objects
    here): off play, waiting for enough left-over to thaw, the collector reads it every COUNT_EVERY_S, not every
    frame (~480 readings in 8 s before session 10, 8 in session 10), and not at all while what the screens frozen
    since added (but the one still built) is less than a thaw needs: they cannot have left more (a 20-26 ms "away"
    frame on the game's page between two games, bench/frames.py, session 22). Nobody at the table (the attract screen
    untouched for REST_IDLE_S), that bound is enough to count."""
    f = Fake()
    c = f.collector(thaw_at=20_000)  # a thaw on the attract screen nobody touches needs 20,000 left frozen
    reads = []
    c.frozen = lambda: reads.append(1) or f.frozen
    f.show("game A", objects=15_000)
    f.frames(c, IDLE_S + 0.2)
    f.show("game B")
    f.frames(c, IDLE_S + 0.2)
    f.shown = "rest"
    reads.clear()
    f.frames(c, gc_policy.REST_IDLE_S + gc_policy.COUNT_EVERY_S + 3)
    assert reads == []  # A added 15,000: it cannot have left 20,000
    f.show("game C")
    f.frames(c, IDLE_S + 0.2)
    f.frozen -= 29_000  # B's screen freed but 1,500 of it (taken apart: reference counting)
    f.shown = "rest"
    f.frames(c, gc_policy.REST_IDLE_S + gc_policy.COUNT_EVERY_S + 3)
    assert len(reads) == 2 and f.thawed == 0  # as soon as it may thaw, and a minute later: never enough


def test_with_guests_at_the_table_the_frozen_count_waits_for_what_closed_screens_visibly_left() -> None:
    """On the game's page between two games, after three or four games what the frozen screens added passes what a
    thaw needs there (GUESTS_FACTOR times `thaw_at`), yet they left 0.5 % of it: the count, a 25-37 ms "away" frame
    once a game in bench/frames.py (session 23), is read only once `estimate` (the closed screens' widgets that
    taking apart did not free, and a little for each closed screen) says a thaw could be worth it."""
    f = Fake()
    c = f.collector(thaw_at=5_000, take_apart=lambda w: None)  # a thaw on the game's page needs 20,000 left
    reads = []
    c.frozen = lambda: reads.append(1) or f.frozen
    f.show("game A")
    f.frames(c, IDLE_S + 0.2)
    class Widget:  # no cycle: freed by reference counting once the screen lets go
        pass

    freed = [Widget() for _ in range(200)]
    c.discard(freed)  # A's screen closed: taken apart, freed by reference counting
    f.show("game B")
    f.frames(c, IDLE_S + 0.2)
    del freed
    f.frozen -= 29_000
    f.shown = ""
    f.frames(c, THAW_IDLE_S + gc_policy.COUNT_EVERY_S + 3)
    assert reads == [] and c.estimate() == gc_policy.SCREEN_LEFT  # A added 30,000, left 1,000
    kept = [Named(str(i)) for i in range(100)]  # alive after being taken apart: cycles it did not break
    c.discard(kept)
    f.show("game C")
    f.frames(c, IDLE_S + 0.2)
    f.frozen -= 12_000  # B's screen taken apart: 18,000 of it left (its widgets' cycles)
    f.shown = ""
    f.frames(c, THAW_IDLE_S + gc_policy.COUNT_EVERY_S + 3)
    assert c.estimate() == 100 * gc_policy.WIDGET_OBJECTS + 2 * gc_policy.SCREEN_LEFT
    assert len(reads) == 2 and f.thawed == 0  # read as soon as it may thaw and a minute later: 19,000 left
    f.frozen += 1_000  # more left (a Keep's dropped widgets taken apart): 20,000, enough
    reads.clear()
    assert "thaw" in f.frames(c, gc_policy.COUNT_EVERY_S) and len(reads) == 1
    assert c.estimate() == 0 and not c.taken  # the thaw freed them all
