"""How small a card the referee still reads: card accuracy by the card's size in the picture.

    .venv/bin/python benchmarks/card_size.py [--sizes 1280x720,800x450,640x360,480x270]
                                             [--count 100] [--designs val] [--seed 4242]
                                             [--keep DIR] [--workers 2] [--models DIR]

Renders studio table pictures with the markers on the table (normal difficulty, the
*validation* designs by default: the sizes chosen from these figures are then not tuned on
the test designs) at each picture size, checks them as ``sueca-referee check`` does, and tells
every labelled card that shows whole (at least 90 %) by its short side in picture pixels:
how many were found whole, read right, and read right surely (at or above the tracker's 0.9,
what a game takes as a play). Only pictures whose markers were found count (the table's
calibration is what ``sueca-referee calibrate`` reports card sizes from). The camera is
random in every picture (height, tilt, lens), so each picture size gives a spread of card
sizes. Prints one row a band of sizes; with ``--keep`` the pictures are kept there. With
``--labels CSV`` the cards of a labelled set already made are told by size instead (its
calibrated pictures only), such as the hard set ``benchmarks/recognition.py --keep`` keeps.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.check import SURE, match_outlines, read_labels, run_check  # noqa: E402
from vision.geometry import side_pairs  # noqa: E402
from vision.options import at_least, model_folder, picture_size  # noqa: E402
from vision.studio.images import ImageSetSettings, write_image_set  # noqa: E402

BANDS = (0, 20, 25, 30, 35, 40, 45, 50, 60, 80, 10_000)


def short_side(quad: np.ndarray) -> float:
    """A card outline's short side in pixels: the shorter of its two pairs of opposite sides,
    each pair's mean (a card seen in perspective has sides of unequal length)."""
    return float(side_pairs(quad).min() / 2)


def outcomes(task, result) -> list[tuple[float, bool, bool, bool]]:  # noqa: ANN001
    """(short side px, found whole, read right, read right surely) for each counted card of
    a calibrated picture."""
    if "skipped" in result or not result.get("calibrated"):
        return []
    found = result["found"]
    pairs = match_outlines([label.quad for label in task.labels], [f["quad"] for f in found],
                           [not label.counted for label in task.labels])
    rows = []
    for n, label in enumerate(task.labels):
        if not label.counted or label.quad is None:
            continue
        det = found[pairs[n]] if n in pairs else None
        whole = det is not None and det["whole"]
        right = whole and det["card"] == label.card
        rows.append((short_side(label.quad), whole, right,
                     right and det["confidence"] >= SURE))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1280x720,800x450,640x360,480x270",
                        help="picture sizes, separated by commas")
    parser.add_argument("--count", type=at_least(1), default=100,
                        help="pictures of each size")
    parser.add_argument("--designs", default="val", help="designs to draw (default: val)")
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--keep", metavar="DIR", help="keep the pictures in this folder")
    parser.add_argument("--workers", type=at_least(1), default=2)
    parser.add_argument("--models", type=model_folder, default=None,
                        help="model folder (default: models/)")
    parser.add_argument("--labels", metavar="CSV", action="append",
                        help="tell the cards of this labelled set (the studio's labels, with "
                        "positions) by size, instead of rendering pictures; may be given again")
    args = parser.parse_args()
    try:
        sizes = [picture_size(s) for s in args.sizes.split(",") if s]
    except argparse.ArgumentTypeError as error:
        parser.error(str(error))
    rows: list[tuple[float, bool, bool, bool]] = []

    def tell(labels: Path, name: str) -> None:
        tasks, _ = read_labels(labels)
        before = len(rows)
        run_check(tasks, True, False, args.workers, args.models,
                  on_result=lambda task, result: rows.extend(outcomes(task, result)))
        print(f"{name}: {len(rows) - before} cards whole in calibrated pictures", flush=True)

    with tempfile.TemporaryDirectory() as scratch:
        base = Path(args.keep) if args.keep else Path(scratch)
        for labels in args.labels or []:
            tell(Path(labels), labels)
        for width, height in [] if args.labels else sizes:
            folder = base / f"{width}x{height}"
            if not (folder / "labels.csv").exists():
                write_image_set(folder, ImageSetSettings(
                    count=args.count, seed=args.seed, designs=args.designs,
                    difficulty="normal", kind="table", width=width, height=height,
                    markers=1.0), workers=args.workers)
            tell(folder / "labels.csv", f"{width}x{height}")
    table = np.array(rows, float).reshape(-1, 4)
    what = ", ".join(args.labels) if args.labels else \
        f"{args.designs} designs, normal difficulty, markers on the table"
    print(f"\n{what}; a card's short side in picture pixels:")
    print(f"{'short side':>12} {'cards':>6} {'found whole':>12} {'read right':>11} "
          f"{'read surely':>12}")
    for low, high in zip(BANDS, BANDS[1:]):
        band = table[(table[:, 0] >= low) & (table[:, 0] < high)]
        if len(band) == 0:
            continue
        name = f"{low}-{high} px" if high < 10_000 else f">= {low} px"
        print(f"{name:>12} {len(band):>6} {100 * band[:, 1].mean():>11.1f}% "
              f"{100 * band[:, 2].mean():>10.1f}% {100 * band[:, 3].mean():>11.1f}%")


if __name__ == "__main__":
    main()
