"""Reading the table only when something there has changed and come to rest.

Detection and classification cost about 18 ms a 1280x720 frame, twenty times the cost of
decoding it, yet in a game almost every frame either shows nothing new or shows a hand moving.
``ChangeGate`` looks at a thumbnail of the part of each frame around the zones (every eighth
pixel: a few hundredths of a millisecond) and, for each seat zone, compares it with the
previous frame (is it moving?) and with the frame last read (has it changed since?), looking
first at the zone's cards as last read (or at the whole zone while it had none). Then for the
frame as a whole it decides:

- ``READ``: a zone's cards have changed and are now still, or something new has come to rest
  in a zone, or changes have kept moving for ``max_wait`` frames: detect and classify afresh
  those zones only (``Plan.read``; the detector looks at just their part of the picture), while
  the other zones keep their last reading. A still zone whose last reading was unsure (a card
  read under the tracker's ``min_confidence``, or seen only in part) is also read afresh, on
  each of the next ``rechecks`` frames or until it is read surely: the first still frame of a
  card just put down can be blurred by its last movement, and later frames show it better.
  A still zone read as holding no card though its own pixels are not those of the empty table
  where no card found lies (the detector missed a card) is looked at again in the same way,
  with more of the table around it (``Plan.wide``; ``CardDetector.detect_widely``: a wider
  margin, and where that too fails, the whole table): the detector's look at one zone's part of
  the picture gives the same answer frame after frame on a still picture, and a card near the
  edge of that part can lack the context the network finds it by. Until then it counts as
  unread (``missed_zones``). A still card found only in part (its middle, cut short) is looked
  at more widely too, for the same reason (on a striped cloth the network can need the whole
  table to find a card in the middle of a zone).
  A zone read surely is read once more ``confirm_after`` frames later, if it has not changed
  meanwhile: the referee accuses nobody on one look, however sure, and this second look is
  what lets it prove a revoke (with the tracker's defaults it falls on the frame the card
  lands, so the landing is not delayed);
- ``KEEP``: otherwise the last reading stands. A zone whose cards are changing under a moving
  hand is left out (``Plan.seats``): the tracker hears nothing from it this frame, rather than
  an old reading or a hand-blurred one. A hand moving beside a zone's cards leaves them be.

The table outside the zones (the middle between them, and the four corners between two
neighbouring zones) is watched on the same thumbnail: something come to rest there that no card
of the zones' reading explains asks for one look at the whole table (``stray_due``), for a card
put down in nobody's zone.

A card can only land when it is still, so nothing is lost: a zone that settles is read on the
first still frame, and the frames after it keep that reading (or look again, if it was unsure)
until the tracker has seen it often enough. Without a calibration there are no zones and nothing is read.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from referee.seats import SEATS, Seat

from .detect import table_box
from .detections import CardDetections
from .sources import preview
from .table import Calibration


# The middle of the table is looked at for a card lying astray (``ChangeGate.stray_due``) once
# this share of it differs from the empty table's and it has been still for this many frames.
# A card lying wholly in the middle covers 17 % of it; one that lies in no zone, even by the
# detector's reach (``vision.detect.SEAT_REACH_MM``), at least a third of that. A corner
# between two zones is looked at once as much of the table differs there (a larger share of
# the smaller square).
MIDDLE_SHARE = 0.06
MIDDLE_SETTLE = 3
# what the empty table looked like where a new view of the table shows what the old one did
# not see, or saw too coarsely to tell (``ChangeGate._carried``): such pixels are not judged
UNSEEN = -4096
MOST_UNSEEN = 0.1  # of a zone's pixels, or the empty table is forgotten instead
# A table lit otherwise than when it lay empty (a lamp switched on, a cloud: by more than this
# share of its brightness) is compared with the empty table's look made as bright; pixels
# darker than this on the empty table tell too little of the light to count.
LIGHT_STEADY = 0.08
LIGHT_DARKEST = 12
# Frames the table must stay the same, every zone's reading bare, to be taken as bare
# (``ChangeGate._wait_for_bare``). Its look is learnt as the empty table's once two such
# moments, a card read between them, look alike: a hand paused over the middle, sweeping a
# trick, or a card lying astray, is not learnt as part of the table.
BARE_FRAMES = 3


@dataclass(slots=True)
class _Watched:
    """A part of the table outside every zone, watched for a card put down astray
    (``ChangeGate.stray_due``): its pixels on the thumbnail with how many of them make it move
    (``moves``) and how many make it hold something (``holds``); how many frames it has been
    still, whether it was looked at since it last moved, and whether, still, it looks as on
    the empty table (but for the zones' cards reaching in)."""

    moves: tuple[np.ndarray, int]
    holds: tuple[np.ndarray, int]
    still: int = 0
    looked: bool = False
    empty: bool = False

    def moved(self) -> None:
        self.still, self.looked, self.empty = 0, False, False


class Action(Enum):
    READ = "read"
    KEEP = "keep"


@dataclass(frozen=True)
class Plan:
    action: Action
    seats: frozenset[Seat]  # the zones the tracker hears about this frame
    read: frozenset[Seat] = frozenset()  # on READ: the zones to read afresh (others keep theirs)
    # on READ: those of them to look at with more of the table around them than usual
    wide: frozenset[Seat] = frozenset()


class ChangeGate:
    """``pixel_change``: grey levels a thumbnail pixel must change by to count as changed.
    ``min_pixels``: changed pixels (at least, and ``min_share`` of the zone) that make a zone
    moving or changed. ``margin_mm``: how far around each zone changes still count (a card
    played on the zone's edge). ``max_wait``: frames a zone may move before it is read anyway,
    so a hand resting on the table does not blind the referee. ``sure``: a reading at least this
    sure needs no second look (the tracker's ``min_confidence``); ``rechecks``: how many more
    fresh looks a still zone read unsurely gets (more: more unsure cards become sure plays, at
    the cost of a zone's reading a frame for each). ``confirm_after``: frames after a sure
    reading that the zone is read once more, as a second look (0: never). ``blind_share``:
    a picture with fewer sharp steps than this share of the empty table's shows no table (the
    lens is covered), and no zone looks empty on it; ``min_steps``: how many the empty
    table's picture must show for that to be judged."""

    def __init__(self, step: int = 8, pixel_change: int = 20, min_pixels: int = 3,
                 min_share: float = 0.005, margin_mm: float = 30.0, max_wait: int = 8,
                 sure: float = 0.9, rechecks: int = 6, confirm_after: int = 2,
                 blind_share: float = 0.25, min_steps: int = 20) -> None:
        if rechecks < 0 or confirm_after < 0 or not 0 <= sure <= 1 \
                or not 0 <= blind_share <= 1:
            raise ValueError("rechecks and confirm_after must be at least 0, and sure and "
                             "blind_share lie in [0, 1]")
        self.blind_share, self.min_steps = blind_share, min_steps
        self.step, self.pixel_change = step, pixel_change
        self.min_pixels, self.min_share = min_pixels, min_share
        self.margin_mm, self.max_wait = margin_mm, max_wait
        self.sure, self.rechecks = sure, rechecks
        # zones whose last reading was unsure, and how many fresh looks each has left
        self.looks_left: dict[Seat, int] = {}
        self.rechecking: frozenset[Seat] = frozenset()  # those being looked at again now
        # zones last read as holding no card though they do not look empty
        self.missed: set[Seat] = set()
        self.widening: frozenset[Seat] = frozenset()  # those being looked at more widely now
        # zones read surely, and in how many frames they get their second look
        self.confirm_after = confirm_after
        self.confirm_in: dict[Seat, int] = {}
        self.confirming: frozenset[Seat] = frozenset()  # those getting it now
        self.calibration: Calibration | None = None
        # the part of the picture around the zones that the thumbnail covers: (rows, columns)
        self.box: tuple[slice, slice] = (slice(0, None), slice(0, None))
        self.shape: tuple[int, ...] = ()  # the picture's, when the box was worked out
        # per zone: its pixels on the thumbnail, and how many of them make a change
        self.masks: dict[Seat, tuple[np.ndarray, int]] = {}
        self.previous: np.ndarray | None = None
        self.before: np.ndarray | None = None  # the thumbnail of the frame planned before it
        # where the one differs from the other (``pixel_change``), when ``plan`` worked it out
        self.moving: np.ndarray | None = None
        # the last thumbnail looked at by ``empty_zones`` (and the empty table's then), with the
        # zones it showed empty: on the next frame it is ``before``, not looked at again
        self._looked: tuple[object, object, frozenset[Seat]] = (None, None, frozenset())
        self.last_read: np.ndarray | None = None
        self.detections = CardDetections()
        self.card_masks: dict[Seat, tuple[np.ndarray, int]] = {}  # its cards as last read
        # the thumbnail when the table was first known bare: every zone read at once with no
        # card on it on the first view (``remember``), or at two bare moments alike
        # (``_wait_for_bare``); carried to each new view (``_carried``)
        self.empty_thumb: np.ndarray | None = None
        # the thumbnail the table has looked like, every zone's reading bare, since how many
        # frames (``_wait_for_bare``)
        self._bare: tuple[np.ndarray, int] | None = None
        # the last time the table was taken as bare, before its look was learnt: the
        # thumbnail, under which calibration, and whether a card has been read since
        self._candidate: tuple[np.ndarray, object, bool] | None = None
        self._views = 0  # calibrations the zones have been framed for (``_zone_masks``)
        self.image: np.ndarray | None = None  # the picture just planned
        # the empty table's look at full size: the grey picture of the box (``self.box``) it
        # was learnt from, that box, and the calibration then (``_carried``)
        self.empty_picture: tuple[np.ndarray, tuple[slice, slice], Calibration] | None = None
        # the whole picture's grey preview of the frame just planned and of the one before it,
        # and how many sharp steps the picture of the empty table showed (``_sharp_steps``)
        self.view: np.ndarray | None = None
        self.view_before: np.ndarray | None = None
        self.empty_steps = 0
        # the last thumbnail ``_light_gain`` judged, the empty table's then, and its answer
        self._gain_of: tuple[object, object, float | None] = (None, None, None)
        self._lit_of: tuple[object, tuple[np.ndarray, np.ndarray] | None] = (None, None)
        # per zone: its pixels without the margin (what a card the detector missed would change)
        self.inner: dict[Seat, tuple[np.ndarray, int]] = {}
        self.waited = 0
        self.reads = 0
        # the table outside the zones, on the thumbnail (``stray_due``): the middle, then the
        # four corners between two zones
        self.watched: list[_Watched] = []

    def thumb(self, image: np.ndarray, shown: np.ndarray | None = None) -> np.ndarray:
        """The part of ``image`` in the box (``self.box``) at every ``step``-th pixel (from
        ``step // 2``), grey, as int16 for differences. ``shown``: the whole picture's
        ``vision.sources.preview`` at the same step, when it was worked out already (the box
        starts on a multiple of the step, so its pixels are the same)."""
        rows, cols = self.box
        s = self.step
        if self._whole_preview(image, shown):
            h = len(range(*rows.indices(image.shape[0])))
            w = len(range(*cols.indices(image.shape[1])))
            if h >= s and w >= s:
                y0, x0 = rows.start // s, cols.start // s
                return shown[y0:y0 + h // s, x0:x0 + w // s].astype(np.int16)
        return preview(image[self.box], s).astype(np.int16)

    def _whole_preview(self, image: np.ndarray, shown: np.ndarray | None) -> bool:
        """Whether ``shown`` is ``image``'s whole-picture preview at the gate's step."""
        return shown is not None and shown.shape[:2] == (image.shape[0] // self.step,
                                                         image.shape[1] // self.step)

    def _zone_masks(self, calibration: Calibration, shape: tuple[int, ...]) -> None:
        """Frame the zones (and their margins) in the picture, and mark each on the thumbnail
        of that frame: the rest of the picture is never looked at."""
        height, width = shape[:2]
        s, m = self.step, self.margin_mm
        x0, y0, x1, y1 = table_box(calibration, width, height, SEATS, m)
        x0, y0 = x0 - x0 % s, y0 - y0 % s
        old = self.empty_picture if shape == self.shape else None
        self.box, self.shape = (slice(y0, y1), slice(x0, x1)), shape
        self._views += 1
        thumb_shape = preview(np.zeros((y1 - y0, x1 - x0), np.uint8), s).shape
        self.masks, self.inner, self.empty_thumb, self.empty_picture = {}, {}, None, None
        for zone in calibration.layout.zones():
            for d, masks in ((m, self.masks), (0.0, self.inner)):
                corners = [(zone.x0 - d, zone.y0 - d), (zone.x1 + d, zone.y0 - d),
                           (zone.x1 + d, zone.y1 + d), (zone.x0 - d, zone.y1 + d)]
                masks[zone.seat] = self._region(self._table_mask(calibration, corners,
                                                                 thumb_shape))
        self.empty_thumb = self._carried(old, calibration, thumb_shape)
        self.empty_picture = old if self.empty_thumb is not None else None
        # (the table outside the zones moves by as few changed pixels as a zone does; it holds
        # something by more: ``MIDDLE_SHARE`` of the middle, as much of the table in a corner)
        layout = calibration.layout
        middle = layout.middle()
        self.watched = []
        for square in [middle] + layout.corners_between():
            moves = self._region(self._table_mask(calibration, square, thumb_shape))
            share = MIDDLE_SHARE if square is middle else \
                MIDDLE_SHARE * _square_mm2(middle) / _square_mm2(square)
            pixels = moves[0]
            self.watched.append(_Watched(moves, (pixels, max(self.min_pixels, int(np.ceil(
                share * len(pixels)))))))

    def _carried(self, picture: tuple | None, now: Calibration,
                 shape: tuple[int, ...]) -> np.ndarray | None:
        """The empty table's look, from the full-size picture it was learnt from
        (``empty_picture``), sampled where the thumbnail of ``self.box`` (of ``shape``)
        samples the table as ``now`` sees it (a camera knocked, or the markers found a
        little otherwise): each pixel from the picture itself, not from every eighth of it,
        so even a cloth too busy for the thumbnail moves with the table. Where the old
        picture did not reach, it is ``UNSEEN``, not judged. None (the empty table
        forgotten, to be learnt again) without a picture, or where more than
        ``MOST_UNSEEN`` of a zone is unjudged."""
        if picture is None:
            return None
        grey, box, seen_by = picture
        s = self.step
        thumb_to_picture = np.array([[s, 0, self.box[1].start + s // 2],
                                     [0, s, self.box[0].start + s // 2], [0, 0, 1]], np.float64)
        picture_to_part = np.array([[1, 0, -box[1].start], [0, 1, -box[0].start], [0, 0, 1]],
                                   np.float64)
        to_old = picture_to_part @ seen_by.to_image_matrix @ now.to_table_matrix \
            @ thumb_to_picture
        carried = cv2.warpPerspective(grey, to_old, (shape[1], shape[0]),
                                      flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                      borderMode=cv2.BORDER_CONSTANT, borderValue=float(UNSEEN))
        unseen = carried < 0
        if any(unseen.ravel().take(pixels).mean() > MOST_UNSEEN
               for pixels, _ in self.masks.values()):
            return None
        carried[unseen] = UNSEEN
        return np.round(carried).astype(np.int16)

    def _table_mask(self, calibration: Calibration, corners: list[tuple[float, float]],
                    shape: tuple[int, ...]) -> np.ndarray:
        """The polygon of table ``corners`` (mm) marked on a thumbnail of ``shape``."""
        mask = np.zeros(shape, np.uint8)
        cv2.fillPoly(mask, [self._on_thumb(calibration.to_image(np.array(corners, float)))], 1)
        return mask

    def _on_thumb(self, points: np.ndarray) -> np.ndarray:
        """Picture points as the thumbnail's pixels."""
        origin = (self.box[1].start, self.box[0].start)
        return np.round((points - origin - self.step // 2) / self.step).astype(np.int32)

    def _region(self, mask: np.ndarray) -> tuple[np.ndarray, int]:
        """The mask's pixels (as indices into the flattened thumbnail, which are cheaper to
        gather than a boolean mask is to apply) and how many of them make a change."""
        pixels = np.flatnonzero(mask)
        return pixels, max(self.min_pixels, int(np.ceil(self.min_share * len(pixels))))

    @staticmethod
    def _count(diff: np.ndarray, region: tuple[np.ndarray, int]) -> bool:
        pixels, need = region
        return np.count_nonzero(diff.ravel().take(pixels)) >= need

    def plan(self, image: np.ndarray, calibration: Calibration | None,
             shown: np.ndarray | None = None) -> Plan:
        if calibration is None:
            self.calibration, self.last_read, self.previous, self.before = None, None, None, None
            self.moving = None
            self.detections = CardDetections()
            return Plan(Action.KEEP, frozenset(SEATS))
        if calibration is not self.calibration or image.shape != self.shape:
            self._zone_masks(calibration, image.shape)
            self.calibration, self.last_read = calibration, None
        self.image = image
        if not self._whole_preview(image, shown):
            shown = preview(image, self.step)  # (a camera's frames come without one)
        thumb = self.thumb(image, shown)
        previous, self.previous = self.previous, thumb
        self.before = previous
        self.view_before, self.view = self.view, shown
        self.moving = None
        if self.last_read is None or previous is None:
            return self._read(thumb)
        changed = np.abs(thumb - self.last_read) > self.pixel_change
        moving = self.moving = np.abs(thumb - previous) > self.pixel_change
        if self.empty_thumb is None:
            self._wait_for_bare(thumb, changed)
        settled, silent, touched = set(), set(), set()
        for seat, zone in self.masks.items():
            # the zone's cards as last read (the zone itself when it had none)
            focus = self.card_masks.get(seat, zone)
            if self._count(changed, focus):
                touched.add(seat)
                if self._count(moving, focus):
                    silent.add(seat)  # a hand over its cards: the last reading may be stale
                else:
                    settled.add(seat)  # its cards changed and are still: read them
            elif self._count(changed, zone):
                touched.add(seat)
                if not self._count(moving, zone):
                    settled.add(seat)  # something new has come to rest beside its cards
        if not changed.any() or not (settled or silent):
            self.waited = 0
        else:
            self.waited += 1
        due = set()  # zones read surely, untouched since, whose second look is due
        for seat in list(self.confirm_in):
            self.confirm_in[seat] -= 1
            if seat in touched or self.confirm_in[seat] <= 0:
                del self.confirm_in[seat]  # touched: it will be read afresh once still
                if seat not in touched:
                    due.add(seat)
        if self.waited >= self.max_wait:
            return self._read(thumb, frozenset(touched) or frozenset(SEATS),
                              frozenset(SEATS))
        # still zones read unsurely last time: look again
        again = {seat for seat, left in self.looks_left.items() if left and seat not in touched}
        if settled or again or due:
            for seat in again - settled:
                self.looks_left[seat] -= 1
            return self._read(thumb, frozenset(settled | again | due),
                              frozenset(SEATS) - silent, rechecking=frozenset(again - settled),
                              confirming=frozenset(due - settled - again),
                              wide=frozenset((again - settled)
                                             & (self.missed | self._seen_in_part())))
        return Plan(Action.KEEP, frozenset(SEATS) - silent)

    def _read(self, thumb: np.ndarray, seats: frozenset[Seat] = frozenset(SEATS),
              heard: frozenset[Seat] = frozenset(SEATS),
              rechecking: frozenset[Seat] = frozenset(),
              confirming: frozenset[Seat] = frozenset(),
              wide: frozenset[Seat] = frozenset()) -> Plan:
        """Read the zones of ``seats`` afresh; the others keep their last reading (and their
        last-read picture, so a change there is still seen as one). ``rechecking``: the zones
        read again only because their last reading was unsure; ``confirming``: only for a
        second look at a sure one; ``wide``: those to look at with more of the table around."""
        self.rechecking, self.confirming, self.widening = rechecking, confirming, wide
        if self.last_read is None or len(seats) == len(SEATS):
            self.last_read = thumb
        else:
            self.last_read = self.last_read.copy()
            for seat in seats:
                pixels = self.masks[seat][0]
                self.last_read.ravel()[pixels] = thumb.ravel()[pixels]
        self.waited = 0
        self.reads += 1
        return Plan(Action.READ, heard | seats, seats, wide)

    def stray_due(self) -> bool:
        """Whether to look at the whole table now for a card lying astray, in no seat's zone
        (``vision.session``): a part of the table the zones' reading never looks at (the
        middle, ``TableLayout.middle``, or a corner between two zones,
        ``TableLayout.corners_between``) differs from the empty table's over at least
        ``MIDDLE_SHARE`` of the middle's area, where no card the zones' reading holds lies (a
        card played at its zone's edge reaches out of it), and has been still for
        ``MIDDLE_SETTLE`` frames; once until it moves again. Call it once a frame, after
        ``plan``. Never before the table has been seen empty, nor where nothing is
        calibrated. Where every such part, settled, shows nothing, ``astray_clear`` says so
        until one moves."""
        if not self.watched or self.calibration is None or self.previous is None \
                or self.before is None:
            return False
        if self.previous.shape != self.before.shape:
            for part in self.watched:
                part.moved()
            return False
        moving = self.moving if self.moving is not None else \
            np.abs(self.previous - self.before) > self.pixel_change
        judged = []
        for part in self.watched:
            if self._count(moving, part.moves):
                part.moved()
                continue
            part.still += 1
            # (judged once a settling: a still table costs nothing more frame after frame)
            if not (part.looked or part.empty or part.still < MIDDLE_SETTLE):
                judged.append(part)
        if not judged:
            return False
        # (the zones' cards reaching out of them are explained)
        differs = self._unexplained_look(self.detections)
        if differs is None:
            return False
        due = False
        for part in judged:
            if self._count(differs, part.holds):
                part.looked = due = True
            else:
                part.empty = True
        return due

    @property
    def astray_clear(self) -> bool:
        """Whether the table outside the zones (``stray_due``'s parts of it), each settled,
        looks as on the empty table: no card lies astray there, nor a dropped trick's."""
        return bool(self.watched) and all(part.empty for part in self.watched)

    def empty_zones(self) -> frozenset[Seat]:
        """The zones that, on the frame just planned and the one before it, look as they did
        when the table was first known bare (within ``pixel_change``, ``remember``):
        empty, whatever the detector makes of them, since a card it missed would still change
        their pixels. None before the table has been seen empty. Two frames, not one: a hand
        passing right before the camera can fill a frame with a colour whose grey is the
        table's, and every zone then looks empty for that frame, cards and all (game 2101
        of the studio's fresh clips: a skin-brown frame over a green felt; the referee took
        the table for swept, split the trick on it in two and numbered every round after it
        wrongly). A table really swept stays empty longer."""
        thumb, empty, zones = self._looked
        before = zones if thumb is self.before is not None and empty is self.empty_thumb \
            else self._looks_empty(self.before, self.view_before)
        now = self._looks_empty(self.previous, self.view)
        self._looked = (self.previous, self.empty_thumb, now)
        return now & before

    def _looks_empty(self, thumb: np.ndarray | None,
                     view: np.ndarray | None) -> frozenset[Seat]:
        """The zones of ``thumb`` that look as on the empty table; none where the whole
        picture (``view``) is blind (``_blind``)."""
        differs = self._not_empty_look(thumb)
        if differs is None:
            return frozenset()
        empty = frozenset(seat for seat, zone in self.masks.items()
                          if not self._count(differs, zone))
        return frozenset() if empty and self._blind(view) else empty

    def _blind(self, view: np.ndarray | None) -> bool:
        """Whether the whole picture has lost the sharp steps the empty table's showed (under
        ``blind_share`` of them): something right before the lens (a hand, a sleeve, a cap)
        fills it, out of focus, and it shows no table at all, however like the empty table's
        its grey is where the zones lie. A table swept keeps its edges, its markers and what
        lies around it, and a card only adds steps. Not judged where the empty table's picture
        showed under ``min_steps`` (a bare table filling the picture: nothing to lose)."""
        if view is None or self.empty_steps < self.min_steps:
            return False
        return _sharp_steps(view, 2 * self.pixel_change) < self.blind_share * self.empty_steps

    def _not_empty_look(self, thumb: np.ndarray | None) -> np.ndarray | None:
        """Where ``thumb`` differs from the empty table (None before the table has been seen
        empty, or without a thumbnail), the empty table seen under the light of ``thumb``
        where that has changed (``_light_gain``)."""
        if thumb is None or self.empty_thumb is None or thumb.shape != self.empty_thumb.shape:
            return None
        empty = self.empty_thumb
        gain = self._light_gain(thumb)
        if gain is not None:
            return (np.abs(thumb - gain * empty) > self.pixel_change) & (empty != UNSEEN)
        return (np.abs(thumb - empty) > self.pixel_change) & (empty != UNSEEN)

    def _light_gain(self, thumb: np.ndarray) -> float | None:
        """How much brighter the table is in ``thumb`` than when it lay empty: the middle
        ratio of their pixels (cards and hands cover fewer than half of them), or None where
        it is within ``LIGHT_STEADY`` of 1 (the light has not changed)."""
        empty = self.empty_thumb
        if self._gain_of[0] is thumb and self._gain_of[1] is empty:
            return self._gain_of[2]  # (each frame's thumbnail is judged more than once)
        if self._lit_of[0] is not empty:  # (the empty look's lit pixels, found once)
            self._lit_of = (empty, _lit_pixels(empty))
        gain = _light_ratio(thumb, self._lit_of[1])
        self._gain_of = (thumb, empty, gain)
        return gain

    def _unexplained(self, detections: CardDetections, seats: Collection[Seat]) -> set[Seat]:
        """Of ``seats``, the zones whose own pixels (without the margin) differ from the empty
        table's where no card found (in any zone) lies: something is there that was not found.
        None before the table has been seen empty."""
        differs = self._unexplained_look(detections)
        if differs is None:
            return set()
        return {seat for seat in seats if self._count(differs, self.inner[seat])}

    def _unexplained_look(self, detections: CardDetections) -> np.ndarray | None:
        """Where the frame just planned differs from the empty table, except where a card of
        ``detections`` lies (None before the table has been seen empty)."""
        differs = self._not_empty_look(self.previous)
        if differs is not None and len(detections):
            covered = np.zeros(differs.shape, np.uint8)
            cv2.fillPoly(covered, [self._on_thumb(q) for q in detections.quads], 1)
            differs &= cv2.dilate(covered, np.ones((3, 3), np.uint8)) == 0
        return differs

    def _seen_in_part(self) -> set[Seat]:
        """The zones whose last reading holds a card not seen whole. Looked at again while
        still, such a zone is looked at more widely, as one where a card was missed: on the
        zone's own part of the picture the network can cut a still card short (its middle
        alone)."""
        return {seat for seat, whole in zip(self.detections.seats, self.detections.whole)
                if not whole and seat is not None}

    def missed_zones(self) -> frozenset[Seat]:
        """The zones last read as holding no card though their pixels are not the empty
        table's: a card may lie there that the detector has not found (yet)."""
        return frozenset(self.missed)

    def _learn_empty(self, thumb: np.ndarray) -> None:
        """Learn ``thumb``, the frame just planned's, as the empty table's look (and its
        picture, ``empty_picture``)."""
        self.empty_thumb = thumb.copy()
        self._keep_picture()
        self.empty_steps = 0 if self.view is None else _sharp_steps(self.view,
                                                                     2 * self.pixel_change)

    def _wait_for_bare(self, thumb: np.ndarray, changed: np.ndarray) -> None:
        """Take the table as bare once it has looked the same for ``BARE_FRAMES`` frames with
        every zone's reading bare and standing (none changed since it was read), and learn
        its look from such moments (``_bare_moment``). Once a card lies on the table a zone
        is read only when something comes to rest in it, and every zone at once only on a
        new view or after a hand kept moving for ``max_wait`` frames: a table first seen
        with a card on it, or whose look could not be carried to a new view, would otherwise
        not be learnt for a long time."""
        if len(self.detections) or any(self._count(changed, zone)
                                       for zone in self.masks.values()):
            self._bare = None
            return
        bare = self._bare
        if bare is None or bare[0].shape != thumb.shape or self._differs_on_table(
                np.abs(thumb - bare[0]) > self.pixel_change):
            self._bare = (thumb, 1)
            return
        self._bare = (bare[0], bare[1] + 1)
        if bare[1] + 1 == BARE_FRAMES:  # (once a stretch)
            self._bare_moment(thumb)

    def _bare_moment(self, thumb: np.ndarray) -> None:
        """The table taken as bare on ``thumb``: its look is learnt if it is the look of the
        last such moment, under the same calibration and with a card read in between (at
        the light of either); otherwise it is kept to be compared with the next. What lay
        on the table outside the zones, or hid it, at one moment (a card put astray, a hand
        sweeping a trick) is seldom there, and just so, at the next."""
        before = self._candidate
        if before is not None and before[1] is self.calibration and before[2] \
                and before[0].shape == thumb.shape:
            old = before[0]
            gain = _light_ratio(thumb, _lit_pixels(old)) or 1.0
            if not self._differs_on_table(np.abs(thumb - gain * old) > self.pixel_change):
                self._candidate = None
                self._learn_empty(thumb)
                return
        self._candidate = (thumb, self.calibration, False)

    def _differs_on_table(self, differs: np.ndarray) -> bool:
        """Whether ``differs`` counts as a change in a zone or in a part of the table outside
        them."""
        return any(self._count(differs, zone) for zone in self.masks.values()) \
            or any(self._count(differs, part.moves) for part in self.watched)

    def _keep_picture(self) -> None:
        """Keep the part of the picture just planned that the thumbnail covers, grey and at
        full size, as the empty table's (``_carried``)."""
        if self.image is None or self.calibration is None:
            return
        part = self.image[self.box]
        grey = part if part.ndim == 2 else cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)
        self.empty_picture = (grey.astype(np.float32), self.box, self.calibration)

    def look_again(self, seats: Collection[Seat], looks: int = 2) -> None:
        """Give the still zones of ``seats`` at least ``looks`` more fresh looks, as after an
        unsure reading: what the game expects of their cards has changed (a lead not read was
        followed), so a card read unsurely so far may now be read surely enough to play."""
        for seat in seats:
            self.looks_left[seat] = max(self.looks_left.get(seat, 0), looks)

    def remember(self, detections: CardDetections, seats: Collection[Seat]) -> CardDetections:
        """The reading of the zones of ``seats`` taken on a ``READ`` frame; the other zones keep
        theirs. Returns the whole reading, which stands for the frames after it."""
        kept = self.detections[np.array([s not in seats for s in self.detections.seats], bool)]
        whole_reading = CardDetections.joined([kept, detections])
        # only a zone where nothing was found can hold a card the detector missed
        found_nothing = set(seats) - set(detections.seats)
        unexplained = self._unexplained(whole_reading, found_nothing) if found_nothing \
            else set()
        for seat in seats:  # a zone read surely (or empty) needs no second look
            unsure = [not whole or (card is not None and confidence < self.sure)
                      for s, whole, card, confidence in zip(detections.seats, detections.whole,
                                                            detections.cards,
                                                            detections.confidence)
                      if s == seat]
            if not unsure and seat in unexplained and seat not in self.widening:
                unsure = [True]  # nothing found where the pixels say something lies
                self.missed.add(seat)
            else:
                # found, or nothing there; or nothing found even with more of the table
                # around, so what lies there is not a card (say a hand at rest): it is looked
                # for again once it changes
                self.missed.discard(seat)
            if not any(unsure):
                self.looks_left.pop(seat, None)
                has_card = any(card is not None for s, card in zip(detections.seats,
                                                                   detections.cards)
                               if s == seat)
                if has_card and self.confirm_after and seat not in self.confirming:
                    self.confirm_in[seat] = self.confirm_after  # a second look, soon
            else:
                self.confirm_in.pop(seat, None)
                if seat not in self.rechecking:  # read unsurely after a change: a new budget
                    self.looks_left[seat] = self.rechecks
        detections = self.detections = whole_reading
        self.card_masks = {}
        if self.previous is None:
            return detections
        if self._candidate is not None and len(detections) and not self._candidate[2]:
            self._candidate = (*self._candidate[:2], True)
        if self.empty_thumb is None and len(seats) == len(SEATS) and not len(detections):
            if self._views <= 1:  # the first view of the table: taken as it is
                self._learn_empty(self.previous)
            else:  # (a new view read while a hand sweeps a trick shows no card either)
                self._bare_moment(self.previous)
        masks: dict[Seat, np.ndarray] = {}
        for quad, seat in zip(detections.quads, detections.seats):
            if seat is None:
                continue
            mask = masks.setdefault(seat, np.zeros(self.previous.shape, np.uint8))
            cv2.fillPoly(mask, [self._on_thumb(quad)], 1)
        self.card_masks = {seat: self._region(cv2.dilate(mask, np.ones((3, 3), np.uint8)))
                           for seat, mask in masks.items()}
        return detections


def _lit_pixels(reference: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Every third of the pixels lit on ``reference`` (a thumbnail of the table; ``UNSEEN``
    ones are left out), as indices into it flattened, with their values: what ``_light_ratio``
    compares a thumbnail with. None where too few are lit to tell."""
    lit = np.flatnonzero(reference > LIGHT_DARKEST)[::3]
    if not len(lit) or len(lit) < reference.size // 12:  # (none: a thumbnail of a few pixels)
        return None
    return lit, reference.ravel().take(lit)


def _light_ratio(thumb: np.ndarray,
                 lit: tuple[np.ndarray, np.ndarray] | None) -> float | None:
    """How much brighter ``thumb`` is than the thumbnail of the same table whose pixels
    ``lit`` are (``_lit_pixels``): the middle ratio of them (cards and hands cover fewer than
    half), or None where it is within ``LIGHT_STEADY`` of 1 or too few are lit to tell."""
    if lit is None:
        return None
    gain = float(_middle(thumb.ravel().take(lit[0]) / lit[1]))
    return None if abs(gain - 1) <= LIGHT_STEADY else gain


def _middle(values: np.ndarray) -> float:
    """The median of ``values`` (1-D, not empty), exactly as ``np.median`` gives it, in a
    fraction of its time (it is worked out on every frame). Partitioned at the two middle
    places even where only one is wanted: at one place alone numpy's partition slows down
    several times over on many equal values, as a still table's ratios are (game1 at
    1280x720: 110 against 16 microseconds a frame)."""
    half = len(values) // 2
    middle = np.partition(values, [half - 1, half] if half else [half])
    return float(middle[half] if len(values) % 2 else middle[half - 1:half + 1].mean())


def _square_mm2(corners: list[tuple[float, float]]) -> float:
    """The area (mm²) of an axis-aligned square of the table given by its corners."""
    (x0, y0), _, (x1, y1), _ = corners
    return abs(x1 - x0) * abs(y1 - y0)


def _sharp_steps(view: np.ndarray, step: int) -> int:
    """How many pairs of neighbouring pixels of ``view`` (a grey preview), across or down,
    differ by more than ``step`` grey levels: the picture's edges, as sharp as a preview
    shows them (a marker's squares, a card's border, the table's edge)."""
    return int(np.count_nonzero(cv2.absdiff(view[:, 1:], view[:, :-1]) > step)
               + np.count_nonzero(cv2.absdiff(view[1:], view[:-1]) > step))
