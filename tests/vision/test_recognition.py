"""Detection and classification with the committed models, on studio pictures drawn with the
procedural faces (no download)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from referee import Card
from referee.seats import SEATS, Seat
from tests.helpers import networks_read, probabilities_of
from vision.cardclasses import CLASSES
from vision.classify import CardClassifier, ClassifierError
from vision.detect import CardDetector, DetectorError
from vision.detections import CardDetections
from vision.geometry import rectify
from vision.layout import TableLayout
from vision.studio.camera import Camera
from vision.studio.facesets import TinyFaces
from vision.studio.scene import CardOnTable, Look, Scene, Stage, render
from vision.table import from_markers

LAYOUT = TableLayout()


@pytest.fixture(scope="module")
def detector():
    return CardDetector(threads=1)


@pytest.fixture(scope="module")
def classifier():
    return CardClassifier(threads=1)


def table_with_four_cards(seed: int, tilt: float = 15.0):
    rng = np.random.default_rng(seed)
    a = LAYOUT.area_mm
    cam = Camera.looking_at(LAYOUT.centre, tilt, 700, float(rng.normal(0, 5)), 1280, 720,
                            focal_px=1000)
    cam = cam.framing(np.array([(-10, -10), (a + 10, -10), (a + 10, a + 10), (-10, a + 10)]),
                      0.92)
    faces = TinyFaces(seed % 3)
    names = ["AH", "7D", "KS", "QC", "2H", "JD", "5S", "3C"]
    cards = []
    for seat, angle in zip(SEATS, (0, 90, 180, 270)):
        x, y = LAYOUT.zone(seat).centre
        name = names[(seed + seat.number) % len(names)]
        cards.append(CardOnTable(Card.parse(name), faces.face(Card.parse(name)), (x, y),
                                 angle + float(rng.normal(0, 10))))
    look = Look(noise=2.0, unevenness=0.15, vignette=0.15)
    picture, labels = render(Stage(cam, LAYOUT, "green felt", True, look, seed), Scene(cards),
                             rng)
    return picture, labels


def test_missing_models_are_clear_errors(tmp_path):
    with pytest.raises(DetectorError, match="missing"):
        CardDetector(tmp_path / "none.onnx")
    with pytest.raises(ClassifierError, match="missing"):
        CardClassifier(tmp_path / "none.onnx")
    (tmp_path / "bad.onnx").write_bytes(b"not a model")
    with pytest.raises(ClassifierError, match="cannot load"):
        CardClassifier(tmp_path / "bad.onnx")


def test_a_model_of_the_other_kind_is_a_clear_error():
    """A models folder whose detector is the classifier (or the other way round) is refused
    when the model is loaded, not by onnxruntime halfway through the first frame."""
    from vision.models import MODELS

    with pytest.raises(DetectorError, match="is no card detector"):
        CardDetector(MODELS / "cards.onnx")
    with pytest.raises(ClassifierError, match="a probability for each of the 54 classes"):
        CardClassifier(MODELS / "detector.onnx")


def test_detections_container_checks_its_arrays():
    with pytest.raises(ValueError, match="scores has 0 entries for 1 cards"):
        CardDetections(np.zeros((1, 4, 2), np.float32))
    empty = CardDetections()
    assert len(empty) == 0 and empty.centres.shape == (0, 2)


def test_isolated_cards_on_a_calibrated_table_are_found_with_their_seats(detector):
    found = total = 0
    for seed in range(6):
        picture, labels = table_with_four_cards(seed)
        calibration = from_markers(picture, LAYOUT)
        detections = detector.detect(picture, calibration)
        for label in labels:
            total += 1
            centre = label.corners.mean(axis=0)
            hits = [i for i in range(len(detections))
                    if np.linalg.norm(detections.centres[i] - centre) < 15
                    and detections.whole[i]]
            if hits and detections.seats[hits[0]] == label.seat:
                found += 1
    # issue 4 asks for far more (99 % recall, measured by benchmarks/recognition.py); this only
    # guards the pipeline: calibration, detection and seats working together
    assert found >= 0.5 * total, f"{found} of {total}"


def test_a_card_tossed_just_beside_its_zone_is_its_seats_and_one_between_two_zones_nobodys(
        detector):
    """Game 2331 (1280x720): seat 1's 3S came to rest with its middle 20 mm right of seat 1's
    zone, and was never taken. A card beside one zone only is that seat's, also when only that
    zone is looked at; one as near two zones (the corner between them), or in the middle of
    the table, is nobody's."""
    a = LAYOUT.area_mm
    cam = Camera.looking_at(LAYOUT.centre, 15, 700, 3.0, 1280, 720, focal_px=1000).framing(
        np.array([(-10, -10), (a + 10, -10), (a + 10, a + 10), (-10, a + 10)]), 0.92)
    bottom, right = LAYOUT.zone(Seat(1)), LAYOUT.zone(Seat(4))
    places = {"beside": (bottom.x1 + 20, bottom.centre[1], 0.0),
              "between": (bottom.x1 + 15, right.y1 + 15, 45.0),
              "middle": (*LAYOUT.centre, 30.0)}
    faces = TinyFaces(0)
    names = {"beside": "3S", "between": "7D", "middle": "KH"}
    cards = [CardOnTable(Card.parse(names[k]), faces.face(Card.parse(names[k])), (x, y), angle)
             for k, (x, y, angle) in places.items()]
    picture, labels = render(Stage(cam, LAYOUT, "green felt", True, Look(noise=2.0), 5),
                             Scene(cards), np.random.default_rng(5))
    assert all(label.seat is None for label in labels)  # no zone holds any of their middles
    calibration = from_markers(picture, LAYOUT)

    def seat_found(detections, place):
        middle = cam.project(np.array([places[place][:2]]))[0]
        hits = [i for i in range(len(detections)) if detections.whole[i]
                and np.linalg.norm(detections.centres[i] - middle) < 15]
        assert len(hits) == 1, (place, detections.centres)
        return detections.seats[hits[0]]

    everything = detector.detect(picture, calibration)
    assert [seat_found(everything, place) for place in places] == [Seat(1), None, None]
    only_seat_1 = detector.detect(picture, calibration, seats=[Seat(1)])
    assert seat_found(only_seat_1, "beside") == Seat(1)


def test_a_frame_without_cards_gives_no_detections(detector):
    rng = np.random.default_rng(3)
    a = LAYOUT.area_mm
    cam = Camera.looking_at(LAYOUT.centre, 20, 700, 0, 1280, 720, focal_px=1000).framing(
        np.array([(0, 0), (a, 0), (a, a), (0, a)], float), 0.9)
    picture, _ = render(Stage(cam, LAYOUT, "blue felt", True, Look(), 4), Scene(), rng)
    assert len([w for w in detector.detect(picture).whole if w]) == 0


def test_reading_cards_fills_names_and_confidences(detector, classifier):
    picture, labels = table_with_four_cards(5)
    detections = classifier.read(picture, detector.detect(picture, from_markers(picture)))
    read = [c for c, w in zip(detections.cards, detections.whole) if w]
    assert read and all(c is None or len(c) in (2, 3, 4) for c in read)
    assert ((detections.confidence >= 0) & (detections.confidence <= 1)).all()


def test_cards_are_read_right_when_whole(detector, classifier):
    right = total = 0
    for seed in range(4):
        picture, labels = table_with_four_cards(seed)
        detections = classifier.read(picture, detector.detect(picture, from_markers(picture)))
        for label in labels:
            total += 1
            centre = label.corners.mean(axis=0)
            for i in range(len(detections)):
                if np.linalg.norm(detections.centres[i] - centre) < 15:
                    right += detections.cards[i] == str(label.card)
    assert right == total


def test_the_top_card_of_a_stack_is_found_whole_on_a_calibrated_table(detector, classifier):
    """Three cards pushed over one another are one region to the network; the card on top
    shows all its edges and is found and read (``vision.stacks``), the cards under it are
    not. (The procedural faces' backs carry their pattern to the very edge, so a pile of them
    shows no edge between its cards: face-up cards are used here.)"""
    found = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        a = LAYOUT.area_mm
        cam = Camera.looking_at(LAYOUT.centre, 15, 700, 0, 1280, 720, focal_px=1000).framing(
            np.array([(-10, -10), (a + 10, -10), (a + 10, a + 10), (-10, a + 10)]), 0.92)
        faces = TinyFaces(seed)
        stack = [CardOnTable(Card.parse(name), faces.face(Card.parse(name)),
                             (250 + dx, 250 + dy), angle)
                 for name, dx, dy, angle in (("2C", 0, 0, 10.0), ("KD", 9, -6, 60.0),
                                             ("7S", -5, 7, 115.0 + 20 * seed))]
        picture, labels = render(Stage(cam, LAYOUT, "green felt", True, Look(), seed),
                                 Scene(stack), rng)
        detections = classifier.read(picture, detector.detect(picture, from_markers(picture)))
        top = labels[-1].corners
        whole = [i for i in range(len(detections)) if detections.whole[i]]
        assert len(whole) <= 1, "only the top card of a stack shows whole"
        if whole and np.abs(detections.quads[whole[0]][:, None] - top[None]).sum(
                axis=2).min(axis=0).max() < 8 and detections.cards[whole[0]] == "7S":
            found += 1
    assert found == 3


def test_a_pile_of_backs_gives_one_back_and_never_a_face(detector, classifier):
    """Face-down cards pushed over one another: the procedural backs carry their pattern to
    the edge, so the top card's sides show only in part. The detector finds that one card,
    whole where its sides show along half their length (``vision.stacks.SHOWN``; these show
    along 0.49-0.57) and otherwise as the top of a pile (``back_on_top``), which the
    classifier takes as whole only if it reads a back there surely. Either way: one back,
    read surely, and no face."""
    a = LAYOUT.area_mm
    for seed in range(3):
        rng = np.random.default_rng(seed)
        cam = Camera.looking_at(LAYOUT.centre, 15, 700, 0, 1280, 720, focal_px=1000).framing(
            np.array([(-10, -10), (a + 10, -10), (a + 10, a + 10), (-10, a + 10)]), 0.92)
        faces = TinyFaces(seed)
        pile = [CardOnTable("back", faces.face("back"), (250 + dx, 250 + dy), angle)
                for dx, dy, angle in ((0, 0, 10.0), (9, -6, 60.0), (-5, 7, 115.0 + 20 * seed))]
        picture, _ = render(Stage(cam, LAYOUT, "green felt", True, Look(), seed), Scene(pile),
                            rng)
        found = detector.detect(picture, from_markers(picture))
        assert (found.whole | found.back_on_top).sum() == 1
        classifier.read(picture, found)
        assert list(found.whole) == [True] and found.cards == ["back"]
        assert found.confidence[0] >= 0.9


def test_a_pile_top_read_as_a_face_or_unsurely_stays_unread(classifier, monkeypatch):
    picture, _ = table_with_four_cards(1)
    quad = np.array([[[600, 300], [660, 300], [660, 390], [600, 390]]], np.float32)

    def pile_top() -> CardDetections:
        return CardDetections(quad, np.ones(1, np.float32), np.zeros(1, bool), [None],
                              [None], np.zeros(1, np.float32), np.ones(1, bool))

    for name, confidence, taken in (("back", 0.95, True), ("back", 0.6, False),
                                    ("KS", 0.99, False), ("none", 0.99, False)):
        networks_read(monkeypatch, classifier,
                            lambda crops, n=name, c=confidence: _probabilities({n: c}, crops))
        found = classifier.read(picture, pile_top())
        assert bool(found.whole[0]) == taken
        assert found.cards == (["back"] if taken else [None])
        assert found.confidence[0] == (confidence if taken else 0.0)


def _probabilities(readings: dict[str, float], crops: np.ndarray | None = None) -> np.ndarray:
    """A crop's probabilities: these classes at these, the rest shared out evenly; the same
    for each of ``crops`` (one row where none are given)."""
    return probabilities_of(readings, 1 if crops is None else len(crops))


def _corners_unseen(monkeypatch) -> None:
    """The outlines these tests read lie on bare table, whose four corners look alike, as a
    card back's do (``vision.corners``): what they test is how the readings they give the
    classifier are weighed otherwise, so the corners are not looked at."""
    import vision.classify as classify

    monkeypatch.setattr(classify, "back_likeness", lambda crop: None)


def test_an_unsure_card_is_read_again_along_its_outline_turned_and_the_readings_pooled(
        classifier, monkeypatch):
    _corners_unseen(monkeypatch)
    picture, _ = table_with_four_cards(1)
    quads = np.array([[[600, 300], [660, 300], [660, 390], [600, 390]],
                      [[300, 300], [360, 300], [360, 390], [300, 390]]], np.float32)
    calls = []

    def probabilities(crops):
        calls.append(len(crops))
        if len(calls) == 1:  # the first look: a sure card and an unsure one
            return np.concatenate([_probabilities({"7H": 0.95}), _probabilities({"QS": 0.6})])
        return _probabilities({"QC": 0.8}, crops)  # its outline turned: the QC, each

    networks_read(monkeypatch, classifier, probabilities)
    found = classifier.read(picture, CardDetections(quads, np.ones(2, np.float32),
                                                    np.ones(2, bool), [None, None],
                                                    [None, None], np.zeros(2, np.float32)))
    assert calls == [2, 2]  # only the unsure card is looked at again, turned either way
    assert found.cards[0] == "7H" and found.confidence[0] == pytest.approx(0.95, abs=1e-6)
    # pooled (geometric mean, renormalised): QS 0.6 once and QC 0.8 twice make the QC
    # likeliest, far from sure
    rows = np.concatenate([_probabilities({"QS": 0.6}), _probabilities({"QC": 0.8}, quads)])
    pooled = np.exp(np.log(rows).mean(axis=0))
    expected = pooled[CLASSES.index("QC")] / pooled.sum()
    assert found.cards[1] == "QC" and found.confidence[1] == pytest.approx(expected, abs=1e-4)
    assert 0.3 < expected < 0.6


def test_a_card_running_off_the_picture_is_also_read_filled_from_itself_turned(
        classifier, monkeypatch):
    """Only an outline that runs off the picture is read a second time, what runs off filled
    from the card turned half round; the two readings are pooled. A card read surely inside
    the picture costs nothing more."""
    picture, _ = table_with_four_cards(1)
    quads = np.array([[[600, 300], [660, 300], [660, 390], [600, 390]],  # inside
                      [[300, 660], [360, 660], [360, 750], [300, 750]]], np.float32)  # off
    calls = []

    def probabilities(crops):
        calls.append(len(crops))
        if len(calls) == 1:
            return np.concatenate([_probabilities({"7H": 0.95}), _probabilities({"QS": 0.85})])
        return _probabilities({"QS": 0.995}, crops)  # filled, and then turned 4 degrees

    networks_read(monkeypatch, classifier, probabilities)
    found = classifier.read(picture, CardDetections(quads, np.ones(2, np.float32),
                                                    np.ones(2, bool), [None, None],
                                                    [None, None], np.zeros(2, np.float32)))
    assert calls == [2, 1]  # the filled crop of the card that runs off; then sure enough
    rows = np.concatenate([_probabilities({"QS": 0.85}), _probabilities({"QS": 0.995})])
    pooled = np.exp(np.log(rows).mean(axis=0))
    assert found.cards == ["7H", "QS"]
    assert found.confidence[1] == pytest.approx(pooled[CLASSES.index("QS")] / pooled.sum(),
                                                abs=1e-4)
    assert found.confidence[0] == pytest.approx(0.95, abs=1e-6)


def test_a_card_is_read_again_along_its_outline_turned_a_little_about_its_middle():
    from vision.classify import TURNS, _turned

    quad = np.array([[100, 100], [160, 110], [145, 200], [85, 190]], np.float32)
    looks = _turned(quad)
    assert len(looks) == len(TURNS) == 2
    width = float(np.linalg.norm(quad[1] - quad[0]))
    for look in looks:
        moved = np.linalg.norm(look - quad, axis=1)
        assert 0 < moved.max() < 0.15 * width
        assert np.allclose(look.mean(axis=0), quad.mean(axis=0), atol=1e-3)
        # the same card, turned: its sides keep their lengths
        assert np.allclose(np.linalg.norm(np.roll(look, -1, 0) - look, axis=1),
                           np.linalg.norm(np.roll(quad, -1, 0) - quad, axis=1), atol=1e-3)
    assert not np.allclose(looks[0], looks[1])


@pytest.mark.parametrize("readings, ruled_out, card, confidence", [
    # unsure between a card swept away earlier and another: the other, sure enough to play
    ({"AS": 0.57, "AC": 0.41}, {"AS"}, "AC", 0.41 / 0.43),
    # so sure once the first is ruled out that it is capped: never sure enough to accuse on
    ({"KC": 0.6, "QC": 0.3999}, {"QC"}, "KC", 0.97),
    # a sure reading stands, ruled out or not: a card played twice is seen as itself
    ({"AS": 0.99}, {"AS"}, "AS", 0.99),
    # nothing ruled out: the reading as it is
    ({"AS": 0.57, "AC": 0.41}, set(), "AS", 0.57),
])
def test_an_unsure_reading_is_taken_again_among_the_cards_it_can_still_be(
        classifier, monkeypatch, readings, ruled_out, card, confidence):
    found = _read_one(classifier, monkeypatch, readings, None, ruled_out=ruled_out)
    assert found.cards == [card] and found.confidence[0] == pytest.approx(confidence, abs=1e-3)


def _read_one(classifier, monkeypatch, readings: dict[str, float], seat: Seat | None,
              **kwargs) -> CardDetections:
    """One card of a picture, in ``seat``'s zone, read as the referee reads it (under 0.9
    read again, at most 0.97 sure), the classifier's probabilities being ``readings``."""
    picture, _ = table_with_four_cards(1)
    quad = np.array([[[600, 300], [660, 300], [660, 390], [600, 390]]], np.float32)
    networks_read(monkeypatch, classifier,
                        lambda crops: _probabilities(readings, crops))
    _corners_unseen(monkeypatch)
    return classifier.read(picture, CardDetections(quad, np.ones(1, np.float32),
                                                   np.ones(1, bool), [seat], [None],
                                                   np.zeros(1, np.float32)),
                           below=0.9, at_most=0.97, **kwargs)


# seat 3 is led to spades; seat 2's card is not the JH, which lies in another zone
LEAD_SPADES = {Seat(3): {"3S": 20.0, "KS": 20.0, "QS": 20.0}, Seat(2): {"JH": 0.0}}


@pytest.mark.parametrize("readings, seat, card, confidence", [
    # a black three read unsurely in a zone whose seat is led to spades: the three of spades,
    # sure enough to play, never to accuse on
    ({"3S": 0.85, "3C": 0.15}, 3, "3S", 0.97),
    # as unsure the other way, the game's lean still tips it, but not surely
    ({"3S": 0.3, "3C": 0.7}, 3, "3S", 0.3 * 20 / (0.3 * 20 + 0.7)),
    # another seat's zone: no lean
    ({"3S": 0.85, "3C": 0.15}, 2, "3S", 0.85),
    ({"3S": 0.85, "3C": 0.15}, 4, "3S", 0.85),
    # the game says which suit, never which rank: a king or a queen stays unsure
    ({"KS": 0.5, "QS": 0.3, "KC": 0.2}, 3, "KS", 0.5),
    # a sure reading stands as it is (a revoke is seen as itself)
    ({"3C": 0.95, "3S": 0.05}, 3, "3C", 0.95),
    # a reading half a card back keeps that half: the lean is among the cards
    ({"back": 0.5, "3S": 0.25, "3C": 0.25}, 3, "back", 0.5),
    # but "not a card" is as unexpected as a club: kde-jolly-royal's jack of clubs led, read
    # JC 0.81 with 0.11 "not a card", had stayed at 0.86
    ({"none": 0.11, "3S": 0.81, "3C": 0.05}, 3, "3S", 0.97),
    # the card another zone holds it is not (whatever its rank): the other, if sure enough
    ({"QH": 0.73, "JH": 0.2, "KH": 0.05}, 2, "QH", 0.73 / 0.8),
    ({"JH": 0.6, "QH": 0.38}, 2, "QH", 0.38 / 0.4),
])
def test_an_unsure_reading_leans_to_the_suit_its_seat_is_led_to(
        classifier, monkeypatch, readings, seat, card, confidence):
    found = _read_one(classifier, monkeypatch, readings, Seat(seat), leaning=LEAD_SPADES)
    assert found.cards[0] == card and found.confidence[0] == pytest.approx(confidence, abs=2e-3)


# seat 3 is led to spades (game 2250 of the 640x480 clips, round 8)
LED_SPADES = {Seat(3): {f"{rank}S": 20.0 for rank in "234567"}}


@pytest.mark.parametrize("seats, leaning, other, card", [
    # seat 1's 4S, read surely beside it, is not seat 3's card: its four of clubs
    ((1, 3), LED_SPADES, {"4S": 0.9999}, "4C"),
    # and without a lean too
    ((1, 3), {}, {"4S": 0.9999}, "4C"),
    # a 4S read unsurely beside it rules nothing out
    ((1, 3), LED_SPADES, {"4S": 0.8, "4C": 0.2}, "4S"),
    # nor does one in the same zone (a card half under another), nor one outside every zone
    ((3, 3), LED_SPADES, {"4S": 0.9999}, "4S"),
    ((None, 3), LED_SPADES, {"4S": 0.9999}, "4S"),
    # nor anything out of a game (no leaning given: a photograph may show two decks)
    ((1, 3), None, {"4S": 0.9999}, "4S"),
])
def test_a_card_read_surely_in_another_zone_is_not_an_unsure_ones(
        classifier, monkeypatch, seats, leaning, other, card):
    picture, _ = table_with_four_cards(1)
    quads = np.array([[[300, 300], [360, 300], [360, 390], [300, 390]],
                      [[600, 300], [660, 300], [660, 390], [600, 390]]], np.float32)
    unsure = {"4S": 0.72, "4C": 0.28}  # seat 3's: a spade, were it not for seat 1's
    networks_read(monkeypatch, classifier, lambda crops: np.concatenate(
        [probabilities_of(other), probabilities_of(unsure)])[:len(crops)])
    for step in ("_fill_turned", "_look_again"):  # (each reads the crops again)
        monkeypatch.setattr(classifier, step, lambda *args: None)
    _corners_unseen(monkeypatch)
    found = classifier.read(picture, CardDetections(
        quads, np.ones(2, np.float32), np.ones(2, bool),
        [None if s is None else Seat(s) for s in seats], [None, None], np.zeros(2, np.float32)),
        below=0.9, at_most=0.97, leaning=leaning)
    assert found.cards[1] == card, found.odds[1]


# seat 1 is due to lead: what lies still in its zone is a card ("not a card" 100 times less
# likely, as vision.game.DUE_IS_A_CARD has it)
LEAD_DUE = {Seat(1): {"none": 0.01}}


@pytest.mark.parametrize("readings, seat, card, confidence", [
    # an ace drawn its own way, read half "not a card": an ace, if its odds among the cards
    # say so surely
    ({"AS": 0.5, "none": 0.45, "KC": 0.05}, 1, "AS", 0.5 / (0.5 + 0.0045 + 0.05)),
    # and whatever its rank's odds: "not a card" tells no card from another
    ({"KS": 0.5, "QS": 0.3, "none": 0.2}, 1, "KS", 0.5 / 0.802),
    # a card back keeps its share (a face-down card is no play of any suit)
    ({"back": 0.5, "none": 0.3, "3S": 0.2}, 1, "back", 0.5),
    # surely "not a card" stays so, however the game leans
    ({"none": 0.95, "3S": 0.05}, 1, None, 0.95),
    # a seat not due to play: no lean
    ({"AS": 0.5, "none": 0.45, "KC": 0.05}, 2, "AS", 0.5),
])
def test_what_lies_where_a_play_is_due_is_read_as_a_card(
        classifier, monkeypatch, readings, seat, card, confidence):
    found = _read_one(classifier, monkeypatch, readings, Seat(seat), leaning=LEAD_DUE)
    assert found.cards[0] == card and found.confidence[0] == pytest.approx(confidence, abs=2e-3)


def test_detections_keep_the_pile_top_mark_when_cut_or_joined():
    quads = np.zeros((2, 4, 2), np.float32)
    found = CardDetections(quads, np.ones(2, np.float32), np.zeros(2, bool), [None] * 2,
                           [None] * 2, np.zeros(2, np.float32), np.array([False, True]))
    assert list(found[np.array([1])].back_on_top) == [True]
    assert list(CardDetections.joined([found, found]).back_on_top) == [False, True] * 2
    assert list(CardDetections(quads, np.ones(2, np.float32), np.ones(2, bool), [None] * 2,
                               [None] * 2, np.zeros(2, np.float32)).back_on_top) == [False] * 2


def test_the_shipped_detector_finds_what_its_float_weights_find(detector):
    """models/detector.onnx is models/detector-float.onnx run in 8 bits: on a calibrated table
    and on the whole picture it must find the same cards, within a pixel or two."""
    from vision.models import MODELS

    exact = CardDetector(MODELS / "detector-float.onnx", threads=1)
    assert (exact.long_side, exact.table_long_side, exact.multiple) == (
        detector.long_side, detector.table_long_side, detector.multiple)  # shares the .yaml
    assert (MODELS / "detector.onnx").stat().st_size < 0.5 * (
        MODELS / "detector-float.onnx").stat().st_size  # its weights are bytes, not floats
    pairs = 0
    for seed in range(4):
        picture, _ = table_with_four_cards(seed + 20)
        for calibration in (from_markers(picture, LAYOUT), None):
            ours, theirs = (d.detect(picture, calibration) for d in (detector, exact))
            assert len(ours) == len(theirs) == 4
            order = [int(np.argmin(np.linalg.norm(theirs.centres - c, axis=1)))
                     for c in ours.centres]
            assert sorted(order) == [0, 1, 2, 3]
            assert np.abs(ours.quads - theirs.quads[order]).max() < 3.0
            assert list(ours.whole) == list(theirs.whole[order])
            pairs += 4
    assert pairs == 32


def test_the_shipped_classifier_reads_as_its_float_weights_do(detector, classifier):
    """models/cards.onnx is models/cards-float.onnx with its convolutions run in 8 bits: the
    cards it reads surely must read the same, with about the same confidence."""
    from vision.models import MODELS

    exact = CardClassifier(MODELS / "cards-float.onnx", threads=1)
    assert (MODELS / "cards.onnx").stat().st_size < 0.5 * (
        MODELS / "cards-float.onnx").stat().st_size
    crops = []
    for seed in range(6):
        picture, _ = table_with_four_cards(seed + 30)
        found = detector.detect(picture, from_markers(picture, LAYOUT))
        crops += [rectify(picture, q, classifier.size, ordered=True) for q in found.quads]
    ours, theirs = classifier.probabilities(np.stack(crops)), exact.probabilities(np.stack(crops))
    assert len(crops) >= 20
    sure = theirs.max(axis=1) >= 0.9
    assert sure.sum() >= 10
    assert (ours.argmax(axis=1) == theirs.argmax(axis=1))[sure].all()
    assert np.abs(ours - theirs).max() < 0.1


def test_a_card_running_off_a_photo_is_outlined_past_the_edge_and_read(detector, classifier):
    """A plain photograph (no calibration) whose bottom edge cuts a card: the card is read
    again along its outline drawn out past the edge to its true corners, and it reads right,
    as a card only partly shown."""
    from vision.check import _read_other_outlines

    for seed in range(3):
        picture, labels = table_with_four_cards(seed, tilt=0.0)
        bottom = max(labels, key=lambda label: label.corners[:, 1].mean())
        top, low = bottom.corners[:, 1].min(), bottom.corners[:, 1].max()
        cut = int(low - 0.3 * (low - top))
        photo = np.ascontiguousarray(picture[:cut])
        found = detector.detect(photo)
        partial = ~found.whole
        found.whole[:] = True
        classifier.read(photo, found)
        _read_other_outlines(photo, found, partial, classifier)
        near = int(np.argmin(np.linalg.norm(found.centres - bottom.corners.mean(axis=0), axis=1)))
        quad = found.quads[near]
        assert partial[near]  # it runs off the picture: never taken as seen whole
        assert quad[:, 1].max() > cut + 0.15 * (low - top)  # drawn out past the edge
        size = np.linalg.norm(bottom.corners[2] - bottom.corners[0])
        error = min(np.abs(np.roll(quad, k, axis=0) - bottom.corners).max() for k in range(4))
        assert error < 0.12 * size
        assert found.cards[near] == str(bottom.card)


def test_a_suit_or_rank_is_read_where_its_cards_together_are_sure_though_none_alone_is():
    from vision.classify import sure_parts

    probs = np.zeros((4, len(CLASSES)), np.float32)
    probs[0, [CLASSES.index("JH"), CLASSES.index("QH"), CLASSES.index("KH")]] = 0.33
    probs[0, CLASSES.index("none")] = 0.01  # hearts: 0.99 though no card is over 0.33
    probs[1, [CLASSES.index("QS"), CLASSES.index("JC")]] = 0.5  # neither suit nor rank
    probs[2, CLASSES.index("back")] = 1.0  # a back has no suit nor rank
    probs[3, [CLASSES.index("2S"), CLASSES.index("2C")]] = 0.5  # a two, spades or clubs
    assert sure_parts(probs) == ["H", None, None, "2"]
    both = CardDetections.joined([
        CardDetections(np.zeros((1, 4, 2), np.float32), np.ones(1, np.float32),
                       np.ones(1, bool), [None], ["JH"], np.ones(1, np.float32), parts=["H"]),
        CardDetections(np.zeros((1, 4, 2), np.float32), np.ones(1, np.float32),
                       np.ones(1, bool), [None], [None], np.zeros(1, np.float32))])
    assert both.parts == ["H", None] and both[np.array([False, True])].parts == [None]


def test_in_a_photo_every_card_also_gets_the_outline_its_core_gives(detector):
    """Without a calibration each card's core is drawn out to a whole card: on square-on
    pictures that outline mostly lies on the card's own, and always near it (a rounded core
    can tilt it some degrees). With a calibration none is drawn."""
    errors = []
    for seed in range(6):
        picture, labels = table_with_four_cards(seed, tilt=0.0)
        found = detector.detect(picture)
        assert len(found) == 4
        for label in labels:
            near = int(np.argmin(np.linalg.norm(found.centres - label.corners.mean(axis=0),
                                                axis=1)))
            outline = found.from_core[near]
            size = np.linalg.norm(label.corners[2] - label.corners[0])
            errors.append(min(np.abs(np.roll(outline, k, axis=0) - label.corners).max()
                              for k in range(4)) / size)
        if seed < 2:
            calibrated = detector.detect(picture, from_markers(picture, LAYOUT))
            assert np.isnan(calibrated.from_core).all()
    errors = np.array(errors)
    assert (errors < 0.03).mean() >= 0.9 and errors.max() < 0.25, errors.round(3)


def test_a_card_half_hidden_in_a_photo_is_read_along_its_cores_outline(detector, classifier):
    """A card whose region took in a hand lying against it (its outline drawn half again as
    long) reads along the outline its core gives, as a card only partly shown; an outline
    that shows bare table ("not a card", however sure) never replaces a card's reading."""
    from vision.check import _read_other_outlines

    picture, labels = table_with_four_cards(1, tilt=0.0)
    found = detector.detect(picture)
    label = labels[0]
    near = int(np.argmin(np.linalg.norm(found.centres - label.corners.mean(axis=0), axis=1)))
    true_outline = found.quads[near].copy()
    found.quads[near] = true_outline[0] + (true_outline - true_outline[0]) * [1.6, 1.0]
    found.from_core[near] = true_outline
    partial = np.zeros(len(found), bool)
    partial[near] = True
    classifier.read(picture, found)
    assert found.cards[near] != str(label.card) or found.confidence[near] < 0.9
    _read_other_outlines(picture, found, partial, classifier)
    assert found.cards[near] == str(label.card) and found.confidence[near] >= 0.9
    assert np.allclose(found.quads[near], true_outline, atol=1.0) and partial[near]
    # bare table beside every card: surely "not a card", and no card's reading is replaced
    others = [i for i in range(len(found)) if i != near]
    readings = [(found.cards[i], float(found.confidence[i])) for i in others]
    bare = np.array([(60, 300), (160, 300), (160, 440), (60, 440)], np.float32)  # left edge
    found.from_core[others] = bare
    partial[:] = True
    _read_other_outlines(picture, found, partial, classifier)
    assert [(found.cards[i], float(found.confidence[i])) for i in others] == readings


def _slanted_card(name: str) -> np.ndarray:
    """A photograph (no markers) of one card lying at the table's middle, seen 50 degrees
    off straight down along its length: its long sides look the shorter."""
    camera = Camera.looking_at(LAYOUT.centre, 50, 500, 0.0, 1280, 720, focal_px=1000)
    card = Card.parse(name)
    picture, _ = render(Stage(camera, LAYOUT, "green felt", False, Look(noise=2.0), 4),
                        Scene([CardOnTable(card, TinyFaces(1).face(card), LAYOUT.centre, 0.0)]),
                        np.random.default_rng(4))
    return picture


@pytest.mark.parametrize("name", ["9D", "KH"])
def test_a_card_seen_slantwise_on_a_photograph_is_read_both_ways(detector, classifier, name):
    picture = _slanted_card(name)
    found = detector.detect(picture)
    assert list(found.slanted) == [True]
    cut = found.quads.copy()
    found = classifier.read(picture, found)
    assert found.cards == [name] and found.confidence[0] >= 0.9
    assert np.array_equal(found.quads[0], np.roll(cut[0], -1, axis=0))  # its other sides
    # read only as its outline showed it on the picture, it is squashed and misread
    plain = detector.detect(picture)
    plain.slanted[:] = False
    plain = classifier.read(picture, plain)
    assert plain.cards != [name] or plain.confidence[0] < 0.9


def test_only_a_slanted_card_is_read_a_quarter_round_and_the_surer_reading_stands(
        classifier, monkeypatch):
    picture, _ = table_with_four_cards(1)
    quads = np.array([[[600, 300], [660, 300], [660, 370], [600, 370]],
                      [[300, 300], [360, 300], [360, 390], [300, 390]]], np.float32)
    for turned, kept in ((0.97, "9D"), (0.3, "QS")):
        calls = []

        def probabilities(crops, turned=turned):
            calls.append(len(crops))
            if len(calls) == 1:  # the first look: an unsure slanted card, a sure plain one
                return np.concatenate([_probabilities({"QS": 0.5}),
                                       _probabilities({"7H": 0.99})])
            if len(calls) == 2:  # the slanted card along its other sides
                return _probabilities({"9D": turned}, crops)
            return _probabilities({kept: 0.5}, crops)  # looked at again, turned a little

        networks_read(monkeypatch, classifier, probabilities)
        found = CardDetections(quads.copy(), np.ones(2, np.float32), np.ones(2, bool),
                               [None] * 2, [None] * 2, np.zeros(2, np.float32),
                               slanted=np.array([True, False]))
        found = classifier.read(picture, found)
        assert calls[:2] == [2, 1]  # the plain card is read once
        assert found.cards[0] == kept and found.cards[1] == "7H"
        assert np.array_equal(found.quads[0], np.roll(quads[0], -1, axis=0) if kept == "9D"
                              else quads[0])
        assert np.array_equal(found.quads[1], quads[1])


def test_a_slanted_card_read_surely_as_another_card_each_way_is_read_unsurely(
        classifier, monkeypatch):
    """A card seen slantwise whose two readings, one along each pair of its sides, are both
    sure but of different cards: the picture cannot tell which pair is the long one, so
    neither reading may stand as sure. One sure reading and one unsure stay as before."""
    picture, _ = table_with_four_cards(1)
    quad = np.array([[[600, 300], [660, 300], [660, 370], [600, 370]]], np.float32)
    for turned, card, sure in ((("4C", 0.95), None, False), (("8S", 0.97), "8S", True),
                               (("4C", 0.6), "8S", True)):
        def probabilities(crops, turned=turned):
            if len(crops) == 1 and not probabilities.calls:  # its sides as outlined
                probabilities.calls += 1
                return _probabilities({"8S": 0.94})
            probabilities.calls += 1  # along its other sides, then turned a little
            return _probabilities({turned[0]: turned[1]}, crops)

        probabilities.calls = 0
        networks_read(monkeypatch, classifier, probabilities)
        found = classifier.read(picture, CardDetections(
            quad.copy(), np.ones(1, np.float32), np.ones(1, bool), [None], [None],
            np.zeros(1, np.float32), slanted=np.array([True])))
        assert (found.confidence[0] >= 0.9) == sure, (turned, found.confidence[0])
        if card is not None:
            assert found.cards[0] == card
        else:  # pooled, and looked at again along the outline kept: not sure of either
            assert found.cards[0] in ("8S", "4C")


def test_two_cards_pushed_together_in_a_photo_give_the_card_on_top(detector, classifier):
    """Two cards lying over each other in a photograph, outlined as one region (a rectangle
    about both, as the detector gives them when their cores run together) and read unsurely:
    the card on top, found by its four straight edges, is read surely along its own outline,
    as a card only partly shown. The card under it shows three edges only and is not made up."""
    from vision.check import _read_cards_on_top

    camera = Camera.looking_at(LAYOUT.centre, 0.0, 450, 0.0, 1280, 720, focal_px=1000)
    x, y = LAYOUT.centre
    under, top = Card.parse("7D"), Card.parse("KS")
    faces = TinyFaces(0)
    scene = Scene([CardOnTable(under, faces.face(under), (x - 25, y - 5), 15.0),
                   CardOnTable(top, faces.face(top), (x + 20, y + 5), -20.0)])
    picture, labels = render(Stage(camera, LAYOUT, "green felt", False, Look(noise=2.0), 3),
                             scene, np.random.default_rng(3))
    found = detector.detect(picture)
    assert len(found) >= 1
    one = found[np.array([0])]
    both = np.concatenate([label.corners for label in labels]).astype(np.float32)
    one.quads[0] = cv2.boxPoints(cv2.minAreaRect(both))
    one.cards[0], one.confidence[0] = None, 0.3
    partial = np.zeros(1, bool)
    _read_cards_on_top(picture, one, partial, classifier)
    assert one.cards == ["KS"] and one.confidence[0] >= 0.9 and partial[0]
    truth = labels[1].corners
    assert np.linalg.norm(one.quads[0][:, None] - truth[None], axis=2).min(axis=0).max() < 6
