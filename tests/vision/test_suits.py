"""The suit reader (``vision.suits``): how its reading re-weighs the classifier's cards among
the suits, where it weighs in, how far it may make a suit sure, and that the shipped model
reads the suits of court cards it never saw better than the classifier."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.helpers import (
    PLAIN,
    TWO_CARDS,
    networks_read,
    probabilities_of,
    read_cards,
    reader_read,
)
from vision.cardclasses import CLASSES, SUITS
from vision.classify import LOOK_AGAIN, CardClassifier
from vision.portraits import PORTRAIT_SIZE
from vision.suits import held_to_suit, share_out, suit_totals, weighed


@pytest.fixture(scope="module")
def classifier():
    return CardClassifier(threads=1)


def _index(name: str) -> int:
    return CLASSES.index(name)


def _suits(**shares: float) -> np.ndarray:
    return np.array([[shares.get(suit, 0.0) for suit in SUITS]], np.float32)


def test_the_suit_reader_shares_each_ranks_total_out_again_by_suit():
    probs = probabilities_of({"JD": 0.4, "JS": 0.3, "JC": 0.1, "QD": 0.1, "back": 0.05})
    before = probs.copy()
    share_out(probs, np.array([0]), _suits(C=0.1, D=0.6, H=0.1, S=0.2))
    # a card back and "not a card" keep what they had, and so does each rank
    for name in ("back", "none"):
        assert probs[0, _index(name)] == pytest.approx(before[0, _index(name)])
    for rank in ("J", "Q", "7"):
        cards = [_index(rank + suit) for suit in SUITS]
        assert probs[0, cards].sum() == pytest.approx(before[0, cards].sum(), rel=1e-5)
    # within a rank, each card is weighed by its suit's reading
    assert probs[0, _index("JS")] / probs[0, _index("JC")] == pytest.approx(
        (0.3 * 0.2) / (0.1 * 0.1), rel=1e-4)
    assert probs[0, _index("JD")] > before[0, _index("JD")]


def test_the_suit_reader_never_turns_a_reading_to_another_suit():
    """It makes the classifier surer of the suit it leans to, never of another: the king of
    clubs read KC 0.84 / KS 0.16 stays a club however sure the reader is of spades."""
    probs = probabilities_of({"KC": 0.84, "KS": 0.15})
    before = probs.copy()
    share_out(probs, np.array([0]), _suits(C=0.05, S=0.95))
    assert np.array_equal(probs, before)
    share_out(probs, np.array([0]), _suits(C=0.95, S=0.05))
    assert probs[0, _index("KC")] > before[0, _index("KC")]


def test_a_rank_the_suit_reading_leaves_nothing_stays_as_it_was():
    probs = np.zeros((1, len(CLASSES)), np.float32)
    probs[0, _index("KH")], probs[0, _index("KS")], probs[0, _index("5D")] = 0.5, 0.3, 0.2
    before = probs.copy()
    share_out(probs, np.array([0]), _suits(H=1.0))
    assert probs[0, _index("KH")] == pytest.approx(0.8)  # the kings: all the king of hearts
    assert probs[0, _index("5D")] == before[0, _index("5D")]  # the fives had no heart


def test_only_unsure_court_cards_whose_rank_is_sure_are_weighed():
    rows = np.concatenate([probabilities_of({"KH": 0.95}),  # sure: never changed
                           probabilities_of({"KH": 0.5, "KD": 0.45}),  # only its suit unsure
                           probabilities_of({"KH": 0.5, "QH": 0.4}),  # its rank unsure too
                           probabilities_of({"7H": 0.5, "7D": 0.45}),  # a pip card
                           probabilities_of({"back": 0.8})])  # mostly a card back
    assert weighed(rows, LOOK_AGAIN).tolist() == [1]


def test_a_suit_made_surer_than_a_play_is_held_there():
    alone = probabilities_of({"JC": 0.45, "QC": 0.2, "JS": 0.3})
    probs = alone.copy()
    share_out(probs, np.array([0]), _suits(C=0.999, S=0.001))
    assert suit_totals(probs)[0, SUITS.index("C")] > 0.97
    held_to_suit(probs, alone, np.array([0]), 0.97)
    assert suit_totals(probs)[0, SUITS.index("C")] == pytest.approx(0.97, abs=1e-5)
    assert CLASSES[int(probs[0].argmax())] == "JC"
    # a suit the classifier alone was surer of is not made surer by the reader
    alone = probabilities_of({"JC": 0.6, "QC": 0.39})
    probs = alone.copy()
    share_out(probs, np.array([0]), _suits(C=0.999, S=0.001))
    held_to_suit(probs, alone, np.array([0]), 0.97)
    assert np.allclose(probs, alone)


def test_the_classifier_weighs_the_suit_into_an_unsure_card_held_to_a_play(classifier,
                                                                           monkeypatch):
    reader = classifier.suits
    assert reader is not None  # the shipped models folder holds the suit reader
    first = []

    def network(crops):  # on the first look the first card is read surely, the second not
        rows = probabilities_of({"JD": 0.55, "JC": 0.22, "JS": 0.2}, len(crops))
        if not first:
            first.append(True)
            rows[0] = probabilities_of({"JC": 0.95})[0]
        return rows

    networks_read(monkeypatch, classifier, network)

    def read(**at_most):
        first.clear()
        return read_cards(classifier, **at_most)

    alone = read()  # (networks_read leaves the second readers out)
    seen = reader_read(monkeypatch, classifier, "suits", reader,
                       _suits(C=0.0005, D=0.999, H=0.0003, S=0.0002))
    found = read(at_most=0.97)
    # one crop, of the unsure card, at the second readers' size
    assert seen == [(1, PORTRAIT_SIZE[1], PORTRAIT_SIZE[0], 3)]
    assert found.cards[0] == alone.cards[0] == "JC"
    assert found.confidence[0] == alone.confidence[0] == pytest.approx(0.95, abs=1e-6)
    # the jack read unsurely is read surely enough to play now, and diamonds surely its
    # suit, but no surer than a play: 0.97, not the reader's 0.999
    assert alone.cards[1] == "JD" and alone.confidence[1] < 0.9 and alone.parts[1] == "J"
    assert found.cards[1] == "JD" and 0.9 <= found.confidence[1] <= 0.97
    assert found.parts[1] == "D"
    first.clear()
    probs = network(TWO_CARDS)
    classifier._weigh_by_readers(PLAIN, TWO_CARDS, probs, 0.97)
    assert suit_totals(probs)[1, SUITS.index("D")] == pytest.approx(0.97, abs=1e-4)


def test_a_court_card_whose_rank_is_in_doubt_too_has_its_suit_weighed_into_its_odds_alone(
        classifier, monkeypatch):
    """Where the classifier is unsure of a court card's rank as well as its suit (an
    unfamiliar design's figure), the suit reader's reading is not weighed into what the card
    is read as (a suit made sure leaves it as sure as its rank, and plays of the wrong rank
    were taken), but into its odds: what the deal's end weighs its ways by."""
    reader = classifier.suits
    assert reader is not None
    doubt = {"JD": 0.3, "QD": 0.2, "KD": 0.1, "JC": 0.15, "JS": 0.15, "QS": 0.05}
    networks_read(monkeypatch, classifier,
                  lambda crops: probabilities_of(doubt, len(crops)))
    alone = read_cards(classifier)
    seen = reader_read(monkeypatch, classifier, "suits", reader,
                       _suits(C=0.01, D=0.97, H=0.01, S=0.01))
    found = read_cards(classifier, at_most=0.97)
    assert seen == [(2, PORTRAIT_SIZE[1], PORTRAIT_SIZE[0], 3)]  # both cards, at once
    for n in range(2):
        # read as before: the jack of diamonds, unsurely, its suit not read surely
        assert found.cards[n] == alone.cards[n] == "JD"
        assert found.confidence[n] == pytest.approx(alone.confidence[n])
        assert found.parts[n] == alone.parts[n] is None
        # its odds: each rank's share as before, shared out by the reader's suits
        odds, before = dict(found.odds[n]), dict(alone.odds[n])
        jacks = sum(before[c] for c in ("JD", "JC", "JS"))
        assert odds["JD"] == pytest.approx(jacks * 0.3 * 0.97 / (0.3 * 0.97 + 0.3 * 0.01),
                                           abs=2e-3)
        assert odds.get("JC", 0.0) < 0.01
        assert odds["QD"] > before["QD"] and odds.get("QS", 0.0) < before["QS"]
    # a reader that leans to another suit than the classifier's leaves the odds as they were
    reader_read(monkeypatch, classifier, "suits", reader, _suits(C=0.01, D=0.01, H=0.01,
                                                                 S=0.97))
    assert read_cards(classifier, at_most=0.97).odds == alone.odds


def test_the_shipped_reader_reads_unseen_court_cards_suits_better_than_the_classifier(
        classifier):
    """guyenne-classic (a test design, never trained on) prints a suit sign and no letter in
    its court cards' corners, and figures the classifier never saw: it named the right suit
    of three crops in four when the reader came, the reader nearly all."""
    from vision.studio.faces import StudioError
    from vision.studio.facesets import face_sets
    from vision.train.crops import CropMaker

    try:
        design = next(f for f in face_sets("test", log=lambda m: None)
                      if f.name == "guyenne-classic")
    except StudioError as error:
        pytest.skip(f"the test designs are not available: {error}")
    maker = CropMaker([design], np.random.default_rng(21), size=PORTRAIT_SIZE)
    names = [rank + suit for rank in "JQK" for suit in SUITS for _ in range(4)]
    crops = np.stack([maker.crop(name) for name in names])
    truth = np.array([SUITS.index(name[-1]) for name in names])
    reader_right = float((classifier.suits.read(crops).argmax(axis=1) == truth).mean())
    small = np.stack([cv2.resize(c, classifier.size, interpolation=cv2.INTER_AREA)
                      for c in crops])
    classifier_right = float(
        (suit_totals(classifier.probabilities(small)).argmax(axis=1) == truth).mean())
    assert reader_right >= 0.85 and reader_right >= classifier_right + 0.1, (
        reader_right, classifier_right)
