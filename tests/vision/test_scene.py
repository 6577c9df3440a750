"""Scene rendering: labels lie on the cards, seats come from the zones, visibility is honest.

Every test draws with the procedural faces, so nothing is downloaded.
"""

from __future__ import annotations

import numpy as np
import pytest

from referee import Card, Suit
from referee.seats import SEATS, Seat
from vision.layout import LayoutError, TableLayout, layout_from_mapping
from vision.studio.camera import Camera
from vision.studio.facesets import RandomFaces, TinyFaces
from vision.studio.objects import Hand
from vision.studio.scene import CardOnTable, Look, Scene, Stage, render

LAYOUT = TableLayout()
PLAIN = Look(exposure=1.0, unevenness=0.0, vignette=0.0, shadow_strength=0.0, glare=0.0,
             defocus=0.0, motion=0.0, noise=0.0)
MAGENTA, GREEN = (255, 0, 255), (0, 255, 0)


def marked_face(width: int = 90, height: int = 126) -> np.ndarray:
    """A magenta card whose top-left quarter is green: shows where the card's top-left is."""
    face = np.zeros((height, width, 4), np.uint8)
    face[..., :3] = MAGENTA
    face[: height // 2, : width // 2, :3] = GREEN
    face[..., 3] = 255
    return face


def camera(tilt: float, yaw: float, k1: float, size=(640, 360)) -> Camera:
    a = LAYOUT.area_mm
    cam = Camera.looking_at(LAYOUT.centre, tilt, 700, yaw, *size, focal_px=size[0] * 0.8,
                            k1=k1, k2=0.01 if k1 else 0.0)
    return cam.framing(np.array([(0, 0), (a, 0), (a, a), (0, a)], float), 0.95)


def stage(cam: Camera, surface: str = "blue felt", markers: bool = False) -> Stage:
    return Stage(cam, LAYOUT, surface, markers, PLAIN, seed=3)


def card_iou(picture: np.ndarray, quad: np.ndarray) -> float:
    """Overlap of the labelled outline with the card's own pixels (magenta or green) around it."""
    import cv2

    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 12, 0)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 12
    box = picture[y0:y1, x0:x1].astype(int)
    card = (np.abs(box - MAGENTA).sum(axis=2) < 200) | (np.abs(box - GREEN).sum(axis=2) < 200)
    label = np.zeros(box.shape[:2], np.uint8)
    cv2.fillPoly(label, [np.round((quad - [x0, y0]) * 16).astype(np.int32)], 1, cv2.LINE_8,
                 shift=4)
    label = label > 0
    return float((card & label).sum() / max((card | label).sum(), 1))


@pytest.mark.parametrize("tilt,yaw,k1", [(0, 0, 0.0), (35, 20, -0.15), (58, -140, 0.05),
                                         (20, 90, -0.15)])
def test_labelled_corners_lie_on_the_card_in_the_picture(tilt, yaw, k1):
    cam = camera(tilt, yaw, k1, size=(1280, 720))
    spots = [LAYOUT.zone(seat).centre for seat in SEATS]
    spots += [(60.0, 60.0), (440.0, 60.0), (440.0, 440.0), (60.0, 440.0)]  # where lenses bend most
    cards = [CardOnTable(Card.parse("AS"), marked_face(), spot, angle)
             for spot, angle in zip(spots, (0, 73, 180, 250, 15, 100, 200, 290))]
    picture, labels = render(stage(cam), Scene(cards=cards), np.random.default_rng(0))
    assert len(labels) == 8
    overlaps = [card_iou(picture, label.corners) for label in labels]
    # Anti-aliased edges keep a right outline a little under 1; a lens left out of the labels
    # shifts the outer cards by several pixels and brings the mean under 0.93.
    assert min(overlaps) > 0.9 and np.mean(overlaps) > 0.945, np.round(overlaps, 3)
    for label in labels:
        quad = label.corners
        # corner 1 is the card's own top-left: the green quarter
        towards_centre = quad[0] + (quad.mean(axis=0) - quad[0]) * 0.3
        x, y = np.round(towards_centre).astype(int)
        assert np.abs(picture[y, x].astype(int) - GREEN).sum() < 120
        # and the corners go round clockwise on screen (y down): positive signed area
        x_, y_ = quad[:, 0], quad[:, 1]
        assert 0.5 * np.sum(x_ * np.roll(y_, -1) - np.roll(x_, -1) * y_) > 0


def test_seats_come_from_the_zones_and_the_middle_is_nobodys():
    cam = camera(10, 0, 0.0)
    cards = [CardOnTable(Card.parse("7D"), marked_face(), LAYOUT.zone(Seat(3)).centre, 180),
             CardOnTable(Card.parse("KH"), marked_face(), LAYOUT.centre, 45)]
    _, labels = render(stage(cam), Scene(cards=cards), np.random.default_rng(0))
    by_card = {str(label.card): label for label in labels}
    assert by_card["7D"].seat == Seat(3)
    assert by_card["KH"].seat is None


def test_with_seat_one_at_the_bottom_the_zones_sit_where_config_says():
    cam = camera(0, 0, 0.0)
    centre = cam.project(np.array([LAYOUT.centre]))[0]
    for seat in SEATS:
        p = cam.project(np.array([LAYOUT.zone(seat).centre]))[0]
        side = LAYOUT.side_of(seat)
        dx, dy = p - centre
        expected = {"bottom": dy > 0, "top": dy < 0, "left": dx < 0, "right": dx > 0}[side]
        assert expected, (seat, side, dx, dy)


def test_a_hand_over_a_card_lowers_its_visible_share():
    cam = camera(20, 0, 0.0)
    spot = LAYOUT.zone(Seat(1)).centre
    card = CardOnTable(Card.parse("QC"), marked_face(), spot, 0)
    hand = Hand(tip=(spot[0], spot[1] - 10), towards=(0.0, 1.0), skin=(120, 150, 200), lift=5)
    _, bare = render(stage(cam), Scene(cards=[card]), np.random.default_rng(0))
    _, covered = render(stage(cam), Scene(cards=[card], hands=[hand]), np.random.default_rng(0))
    assert bare[0].visible > 0.97
    assert covered[0].visible < 0.75


def test_a_card_over_another_hides_part_of_it():
    cam = camera(0, 0, 0.0)
    x, y = LAYOUT.zone(Seat(1)).centre
    under = CardOnTable(Card.parse("2H"), marked_face(), (x, y), 0)
    over = CardOnTable(Card.parse("3H"), marked_face(), (x + 31.5, y), 0)
    _, labels = render(stage(cam), Scene(cards=[under, over]), np.random.default_rng(0))
    share = {str(label.card): label.visible for label in labels}
    assert 0.4 < share["2H"] < 0.6
    assert share["3H"] > 0.97


def test_a_card_off_the_picture_has_no_label_and_one_half_off_is_half_visible():
    cam = camera(0, 0, 0.0)
    far = CardOnTable(Card.parse("5S"), marked_face(), (-900.0, -900.0), 0)
    edge_x = cam.project(np.array([LAYOUT.centre]))[0]
    # find the table x that lands on the picture's left edge at the centre's height
    xs = np.linspace(-400, 250, 1300)
    px = cam.project(np.column_stack([xs, np.full_like(xs, LAYOUT.centre[1])]))[:, 0]
    at_edge = xs[np.argmin(np.abs(px))]
    half = CardOnTable(Card.parse("6S"), marked_face(), (float(at_edge), LAYOUT.centre[1]), 0)
    _, labels = render(stage(cam), Scene(cards=[far, half]), np.random.default_rng(0))
    assert [str(label.card) for label in labels] == ["6S"]
    assert 0.35 < labels[0].visible < 0.65
    assert edge_x[0] > 0


def test_markers_are_printed_where_the_layout_puts_them():
    import cv2

    cam = camera(25, 10, -0.08)
    picture, _ = render(stage(cam, "wood", markers=True), Scene(), np.random.default_rng(0))
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY))
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    expected = LAYOUT.marker_squares()
    for found, marker_id in zip(corners, ids.ravel()):
        truth = cam.project(np.array(expected[int(marker_id)]))
        assert np.abs(found.reshape(4, 2) - truth).max() < 2.5


def test_camera_without_distortion_projects_by_its_homography():
    cam = camera(40, 30, 0.0)
    pts = np.array([(0.0, 0.0), (500.0, 120.0), (250.0, 250.0)])
    h = cam.homography()
    homog = np.column_stack([pts, np.ones(3)]) @ h.T
    assert np.allclose(cam.project(pts), homog[:, :2] / homog[:, 2:], atol=1e-6)


def test_tiny_faces_are_drawn_for_every_card_and_differ():
    faces = TinyFaces(0)
    seen = set()
    for text in ("AS", "AH", "7D", "10C", "KS", "QS", "JS", "back"):
        face = faces.face(text if text == "back" else Card.parse(text))
        assert face.shape[2] == 4 and face[..., 3].max() == 255
        seen.add(face.tobytes())
    assert len(seen) == 8


class _GreenCourts:
    """Art for made-up designs to borrow: every face a plain green card."""

    name = "green"

    def face(self, card):  # noqa: ANN001, ANN201
        face = np.zeros((126, 90, 4), np.uint8)
        face[..., 1] = face[..., 3] = 255
        return face


class _CourtsByRank:
    """Art whose court cards are plain cards of one colour a rank."""

    name = "by-rank"
    colours = {"J": (255, 0, 0), "Q": (0, 255, 0), "K": (0, 0, 255)}

    def face(self, card):  # noqa: ANN001, ANN201
        face = np.zeros((126, 90, 4), np.uint8)
        face[..., :3] = self.colours.get(str(card)[0], (128, 128, 128))
        face[..., 3] = 255
        return face


def _first_portrait_design(art: list, suit_only: bool = False) -> RandomFaces:
    for seed in range(1000, 1200):
        faces = RandomFaces(seed, art=art)
        if faces.court_style == "portrait" and faces.suit_only_courts == suit_only:
            return faces
    raise AssertionError("no such portrait design among 200 seeds")


def test_suit_only_designs_show_the_portrait_of_the_right_rank_and_no_rank_letter():
    art = _CourtsByRank()
    design = _first_portrait_design([art], suit_only=True)
    h, w = design.height, design.width
    for rank, colour in art.colours.items():
        for suit in "CDHS":
            panel = design.face(f"{rank}{suit}")[int(h * 0.4):int(h * 0.6),
                                                 int(w * 0.4):int(w * 0.6), :3]
            assert (panel == colour).all(axis=2).mean() > 0.9, (rank, suit)
    # only the portrait tells the court cards of a suit apart: their corners are the same
    corner = (slice(0, int(h * 0.15)), slice(0, int(w * 0.2)))
    king, queen = design.face("KH"), design.face("QH")
    assert np.array_equal(king[corner], queen[corner])
    assert not np.array_equal(design.face("7H")[corner], design.face("6H")[corner])
    # a design that borrows portraits of any rank keeps its rank letters
    other = _first_portrait_design([art])
    assert not np.array_equal(other.face("KH")[corner], other.face("QH")[corner])
    # without art to borrow, no design goes without its rank letters
    assert not any(RandomFaces(seed).suit_only_courts for seed in range(1000, 1100))


def test_portrait_designs_borrow_court_art_and_keep_their_own_indices():
    design = _first_portrait_design([_GreenCourts()])
    green = (0, 255, 0)
    king, seven = design.face("KH"), design.face("7H")
    share = (king[..., :3] == green).all(axis=2).mean()
    assert 0.3 < share < 0.6  # the panel is the borrowed art; corners and border are not
    assert not (seven[..., :3] == green).all(axis=2).any()  # pip cards keep their pips
    # the index corner is the design's own: the same as the design drawn without art
    plain = RandomFaces(int(design.name.split("-")[1]))
    h, w = king.shape[:2]
    corner = (slice(0, int(h * 0.15)), slice(0, int(w * 0.2)))
    assert np.array_equal(king[corner], plain.face("KH")[corner])
    # without art to borrow, the design falls back to shapes: no green
    assert not (plain.face("KH")[..., :3] == green).all(axis=2).any()


def test_some_designs_draw_a_picture_on_an_ace_under_the_ace_s_own_index():
    art = [_GreenCourts()]
    designs = [RandomFaces(seed, art=art) for seed in range(1000, 1048)]
    spades_only = [d for d in designs if d.decorated_aces == {Suit.SPADES}]
    every_ace = [d for d in designs if len(d.decorated_aces) == 4]
    assert spades_only and every_ace and len(spades_only) + len(every_ace) < len(designs)
    green = (0, 255, 0)

    def picture(face: np.ndarray) -> float:
        return float((face[..., :3] == green).all(axis=2).mean())

    design = spades_only[0]
    assert 0.1 < picture(design.face("AS")) < 0.5  # the borrowed picture, in an oval
    assert picture(design.face("AH")) == 0 and picture(design.face("7S")) == 0
    assert picture(every_ace[0].face("AD")) > 0.1
    # the index corner is the ace's, as the design draws it without the picture
    plain = RandomFaces(int(design.name.split("-")[1]))
    face = design.face("AS")
    h, w = face.shape[:2]
    corner = (slice(0, int(h * 0.15)), slice(0, int(w * 0.2)))
    assert np.array_equal(face[corner], plain.face("AS")[corner])
    # without art to borrow, no ace is decorated
    assert not any(d.decorated_aces for d in (RandomFaces(s) for s in range(1000, 1048)))


def _panel_grounds(design: RandomFaces, rank: str) -> set:
    """The ground colour (the most common one) of the court panel of each suit."""
    grounds = set()
    for suit in "CDHS":
        panel = design.face(f"{rank}{suit}")[60:160, 40:120, :3].reshape(-1, 3)
        colours, counts = np.unique(panel, axis=0, return_counts=True)
        grounds.add(tuple(colours[counts.argmax()]))
    return grounds


def test_made_up_court_panels_differ_by_suit_unless_the_design_draws_one_for_all():
    """Each court card of a made-up design has its own panel, as a real design's kings each
    have their own portrait; but three designs in ten draw one panel for all four suits, as
    kde-penguins does, so that only the suit signs tell them apart."""
    designs = [RandomFaces(seed) for seed in range(1000, 1040)]
    own = [d for d in designs if not d.same_panel_every_suit and d.court_style == "shapes"]
    shared = [d for d in designs if d.same_panel_every_suit and d.court_style == "shapes"]
    assert own and shared
    assert len(_panel_grounds(own[0], "K")) == 4
    assert len(_panel_grounds(shared[0], "K")) == 1
    # the suit signs still differ
    assert not np.array_equal(shared[0].face("KS"), shared[0].face("KC"))


def test_a_point_beside_one_zone_is_its_seats_only_within_the_reach_asked_for():
    layout = TableLayout()
    bottom, right = layout.zone(Seat(1)), layout.zone(Seat(4))
    beside = (bottom.x1 + 20, bottom.centre[1])
    assert bottom.distance(*beside) == pytest.approx(20) and bottom.distance(*bottom.centre) == 0
    assert layout.seat_at(*beside) is None and layout.seat_at(*beside, reach=19) is None
    assert layout.seat_at(*beside, reach=25) == Seat(1)
    assert layout.seat_at(*bottom.centre, reach=25) == Seat(1)
    # as near two zones, at the corner between them: nobody's, however far the reach
    assert layout.seat_at(bottom.x1 + 10, right.y1 + 10, reach=60) is None
    assert layout.seat_at(*layout.centre, reach=25) is None


def test_the_zone_nearest_a_point_is_named_only_where_it_is_clearly_the_nearest():
    layout = TableLayout()
    cx, cy = layout.centre
    assert layout.nearest_seat(cx, cy) is None  # the middle: as near all four
    bottom = layout.zone(Seat(1))
    assert layout.nearest_seat(cx, bottom.y0 - 30) == Seat(1)  # just inside the middle
    assert layout.nearest_seat(cx, bottom.y0 - 30, lead_mm=200) is None
    # at the corner between seat 1's zone and seat 4's, as near both
    right = layout.zone(Seat(4))
    assert layout.nearest_seat(bottom.x1 + 20, right.y1 + 20) is None
    x0, y0 = layout.middle()[0]
    assert (x0, y0) == (cx - layout.zone_near_mm, cy - layout.zone_near_mm)
    assert layout.middle()[2] == (bottom.x1, bottom.y0)  # framed by the zones' inner edges
    assert layout.in_middle(cx, bottom.y0 - 30) and layout.in_middle(*layout.middle()[0])
    assert not layout.in_middle(bottom.x1 + 20, right.y1 + 20)
    assert not layout.in_middle(*bottom.centre)


@pytest.mark.parametrize("near", [90.0, 120.0])
def test_the_corners_between_zones_lie_in_no_zone_and_reach_out_to_their_far_ends(near):
    layout = TableLayout(zone_near_mm=near)
    bottom, right = layout.zone(Seat(1)), layout.zone(Seat(4))
    corners = layout.corners_between()
    assert len(corners) == 4
    # the bottom-right one: from seat 1's zone's side and seat 4's zone's out to their ends
    assert corners[2][0] == (bottom.x1, right.y1) and corners[2][2] == (right.x1, bottom.y1)
    for square in corners:
        (x0, y0), _, (x1, y1), _ = square
        assert x1 - x0 == y1 - y0 == layout.zone_far_mm - layout.zone_width_mm / 2
        inside = [(x0 + (x1 - x0) * i / 4, y0 + (y1 - y0) * j / 4) for i in range(1, 4)
                  for j in range(1, 4)]
        assert all(layout.seat_at(x, y) is None for x, y in inside)
        assert not layout.in_middle((x0 + x1) / 2, (y0 + y1) / 2)


def test_layout_reads_config_and_refuses_nonsense():
    layout = layout_from_mapping({"area_mm": 600, "seat_sides": {"bottom": 3, "left": 4,
                                                                 "top": 1, "right": 2}})
    assert layout.side_of(Seat(1)) == "top"
    assert layout.seat_at(*layout.zone(Seat(2)).centre) == Seat(2)
    with pytest.raises(LayoutError, match="unknown key 'layout.area'"):
        layout_from_mapping({"area": 500})
    with pytest.raises(LayoutError, match="seat_sides"):
        layout_from_mapping({"seat_sides": {"bottom": 1, "left": 1, "top": 3, "right": 4}})
    with pytest.raises(LayoutError, match="zone_near_mm"):
        layout_from_mapping({"zone_near_mm": 300})
    with pytest.raises(LayoutError, match="zones would overlap"):
        layout_from_mapping({"zone_near_mm": 40, "zone_width_mm": 200})
    with pytest.raises(LayoutError, match="'layout.area_mm' must be a number .*, not 'wide'"):
        layout_from_mapping({"area_mm": "wide"})
    with pytest.raises(LayoutError, match="'layout.marker_mm' must be a number .*, not True"):
        layout_from_mapping({"marker_mm": True})
    with pytest.raises(LayoutError, match="'layout.seat_sides' must be a mapping"):
        layout_from_mapping({"seat_sides": [1, 2, 3, 4]})
