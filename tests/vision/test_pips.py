"""Counting a number card's pips (``vision.pips``): a count where the layout is plain, nothing
where it is not, and the classifier's readings weighed by it only where they are unsure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.helpers import networks_read
from vision.cardclasses import CLASSES
from vision.classify import CardClassifier, as_crop, weigh_by_pips
from vision.detections import CardDetections
from vision.pips import PIP_WEIGHT, count_pips
from vision.studio.facesets import TinyFaces

NUMBERS = ["2H", "3S", "4D", "5C", "6H", "7S", "8D", "9C", "10H"]


def _crop(name: str, variant: int = 0) -> np.ndarray:
    return as_crop(np.ascontiguousarray(TinyFaces(variant).face(name)[..., :3]))


@pytest.mark.parametrize("variant", [0, 1, 2])
def test_number_cards_are_counted_either_way_up(variant):
    for name in NUMBERS:
        crop = _crop(name, variant)
        assert count_pips(crop) == int(name[:-1]), name
        assert count_pips(cv2.rotate(crop, cv2.ROTATE_180)) == int(name[:-1]), name


def test_a_nine_whose_odd_pip_sits_above_the_middle_is_counted():
    nine = _crop("9C")
    paper = nine[2:3, 32:33]
    moved = nine.copy()
    moved[42:55, 27:38] = paper  # the middle pip...
    moved[32:45, 27:38] = nine[42:55, 27:38]  # ...set higher, as many designs draw it
    assert count_pips(moved) == 9
    aside = nine.copy()
    aside[42:55, 27:38] = paper
    aside[42:55, 33:44] = nine[42:55, 27:38]  # off the middle line: no layout has that
    assert count_pips(aside) is None


def test_a_six_whose_middle_row_sits_above_the_middle_is_counted():
    # bellot draws its sixes and sevens so: rows at 0.14, 0.45 and 0.82 of the card's height,
    # each middle pip's twin turned half round lying lower than the pip
    six = _crop("6H")
    paper = six[2:3, 32:33]
    moved = six.copy()
    moved[43:54, 14:51] = paper  # the middle row...
    moved[38:49, 14:51] = six[43:54, 14:51]  # ...5 pixels (5 % of the height) higher
    assert count_pips(moved) == 6
    apart = six.copy()
    apart[43:54, 14:51] = paper
    apart[30:41, 14:51] = six[43:54, 14:51]  # 13 pixels higher: no layout is that lopsided
    assert count_pips(apart) is None


def test_aces_courts_and_backs_are_not_counted():
    for name in ["AS", "AH", "KH", "QD", "JC", "back"]:
        assert count_pips(_crop(name)) is None, name


def test_a_layout_that_is_not_plain_gives_no_count_rather_than_a_wrong_one():
    nine = _crop("9C")
    hidden = nine.copy()
    cv2.ellipse(hidden, (40, 60), (16, 12), 30, 0, 360, (60, 50, 40), -1)  # a thumb on it
    assert count_pips(hidden) is None
    missing = nine.copy()
    missing[14:29, 13:26] = nine[2:3, 32:33]  # one corner pip rubbed out: lopsided
    assert count_pips(missing) is None
    # blurred until its pips run together: a count, if any, is still nine
    for sigma in (1.0, 2.0, 3.0, 4.0, 6.0):
        assert count_pips(cv2.GaussianBlur(nine, (0, 0), sigma)) in (9, None), sigma
    # plain paper, and the table
    assert count_pips(np.full((96, 64, 3), 235, np.uint8)) is None
    assert count_pips(np.random.default_rng(1).integers(0, 255, (96, 64, 3), np.uint8)) is None


def test_a_count_makes_the_counted_rank_likelier_and_nothing_else():
    probs = np.full((2, len(CLASSES)), 0.1 / (len(CLASSES) - 2), np.float32)
    for row in probs:
        row[CLASSES.index("7D")], row[CLASSES.index("9D")] = 0.6, 0.3
    before = probs.copy()
    weigh_by_pips(probs, [9, None])
    assert np.array_equal(probs[1], before[1])
    assert probs[0].sum() == pytest.approx(1.0, abs=1e-5)
    nines = [i for i, c in enumerate(CLASSES) if c[:-1] == "9"]
    ratio = (probs[0, nines] / probs[0, CLASSES.index("7D")]) / (before[0, nines] / 0.6)
    assert ratio == pytest.approx(np.full(len(nines), PIP_WEIGHT), rel=1e-4)
    assert CLASSES[int(probs[0].argmax())] == "9D"


def test_the_classifier_counts_pips_only_of_cards_it_reads_unsurely(monkeypatch):
    import vision.classify as classify

    classifier = CardClassifier(threads=1)
    picture = np.full((400, 400, 3), (40, 110, 40), np.uint8)
    quads = np.array([[[50, 50], [114, 50], [114, 146], [50, 146]],
                      [[200, 50], [264, 50], [264, 146], [200, 146]]], np.float32)
    picture[50:146, 50:114] = _crop("9D")
    picture[50:146, 200:264] = _crop("5C")
    sure = np.empty((2, len(CLASSES)), np.float32)  # a 9D read as likelier a 7D; a 5C
    for row, readings in zip(sure, ({"7D": 0.6, "9D": 0.2}, {"5C": 0.95})):
        row[:] = (1 - sum(readings.values())) / (len(CLASSES) - len(readings))
        for name, p in readings.items():
            row[CLASSES.index(name)] = p

    calls: list[int] = []

    def probabilities(crops):  # the first look at both, then the unsure card's looks again
        calls.append(len(crops))
        return sure.copy() if len(calls) == 1 else np.repeat(sure[:1], len(crops), axis=0)

    networks_read(monkeypatch, classifier, probabilities)
    counted = []
    monkeypatch.setattr(classify, "count_pips", lambda crop: counted.append(crop) or 9)
    found = classifier.read(picture, CardDetections(quads, np.ones(2, np.float32),
                                                    np.ones(2, bool), [None] * 2, [None] * 2,
                                                    np.zeros(2, np.float32)))
    assert len(counted) == 1  # only the unsure card
    assert found.cards == ["9D", "5C"]
