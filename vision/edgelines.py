"""A card lying over another in a photograph, found by its four straight edges.

On a photograph without markers two cards that overlap, or a fan of three, often make one
region that the detector outlines as one card: a rectangle about both, read unsurely as
neither. ``vision.stacks`` finds the card on top of such a region by trying card-sized
rectangles on the table's plane, but a photograph has a plane only where some other card in
it shows whole, and a close-up often holds no such card. Yet the card on top shows all four
of its edges, straight: along the region's outline where it lies over the table, and across
the region where it lies over the card under it. So the straight edges in and about the
region are found (Canny's edges joined by a Hough transform), and every quadrilateral that
four of them make is scored:

- two pairs of roughly opposite sides (within ``OPPOSITE`` degrees), each pair at least
  ``ACROSS`` degrees from the other;
- convex, inside the region, at least ``LEAST_SHARE`` of its area, each side at least
  ``LEAST_SIDE`` of the longest and no more than ``CLOSE_BY`` times the one across from it
  (a card seen from close by: ``vision.outlines``);
- an edge along ``SIDE_SHOWN`` of each of its sides at least.

The best few, by the weakest side's share shown times the square root of the area (a card,
not a pip's frame), are outlines for the classifier to read (``vision.check``).
"""

from __future__ import annotations

import itertools
import math

import cv2
import numpy as np

from .outlines import CLOSE_BY
from .geometry import side_lengths, taper

# the longest straight edges kept a region; edges this close (degrees, px) are one
MOST_LINES = 14
SAME_TURN, SAME_PLACE = 4.0, 6.0
# an edge counts when it runs at least this share of the region's short side
LEAST_RUN = 0.35
# how the four edges must lie to make a card (see the module's docstring)
OPPOSITE, ACROSS = 35.0, 40.0
LEAST_SHARE, LEAST_SIDE = 0.2, 0.3
SIDE_SHOWN = 0.6
INSIDE = 0.9
# the share of each side, about its middle, looked at for an edge (corners are rounded)
SIDE_MIDDLE = 0.76
PAD = 10  # pixels about the region looked at
# the least gradient (Sobel's, 3x3) taken as a patch's strong edges: a step of 20 grey levels
LEAST_STRONG = 80.0


def cards_on_top(gray: np.ndarray, outline: np.ndarray, most: int = 3) -> list[np.ndarray]:
    """Outlines (4x2, picture px, best first, at most ``most``) of cards that may lie on top
    in the region outlined by ``outline`` (4x2) in the grey picture ``gray``."""
    quad = np.asarray(outline, np.float64).reshape(4, 2)
    height, width = gray.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)) - PAD, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)) + PAD, [width - 1, height - 1]).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return []
    patch = gray[y0:y1 + 1, x0:x1 + 1]
    region = np.zeros(patch.shape, np.uint8)
    cv2.fillConvexPoly(region, np.round(quad - (x0, y0)).astype(np.int32), 255)
    region = cv2.dilate(region, np.ones((9, 9), np.uint8))
    short = float(side_lengths(quad).min())
    edges = _edges(patch, region)
    lines = _lines(edges, max(12.0, LEAST_RUN * short))
    if len(lines) < 4:
        return []
    near_edge = cv2.dilate(edges, np.ones((5, 5), np.uint8)) > 0
    area_most = 1.05 * abs(cv2.contourArea(quad.astype(np.float32)))
    scored = []
    for sides in _four_sides(lines):
        corners = _corners(lines, sides)
        if corners is None:
            continue
        score = _score(corners, near_edge, region, area_most)
        if score is not None:
            scored.append((score, corners + (x0, y0)))
    scored.sort(key=lambda s: -s[0])
    return [corners for _, corners in scored[:most]]


def _edges(patch: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Canny's edges of ``patch`` within ``region``, with thresholds from the patch's own
    gradients (its strongest tenth), so that any table and light give a card's edges, but
    never so low that a smooth patch's noise makes edges (``LEAST_STRONG``)."""
    magnitude = np.hypot(cv2.Sobel(patch, cv2.CV_32F, 1, 0), cv2.Sobel(patch, cv2.CV_32F, 0, 1))
    strong = max(float(np.percentile(magnitude[region > 0], 90)), LEAST_STRONG)
    edges = cv2.Canny(patch, 0.25 * strong, 0.6 * strong, L2gradient=True)
    edges[region == 0] = 0
    return edges


def _lines(edges: np.ndarray, least: float) -> list[tuple[np.ndarray, float]]:
    """The longest straight edges (their unit normal and distance from the origin), at most
    ``MOST_LINES``, pieces of one edge joined."""
    segments = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=max(8, int(0.4 * least)),
                               minLineLength=int(least), maxLineGap=max(6, int(0.1 * least)))
    if segments is None:
        return []
    segments = segments.reshape(-1, 4).astype(np.float64)
    lengths = np.hypot(segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1])
    lines: list[tuple[np.ndarray, float]] = []
    same = math.cos(math.radians(SAME_TURN))
    for k in np.argsort(-lengths):
        x1, y1, x2, y2 = segments[k]
        normal = np.array([y2 - y1, x1 - x2]) / lengths[k]
        rho = float(normal @ (x1, y1))
        if rho < 0:
            normal, rho = -normal, -rho
        if not any(abs(float(normal @ n)) > same and abs(rho - r) < SAME_PLACE
                   for n, r in lines):
            lines.append((normal, rho))
            if len(lines) == MOST_LINES:
                break
    return lines


def _four_sides(lines: list[tuple[np.ndarray, float]]):  # noqa: ANN202
    """Indices (a, c, b, d) of four lines that may be a card's sides in turn: a and b about
    opposite, c and d about opposite, and the two pairs well across each other."""
    opposite = math.cos(math.radians(OPPOSITE))
    across = math.cos(math.radians(ACROSS))
    normals = np.array([n for n, _ in lines])
    dots = np.abs(normals @ normals.T)
    pairs = [(a, b) for a, b in itertools.combinations(range(len(lines)), 2)
             if dots[a, b] >= opposite]
    for (a, b), (c, d) in itertools.combinations(pairs, 2):
        if len({a, b, c, d}) == 4 and dots[a, c] <= across:
            yield a, c, b, d


def _corners(lines: list[tuple[np.ndarray, float]], sides: tuple[int, ...]) -> np.ndarray | None:
    """Where each of the four lines (in turn around the quadrilateral) meets the next."""
    corners = []
    for k in range(4):
        (n1, r1), (n2, r2) = lines[sides[k]], lines[sides[(k + 1) % 4]]
        matrix = np.array([n1, n2])
        if abs(np.linalg.det(matrix)) < 1e-6:
            return None
        corners.append(np.linalg.solve(matrix, [r1, r2]))
    return np.array(corners)


def _score(corners: np.ndarray, near_edge: np.ndarray, region: np.ndarray,
           area_most: float) -> float | None:
    """How well ``corners`` (4x2, patch px) outline a card lying on top (see the module's
    docstring), or None where they cannot."""
    as_float = corners.astype(np.float32)
    if not cv2.isContourConvex(as_float):
        return None
    area = abs(cv2.contourArea(as_float))
    if not LEAST_SHARE * area_most / 1.05 <= area <= area_most:
        return None
    sides = side_lengths(corners)[0]
    if sides.min() < LEAST_SIDE * sides.max() or taper(corners)[0] > CLOSE_BY:
        return None
    shown = []
    height, width = near_edge.shape
    ends = (1 - SIDE_MIDDLE) / 2
    for k in range(4):
        p, q = corners[k], corners[(k + 1) % 4]
        steps = np.linspace(ends, 1 - ends, max(int(sides[k] / 2), 4))
        points = np.round(p + steps[:, None] * (q - p)).astype(int)
        inside = ((points >= 0) & (points < (width, height))).all(axis=1)
        hits = np.zeros(len(points), bool)
        hits[inside] = near_edge[points[inside, 1], points[inside, 0]]
        shown.append(float(hits.mean()))
    if min(shown) < SIDE_SHOWN:
        return None
    # inside the region: a grid of points over the quadrilateral (its size does not matter)
    u = _GRID[:, :1]
    v = _GRID[:, 1:]
    points = np.round((1 - v) * ((1 - u) * corners[0] + u * corners[1])
                      + v * ((1 - u) * corners[3] + u * corners[2])).astype(int)
    points = np.clip(points, 0, (width - 1, height - 1))
    if (region[points[:, 1], points[:, 0]] > 0).mean() < INSIDE:
        return None
    return min(shown) * math.sqrt(area)


_STEPS = np.linspace(0.05, 0.95, 10)
_GRID = np.stack(np.meshgrid(_STEPS, _STEPS), axis=-1).reshape(-1, 2)
