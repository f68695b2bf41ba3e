"""Python's cycle collector, tuned for a UI that rebuilds widgets.

Kivy widgets live in reference cycles (parent ↔ children, bindings), so a screen's discarded widgets are
freed only by a full (generation-2) collection. With the default thresholds one ran every ~15 refreshes
and traversed every object of the process (~220,000: content, catalogs, screens): 180-280 ms of UI-thread
CPU in one frame (measured with gc.callbacks while refreshing game screens). `settle()`, once the kiosk is
up: one collection, then `gc.freeze()` moves what exists into the permanent generation (never traversed
again; what is in it is still freed by reference counting), and full collections run after every second
generation-1 one: each then frees about one refresh's garbage, 5-25 ms.
A frozen object that later becomes cyclic garbage stays until a thaw (below).
What the collector frees stays in glibc's heap unless given back: `settle()` also starts
`audio.heap.keep_trimming()`, its gate shut while the guests touch the screen (`may_trim`: TRIM_IDLE_S).
What the first visits would make and keep anyway (the game screens' modules and kv rules, the library, game
page and host frame: ~30,000 objects) is made first, one step per frame (`settle_after`), so it is frozen
too: made after the freeze, every full collection traversed it again (a full collection during play
14-40 → 3-14 ms of UI-thread CPU here, after visiting each game's screen).

When a full collection runs is the kiosk's choice (`IdleCollector`, started by `settle()`): Python's automatic
one landed in whichever frame crossed its threshold — the frame after a game's screen was thrown away, a tap's
frame (10-175 ms of UI-thread CPU here; the same frames without it 4-27 ms). Guests pause between taps (reading,
talking, passing the tablet), so the collector runs it on the UI thread once nobody has touched the screen for
`IDLE_S` nor spoken a command for `QUIET_S` and the screen has settled (`CALM_FRAMES` light frames, no
animation running), never while a finger is down or a touch waits in an input provider's queue. Bounded: after
`BOUND` generation-1 collections without such a moment (each ~1,400 net new container objects) it collects in the
next moment `QUIET_S` after a touch with no input pending, after a light frame with no piece or animation (unless
twice BOUND), and Python's own full collection comes back at `BACKSTOP`
should the UI thread's checks stop running (or the guests never stop touching). Generations 0 and 1 stay
automatic (young objects only: well under a millisecond).

A game's screen is frozen too, once its game is on: a full collection traverses every object not frozen, and a
game's screen is 20,000-50,000 of them (a Kivy widget is ~250: a storage and an observer list per property, its
bindings), so the pause collections during play cost 15-70 ms of UI-thread CPU here (Clue's ~60,000 live
objects 31 ms with nothing to free). Once a new game's screen is on show with its game on and settled, in the first
quiet moment (QUIET_S after a touch, settled frames: guests who never pause for IDLE_S at a game's start get it
too) the young generations are collected and everything not frozen is frozen (`gc.freeze()`, O(1)): later full
collections traverse only what was made since (bench/frames.py, same run, all four games: median 21 → 4 ms,
worst 63 → 27 ms). Until session 20 the screen was frozen after two full collections (one to free the
garbage, one for the cycles Kivy's size bookkeeping leaves when the first frees a widget): each traversed the new
screen, 25-37 ms of UI-thread CPU here (100-150 ms on a tablet four times slower), the last guests' frames over
25 ms in bench/frames.py; what a young collection leaves is older cyclic garbage, which the pauses' full collections
keep small (bench/frames.py: the first full collection on a new screen freed 0-213 objects at most, 17,600 at
some; a closed screen's widgets among them are taken apart in a pause and freed by reference counting, frozen or not).
The price: a frozen object that becomes cyclic garbage is never freed (a Kivy widget always is one: Label binds
its own methods; breaking parent links frees ~2 % of a closed screen), and `gc.get_objects()` does not list it.
So a closed screen is taken apart (kiosk/widgets/dismantle.py: observers unbound, properties let go of their
widget, children and canvases cleared, its helpers let go of it) in the next pause (`discard`): reference counting
then frees nearly all of it, frozen or not (0.99 of it for each game, 86-231 objects left cyclic; before the host
and its helpers let go, 0.62-0.94 and 600-7,400 left). So is a widget a screen's Keep replaced during play (a
location tile whose tokens changed, a button of another kind: `drop`), once nobody shows it again: before, these
were most of what a thaw freed (~5,000 objects per game's screen in bench/frames.py); and so is a dialog made for one
use once it has gone (kiosk/widgets/one_use.py).
Once what is left frozen reaches `THAW_AT` (`left_over`), a thaw — `gc.unfreeze()` (in 3.11 it releases
everything), collect, freeze again — frees it, off play only: no game's screen or set-up form on show, nobody
touched the screen for `THAW_IDLE_S` nor spoke a command (`note_voice`) for `IDLE_S`, settled, no input pending
(the game's page between two games, the attract screen after a turnover). It traverses every object: 150-280 ms
of UI-thread CPU here at 250,000-450,000 objects. So it waits for nobody at the table: the attract screen untouched
for `REST_IDLE_S` (guests reach it too, and stay a few seconds: bench/frames.py's guests had a thaw there, a
139 ms frame), or elsewhere off play `GUESTS_FACTOR` times as much left frozen. A screen still built when a thaw runs (left with its game on) is
frozen again by it; once it is gone (the next game's screen opened) the next thaw frees it. The screens are told
apart by a number given to each screen and game (`serial`).
Counting the frozen objects (`gc.get_freeze_count()`) walks the whole permanent generation: 20-30 ms of UI-thread
CPU here at 250,000 objects. It is never read during play (a freeze counts what it moves as the objects alive
after its collection, 1-3 ms), off play at most every COUNT_EVERY_S, and with guests at the table (the game's page,
the library) only once `estimate` (the closed screens' widgets that taking apart left alive) says a thaw could be worth
it: what the screens frozen since added passes what a thaw needs after three or four games, and counting then was a
25-37 ms frame on the game's page about once a game (bench/frames.py, session 23: 2 -> 0 such frames). (Until session 11 a budget of frozen
objects since the last thaw stopped freezing new screens: counted with closed screens long freed, it was spent
after 3-5 screens, and the pause collections traversed every screen since, 95-130 ms; two readings of the count
made each freeze's frame 40-55 ms slower.)
"""

from __future__ import annotations

import gc
import itertools
import logging
import time
import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from audio import heap

log = logging.getLogger(__name__)

IDLE_S = 1.0  # no touch for this long: the guests are reading, talking or passing the tablet
CALM_FRAMES, CALM_CPU = 3, 0.004  # idle also means the screen has settled: this many frames in a row, each
# with less UI-thread CPU than this (a slow frame after the tap, still laying out, is not a pause)
MIN_YOUNGER = 3  # generation-1 collections since the last full one worth a collection in a pause (a full one
# traverses every live object not frozen, whatever the garbage: 15-40 ms here)
BOUND = 25  # generation-1 collections since the last full one: then collect in the next quiet moment
QUIET_S = 0.3  # a quiet moment: this long since the last touch (the tap's own frames are drawn) and no input pending
BACKSTOP = 4 * BOUND  # Python's own automatic full collection, should the collector's checks stop
THRESHOLDS = (700, 2, BACKSTOP)
THAW_IDLE_S = 5.0  # off play and untouched this long: free the frozen screens closed since (a full traversal)
REST_IDLE_S = 30.0  # on the attract screen, untouched this long: guests reach it too (voice's "back" from the
# library, the home button) and stay there a few seconds; after a turnover nobody touches it for minutes
TAKE_APART_CPU = 0.003  # UI-thread CPU a frame for taking closed screens apart (a widget ~0.1 ms here)
THAW_AT = 30_000  # frozen objects left by closed screens (taken apart, not freed by refcounting) worth a thaw:
# ~7 MB here; a closed screen leaves 100-250. On the attract screen untouched for REST_IDLE_S (nobody at the
# table: after a turnover);
GUESTS_FACTOR = 4  # elsewhere off play (the game's page between two games, the library: guests there) a thaw
# needs this many times `thaw_at`: it is a 150-280 ms frame, so it waits for the attract screen unless frozen
# garbage piles up (~28 MB)
DROP_WAIT_S = 2.0  # a dropped widget still on show (a dialog fading out) is looked at again this long
TRIM_IDLE_S = 20.0  # the heap is given back to the system (audio/heap.py) once nobody touched the screen this long
# (reading, talking, a game's discussion, nobody at the table), or once the last trim is a minute old: what it gives
# back the next screen's frames fault in again, page by page. Voice commands do not hold it (what they free is mostly
# the decoders' own, on their threads)
COUNT_EVERY_S = 60.0  # off play, the frozen objects are counted (`left_over`) at most this often: counting walks
# the whole permanent generation, 20-30 ms of UI-thread CPU here at 250,000 objects (never during play)
WIDGET_OBJECTS = 250  # a Kivy widget left alive after being taken apart holds about this many objects (a storage and
# an observer list per property, its bindings): what `estimate` counts for each
SCREEN_LEFT = 500  # and for each closed game's screen, what its taking apart leaves in cycles besides widgets (86-231
# objects measured for each game's screen, session 10)


def input_pending() -> bool:
    """A finger on the screen, or a touch or key waiting in an input provider's queue (read at the start of a
    frame, before the frame dispatches them)."""
    from kivy.base import EventLoop

    if any(getattr(me, "is_touch", False) for me in EventLoop.me_list):
        return True
    return any(getattr(p, "waiting_event", None) or getattr(p, "queue", None) for p in EventLoop.input_providers)


def animating() -> bool:
    """An animation on screen (a screen sliding in, a dialog opening, a toast fading), or a screen built a piece a
    frame (kiosk/widgets/pieces.py): a collection would stall it."""
    from kivy.animation import Animation

    from kiosk.widgets.pieces import building

    return bool(getattr(Animation, "_instances", ())) or building()


def game_screen() -> tuple[Hashable | None, str]:
    """The game's screen built in the host frame (a key: its widget and its game, None without one), and what
    is on show: "play" (that screen, its game on), "set-up" (that screen, its set-up form), "rest" (the attract
    screen: nobody at the table) or "" (another)."""
    from kivy.app import App

    sm = getattr(App.get_running_app(), "sm", None)
    if sm is None:
        return None, ""
    rest = "rest" if sm.current == "attract" else ""
    if not sm.has_screen("host"):
        return None, rest
    host = sm.get_screen("host")
    widget, ctx = host.host_widget, host.ctx
    if widget is None:
        return None, rest
    table = getattr(ctx, "table", None)
    playing = table is not None and ctx.playing
    shown = rest if sm.current != "host" else "set-up" if not playing else "play"
    return (serial(widget), serial(table.journal if table is not None and playing else None)), shown


_SERIALS = itertools.count(1)


def _none() -> None:
    return None


def _widget_of(key: Hashable) -> Hashable:
    """A game screen's key without its game: the same through the set-up and the game (`game_screen`'s pair)."""
    return key[0] if isinstance(key, tuple) else key


def serial(obj: Any) -> int:
    """A number of `obj`'s own, never another's (an id() is reused once an object is freed: a closed screen taken
    apart is freed at once, and the next screen and its game took its addresses)."""
    if obj is None:
        return 0
    n = getattr(obj, "_gc_serial", None)
    if n is None:
        n = next(_SERIALS)
        obj._gc_serial = n
    return int(n)


class IdleCollector:
    """Full collections in the moments nobody waits for the screen, a game's screen frozen once its game is on,
    and thawed off play (see the module's docstring)."""

    def __init__(self, idle_s: float = IDLE_S, bound: int = BOUND, clock: Callable[[], float] = time.monotonic,
                 pending: Callable[[], bool] = input_pending,
                 counts: Callable[[], tuple[int, int, int]] = gc.get_count,
                 collect: Callable[[], Any] = gc.collect, cpu: Callable[[], float] = time.thread_time,
                 collect_young: Callable[[], Any] = lambda: gc.collect(1),
                 moving: Callable[[], bool] = animating,
                 screen: Callable[[], tuple[Hashable | None, str]] = game_screen,
                 freeze: Callable[[], Any] = gc.freeze, unfreeze: Callable[[], Any] = gc.unfreeze,
                 frozen: Callable[[], int] = gc.get_freeze_count,
                 unfrozen: Callable[[], int] = lambda: len(gc.get_objects()),
                 thaw_idle_s: float = THAW_IDLE_S, thaw_at: int = THAW_AT, rest_idle_s: float = REST_IDLE_S,
                 take_apart: Callable[[Any], Any] | None = None) -> None:
        self.idle_s, self.bound, self.clock, self.pending, self.counts = idle_s, bound, clock, pending, counts
        self.collect, self.collect_young, self.cpu, self.moving = collect, collect_young, cpu, moving
        self.screen, self.freeze, self.unfreeze, self.frozen = screen, freeze, unfreeze, frozen
        self.unfrozen, self.thaw_idle_s, self.thaw_at = unfrozen, thaw_idle_s, thaw_at
        self.thaw_at_guests, self.rest_idle_s = GUESTS_FACTOR * thaw_at, rest_idle_s
        self.take_apart = take_apart
        self.closed: list[list[Any]] = []  # closed screens' widgets (weak), to take apart in a pause (`discard`)
        self.dropped: list[tuple[Any, Any, float]] = []  # (widget, its Keep, when), both weak: `drop`
        self.last_input = clock()
        self.last_voice = self.last_input - idle_s  # a guest's voice command (`note_voice`)
        self._cpu = cpu()
        self.calm = 0  # frames in a row with less than CALM_CPU of UI-thread CPU
        self.collected = {"idle": 0, "bound": 0, "froze": 0, "thaw": 0, "taken apart": 0}
        self.base = frozen()  # frozen objects after the last thaw (or the start-up freeze)
        self._counted = (-1e9, 0)  # (when, gc.get_freeze_count()) for `left_over`
        # the game screens frozen since the last thaw (each once): how many objects each freeze added
        self.frozen_keys: dict[Hashable, int] = {}
        self.taken: list[Any] = []  # the widgets taken apart since the last thaw and not freed yet (weak): `estimate`
        self.screens_closed = 0  # game screens closed since the last thaw
        self._collected_on: Any = None  # the game's screen built at the last full collection (its widget's number)
        self._event: Any = None
        self._thresholds = gc.get_threshold()

    def note_input(self, *_args: Any) -> None:
        """A touch or a key: the guests are busy with the screen."""
        self.last_input = self.clock()

    def note_voice(self) -> None:
        """A guest's voice command: busy for QUIET_S (its answer drawn by then: a toast, a screen opened; the
        calm frames cover a longer one), for `idle_s` before a thaw, and not for the thaw's longer quiet (with
        commands every ~1.5 s, bench/frames.py's pace, a thaw never came: the freeze budget stayed spent and
        every collection during play traversed the live screens, 40-80 ms here). Until session 21 a command was
        busy for `idle_s` like a touch: at that pace no pause came, the garbage reached BOUND and its collection
        traversed all made since the screen's freeze, 26-28 ms of UI-thread CPU in one pause frame (Mr. Jack).
        A command while a thaw runs waits for it as for any frame; its answer takes longer than that anyway
        (decoding)."""
        self.last_voice = self.clock()

    def may_trim(self) -> bool:
        """Whether the heap may be trimmed now (audio/heap.py's gate; any thread): nobody has touched the screen for
        TRIM_IDLE_S."""
        return self.clock() - self.last_input >= TRIM_IDLE_S

    def _on_motion(self, _window: Any, _etype: str, me: Any) -> None:
        if getattr(me, "is_touch", False):  # not a mouse's hover
            self.note_input()

    def discard(self, widgets: list[Any]) -> None:
        """A game's screen closed for good: its widgets (parents first) are taken apart in the next pauses.
        Held weakly: what is not frozen is freed by the next collection anyway (held, every closed screen stayed
        alive until a pause came: with a voice command every second, never; bench/memory.py grew 680 -> 780 MB)."""
        self.closed.append([weakref.ref(w) for w in widgets])
        self.screens_closed += 1

    def drop(self, widget: Any, keep: Any) -> None:
        """A widget (or group) a game's screen kept and replaced (kiosk/widgets/keep.py): taken apart in a pause
        if nobody has shown it again by then (`take_closed`). Made before the screen was frozen, it is frozen
        cyclic garbage otherwise, freed only by a thaw (bench/frames.py: most of what a thaw freed, ~5,000
        objects per game screen)."""
        self.dropped.append((weakref.ref(widget), weakref.ref(keep) if keep is not None else _none, self.clock()))

    def left_over(self, key: Hashable | None, fresh: bool = True) -> int:
        """Frozen objects since the last thaw, but the game's screen still built (`key`): mostly what closed
        screens left (each taken apart, the rest of it cyclic). Not `fresh`: counted at most every COUNT_EVERY_S,
        and again after a screen's freeze (counting walks the whole permanent generation: 20-30 ms of UI-thread CPU
        here at 250,000 objects, and the check runs every frame off play)."""
        now = self.clock()
        if fresh or now - self._counted[0] >= COUNT_EVERY_S:
            self._counted = (now, self.frozen())
        return self._counted[1] - self.base - self.frozen_keys.get(key, 0)

    def estimate(self) -> int:
        """What the closed screens left frozen, without counting them: the widgets taken apart that reference counting
        has not freed (cyclic garbage, `WIDGET_OBJECTS` each) and `SCREEN_LEFT` for each game's screen closed. The
        count (`left_over`) walks every frozen object, 25-37 ms of UI-thread CPU here at 300,000: with guests at the
        table it is read only once this says a thaw could be worth it."""
        self.taken = [r for r in self.taken if r() is not None]
        return len(self.taken) * WIDGET_OBJECTS + self.screens_closed * SCREEN_LEFT

    def due(self) -> str:
        """What to do now: "take apart" closed screens, "thaw", a full collection ("idle", "bound"), or ""
        (nothing new to collect, input pending, or the guests are busy and the garbage still small)."""
        if self.pending():
            return ""
        younger = self.counts()[2]  # generation-1 collections since the last full one
        now = self.clock()
        untouched, voiced = now - self.last_input, now - self.last_voice
        quiet = min(untouched, voiced)
        moving = self.moving()
        calm = self.calm >= CALM_FRAMES and not moving
        settled = calm and untouched >= self.idle_s and voiced >= QUIET_S  # a command's answer is drawn by then
        quick = calm and quiet >= QUIET_S  # a quiet moment: enough for a new game's screen (below)
        if (self.closed or self.dropped) and settled:
            return "take apart"
        if self.frozen_keys and settled and voiced >= self.idle_s and untouched >= self.thaw_idle_s:
            key, shown = self.screen()
            # a frozen screen is gone, and what closed screens left frozen is worth a traversal of everything
            rest = shown == "rest" and untouched >= self.rest_idle_s  # nobody at the table
            worth = self.thaw_at if rest else self.thaw_at_guests
            # what the screens frozen since, but this one, added at their freezes: the most they can have left (the
            # count, a walk of every frozen object, only once that could be worth a thaw; a screen kept through the
            # last thaw is in `base`, not here: its leftovers wait for the next screens' to add up); with guests
            # at the table, only once the estimate says so too (the bound is passed after three or four games)
            bound = sum(n for k, n in self.frozen_keys.items() if k != key)
            if shown in ("", "rest") and self.frozen_keys.keys() - {key} and bound >= worth \
                    and (rest or self.estimate() >= worth) and self.left_over(key, fresh=False) >= worth:
                return "thaw"
        if quick and self.fresh_screen():
            return "freeze"  # a new game's screen, without a full collection's traversal of it (below)
        if younger == 0:
            return ""
        if settled and younger >= MIN_YOUNGER:
            return "idle"
        if younger < self.bound or quiet < QUIET_S:
            return ""
        if younger < 3 * self.bound and self.fresh_screen() and self.collected_since_open():
            # what was made since is the new screen's own (its pieces, 19-132 objects of garbage at its freeze in
            # bench/frames.py): frozen in the first quiet moment (above), not traversed whole by the bound (Spyfall's
            # 60,000 objects while its pieces came: a 31 ms pause frame; Mr. Jack's 53 ms). Without a collection
            # since it opened (play without pauses), the bound frees what piled up before it is frozen with it
            # (bench/memory.py: 150,000 more frozen objects, peak 649 -> 684 MB when the bound always waited)
            return ""
        # not with a screen's next piece or an animation in the frame (a 27 ms collection beside a piece of Mr.
        # Jack's suspects: 35 ms), unless they never stop
        return "bound" if (self.calm and not moving) or younger >= 2 * self.bound else ""

    def collected_since_open(self) -> bool:
        """A full collection ran while the game's screen now built was (in its set-up or its game)."""
        key = self.screen()[0]
        return key is not None and self._collected_on == _widget_of(key)

    def fresh_screen(self) -> bool:
        """A game's screen on show with its game on, not frozen yet."""
        key, shown = self.screen()
        return shown == "play" and key not in self.frozen_keys

    def tick(self, _dt: float = 0.0) -> str:
        """Once a frame, at its start: how busy the last frame was, and a full collection if one is due."""
        cpu = self.cpu()
        self.calm = self.calm + 1 if cpu - self._cpu < CALM_CPU else 0
        why = self.due()
        if why == "take apart":
            self.take_closed()
        elif why == "thaw":
            self.thaw()
        elif why == "freeze":
            self.freeze_screen()
        elif why:
            self.collect()
            self.collected[why] += 1
            key = self.screen()[0]
            self._collected_on = _widget_of(key) if key is not None else None
        self._cpu = self.cpu()
        return why

    def freeze_screen(self) -> bool:
        """A new game's screen on show with its game on: frozen once, after a collection of the young generations
        only (what the last frames made and dropped: well under a millisecond), not a full one (it traversed the
        new screen, 30,000-60,000 objects: 25-37 ms of UI-thread CPU here, the last guests' frames over 25 ms).
        What it freezes is counted before (`len(gc.get_objects())`, 1-3 ms here), not read after as the frozen
        count (two readings were 40-55 ms of the frame). Cyclic garbage older than the young generations is frozen
        with it: the pauses' full collections keep it small, and a closed screen's widgets, frozen or not, are
        taken apart (`discard`) and freed by reference counting; the rest waits for a thaw, whose count of what is
        left frozen includes it once the screen is gone. (Freezing it again once 30,000 objects were made on it
        since, a Clue notebook open over it, was tried: more was left frozen, 671,000 objects at the end of
        bench/frames.py against 474,000, and the pause frames were no better.)"""
        key, shown = self.screen()
        if shown != "play" or key in self.frozen_keys:
            return False
        self.collect_young()
        added = self.unfrozen()
        self.freeze()
        self._counted = (-1e9, 0)  # counted again off play, once the closed screens are taken apart
        self.frozen_keys[key] = added
        self.collected["froze"] += 1
        return True

    def thaw(self) -> None:
        """Off play: everything back into the collected generations, the screens closed since freed, the rest
        frozen again."""
        self.unfreeze()
        self.collect()
        self.base = self.unfrozen()  # all of it, frozen next
        self.freeze()
        self.collected["thaw"] += 1
        self._counted = (self.clock(), self.base)
        key = self.screen()[0]  # a game's screen still built (left with its game on) was frozen again
        self.frozen_keys = {key: 0} if key is not None else {}
        self.taken, self.screens_closed = [], 0

    def take_closed(self) -> None:
        """Take apart the screens closed since (kiosk/widgets/dismantle.py), children first, for at most
        TAKE_APART_CPU: the rest in the next settled frame."""
        take_apart = self.take_apart
        if take_apart is None:
            from kiosk.widgets.dismantle import take_apart as default
            take_apart = default
        end = self.cpu() + TAKE_APART_CPU
        self._gather_dropped()
        while self.closed:
            widgets = self.closed[0]
            while widgets:
                if self.cpu() >= end:
                    return
                ref = widgets.pop()
                w = ref()
                if w is None:  # freed meanwhile (it was not frozen)
                    continue
                try:
                    take_apart(w)
                except Exception:
                    log.exception("a closed widget could not be taken apart")
                self.taken.append(ref)
            w = None
            self.closed.pop(0)
            self.taken = [r for r in self.taken if r() is not None]  # most freed at once by reference counting
            self.collected["taken apart"] += 1

    def _gather_dropped(self) -> None:
        """The widgets dropped since, that nobody shows again (no parent now), with what is inside them, into
        `closed`; left out: what a Keep holds now (a kept child no refresh has used since), what a Shelf lends,
        a kept set-up form."""
        from kiosk.widgets.dismantle import unshown_inside

        todo, self.dropped = self.dropped, []
        now = self.clock()
        for ref, keep_ref, when in todo:
            w, keep = ref(), keep_ref()
            if w is not None and w.parent is not None and now - when < DROP_WAIT_S:
                self.dropped.append((ref, keep_ref, when))  # a dialog still fading out: looked at again
                continue
            if w is None or w.parent is not None:
                continue
            ws = unshown_inside(w, keep.holds() if keep is not None else set())
            if ws:
                self.closed.append([weakref.ref(x) for x in ws])

    def install(self) -> IdleCollector:
        """Python's automatic full collections only as the backstop; this one looks at the start of every frame."""
        from kivy.clock import Clock
        from kivy.core.window import Window

        self._thresholds = gc.get_threshold()
        gc.set_threshold(*THRESHOLDS)
        Window.bind(on_motion=self._on_motion, on_key_down=self.note_input)
        self._event = Clock.schedule_interval(self.tick, 0)
        return self

    def uninstall(self) -> None:
        from kivy.core.window import Window

        if self._event is not None:
            self._event.cancel()
            self._event = None
        Window.unbind(on_motion=self._on_motion, on_key_down=self.note_input)
        gc.set_threshold(*self._thresholds)
        heap.gate(None)


COLLECTOR: IdleCollector | None = None


def discard(widgets: list[Any]) -> None:
    """A game's screen closed for good: its widgets taken apart (kiosk/widgets/dismantle.py) in the next pause,
    or now without the idle collector."""
    if COLLECTOR is not None:
        COLLECTOR.discard(widgets)
        return
    from kiosk.widgets.dismantle import dismantle

    dismantle(widgets)


def drop(widget: Any, keep: Any) -> None:
    """A game's screen's Keep replaced `widget`, or a one-use dialog has gone (see `IdleCollector.drop`); without the
    idle collector nothing is frozen and Python's own collections free it."""
    if COLLECTOR is not None:
        COLLECTOR.drop(widget, keep)


def note_voice() -> None:
    """A guest's voice command (the Window does not see it): the guests are busy with the screen."""
    if COLLECTOR is not None:
        COLLECTOR.note_voice()


def settle() -> int:
    """Collect, freeze, and hand full collections to the idle collector; returns how many objects were frozen."""
    global COLLECTOR
    gc.collect()
    gc.freeze()
    if COLLECTOR is None:
        COLLECTOR = IdleCollector().install()
    COLLECTOR.base = gc.get_freeze_count()
    heap.gate(COLLECTOR.may_trim)
    heap.keep_trimming()
    return gc.get_freeze_count()


def settle_after(steps: Iterable[Callable[[], Any]], done: Callable[[int], Any] | None = None) -> None:
    """Run `steps` on the UI thread, one per frame (a failing step is logged and skipped), then `settle()`;
    `done(frozen)` after it."""
    from kivy.clock import Clock

    todo = iter(steps)

    def step(_dt: float) -> None:
        for fn in todo:
            try:
                fn()
            except Exception:
                log.exception("warm-up step %r failed", fn)
            Clock.schedule_once(step, 0)
            return
        frozen = settle()
        if done is not None:
            done(frozen)

    Clock.schedule_once(step, 0)
