"""Reading the table only when something there has changed and come to rest.

Detection and classification cost about 12 ms a 1280x720 frame, twenty times the cost of
decoding it, yet in a game almost every frame either shows nothing new or shows a hand moving.
``ChangeGate`` looks at a thumbnail of each frame (every eighth pixel: about 0.05 ms) and, for
each seat zone, compares it with the previous frame (is the zone moving?) and with the frame
last read (has the zone changed since?). Then for the frame as a whole it decides:

- ``READ``: some zone has changed and is now still, or a zone has been moving for
  ``max_wait`` frames: detect and classify afresh, and every zone takes the new reading;
- ``KEEP``: otherwise the last reading stands for every zone that has not changed since it was
  taken, and zones still in motion are left out (``Plan.seats``): the tracker hears nothing
  from them this frame, rather than an old reading or a hand-blurred one.

A card can only land when it is still, so nothing is lost: a zone that settles is read on the
first still frame, and the frames after it keep that reading until the tracker has seen it
often enough. Without a calibration there are no zones and nothing is read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from referee.seats import SEATS, Seat

from .detect import CardDetections
from .table import Calibration


class Action(Enum):
    READ = "read"
    KEEP = "keep"


@dataclass(frozen=True)
class Plan:
    action: Action
    seats: frozenset[Seat]  # the zones the tracker hears about this frame


class ChangeGate:
    """``pixel_change``: grey levels a thumbnail pixel must change by to count as changed.
    ``min_pixels``: changed pixels (at least, and ``min_share`` of the zone) that make a zone
    moving or changed. ``margin_mm``: how far around each zone changes still count (a card
    played on the zone's edge). ``max_wait``: frames a zone may move before it is read anyway,
    so a hand resting on the table does not blind the referee."""

    def __init__(self, step: int = 8, pixel_change: int = 20, min_pixels: int = 3,
                 min_share: float = 0.005, margin_mm: float = 30.0, max_wait: int = 8) -> None:
        self.step, self.pixel_change = step, pixel_change
        self.min_pixels, self.min_share = min_pixels, min_share
        self.margin_mm, self.max_wait = margin_mm, max_wait
        self.calibration: Calibration | None = None
        self.masks: dict[Seat, np.ndarray] = {}
        self.previous: np.ndarray | None = None
        self.last_read: np.ndarray | None = None
        self.detections = CardDetections()
        self.waited = 0
        self.reads = self.kept = 0

    def thumb(self, image: np.ndarray) -> np.ndarray:
        s = self.step
        small = np.ascontiguousarray(image[s // 2::s, s // 2::s])
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return small.astype(np.int16)

    def _zone_masks(self, calibration: Calibration, shape: tuple[int, int]) -> None:
        self.masks = {}
        m = self.margin_mm
        for zone in calibration.layout.zones():
            corners = [(zone.x0 - m, zone.y0 - m), (zone.x1 + m, zone.y0 - m),
                       (zone.x1 + m, zone.y1 + m), (zone.x0 - m, zone.y1 + m)]
            pixels = calibration.to_image(np.array(corners, float))
            mask = np.zeros(shape, np.uint8)
            cv2.fillPoly(mask, [np.round((pixels - self.step // 2) / self.step).astype(
                np.int32)], 1)
            self.masks[zone.seat] = mask.astype(bool)

    def _busy(self, a: np.ndarray, b: np.ndarray) -> set[Seat]:
        """The zones where ``a`` and ``b`` differ."""
        changed = np.abs(a - b) > self.pixel_change
        busy = set()
        for seat, mask in self.masks.items():
            area = int(mask.sum())
            if area and int(changed[mask].sum()) >= max(self.min_pixels, self.min_share * area):
                busy.add(seat)
        return busy

    def plan(self, image: np.ndarray, calibration: Calibration | None) -> Plan:
        thumb = self.thumb(image)
        previous, self.previous = self.previous, thumb
        if calibration is None:
            self.calibration, self.last_read = None, None
            self.detections = CardDetections()
            return Plan(Action.KEEP, frozenset(SEATS))
        if calibration is not self.calibration or self.last_read is None \
                or previous is None or previous.shape != thumb.shape:
            if calibration is not self.calibration or not self.masks:
                self._zone_masks(calibration, thumb.shape)
            self.calibration = calibration
            return self._read(thumb)
        changed = self._busy(thumb, self.last_read)
        if not changed:
            self.waited = 0
            self.kept += 1
            return Plan(Action.KEEP, frozenset(SEATS))
        moving = self._busy(thumb, previous)
        self.waited += 1
        if changed - moving or self.waited >= self.max_wait:
            return self._read(thumb)
        self.kept += 1
        return Plan(Action.KEEP, frozenset(SEATS) - changed)

    def _read(self, thumb: np.ndarray) -> Plan:
        self.last_read = thumb
        self.waited = 0
        self.reads += 1
        return Plan(Action.READ, frozenset(SEATS))

    def remember(self, detections: CardDetections) -> None:
        """The reading taken on a ``READ`` frame, kept for the frames after it."""
        self.detections = detections
