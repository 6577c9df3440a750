"""Count the pips of a number card: evidence for its rank that does not depend on the design.

The classifier reads a card's rank mostly from its index, which on an unfamiliar design, or
blurred, it can mistake (a nine for a seven or an eight). The pips in the middle of a number
card say the same thing in a way every design shares: two to ten pips of one shape and size,
laid out symmetrically. ``count_pips`` counts them on the classifier's own crop, and answers
only when the picture leaves no doubt:

- the ink (whatever differs clearly from the card's paper) falls into blobs; those in a
  corner with no twin across the card are its index, and left out (a layout's pips are
  mirrored left to right; an index shows at two opposite corners only);
- the largest group of the other blobs of one size are the pips;
- no other sizable ink lies outside the corners (a court card's picture, pips run together);
- every pip is pip-shaped (not a long smear of two), has its twin across the card left to
  right, and its twin turned half round (but the odd pip of a seven or a nine, which many
  designs set above the middle);
- there are two to ten of them.

Else it says nothing (None): a court, an ace, a back, a blurred or shaded card. Cut along
their labelled outlines (64x96, as the classifier sees them), the number cards of 400 hard
pictures of the *validation* designs (studio seed 3031) were counted 692 times in 798, never
wrongly, and none of their 453 other cards was counted; of the *test* designs' 695 pictures
1,094 of 1,386, never wrongly, and one of 829 other cards (a back with four dots in its
corners, counted four). (Thirty-ninth session, every labelled card of the same pictures, some
partly hidden, ``HALF_TURN_TWIN`` 0.1 -> 0.2: validation designs 703 -> 718 of 969 number
cards, none of 642 other cards, none wrongly; test designs 1,107 -> 1,199 of 1,716, wrongly the
same three either way: that back, a 6D counted seven and a 3C counted two, both partly
hidden.) ``vision.classify`` counts only cards it reads unsurely, and makes its readings of
the counted rank ``PIP_WEIGHT`` times likelier (``weigh_by_pips``).
"""

from __future__ import annotations

import cv2
import numpy as np

# how much likelier a reading of the counted rank becomes. The counter miscounted no card of
# the validation designs and one in 2,215 of the test designs, but it has not seen every
# design: 50 leaves the classifier its say where it is sure of another card
PIP_WEIGHT = 50.0
# two pips are twins (mirrored, or turned half round) when they lie this close, in card widths
TWIN = 0.1
# ...but turned half round, this close: some designs set the rows of a six or a seven a little
# above the middle (bellot's sit at 0.14, 0.45 and 0.82 of the card's height), so a pip's twin
# across the middle lies lower. Chosen on the *validation* designs' 400 hard pictures (studio
# seed 3031), where 0.15 to 0.25 count alike: 718 of their 969 number cards, none wrongly
# (0.1: 703); the middle of that range. On the test designs' 695 it counts 1,199 of 1,716
# (0.1: 1,107), wrongly the same three cards either way (see above)
HALF_TURN_TWIN = 0.2
# the crop's rim left out (fractions of width, height): the table around a ragged outline
RIM = (0.05, 0.04)
# the least ink that counts as a blob, as a fraction of the crop
LEAST_BLOB = 0.0015
# blobs the same size as a pip: within this factor either way
SAME_SIZE = 1.43
# the ink outside the corners that is not a pip, as a fraction of a pip, that says "no count"
STRAY_INK = 0.35
# a pip's bounding box, as fractions of the crop (width, height), and its height to width
PIP_WIDTH, PIP_HEIGHT, PIP_TALL = (0.06, 0.34), 0.25, 1.8
# ink darker or more coloured than the paper by at least this (CIELAB, colour counted double)
LEAST_INK = 30
# lightness, then the two colour axes counted double (their squares)
_INK_WEIGHTS = np.array([1.0, np.sqrt(2.0), np.sqrt(2.0)], np.float32)


def count_pips(crop: np.ndarray) -> int | None:
    """The number of pips of the card in ``crop`` (BGR, the card upright or turned half round,
    filling the crop), or None unless it is plainly a number card's pip layout."""
    h, w = crop.shape[:2]
    ink = _ink(crop)
    rx, ry = int(RIM[0] * w), int(RIM[1] * h)
    inside = np.zeros_like(ink)
    inside[ry:h - ry, rx:w - rx] = ink[ry:h - ry, rx:w - rx]
    _, _, stats, centres = cv2.connectedComponentsWithStats(inside, connectivity=8)
    area = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    sizes = stats[1:, [cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT]] / np.array([w, h], np.float64)
    where = centres[1:] / np.array([w, h], np.float64)
    x, y = where[:, 0], where[:, 1]
    corner = ((x < 0.3) | (x > 0.7)) & ((y < 0.35) | (y > 0.65))
    blobs = np.flatnonzero(area >= LEAST_BLOB * w * h)
    if len(blobs) < 2:
        return None
    index = corner[blobs] & ~_has_twin(where[blobs], _mirrored(where[blobs]))
    blobs = blobs[~index]
    if len(blobs) < 2:
        return None
    # the pips: the largest group of blobs of one size (the larger group's size on a tie)
    a = area[blobs]
    alike = (a[None] * SAME_SIZE >= a[:, None]) & (a[None] <= SAME_SIZE * a[:, None])
    size = a[np.lexsort((a, alike.sum(axis=1)))[-1]]
    pips = blobs[(a * SAME_SIZE >= size) & (a <= SAME_SIZE * size)]
    stray = np.setdiff1d(blobs, pips)
    if area[stray[~corner[stray]]].sum() > STRAY_INK * size or not 2 <= len(pips) <= 10:
        return None
    width, height = sizes[pips, 0], sizes[pips, 1]
    if (width.min() < PIP_WIDTH[0] or width.max() > PIP_WIDTH[1] or height.max() > PIP_HEIGHT
            or (height * h / (width * w)).max() > PIP_TALL):
        return None
    at = where[pips]
    if not _has_twin(at, _mirrored(at)).all():
        return None
    odd = int((~_has_twin(at, 1 - at, HALF_TURN_TWIN)).sum())
    if odd > (1 if len(pips) in (7, 9) else 0):
        return None
    return len(pips)


def _ink(crop: np.ndarray) -> np.ndarray:
    """1 where the crop differs clearly from the card's paper (the mean colour of its
    brighter 60 %), by Otsu's threshold on that difference but at least ``LEAST_INK``."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    light = lab[..., 0]
    darker = np.bincount(light.ravel(), minlength=256).cumsum()
    bright = (light >= np.searchsorted(darker, 0.4 * darker[-1])).astype(np.uint8)
    paper = np.array(cv2.mean(lab, bright)[:3], np.float32)
    d = (lab.astype(np.float32) - paper) * _INK_WEIGHTS
    distance = cv2.magnitude(d[..., 0], cv2.magnitude(d[..., 1], d[..., 2]))
    distance = np.minimum(distance, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(distance, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    return (distance > max(otsu, LEAST_INK)).astype(np.uint8)


def _has_twin(points: np.ndarray, twins: np.ndarray, within: float = TWIN) -> np.ndarray:
    """Whether each of ``points`` (N, 2: fractions of the crop) has one of ``twins`` within
    ``within`` card widths (a crop is 1.5 widths high)."""
    gaps = np.sqrt((((points[:, None] - twins[None]) * [1.0, 1.5]) ** 2).sum(axis=-1))
    return gaps.min(axis=1) <= within


def _mirrored(points: np.ndarray) -> np.ndarray:
    """``points`` (N, 2: fractions of the crop) mirrored left to right across the card."""
    return np.column_stack([1 - points[:, 0], points[:, 1]])
