"""Card outlines: putting four corners in a standard order and cutting the card out upright."""

from __future__ import annotations

import cv2
import numpy as np

from .cardclasses import CROP_SIZE


# an outline whose short sides on the picture are at least this share of its long ones may
# be a card seen slantwise across its length, its long sides foreshortened to look the
# shorter (a card's short sides are 0.72 of its long ones): without a table plane to measure
# it on, which pair is which is left to the classifier (``vision.classify``). Chosen on 400
# hard pictures of the validation designs (studio seed 3031), card accuracy with 0.7, 0.75,
# 0.8, 0.85: 85.9, 86.2, 86.5, 86.4 % (each card read only as the picture shows it: 85.3 %)
MAYBE_SLANTED = 0.8
# so may an outline seen from so close by that one side looks this many times as long as the
# side across from it: the sides' lengths then say little about the card's
TAPERED = 1.25


def portrait_order(quad: np.ndarray) -> np.ndarray:
    """The same four corners, clockwise on screen, starting so that the first edge is one of
    the card's short edges (its top or its bottom: which of the two cannot be told from the
    outline, so the classifier reads cards either way up)."""
    return portrait_orders(np.asarray(quad, np.float64).reshape(1, 4, 2))[0]


def portrait_orders(quads: np.ndarray, to_plane: np.ndarray | None = None) -> np.ndarray:
    """``portrait_order`` of each of the quads (N, 4, 2), all at once. ``to_plane``: the
    homography (3x3) from picture pixels to the table's plane, where the sides are measured
    (on the picture a card seen slantwise across its length can show its long sides shorter
    than its short ones); without it they are measured on the picture."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    d = quads - quads.mean(axis=1, keepdims=True)
    order = np.argsort(np.arctan2(d[..., 1], d[..., 0]), axis=1)  # clockwise (y points down)
    quads = np.take_along_axis(quads, order[..., None], axis=1)
    flat = quads if to_plane is None or not len(quads) else cv2.perspectiveTransform(
        quads.reshape(-1, 1, 2), np.asarray(to_plane, np.float64)).reshape(-1, 4, 2)
    # start on a short edge: one step on where the first and third edges are the long ones
    first_third, second_fourth = side_pairs(flat).T
    shift = (first_third > second_fourth).astype(int)
    turned = (np.arange(4) + shift[:, None]) % 4
    ys = np.take_along_axis(quads[..., 1], turned, axis=1)
    # then at the upper of the two short edges, so a card upright on screen is upright
    shift += 2 * (ys[:, 0] + ys[:, 1] > ys[:, 2] + ys[:, 3])
    return np.take_along_axis(quads, ((np.arange(4) + shift[:, None]) % 4)[..., None], axis=1)


# On a photograph there is no table to give a card's size, but the cards of one deck are one
# size, and two cards lying on one another are both about it: an outline lying mostly (this
# share of it) inside another outline at least ``NESTED_LARGER`` times its area is a part of a
# card, or the larger outline holds two cards as one. Chosen on the close-ups, the hard set,
# the validation designs' 400 pictures and the webcam photos (fiftieth session): every
# such outline read surely was a card that does not lie there (a part of an eight of diamonds
# read as the four, a card's pattern as a back), and no card read right surely lies so inside
# so much larger an outline (with the shipped detector none lies more than 0.73 inside any).
NESTED_SHARE = 0.75
NESTED_LARGER = 1.3


def common_area(a: np.ndarray, b: np.ndarray) -> float:
    """The area two outlines (their convex hulls) share; 0 where one is folded to a line."""
    try:
        common, _ = cv2.intersectConvexConvex(cv2.convexHull(np.asarray(a, np.float32)),
                                              cv2.convexHull(np.asarray(b, np.float32)))
    except cv2.error:
        return 0.0
    return float(common)


def holds_middle(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether the middle of outline ``inner`` (4, 2) lies within outline ``outer``."""
    middle = tuple(map(float, np.asarray(inner, np.float64).mean(axis=0)))
    return cv2.pointPolygonTest(np.asarray(outer, np.float32), middle, False) >= 0


def nested(quads: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
    """Whether each outline of ``quads`` (N, 4, 2) lies ``NESTED_SHARE`` or more inside another
    of them (one of ``among``, a mask, if given) at least ``NESTED_LARGER`` times its area."""
    quads = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    among = np.ones(len(quads), bool) if among is None else np.asarray(among, bool)
    areas = np.array([abs(cv2.contourArea(q)) for q in quads])
    out = np.zeros(len(quads), bool)
    # (an outline of no area is inside nothing, and none is its own larger)
    larger = (areas[:, None] > 0) & among[None, :] & (
        areas[None, :] >= NESTED_LARGER * areas[:, None])
    for i, j in zip(*np.nonzero(larger)):
        if not out[i]:
            out[i] = common_area(quads[i], quads[j]) >= NESTED_SHARE * areas[i]
    return out


# A card half under another shows as an outline one of whose sides is a stretch of the top
# card's side: the top card's edge cuts it across. (The studio draws such a card in a few
# pictures: an eight of diamonds under a seven of spades, read from the six pips that show as
# the six at 0.98; a three of diamonds cut to two pips, read as the two at 1.00.) Its side
# must run along the other's within this angle, lie this near its line (a share of the
# other outline's mean side), and fall within its length, give or take this share of it; the
# two outlines share at most this share of the smaller (so they lie on either side of it).
CUT_ANGLE_DEG = 8.0
CUT_NEAR = 0.05
CUT_SPAN_SLACK = 0.05
CUT_OVERLAP = 0.15


def cut_across(quads: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
    """Whether each outline of ``quads`` (N, 4, 2) has a side lying along a stretch of a side
    of another of them (one of ``among``, a mask, if given), the two on either side of it:
    a card the other lies over, cut across by its edge (``CUT_ANGLE_DEG``, ``CUT_NEAR``,
    ``CUT_SPAN_SLACK``, ``CUT_OVERLAP``). Two cards laid exactly side by side, their sides the
    same length, are both so; a card whose side runs past the other's end is not."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    among = np.ones(len(quads), bool) if among is None else np.asarray(among, bool)
    out = np.zeros(len(quads), bool)
    if len(quads) < 2 or not among.any():
        return out
    sides = side_lengths(quads)
    reach = CUT_NEAR * sides.mean(axis=1)
    low, high = quads.min(axis=1), quads.max(axis=1)
    cos_least = np.cos(np.deg2rad(CUT_ANGLE_DEG))
    # (only outlines whose boxes come within reach of one another are looked at closely)
    close = ~((low[:, None] > high[None, :] + reach[None, :, None]).any(axis=2)
              | (low[None, :] > high[:, None] + reach[None, :, None]).any(axis=2))
    for i, j in zip(*np.nonzero(close & among[None, :] & ~np.eye(len(quads), dtype=bool))):
        if out[i]:
            continue
        if _cut_by(quads[i], sides[i], quads[j], sides[j], reach[j], cos_least):
            area = min(abs(cv2.contourArea(quads[i].astype(np.float32))),
                       abs(cv2.contourArea(quads[j].astype(np.float32))))
            out[i] = area > 0 and common_area(quads[i], quads[j]) <= CUT_OVERLAP * area
    return out


def _cut_by(quad: np.ndarray, lengths: np.ndarray, other: np.ndarray, other_sides: np.ndarray,
            reach: float, cos_least: float) -> bool:
    """Whether a side of ``quad`` (its sides' lengths ``lengths``, as ``side_lengths`` gives
    them) lies along a stretch of a side of ``other`` (its lengths ``other_sides``);
    ``cut_across`` sees that the two do not overlap."""
    starts, ends = quad, np.roll(quad, -1, axis=0)  # (4, 2): side k from corner k to k + 1
    along = (np.roll(other, -1, axis=0) - other) / np.maximum(other_sides, 1e-9)[:, None]
    normal = np.stack([-along[:, 1], along[:, 0]], axis=1)
    run = ends - starts
    # [k, t]: side k of quad against side t of other
    parallel = np.abs(run @ along.T) >= cos_least * np.maximum(lengths, 1e-9)[:, None]
    from_start, from_end = starts[:, None] - other[None], ends[:, None] - other[None]
    a = np.einsum("ktd,td->kt", from_start, along)  # where the side's ends lie along t
    b = np.einsum("ktd,td->kt", from_end, along)
    near = (np.abs(np.einsum("ktd,td->kt", from_start, normal)) <= reach) & (
        np.abs(np.einsum("ktd,td->kt", from_end, normal)) <= reach)
    slack = CUT_SPAN_SLACK * other_sides[None, :]
    within = (np.minimum(a, b) >= -slack) & (np.maximum(a, b) <= other_sides[None, :] + slack)
    return bool((parallel & near & within & (lengths[:, None] >= 1)).any())


def slanted(quads: np.ndarray) -> np.ndarray:
    """Whether each outline of ``quads`` (N, 4, 2) on a picture may show a card slantwise
    enough that its long sides look the shorter (``MAYBE_SLANTED``), or from so close by
    that its sides' lengths do not tell (``TAPERED``)."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    pairs = side_pairs(quads)
    return (pairs.min(axis=1) >= MAYBE_SLANTED * pairs.max(axis=1)) | (taper(quads) > TAPERED)


def side_lengths(quads: np.ndarray) -> np.ndarray:
    """(N, 4): the length of each side of each outline of ``quads`` (N, 4, 2), side k running
    from corner k to corner k + 1."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    return np.linalg.norm(quads[:, [1, 2, 3, 0]] - quads, axis=2)


def taper(quads: np.ndarray) -> np.ndarray:
    """(N,): how many times as long as the side across from it each outline's longer side
    of a pair is, the larger of its two pairs (1 for a parallelogram)."""
    sides = side_lengths(quads)
    across = np.maximum(sides[:, :2], sides[:, 2:]) / np.maximum(
        np.minimum(sides[:, :2], sides[:, 2:]), 1e-6)
    return across.max(axis=1)


def side_pairs(quads: np.ndarray) -> np.ndarray:
    """(N, 2): the lengths of each outline's first and third sides together, then of its
    second and fourth."""
    sides = side_lengths(quads)
    return sides[:, :2] + sides[:, 2:]


def rectify(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = CROP_SIZE,
            ordered: bool = False, turned_fill: bool = False) -> np.ndarray:
    """Cut the card with outline ``quad`` out of ``image`` as an upright ``size`` (w, h) crop.
    ``ordered``: the corners are already clockwise from the card's top-left. Where the outline
    runs off the picture the picture's last pixels are drawn out, as the classifier learnt;
    with ``turned_fill`` that part is taken instead from the crop turned half round, where that
    shows (a card looks the same turned half round, so what runs off the picture at one end
    mostly shows at the other: the index in the far corner above all)."""
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
    crop = cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    if turned_fill:
        shown = _shown(matrix, (w, h), image.shape[1], image.shape[0])
        fill = ~shown & shown[::-1, ::-1]
        crop[fill] = crop[::-1, ::-1][fill]
    return crop


def _shown(matrix: np.ndarray, size: tuple[int, int], width: int, height: int) -> np.ndarray:
    """Which pixels of a (w, h) crop cut with ``matrix`` (picture to crop) come from inside a
    ``width`` x ``height`` picture."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w]
    centres = np.stack([xs + 0.5, ys + 0.5, np.ones((h, w))], axis=-1) @ np.linalg.inv(matrix).T
    x, y = centres[..., 0] / centres[..., 2], centres[..., 1] / centres[..., 2]
    return (x >= 0) & (x <= width - 1) & (y >= 0) & (y <= height - 1)


def edge_hides_part(quads: np.ndarray, width: int, height: int, margin: float = 2.0,
                    most_off: float = 0.03) -> np.ndarray:
    """Which of the outlines ``quads`` (N, 4, 2) the picture's edge may hide part of: two
    corners or more nearer the edge than ``margin`` px (a side along it: the card may run on
    far past it), or one corner whose tip beyond the edge is more than ``most_off`` of the
    outline's area. A card close up whose one corner just touches or clips the edge is seen
    whole enough: its other three corners fix where the fourth lies, and its far index
    shows. (Until the thirty-sixth session any corner within ``margin`` of the edge counted
    as hidden. Counting only these, 176 more cards of the real webcam photographs were seen
    whole, 168 of them read right surely and none wrongly; of the close-ups 41, 27 and none.
    ``check`` had read most of them already along guessed outlines.)"""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    near = _corners_off(quads, width, height, margin)
    cut = near.sum(axis=1) >= 2
    frame = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]],
                     np.float32)
    for n in np.flatnonzero(near.sum(axis=1) == 1):
        quad = cv2.convexHull(quads[n].astype(np.float32))
        area = cv2.contourArea(quad)
        common, _ = cv2.intersectConvexConvex(quad, frame)
        cut[n] = area <= 0 or 1.0 - common / area > most_off
    return cut


def runs_off(quads: np.ndarray, width: int, height: int, margin: float = 0.0) -> np.ndarray:
    """Which of the outlines ``quads`` (N, 4, 2) run off a ``width`` x ``height`` picture, or
    come nearer its edge than ``margin`` px."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    return _corners_off(quads, width, height, margin).any(axis=1)


def _corners_off(quads: np.ndarray, width: int, height: int, margin: float) -> np.ndarray:
    """(N, 4): which corners of ``quads`` (N, 4, 2) lie off the picture or nearer its edge
    than ``margin`` px."""
    return ((quads < margin) | (quads > [width - 1 - margin, height - 1 - margin])).any(axis=2)
