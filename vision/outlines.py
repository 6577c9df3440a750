"""From a card's region to its outline (``vision.detect``): the quadrilateral fitted round the
region (on a calibrated table, a card-sized rectangle on the table plane), snapped to the
strongest edges nearby in the full-size picture, put back where snapping pulled a side off the
picture's edge, and checked for a card's shape."""

from __future__ import annotations

import math

import cv2
import numpy as np

from .geometry import portrait_orders, side_lengths, side_pairs, taper
from .layout import CARD_MM


# a card's core, as the detector learns it (``vision.train.detector``): its outline shrunk to
# this share of its size about its centre
CORE_SHARE = 0.55
SNAP_REACH = 0.15  # edges are looked for this fraction of a card's short side either side
SLANT = 0.9  # a free quadrilateral replaces the enclosing rectangle when this much smaller
# the longest a card may look in a picture without a calibration, long side over short: a
# card of the standard proportions seen 60 degrees off straight down
MOST_SLANTED = 2.8
# a card the picture's edge cuts (``_cut_by_the_edge``): the most its two sides meeting the edge
# may turn from each other, and the most its own corner may be off square, in degrees
CUT_PARALLEL = 12.0
CUT_SQUARE = 30.0
# a photograph's card seen from close by at a slant is a trapezium whose far side is much the
# shorter: its region's hull is then itself four-sided, and the quadrilateral around the hull
# is taken as the outline when it adds at most ``HUGS`` of the hull's area. How much longer
# its near side may be grows with how much of the picture the card spans (the nearer the
# camera, the more its two ends' distances differ): 1 + ``NEAR_GAIN`` times its longest side
# over the picture's long side, at most ``CLOSE_BY``
HUGS = 0.02
NEAR_GAIN = 2.0
CLOSE_BY = 2.0
# how close a whole card's sides on a calibrated table must be to a card's, as a share of them
CARD_SIZE_TOLERANCE = 0.22


def fit_on_table(contour: np.ndarray, scale: float, offset: tuple[int, int],  # noqa: ANN001
                  calibration, snap: float = 0.3) -> tuple[np.ndarray | None, bool]:
    """On a calibrated table every card is a rectangle of a card's size, however the camera
    looks at it: the region whose ``contour`` is given (``region_outline``; network pixels, which
    ``scale`` and ``offset`` map to the picture) is seen from above, squared up there and,
    when it is about a card's size, given exactly a card's size about its centre, so a blurred
    or half-seen outline still gives the card's true corners in the picture (which the edge
    snapping then refines). A region far from a card's size gives None. Also says whether the
    region seen has a card's size (within the 22 % that a whole card must be within): a card
    cut short by a hand is snapped to its full size but not called whole."""
    outline = contour.reshape(-1, 2).astype(np.float64)
    # the region's pixels are whole pixels: its outline runs half a pixel outside their centres
    centre = outline.mean(axis=0)
    away = outline - centre
    outline += 0.5 * away / np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-6)
    pixels = to_picture(outline, scale, offset)
    mm = calibration.to_table(pixels).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(mm)
    short, long = CARD_MM
    size = (short, long) if w <= h else (long, short)
    off = max(abs(min(w, h) - short) / short, abs(max(w, h) - long) / long)
    if off >= snap:
        return None, False
    box = cv2.boxPoints(((cx, cy), size, angle)).astype(np.float64)
    return calibration.to_image(box), off < CARD_SIZE_TOLERANCE


def core_outline(core: np.ndarray, scale: float, offset: tuple[float, float],
               ) -> np.ndarray | None:
    """The outline of the card whose core is ``core`` (a mask of network pixels; its top-left
    pixel at ``offset`` in the picture): the rectangle of least area around the core, drawn
    out about its centre to a whole card (the network learnt cores as outlines shrunk to
    ``CORE_SHARE``), in picture pixels. None for a core too small to measure. (The network
    draws cores with rounded ends, so the rectangle can lie a few degrees off the card: the
    caller snaps it to the picture's edges. Taking the core's principal axes instead kept a
    rounder core square to its card, but read 8 fewer of the 891 webcam photographs right.)"""
    points = cv2.findNonZero(core.astype(np.uint8))
    if points is None or len(points) < 12:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    # the core's pixels are whole pixels: its outline runs half a pixel outside their centres
    rect = cv2.boxPoints(((cx, cy), (w + 1, h + 1), angle)).astype(np.float64)
    rect = (rect - (cx, cy)) / CORE_SHARE + (cx, cy)
    return (rect + 0.5) / scale - 0.5 + offset


class Grey:
    """The picture in grey, worked out only when first asked for (``whole``): most frames
    need only the parts about their cards (``refined_twice``)."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame, self._whole = frame, None

    @property
    def whole(self) -> np.ndarray:
        if self._whole is None:
            self._whole = _grey(self.frame)
        return self._whole


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def refined_twice(frame: np.ndarray, quads: np.ndarray, reaches: np.ndarray) -> np.ndarray:
    """``refine_quads`` with ``reaches``, then again with a short reach (3 px) to settle the
    edges, looking only at the part of the picture about the quads. Each look stays within
    half as much again as its reach of the corners it starts from, so a grey part with
    twice the longest reach and a few pixels to spare all round holds every pixel either
    looks at: the corners are those the whole picture gives (to rounding: in 4 of 270 test
    pictures a near tie between two edges went the other way, moving a corner under a
    pixel), and making grey a zone about its cards costs far less than a 1280x720 frame."""
    height, width = frame.shape[:2]
    spare = 2.0 * float(np.max(reaches, initial=0.0)) + 8.0
    corners = quads.reshape(-1, 2)
    if not np.isfinite(corners).all():
        gray = _grey(frame)
        return refine_quads(gray, refine_quads(gray, quads, reaches), 3.0)
    x0, y0 = np.floor(corners.min(axis=0) - spare).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + spare).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x1 - x0 < 2 or y1 - y0 < 2:  # the cards lie off the picture: nothing to snap to
        return quads.astype(np.float64).copy()
    shift = np.array([x0, y0], np.float64)
    part = _grey(frame[y0:y1, x0:x1])
    return refine_quads(part, refine_quads(part, quads - shift, reaches), 3.0) + shift


def snapped_cores(gray: Grey | np.ndarray, cores: list[np.ndarray | None]) -> np.ndarray:
    """``cores`` (outlines in picture pixels, or None) snapped to the picture's edges and put
    in portrait order, as an (N, 4, 2) array with NaN for None."""
    out = np.full((len(cores), 4, 2), np.nan, np.float32)
    have = [i for i, c in enumerate(cores) if c is not None]
    if have:
        drawn = np.array([cores[i] for i in have])
        short = np.linalg.norm(drawn - drawn[:, [1, 2, 3, 0]], axis=2).min(axis=1)
        picture = gray.whole if isinstance(gray, Grey) else gray
        out[have] = portrait_orders(refine_quads(picture, drawn,
                                                 np.maximum(5.0, SNAP_REACH * short)))
    return out


def to_picture(points: np.ndarray, scale: float, offset: tuple[int, int]) -> np.ndarray:
    """Network pixels (pixel centres at whole numbers) as picture pixels: the network saw the
    part of the picture from ``offset`` shrunk by ``scale``."""
    return (np.asarray(points, np.float64) + 0.5) / scale - 0.5 + offset


def region_outline(region: np.ndarray, offset: tuple[int, int] = (0, 0),
             ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """A card region's (network pixels) largest contour (its straight runs given by their ends
    only), its convex hull, and the hull's area counted as the region's pixels are. ``region``
    may be a window of the network's picture whose top-left pixel is at ``offset`` there: the
    contour and hull are given in the whole picture's pixels."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    hull_mask = np.zeros_like(region)
    cv2.fillConvexPoly(hull_mask, hull, 1)
    shift = np.array(offset, contour.dtype)
    return contour + shift, hull + shift, float(cv2.countNonZero(hull_mask))


def fit_quad(region: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A quadrilateral around a card region (network pixels), and the area of the region's
    convex hull (in the same pixels, counted as the region's are)."""
    outline = region_outline(region)
    if outline is None:
        return None
    contour, hull, hull_area = outline
    return quad_around(contour, hull), hull_area


def quad_around(contour: np.ndarray, hull: np.ndarray,
                 picture: tuple[int, int] | None = None) -> np.ndarray:
    """The quadrilateral around a region's contour (and its convex hull), on the outside of
    the region's pixels. ``picture``: the (width, height) of the picture the region lies in,
    when the picture's edges may cut the card (a photograph's, not a table's top-down view)."""
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for k in (0.02, 0.04, 0.06, 0.08, 0.1):
        approx = cv2.approxPolyDP(hull, k * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)
    rect_area = cv2.contourArea(rect.astype(np.float32))
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < 0.8 * rect_area:
        # No four corners stand out (a small region is ragged). A card seen at a slant is a
        # parallelogram or a trapezium, not a rectangle: when the quadrilateral that encloses
        # the hull with the least area is clearly tighter than the rectangle, it is the
        # outline. (On a square-on card the rectangle is steadier: a bump on the region's
        # edge can tilt the free quadrilateral.)
        quad = _enclosing_quad(hull.reshape(-1, 2).astype(np.float64))
        if (quad is None or not (_parallel_sided(quad) or _cut_by_the_edge(quad, picture)
                                 or _hugs_a_trapezium(quad, hull, picture))
                or cv2.contourArea(quad.astype(np.float32)) > SLANT * rect_area):
            quad = rect
    # region pixels are whole pixels: the outline runs half a pixel outside their centres
    centre = quad.mean(axis=0)
    direction = quad - centre
    norms = np.linalg.norm(direction, axis=1, keepdims=True)
    return quad + 0.5 * direction / np.maximum(norms, 1e-6) * math.sqrt(2)


def _cut_by_the_edge(quad: np.ndarray, picture: tuple[int, int] | None) -> bool:
    """Is ``quad`` a card the edge of the ``picture`` (width, height) cuts? Such a quadrilateral
    has one or two sides along the edge, where the picture cuts the card, not sides of the
    card's own, so its opposite sides need not match in length: a card cut at a slant shows
    more along the edge than across its far end, and one cut at a corner shows two sides of
    its own, each only as far as the edge. Its own sides must still be a card's: with one side
    along the edge the two that meet it run the same way (``CUT_PARALLEL``); with two, at a
    corner of the picture, the card's own corner across from it is about square
    (``CUT_SQUARE``)."""
    if picture is None:
        return False
    limits, near = picture_edges(*picture)
    cut = [k for k in range(4) if _edges_under(quad[k], quad[(k + 1) % 4], limits, near)]
    sides = [quad[(k + 1) % 4] - quad[k] for k in range(4)]

    def degrees(u: np.ndarray, v: np.ndarray) -> float:
        cos = abs(float(u @ v)) / max(float(np.linalg.norm(u) * np.linalg.norm(v)), 1e-9)
        return math.degrees(math.acos(min(cos, 1.0)))  # 0: the same way, 90: square

    if len(cut) == 1:
        k = cut[0]
        return degrees(sides[(k + 1) % 4], sides[(k + 3) % 4]) <= CUT_PARALLEL
    if len(cut) == 2 and (cut[1] - cut[0]) % 2 == 1:
        k = cut[0] if cut[1] - cut[0] == 1 else cut[1]
        return degrees(sides[(k + 2) % 4], sides[(k + 3) % 4]) >= 90 - CUT_SQUARE
    return False


def _hugs_a_trapezium(quad: np.ndarray, hull: np.ndarray,
                      picture: tuple[int, int] | None) -> bool:
    """Is ``quad``, around the convex ``hull`` of a photograph's region (``picture`` given),
    the outline of a card seen at a slant from close by? Such a card's region is four-sided
    itself (``quad`` adds at most ``HUGS`` of its area), and its near side may be longer than
    its far one by more than ``_parallel_sided`` allows, the more the larger it looks.
    Two cards side by side, or a card and a hand, make a region with more corners than four;
    a small piece of a card under a hand may be four-sided, but nothing that small in the
    picture is seen that much from close by (``NEAR_GAIN``)."""
    if picture is None:
        return False
    hull_area = cv2.contourArea(hull.reshape(-1, 1, 2).astype(np.float32))
    longest = float(side_lengths(quad).max())
    most = min(CLOSE_BY, 1 + NEAR_GAIN * longest / max(picture))
    return (cv2.contourArea(quad.astype(np.float32)) <= (1 + HUGS) * hull_area
            and _parallel_sided(quad, most))


def _parallel_sided(quad: np.ndarray, most: float = 1.25) -> bool:
    """Are the opposite sides of ``quad`` about as long as each other, as a card's are however
    it is seen (short of a wide-angle view from close by)?"""
    return bool(taper(quad)[0] <= most)


def _enclosing_quad(hull: np.ndarray) -> np.ndarray | None:
    """A quadrilateral around the convex polygon ``hull`` (M, 2): edges are dropped one at a
    time, each time the one whose neighbours, extended to meet, add the least area."""
    points = cv2.approxPolyDP(hull.astype(np.float32).reshape(-1, 1, 2), 0.5, True)
    poly = [p for p in points.reshape(-1, 2).astype(np.float64)]
    while len(poly) > 4:
        best, best_area, best_point = -1, math.inf, None
        n = len(poly)
        for i in range(n):
            # drop edge (i, i+1): extend edges (i-1, i) and (i+1, i+2) to their crossing
            a, b = poly[i - 1], poly[i]
            c, d = poly[(i + 1) % n], poly[(i + 2) % n]
            u, v = b - a, d - c
            cross = u[0] * v[1] - u[1] * v[0]
            if abs(cross) < 1e-9:
                continue
            t = ((c - a)[0] * v[1] - (c - a)[1] * v[0]) / cross
            s = ((c - a)[0] * u[1] - (c - a)[1] * u[0]) / cross
            if t < 1 or s > 0:  # they meet before b or past c: that would cut the polygon
                continue
            meet = a + t * u
            area = abs((b - meet)[0] * (c - meet)[1] - (b - meet)[1] * (c - meet)[0]) / 2
            if area < best_area:
                best, best_area, best_point = i, area, meet
        if best < 0:
            return None
        n = len(poly)
        poly[best] = best_point
        del poly[(best + 1) % n]
    if len(poly) < 4:
        return None
    return np.array(poly)


def refine_quads(gray: np.ndarray, quads: np.ndarray, reaches: np.ndarray,
                 samples: int = 10) -> np.ndarray:
    """Snap each edge of each quad (N, 4, 2) to the strongest edge within its ``reaches`` px
    along the edge's normal, and return the corners where the snapped edges meet; a quad
    keeps its corners where that fails. All the quads' edges are sampled, fitted and met at
    once: per card the work would be a few dozen small array operations, whose overhead
    this shares. Points are complex numbers (x + iy), which halves the operations."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    reaches = np.broadcast_to(np.asarray(reaches, np.float64), (len(quads),))
    out = quads.copy()
    h, w = gray.shape[:2]
    corners = quads[..., 0] + 1j * quads[..., 1]  # (N, 4)
    along = corners[:, _NEXT] - corners  # edge i runs from corner i to corner i + 1
    lengths = np.abs(along)
    todo = np.flatnonzero(lengths.min(axis=1) >= 8)
    if len(todo) == 0:
        return out
    corners, along, lengths, reaches = corners[todo], along[todo], lengths[todo], reaches[todo]
    n = len(todo)
    # the edges' normals, turned to point away from the quad's centre
    normals = 1j * along / lengths
    outward = ((corners + along / 2 - corners.mean(axis=1, keepdims=True))
               * normals.conj()).real < 0
    normals[outward] *= -1
    # each card looks from -reach to +reach in whole steps; shorter reaches are padded
    counts = np.ceil(2 * reaches + 0.5).astype(int)
    k = int(counts.max())
    offsets = np.arange(k) - reaches[:, None]  # (N, K)
    ts = np.linspace(0.15, 0.85, samples)
    points = corners[:, :, None] + ts * along[:, :, None]  # (N, 4, S)
    probe = points[..., None] + offsets[:, None, None, :] * normals[:, :, None, None]
    values = cv2.remap(gray, probe.real.reshape(-1, k).astype(np.float32),
                       probe.imag.reshape(-1, k).astype(np.float32),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    step = np.abs(np.diff(values.astype(np.float32), axis=1)).reshape(n, 4, samples, k - 1)
    step *= (np.arange(k - 1) < (counts - 1)[:, None])[:, None, None, :]  # within reach
    # the card's own outline is the outermost strong edge (pips and frames lie inside it)
    candidates = (step >= 0.5 * step.max(axis=3, keepdims=True)) & (step > 8)
    strong = candidates.any(axis=3)  # (N, 4, S)
    last = k - 2 - np.argmax(candidates[..., ::-1], axis=3)
    moved = np.take_along_axis(offsets, last.reshape(n, -1), axis=1).reshape(n, 4, samples)
    found = points + (moved + 0.5) * normals[:, :, None]
    refined = _meeting_corners(found, strong)
    usable = (strong.sum(axis=2) >= samples // 2).all(axis=1) & np.isfinite(refined).all(axis=1)
    with np.errstate(invalid="ignore"):
        usable &= np.abs(refined - corners).max(axis=1) <= reaches * 1.5
        usable &= ((refined.real >= -reaches[:, None]) & (refined.imag >= -reaches[:, None])
                   & (refined.real <= w + reaches[:, None])
                   & (refined.imag <= h + reaches[:, None])).all(axis=1)
    out[todo[usable]] = np.stack([refined.real, refined.imag], axis=-1)[usable]
    return out


_NEXT, _BEFORE = np.array([1, 2, 3, 0]), np.array([3, 0, 1, 2])
# Huber's constant (px): points further off a fitted edge than this count for less
HUBER = 1.345


def _meeting_corners(found: np.ndarray, strong: np.ndarray, rounds: int = 3) -> np.ndarray:
    """The corners (N, 4, complex) where straight lines fitted through each edge's strong
    points (``found`` (N, 4, S) complex, ``strong`` (N, 4, S)) meet: corner i where the lines
    of edges i - 1 and i cross, NaN where they do not. Each line is fitted to its points by
    least squares, then again ``rounds`` times with the points far from it weighed down as
    Huber's loss does, so one stray point (a pip, a shadow) cannot tilt it."""
    weights = strong.astype(np.float64)
    for _ in range(rounds + 1):
        total = np.maximum(weights.sum(axis=2), 1e-9)
        centre = (weights * found).sum(axis=2) / total  # (N, 4)
        spread = found - centre[..., None]
        # the weighted mean of the squared offsets points twice the line's angle
        doubled = (weights * spread * spread).sum(axis=2)
        direction = np.sqrt(doubled / np.maximum(np.abs(doubled), 1e-12))
        off = np.abs((spread * direction.conj()[..., None]).imag)
        weights = strong * np.minimum(1.0, HUBER / np.maximum(off, 1e-9))
    before, before_dir = centre[:, _BEFORE], direction[:, _BEFORE]
    crossing = (direction.conj() * before_dir).imag
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(np.abs(crossing) >= 1e-6,
                     (direction.conj() * (centre - before)).imag / crossing, np.nan)
    return before + t * before_dir


# A side this close to the picture's edge (this share of the picture's short side, and at
# least 3 px) is the edge, not the card's: the network's outline stops a little short of it.
ON_THE_EDGE = 0.015


def picture_edges(width: int, height: int) -> tuple[tuple[tuple[int, float], ...], float]:
    """The picture's four edges, each as (axis, coordinate), and how near an edge a side
    must lie to lie along it (``ON_THE_EDGE``)."""
    limits = ((0, 0.0), (0, width - 1.0), (1, 0.0), (1, height - 1.0))
    return limits, max(3.0, ON_THE_EDGE * min(width, height))


def _edges_under(p: np.ndarray, q: np.ndarray, limits: tuple[tuple[int, float], ...],
                 near: float) -> list[tuple[int, float]]:
    """The picture's edges (of ``limits``, as ``picture_edges`` gives them) that the side from
    ``p`` to ``q`` lies along, both its ends within ``near`` of it (two only for a side no
    longer than that, at a corner of the picture)."""
    return [(axis, at) for axis, at in limits
            if abs(p[axis] - at) <= near and abs(q[axis] - at) <= near]


def back_on_the_edge(before: np.ndarray, after: np.ndarray, width: int,
                      height: int) -> np.ndarray:
    """``after`` (N, 4, 2), the outlines ``before`` snapped to the picture's strongest edges,
    with each side that lay along the picture's edge before snapping put back on it.

    A card running off the picture has no edge of its own there, so snapping pulls that side
    in to the nearest strong edge inside the card (a row of pips, the index) and the card
    looks whole and squashed. The sides meeting it are drawn on to the picture's edge
    instead, so the card is seen to run off the picture (``runs_off``) and its crop is
    drawn out past the edge (``past_the_edge``) rather than squashed."""
    out = np.array(after, np.float64)
    limits, near = picture_edges(width, height)
    by_edge = ((before <= near) | (before >= [width - 1 - near, height - 1 - near])).any(axis=2)
    for n, k in zip(*np.nonzero(by_edge & np.roll(by_edge, -1, axis=1))):
        for axis, at in _edges_under(before[n, k], before[n, (k + 1) % 4], limits, near):
            for corner, other in ((k, (k - 1) % 4), ((k + 1) % 4, (k + 2) % 4)):
                inner, outer = out[n, other], out[n, corner]
                step = outer[axis] - inner[axis]
                if abs(step) < 1e-6:
                    continue  # a side along the edge: nothing to draw on
                t = (at - inner[axis]) / step
                if 1.0 <= t <= 1.5:  # on past its snapped corner, by at most half the side
                    out[n, corner] = inner + t * (outer - inner)
    return out.astype(after.dtype)


def card_shaped(quad: np.ndarray, calibration) -> bool:  # noqa: ANN001
    """Does the outline have a card's proportions (and, on a calibrated table, its size)?
    Without a calibration the picture may look at the card from the side, which squashes it
    along one axis: a card 1.4 times as long as wide, seen 45 degrees off straight down, can
    look square or twice as long as wide; so only outlines much longer than that are
    refused."""
    return bool(cards_shaped(np.asarray(quad).reshape(1, 4, 2), calibration)[0])


def cards_shaped(quads: np.ndarray, calibration) -> np.ndarray:  # noqa: ANN001
    """``card_shaped`` of each of the quads (N, 4, 2), all at once."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if calibration is not None:
        quads = calibration.to_table(quads.reshape(-1, 2)).reshape(-1, 4, 2)
    pairs = np.sort(side_pairs(quads) / 2, axis=1)
    short, long = pairs[:, 0], pairs[:, 1]
    if calibration is None:
        return long / np.maximum(short, 1e-6) <= MOST_SLANTED
    return ((np.abs(short - CARD_MM[0]) < CARD_SIZE_TOLERANCE * CARD_MM[0])
            & (np.abs(long - CARD_MM[1]) < CARD_SIZE_TOLERANCE * CARD_MM[1]))
