"""``sueca-referee check``: detection and reading measured on a labelled image set (or the
cards found in unlabelled pictures listed).
"""

from __future__ import annotations

import argparse
import os
import sys

from vision.commands import PROG, says_unwritable


def run_check(ns: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from vision.check import (
        IMAGE_SUFFIXES,
        ImageTask,
        LabelsError,
        errors_sheet,
        images_in,
        read_labels,
        report,
        run_check,
    )
    from vision.classify import ClassifierError
    from vision.deck import DeckError
    from vision.detect import DetectorError

    command = "check"
    target = Path(ns.labels)
    listing = False
    if target.is_dir():
        if (target / "labels.csv").is_file():
            target = target / "labels.csv"
        else:
            listing = True
    elif not target.exists():
        print(f"{PROG} {command}: '{target}' does not exist", file=sys.stderr)
        return 2
    elif target.suffix.lower() in IMAGE_SUFFIXES:  # one picture: its detections listed
        listing = True
    try:
        if listing:
            tasks = (images_in(target) if target.is_dir()
                     else [ImageTask(str(target), target.name)])
            positioned = False
            if not tasks:
                print(f"{PROG} {command}: no images in '{target}'", file=sys.stderr)
                return 1
        else:
            tasks, positioned = read_labels(target)
    except LabelsError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    if says_unwritable(command, (ns.report, False), (ns.errors, True)):
        return 2
    workers = ns.workers or os.cpu_count() or 1

    def show(task, result):  # noqa: ANN001, ANN202
        if not listing:
            return
        if "skipped" in result:
            print(f"{task.name}: skipped ({result['skipped']})")
            return
        cards = [f"{f['card'] or 'unread'}"
                 + (f" {f['confidence']:.2f}" if f["card"] else " (partly hidden)")
                 + (f" seat {f['seat']}" if f.get("seat") else "")
                 for f in result["found"]]
        print(f"{task.name}: {', '.join(cards) if cards else 'no cards'}")

    try:
        tally = run_check(tasks, positioned, ns.crops, workers, ns.models, not ns.quiet, show,
                          ns.deck)
    except (ClassifierError, DetectorError, DeckError) as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    summary = report(tally, str(target), ns.crops)
    if not listing:
        _print_check(summary)
    elif tally.skipped:
        print(f"{len(tally.skipped)} image{'s' if len(tally.skipped) != 1 else ''} skipped")
    written = True
    for out, write in ((ns.report, lambda path: path.write_text(json.dumps(summary, indent=1)
                                                                + "\n")),
                       (ns.errors, lambda path: errors_sheet(tally, path))):
        if not out:
            continue
        try:  # each on its own: one that fails does not lose the other
            write(Path(out))
        except OSError as error:
            print(f"{PROG} {command}: cannot write '{out}': {error.strerror or error}",
                  file=sys.stderr)
            written = False
    if not written:
        return 1
    readable = summary["images"] - len(summary["skipped_images"])
    return 0 if readable > 0 else 1


def _print_check(summary: dict) -> None:  # type: ignore[type-arg]
    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{100 * value:.2f}%"

    print(f"images: {summary['images']} ({len(summary['skipped_images'])} skipped), "
          f"labelled cards: {summary['cards']}")
    print(f"card accuracy: {pct(summary['card_accuracy'])}  detection recall: "
          f"{pct(summary['detection_recall'])}  precision: {pct(summary['detection_precision'])}"
          + (f"  seats: {pct(summary['seat_accuracy'])}" if summary["seat_accuracy"] is not None
             else ""))
    print(f"read right and sure enough to be taken as a play (>= {summary['sure_threshold']}): "
          f"{pct(summary['sure_accuracy'])}")
    wrong = summary["wrong_at_or_above"]
    print(f"read wrongly with confidence >= 0.9: {wrong['0.9']}, >= 0.98: {wrong['0.98']}; "
          f"cards found where none lies, read at >= {summary['sure_threshold']}: "
          f"{summary['false_cards_sure']}")
    for item in summary.get("wrong_confident", [])[:10]:
        print(f"  {item['image']}: {item['truth']} read as {item['read']} "
              f"({item['confidence']:.3f})")
    if summary["confusions"]:
        print("most frequent confusions: " + ", ".join(
            f"{c['truth']}->{c['read']} x{c['count']}" for c in summary["confusions"][:8]))
    weak = sorted(((v["recall"] or 0, k) for k, v in summary["per_class"].items()
                   if v["labelled"]))[:5]
    if weak and weak[0][0] < 1:
        print("lowest recall: " + ", ".join(f"{k} {100 * r:.1f}%" for r, k in weak))
    for item in summary["worst_images"][:5]:
        print(f"  {item['image']}: {'; '.join(item['problems'][:4])}")
    for item in summary["skipped_images"][:10]:
        print(f"  skipped {item['image']}: {item['reason']}")
