"""Train the suit reader and export ``models/suits.onnx`` and ``models/suits.yaml``.

The portrait reader's network (``vision.train.portraits``), taught the suit instead of the
rank: crops of all 52 cards at 96x144, their index corners as they are, from the train designs
and the made-up ones (whose suit signs are real ones). At run time (``vision.suits``) its
reading shares out each rank's probability among the four suits again, where the classifier
is unsure of a card.

    python -m vision.train suits [--per-card 5] [--epochs 8] [--seed 1] [--init MODEL]

Its softmax is left at a temperature of one: the validation designs' suits are read nearly
all right, and a temperature fitted on them (0.33) sharpened the readings threefold and made
two of kde-jolly-royal's black court cards read wrongly at 0.95 in a probe. On this 2-core
machine an epoch takes about two minutes.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from ..cardclasses import CARD_CLASSES, SUITS
from . import run_training
from .portraits import Reader, reader_crops, reader_parser
from .portraits import train as reader_train


def suit_crops(split: str, per_card: int, seed: int, workers: int, by_design: bool = False,
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``per_card`` crops of each of the 52 cards from each design of ``split`` (the train
    split's made-up designs too), labelled by suit (indices into ``SUITS``):
    ``reader_crops``."""
    suit_of = np.array([SUITS.index(card[-1]) for card in CARD_CLASSES])
    return reader_crops(split, per_card, seed, workers, by_design, list(CARD_CLASSES),
                        lambda y: suit_of[y], paint=False, made_up=True)


SUITS_READER = Reader(
    "suits", SUITS, "suits", lambda *args, **kwargs: suit_crops(*args, **kwargs),
    title="suit reader", temperature=1.0,
    what="probabilities of clubs, diamonds, hearts and spades", per_card=5, epochs=8,
    crops_are="all 52 cards, index corners as they are", cards="card",
    swap_colours=0.0, grey=0.1,
    evaluated_on="suit read, {n} crops of each card; chance is 0.25")


def train(args: argparse.Namespace) -> dict[str, Any]:
    return reader_train(args, SUITS_READER)


def main(argv: list[str] | None = None) -> int:
    return run_training(reader_parser(SUITS_READER), argv, train)
