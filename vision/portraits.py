"""Reading a court card's rank from its portrait, where the classifier is unsure of it.

The card classifier reads a court card's rank mostly from its index letters, and a design
whose court cards carry none (guyenne-classic's) or carry letters that look alike at a
camera's resolution (lattmann's Fraktur B and D) leaves it unsure between the jack, the queen
and the king. The portrait reader (``models/portraits.onnx``, trained by ``python -m
vision.train portraits`` on the train designs' court cards with their index corners painted
over) reads only the figure, at 96x144. Its reading shares out again, among the three ranks,
the probability the classifier gives a crop's court cards: the court cards' total, and so
every reading of a pip card, an ace, a back or "not a card", is kept, as is how the
classifier shares each rank out among the suits.

It weighs in only where the classifier's reading is under ``LOOK_AGAIN`` (0.9) and its court
cards hold at least ``COURT_AT_LEAST`` of it: a reading sure enough to play is never changed,
and a pip card read unsurely costs no second network. A reading it makes sure is a play,
never proof of cheating (``CardClassifier._weigh_by_readers``). Measured on the studio's hard test
pictures (docs/recognition.md, sixty-ninth session), weighing it in once (a weight of one)
read more cards right and surely and none wrongly at 0.9; twice as strongly read two wrongly
at 0.9.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .cardclasses import CLASSES, SUITS
from .geometry import rectify
from .models import crops_as_input, load_session

PORTRAIT_SIZE = (96, 144)  # width, height of the crop the portrait reader sees
RANKS = ("J", "Q", "K")
# a reading is weighed where its likeliest class is under this (``vision.classify.LOOK_AGAIN``)
# and its court cards together hold at least ``COURT_AT_LEAST`` of it
COURT_AT_LEAST = 0.3
# the classes of the court cards of each rank, in the order of ``RANKS``
_COURT = np.array([[CLASSES.index(rank + suit) for suit in SUITS] for rank in RANKS])


class ReaderError(RuntimeError):
    """A second reader's model (the portrait reader's or the suit reader's) is broken."""


class SecondReader:
    """A small network beside the classifier that reads one part of a card from the card cut
    out along its outline at ``PORTRAIT_SIZE``: its outputs are the probabilities of
    ``labels``; ``what`` names its model in messages (and ``python -m vision.train WHAT``)."""

    labels: tuple[str, ...] = ()
    what = ""

    def __init__(self, model: Path | str, threads: int | None = None) -> None:
        self.session = load_session(model, threads, self.what, ReaderError)
        self.input_name = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape[2:]
        outputs = self.session.get_outputs()[0].shape
        if tuple(shape) != PORTRAIT_SIZE[::-1] or outputs[-1] != len(self.labels):
            raise ReaderError(f"{self.what} model '{model}' takes {shape} and gives "
                              f"{outputs[-1]} outputs, expected {PORTRAIT_SIZE[::-1]} and "
                              f"{len(self.labels)}")

    def read(self, crops: np.ndarray) -> np.ndarray:
        """(N, labels) probabilities for (N, 144, 96, 3) BGR uint8 crops."""
        return self.session.run(None, {self.input_name: crops_as_input(crops)})[0]

    @staticmethod
    def crops(frame: np.ndarray, quads: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The crops a second reader reads of the cards ``quads[rows]`` outline in ``frame``."""
        return np.stack([rectify(frame, quads[i], PORTRAIT_SIZE, ordered=True) for i in rows])

    def weigh(self, crops: np.ndarray, probs: np.ndarray, rows: np.ndarray) -> None:
        """Weigh ``rows`` of ``probs`` (N, classes), in place, by this reader's readings of
        the cards in ``crops`` (one a row, ``crops``)."""
        self.share_out(probs, rows, self.read(crops))

    @staticmethod
    def weighed(probs: np.ndarray, below: float) -> np.ndarray:
        """The rows of ``probs`` (N, classes) this reader weighs in on."""
        raise NotImplementedError

    @staticmethod
    def share_out(probs: np.ndarray, rows: np.ndarray, read: np.ndarray) -> None:
        """Weigh ``rows`` of ``probs`` by what this reader ``read`` of them, in place."""
        raise NotImplementedError


def weighed(probs: np.ndarray, below: float) -> np.ndarray:
    """The rows of ``probs`` the portrait reader weighs in on: read under ``below``, with at
    least ``COURT_AT_LEAST`` on court cards."""
    court = probs[:, _COURT.ravel()].sum(axis=1)
    return np.flatnonzero((probs.max(axis=1) < below) & (court >= COURT_AT_LEAST))


def share_out(probs: np.ndarray, rows: np.ndarray, ranks: np.ndarray) -> None:
    """Multiply each court class of ``probs[rows]`` by the portrait's probability of its rank
    (``ranks``, (len(rows), 3)), then scale the court classes back to the total they had."""
    court = _COURT.ravel()
    before = probs[np.ix_(rows, court)].sum(axis=1)
    weights = np.repeat(ranks, _COURT.shape[1], axis=1)  # (rows, 12) in ``court``'s order
    after = probs[np.ix_(rows, court)] * weights
    total = after.sum(axis=1, keepdims=True)
    # a portrait sure of a rank the classifier gave nothing: leave the reading as it was
    keep = total[:, 0] <= 1e-12
    after[keep] = probs[np.ix_(rows[keep], court)]
    total[keep] = before[keep, None]
    probs[np.ix_(rows, court)] = after * (before[:, None] / total)


class PortraitReader(SecondReader):
    """Reads a court card's rank (jack, queen or king) from its figure alone."""

    labels = RANKS
    what = "portraits"
    weighed = staticmethod(weighed)
    share_out = staticmethod(share_out)
