"""Labelled still pictures: ``sueca-referee studio images``.

Writes ``OUT/images/NNNNNN.jpg``, ``OUT/labels.csv`` and ``OUT/studio.json`` (the settings, so a
set can be made again). ``labels.csv`` has one row per visible card::

    image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4,visible

corners in picture pixels, clockwise from the card's own top-left; ``seat`` empty when the card
is in no seat's zone; ``card`` is ``back`` for a face-down card; ``visible`` is the fraction of
the card that shows (hands, props, other cards and the picture's edge hide the rest). An image
with no rows shows no card.

Picture ``i`` depends only on (seed, i), so the set is the same whatever ``--workers`` is.
"""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.cards import Card

from ..layout import TableLayout
from ..progress import Progress
from .facesets import FaceSet, face_sets
from .randomize import random_picture
from .scene import CardLabel, render

HEADER = ["image", "card", "seat", "x1", "y1", "x2", "y2", "x3", "y3", "x4", "y4", "visible"]


@dataclass(frozen=True)
class ImageSetSettings:
    count: int
    seed: int = 0
    designs: str = "test"
    difficulty: str = "normal"
    kind: str = "table"  # table, closeup or mixed
    width: int = 1280
    height: int = 720
    markers: float = 0.5  # chance that a table picture shows the ArUco markers


def label_rows(name: str, labels: list[CardLabel]) -> list[list[str]]:
    rows = []
    for label in labels:
        coords = [f"{v:.1f}" for point in label.corners for v in point]
        rows.append([name, str(label.card), str(label.seat.number) if label.seat else "",
                     *coords, f"{label.visible:.2f}"])
    return rows


def picture_kind(settings: ImageSetSettings, index: int) -> str:
    if settings.kind != "mixed":
        return settings.kind
    return "closeup" if index % 4 == 3 else "table"


def render_one(settings: ImageSetSettings, faces: list[FaceSet], layout: TableLayout,
               index: int) -> tuple[Any, list[CardLabel], int]:
    stage, scene, rng = random_picture(settings.seed, index, faces, layout, settings.difficulty,
                                       picture_kind(settings, index), settings.markers,
                                       settings.width, settings.height)
    picture, labels = render(stage, scene, rng)
    return picture, labels, stage.look.jpeg_quality


# Each worker process keeps its own face sets (read once, on first use).
_worker_state: dict[str, Any] = {}


def _init_worker(settings: ImageSetSettings, layout: TableLayout, out: str) -> None:
    _worker_state.update(settings=settings, layout=layout, out=out,
                         faces=face_sets(settings.designs, log=lambda m: None))


def _work(index: int) -> list[list[str]]:
    s = _worker_state
    picture, labels, quality = render_one(s["settings"], s["faces"], s["layout"], index)
    name = f"images/{index:06d}.jpg"
    if not cv2.imwrite(os.path.join(s["out"], name), picture,
                       [cv2.IMWRITE_JPEG_QUALITY, quality]):
        raise OSError(f"cannot write {name} in {s['out']}")
    return label_rows(name, labels)


def write_image_set(out: Path, settings: ImageSetSettings, layout: TableLayout = TableLayout(),
                    workers: int | None = None, progress: bool = True,
                    log: Callable[[str], None] = print) -> Path:
    """Render the set into ``out`` and return the labels file. Raises ``StudioError`` (faces)
    or ``OSError`` (the folder cannot be written)."""
    face_sets(settings.designs, log=log)  # build the face cache here, once, if needed
    (out / "images").mkdir(parents=True, exist_ok=True)
    workers = max(1, min(workers or os.cpu_count() or 1, settings.count or 1))
    started = time.monotonic()
    labels_path = out / "labels.csv"
    partial = labels_path.with_suffix(".csv.partial")
    cards = 0
    with partial.open("w", newline="") as handle, \
            Progress("images", settings.count, enabled=progress) as bar:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for rows in _rendered(settings, layout, str(out), workers):
            writer.writerows(rows)
            cards += len(rows)
            bar.advance()
    partial.replace(labels_path)
    meta = {"settings": asdict(settings), "layout": layout.to_dict(), "images": settings.count,
            "cards": cards, "seconds": round(time.monotonic() - started, 1),
            "workers": workers}
    (out / "studio.json").write_text(json.dumps(meta, indent=1) + "\n")
    return labels_path


def _rendered(settings: ImageSetSettings, layout: TableLayout, out: str,
              workers: int) -> Iterator[list[list[str]]]:
    indices = range(settings.count)
    if workers == 1:
        _init_worker(settings, layout, out)
        yield from map(_work, indices)
        return
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(workers, _init_worker, (settings, layout, out)) as pool:
        yield from pool.imap(_work, indices, chunksize=4)


def deck_picture(faces: FaceSet, seed: int, difficulty: str = "normal",
                 layout: TableLayout = TableLayout(), width: int = 1280,
                 height: int = 720, order: list[str] | None = None, aces: bool = False,
                 ) -> tuple[Any, list[CardLabel]]:
    """A picture of ``faces``' court cards laid out to be shown to the referee
    (``vision.deck``): a row a rank (jacks, queens, kings from the top), each row clubs,
    diamonds, hearts, spades from left to right, and a card back at the end of the first
    row; each card a little askew, on a random table under a random light, seen by a camera
    held roughly square to the rows. The same (faces, seed) always gives the same picture.
    ``order``: the thirteen cards to lay in those places instead (a layout done wrong),
    given as ``vision.deck.PLACES`` gives the places: the jacks, queens and kings, each clubs
    to spades, then the back's place. ``aces``: a picture of the four aces instead, in a row,
    clubs to spades (``vision.deck.ACES``), as shown after the court cards."""
    from ..deck import ACES, PLACES
    from .faces import BACK
    from .randomize import KINDS, random_camera, random_look
    from .scene import CardOnTable, Scene, Stage

    rng = np.random.default_rng([seed, 77])
    cx, cy = layout.centre
    scene = Scene()
    places = [(ace, 0, column + 0.5) for column, ace in enumerate(ACES)] if aces else PLACES
    if order is not None:
        places = [(name, row, column) for name, (_, row, column) in zip(order, places)]
    middle = (max(row for _, row, _ in places)) / 2
    for name, row, column in places:
        x = cx + (column - 2) * 105 + rng.normal(0, 3)
        y = cy + (row - middle) * 130 + rng.normal(0, 3)
        card = name if name == BACK else Card.parse(name)
        scene.cards.append(CardOnTable(card, faces.face(card), (float(x), float(y)),
                                       float(rng.normal(0, 4))))
    frame = np.concatenate([c.corners_mm() for c in scene.cards])
    camera = random_camera(rng, layout, difficulty, width, height, aim=(cx, cy),
                           frame_mm=frame, fill=float(rng.uniform(0.8, 0.95)),
                           yaw=float(rng.normal(0, 4)))
    stage = Stage(camera, layout, str(rng.choice(KINDS)), False, random_look(rng, difficulty),
                  seed=int(rng.integers(2 ** 31)))
    return render(stage, scene, rng)


def enrolled_deck(faces: FaceSet, detector: Any, classifier: Any, first_seed: int = 1,
                  tries: int = 10, aces: bool = False) -> tuple[Any, int, list[str]]:
    """``faces``' court cards shown to the referee (``vision.deck.enrol``) from the first
    studio picture of them (``deck_picture``, seeds ``first_seed`` on) that can be enrolled,
    as players would take a picture again when asked to: the deck, that picture's seed and
    why each picture before it was refused. Raises ``vision.deck.DeckError`` when none of
    ``tries`` pictures can be. ``aces``: the aces are shown too, in a picture of their own
    (the first of its seeds that can be enrolled), and those the classifier is unsure of
    join the deck."""
    from ..deck import DeckError, NothingToKeep, enrol

    def first(aces: bool) -> tuple[Any, int, list[str]]:
        refused = []
        for seed in range(first_seed, first_seed + tries):
            picture, _ = deck_picture(faces, seed, aces=aces)
            try:
                return enrol(picture, detector, classifier, f"studio deck {faces.name} {seed}"
                             + (" aces" if aces else "")), seed, refused
            except NothingToKeep:
                raise
            except DeckError as error:
                refused.append(str(error))
        raise DeckError(f"none of {tries} pictures of {faces.name}'s "
                        f"{'aces' if aces else 'court cards'} could be enrolled: {refused[-1]}")

    deck, seed, refused = first(False)
    if aces:
        try:
            deck = deck.joined(first(True)[0])
        except NothingToKeep:
            pass
    return deck, seed, refused
