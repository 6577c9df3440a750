"""The change gate: which frames are read afresh, which keep the last reading, and which zones
the tracker hears about (synthetic frames, no models)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee.seats import SEATS, Seat
from vision.detections import CardDetections
from vision.motion import BARE_FRAMES, Action, ChangeGate
from vision.table import from_corners

SIZE = (640, 480)
CALIBRATION = from_corners(np.array([(120, 40), (520, 40), (520, 440), (120, 440)], float),
                           SIZE)


def table(blob: tuple[float, float] | None = None, shade: int = 90) -> np.ndarray:
    """A grey table; ``blob``: a bright 'hand' centred at that point of the table (mm)."""
    image = np.full((SIZE[1], SIZE[0], 3), shade, np.uint8)
    if blob is not None:
        x, y = CALIBRATION.to_image(np.array([blob]))[0]
        image[int(y) - 30:int(y) + 30, int(x) - 30:int(x) + 30] = 220
    return image


def seat_one_spot(offset: float = 0.0) -> tuple[float, float]:
    zone = CALIBRATION.layout.zone(Seat(1))
    cx, cy = zone.centre
    return cx + offset, cy


def test_the_first_calibrated_frame_is_read_and_a_still_table_keeps_its_reading():
    gate = ChangeGate()
    assert gate.plan(table(), CALIBRATION).action is Action.READ
    for _ in range(20):
        plan = gate.plan(table(), CALIBRATION)
        assert plan.action is Action.KEEP and plan.seats == frozenset(SEATS)
    assert gate.reads == 1


def test_a_moving_hand_silences_only_its_zone_and_the_zone_is_read_once_it_rests():
    gate = ChangeGate(max_wait=100)
    gate.plan(table(), CALIBRATION)
    for step in range(5):  # the hand moves across seat 1's zone
        plan = gate.plan(table(seat_one_spot(-40 + 20 * step)), CALIBRATION)
        assert plan.action is Action.KEEP
        assert plan.seats == frozenset(SEATS) - {Seat(1)}
    plan = gate.plan(table(seat_one_spot(40)), CALIBRATION)  # it stopped: read now
    assert plan.action is Action.READ and plan.seats == frozenset(SEATS)
    assert plan.read == {Seat(1)}  # only its zone is read afresh; the others keep theirs
    assert gate.plan(table(seat_one_spot(40)), CALIBRATION).action is Action.KEEP


def test_a_zone_that_never_rests_is_read_every_max_wait_frames():
    gate = ChangeGate(max_wait=4)
    gate.plan(table(), CALIBRATION)
    actions = [gate.plan(table(seat_one_spot(-60 + 10 * (step % 12))), CALIBRATION).action
               for step in range(12)]
    assert actions.count(Action.READ) == 3
    assert [i for i, a in enumerate(actions) if a is Action.READ] == [3, 7, 11]


def test_changes_outside_every_zone_do_not_cost_a_read():
    gate = ChangeGate()
    gate.plan(table(), CALIBRATION)
    for step in range(10):  # something moving at the table's centre, between the zones
        image = table()
        image[250:270, 300 + 5 * step:320 + 5 * step] = 255
        assert gate.plan(image, CALIBRATION).action is Action.KEEP


def test_a_new_calibration_forces_a_read_and_no_calibration_reads_nothing():
    gate = ChangeGate()
    gate.plan(table(), CALIBRATION)
    moved = from_corners(np.array([(130, 40), (530, 40), (530, 440), (130, 440)], float), SIZE)
    assert gate.plan(table(), moved).action is Action.READ
    plan = gate.plan(table(), None)
    assert plan.action is Action.KEEP and len(gate.detections) == 0


def card_read_at(spot: tuple[float, float]):
    from vision.detections import CardDetections

    x, y = spot
    corners = np.array([(x - 31, y - 44), (x + 31, y - 44), (x + 31, y + 44), (x - 31, y + 44)])
    quad = CALIBRATION.to_image(corners).astype(np.float32)[None]
    return CardDetections(quad, np.ones(1, np.float32), np.ones(1, bool), [Seat(1)], ["AH"],
                          np.full(1, 0.99, np.float32))


def card_put_down_on_the_empty_table(gate: ChangeGate):  # noqa: ANN201
    """The table read empty, then a card put down in seat 1's zone: the card's spot and the
    plan of the frame it has come to rest on."""
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)  # the table seen empty
    card = seat_one_spot(0)
    gate.plan(table(card), CALIBRATION)
    return card, gate.plan(table(card), CALIBRATION)


def test_a_hand_beside_a_card_leaves_its_reading_and_a_hand_over_it_silences_it():
    gate = ChangeGate(max_wait=100)
    card = seat_one_spot(50)
    gate.plan(table(), CALIBRATION)
    gate.remember(card_read_at(card), SEATS)
    # the hand moves in the zone's far corner, away from the card: seat 1 still counts
    for step in range(3):
        plan = gate.plan(table(seat_one_spot(-85 + 20 * step)), CALIBRATION)
        assert plan.action is Action.KEEP and Seat(1) in plan.seats
    # the hand moves over the card: seat 1 is left out until it rests
    for step in range(4):
        plan = gate.plan(table(seat_one_spot(10 + 20 * step)), CALIBRATION)
        assert plan.action is Action.KEEP and Seat(1) not in plan.seats
    assert gate.plan(table(seat_one_spot(70)), CALIBRATION).action is Action.READ


def test_a_zone_not_read_keeps_its_change_pending_until_it_is_read():
    gate = ChangeGate(max_wait=100)
    gate.plan(table(), CALIBRATION)
    x, y = CALIBRATION.to_image(np.array([CALIBRATION.layout.zone(Seat(3)).centre]))[0]

    def frame(hand: float) -> np.ndarray:  # a card in seat 3's zone, a hand in seat 1's
        image = table(seat_one_spot(hand))
        image[int(y) - 20:int(y) + 20, int(x) - 15:int(x) + 15] = 240
        return image

    assert gate.plan(frame(-40), CALIBRATION).action is Action.KEEP  # both arriving
    # the card is still, the hand moves on: only seat 3 is read, seat 1 stays unheard
    plan = gate.plan(frame(-20), CALIBRATION)
    assert plan.action is Action.READ and plan.read == {Seat(3)}
    assert Seat(1) not in plan.seats
    # the hand comes to rest: seat 1's change is still pending, and only it is read now
    plan = gate.plan(frame(-20), CALIBRATION)
    assert plan.action is Action.READ and plan.read == {Seat(1)}
    assert gate.plan(frame(-20), CALIBRATION).action is Action.KEEP


def test_the_thumbnail_samples_every_step_th_pixel_from_the_middle_of_the_first_step():
    rng = np.random.default_rng(4)
    gate = ChangeGate(step=8)
    for h, w in ((720, 1280), (101, 99), (5, 7)):
        image = rng.integers(0, 256, (h, w, 3), np.uint8)
        thumb = gate.thumb(image)
        sampled = image[4::8, 4::8][:thumb.shape[0], :thumb.shape[1]]
        grey = (0.114 * sampled[..., 0] + 0.587 * sampled[..., 1] + 0.299 * sampled[..., 2])
        assert thumb.dtype == np.int16 and thumb.size > 0
        assert thumb.shape[0] >= h // 8 and thumb.shape[1] >= w // 8
        assert np.abs(thumb - grey).max() <= 1


def _read_as(spot: tuple[float, float], confidence: float, whole: bool = True):
    detections = card_read_at(spot)
    detections.confidence[:] = confidence
    detections.whole[:] = whole
    return detections


def test_a_still_card_read_unsurely_is_looked_at_again_until_it_is_read_surely():
    gate = ChangeGate(max_wait=100, rechecks=4)
    card = seat_one_spot(50)
    gate.plan(table(), CALIBRATION)
    gate.remember(_read_as(card, 0.99), SEATS)
    gate.plan(table(card), CALIBRATION)  # the card (a bright blob) arrives...
    plan = gate.plan(table(card), CALIBRATION)  # ...and rests: read
    assert plan.action is Action.READ and plan.read == {Seat(1)}
    gate.remember(_read_as(card, 0.8), plan.read)  # unsure: look again on the next frames
    for _ in range(2):
        plan = gate.plan(table(card), CALIBRATION)
        assert plan.action is Action.READ and plan.read == {Seat(1)}
        gate.remember(_read_as(card, 0.85), plan.read)
    plan = gate.plan(table(card), CALIBRATION)
    assert plan.read == {Seat(1)}
    gate.remember(_read_as(card, 0.97), plan.read)  # sure now: one second look, then it stands
    looks = [gate.plan(table(card), CALIBRATION) for _ in range(2)]
    assert [p.action for p in looks] == [Action.KEEP, Action.READ] and looks[1].read == {Seat(1)}
    gate.remember(_read_as(card, 0.97), looks[1].read)
    assert all(gate.plan(table(card), CALIBRATION).action is Action.KEEP for _ in range(5))


def _card_comes_to_rest(gate: ChangeGate, card: tuple[float, float], confidence: float):
    gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), SEATS)  # an empty table
    gate.plan(table(card), CALIBRATION)  # the card arrives...
    plan = gate.plan(table(card), CALIBRATION)  # ...and rests: read
    assert plan.action is Action.READ and plan.read == {Seat(1)}
    gate.remember(_read_as(card, confidence), plan.read)


def test_a_card_read_surely_gets_exactly_one_second_look_a_few_frames_later():
    gate = ChangeGate(max_wait=100, confirm_after=3)
    card = seat_one_spot(50)
    _card_comes_to_rest(gate, card, 0.999)
    actions = []
    for _ in range(8):
        plan = gate.plan(table(card), CALIBRATION)
        actions.append(plan.action)
        if plan.action is Action.READ:
            assert plan.read == {Seat(1)}
            gate.remember(_read_as(card, 0.999), plan.read)
    assert actions == [Action.KEEP] * 2 + [Action.READ] + [Action.KEEP] * 5


def test_a_zone_touched_before_its_second_look_is_read_when_it_rests_instead():
    gate = ChangeGate(max_wait=100, confirm_after=3)
    card = seat_one_spot(50)
    _card_comes_to_rest(gate, card, 0.999)
    gate.plan(table(card), CALIBRATION)
    moved = seat_one_spot(60)  # nudged before the second look was due
    assert gate.plan(table(moved), CALIBRATION).seats == frozenset(SEATS) - {Seat(1)}
    plan = gate.plan(table(moved), CALIBRATION)  # at rest again: read afresh
    assert plan.action is Action.READ and plan.read == {Seat(1)}
    gate.remember(_read_as(moved, 0.999), plan.read)
    actions = [gate.plan(table(moved), CALIBRATION).action for _ in range(5)]
    assert actions == [Action.KEEP] * 2 + [Action.READ] + [Action.KEEP] * 2


def test_no_second_look_for_an_unsure_reading_or_when_switched_off():
    card = seat_one_spot(50)
    off = ChangeGate(max_wait=100, confirm_after=0)
    _card_comes_to_rest(off, card, 0.999)
    assert all(off.plan(table(card), CALIBRATION).action is Action.KEEP for _ in range(6))
    unsure = ChangeGate(max_wait=100, rechecks=0, confirm_after=2)
    _card_comes_to_rest(unsure, card, 0.5)
    assert all(unsure.plan(table(card), CALIBRATION).action is Action.KEEP for _ in range(6))


def test_an_unsure_card_gets_a_bounded_number_of_looks_and_more_once_it_moves():
    gate = ChangeGate(max_wait=100, rechecks=3)
    card = seat_one_spot(50)
    gate.plan(table(), CALIBRATION)
    gate.remember(_read_as(card, 0.99), SEATS)
    gate.plan(table(card), CALIBRATION)
    plan = gate.plan(table(card), CALIBRATION)
    gate.remember(_read_as(card, 0.5, whole=False), plan.read)  # seen only in part
    looks = []
    for _ in range(8):
        plan = gate.plan(table(card), CALIBRATION)
        looks.append(plan.action)
        if plan.action is Action.READ:
            gate.remember(_read_as(card, 0.5, whole=False), plan.read)
    assert looks == [Action.READ] * 3 + [Action.KEEP] * 5
    # the card is moved and rests again: a new budget of looks
    gate.plan(table(seat_one_spot(60)), CALIBRATION)
    plan = gate.plan(table(seat_one_spot(60)), CALIBRATION)
    assert plan.action is Action.READ
    gate.remember(_read_as(seat_one_spot(60), 0.5), plan.read)
    assert gate.plan(table(seat_one_spot(60)), CALIBRATION).action is Action.READ


def test_a_zone_is_known_empty_by_its_pixels_even_where_the_detector_saw_nothing():
    gate = ChangeGate(max_wait=100)
    assert gate.empty_zones() == frozenset()  # the table has not been seen empty yet
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)  # the whole table read, no card on it
    gate.plan(table(), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS)
    card = seat_one_spot(50)
    gate.plan(table(card), CALIBRATION)
    plan = gate.plan(table(card), CALIBRATION)
    gate.remember(CardDetections(), plan.read)  # a card the detector missed altogether
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    gate.plan(table(), CALIBRATION)  # taken away again: empty on two frames running
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    gate.plan(table(), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS)


def _grain(calibration, blob: tuple[float, float] | None = None, fine: float = 1.0) -> np.ndarray:
    """A table with a grain of its own (stripes and blotches on the table's plane, as wood
    or a cloth shows, running on past the play area), seen through ``calibration``; ``blob``
    as in ``table``; ``fine``: how many times finer the grain."""
    a, over = int(calibration.layout.area_mm), 200
    yy, xx = np.mgrid[-over:a + over, -over:a + over].astype(np.float32) * fine
    texture = 90 + 40 * np.sin(xx / 90.0) * np.cos(yy / 140.0) + 30 * np.sin((xx + 2 * yy) / 240.0)
    shift = np.array([[1, 0, -over], [0, 1, -over], [0, 0, 1]], np.float64)
    image = cv2.warpPerspective(texture.clip(0, 255).astype(np.uint8),
                                calibration.to_image_matrix @ shift, SIZE, borderValue=60)
    image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if blob is not None:
        x, y = calibration.to_image(np.array([blob]))[0]
        image[int(y) - 30:int(y) + 30, int(x) - 30:int(x) + 30] = 220
    return image


def test_the_empty_tables_look_is_carried_to_a_new_view_of_the_table():
    """The table found elsewhere in the picture (a camera knocked while a card lies in seat 1's
    zone): what the empty table looked like moves with the table, so the other zones still
    look empty, seat 1's does not, and it does once the card is gone."""
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(_grain(CALIBRATION), CALIBRATION)
    gate.remember(CardDetections(), plan.read)  # the whole table read, no card on it
    card = seat_one_spot(50)
    for _ in range(2):
        gate.plan(_grain(CALIBRATION, card), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    knocked = _knocked()
    for _ in range(2):
        gate.plan(_grain(knocked, card), knocked)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    for _ in range(2):
        gate.plan(_grain(knocked), knocked)
    assert gate.empty_zones() == frozenset(SEATS)


def _knocked(shift: tuple[float, float] = (13, -9), turn_deg: float = 1.5):  # noqa: ANN202
    """The calibration of the test table turned by ``turn_deg`` and shifted in the picture."""
    turn = cv2.getRotationMatrix2D((320.0, 240.0), turn_deg, 1.0)
    corners = np.array([(120, 40), (520, 40), (520, 440), (120, 440)], float)
    return from_corners(corners @ turn[:, :2].T + turn[:, 2] + shift, SIZE)


def test_a_busy_cloths_empty_look_is_carried_from_the_full_picture():
    """A grain too fine for every eighth pixel to follow (each pixel's neighbours on the
    thumbnail differ more than ``pixel_change``) still moves with the table: the empty look
    is carried from the picture it was learnt from, at full size, not from its thumbnail."""
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(_grain(CALIBRATION, fine=8.0), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    thumb = gate.empty_thumb
    assert np.count_nonzero(np.abs(np.diff(thumb, axis=1)) > gate.pixel_change) \
        > thumb.size // 4  # (busy on the thumbnail)
    card, knocked = seat_one_spot(50), _knocked()
    for _ in range(2):
        gate.plan(_grain(knocked, card, fine=8.0), knocked)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    for _ in range(2):
        gate.plan(_grain(knocked, fine=8.0), knocked)
    assert gate.empty_zones() == frozenset(SEATS)


def test_an_empty_look_that_does_not_reach_a_new_view_is_forgotten():
    """The empty table learnt while its left part lay outside the picture, then the camera
    turned back to show it all: the old picture does not show over a tenth of a zone, so
    its look is forgotten (no zone looks empty) until it is learnt again; not from the
    new view's first reading, though it finds no card, as the first view's is: a hand
    sweeping a trick there hides the cards. A smaller part not shown is not judged."""
    for shift, forgotten in ((-160, True), (-110, False)):
        gate = ChangeGate(max_wait=100)
        off = _knocked((shift, 0), 0.0)
        plan = gate.plan(_grain(off), off)
        gate.remember(CardDetections(), plan.read)
        plan = gate.plan(_grain(CALIBRATION, (250.0, 250.0)), CALIBRATION)
        gate.remember(CardDetections(), plan.read)  # (every zone read afresh)
        assert plan.read == frozenset(SEATS)
        assert (gate.empty_thumb is None) == forgotten
        gate.plan(_grain(CALIBRATION), CALIBRATION)
        gate.plan(_grain(CALIBRATION), CALIBRATION)
        assert gate.empty_zones() == (frozenset() if forgotten else frozenset(SEATS))


@pytest.mark.parametrize("light", [0.65, 1.4])
def test_a_zone_still_looks_empty_under_a_light_that_changed(light):
    """The light changes (a lamp switched off or on) while a card lies in seat 1's zone: the
    other zones still look as the empty table, made as dark or bright as the table now is,
    seat 1's does not, and it does once the card is gone."""
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(_grain(CALIBRATION), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    card = seat_one_spot(50)

    def lit(picture):  # noqa: ANN001, ANN202
        return np.clip(picture * light, 0, 255).astype(np.uint8)

    for _ in range(2):
        gate.plan(lit(_grain(CALIBRATION, card)), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    for _ in range(2):
        gate.plan(lit(_grain(CALIBRATION)), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS)


def test_the_light_is_judged_against_the_empty_look_in_use():
    """How bright the table is against its empty look is judged against the look in use:
    learnt again under a dimmer light, the table at that light has not changed."""
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(_grain(CALIBRATION), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    assert gate._light_gain(gate.previous) is None
    gate.plan(np.clip(_grain(CALIBRATION) * 0.6, 0, 255).astype(np.uint8), CALIBRATION)
    assert gate._light_gain(gate.previous) == pytest.approx(0.6, abs=0.03)
    gate._learn_empty(gate.previous)
    assert gate._light_gain(gate.previous) is None


@pytest.mark.parametrize("size", [1, 2, 7, 800, 801])
def test_the_middle_value_is_numpys_median(size):
    from vision.motion import _middle

    values = np.random.default_rng(size).random(size).astype(np.float32)
    values[: size // 3] = values[-1]  # (ties)
    assert _middle(values) == float(np.median(values))


def test_one_frame_that_looks_like_the_empty_table_empties_no_zone():
    """A hand right before the camera can fill one frame with a colour whose grey is the
    table's: the cards on the table do not look gone for that."""
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    card = seat_one_spot(50)
    for _ in range(3):
        plan = gate.plan(table(card), CALIBRATION)
        if plan.action is Action.READ:
            gate.remember(card_read_at(card), plan.read)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    gate.plan(table(), CALIBRATION)  # one frame as the empty table looked
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    gate.plan(table(card), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}


def with_markers(image: np.ndarray) -> np.ndarray:
    """``image`` with a dark square at each corner of the picture, outside the table, as the
    markers (and the room around the table) give a camera's picture sharp edges."""
    for y, x in ((10, 10), (10, 590), (430, 10), (430, 590)):
        image[y:y + 40, x:x + 40] = 10
    return image


@pytest.mark.parametrize("blind_share", [0.25, 0.0], ids=["judged", "not judged"])
def test_frames_of_a_covered_lens_in_the_tables_grey_empty_no_zone(blind_share):
    """Something right before the lens, in the table's own grey, can fill frame after frame:
    every zone then looks as on the empty table, cards and all. But such a picture has lost
    the sharp edges the empty table's had (its markers, the room around it), so it is not
    taken for the table swept; the table really swept keeps them. (Not judged, the covered
    frames empty the zones: the test can tell.)"""
    gate = ChangeGate(max_wait=100, blind_share=blind_share)
    plan = gate.plan(with_markers(table()), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    assert gate.empty_steps >= gate.min_steps
    card = seat_one_spot(50)
    for _ in range(3):
        plan = gate.plan(with_markers(table(card)), CALIBRATION)
        if plan.action is Action.READ:
            gate.remember(card_read_at(card), plan.read)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    for _ in range(4):  # the lens covered in the table's grey
        gate.plan(table(), CALIBRATION)
        if blind_share:
            assert gate.empty_zones() == frozenset()
    if not blind_share:
        assert gate.empty_zones() == frozenset(SEATS)
        return
    gate.plan(with_markers(table(card)), CALIBRATION)  # uncovered: the card is still there
    assert gate.empty_zones() == frozenset()  # (the frame before was blind)
    gate.plan(with_markers(table(card)), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}
    for _ in range(2):  # now swept
        gate.plan(with_markers(table()), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS)


def test_a_table_first_seen_with_a_card_on_it_gives_no_empty_zones():
    gate = ChangeGate(max_wait=100)
    card = seat_one_spot(50)
    plan = gate.plan(table(card), CALIBRATION)
    gate.remember(card_read_at(card), plan.read)
    gate.plan(table(), CALIBRATION)
    assert gate.empty_zones() == frozenset()


def _frames_to_bare(gate: ChangeGate, frames) -> int | None:  # noqa: ANN001
    """Plan ``frames`` (reading nothing in the zones read), and the frame on which the
    gate first knows the empty table's look (None: never)."""
    for n, picture in enumerate(frames):
        plan = gate.plan(picture, CALIBRATION)
        if plan.action is Action.READ:
            gate.remember(CardDetections(), plan.read)
        if gate.empty_thumb is not None:
            return n
    return None


def _first_seen_with_a_card(gate: ChangeGate) -> tuple[float, float]:
    """The table first seen with a card in seat 1's zone, read: the card's spot."""
    card = seat_one_spot(50)
    plan = gate.plan(table(card), CALIBRATION)
    gate.remember(card_read_at(card), plan.read)
    return card


def _card_played_and_taken(gate: ChangeGate, card: tuple[float, float]) -> None:
    """A card put down in seat 1's zone, read, and taken away again."""
    for _ in range(2):
        plan = gate.plan(table(card), CALIBRATION)
    gate.remember(card_read_at(card), plan.read)
    gate.plan(table(), CALIBRATION)


def test_the_empty_look_is_learnt_from_two_bare_moments_alike_with_a_card_between():
    """The table first seen with a card on it: no zone is read again until something comes
    to rest in it. Its look is learnt once it has been bare (every zone's reading bare and
    standing, nothing changing for ``BARE_FRAMES`` frames) twice, looking the same, with a
    card read in between (a hand passing over the table is not enough): at the second such
    moment."""
    gate = ChangeGate(max_wait=100, confirm_after=0)
    card = _first_seen_with_a_card(gate)
    assert _frames_to_bare(gate, [table()] * 30) is None  # one long moment is not two
    passing = [table((150.0 + 40 * n, 250.0)) for n in range(4)]
    assert _frames_to_bare(gate, passing + [table()] * 30) is None  # nor a hand between
    _card_played_and_taken(gate, card)
    # (its zone read bare on the first frame, then ``BARE_FRAMES`` frames alike)
    assert _frames_to_bare(gate, [table()] * 30) == BARE_FRAMES
    assert gate.empty_zones() == frozenset(SEATS)
    gate.plan(table(card), CALIBRATION)  # put down again: its zone no longer looks empty
    gate.plan(table(card), CALIBRATION)
    assert gate.empty_zones() == frozenset(SEATS) - {Seat(1)}


@pytest.mark.parametrize("at_first", [True, False], ids=["first moment", "second moment"])
def test_something_in_the_middle_at_one_bare_moment_is_not_learnt_as_the_table(at_first):
    """A hand paused over the middle (sweeping a trick), or a card lying there astray, at one
    of two bare moments: the two do not look alike, and nothing is learnt until two moments
    running look alike, both without it (each compared with the one before it only)."""
    gate = ChangeGate(max_wait=100, confirm_after=0)
    card = _first_seen_with_a_card(gate)
    middle = (250.0, 250.0)
    thing = [table(middle)] * 10
    assert _frames_to_bare(gate, thing if at_first else [table()] * 10) is None
    _card_played_and_taken(gate, card)
    assert _frames_to_bare(gate, [table()] * 10 if at_first else thing) is None
    moments = 2
    while gate.empty_thumb is None and moments < 6:
        _card_played_and_taken(gate, card)
        _frames_to_bare(gate, [table()] * 10)
        moments += 1
    assert moments == (3 if at_first else 4)
    assert np.abs(gate.empty_thumb - gate.thumb(table())).max() == 0


def test_no_empty_look_is_learnt_while_a_zone_holds_a_card_or_a_hand_moves():
    """Seat 1's card taken away is no sign of an empty table while seat 3's reading holds a
    card, nor while a hand keeps moving over seat 3's zone (unread all the while)."""
    gate = ChangeGate(max_wait=100, confirm_after=0)  # (no second look at seat 3's card)
    card, other = seat_one_spot(50), CALIBRATION.layout.zone(Seat(3)).centre
    both = CardDetections.joined([card_read_at(card), card_read_at(other)])
    both.seats[1] = Seat(3)
    plan = gate.plan(table(card), CALIBRATION)
    gate.remember(both, plan.read)
    assert _frames_to_bare(gate, [table()] * 30) is None
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(table(card), CALIBRATION)
    gate.remember(card_read_at(card), plan.read)
    hands = [table((other[0] + (-40 if n % 2 else 40), other[1])) for n in range(30)]
    assert _frames_to_bare(gate, hands) is None


def test_a_zone_read_empty_that_does_not_look_it_is_unread_and_looked_at_once_more_widely():
    gate = ChangeGate(max_wait=100)
    card, plan = card_put_down_on_the_empty_table(gate)
    assert plan.action is Action.READ and plan.read == {Seat(1)} and not plan.wide
    gate.remember(CardDetections(), plan.read)  # the detector missed what lies there
    assert gate.missed_zones() == {Seat(1)}  # unread: plays after it wait
    plan = gate.plan(table(card), CALIBRATION)
    assert plan.action is Action.READ and plan.wide == {Seat(1)}  # more of the table around
    gate.remember(CardDetections(), plan.read)  # still nothing: not a card, it seems
    assert gate.missed_zones() == frozenset()
    assert gate.plan(table(card), CALIBRATION).action is Action.KEEP


def test_a_still_card_found_only_in_part_is_looked_at_again_more_widely():
    """On the zone's own part of the picture the network can find just the middle of a still
    card (game 18 of the brisk clips: bellot's jack of clubs, swept away before it was read
    whole twice); its next looks take in more of the table, until it is read whole."""
    gate = ChangeGate(max_wait=100)
    card, plan = card_put_down_on_the_empty_table(gate)
    assert plan.action is Action.READ and not plan.wide
    part = card_read_at(card)
    part.whole[:] = False
    part.cards[0], part.confidence[:] = None, 0.0
    gate.remember(part, plan.read)  # found, but not whole
    plan = gate.plan(table(card), CALIBRATION)
    assert plan.action is Action.READ and plan.wide == {Seat(1)}
    gate.remember(card_read_at(card), plan.read)  # whole and sure with more around it
    plans = [gate.plan(table(card), CALIBRATION) for _ in range(gate.confirm_after)]
    assert [p.action for p in plans] == [Action.KEEP] * (gate.confirm_after - 1) + [Action.READ]
    assert not plans[-1].wide  # its second look is the usual one
    gate.remember(card_read_at(card), plans[-1].read)
    assert all(gate.plan(table(card), CALIBRATION).action is Action.KEEP for _ in range(5))


def test_what_a_card_found_covers_is_no_sign_of_a_missed_card():
    gate = ChangeGate(max_wait=100)
    card, plan = card_put_down_on_the_empty_table(gate)
    gate.remember(card_read_at(card), plan.read)  # found and read surely
    assert gate.missed_zones() == frozenset()


def test_the_preview_worked_out_beside_the_decoding_is_the_gates_own_thumbnail():
    """Replay works out each frame's grey preview on the decoding thread; the gate takes its
    box out of it instead of shrinking the picture again, and must see the same pixels."""
    from vision.sources import preview

    rng = np.random.default_rng(4)
    for step in (8, 6):
        gate = ChangeGate(step=step)
        picture = rng.integers(0, 256, (543, 967, 3), np.uint8)
        gate.plan(picture, CALIBRATION)  # works out the box
        assert gate.box[0].start % step == 0 and gate.box[1].start % step == 0
        own = gate.thumb(picture)
        assert own.shape[0] > 10 and own.shape[1] > 10
        assert np.array_equal(gate.thumb(picture, preview(picture, step)), own)
        assert not np.array_equal(gate.thumb(picture, preview(picture[::-1], step)), own)


def test_an_unsure_card_whose_looks_ran_out_is_looked_at_again_when_asked():
    """Its looks spent, a still card read unsurely stands unread; once the game expects
    something new of it (a lead followed: ``TableReferee.leanings``), it gets two more."""
    gate = ChangeGate(max_wait=100, rechecks=1, confirm_after=0)
    card = seat_one_spot(50)
    _card_comes_to_rest(gate, card, 0.8)
    plan = gate.plan(table(card), CALIBRATION)
    assert plan.action is Action.READ
    gate.remember(_read_as(card, 0.8), plan.read)
    assert all(gate.plan(table(card), CALIBRATION).action is Action.KEEP for _ in range(3))
    gate.look_again({Seat(1)})
    looks = []
    for _ in range(4):
        plan = gate.plan(table(card), CALIBRATION)
        looks.append((plan.action, plan.read))
        if plan.action is Action.READ:
            gate.remember(_read_as(card, 0.8), plan.read)
    assert looks == [(Action.READ, {Seat(1)})] * 2 + [(Action.KEEP, frozenset())] * 2


def _stray_looks(gate: ChangeGate, frames: list[np.ndarray]) -> list[int]:
    """The frames (by index) on which the gate asks for a look at the whole table for a card
    lying astray."""
    looks = []
    for n, image in enumerate(frames):
        gate.plan(image, CALIBRATION)
        if gate.stray_due():
            looks.append(n)
    return looks


def test_something_come_to_rest_in_the_middle_of_the_table_is_looked_at_once_until_it_moves():
    gate = ChangeGate(max_wait=100)
    centre = CALIBRATION.layout.centre
    # never before the table has been seen empty (nothing to tell a thing lying there by)
    assert _stray_looks(gate, [table(centre)] * 6) == []
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)  # the table seen empty
    moving = [table((centre[0] - 40 + 10 * k, centre[1])) for k in range(6)]
    still = [table(centre)] * 6
    moved = [table((centre[0] + 20, centre[1]))] * 5
    looks = _stray_looks(gate, moving + still + moved + [table()] * 6)
    # once, when it has been still for three frames; again once moved and still again; never
    # for the table empty again, nor while it moves
    assert looks == [6 + 3, 12 + 3], looks
    assert gate.astray_clear  # and the middle, settled, now shows nothing
    gate.plan(table(centre), CALIBRATION)
    gate.stray_due()
    assert not gate.astray_clear  # until something moves there


@pytest.mark.parametrize("corner", range(4))
def test_something_come_to_rest_in_a_corner_between_two_zones_is_looked_at_too(corner):
    """Beyond the middle, a card tossed wide by a corner between two zones lies in no zone
    either: each corner is watched as the middle is, and the table outside the zones is clear
    only while the corners are too."""
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)  # the table seen empty
    (x0, y0), _, (x1, y1), _ = CALIBRATION.layout.corners_between()[corner]
    spot = ((x0 + x1) / 2, (y0 + y1) / 2)
    assert CALIBRATION.layout.seat_at(*spot, reach=25) is None
    assert _stray_looks(gate, [table()] * 4) == [] and gate.astray_clear
    assert _stray_looks(gate, [table(spot)] * 6) == [3]
    assert not gate.astray_clear  # the middle looks empty, but this corner does not
    assert _stray_looks(gate, [table()] * 4) == [] and gate.astray_clear  # taken away


def test_a_card_read_in_its_zone_is_no_reason_to_look_at_the_middle():
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    # a card played at the inner edge of seat 1's zone, reaching into the middle
    zone = CALIBRATION.layout.zone(Seat(1))
    spot = (zone.centre[0], zone.y0 - 10)
    image = table(spot)
    gate.plan(image, CALIBRATION)  # put down: moving
    looks = []
    for n in range(6):
        plan = gate.plan(image, CALIBRATION)
        if plan.action is Action.READ:
            gate.remember(card_read_at(spot), plan.read)
        looks += [n] if gate.stray_due() else []
    assert looks == []
    # the same blob not read as a card (say a hand at rest) is looked at, once
    gate = ChangeGate(max_wait=100)
    plan = gate.plan(table(), CALIBRATION)
    gate.remember(CardDetections(), plan.read)
    assert _stray_looks(gate, [image] * 6) == [3]
