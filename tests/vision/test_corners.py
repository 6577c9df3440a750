"""Telling a card back by its four corners (``vision.corners``), and the classifier's readings
weighed by it only where they are unsure, never into a sure back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.helpers import ROOT, networks_read, probabilities_of
from vision.cardclasses import BACK, CLASSES, NOT_A_CARD
from vision.classify import (BACK_AT_MOST, BACK_WEIGHT, LIKE_A_BACK, CardClassifier, as_crop,
                             weigh_by_corners)
from vision.corners import back_likeness
from vision.deck import Deck
from vision.detections import CardDetections
from vision.studio.facesets import TinyFaces

DECKS = ROOT / "samples" / "decks"


def _harlequin() -> np.ndarray:
    """A back drawn the same all round: a white margin and a lattice of blue diamonds."""
    back = np.full((288, 192, 3), 250, np.uint8)
    for row in range(-1, 13):
        for column in range(-1, 9):
            x, y = 96 + (column - 4) * 24 + (row % 2) * 12, 144 + (row - 6) * 24
            diamond = np.array([(x, y - 12), (x + 12, y), (x, y + 12), (x - 12, y)], np.int32)
            cv2.fillConvexPoly(back, diamond, (170, 90, 40) if row % 2 else (220, 190, 160))
    back[:10], back[-10:], back[:, :10], back[:, -10:] = 250, 250, 250, 250
    return as_crop(back)


def _reading(**cards: float) -> np.ndarray:
    return probabilities_of(cards)[0]


@pytest.mark.parametrize("variant", [0, 1, 2])
def test_faces_index_corners_do_not_look_like_a_back(variant):
    faces = TinyFaces(variant)
    scores = {name: back_likeness(as_crop(np.ascontiguousarray(faces.face(name)[..., :3])))
              for name in CLASSES if name not in (BACK, NOT_A_CARD)}
    assert max(scores.values()) < LIKE_A_BACK - 5, max(scores.items(), key=lambda kv: kv[1])


def test_a_back_drawn_the_same_all_round_looks_like_one_either_way_up():
    back = _harlequin()
    assert back_likeness(back) >= LIKE_A_BACK
    assert back_likeness(back[::-1, ::-1]) == pytest.approx(back_likeness(back), abs=1e-4)


@pytest.mark.parametrize("design", ["simplistic", "kde-jolly-royal", "lattmann"])
def test_the_bundled_decks_backs_look_like_backs_and_their_court_cards_do_not(design):
    """The crops kept from the studio's pictures of the bundled clips' decks (cut along the
    outlines the detector found): each back scores at least ``LIKE_A_BACK``, no court card."""
    deck = Deck.load(DECKS / f"{design}.npz")
    scores = dict(zip(deck.cards, map(back_likeness, deck.crops)))
    assert scores.pop(BACK) >= LIKE_A_BACK
    assert max(scores.values()) < LIKE_A_BACK - 0.5, scores


def test_corners_alike_make_a_back_likelier_but_never_a_sure_one():
    probs = np.stack([_reading(**{"10D": 0.5, BACK: 0.3}),    # a back read as the 10D
                      _reading(**{"AH": 0.6, BACK: 0.2}),     # corners not alike enough
                      _reading(**{NOT_A_CARD: 0.5, BACK: 0.3}),  # plain: a hand, the table
                      _reading(**{"QD": 0.45, BACK: 0.35}),   # not looked at (read surely)
                      _reading(**{BACK: 0.88, "JD": 0.05})])  # already as sure as the cap
    before = probs.copy()
    weigh_by_corners(probs, [LIKE_A_BACK, LIKE_A_BACK - 0.1, LIKE_A_BACK + 2, None,
                             LIKE_A_BACK + 2])
    assert np.array_equal(probs[1:4], before[1:4])
    assert CLASSES[int(probs[0].argmax())] == BACK
    assert probs[0].sum() == pytest.approx(1.0, abs=1e-5)
    ratio = (probs[0, CLASSES.index(BACK)] / probs[0, CLASSES.index("10D")]) / (0.3 / 0.5)
    assert ratio == pytest.approx(BACK_WEIGHT, rel=1e-4)  # under the cap: the full weight
    assert probs[4, CLASSES.index(BACK)] == pytest.approx(0.88, abs=1e-6)  # never less sure
    assert probs[4].sum() == pytest.approx(1.0, abs=1e-5)
    capped = _reading(**{BACK: 0.6, "KH": 0.3})[None]
    weigh_by_corners(capped, [LIKE_A_BACK + 3])
    assert capped[0, CLASSES.index(BACK)] == pytest.approx(BACK_AT_MOST, abs=1e-6)
    assert capped[0].sum() == pytest.approx(1.0, abs=1e-5)
    assert capped[0, CLASSES.index("KH")] > capped[0, CLASSES.index("2C")]  # order kept


def test_the_classifier_looks_at_corners_only_of_cards_it_reads_unsurely(monkeypatch):
    import vision.classify as classify

    classifier = CardClassifier(threads=1)
    picture = np.full((400, 400, 3), (40, 110, 40), np.uint8)
    quads = np.array([[[50, 50], [114, 50], [114, 146], [50, 146]],
                      [[200, 50], [264, 50], [264, 146], [200, 146]]], np.float32)
    picture[50:146, 50:114] = _harlequin()
    picture[50:146, 200:264] = as_crop(np.ascontiguousarray(TinyFaces(0).face("5C")[..., :3]))
    readings = np.stack([_reading(**{"10D": 0.5, BACK: 0.3}), _reading(**{"5C": 0.95})])
    networks_read(monkeypatch, classifier,
                        lambda crops: np.repeat(readings[:1], len(crops), axis=0)
                        if len(crops) != 2 else readings.copy())
    looked: list[np.ndarray] = []

    def likeness(crop):
        looked.append(crop)
        return back_likeness(crop)

    monkeypatch.setattr(classify, "back_likeness", likeness)
    monkeypatch.setattr(classify, "count_pips", lambda crop: None)
    found = classifier.read(picture, CardDetections(quads, np.ones(2, np.float32),
                                                    np.ones(2, bool), [None] * 2, [None] * 2,
                                                    np.zeros(2, np.float32)))
    assert len(looked) == 1  # only the unsure card
    assert found.cards == [BACK, "5C"]
    assert found.confidence[0] <= BACK_AT_MOST + 1e-6
