"""The detector's geometry, without its network: holes, broken cores, slanted outlines and the
table-plane fit that gives every card on a calibrated table a card's size."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import _fill_holes, _join_split_cores, _shrink, _split_waisted_cores
from vision.outlines import (CORE_SHARE, CUT_PARALLEL, CUT_SQUARE, _cut_by_the_edge,
                             _enclosing_quad, _meeting_corners, back_on_the_edge, card_shaped,
                             cards_shaped, core_outline, fit_on_table, fit_quad, quad_around,
                             refine_quads, refined_twice, region_outline, snapped_cores)
from vision.partial import joined_ends, past_the_edge, past_the_edge_guesses
from vision.geometry import (cut_across, edge_hides_part, nested, portrait_order, portrait_orders,
                             slanted)
from vision.layout import CARD_MM
from vision.table import from_corners


def _polygon_mask(points, shape=(120, 160)) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(points)).astype(np.int32)], 1)
    return mask


def _groups(mask: np.ndarray):
    return cv2.connectedComponents(mask.astype(np.uint8), connectivity=4)


def test_small_holes_are_filled_and_table_between_cards_is_not():
    mask = _polygon_mask([(20, 20), (60, 20), (60, 80), (20, 80)]).astype(bool)
    mask[45:55, 35:45] = False  # a dark pip the network called "not a card"
    filled = _fill_holes(mask)
    assert filled[50, 40] and filled.sum() == 41 * 61
    ring = np.zeros((120, 160), bool)
    ring[10:110, 10:150] = True
    ring[30:90, 40:120] = False  # table showing in the middle of a ring of cards
    assert not _fill_holes(ring)[60, 80]


def test_a_slanted_card_gets_its_parallelogram_not_a_rectangle():
    corners = np.array([(50, 30), (110, 30), (90, 100), (30, 100)], float)
    region = _polygon_mask(corners)
    quad, _ = fit_quad(region)
    # each true corner has a fitted corner within two pixels
    distances = np.linalg.norm(quad[:, None] - corners[None], axis=2).min(axis=0)
    assert distances.max() < 2.0, quad
    rect = cv2.boxPoints(cv2.minAreaRect(corners.astype(np.float32)))
    assert np.linalg.norm(rect[:, None] - corners[None], axis=2).min(axis=0).max() > 4


def test_the_enclosing_quadrilateral_of_a_cut_corner_polygon_restores_the_corner():
    # a square with one corner clipped off: the least quadrilateral around it is the square
    poly = np.array([(0, 0), (10, 0), (10, 7), (7, 10), (0, 10)], float)
    quad = _enclosing_quad(poly)
    assert quad is not None and len(quad) == 4
    assert abs(cv2.contourArea(quad.astype(np.float32)) - 100) < 1e-6


def test_core_pieces_of_one_card_are_joined_but_two_cards_side_by_side_stay_two():
    card = np.zeros((120, 160), bool)
    card[20:100, 40:96] = True  # one card, 56 x 80
    markers = np.zeros(card.shape, np.int32)
    markers[45:58, 55:80] = 1  # its core, broken in two by a big pip
    markers[62:75, 55:80] = 2
    _join_split_cores(_groups(card), markers, 0.88, None, 1.0, (0, 0))
    assert set(np.unique(markers)) == {0, 1}

    pair = np.zeros((120, 200), bool)
    pair[20:76, 20:180] = True  # two cards lying long side to long side: 160 x 56
    markers = np.zeros(pair.shape, np.int32)
    markers[33:63, 38:82] = 1  # each card's own core, 0.55 of it about its middle
    markers[33:63, 118:162] = 2
    _join_split_cores(_groups(pair), markers, 0.88, None, 1.0, (0, 0))
    assert set(np.unique(markers)) == {0, 1, 2}


def _table():
    # a camera at a slant: the play area (500 mm) is a trapezium in a 1280x720 picture
    corners = np.array([(400, 100), (880, 100), (1000, 650), (280, 650)], float)
    return from_corners(corners, (1280, 720))


def test_a_blurred_card_on_the_table_is_given_exactly_a_cards_size():
    calibration = _table()
    centre = np.array([250.0, 250.0])
    true_mm = cv2.boxPoints(((250, 250), CARD_MM, 30.0)).astype(np.float64)
    seen_mm = centre + 0.85 * (true_mm - centre)  # the network saw it 15 % small
    region = _polygon_mask(calibration.to_image(seen_mm), (720, 1280))
    quad, card_sized = fit_on_table(region_outline(region)[0], 1.0, (0, 0), calibration)
    assert card_sized
    fitted_mm = calibration.to_table(quad)
    assert np.linalg.norm(fitted_mm[:, None] - true_mm[None], axis=2).min(axis=0).max() < 2.5


def test_a_card_cut_short_by_a_hand_is_snapped_but_not_called_card_sized():
    calibration = _table()
    # only 70 % of its length shows: snapped to a card's size for its outline, but not whole
    seen_mm = cv2.boxPoints(((250, 250), (CARD_MM[0], 0.74 * CARD_MM[1]), 0.0))
    region = _polygon_mask(calibration.to_image(seen_mm.astype(np.float64)), (720, 1280))
    quad, card_sized = fit_on_table(region_outline(region)[0], 1.0, (0, 0), calibration)
    assert not card_sized
    sides = np.linalg.norm(np.roll(calibration.to_table(quad), -1, axis=0)
                           - calibration.to_table(quad), axis=1)
    assert abs(max(sides) - CARD_MM[1]) < 1.5
    # and a region nothing like a card is not squared up
    blob = _polygon_mask(calibration.to_image(cv2.boxPoints(((250, 250), (150, 150), 0.0))
                                              .astype(np.float64)), (720, 1280))
    quad, card_sized = fit_on_table(region_outline(blob)[0], 1.0, (0, 0), calibration)
    assert quad is None and not card_sized


def test_edges_snap_to_the_picture_each_card_within_its_own_reach():
    gray = np.full((200, 300), 40, np.uint8)
    first = np.array([(30, 40), (90, 40), (90, 130), (30, 130)], float)
    second = np.array([(160, 30), (250, 30), (250, 160), (160, 160)], float)
    for quad in (first, second):
        cv2.fillPoly(gray, [quad.astype(np.int32)], 220)
    # true outline: the filled pixels' outer boundary, half a pixel out of their centres
    truth = [quad + np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
             for quad in (first, second)]
    guesses = np.array([truth[0] + (3.0, -2.0), truth[1] + (-6.0, 5.0)])
    snapped = refine_quads(gray, guesses, np.array([5.0, 9.0]))
    assert np.abs(snapped - np.array(truth)).max() < 0.6
    # a reach too short to find the edge leaves that card as it was, not the other
    short = refine_quads(gray, guesses, np.array([5.0, 2.0]))
    assert np.abs(short[0] - truth[0]).max() < 0.6
    assert np.array_equal(short[1], guesses[1])
    tiny = np.array([[(10, 10), (14, 10), (14, 15), (10, 15)]], float)
    assert np.array_equal(refine_quads(gray, tiny, 5.0), tiny)


def test_edges_are_snapped_on_the_grey_part_about_the_cards_as_on_the_whole_picture():
    """The detector makes grey only the part of the frame about its cards before snapping
    their edges; every pixel the two looks take lies in it, so the corners come out as on
    the whole picture made grey (to rounding), for a card in the middle as for one cut by
    the picture's edge."""
    rng = np.random.default_rng(5)
    frame = rng.integers(20, 60, (360, 640, 3), np.uint8)
    cards = [np.round(cv2.boxPoints(box)) for box in (((300, 180), (70, 110), 23.0),
                                                      ((25, 300), (70, 110), -8.0))]
    for card in cards:
        cv2.fillPoly(frame, [card.astype(np.int32)], (230, 225, 220))
    # a stripe 6 px outside one of the first card's sides, within reach: the whole picture's
    # snapping sees it, so the part's must too
    outward = cards[0][2:4].mean(axis=0) - cards[0].mean(axis=0)
    stripe = cards[0][2:4] + 6 * outward / np.linalg.norm(outward)
    cv2.line(frame, tuple(map(int, stripe[0])), tuple(map(int, stripe[1])), (250, 250, 250), 2)
    guesses = np.array([card + rng.uniform(-4, 4, (4, 2)) for card in cards])
    reaches = np.array([9.0, 6.0])
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    whole = refine_quads(gray, refine_quads(gray, guesses, reaches), 3.0)
    part = refined_twice(frame, guesses, reaches)
    assert np.abs(part - whole).max() < 0.1
    assert np.abs(part[0] - guesses[0]).max() > 4  # (the stripe was taken for the card's side)


def test_a_stray_point_does_not_tilt_a_fitted_edge():
    """Each edge's line is fitted to its points with Huber's loss: a pip or a shadow found
    instead of the card's edge at one sample moves the corners by little, where a plain
    least-squares fit would tilt the edge by degrees."""
    corners = np.array([(20.0, 30.0), (80.0, 30.0), (80.0, 120.0), (20.0, 120.0)])
    ts = np.linspace(0.15, 0.85, 10)
    ends = np.roll(corners, -1, axis=0)
    found = corners[:, None, :] + ts[None, :, None] * (ends - corners)[:, None, :]
    found = (found[..., 0] + 1j * found[..., 1])[None]  # (1, 4, 10)
    strong = np.ones(found.shape, bool)
    found[0, 1, 2] += 8.0  # one point of the right edge, 8 px out
    met = _meeting_corners(found, strong)[0]
    assert np.abs(met - (corners[:, 0] + 1j * corners[:, 1])).max() < 0.8
    plain = _meeting_corners(found, strong, rounds=0)[0]
    assert np.abs(plain - (corners[:, 0] + 1j * corners[:, 1])).max() > 1.5
    # points not found strong enough count for nothing; parallel lines meet nowhere
    strong[0, 1, 2] = False
    assert np.abs(_meeting_corners(found, strong)[0]
                  - (corners[:, 0] + 1j * corners[:, 1])).max() < 1e-6
    flat = found.copy()
    flat[0, 1] = flat[0, 3] + 60  # the right edge drawn along the left one's direction...
    flat[0, 0] = flat[0, 2] = flat[0, 3]  # ...and so is every edge
    assert np.isnan(_meeting_corners(flat, strong)[0]).all()


def test_quads_are_ordered_and_measured_all_at_once_as_one_at_a_time():
    rng = np.random.default_rng(3)
    card = np.array([(0, 0), (63, 0), (63, 88), (0, 88)], float) - (31.5, 44)
    quads = []
    for _ in range(200):
        a = rng.uniform(0, 2 * np.pi)
        turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        quad = card @ turn.T * rng.uniform(0.5, 3) + rng.uniform(0, 500, 2)
        quads.append((quad + rng.normal(0, 3, (4, 2)))[rng.permutation(4)])
    quads = np.array(quads)
    assert np.array_equal(portrait_orders(quads), [portrait_order(q) for q in quads])
    # portrait order: clockwise on screen, from the upper short edge
    for quad in portrait_orders(quads[:20]):
        sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
        assert sides[0] + sides[2] <= sides[1] + sides[3]
        assert quad[0, 1] + quad[1, 1] <= quad[2, 1] + quad[3, 1]
    shaped = cards_shaped(quads * [1.0, 2.5], None)  # some stretched past a card's look
    assert shaped.any() and not shaped.all()
    assert list(shaped) == [card_shaped(q, None) for q in quads * [1.0, 2.5]]


def test_a_card_seen_from_the_side_is_card_shaped_in_a_plain_photograph():
    """Without a calibration, a card seen obliquely can look square (foreshortened along its
    length) or well over twice as long as wide (across it); a long strip cannot be a card."""
    def outline(width, height):
        return np.array([(0, 0), (width, 0), (width, height), (0, height)], float)

    assert card_shaped(outline(63, 88), None)
    assert card_shaped(outline(63, 62), None)  # 45 degrees off, along its length
    assert card_shaped(outline(44, 110), None)  # 55 degrees off, across it
    assert not card_shaped(outline(30, 110), None)


def test_the_cores_of_two_cards_lying_over_each_other_are_cut_apart_at_their_waist():
    # two card cores, 14 x 20, run together through a neck 4 pixels wide: two seeds
    eight = np.zeros((80, 60), np.uint8)
    eight[10:30, 20:34] = 1
    eight[38:58, 22:36] = 1
    eight[30:38, 26:30] = 1
    count, _ = cv2.connectedComponents(_split_waisted_cores(eight), connectivity=4)
    assert count - 1 == 2
    # one card's core, a solid block, and two cores apart: as many seeds as cores
    blocks = np.zeros((80, 100), np.uint8)
    blocks[10:40, 10:30] = 1
    blocks[50:70, 60:75] = 1
    split = _split_waisted_cores(blocks)
    assert cv2.connectedComponents(split, connectivity=4)[0] - 1 == 2
    assert split[25, 20] and split[60, 67]  # each keeps its middle


def test_shrinking_a_picture_for_the_network_averages_fine_detail_away():
    # a one-pixel checkerboard is mid-grey seen from afar, whatever the picture's size: no
    # shrinking step may pick out single pixels (that would make it black or white stripes)
    for width, height in ((1280, 720), (1000, 600), (1001, 601), (641, 361)):
        board = ((np.indices((height, width)).sum(axis=0) % 2) * 255).astype(np.uint8)
        small = _shrink(np.dstack([board] * 3), (256, 144))
        assert small.shape == (144, 256, 3)
        assert abs(float(small.mean()) - 127.5) < 8 and float(small.std()) < 25, (width, height)


def test_an_outline_stopped_by_the_pictures_edge_is_drawn_out_to_a_cards_length():
    # a 100 px wide card whose lower part runs off the bottom of a 400x300 picture
    shown = np.array([(100, 200), (200, 200), (200, 299), (100, 299)], float)
    out = past_the_edge(shown, 400, 300)
    assert np.allclose(out[:2], shown[:2])  # the far end stays
    assert np.allclose(out[2:, 1], 200 + 100 * 88 / 63) and np.allclose(out[2:, 0], shown[2:, 0])
    # turned about: the edge cuts the card on its left
    left = np.array([(0, 50), (99, 50), (99, 150), (0, 150)], float)
    drawn = past_the_edge(left, 400, 300)
    assert np.allclose(drawn[[1, 2]], left[[1, 2]]) and np.allclose(drawn[[0, 3], 0], 99 - 100 * 88 / 63)


def test_a_side_on_the_pictures_edge_stays_there_though_a_row_of_pips_pulls_it_in():
    """A card running off the top of the picture has no edge of its own there: snapping finds
    the row of pips inside it instead, and the card would look whole and squashed."""
    gray = np.full((300, 400), 40, np.uint8)
    cv2.fillPoly(gray, [np.array([(110, 0), (210, 0), (200, 150), (100, 150)], np.int32)], 220)
    gray[14:22, 112:200] = 60  # a row of pips 14 px in
    before = np.array([[(110.5, 1.0), (210.5, 1.5), (200.5, 148.0), (100.5, 148.0)]])
    snapped = refine_quads(gray, before, np.array([20.0]))
    assert snapped[0, :2, 1].min() > 10  # pulled in to the pips: why the side is put back
    back = back_on_the_edge(before, snapped, 400, 300)
    assert np.allclose(back[0, :2, 1], 0.0)
    # along the card's own slanted sides, not straight up
    for top, bottom in ((0, 3), (1, 2)):
        run = back[0, top] - snapped[0, bottom]
        side = snapped[0, top] - snapped[0, bottom]
        assert abs(run[0] * side[1] - run[1] * side[0]) < 1e-6 * np.hypot(*run) * np.hypot(*side)
    assert np.allclose(back[0, 2:], snapped[0, 2:])
    # an outline that was inside the picture before snapping keeps what snapping found
    inside = before + (0.0, 40.0)
    assert np.array_equal(back_on_the_edge(inside, snapped + (0.0, 40.0), 400, 300),
                          snapped + (0.0, 40.0))


def test_outlines_the_edge_does_not_cut_or_that_show_too_little_stay_as_they_are():
    inside = np.array([(100, 100), (200, 100), (200, 240), (100, 240)], float)
    assert np.allclose(past_the_edge(inside, 400, 300), inside)
    stub = np.array([(100, 260), (200, 260), (200, 299), (100, 299)], float)  # too little shows
    assert np.allclose(past_the_edge(stub, 400, 300), stub)
    corner = np.array([(300, 250), (399, 250), (399, 299), (300, 299)], float)  # two edges cut
    assert np.allclose(past_the_edge(corner, 400, 300), corner)  # no one guess to draw out


def test_a_card_showing_less_than_its_width_past_the_edge_is_guessed_both_ways():
    """60 px of a 100 px wide end show above the bottom edge: the card runs on past the edge
    by most of its length, or it lies across the edge; both outlines are offered."""
    stub = np.array([(100, 240), (200, 240), (200, 299), (100, 299)], float)
    guesses = past_the_edge_guesses(stub, 400, 300)
    assert len(guesses) == 2
    reaches = sorted(float(g[2:, 1].mean()) - 240 for g in guesses)
    assert np.allclose(reaches, [100 * 63 / 88, 100 * 88 / 63])
    for guess in guesses:
        assert np.allclose(guess[:2], stub[:2])  # the far end stays
    # a card whose long sides show is guessed one way only, as past_the_edge draws it
    shown = np.array([(100, 200), (200, 200), (200, 299), (100, 299)], float)
    (only,) = past_the_edge_guesses(shown, 400, 300)
    assert np.allclose(only, past_the_edge(shown, 400, 300))
    # a sliver, a card cut by two opposite edges or by none: nothing to guess
    sliver = np.array([(100, 285), (200, 285), (200, 299), (100, 299)], float)
    across = np.array([(100, 0), (200, 0), (200, 299), (100, 299)], float)
    inside = np.array([(100, 100), (200, 100), (200, 240), (100, 240)], float)
    assert past_the_edge_guesses(sliver, 400, 300) == []
    assert past_the_edge_guesses(across, 400, 300) == []
    assert past_the_edge_guesses(inside, 400, 300) == []


def _degrees_between(u, v):
    cos = abs(float(u @ v)) / (np.linalg.norm(u) * np.linalg.norm(v))
    return float(np.degrees(np.arccos(min(cos, 1.0))))


@pytest.mark.parametrize("degrees", [15.0, 20.0, 25.0])
def test_a_slanted_card_cut_at_the_pictures_corner_is_outlined_along_its_own_sides(degrees):
    """A slanted card runs off a photograph's top-right corner: its region is a pentagon (two
    sides of its own, the two edges of the picture, and where they meet). Its opposite sides
    do not match, so it used to get a rectangle around it whose sides are not the card's, and
    every outline drawn out from that was read askew. Told the picture's size, the card's own
    corner and its two sides are kept."""
    width, height = 160, 120
    turn = np.radians(degrees)
    own = np.array([70.0, 90.0])  # the corner that shows; the card's long side runs up from it
    up = np.array([np.sin(turn), -np.cos(turn)]) * 160
    across = np.array([np.cos(turn), np.sin(turn)]) * 110
    card = np.array([own, own + up, own + up + across, own + across])
    contour, hull, _ = region_outline(_polygon_mask(card, (height, width)))
    quad = quad_around(contour, hull, (width, height))
    assert _keeps_own_corner(quad, card)
    assert _cut_by_the_edge(quad, (width, height))
    assert not _keeps_own_corner(quad_around(contour, hull), card)  # as it was



def test_a_card_seen_from_close_by_gets_its_trapezium_and_a_small_one_its_rectangle():
    """A card held close to the camera and tipped away: its far side looks much shorter than
    its near one (here 0.6 as long). Its region is four-sided, so the quadrilateral around it
    is its outline; the rectangle around it would take in table past two of its corners, and
    the card was cut out askew and read wrongly or not at all. The same shape a third as big
    is not a card seen from close by (more likely part of one under a hand), and keeps the
    rectangle."""
    width, height = 480, 270
    near = np.array([(150.0, 240.0), (350.0, 240.0)])
    far = np.array([(310.0, 40.0), (190.0, 40.0)])  # 120 px against 200
    card = np.array([far[1], far[0], near[1], near[0]])
    contour, hull, _ = region_outline(_rounded(_polygon_mask(card, (height, width)), 15))
    quad = quad_around(contour, hull, (width, height))
    assert np.linalg.norm(quad[:, None] - card[None], axis=2).min(axis=0).max() < 2.5, quad
    # as a table's top-down view (no picture given) it stays the rectangle around it
    rect = quad_around(contour, hull)
    assert np.linalg.norm(rect[:, None] - card[None], axis=2).min(axis=0).max() > 20
    small = (card - card.mean(axis=0)) / 3 + (240, 135)  # a third as big in the same picture
    contour, hull, _ = region_outline(_rounded(_polygon_mask(small, (height, width)), 5))
    quad = quad_around(contour, hull, (width, height))
    assert np.linalg.norm(quad[:, None] - small[None], axis=2).min(axis=0).max() > 5


def _rounded(mask: np.ndarray, size: int) -> np.ndarray:
    """``mask`` with its corners rounded as a card's are (an opening by a disc)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)


def _keeps_own_corner(quad, card) -> bool:
    """Has ``quad`` a corner on ``card``'s first corner, its two sides running along the
    card's own two sides from there?"""
    own = card[0]
    nearest = np.linalg.norm(quad - own, axis=1)
    k = int(nearest.argmin())
    return nearest[k] < 2.5 and all(
        min(_degrees_between(side, card[1] - own), _degrees_between(side, card[3] - own)) < 3
        for side in (quad[(k + 1) % 4] - quad[k], quad[k - 1] - quad[k]))


def test_what_counts_as_a_card_the_pictures_edge_cuts():
    picture = (400, 300)
    # cut by the top edge, the two sides meeting it running the same way (at a slant)
    slanted = np.array([(120, 0), (230, 0), (250, 140), (140, 140)], float)
    assert _cut_by_the_edge(slanted, picture)
    # one of them bent away by a hand's shadow: not a card's outline
    bent = slanted.copy()
    bent[1] = (250 - 140 * np.tan(np.arctan2(20, 140) + np.radians(CUT_PARALLEL + 8)), 0)
    assert _degrees_between(bent[2] - bent[1], slanted[0] - slanted[3]) > CUT_PARALLEL
    assert not _cut_by_the_edge(bent, picture)
    # cut at the picture's corner: the card's own corner about square, or not
    corner = np.array([(399, 0), (399, 120), (290, 140), (270, 0)], float)
    assert _cut_by_the_edge(corner, picture)
    skewed = corner.copy()
    side = (skewed[1] - skewed[2]) / np.linalg.norm(skewed[1] - skewed[2])
    turn = np.radians(-(90 - CUT_SQUARE - 10))  # from that side, towards the top edge
    towards = np.array([side[0] * np.cos(turn) - side[1] * np.sin(turn),
                        side[0] * np.sin(turn) + side[1] * np.cos(turn)])
    skewed[3] = skewed[2] + towards * (skewed[2][1] / -towards[1])
    assert _degrees_between(skewed[3] - skewed[2], skewed[1] - skewed[2]) < 90 - CUT_SQUARE
    assert not _cut_by_the_edge(skewed, picture)
    # inside the picture, cut by two opposite edges, or on a calibrated table's view
    inside = slanted + (0, 50)
    across = np.array([(120, 0), (230, 0), (230, 299), (120, 299)], float)
    assert not _cut_by_the_edge(inside, picture)
    assert not _cut_by_the_edge(across, picture)
    assert not _cut_by_the_edge(slanted, None)


def test_a_card_the_edge_cuts_at_a_slant_is_drawn_out_if_its_index_corner_shows():
    """A card cut by the bottom edge at a slant shows 90 px of one long side and 20 px of the
    other: the index at the far end's corner on the longer side shows, so it is drawn out
    (the shorter side alone used to call it a stub); with both sides that short, it is not."""
    cut = np.array([(100, 209), (200, 279), (200, 299), (100, 299)], float)
    # the sides meeting the edge: 90 px on the left, 20 px on the right; the far end 122 px
    assert np.linalg.norm(cut[0] - cut[3]) >= 0.25 * np.linalg.norm(cut[1] - cut[0]) \
        > np.linalg.norm(cut[1] - cut[2])
    assert past_the_edge_guesses(cut, 400, 300)
    stub = np.array([(100, 279), (200, 284), (200, 299), (100, 299)], float)  # 20 and 15 px
    assert past_the_edge_guesses(stub, 400, 300) == []


@pytest.mark.parametrize("turn", range(4))
def test_a_card_cut_at_the_pictures_corner_is_drawn_out_from_its_own_corner(turn):
    """The bottom-right corner of a 400x300 picture cuts a card: only its top-left corner
    (300, 250) shows, 99 px along x and 49 px along y. Each guess keeps that corner, runs on
    along the two sides that show, covers what shows and has a card's proportions; the
    sides are taken both ways round, and the least such card is among the guesses."""
    shown = np.roll(np.array([(300, 250), (399, 250), (399, 299), (300, 299)], float), turn,
                    axis=0)
    guesses = past_the_edge_guesses(shown, 400, 300)
    aspect = 88 / 63
    assert len(guesses) == 4
    spans = set()
    for guess in guesses:
        assert np.allclose(guess.min(axis=0), (300, 250))  # the card's own corner stays
        assert (guess.max(axis=0) >= np.array((399, 299)) - 1e-6).all()  # what shows is covered
        sides = sorted(guess.max(axis=0) - guess.min(axis=0))
        assert sides[1] / sides[0] == pytest.approx(aspect)
        spans.add(tuple(np.round(guess.max(axis=0) - guess.min(axis=0), 1)))
    assert (99.0, round(99 / aspect, 1)) in spans  # the least card, lying across
    assert (99.0, round(99 * aspect, 1)) in spans  # the least card, standing up
    assert len(spans) == 4
    # a sliver along one edge of the corner holds no index
    sliver = np.array([(300, 290), (399, 290), (399, 299), (300, 299)], float)
    assert past_the_edge_guesses(sliver, 400, 300) == []


def _turned(points, degrees, about=(150.0, 170.0)):
    turn = cv2.getRotationMatrix2D(about, degrees, 1.0)
    return np.asarray(points, float) @ turn[:, :2].T + turn[:, 2]


@pytest.mark.parametrize("degrees", [0.0, 30.0, 90.0])
def test_the_two_ends_of_a_card_a_hand_lies_across_are_joined_into_the_card(degrees):
    """A card 100x140 px with a hand across its middle shows as two outlines, each as wide as
    the card: they are joined into the card's outline, whichever way the card lies."""
    card = np.array([(100, 100), (200, 100), (200, 240), (100, 240)], float)
    top = np.array([(100, 100), (200, 100), (200, 150), (100, 150)], float)
    bottom = np.array([(102, 190), (198, 190), (198, 240), (102, 240)], float)  # a thumb bites
    hand = np.array([(60, 150), (240, 150), (240, 190), (60, 190)], float)  # a whole outline
    quads = np.array([_turned(q, degrees) for q in (top, hand, bottom)])
    pairs = joined_ends(quads, np.array([True, False, True]))
    assert len(pairs) == 1
    first, outline, second = pairs[0]
    assert {first, second} == {0, 2}
    truth = _turned(card, degrees)
    error = min(np.abs(np.roll(outline, k, axis=0) - truth).max() for k in range(4))
    assert error < 1.0
    # an outline seen whole, or read surely, is a card of its own: the caller leaves it out
    assert joined_ends(quads, np.array([True, True, False])) == []


@pytest.mark.parametrize("top, bottom, why", [
    (50, [(100, 130), (200, 130), (200, 240), (100, 240)], "they overlap along the card"),
    (60, [(130, 165), (170, 165), (170, 240), (130, 240)], "one is far narrower than the card"),
    (90, [(100, 200), (200, 200), (200, 290), (100, 290)], "too long together for a card"),
    (50, [(100, 215), (200, 215), (200, 240), (100, 240)], "the hand hides most of it"),
])
def test_outlines_that_cannot_be_two_ends_of_one_card_are_not_joined(top, bottom, why):
    first = np.array([(100, 100), (200, 100), (200, 100 + top), (100, 100 + top)], float)
    quads = np.array([first, np.array(bottom, float)])
    assert joined_ends(quads, np.ones(2, bool)) == [], why


def test_a_cards_core_is_drawn_out_to_the_whole_card_in_picture_pixels():
    """The network saw the picture halved, from (40, 20) on; a card 126x176 px there, turned
    30 degrees about (260, 180) in the picture, has its core shrunk to CORE_SHARE. The outline
    drawn from the core falls within a pixel or two of the card's (the core's pixels are
    whole network pixels); a core of a few pixels gives none."""
    scale, offset = 0.5, (40.0, 20.0)
    centre, size, angle = np.array([260.0, 180.0]), np.array([126.0, 176.0]), 30.0
    card = cv2.boxPoints((tuple(centre), tuple(size), angle))
    net_centre = (centre - offset) * scale
    core = cv2.boxPoints((tuple(net_centre), tuple(size * scale * CORE_SHARE), angle))
    # the network pixels whose centres lie inside the core (on the inner side of every side)
    centres = np.stack(np.mgrid[0:200, 0:200][::-1], axis=-1).astype(float)
    sides = []
    for k in range(4):
        (ax, ay), (px, py) = core[(k + 1) % 4] - core[k], np.moveaxis(centres - core[k], -1, 0)
        sides.append(ax * py - ay * px)
    mask = np.logical_and.reduce([side >= 0 for side in sides]) | np.logical_and.reduce(
        [side <= 0 for side in sides])
    outline = core_outline(mask, scale, offset)
    error = min(np.abs(np.roll(portrait_order(outline), k, axis=0) - portrait_order(card)).max()
                for k in range(4))
    assert error < 4.0  # a network pixel is 2 picture pixels, drawn out to 3.6
    tiny = np.zeros((200, 200), bool)
    tiny[50:53, 50:53] = True
    assert core_outline(tiny, scale, offset) is None
    # snapped to a drawn card's edges, the outline of a core a little too small for it fits
    picture = np.full((400, 500), 60, np.uint8)
    cv2.fillPoly(picture, [np.round(card).astype(np.int32)], 230)
    shrunk = centre + (card - centre) * 0.93
    snapped = snapped_cores(picture, [None, shrunk])
    assert np.isnan(snapped[0]).all()
    error = min(np.abs(np.roll(snapped[1], k, axis=0) - portrait_order(card)).max()
                for k in range(4))
    assert error < 2.0


def test_a_card_seen_slantwise_is_ordered_on_the_table_plane():
    """A table seen from low down: 500 mm across show 600 px but 500 mm deep only 375 px. A
    card lying with its long side in the depth then shows that side shorter than its short
    one: measured on the picture its outline would be cut out turned a quarter round and
    squashed; measured on the table's plane it is not."""
    calibration = from_corners(np.array([(340, 150), (940, 150), (940, 525), (340, 525)],
                                        float), (1280, 720))
    short, long = CARD_MM
    across = np.array([(200, 150), (200 + short, 150), (200 + short, 150 + long),
                       (200, 150 + long)], float)  # long side in the depth
    along = across[:, ::-1] + (0, 100)  # long side across the picture
    for card in (across, along):
        quad = calibration.to_image(card)
        first = np.linalg.norm(np.diff(calibration.to_table(
            portrait_orders(quad[None], calibration.to_table_matrix)[0][:2]), axis=0))
        assert first == pytest.approx(short, abs=0.5)
    on_picture = calibration.to_table(portrait_order(calibration.to_image(across))[:2])
    assert np.linalg.norm(on_picture[1] - on_picture[0]) == pytest.approx(long, abs=0.5)
    # on a photograph without a plane, such an outline is marked for the classifier to read
    # both ways; one whose sides plainly show which is which is not
    assert list(slanted(np.array([calibration.to_image(across), calibration.to_image(along)]))) \
        == [True, False]


def test_a_card_seen_from_close_by_is_read_both_ways():
    """A card tipped away from a camera close by: its far short side shows 0.6 as long as
    its near one, and the sides on the picture no longer say which pair is the long one
    (such a card was cut out a quarter round and read as a king). It is marked for the
    classifier to read both ways, as a card seen slantwise is; the same card square on is
    not."""
    tapered = np.array([(190, 40), (310, 40), (350, 240), (150, 240)], float)
    square_on = np.array([(150, 40), (350, 40), (350, 240), (150, 240)], float) * (0.72, 1)
    assert list(slanted(np.array([tapered, square_on]))) == [True, False]


def test_a_card_whose_one_corner_clips_the_pictures_edge_is_seen_whole():
    picture = (400, 300)
    card = np.array([(100, 60), (200, 40), (230, 190), (130, 210)], float)
    inside, touching = card.copy(), card + (0, 89)
    clipped, far_out = card + (0, 95), card + (0, 130)
    assert touching[3, 1] >= 299 - 2 > touching[2, 1]  # one corner at the bottom edge
    assert clipped[3, 1] > 299  # its tip past it, a little of the card
    assert far_out[2:, 1].min() > 299  # two corners past it: a side along the edge
    along = np.array([(100, 60), (399, 40), (399, 200), (130, 210)], float)  # a side on it
    one_far = card.copy()
    one_far[2] = (460, 250)  # one corner far out: a big part past the edge
    hidden = edge_hides_part(np.stack([inside, touching, clipped, far_out, along, one_far]),
                             *picture)
    assert hidden.tolist() == [False, False, False, True, True, True]


def _card(x: float, y: float, scale: float = 1.0) -> np.ndarray:
    return np.array([[x, y], [x + 63 * scale, y], [x + 63 * scale, y + 88 * scale],
                     [x, y + 88 * scale]], np.float32)


def test_an_outline_cut_across_by_another_cards_edge_is_a_card_half_under_it():
    top = _card(100, 100)
    # a card under it, its lower part hidden: its outline stops at the top card's upper edge
    under = np.array([[110, 40], [160, 40], [160, 100], [110, 100]], np.float32)
    beside = _card(200, 100)  # a card of its own on the table, well apart
    assert cut_across(np.stack([top, under, beside])).tolist() == [False, True, False]
    # the same at any turn, and with the outline a few pixels off the edge
    for degrees in (17, 90, 143):
        quads = np.stack([_turned(top, degrees), _turned(under + [0, -3], degrees)])
        assert cut_across(quads).tolist() == [False, True], degrees
    # only a card asked about may cut another (here the top card is not)
    assert not cut_across(np.stack([top, under]), np.array([False, True])).any()
    # two cards laid exactly end to end: either may lie under the other
    assert cut_across(np.stack([top, top + [0, 88]])).tolist() == [True, True]
    # a card whose side runs past the other's ends is not cut by it; nor is one that crosses
    # the line (cards fanned over one another), nor one at a slant to it, nor one farther off,
    # nor a part of the top card along its edge (``nested`` sees to those)
    wide = np.array([[80, 40], [180, 40], [180, 100], [80, 100]], np.float32)
    over = under + [0, 20]
    slant = np.array([[110, 40], [160, 40], [160, 92], [110, 100]], np.float32)
    off = under + [0, -10]
    inside = np.array([[110, 100], [160, 100], [160, 150], [110, 150]], np.float32)
    for quad in (wide, over, slant, off, inside):
        assert cut_across(np.stack([top, quad])).tolist()[1] is False, quad.tolist()
    # two outlines of real close-ups (the studio's test designs): an eight of diamonds under
    # a seven of spades, and a three of diamonds under a four of spades, both stopping at the
    # top card's edge (each was read as another card at 0.98 or more)
    eight = np.array([[929, 105], [1094, 309], [831, 431], [559, 256]], np.float32)
    seven = np.array([[291, 432], [497, 219], [861, 427], [688, 700]], np.float32)
    assert cut_across(np.stack([eight, seven])).tolist() == [True, False]
    three = np.array([[639, 464], [861, 396], [975, 605], [760, 715]], np.float32)
    four = np.array([[799, 188], [864, 400], [641, 469], [576, 257]], np.float32)
    assert cut_across(np.stack([three, four]))[0]


def test_an_outline_lying_inside_a_larger_one_is_a_part_of_a_card_not_a_card():
    whole = _card(100, 100)
    part = _card(110, 110, 0.6)  # all of it inside the card, a third of its area
    fanned = _card(130, 120)  # a card of the same size lying over a third of it
    straddling = _card(135, 70, 0.6)  # a third of it inside, the rest out on the table
    quads = np.stack([whole, part, fanned, straddling])
    assert nested(quads).tolist() == [False, True, False, False]
    # only the outlines asked about may hold another (here none but the part itself)
    assert nested(quads, np.array([False, True, True, True])).tolist() == [False] * 4
    # one a little smaller than the card lying over it is a card seen nearer or farther
    assert not nested(np.stack([whole, _card(104, 104, 0.9)])).any()
    # an outline folded to a line holds nothing and lies inside nothing
    flat = np.array([[0, 0], [10, 0], [20, 0], [30, 0]], np.float32)
    assert nested(np.stack([whole, flat])).tolist() == [False, False]
