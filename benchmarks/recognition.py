"""Card recognition: accuracy on the studio's test designs and on real photographs, and speed.

    .venv/bin/python benchmarks/recognition.py [--pictures 700] [--closeups 400] [--keep DIR]
                                               [--models DIR] [--skip-speed | --speed-only]

1. Hard table pictures of the *test* designs (never trained on), 1280x720, through
   ``sueca-referee check``: card accuracy (and how many are read surely enough to be played),
   detection recall, cards read wrongly at or above the referee's thresholds (goal: >= 99.5 %,
   >= 99 %, none above the threshold).
2. Close-ups of one to three cards of the test designs, checked without positions
   (``image,card,visible`` labels; half-hidden cards need not be read) (goal: >= 99 %), and
   apart, the close-ups that show one card alone: the issue's "close-up single-card images".
3. The real webcam photos in ../shared/data/real-webcam-hearts (validation only; goal >= 95 %).
With ``--decks``, sets 1 and 2 are checked a second time as the referee reads them once the
players have shown it their deck's court cards (``sueca-referee deck``): each test design's
court cards are rendered laid out (``studio deck``; the first of seeds 1-10 whose picture can
be enrolled, as players take a picture again when asked) and each picture is checked with its
own design's deck.

4. Speed on this 2-core machine: a 1280x720 frame with four cards, detection plus
   classification (goal: median < 15 ms), and one card's classification (goal: < 2 ms).
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.check import (ImageTask, Tally, compare, misses_by, read_labels,  # noqa: E402
                          report, run_check)
from vision.options import at_least, model_folder  # noqa: E402
from vision.studio.facesets import face_sets  # noqa: E402
from vision.studio.images import ImageSetSettings, enrolled_deck, write_image_set  # noqa: E402
from vision.studio.randomize import picture_faces  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "real-webcam-hearts" / "labels.csv"


def measure(labels: Path, title: str, workers: int, models: str | None = None,
            decks: dict[str, Path] | None = None, seed: int | None = None,
            parts: dict[str, Callable[[ImageTask], bool]] | None = None) -> dict:
    """Check the set ``labels`` and print its figures. ``seed``: the set is the studio's,
    made with that seed from the test designs; its misses are then also told by design.
    ``decks`` (design -> deck file): check each picture of such a set with its own design's
    deck. ``parts`` (title -> which pictures): the figures of those pictures alone are
    printed too, from the same check."""
    tasks, positioned = read_labels(labels)
    design: dict[str, str] = {}  # picture -> the test design it was drawn with
    if seed is not None:
        faces = face_sets("test", log=lambda m: None)
        design = {t.name: picture_faces(seed, int(Path(t.name).stem), faces).name
                  for t in tasks}
    results: dict[str, dict] = {}

    def keep(task: ImageTask, found: dict) -> None:
        results[task.name] = found

    if decks is None:
        tally = run_check(tasks, positioned, False, workers, models, progress=False,
                          on_result=keep)
    else:
        tally = Tally()
        for name, deck in decks.items():
            own = [t for t in tasks if design[t.name] == name]
            part = run_check(own, positioned, False, workers, models, progress=False,
                             on_result=keep, deck=str(deck))
            tally.add(part)
    by_design = design if seed is not None else None
    result = _print_figures(title, tally, tasks, str(labels), by_design)
    for part_title, wanted in (parts or {}).items():
        chosen = [t for t in tasks if wanted(t)]
        if not chosen:
            print(f"{part_title}: none among these pictures")
            continue
        part = Tally()
        for task in chosen:
            compare(task, results[task.name], positioned, part)
        _print_figures(part_title, part, chosen, str(labels), by_design)
    return result


def _print_figures(title: str, tally: Tally, tasks: list[ImageTask], labels: str,
                   design: dict[str, str] | None) -> dict:
    """Print the figures of ``tally`` (the check of ``tasks``) and return its report;
    ``design`` (picture -> design): also its misses by design."""
    result = report(tally, labels, False)
    wrong = result["wrong_at_or_above"]
    print(f"{title}: {result['images']} images, {result['cards']} cards: card accuracy "
          f"{_pct(result['card_accuracy'])} (read surely enough to play: "
          f"{_pct(result['sure_accuracy'])}), detection recall {_pct(result['detection_recall'])}"
          f", precision {_pct(result['detection_precision'])}, read wrongly at >= 0.9: "
          f"{wrong['0.9']}, at >= 0.98: {wrong['0.98']}; false cards read at >= 0.9: "
          f"{result['false_cards_sure']}")
    if result["confusions"]:
        print("   confusions: " + ", ".join(f"{c['truth']}->{c['read']} x{c['count']}"
                                            for c in result["confusions"][:8]))
    if design is not None:
        print("   by design, cards not found whole / read as something else (backs, court "
              "cards, pip cards):")
        for name, misses in misses_by(tasks, tally.mistakes, design.__getitem__).items():
            kinds = ", ".join(f"{misses['missed'].get(kind, 0)} / "
                              f"{misses['misread'].get(kind, 0)} {label}"
                              for kind, label in (("back", "backs"), ("court", "court"),
                                                  ("pip", "pip")))
            cards = misses["cards"]
            print(f"     {name}: {cards} card{'' if cards == 1 else 's'}; {kinds}")
    return result


def make_decks(folder: Path, models: str | None = None, aces: bool = False,
               ) -> dict[str, Path]:
    """A deck file for each test design, in ``folder``, enrolled from studio pictures (of the
    court cards, and with ``aces`` the aces too)."""
    from vision.classify import CardClassifier
    from vision.deck import ACES
    from vision.detect import CardDetector
    from vision.models import MODELS

    models_dir = Path(models) if models else MODELS
    detector = CardDetector(models_dir / "detector.onnx")
    classifier = CardClassifier(models_dir / "cards.onnx")
    folder.mkdir(parents=True, exist_ok=True)
    decks = {}
    for faces in face_sets("test", log=lambda m: None):
        deck, seed, refused = enrolled_deck(faces, detector, classifier, aces=aces)
        decks[faces.name] = folder / f"{faces.name}.npz"
        deck.save(decks[faces.name])
        kept = [card for card in deck.cards if card in ACES]
        print(f"   deck of {faces.name}: picture seed {seed}"
              + (f" ({len(refused)} refused before it)" if refused else "")
              + (f", aces kept: {' '.join(kept) or 'none'}" if aces else ""))
    return decks


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.2f}%"


def positionless(labels: Path, out: Path) -> Path:
    """The same labels without positions: image,card,visible. Only the cards that fully show
    count; reading a half-hidden one right is no error (without its visibility, a half-hidden
    card read right would count as the misreading of a card that was missed)."""
    with labels.open(newline="") as handle, out.open("w", newline="") as target:
        writer = csv.writer(target)
        writer.writerow(["image", "card", "visible"])
        for row in csv.DictReader(handle):
            writer.writerow([row["image"], row["card"], row.get("visible") or "1"])
    return out


def speed(models: str | None = None) -> None:
    import cv2

    from vision.classify import CardClassifier
    from vision.detect import CardDetector
    from vision.geometry import rectify
    from vision.layout import TableLayout
    from vision.studio.facesets import face_sets
    from vision.studio.randomize import random_picture
    from vision.studio.scene import render
    from vision.table import from_markers

    faces = face_sets("test")
    frames = []
    seed = 0
    while len(frames) < 20:
        seed += 1
        stage, scene, rng = random_picture(99, seed, faces, TableLayout(), "normal", "table",
                                           1.0)
        picture, labels = render(stage, scene, rng)
        if sum(1 for lab in labels if lab.visible > 0.95 and lab.seat) == 4 \
                and stage.markers:
            frames.append(picture)
    from vision.models import MODELS

    folder = Path(models) if models else MODELS
    # two threads each, the models' default (replay, which decodes on a thread of its own,
    # runs one each on two cores: vision.models.threads_beside_reading)
    detector = CardDetector(folder / "detector.onnx")
    classifier = CardClassifier(folder / "cards.onnx")
    calibrations = [from_markers(frame) for frame in frames]  # each picture has its camera
    times, found = [], []
    for _ in range(3):
        for frame, calibration in zip(frames, calibrations):
            started = time.perf_counter()
            detections = classifier.read(frame, detector.detect(frame, calibration))
            times.append(time.perf_counter() - started)
            found.append(int(detections.whole.sum()))
    print(f"speed: 1280x720 frame, detection + classification (2 threads each): median "
          f"{1000 * statistics.median(times):.1f} ms, p90 "
          f"{1000 * float(np.percentile(times, 90)):.1f} ms (cards found per frame: median "
          f"{statistics.median(found):.0f})")
    crop = rectify(frames[0], np.array([(600, 300), (660, 300), (660, 390), (600, 390)]))
    single = []
    for _ in range(200):
        started = time.perf_counter()
        classifier.classify(crop[None])
        single.append(time.perf_counter() - started)
    print(f"speed: one card's classification: median {1000 * statistics.median(single):.2f} ms")
    del cv2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pictures", type=at_least(1), default=700,
                        help="hard table pictures (about 3 cards each)")
    parser.add_argument("--closeups", type=at_least(1), default=400,
                        help="close-up photographs of one or a few cards")
    parser.add_argument("--workers", type=at_least(1), default=os.cpu_count() or 1,
                        help="processes rendering and checking (default: one a core)")
    parser.add_argument("--keep", metavar="DIR", help="keep the rendered sets here")
    parser.add_argument("--models", metavar="DIR", type=model_folder,
                        help="model folder (default: models/)")
    parser.add_argument("--decks", action="store_true",
                        help="also check sets 1 and 2 with each design's court cards shown")
    parser.add_argument("--aces", action="store_true",
                        help="with --decks: the aces shown too, in a picture of their own (those "
                             "the classifier is unsure of are kept)")
    parser.add_argument("--skip-speed", action="store_true", help="measure accuracy only")
    parser.add_argument("--speed-only", action="store_true", help="measure speed only")
    args = parser.parse_args()
    if args.speed_only:
        speed(args.models)
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(args.keep or tmp)
        hard = write_image_set(base / "hard-test", ImageSetSettings(
            args.pictures, seed=2024, designs="test", difficulty="hard", kind="table"),
            workers=args.workers, progress=False)
        measure(hard, "hard test designs", args.workers, args.models, seed=2024)
        close = write_image_set(base / "closeups", ImageSetSettings(
            args.closeups, seed=2025, designs="test", difficulty="hard", kind="closeup"),
            workers=args.workers, progress=False)
        cards_only = positionless(close, close.with_name("labels-cards-only.csv"))
        # (the labels list every card that shows, however little: one row, one card)
        measure(cards_only, "close-ups (no positions)", args.workers, args.models,
                seed=2025, parts={"close-ups of one card alone":
                                  lambda task: len(task.labels) == 1})
        if args.decks:
            print("with each design's court cards" + (" and aces" if args.aces else "")
                  + " shown to the referee:")
            decks = make_decks(base / "decks", args.models, args.aces)
            measure(hard, "hard test designs, decks shown", args.workers, args.models, decks,
                    seed=2024)
            measure(cards_only, "close-ups (no positions), decks shown", args.workers,
                    args.models, decks, seed=2025)
    if REAL.exists():
        measure(REAL, "real webcam hearts", args.workers, args.models)
    else:
        print(f"real webcam photos not found at {REAL}")
    if not args.skip_speed:
        speed(args.models)


if __name__ == "__main__":
    main()
