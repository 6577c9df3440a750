"""The portrait reader (``vision.portraits``): how its reading re-weighs the classifier's court
cards, where it weighs in, and that the shipped model reads ranks from portraits alone."""

from __future__ import annotations

import shutil

import cv2
import numpy as np
import pytest

from tests.helpers import TWO_CARDS, networks_read, probabilities_of, read_cards, reader_read
from vision.cardclasses import CLASSES
from vision.classify import LOOK_AGAIN, CardClassifier, ClassifierError
from vision.models import MODELS
from vision.portraits import PORTRAIT_SIZE, RANKS, share_out, weighed
from vision.studio.facesets import TinyFaces


@pytest.fixture(scope="module")
def classifier():
    return CardClassifier(threads=1)


def _index(name: str) -> int:
    return CLASSES.index(name)


def test_the_portrait_shares_the_court_cards_total_out_again_by_rank():
    probs = probabilities_of({"JS": 0.3, "QS": 0.25, "KS": 0.05, "QC": 0.1, "7S": 0.2})
    before = probs.copy()
    share_out(probs, np.array([0]), np.array([[0.1, 0.2, 0.7]], np.float32))
    court = [_index(r + s) for r in RANKS for s in "CDHS"]
    others = [i for i in range(len(CLASSES)) if i not in court]
    # what is not a court card is untouched, and the court cards hold what they held
    assert np.allclose(probs[0, others], before[0, others])
    assert probs[0, court].sum() == pytest.approx(before[0, court].sum(), rel=1e-5)
    # each court card is weighed by its rank's portrait reading: the king of spades, the
    # classifier's least likely spade court card, is now as likely as the jack
    ratio = probs[0, _index("KS")] / probs[0, _index("JS")]
    assert ratio == pytest.approx((0.05 * 0.7) / (0.3 * 0.1), rel=1e-4)
    # and the suits keep their shares within a rank
    assert probs[0, _index("QS")] / probs[0, _index("QC")] == pytest.approx(2.5, rel=1e-4)


def test_a_portrait_sure_of_a_rank_the_classifier_rules_out_leaves_the_reading_as_it_was():
    probs = np.zeros((1, len(CLASSES)), np.float32)
    probs[0, _index("JD")], probs[0, _index("QD")], probs[0, _index("5D")] = 0.5, 0.3, 0.2
    before = probs.copy()
    share_out(probs, np.array([0]), np.array([[0.0, 0.0, 1.0]], np.float32))
    assert np.array_equal(probs, before)


def test_only_unsure_readings_mostly_of_court_cards_are_weighed():
    rows = np.concatenate([probabilities_of({"KH": 0.95}),  # sure: never changed
                           probabilities_of({"KH": 0.5, "JH": 0.3}),  # unsure court card
                           probabilities_of({"7H": 0.6, "JH": 0.1}),  # mostly a pip card
                           probabilities_of({"7H": 0.4, "QH": 0.35})])
    assert weighed(rows, LOOK_AGAIN).tolist() == [1, 3]


def test_the_classifier_weighs_the_portrait_into_an_unsure_court_card_only(classifier,
                                                                            monkeypatch):
    reader = classifier.portraits
    assert reader is not None  # the shipped models folder holds the portrait reader
    networks_read(monkeypatch, classifier, lambda crops: np.concatenate(
        [probabilities_of({"QC": 0.95}), probabilities_of({"QS": 0.5, "KS": 0.3})]))
    alone = read_cards(classifier)  # (networks_read leaves the portrait reader out)
    seen = reader_read(monkeypatch, classifier, "portraits", reader,
                       np.array([[0.05, 0.05, 0.9]], np.float32))
    found = read_cards(classifier)
    # one crop, of the unsure card, at the portrait reader's own size
    assert seen == [(1, PORTRAIT_SIZE[1], PORTRAIT_SIZE[0], 3)]
    assert found.cards[0] == alone.cards[0] == "QC"
    assert found.confidence[0] == alone.confidence[0] == pytest.approx(0.95, abs=1e-6)
    # QS 0.5 and KS 0.3 weighed 0.05 and 0.9: the king, and no longer the queen
    assert alone.cards[1] == "QS" and found.cards[1] == "KS"
    assert found.confidence[1] > alone.confidence[1]


def test_a_reading_the_portrait_makes_sure_is_held_to_a_play_never_a_proof(classifier,
                                                                           monkeypatch):
    reader = classifier.portraits
    networks_read(monkeypatch, classifier,
                  lambda crops: probabilities_of({"KS": 0.7, "QS": 0.28}, len(crops)))
    monkeypatch.setattr(classifier, "portraits", reader)
    monkeypatch.setattr(reader, "read", lambda crops: np.array([[0.001, 0.001, 0.998]]))
    free = read_cards(classifier, TWO_CARDS[:1])
    assert free.cards[0] == "KS" and free.confidence[0] > 0.97
    held = read_cards(classifier, TWO_CARDS[:1], at_most=0.97)
    assert held.cards[0] == "KS" and held.confidence[0] == pytest.approx(0.97, abs=1e-5)


@pytest.mark.parametrize("what, other, outputs", [("portraits", "suits", (4, 3)),
                                                   ("suits", "portraits", (3, 4))])
def test_a_models_folder_without_a_second_reader_reads_without_one(tmp_path, what, other,
                                                                   outputs):
    # (``what``: the portrait reader or the suit reader; ``other``: the other one's model)
    shutil.copy(MODELS / "cards.onnx", tmp_path / "cards.onnx")
    assert getattr(CardClassifier(tmp_path / "cards.onnx", threads=1), what) is None
    (tmp_path / f"{what}.onnx").write_bytes(b"not a model")
    with pytest.raises(ClassifierError, match=f"cannot load {what} model"):
        CardClassifier(tmp_path / "cards.onnx", threads=1)
    assert getattr(CardClassifier(tmp_path / "cards.onnx", threads=1, **{what: False}),
                   what) is None
    # a model of the wrong shape (the other reader's) is told as such
    shutil.copy(MODELS / f"{other}.onnx", tmp_path / f"{what}.onnx")
    with pytest.raises(ClassifierError,
                       match=f"gives {outputs[0]} outputs, expected .* and {outputs[1]}"):
        CardClassifier(tmp_path / "cards.onnx", threads=1)


def _painted_court_crops(design, size, per_card: int, seed: int):
    from vision.train.classifier import paint_over_corners
    from vision.train.crops import CropMaker

    rng = np.random.default_rng(seed)
    maker = CropMaker([design], rng, size=size)
    names = [rank + suit for rank in RANKS for suit in "CDHS" for _ in range(per_card)]
    crops = paint_over_corners(np.stack([maker.crop(name) for name in names]), rng)
    return crops, np.array([RANKS.index(name[0]) for name in names])


def test_the_shipped_reader_reads_unseen_portraits_better_than_the_classifier(classifier):
    """lattmann (a test design, never trained on) with its index corners painted over: only
    the portraits tell the jack, queen and king apart. The classifier, reading the same crops
    at its own size, was right about half the time when the reader came (chance: a third)."""
    from vision.studio.facesets import face_sets
    from vision.studio.faces import StudioError

    try:
        design = next(f for f in face_sets("test", log=lambda m: None) if f.name == "lattmann")
    except StudioError as error:
        pytest.skip(f"the test designs are not available: {error}")
    crops, truth = _painted_court_crops(design, PORTRAIT_SIZE, 4, 11)
    read = classifier.portraits.read(crops).argmax(axis=1)
    small = np.stack([cv2.resize(c, classifier.size, interpolation=cv2.INTER_AREA)
                      for c in crops])
    probs = classifier.probabilities(small)
    by_rank = np.stack([probs[:, [_index(r + s) for s in "CDHS"]].sum(axis=1) for r in RANKS],
                       axis=1)
    portrait_right = float((read == truth).mean())
    classifier_right = float((by_rank.argmax(axis=1) == truth).mean())
    assert portrait_right >= 0.6 and portrait_right >= classifier_right + 0.15, (
        portrait_right, classifier_right)


def test_the_reader_does_not_pretend_to_read_a_letter_for_a_portrait(classifier):
    """The procedural faces' court cards are a big letter and no figure: the reader was never
    taught letters, and should not be sure of their ranks (it weighs in only where the
    classifier is unsure, and its sureness is what it weighs)."""
    faces = TinyFaces(0)
    crops, _ = _painted_court_crops(faces, PORTRAIT_SIZE, 2, 5)
    assert classifier.portraits.read(crops).max(axis=1).mean() < 0.9
