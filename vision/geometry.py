"""Card outlines: putting four corners in a standard order and cutting the card out upright."""

from __future__ import annotations

import cv2
import numpy as np

from .cardclasses import CROP_SIZE


def portrait_order(quad: np.ndarray) -> np.ndarray:
    """The same four corners, clockwise on screen, starting so that the first edge is one of
    the card's short edges (its top or its bottom: which of the two cannot be told from the
    outline, so the classifier reads cards either way up)."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # clockwise on screen (y points down)
    edges = [np.linalg.norm(quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    if edges[0] + edges[2] > edges[1] + edges[3]:
        quad = np.roll(quad, -1, axis=0)
    # start at the upper of the two short-edge choices, so a card upright on screen is upright
    if quad[0, 1] + quad[1, 1] > quad[2, 1] + quad[3, 1]:
        quad = np.roll(quad, -2, axis=0)
    return quad


def rectify(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = CROP_SIZE,
            ordered: bool = False) -> np.ndarray:
    """Cut the card with outline ``quad`` out of ``image`` as an upright ``size`` (w, h) crop.
    ``ordered``: the corners are already clockwise from the card's top-left."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    if not ordered:
        quad = portrait_order(quad).astype(np.float32)
    w, h = size
    target = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    matrix = cv2.getPerspectiveTransform(quad, target)
    # shrink first when the card is much bigger than the crop, so the warp does not alias
    side = float(np.linalg.norm(quad[1] - quad[0]))
    if side > 2.5 * w:
        k = 2.0 * w / side
        small = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
        matrix = matrix @ np.diag([1 / k, 1 / k, 1.0])
        image = small
    return cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
