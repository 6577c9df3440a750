"""From per-frame card readings to debounced table events: a card landed, a zone cleared.

States of one seat zone (``ZoneTracker``):

    EMPTY --(the same card read, still and sure, in ``land_frames`` of the last ``window``
             frames)--> HOLDS card: emits CardLanded once
    HOLDS --(nothing in the zone for ``clear_frames`` frames, or the whole table looks as it
             did empty: swept)--> EMPTY: emits ZoneCleared
    HOLDS --(another card lands the same way)--> HOLDS the new card: ZoneCleared, CardLanded
    HOLDS --(another card lies still far from the held one, or where the zone was seen empty,
             or a card back held is read as a face: ``_replaced``)--> EMPTY: ZoneCleared
    any   --(a card is there but cannot be read, for ``unclear_frames`` frames)--> emits
             ZoneUnclear once, until something changes

A hand passing over a card hides it for a few frames: that is shorter than ``clear_frames``,
so the card stays. A single misread frame is outvoted by the window. Frames with nothing in a
zone cost a counter increment.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field

import numpy as np

from referee.seats import SEATS, Seat

from .cardclasses import BACK
from .detections import CardDetections
from .geometry import holds_middle


@dataclass(frozen=True)
class CardLanded:
    seat: Seat
    card: str
    confidence: float
    frame: int
    quad: tuple[tuple[float, float], ...]
    looks: int = 1  # separate fresh reads (not kept ones) that agreed, sure, on landing
    # the classifier's likeliest cards, averaged over those reads (``_mean_odds``): should a
    # surer reading later show this one wrong, they weigh what the card may have been
    odds: tuple[tuple[str, float], ...] = ()
    # the frame the card was first seen lying in its zone, unread until it landed (None: not
    # known, as in an events log written before it was kept)
    since: int | None = None


@dataclass(frozen=True)
class CardConfirmed:
    """The card a zone holds was read surely on a second separate look: ``confidence`` is the
    lower of its two best looks. Said once per landing."""

    seat: Seat
    card: str
    confidence: float
    frame: int


@dataclass(frozen=True)
class ZoneCleared:
    seat: Seat
    card: str
    frame: int


@dataclass(frozen=True)
class ZoneUnclear:
    """A card lies in ``seat``'s zone that cannot be read. ``face_down``: it was read likeliest
    as a card back, if unsurely (a back of a design never trained on, say)."""

    seat: Seat
    frame: int
    face_down: bool = False


TrackEvent = CardLanded | CardConfirmed | ZoneCleared | ZoneUnclear


@dataclass
class _Seen:
    card: str | None  # None: a card is there but was not read (hidden, unsure)
    confidence: float
    centre: tuple[float, float]
    quad: np.ndarray
    whole: bool = True
    fresh: bool = True  # read on this frame, not a reading kept from an earlier one
    part: str | None = None  # the suit or rank surely read, whether or not the card was
    odds: tuple[tuple[str, float], ...] | None = None  # the likeliest cards (``CardDetections``)


class ZoneTracker:
    def __init__(self, seat: Seat, window: int, land_frames: int, clear_frames: int,
                 unclear_frames: int, min_confidence: float, still_px: float,
                 replaced_px: float = 20.0) -> None:
        self.seat = seat
        self.replaced_px = replaced_px
        self.held_at: tuple[float, float] | None = None  # where the card it holds lay
        self.looks: list[float] = []  # confidences of the separate sure reads of the held card
        self.window, self.land_frames = window, land_frames
        self.clear_frames, self.unclear_frames = clear_frames, unclear_frames
        self.min_confidence, self.still_px = min_confidence, still_px
        self.recent: deque[_Seen | None] = deque(maxlen=window)
        self.holds: str | None = None
        self.absent = 0
        self.unclear = 0
        self.said_unclear = False
        # the zone has been seen empty for ``land_frames`` frames since its card was last read
        # surely: the card may have been swept (a sweep can be shorter than ``clear_frames``)
        self.emptied = False
        # the frame an unread card was first seen lying here (None: no unread card), and its
        # outline then: it names that card, so that what is read of it is never taken for
        # another's
        self.unread_from: int | None = None
        self.unread_quad: np.ndarray | None = None
        self.unread_seen: deque[_Seen] = deque(maxlen=window)  # how it was seen lately
        self.unread_looks_all = _Looks()  # what the classifier made of it, every look since

    def view_moved(self, to_new: Callable[[np.ndarray], np.ndarray]) -> None:
        """The camera moved: every spot where this zone's cards were seen is taken to where
        the new view shows that spot of the table (``to_new``: picture points, Nx2, old view
        to new), so that a card lying still is still where it lay, not a card put down
        elsewhere."""
        moved: set[int] = set()
        for seen in list(self.recent) + list(self.unread_seen):
            if seen is not None and id(seen) not in moved:  # (both may hold one reading)
                moved.add(id(seen))
                seen.centre = _point(to_new, seen.centre)
                seen.quad = to_new(seen.quad).astype(seen.quad.dtype)
        if self.held_at is not None:
            self.held_at = _point(to_new, self.held_at)
        if self.unread_quad is not None:
            self.unread_quad = to_new(self.unread_quad).astype(self.unread_quad.dtype)

    def _replaced(self) -> bool:
        last = list(self.recent)[-self.land_frames:]
        if len(last) < self.land_frames or self.held_at is None or any(
                s is None or not s.whole for s in last):
            return False
        if any(s.card == self.holds and s.confidence >= self.min_confidence for s in last):
            return False  # the same card, nudged
        centres = np.array([s.centre for s in last])
        if float(np.ptp(centres, axis=0).max()) > self.still_px:
            return False  # still moving
        if self.holds == BACK and not any(s.card == BACK for s in last):
            return True  # a card laid face down, turned over where it lay: read or not, the
            # face is no card back
        if self.emptied and not any(s.card == self.holds for s in last):
            return True  # the zone was empty, and what lies there now never reads as its card
        return float(np.hypot(*(centres.mean(axis=0) - self.held_at))) > self.replaced_px

    def _looks_face_down(self) -> bool:
        """Whether most of the recent readings of the card lying here name a card back."""
        read = [s.card for s in self.recent if s is not None and s.whole]
        return 2 * read.count(BACK) > len(read)

    @property
    def unread(self) -> bool:
        """A card lies in the zone (as last seen) but has not landed: unsure, hidden or new."""
        return bool(self.recent) and self.recent[-1] is not None and self.holds is None

    @property
    def unread_part(self) -> tuple[int, str] | None:
        """The part (suit or rank) of the unread card lying in the zone read surely though the
        card was not (say a court card's rank in a design the classifier does not know), with
        the frame the card was first seen (``unread_from``, which tells this card from a later
        one): the same part on ``land_frames`` of the last frames, the card still, no other
        part read."""
        if not self.unread or self.unread_from is None:
            return None
        seen = list(self.unread_seen)
        parts = {s.part for s in seen if s.part is not None}
        agreeing = [s for s in seen if s.part is not None]
        if len(parts) != 1 or len(agreeing) < self.land_frames:
            return None
        centres = np.array([s.centre for s in seen])
        if float(np.ptp(centres, axis=0).max()) > self.still_px:
            return None
        return self.unread_from, parts.pop()

    @property
    def unread_odds(self) -> tuple[int, tuple[tuple[str, float], ...]] | None:
        """The classifier's odds of the unread card lying in the zone, averaged over all its
        fresh looks since it was first seen (each look once; readings kept over still frames
        are no new look): its likeliest cards, surest first, with the frame the card was first
        seen (as for ``unread_part``). None where it was never read whole.
        (All its looks, not the last few: the look that counts most is often the last, as a
        hand comes to take the card; game 2732's trump was read as the JH at 0.73 when laid,
        and as any king at 0.22 when taken back.)"""
        looks = self._looks_at_unread
        return None if looks is None else (looks[0], looks[1].mean())

    @property
    def unread_looks(self) -> tuple[int, int] | None:
        """On how many fresh looks ``unread_odds`` rest, with the frame the card was first
        seen; None as for ``unread_odds``."""
        looks = self._looks_at_unread
        return None if looks is None else (looks[0], looks[1].count)

    @property
    def _looks_at_unread(self) -> tuple[int, _Looks] | None:
        """The frame the unread card lying in the zone was first seen, and the classifier's
        looks at it; None where none lies, or it was never read whole."""
        if not self.unread or self.unread_from is None or not self.unread_looks_all.count:
            return None
        return self.unread_from, self.unread_looks_all

    def _follow_unread(self, seen: _Seen | None, frame: int) -> None:
        """Keep ``unread_from``: a new unread card begins when the zone held nothing or a
        read card before, or when what lies there is somewhere else than the unread card
        was first seen (``_elsewhere``)."""
        if seen is None or self.holds is not None:
            self._unread_begins(None, None)
            return
        if self.unread_quad is None or self._elsewhere(seen):
            self._unread_begins(frame, seen.quad)
        self.unread_seen.append(seen)
        self.unread_looks_all.add(seen)

    def _unread_begins(self, frame: int | None, quad: np.ndarray | None) -> None:
        """An unread card first seen on ``frame`` along ``quad`` (None: none lies here now):
        nothing seen before is its."""
        self.unread_from, self.unread_quad = frame, quad
        self.unread_seen.clear()
        self.unread_looks_all = _Looks()

    def _elsewhere(self, seen: _Seen) -> bool:
        """Whether ``seen`` lies elsewhere than the unread card did when first seen: its
        middle ``replaced_px`` or more from that card's, unless each outline holds the other's
        middle (the card first found with part of the cloth, as the detector may while it is
        laid, then found as it lies: game 2732's trump)."""
        assert self.unread_quad is not None
        first = self.unread_quad.mean(axis=0)
        return float(np.hypot(*np.subtract(seen.centre, first))) > self.replaced_px and not (
            holds_middle(seen.quad, self.unread_quad) and holds_middle(self.unread_quad,
                                                                       seen.quad))

    def flush(self, frame: int) -> list[TrackEvent]:
        """The frames have run out: a held card the zone has been seen empty of for
        ``land_frames`` frames was taken away, though too few frames were left to count
        ``clear_frames`` (a clip that ends just after the last trick is swept)."""
        if self.holds is None or self.absent < self.land_frames:
            return []
        return [self._let_go(frame)]

    def _let_go(self, frame: int) -> ZoneCleared:
        """The held card was taken away: the zone holds nothing now."""
        assert self.holds is not None
        event = ZoneCleared(self.seat, self.holds, frame)
        self.holds = self.held_at = None
        self.emptied = False
        return event

    def _land(self, card: str, agreeing: list[_Seen], centres: np.ndarray,
              frame: int) -> list[TrackEvent]:
        """``card``, read the same, still and sure on ``agreeing`` (at ``centres``), lands
        (clearing the card held before, if any)."""
        events: list[TrackEvent] = []
        if self.holds is not None:
            events.append(ZoneCleared(self.seat, self.holds, frame))
        self.holds, self.emptied = card, False
        self.held_at = tuple(np.mean(centres, axis=0)) if len(agreeing) > 1 \
            else agreeing[0].centre
        self.unclear = 0
        self.said_unclear = False
        confidence = float(np.median([s.confidence for s in agreeing]))
        quad = tuple((float(x), float(y)) for x, y in agreeing[-1].quad)
        self.looks = [s.confidence for s in agreeing if s.fresh]
        since = frame if self.unread_from is None else self.unread_from
        events.append(CardLanded(self.seat, card, confidence, frame, quad,
                                 max(1, len(self.looks)), _mean_odds(agreeing), since))
        return events

    def update(self, seen: _Seen | None, frame: int, looks_empty: bool = False,
               ) -> list[TrackEvent]:
        """``looks_empty``: the zone's pixels are those of the empty table (the change gate's
        ``empty_zones``), whatever the detector made of it: the held card is gone now, even if
        the next card follows faster than ``clear_frames`` and reads the same (a misread held
        card would otherwise swallow the real one), and readings from before no longer
        count. (``Tracker`` says so only when every zone looks empty: the table swept.)"""
        events: list[TrackEvent] = []
        if looks_empty:
            events, seen = self.swept(frame), None
        events += self._update(seen, frame)
        self._follow_unread(seen, frame)
        return events

    def swept(self, frame: int) -> list[TrackEvent]:
        """The whole table looks as it did empty: the held card is gone, and readings from
        before no longer count. Nothing is counted for this frame (a zone left out of it
        keeps its counters)."""
        events: list[TrackEvent] = [self._let_go(frame)] if self.holds is not None else []
        self.recent.clear()
        return events

    def _update(self, seen: _Seen | None, frame: int) -> list[TrackEvent]:
        self.recent.append(seen)
        events: list[TrackEvent] = []
        if seen is None:
            self.absent += 1
            if self.holds is not None and self.absent >= self.land_frames:
                self.emptied = True
            self.unclear = 0
            self.said_unclear = False
            if self.holds is not None and self.absent >= self.clear_frames:
                events.append(self._let_go(frame))
            return events
        self.absent = 0
        if self.holds is not None and self._replaced():
            # another card lies still elsewhere in the zone, and it is not the one held: the
            # held card was taken away (a sweep and the next lead can follow each other
            # faster than clear_frames), even if the new card cannot be read yet
            events.append(self._let_go(frame))
        if seen.card is not None and seen.card == self.holds \
                and seen.confidence >= self.min_confidence:
            self.held_at = seen.centre  # the held card, perhaps nudged: follow it
            self.emptied = False
            if seen.fresh:
                self.looks.append(seen.confidence)
                if len(self.looks) == 2:
                    events.append(CardConfirmed(self.seat, self.holds,
                                                sorted(self.looks)[-2], frame))
        sure = [s for s in self.recent if s is not None and s.card is not None
                and s.confidence >= self.min_confidence]
        if sure:
            card, count = Counter(s.card for s in sure).most_common(1)[0]
            # enough sure reads of a card the zone does not hold, this frame's among them
            if count >= self.land_frames and card != self.holds and seen.card == card:
                agreeing = [s for s in sure if s.card == card]
                centres = np.array([s.centre for s in agreeing])
                if len(agreeing) == 1 or float(np.ptp(centres, axis=0).max()) <= self.still_px:
                    return events + self._land(card, agreeing, centres, frame)
        readable = seen.card is not None and seen.confidence >= self.min_confidence
        if readable or self.holds is not None:
            self.unclear = 0
        else:
            self.unclear += 1
            if self.unclear >= self.unclear_frames and not self.said_unclear:
                self.said_unclear = True
                events.append(ZoneUnclear(self.seat, frame, self._looks_face_down()))
        return events


@dataclass
class TrackerSettings:
    """``window``/``land_frames``: a card lands when it is read the same, still and sure, in
    ``land_frames`` of the last ``window`` frames (more: fewer false landings, later ones).
    ``clear_frames``: frames with no card before a zone counts as cleared (more: hands over
    cards never clear them, sweeps are seen later). ``unclear_frames``: frames a card must sit
    unread before the referee asks for it again. ``min_confidence``: readings below it do not
    count. ``still_px``: how far a card's centre may wander and still be still.
    ``replaced_px``: a whole card lying still this far from where the held card lay (and not
    read as it) means the held card was taken away, even before ``clear_frames`` pass."""

    window: int = 5
    land_frames: int = 3
    clear_frames: int = 10
    unclear_frames: int = 20
    min_confidence: float = 0.9
    still_px: float = 6.0
    replaced_px: float = 20.0

    def __post_init__(self) -> None:
        if not 1 <= self.land_frames <= self.window:
            raise ValueError("need 1 <= land_frames <= window")
        if self.clear_frames < 1 or self.unclear_frames < 1:
            raise ValueError("clear_frames and unclear_frames must be at least 1")
        if not 0 <= self.min_confidence <= 1:
            raise ValueError("min_confidence must lie in [0, 1]")
        if self.still_px <= 0 or self.replaced_px <= 0:
            raise ValueError("still_px and replaced_px must be positive")


@dataclass
class Tracker:
    """Call ``update`` on every frame, empty ones too, so the counters move on."""

    settings: TrackerSettings = field(default_factory=TrackerSettings)
    zones: dict[Seat, ZoneTracker] = field(init=False)
    # what each zone showed in the last detections given: a reading kept over still frames
    # is the same object frame after frame, and need not be gone through again
    _last: tuple[object, object, dict[Seat, _Seen | None]] = field(
        init=False, default=(None, None, {}))

    def __post_init__(self) -> None:
        s = self.settings
        self.zones = {seat: ZoneTracker(seat, s.window, s.land_frames, s.clear_frames,
                                        s.unclear_frames, s.min_confidence, s.still_px,
                                        s.replaced_px)
                      for seat in SEATS}

    def update(self, detections: CardDetections, frame: int,
               seats: Collection[Seat] | None = None,
               fresh: Collection[Seat] | None = None,
               empty: Collection[Seat] = ()) -> list[TrackEvent]:
        """``seats``: the zones this frame says something about (default: all). A zone left
        out, say because a hand is moving over it, is not updated at all: its counters wait.
        ``fresh``: the zones whose detections were read on this frame (default: all); the
        others' were kept from an earlier one. The same ``detections`` object given again is
        taken to be unchanged (the reading kept over still frames). ``empty``: the zones that
        look as they did on the empty table. When that is every zone, the table was swept:
        each zone lets its card go at once (``ZoneTracker.update``'s ``looks_empty``). One
        zone alone looking empty lets nothing go sooner: a player may lift their card and
        put it back. A swept table lets go even the cards of zones left out of the frame: a
        zone that looks as it did empty holds no card, whatever moves near it (in game 617 of
        the studio's fresh clips, a zone left out of every frame of the sweep held on to its
        card of the trick before, and the next lead there was taken for that card)."""
        if detections is not self._last[0] or fresh != self._last[1]:
            self._last = (detections, fresh, {
                seat: _best_in_zone(detections, seat, fresh is None or seat in fresh)
                for seat in self.zones})
        best = self._last[2]
        swept = set(self.zones) <= set(empty)
        by_zone: list[list[TrackEvent]] = []
        for seat, zone in self.zones.items():
            if seats is not None and seat not in seats:
                if swept:
                    by_zone.append(zone.swept(frame))
                continue
            by_zone.append(zone.update(best[seat], frame, swept))
        return [event for events in _in_the_order_laid(by_zone) for event in events]

    def view_moved(self, to_new: Callable[[np.ndarray], np.ndarray]) -> None:
        """The camera moved (the table found elsewhere in the picture): where every zone's
        cards were seen is carried to the new view (``ZoneTracker.view_moved``)."""
        for zone in self.zones.values():
            zone.view_moved(to_new)
        self._last = (None, None, {})

    def flush(self, frame: int) -> list[TrackEvent]:
        """At the end of the frames: the zones whose card was taken away too near the end for
        ``update`` to see it (``ZoneTracker.flush``)."""
        return [event for zone in self.zones.values() for event in zone.flush(frame)]

    def holding(self) -> dict[Seat, str]:
        return {seat: z.holds for seat, z in self.zones.items() if z.holds is not None}

    def unread(self) -> frozenset[Seat]:
        """Zones where a card lies that has not (yet) landed."""
        return frozenset(seat for seat, z in self.zones.items() if z.unread)

    def unread_parts(self) -> dict[Seat, tuple[int, str]]:
        """Zones where a card lies unread whose suit or rank was read surely: the frame the
        card was first seen there, and that part (``ZoneTracker.unread_part``)."""
        found = {seat: z.unread_part for seat, z in self.zones.items()}
        return {seat: part for seat, part in found.items() if part is not None}

    def unread_odds(self) -> dict[Seat, tuple[int, tuple[tuple[str, float], ...]]]:
        """Zones where a card lies unread that was read whole: the frame the card was first
        seen there, and the classifier's odds of it (``ZoneTracker.unread_odds``)."""
        found = {seat: z.unread_odds for seat, z in self.zones.items()}
        return {seat: odds for seat, odds in found.items() if odds is not None}

    def unread_looks(self) -> dict[Seat, tuple[int, int]]:
        """Zones where a card lies unread that was read whole: the frame the card was first
        seen there, and on how many fresh looks its odds rest (``ZoneTracker.unread_looks``)."""
        found = {seat: z.unread_looks for seat, z in self.zones.items()}
        return {seat: looks for seat, looks in found.items() if looks is not None}


def _point(to_new: Callable[[np.ndarray], np.ndarray],
           point: tuple[float, float]) -> tuple[float, float]:
    x, y = to_new(np.array([point], np.float64))[0]
    return float(x), float(y)


def _in_the_order_laid(by_zone: list[list[TrackEvent]]) -> list[list[TrackEvent]]:
    """The zones' events of one frame, each zone's as a group, given in seat order: the
    groups in which a card lands are put in the order those cards were laid down (the frame
    each was first seen lying in its zone, ``CardLanded.since``); the others keep their
    places. Two cards that land on the same frame were not laid on it: the one read surely
    only after many frames (a court card of an unfamiliar design) may have lain there long
    before the other, and the referee, told of them in seat order, called out of turn a
    player whose card came after it (game 319 of the studio's clips, with a classifier tried
    in the forty-sixth session: seat 2's king, there since frame 203, and seat 1's four, laid
    at frame 233, both landed at frame 235)."""
    laid = {k: event.since for k, events in enumerate(by_zone)
            for event in events if isinstance(event, CardLanded)}
    if len(laid) < 2:
        return by_zone
    ordered = list(by_zone)
    for slot, k in zip(sorted(laid), sorted(laid, key=lambda k: laid[k])):
        ordered[slot] = by_zone[k]
    return ordered


@dataclass
class _Looks:
    """The classifier's odds of one card summed over its fresh looks, each look once (a
    reading kept over still frames is the same object frame after frame, and no new look)."""
    total: dict[str, float] = field(default_factory=dict)
    count: int = 0
    width: int = 0  # the most cards a look gave
    last: _Seen | None = None  # the look counted last

    def add(self, seen: _Seen) -> None:
        if not seen.fresh or not seen.odds or seen is self.last:
            return
        self.last, self.count = seen, self.count + 1
        self.width = max(self.width, len(seen.odds))
        for card, p in seen.odds:
            self.total[card] = self.total.get(card, 0.0) + p

    def mean(self) -> tuple[tuple[str, float], ...]:
        """The odds averaged over the looks, likeliest first, as many cards as a look gives;
        () where there was no look."""
        best = sorted(self.total.items(), key=lambda item: -item[1])[:self.width]
        return tuple((card, round(p / self.count, 4)) for card, p in best)


def _mean_odds(seen: Iterable[_Seen]) -> tuple[tuple[str, float], ...]:
    """The classifier's odds of a card averaged over its fresh looks among ``seen`` (``_Looks``)."""
    looks = _Looks()
    for s in seen:
        looks.add(s)
    return looks.mean()


def _best_in_zone(detections: CardDetections, seat: Seat, fresh: bool = True) -> _Seen | None:
    best: _Seen | None = None
    for i in range(len(detections)):
        if detections.seats[i] != seat:
            continue
        card = detections.cards[i] if detections.whole[i] else None
        confidence = float(detections.confidence[i]) if card is not None else 0.0
        quad = detections.quads[i]
        seen = _Seen(card, confidence, tuple(quad.mean(axis=0)), quad,
                     bool(detections.whole[i]), fresh,
                     detections.parts[i] if detections.whole[i] else None,
                     detections.odds[i] if detections.whole[i] else None)
        if best is None or (seen.card is not None, seen.confidence) > (best.card is not None,
                                                                       best.confidence):
            best = seen
    return best
