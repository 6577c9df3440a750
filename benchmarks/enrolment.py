"""How well 'sueca-referee deck' takes pictures of the court cards laid out: how many of the
studio's pictures it enrols, and how many of those keep a court card askew.

    .venv/bin/python benchmarks/enrolment.py [--designs test] [--seeds 10] [--turned]
                                             [--models DIR]

For each design and each seed it renders the court cards laid out (``studio deck``), enrols
the picture (``vision.deck.enrol``) and compares each court card's crop with its crop along the
card's true outline (the studio's label): a correlation under 0.8 (``ASKEW``) counts as a card
kept askew. ``--turned`` also enrols each picture turned a quarter clockwise, a quarter
anticlockwise and upside down (taken from another side of the table). Prints a line a design
(``x``: refused; else the worst court card's correlation), then the totals and the reasons for
refusing. Needs the designs in the face cache (built on first use).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.options import at_least, model_folder  # noqa: E402

ASKEW = 0.8
TURNS = {"as taken": None, "quarter clockwise": cv2.ROTATE_90_CLOCKWISE,
         "quarter anticlockwise": cv2.ROTATE_90_COUNTERCLOCKWISE, "upside down": cv2.ROTATE_180}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--designs", default="test",
                        help="a split (train, val, test, all) or design names (default test)")
    parser.add_argument("--seeds", type=at_least(1), default=10,
                        help="pictures a design: seeds 1..N (default 10)")
    parser.add_argument("--turned", action="store_true",
                        help="also enrol each picture turned a quarter either way and upside down")
    parser.add_argument("--models", metavar="DIR", type=model_folder,
                        help="model folder (default: models/)")
    args = parser.parse_args()

    from vision.cardclasses import BACK
    from vision.classify import CardClassifier
    from vision.deck import Deck, DeckError, enrol
    from vision.detect import CardDetector
    from vision.geometry import rectify
    from vision.models import MODELS
    from vision.studio.facesets import face_sets
    from vision.studio.images import deck_picture

    models = Path(args.models) if args.models else MODELS
    detector = CardDetector(models / "detector.onnx")
    classifier = CardClassifier(models / "cards.onnx")
    turns = TURNS if args.turned else {"as taken": None}
    taken = collections.Counter()
    askew = collections.Counter()
    reasons = collections.Counter()
    pictures = 0
    for faces in face_sets(args.designs, log=lambda message: None):
        line = {turn: [] for turn in turns}
        for seed in range(1, args.seeds + 1):
            picture, labels = deck_picture(faces, seed)
            pictures += 1
            truth = Deck([str(label.card) for label in labels],
                         np.stack([rectify(picture, label.corners, classifier.size, ordered=True)
                                   for label in labels]))
            for turn, code in turns.items():
                shown = picture if code is None else cv2.rotate(picture, code)
                try:
                    deck = enrol(shown, detector, classifier)
                except DeckError as error:
                    reasons[str(error).split(":")[0]] += 1
                    line[turn].append("x")
                    continue
                alike = truth.similarity(deck.crops)
                worst = min(alike[k, truth.cards.index(card)]
                            for k, card in enumerate(deck.cards) if card != BACK)
                taken[turn] += 1
                askew[turn] += worst < ASKEW
                line[turn].append(f"{worst:.2f}")
        for turn, marks in line.items():
            print(f"{faces.name:28s}{'' if len(turns) == 1 else f' {turn:22s}'} "
                  + " ".join(marks), flush=True)
    designs = pictures // args.seeds
    for turn in turns:
        print(f"{turn}: {taken[turn]} of {pictures} pictures enrolled ({designs} designs, seeds "
              f"1-{args.seeds}), {askew[turn]} of them with a court card kept askew "
              f"(correlation with its true crop under {ASKEW})")
    for reason, count in reasons.most_common():
        print(f"   refused {count}x: {reason}")


if __name__ == "__main__":
    main()
