"""Batch checking: run detection and classification over a labelled image set and say how well
they did (``sueca-referee check``).

Labels files are CSV with a header. Two kinds are read:

- ``image,card,seat,x1,y1,...,x4,y4[,visible]`` (the studio's): detections are matched to the
  labelled outlines (overlap of at least ``MATCH_IOU``, the best overlaps paired first). Rows
  with ``visible`` under ``HIDDEN_BELOW`` are cards a hand or the picture's edge half hides
  (or the cards under the top one of a pile): the detector is meant to refuse those, so they
  count neither for nor against it;
- ``image,card`` (and perhaps ``visible``) only: the cards read in an image are compared with
  its rows as a multiset, position ignored (e.g. close-up photographs of one or a few cards).
  A row with ``visible`` under ``HIDDEN_BELOW`` need not be read, and reading it right is no
  error.

On a table the markers show, a card the detector sees only in part (a hand over it, the
picture's edge through it) is never read. In a plain photograph (no markers) it is read too,
and counts only when the classifier is at least ``PHOTO_MIN_CONFIDENCE`` sure. An outline
lying mostly inside a larger one there is a part of a card, not a card, and is never read
(``vision.geometry.nested``); nor is one that stops at another card's edge, a card half under
it (``vision.geometry.cut_across``).

With ``crops=True`` every image is one card already cut out and upright: it is classified as a
whole. Without a labels file, a folder of images just gets its detections listed.
"""

from __future__ import annotations

import csv
import multiprocessing
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .cardclasses import BACK, CLASSES, is_court
from .detections import CardDetections
from .geometry import common_area, cut_across, nested
from .progress import Progress
from .track import TrackerSettings

# a play is taken only when its reading is at least this sure: cards read right but less
# surely are asked for again, so they count as right in card_accuracy, not in sure_accuracy
SURE = TrackerSettings().min_confidence

MATCH_IOU = 0.5
PHOTO_MIN_CONFIDENCE = 0.9
HIDDEN_BELOW = 0.9
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
POSITION_COLUMNS = ["x1", "y1", "x2", "y2", "x3", "y3", "x4", "y4"]


class LabelsError(ValueError):
    """A labels file that cannot be read; the message names the file and the line."""


@dataclass
class Label:
    card: str
    seat: int | None = None
    quad: np.ndarray | None = None
    visible: float = 1.0

    @property
    def counted(self) -> bool:
        return self.visible >= HIDDEN_BELOW


@dataclass
class ImageTask:
    path: str
    name: str
    labels: list[Label] = field(default_factory=list)


def read_labels(path: Path) -> tuple[list[ImageTask], bool]:
    """The images of a labels file and their labels; also whether it gives positions. Raises
    ``LabelsError`` with the line of the first problem."""
    from referee.cards import Card, CardError

    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise LabelsError(f"labels file '{path}' does not exist") from None
    except UnicodeDecodeError:
        raise LabelsError(f"cannot read labels file '{path}': it is not text (a labels file is "
                          "a CSV: image,card,...)") from None
    except OSError as error:
        raise LabelsError(f"cannot read labels file '{path}': {error.strerror or error}") from None
    rows = list(csv.reader(text.splitlines()))
    if not rows:
        raise LabelsError(f"labels file '{path}' is empty")
    header = [h.strip().lower() for h in rows[0]]
    if header[:2] != ["image", "card"]:
        raise LabelsError(f"labels file '{path}' must start with the columns image,card "
                          f"(line 1 says: {','.join(rows[0])[:60]})")
    positioned = all(c in header for c in POSITION_COLUMNS)
    col = {name: header.index(name) for name in header}
    tasks: dict[str, ImageTask] = {}
    for n, row in enumerate(rows[1:], start=2):
        if not row or all(not v.strip() for v in row):
            continue
        if len(row) < len(header):
            raise LabelsError(f"{path}, line {n}: {len(row)} values for {len(header)} columns")
        name, card = row[0].strip(), row[1].strip().upper()
        if not name:
            raise LabelsError(f"{path}, line {n}: no image name")
        if card != "BACK":
            try:
                card = str(Card.parse(card))
            except (CardError, ValueError):
                raise LabelsError(f"{path}, line {n}: '{row[1]}' is not a card "
                                  "(write rank and suit, e.g. AS, 10H, or 'back')") from None
        else:
            card = "back"
        task = tasks.setdefault(name, ImageTask(str(path.parent / name), name))
        label = Label(card)
        try:
            if positioned:
                label.quad = np.array([float(row[col[c]]) for c in POSITION_COLUMNS]).reshape(4, 2)
                seat = row[col["seat"]].strip() if "seat" in col else ""
                label.seat = int(seat) if seat else None
            if "visible" in col and row[col["visible"]].strip():
                label.visible = float(row[col["visible"]])
        except ValueError:
            raise LabelsError(f"{path}, line {n}: a position, seat or visible value is not a "
                              "number") from None
        if label.quad is not None and not np.isfinite(label.quad).all():
            raise LabelsError(f"{path}, line {n}: a position is not a number")
        if label.seat is not None and not 1 <= label.seat <= 4:
            raise LabelsError(f"{path}, line {n}: seat {label.seat} is not a seat (1 to 4, or "
                              "empty where the picture shows no table)")
        if not 0 <= label.visible <= 1:  # (NaN is not either)
            raise LabelsError(f"{path}, line {n}: visible must be a share between 0 and 1, not "
                              f"{label.visible}")
        task.labels.append(label)
    if not tasks:
        raise LabelsError(f"labels file '{path}' lists no images (only its header)")
    return list(tasks.values()), positioned


def images_in(folder: Path) -> list[ImageTask]:
    return [ImageTask(str(p), p.relative_to(folder).as_posix())
            for p in sorted(folder.rglob("*")) if p.suffix.lower() in IMAGE_SUFFIXES]


# -- the work, one image at a time (in worker processes) -----------------------------------------

_state: dict[str, Any] = {}


def _init(crops: bool, models: str | None, deck: str | None = None) -> None:
    from .classify import CardClassifier
    from .deck import Deck
    from .detect import CardDetector
    from .models import MODELS

    folder = Path(models) if models else MODELS
    _state["classifier"] = CardClassifier(folder / "cards.onnx", threads=1,
                                          deck=Deck.load(deck) if deck else None)
    _state["detector"] = None if crops else CardDetector(folder / "detector.onnx", threads=1)
    _state["crops"] = crops


def _quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    area_a, area_b = abs(cv2.contourArea(a32)), abs(cv2.contourArea(b32))
    inter = common_area(a32, b32)
    union = area_a + area_b - inter
    return float(inter / union) if union > 0 else 0.0


def match_outlines(labelled: list[np.ndarray | None],
                   found: list[Any], ignored: list[bool] | None = None) -> dict[int, int]:
    """Which detection (index into ``found``, outlines or None) is which labelled card
    (index into ``labelled``): the pairs that overlap by at least ``MATCH_IOU``, the best
    overlap first, each label and each detection used once. Going by the best overlap rather
    than the labels' order matters in a pile: the cards under the top one overlap it by half
    or more, and a hidden card listed first must not take the top card's detection.

    ``ignored``: labels that count neither way (cards mostly hidden). A detection goes to a
    label that counts wherever it overlaps one enough, and only a detection left over goes
    to an ignored label (so that it is no false card), as object-detection benchmarks treat
    regions marked "ignore": in a pile whose detection fits the pile's outline better than
    the top card's, the card under the top one must not take it."""
    candidates = []
    for i, quad in enumerate(labelled):
        if quad is None:
            continue
        for j, other in enumerate(found):
            if other is None:
                continue
            iou = _quad_iou(quad, np.asarray(other, np.float64))
            if iou >= MATCH_IOU:
                candidates.append((bool(ignored and ignored[i]), -iou, i, j))
    pairs: dict[int, int] = {}
    taken: set[int] = set()
    for _, _, i, j in sorted(candidates):
        if i not in pairs and j not in taken:
            pairs[i] = j
            taken.add(j)
    return pairs


def _process(task: ImageTask) -> dict[str, Any]:
    from .classify import as_crop
    from .table import CalibrationError, from_markers

    image = cv2.imread(task.path, cv2.IMREAD_COLOR)
    if image is None:
        return {"name": task.name, "skipped": "unreadable or not an image"}
    classifier = _state["classifier"]
    if _state["crops"]:
        names, conf = classifier.classify(as_crop(image, classifier.size)[None])
        return {"name": task.name, "found": [{"card": names[0], "confidence": float(conf[0]),
                                             "quad": None, "whole": True, "seat": None}]}
    try:
        calibration = from_markers(image)
    except CalibrationError:
        calibration = None
    detections = _state["detector"].detect(image, calibration)
    partial = ~detections.whole
    if calibration is None:  # a plain photograph: read what shows, trust only sure readings
        detections.whole[:] = True
    classifier.read(image, detections)
    if calibration is None:
        _read_other_outlines(image, detections, partial, classifier)
        _read_cards_on_top(image, detections, partial, classifier)
        detections, partial = _read_finer(image, detections, partial, classifier,
                                          _state["detector"])
    usable = detections.whole & ~(partial & (detections.confidence < PHOTO_MIN_CONFIDENCE))
    if calibration is None:  # (on a table, an outline is squared up to a card's size)
        usable &= ~(nested(detections.quads, usable) | cut_across(detections.quads, usable))
    found = []
    for i in range(len(detections)):
        seat = detections.seats[i]
        found.append({"card": detections.cards[i] if usable[i] else None,
                      "confidence": float(detections.confidence[i]),
                      "quad": detections.quads[i].round(1).tolist(),
                      "whole": bool(usable[i]), "partial": bool(partial[i]),
                      "seat": seat.number if seat else None})
    return {"name": task.name, "found": found, "calibrated": calibration is not None}


def _read_other_outlines(image: np.ndarray, detections, partial: np.ndarray,  # noqa: ANN001
                         classifier) -> None:  # noqa: ANN001
    """A card not seen whole is read again along the other outlines it may have: where the
    picture's edge cuts it, each outline it may have past the edge (``past_the_edge_guesses``);
    where a hand lies against it or over a side, the outline its core gives (``from_core``);
    where a hand lies across its middle, the card its two ends make (``joined_ends``: both
    ends were read unsure or not seen whole). The surest reading of a card (or a back)
    stands: "not a card" along a guessed outline says only that the guess is wrong. A card
    read along two ends' outline is one card: the second end's own reading goes. Such a card
    counts as partly shown, so it must be read surely to count."""
    from .partial import joined_ends, past_the_edge_guesses

    height, width = image.shape[:2]
    drawn = [(i, guess, -1) for i, quad in enumerate(detections.quads)
             for guess in past_the_edge_guesses(quad, width, height)]
    drawn += [(i, detections.from_core[i], -1) for i in np.flatnonzero(partial)
              if np.isfinite(detections.from_core[i]).all()]
    unsure = partial | (detections.confidence < PHOTO_MIN_CONFIDENCE)
    drawn += joined_ends(detections.quads, unsure)
    if not drawn:
        return
    again = _read_along(image, detections, [(i, guess) for i, guess, _ in drawn], classifier)
    for j, (i, _, other) in enumerate(drawn):
        if again.cards[j] is None:
            continue
        if any(detections.cards[k] is not None
               and detections.confidence[k] >= again.confidence[j] for k in (i, other) if k >= 0):
            continue
        _take(detections, partial, i, again, j)
        if other >= 0:  # the other end of the same card
            detections.cards[other] = None
            detections.confidence[other] = 0.0
            partial[other] = True


def _read_cards_on_top(image: np.ndarray, detections, partial: np.ndarray,  # noqa: ANN001
                       classifier) -> None:  # noqa: ANN001
    """A card of a photograph not seen whole, or read unsurely, may be a region of cards lying
    over one another (two cards pushed together, a fan): it is read again along the outline
    of each card that may lie on top there (``vision.edgelines``), which must have a card's
    size on the table's plane where a card read surely nearby shows it (``card_planes``).
    The first of its outlines (the best-edged first) read surely as a card (not a back: a
    frame inside a court card's face reads as one) takes the region's place and counts as
    partly shown, unless the region was read as surely already; a region seen whole keeps
    its own outline where the card on top reads as the card it was read as already (a frame
    inside the card). Versions of the search without the size and with backs read cards
    wrongly at 0.9 that were not so read before: a nine cut short by a table's stripe as a
    six at 0.995 (a validation design), a court card's inner frame as a back at 0.99."""
    from .detect import card_planes
    from .outlines import cards_shaped
    from .edgelines import cards_on_top

    todo = np.flatnonzero(partial | (detections.confidence < PHOTO_MIN_CONFIDENCE))
    if len(todo) == 0:
        return
    size = (image.shape[1], image.shape[0])
    sure = ~partial & (detections.confidence >= PHOTO_MIN_CONFIDENCE) & np.array(
        [card is not None for card in detections.cards], bool)
    planes = card_planes(detections.quads, sure, list(todo), size)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    drawn = [(i, outline) for i in todo for outline in cards_on_top(gray, detections.quads[i])
             if i not in planes or cards_shaped(outline, planes[i])[0]]
    if not drawn:
        return
    again = _read_along(image, detections, drawn, classifier)
    settled: set[int] = set()
    for j, (i, _) in enumerate(drawn):  # each region's outlines, the best-edged first
        card, confidence = again.cards[j], again.confidence[j]
        if i in settled or card is None or card == BACK or confidence < PHOTO_MIN_CONFIDENCE:
            continue
        settled.add(i)
        if (detections.cards[i] == card and not partial[i]) or (
                detections.cards[i] is not None and detections.confidence[i] >= confidence):
            continue
        _take(detections, partial, i, again, j)


# The long side a photograph is shrunk to for the detector's second, finer look at regions not
# read surely (``_read_finer``; the first look's is the model's, 480). Chosen on the hard
# pictures and close-ups of the test designs, the validation designs' 400 hard pictures and
# the real webcam photos: 640 and 800 read more cards right and none more wrongly at 0.9,
# 800 the more; 960 read more cards wrongly at 0.9 on three of the four sets.
FINER_LONG_SIDE = 800


def _read_finer(image: np.ndarray, detections, partial: np.ndarray,  # noqa: ANN001
                classifier, detector):  # noqa: ANN001, ANN202
    """Regions of a photograph still not read surely are looked at again by the detector at
    a finer scale (``FINER_LONG_SIDE``): cards lying over one another that ran together into
    one region often come apart there. Each card found whole there whose middle lies in such
    a region and that is read surely takes the region's place (the first) or joins it (the
    others), counted as partly shown."""
    todo = np.flatnonzero(partial | (detections.confidence < PHOTO_MIN_CONFIDENCE))
    if len(todo) == 0:
        return detections, partial
    finer = detector.detect(image, None, long_side=FINER_LONG_SIDE)
    inside = {}
    for j in np.flatnonzero(finer.whole):
        middle = tuple(float(v) for v in finer.quads[j].mean(axis=0))
        for i in todo:
            if cv2.pointPolygonTest(detections.quads[i].astype(np.float32), middle, False) >= 0:
                inside[j] = i
                break
    if not inside:
        return detections, partial
    found = sorted(inside)
    finer = finer[np.array(found)]
    regions = [inside[j] for j in found]
    classifier.read(image, finer)
    sure = {c for c, conf in zip(detections.cards, detections.confidence)
            if c is not None and conf >= PHOTO_MIN_CONFIDENCE}
    taken: set[int] = set()
    extra = []
    for k, i in enumerate(regions):
        card = finer.cards[k]
        if card is None or finer.confidence[k] < PHOTO_MIN_CONFIDENCE or (
                card != BACK and card in sure):
            continue
        if i not in taken:
            taken.add(i)
            _take(detections, partial, i, finer, k)
        else:
            extra.append(k)
        sure.add(card)
    if extra:
        detections = CardDetections.joined([detections, finer[np.array(extra)]])
        partial = np.concatenate([partial, np.ones(len(extra), bool)])
    return detections, partial


def _read_along(image: np.ndarray, detections, drawn: list[tuple[int, np.ndarray]],  # noqa: ANN001
                classifier):  # noqa: ANN001, ANN202
    """The cards of ``detections`` named in ``drawn`` (index, outline) read again, each along
    its outline there, as whole cards (read both ways where the outline may be slanted)."""
    from .geometry import portrait_orders, slanted

    again = detections[np.array([i for i, _ in drawn])]
    again.quads[:] = portrait_orders(np.array([outline for _, outline in drawn]))
    again.slanted[:] = slanted(again.quads)
    again.whole[:] = True
    return classifier.read(image, again)


def _take(detections, partial: np.ndarray, i: int, again, j: int) -> None:  # noqa: ANN001
    """Card ``i`` of ``detections`` takes reading ``j`` of ``again`` (``_read_along``) and its
    outline, as a card only partly shown."""
    detections.quads[i] = again.quads[j]
    detections.cards[i] = again.cards[j]
    detections.confidence[i] = again.confidence[j]
    partial[i] = True


# -- comparing ---------------------------------------------------------------------------------


@dataclass
class Tally:
    images: int = 0
    cards: int = 0  # labelled cards that count
    found: int = 0  # of those, found by the detector (whole)
    right: int = 0  # of those, found and read right
    sure: int = 0  # of those, read at least SURE
    detections: int = 0  # whole detections read as a card (not "not a card")
    true_detections: int = 0
    false_sure: int = 0  # detections where no card lies, read as a card at least SURE
    seat_checked: int = 0
    seat_right: int = 0
    wrong_confident: dict[float, int] = field(default_factory=lambda: {0.9: 0, 0.98: 0})
    confusions: Counter = field(default_factory=Counter)
    per_class: dict[str, list[int]] = field(default_factory=dict)  # [tp, fn, fp]
    skipped: list[dict[str, str]] = field(default_factory=list)
    worst: list[tuple[int, str, list[str]]] = field(default_factory=list)
    mistakes: list[dict[str, Any]] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        """Count ``other``'s images and cards in too (a set checked in parts)."""
        for name in ("images", "cards", "found", "right", "sure", "detections",
                     "true_detections", "false_sure", "seat_checked", "seat_right"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for threshold, count in other.wrong_confident.items():
            self.wrong_confident[threshold] = self.wrong_confident.get(threshold, 0) + count
        self.confusions.update(other.confusions)
        for name, counts in other.per_class.items():
            mine = self._cls(name)
            for k in range(3):
                mine[k] += counts[k]
        self.skipped += other.skipped
        self.worst += other.worst
        self.mistakes += other.mistakes

    def _cls(self, name: str) -> list[int]:
        return self.per_class.setdefault(name, [0, 0, 0])

    def wrong(self, truth: str, read: str, confidence: float) -> None:
        self.confusions[(truth, read)] += 1
        for threshold in self.wrong_confident:
            if confidence >= threshold:
                self.wrong_confident[threshold] += 1


def compare(task: ImageTask, result: dict[str, Any], positioned: bool, tally: Tally) -> None:
    tally.images += 1
    if "skipped" in result:
        tally.skipped.append({"image": task.name, "reason": result["skipped"]})
        return
    found = [f for f in result["found"] if f["whole"] and f["card"] is not None]
    problems: list[str] = []
    before = len(tally.mistakes)
    if positioned and not all(lab.quad is None for lab in task.labels) and not (
            len(found) == 1 and found[0]["quad"] is None):
        _compare_positions(task, result, tally, problems)
    else:
        _compare_multiset(task, found, tally, problems)
    for mistake in tally.mistakes[before:]:
        mistake["path"] = task.path
    if problems:
        tally.worst.append((len(problems), task.name, problems))


def _compare_positions(task: ImageTask, result: dict[str, Any], tally: Tally,
                       problems: list[str]) -> None:
    detections = result["found"]
    pairs = match_outlines([label.quad for label in task.labels],
                           [det["quad"] for det in detections],
                           [not label.counted for label in task.labels])
    used = set(pairs.values())
    for n, label in enumerate(task.labels):
        best = pairs.get(n)
        if not label.counted:
            continue
        tally.cards += 1
        det = detections[best] if best is not None else None
        if det is None or not det["whole"]:
            tally._cls(label.card)[1] += 1
            problems.append(f"missed {label.card}")
            tally.mistakes.append({"image": task.name, "truth": label.card, "read": "missed",
                                   "quad": label.quad.tolist()})
            continue
        tally.found += 1
        read = det["card"] or "none"
        if label.seat is not None and result.get("calibrated"):
            tally.seat_checked += 1
            tally.seat_right += int(det["seat"] == label.seat)
        if read == label.card:
            tally.right += 1
            tally.sure += int(det["confidence"] >= SURE)
            tally._cls(label.card)[0] += 1
        else:
            tally._cls(label.card)[1] += 1
            if read != "none":
                tally._cls(read)[2] += 1
            tally.wrong(label.card, read, det["confidence"])
            problems.append(f"{label.card} read as {read} ({det['confidence']:.2f})")
            tally.mistakes.append({"image": task.name, "truth": label.card, "read": read,
                                   "confidence": det["confidence"], "quad": det["quad"]})
    for j, det in enumerate(detections):
        if not det["whole"] or det["card"] is None:
            continue
        tally.detections += 1
        if j in used:
            tally.true_detections += 1
        else:
            tally._cls(det["card"])[2] += 1
            tally.false_sure += int(det["confidence"] >= SURE)
            problems.append(f"false card {det['card']} ({det['confidence']:.2f})")
            tally.mistakes.append({"image": task.name, "truth": "no card", "read": det["card"],
                                   "confidence": det["confidence"], "quad": det["quad"]})


def _compare_multiset(task: ImageTask, found: list[dict[str, Any]], tally: Tally,
                      problems: list[str]) -> None:
    wanted = Counter(lab.card for lab in task.labels if lab.counted)
    got = Counter(f["card"] for f in found)
    matched = wanted & got
    # a half-hidden card read right is neither an error nor a false card (nor does it count)
    excused = (got - matched) & Counter(lab.card for lab in task.labels if not lab.counted)
    got -= excused
    tally.cards += sum(wanted.values())
    tally.detections += sum(got.values()) + sum(excused.values())
    tally.right += sum(matched.values())
    sure = Counter(f["card"] for f in found if f["confidence"] >= SURE)
    tally.sure += sum((matched & sure).values())
    tally.found += min(sum(wanted.values()), sum(got.values()))
    tally.true_detections += min(sum(wanted.values()), sum(got.values())) + sum(
        excused.values())
    for card, n in matched.items():
        tally._cls(card)[0] += n
    surest: dict[str, float] = {}  # each card read: the surest it was read
    for f in found:
        surest[f["card"]] = max(surest.get(f["card"], 0.0), f["confidence"])
    missing = list((wanted - got).elements())
    extra = sorted((got - wanted).elements(), key=lambda c: -surest[c])
    for truth in missing:
        tally._cls(truth)[1] += 1
        if extra:
            read = extra.pop(0)
            confidence = surest[read]
            tally._cls(read)[2] += 1
            tally.wrong(truth, read, confidence)
            problems.append(f"{truth} read as {read} ({confidence:.2f})")
            tally.mistakes.append({"image": task.name, "truth": truth, "read": read,
                                   "confidence": confidence, "quad": None})
        else:
            problems.append(f"missed {truth}")
            tally.mistakes.append({"image": task.name, "truth": truth, "read": "missed",
                                   "quad": None})
    for read in extra:  # (the least sure of those read: the surest were taken as misreads)
        tally._cls(read)[2] += 1
        tally.false_sure += int(surest[read] >= SURE)
        problems.append(f"false card {read} ({surest[read]:.2f})")


def report(tally: Tally, labels: str, crops: bool) -> dict[str, Any]:
    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 5) if b else None

    per_class = {}
    for name in CLASSES:
        if name in tally.per_class:
            tp, fn, fp = tally.per_class[name]
            per_class[name] = {"precision": ratio(tp, tp + fp), "recall": ratio(tp, tp + fn),
                               "labelled": tp + fn}
    worst = sorted(tally.worst, key=lambda w: (-w[0], w[1]))[:20]
    return {
        "labels": labels,
        "mode": "crops" if crops else "pictures",
        "images": tally.images,
        "cards": tally.cards,
        "card_accuracy": ratio(tally.right, tally.cards),
        "sure_accuracy": ratio(tally.sure, tally.cards),
        "sure_threshold": SURE,
        "detection_recall": ratio(tally.found, tally.cards),
        "detection_precision": ratio(tally.true_detections, tally.detections),
        "seat_accuracy": ratio(tally.seat_right, tally.seat_checked),
        "wrong_at_or_above": {str(k): v for k, v in tally.wrong_confident.items()},
        # cards found where none lies (a patch of cloth, a hand) and read as a card surely
        # enough to be taken as a play
        "false_cards_sure": tally.false_sure,
        # the mistakes the referee would have taken as plays: each card read wrongly at least
        # as surely as a play needs, surest first
        "wrong_confident": sorted(
            ({"image": m["image"], "truth": m["truth"], "read": m["read"],
              "confidence": round(m["confidence"], 4)}
             for m in tally.mistakes if _misread(m) and m["confidence"] >= SURE),
            key=lambda m: (-m["confidence"], m["image"])),
        "confusions": [{"truth": t, "read": r, "count": n}
                       for (t, r), n in tally.confusions.most_common(15)],
        "per_class": per_class,
        "worst_images": [{"image": name, "problems": problems} for _, name, problems in worst],
        "skipped_images": tally.skipped,
    }


def run_check(tasks: list[ImageTask], positioned: bool, crops: bool, workers: int,
              models: str | None = None, progress: bool = True,
              on_result: Callable[[ImageTask, dict[str, Any]], None] | None = None,
              deck: str | None = None) -> Tally:
    """``deck``: a deck file (``vision.deck``) whose court cards every reading is weighed by."""
    tally = Tally()
    with Progress("check", len(tasks), enabled=progress) as bar:
        for task, result in zip(tasks, _results(tasks, crops, workers, models, deck)):
            if on_result is not None:
                on_result(task, result)
            compare(task, result, positioned, tally)
            bar.advance()
    return tally


def _results(tasks: list[ImageTask], crops: bool, workers: int,
             models: str | None, deck: str | None = None) -> Iterator[dict[str, Any]]:
    workers = max(1, min(workers, len(tasks) or 1))
    if workers == 1:
        _init(crops, models, deck)
        yield from map(_process, tasks)
        return
    # the models are loaded here first, so that a missing or broken one is raised here (a
    # worker whose start fails is started again and again, and the check would never end)
    _init(crops, models, deck)
    _state.clear()
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(workers, _init, (crops, models, deck)) as pool:
        yield from pool.imap(_process, tasks, chunksize=4)


def sheet_order(mistakes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The mistakes in the order the contact sheet shows them, the ones that matter most
    first: labelled cards read as other cards, surest first (those at or above the referee's
    threshold it would have taken as plays); then the cards missed; then false cards, surest
    first. Within each, the order of the images."""
    def key(item: tuple[int, dict[str, Any]]) -> tuple[int, float, int]:
        n, mistake = item
        kind = 0 if _misread(mistake) else 1 if mistake["read"] == "missed" else 2
        return kind, -mistake.get("confidence", 0.0), n

    return [m for _, m in sorted(enumerate(mistakes), key=key)]


def _misread(mistake: dict[str, Any]) -> bool:
    """Whether a mistake (``Tally.mistakes``) is a labelled card read as something else (with
    a confidence, as ``Tally.wrong`` counts it), not a card missed or a false card."""
    return mistake["truth"] != "no card" and mistake["read"] != "missed"


def card_kind(card: str) -> str:
    """"back", "court" (jack, queen, king) or "pip" (the others, aces included)."""
    return "back" if card == BACK else "court" if is_court(card) else "pip"


def misses_by(tasks: list[ImageTask], mistakes: list[dict[str, Any]],
              group: Callable[[str], str]) -> dict[str, dict[str, Any]]:
    """Where a set's labelled cards go wrong, by a grouping of its images (``group``: image
    name -> group, e.g. the studio design it was drawn with): each group's counted cards and,
    for each kind of card (``card_kind``), how many were not found whole ("missed") and how
    many were read as something else, however unsurely ("misread"). False cards are left
    out: they are no labelled card."""
    groups: dict[str, dict[str, Any]] = {}

    def entry(name: str) -> dict[str, Any]:
        return groups.setdefault(group(name), {
            "cards": 0, "missed": Counter(), "misread": Counter()})

    for task in tasks:
        entry(task.name)["cards"] += sum(label.counted for label in task.labels)
    for mistake in mistakes:
        if mistake["truth"] != "no card":  # (a false card is no labelled card)
            what = "misread" if _misread(mistake) else "missed"
            entry(mistake["image"])[what][card_kind(mistake["truth"])] += 1
    return {name: {"cards": g["cards"], "missed": dict(g["missed"]),
                   "misread": dict(g["misread"])} for name, g in sorted(groups.items())}


def errors_sheet(tally: Tally, out: Path, limit: int = 48) -> int:
    """A contact sheet of the mistakes: each card as cut out, with what it is and what was
    read. Returns how many it shows."""
    from .geometry import rectify

    tiles = []
    for mistake in sheet_order(tally.mistakes)[:limit]:
        image = cv2.imread(mistake["path"], cv2.IMREAD_COLOR) if "path" in mistake else None
        if image is None:
            continue
        if mistake.get("quad") is not None:
            crop = rectify(image, np.array(mistake["quad"]), (96, 144))
        else:
            crop = cv2.resize(image, (96, 144), interpolation=cv2.INTER_AREA)
        tile = cv2.copyMakeBorder(crop, 0, 34, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(tile, f"is {mistake['truth']}", (3, 158), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (0, 120, 0), 1, cv2.LINE_AA)
        said = mistake["read"] + (f" {mistake['confidence']:.2f}" if "confidence" in mistake
                                  else "")
        cv2.putText(tile, f"read {said}", (3, 173), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    (0, 0, 200), 1, cv2.LINE_AA)
        # a card read wrongly as surely as a play needs (the referee would have taken it) is
        # framed in red
        sure = _misread(mistake) and mistake["confidence"] >= SURE
        tiles.append(cv2.copyMakeBorder(tile, 2, 2, 2, 2, cv2.BORDER_CONSTANT,
                                        value=(0, 0, 230) if sure else (80,) * 3))
    if not tiles:
        sheet = np.full((60, 320, 3), 255, np.uint8)
        cv2.putText(sheet, "no mistakes", (10, 38), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 2)
    else:
        columns = 8
        while len(tiles) % columns and len(tiles) > columns:
            tiles.append(np.full_like(tiles[0], 255))
        rows = [np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)]
        sheet = np.vstack(rows)
    try:
        written = cv2.imwrite(str(out), sheet)
    except cv2.error:  # a name whose extension OpenCV has no writer for
        written = False
    if not written:
        raise OSError(f"OpenCV could not write it as '{Path(out).suffix}'")
    return len(tiles)
