"""Tell a card back by its corners: evidence that does not depend on the design.

Every face of a French deck prints its index (rank and suit sign) in two opposite corners,
top left and bottom right, and leaves the other two plain (or shows the picture there, which
differs from an index). A back has no index: its four corners look alike, a pattern or a
margin drawn the same all round. The classifier learnt the backs of its train designs rather
than what a back is, so an unfamiliar back (kde-jolly-royal's red and gold scrolls,
lattmann's harlequin of blue diamonds) it reads unsurely, or as an ace or a ten.

``back_likeness`` compares the four corners of the classifier's own crop (the card upright
or turned half round, filling the crop), each in the frame of the top-left one (mirrored or
turned to it):

- how much is drawn in each (its spread of lightness and colour): on a face the two index
  corners hold far more than the other two; on a back the four hold about as much;
- how far each corner differs from its mirror image across the card: on a face the index
  differs from the plain corner beside it; on a back a corner is much like its mirror.

The two make one score (higher: more like a back). ``vision.classify`` makes an unsure
reading's "card back" ``BACK_WEIGHT`` times likelier where the score reaches ``LIKE_A_BACK``
(not where "not a card" leads: anything plain has four corners alike), and never surer than
``BACK_AT_MOST``: a face whose index hardly shows (in the dark) looks alike all round too. A
low score says nothing against a back (a pile's top card shows the cards under it).
"""

from __future__ import annotations

import cv2
import numpy as np

# each corner's patch, as fractions of the crop's width and height: where an index's rank
# and suit sign lie, a little in from the edge (an outline a pixel or two out brings in table)
PATCH_X = (0.04, 0.20)
PATCH_Y = (0.03, 0.15)
# a corner's spread: lightness, then the colour axes at half weight
_SPREAD_WEIGHTS = np.array([1.0, 0.5, 0.5], np.float32)
# how much the balance of the corners' spreads counts against their mirror differences
BALANCE_WEIGHT = 4.0


def back_likeness(crop: np.ndarray) -> float:
    """How much the four corners of ``crop`` (BGR, a card filling it) look alike: the balance
    of what is drawn in the two index corners and the other two (``BALANCE_WEIGHT`` times its
    log, 0 when even) less the log of how far each corner differs from its mirror image
    (CIELAB units, mean absolute difference). A back scores high, a face low."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    patches = [np.ascontiguousarray(patch) for patch in _corners(lab)]
    spread = [float(cv2.meanStdDev(patch)[1].ravel() @ _SPREAD_WEIGHTS) for patch in patches]
    index, plain = spread[0] + spread[3], spread[1] + spread[2]
    balance = (min(index, plain) + 1.0) / (max(index, plain) + 1.0)
    mirror = sum(sum(cv2.mean(cv2.absdiff(a, b))[:3]) / 3.0
                 for a, b in ((patches[0], patches[1]), (patches[2], patches[3])))
    return BALANCE_WEIGHT * float(np.log(balance)) - float(np.log(mirror + 1e-3))


def _corners(image: np.ndarray) -> tuple[np.ndarray, ...]:
    """The four corner patches of ``image``, each turned or mirrored into the frame of the
    top-left one: top left, top right, bottom left, bottom right."""
    h, w = image.shape[:2]
    x0, x1 = int(PATCH_X[0] * w), int(round(PATCH_X[1] * w))
    y0, y1 = int(PATCH_Y[0] * h), int(round(PATCH_Y[1] * h))
    top_left = image[y0:y1, x0:x1]
    top_right = image[y0:y1, w - x1:w - x0][:, ::-1]
    bottom_left = image[h - y1:h - y0, x0:x1][::-1]
    bottom_right = image[h - y1:h - y0, w - x1:w - x0][::-1, ::-1]
    return top_left, top_right, bottom_left, bottom_right
