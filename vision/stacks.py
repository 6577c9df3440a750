"""The card on top: a region of the table that is not one whole card may still hold one.

The detector's network sees cards lying over one another (a pile of won tricks, two cards
pushed together), or a card and the hand beside it, as one region and cannot tell where one
card ends. A card on top, though, shows all four of its edges, and on a calibrated table a
card's size is known. So the region is looked at from above and every card-sized rectangle in
it (every turn, in steps, and each length a card may have) is scored by the weakest of its
four sides' edges: a card with a side under another card, or under a hand, has a weak side;
the card on top has none. The best rectangle, searched coarsely and then finely about the
coarse answer, is the card on top; where it does not show all its sides (it may be a card
underneath, whose outer sides are strong), the best rectangle away from it that does is. It
counts as seen whole only when an edge shows along at least half of each of its sides
(``SHOWN``); otherwise it is kept but not read, as the detector does with any card it is not
sure is whole, unless the classifier reads it surely as
a card back (a back's pattern often runs to its edge, where it looks like the back under it; a
back is never a play, so taking it costs the referee nothing).

A photograph without markers has no calibration, but its cards lie on one plane: the outline
of the whole card nearest to the region maps the table about it (``vision.detect``), and a top
card found there is taken only when its four sides show.

The search costs about 8 ms a region on a 2-core machine (15 ms for a big pile), and only
regions that are not one whole card pay it; the second search, away from a card underneath,
reuses the coarse search's scores (on the 11 regions searched in a replay of game1 at
1280x720, 15.9 ms a region against 23.4 ms when it searched afresh).
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

import cv2
import numpy as np

from .layout import CARD_MM

# the lengths a card may have (mm) for the standard width: designs run from 1.33 to 1.57
LENGTHS_MM = (84.0, 89.0, 94.0, 99.0)
# how much of each side must show an edge (at least EDGE of the strong edges around) for the
# card to count as seen whole: a side partly under another card, or a hand, has a gap. A top
# card's side over another light card often shows faintly (70 % until the twenty-fourth
# session turned away 56 of the 137 top cards that the hard pictures' labels call seen; half
# takes 17 more of their cards, 15 on the validation designs' pictures, none read wrongly
# at 0.9, and a card under another, whose side the top card hides, still shows far less)
SHOWN = 0.5
EDGE = 0.35
PAD_MM = 10.0  # the region is looked at with this margin
# a region wider than this (an arm across the table) is no stack of cards, and would cost much
MOST_SPAN_MM = 300.0
# the coarse and the fine search: pixels a millimetre, and steps of turn (degrees)
COARSE_PPM, COARSE_STEP = 0.75, 6.0
FINE_PPM, FINE_STEP = 1.5, 1.5  # five turns: -3 to +3 degrees
# the fine search looks this far about the coarse card's centre (its diagonal and a margin)
FINE_SPAN_MM = float(np.hypot(CARD_MM[0], max(LENGTHS_MM))) + 16.0
# only the middle of each side counts: the corners are rounded, and a turn a step off the
# card's shifts the side's ends most
SIDE_SHARE = 0.7
# a card found in a region covers at least this share of it (or of itself, if smaller)
LEAST_OVERLAP = 0.3
# where the best-edged rectangle does not show all its sides (it may be a card underneath,
# whose outer sides are strong), the best one centred at least AWAY_MM from it is tried too,
# and taken if all its sides show (forty-third session: 3 more of the hard pictures' cards
# found whole and read right, 2 more of the validation designs' pictures, none read wrongly,
# the 340 games unchanged; 20 mm found 1, 50 mm 2)
AWAY_MM = 35.0


def top_card(gray: np.ndarray, outline_px: np.ndarray,
             calibration) -> tuple[np.ndarray, bool] | None:  # noqa: ANN001
    """The card on top in the region whose outline (picture px, Nx2) is given: its corners in
    the picture (4x2) and whether all four of its sides show clearly; None when the region
    is too small to hold a card, or far too big to be a stack of cards."""
    outline_mm = calibration.to_table(outline_px)
    lo = outline_mm.min(axis=0) - PAD_MM
    hi = outline_mm.max(axis=0) + PAD_MM
    centre_mm = (lo + hi) / 2
    span_mm = float(np.hypot(*(hi - lo)))  # room to turn the region about its centre
    if span_mm > MOST_SPAN_MM:
        return None
    # the coarse search's scores serve both searches: only the rectangles left out differ
    coarse = _Scores(gray, calibration, centre_mm, span_mm, COARSE_PPM,
                     np.arange(0.0, 180.0, COARSE_STEP))
    best = _coarse_then_fine(gray, calibration, coarse)
    if best is None:
        return None
    if best.shown < SHOWN:
        # the best-edged rectangle may be the card underneath, whose outer sides are strong;
        # the card on top, whose side over it shows faintly, is the next best elsewhere
        other = _coarse_then_fine(gray, calibration, coarse, away_from=best.centre_mm)
        if (other is not None and other.shown >= SHOWN
                and _overlap(other.corners, outline_px) >= LEAST_OVERLAP):
            best = other
    # the search window reaches past the region (room to turn it), so it may square up a
    # neighbouring card instead: a card on top covers a good part of the region (which may be
    # only a piece of the card, where the detector split it)
    if _overlap(best.corners, outline_px) < LEAST_OVERLAP:
        return None
    return best.corners, best.shown >= SHOWN


def _coarse_then_fine(gray: np.ndarray, calibration, coarse: _Scores,  # noqa: ANN001
                      away_from: np.ndarray | None = None) -> _Found | None:
    """The best card-sized rectangle of the ``coarse`` search (at every turn), then the best
    found finely about it: its centre is within a few mm of the coarse one's. ``away_from``:
    none centred within ``AWAY_MM`` of this point (mm)."""
    found = coarse.best(away_from)
    if found is None:
        return None
    fine = _Scores(gray, calibration, found.centre_mm, FINE_SPAN_MM, FINE_PPM,
                   found.angle + FINE_STEP * np.arange(-2, 3)).best()
    return fine if fine is not None else found


def _overlap(corners: np.ndarray, outline_px: np.ndarray) -> float:
    """How much of the region (its outline's hull) the card with ``corners`` covers, as a
    share of the smaller of the two."""
    hull = cv2.convexHull(outline_px.astype(np.float32).reshape(-1, 1, 2))
    card = cv2.convexHull(corners.astype(np.float32).reshape(-1, 1, 2))
    common, _ = cv2.intersectConvexConvex(hull, card)
    return float(common) / max(min(cv2.contourArea(hull), cv2.contourArea(card)), 1.0)


class _Found(NamedTuple):
    angle: float  # degrees the patch was turned to square the card up
    corners: np.ndarray  # in the picture (4x2 px)
    centre_mm: np.ndarray  # on the table
    shown: float  # the least share of a side along which an edge shows


def _turned_gradients(patch: np.ndarray, middle: float,
                      angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edges across x and across y of the patch turned by each of ``angles`` about its middle
    (A, S, S each): on a card squared up by a turn they mark its long and its short sides. An
    edge counts only as far as it runs straight along the side (|d/dx| less |d/dy|, and the
    other way), so the criss-cross of a card back's pattern, whose edges run every way, does
    not look like a card's side. A pixel either way is the same edge, so each is widened by one
    pixel across the side it marks. The turned patches are filtered as one tall picture: a
    filter mixes neighbouring patches only in their outermost pixel rows, which no card of the
    search reaches."""
    side = patch.shape[0]
    turned = np.concatenate([
        cv2.warpAffine(patch, cv2.getRotationMatrix2D((middle, middle), float(angle), 1.0),
                       (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        for angle in angles])
    dx = np.abs(cv2.Sobel(turned, cv2.CV_32F, 1, 0))
    dy = np.abs(cv2.Sobel(turned, cv2.CV_32F, 0, 1))
    across = np.ones((1, 3), np.uint8)
    return (cv2.dilate(np.maximum(dx - dy, 0), across),
            cv2.dilate(np.maximum(dy - dx, 0), across.T))


class _Scores:
    """Every card-sized rectangle in the square of the table ``span_mm`` wide about
    ``centre_mm``, seen from above at ``ppm`` pixels a millimetre, turned by each of
    ``angles``, scored by its weakest side's edge (``best`` picks one)."""

    def __init__(self, gray: np.ndarray, calibration, centre_mm: np.ndarray,  # noqa: ANN001
                 span_mm: float, ppm: float, angles: np.ndarray) -> None:
        self.centre_mm, self.ppm, self.angles = np.asarray(centre_mm, float), ppm, angles
        side = self.side = int(np.ceil(span_mm * ppm)) | 1
        middle = self.middle = (side - 1) / 2
        # patch pixel -> table mm -> picture pixel
        self.to_mm = np.array([[1 / ppm, 0, centre_mm[0] - middle / ppm],
                               [0, 1 / ppm, centre_mm[1] - middle / ppm], [0, 0, 1]])
        self.to_px = calibration.to_image_matrix @ self.to_mm
        patch = cv2.warpPerspective(gray, self.to_px, (side, side),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        self.patch = cv2.GaussianBlur(patch, (0, 0), 0.5 * ppm)
        half_w = self.half_w = int(round(CARD_MM[0] * ppm / 2))
        self.gx, self.gy = _turned_gradients(self.patch, middle, angles)
        short_sides = cv2.boxFilter(self.gy, -1, (int(SIDE_SHARE * 2 * half_w) | 1, 1)).reshape(
            len(angles), side, side)
        # for each card length: (half its length, r0, c0, and for each turn and centre
        # (row - r0, col - c0) of the rectangle its weakest side's edge)
        self.weakest: list[tuple[int, int, int, np.ndarray]] = []
        for length in LENGTHS_MM:
            half_l = int(round(length * ppm / 2))
            # (centres whose sides would reach the patch's outermost rows are left out)
            r0, r1, c0, c1 = half_l + 2, side - half_l - 2, half_w + 2, side - half_w - 2
            if r1 <= r0 or c1 <= c0:
                continue
            long_sides = cv2.boxFilter(self.gx, -1, (1, int(SIDE_SHARE * 2 * half_l) | 1)
                                       ).reshape(len(angles), side, side)
            self.weakest.append((half_l, r0, c0, np.minimum(
                np.minimum(long_sides[:, r0:r1, c0 - half_w:c1 - half_w],
                           long_sides[:, r0:r1, c0 + half_w:c1 + half_w]),
                np.minimum(short_sides[:, r0 - half_l:r1 - half_l, c0:c1],
                           short_sides[:, r0 + half_l:r1 + half_l, c0:c1]))))

    def best(self, away_from: np.ndarray | None = None) -> _Found | None:
        """The rectangle whose weakest side shows the strongest edge; none centred within
        ``AWAY_MM`` of ``away_from`` (mm on the table)."""
        middle, ppm, angles = self.middle, self.ppm, self.angles
        # the point to keep away from, in the patch turned by each of the angles (col, row)
        avoided = None if away_from is None else np.array([
            turn[:, :2] @ ((np.asarray(away_from) - self.centre_mm) * ppm + middle) + turn[:, 2]
            for turn in (cv2.getRotationMatrix2D((middle, middle), float(a), 1.0)
                         for a in angles)])
        best: tuple[float, int, int, int, int] | None = None  # weakest, angle, row, col, half_l
        for half_l, r0, c0, weakest in self.weakest:
            if avoided is not None:  # no card centred within AWAY_MM of it
                rows = np.arange(r0, r0 + weakest.shape[1])[None, :, None]
                cols = np.arange(c0, c0 + weakest.shape[2])[None, None, :]
                near = np.hypot(cols - avoided[:, 0, None, None],
                                rows - avoided[:, 1, None, None]) < AWAY_MM * ppm
                weakest = np.where(near, -1.0, weakest)
            i = int(np.argmax(weakest))
            if best is None or weakest.flat[i] > best[0]:
                a, row, col = np.unravel_index(i, weakest.shape)
                best = (float(weakest.flat[i]), int(a), int(row) + r0, int(col) + c0, half_l)
        if best is None:
            return None
        _, a, row, col, half_l = best
        return self._found(a, row, col, half_l)

    @cached_property
    def strong(self) -> float:
        """The patch's strong edges (their 90th percentile), against which a side shows an
        edge or not: worked out once, however many rectangles of it are picked."""
        return float(np.percentile(np.hypot(cv2.Sobel(self.patch, cv2.CV_32F, 1, 0),
                                            cv2.Sobel(self.patch, cv2.CV_32F, 0, 1)), 90))

    def _found(self, a: int, row: int, col: int, half_l: int) -> _Found:
        """The rectangle at turn ``angles[a]`` centred at (``row``, ``col``) of the turned
        patch, ``half_l`` long each way: where it lies, and how much of each side shows."""
        middle, half_w, side, angle = self.middle, self.half_w, self.side, float(self.angles[a])
        strong = self.strong
        gx, gy = (g.reshape(len(self.angles), side, side)[a] for g in (self.gx, self.gy))
        rows = np.arange(row - int(0.85 * half_l), row + int(0.85 * half_l) + 1)
        cols = np.arange(col - int(0.8 * half_w), col + int(0.8 * half_w) + 1)
        sides = [gx[rows, col - half_w], gx[rows, col + half_w], gy[row - half_l, cols],
                 gy[row + half_l, cols]]
        shown = min(float((values >= EDGE * strong).mean()) for values in sides)
        turned_corners = np.array([[col - half_w, row - half_l], [col + half_w, row - half_l],
                                   [col + half_w, row + half_l], [col - half_w, row + half_l]],
                                  np.float64)
        back = cv2.invertAffineTransform(cv2.getRotationMatrix2D((middle, middle), angle, 1.0))
        in_patch = turned_corners @ back[:, :2].T + back[:, 2]
        corners = cv2.perspectiveTransform(in_patch.reshape(-1, 1, 2),
                                           self.to_px).reshape(-1, 2)
        centre = cv2.perspectiveTransform(in_patch.mean(axis=0).reshape(1, 1, 2),
                                          self.to_mm).reshape(2)
        return _Found(angle, corners, centre, shown)
