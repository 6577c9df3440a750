"""Find the cards in a picture: their outlines, whether they are whole, and their seat.

A small segmentation network (``models/detector.onnx``, trained by ``python -m vision.train
detector`` on studio pictures) looks at the picture (with a calibration: only the part showing
the table) shrunk to the long side its .yaml gives, ``input_long_side`` pixels, and says, for
every pixel, whether it shows a card and whether it lies in a card's core (the middle of a card,
well inside its edges). Cores tell touching cards apart: each core seeds one card, and the card
pixels around it are shared out between the seeds (a watershed); the cores of two cards lying
over one another can run together, and are cut apart where they narrow. Each card's region
is then fitted with a quadrilateral (on a calibrated table: a card-sized rectangle on the table
plane), which is refined on the full-size picture by snapping its edges to the strongest
nearby edges. With a calibration the detector can also look at only some seats' zones, which
costs about the share of the table they cover (``vision.motion`` reads only the zones where
something has come to rest).

A card whose region does not fill its outline (a hand over it, the picture's edge through it) is
kept but marked ``whole=False``: the classifier does not read it and the referee asks for it to
be shown again, rather than guessing. With a calibration the outline must also have a card's
size on the table, and the card gets the seat whose zone holds its centre; a region that is not
one whole card there (cards over one another, a card and a hand) is searched for a card lying
on top of it that shows all four edges (``vision.stacks``); one found with a side that does not
show clearly is marked ``back_on_top`` and counts as whole only if the classifier reads it
surely as a card back.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from referee.seats import Seat

from .geometry import portrait_orders, runs_off, side_lengths, side_pairs, slanted, taper
from .layout import CARD_MM, TableLayout
from .models import MODELS, load_session
from .stacks import top_card
from .table import Calibration, CalibrationError


@dataclass
class CardDetections:
    """Parallel arrays for the cards of one picture (numpy first, like a detections table).

    ``quads`` (N, 4, 2): outlines in picture pixels, clockwise, first edge a short one;
    ``scores`` (N,): how sure the detector is that it is a card; ``whole`` (N,): the card is not
    partly hidden; ``seats``: seat zone of each card (None outside the zones or without a
    calibration); ``cards``: what the classifier read (None until read, or when not whole);
    ``confidence`` (N,): the classifier's confidence (0 until read); ``back_on_top`` (N,): the
    card on top of a pile, found but with a side that does not show clearly (a card back's
    pattern running to its edge looks like the card under it), so not ``whole``; the
    classifier takes it as whole only if it reads a card back there surely (a back is never
    a play, so taking one costs nothing; a face is never trusted on sides it cannot see);
    ``parts``: the part of a whole card the classifier is sure of, whether or not it is sure
    of the card: its suit (``S``) or else its rank (``7``); None otherwise; ``odds``: the
    classifier's likeliest cards for a whole card and their probabilities (``((card, p),
    ...)``, surest first), None until read; ``from_core`` (N, 4, 2): in a picture without a
    calibration, each card's outline as the network's core for it gives it (the core drawn
    out to a whole card and snapped to the picture's edges), which a hand lying against the
    card or across a side spoils less than it spoils the card's region; NaN with a
    calibration, or where the core is too small to measure; ``slanted`` (N,): in a picture
    without a calibration, the outline's sides on the picture do not tell which pair is the
    card's long one (a card seen slantwise: ``vision.geometry.slanted``), so the classifier
    reads it both ways."""

    quads: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    scores: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    whole: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    seats: list[Seat | None] = field(default_factory=list)
    cards: list[str | None] = field(default_factory=list)
    confidence: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    back_on_top: np.ndarray | None = None
    parts: list[str | None] | None = None
    odds: list[tuple[tuple[str, float], ...] | None] | None = None
    from_core: np.ndarray | None = None
    slanted: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.quads)
        if self.slanted is None:
            self.slanted = np.zeros(n, bool)
        if self.from_core is None:
            self.from_core = np.full((n, 4, 2), np.nan, np.float32)
        if self.back_on_top is None:
            self.back_on_top = np.zeros(n, bool)
        if self.parts is None:
            self.parts = [None] * n
        if self.odds is None:
            self.odds = [None] * n
        if n and self.quads.shape[1:] != (4, 2):
            raise ValueError(f"quads must be (N, 4, 2), not {self.quads.shape}")
        for name in ("scores", "whole", "confidence", "back_on_top", "from_core", "slanted"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries for {n} cards")
        for name in ("seats", "cards", "parts", "odds"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries for {n} cards")

    def __len__(self) -> int:
        return len(self.quads)

    def __getitem__(self, keep: np.ndarray) -> CardDetections:
        keep = np.asarray(keep)
        index = np.flatnonzero(keep) if keep.dtype == bool else keep
        return CardDetections(self.quads[index], self.scores[index], self.whole[index],
                              [self.seats[i] for i in index], [self.cards[i] for i in index],
                              self.confidence[index], self.back_on_top[index],
                              [self.parts[i] for i in index], [self.odds[i] for i in index],
                              self.from_core[index], self.slanted[index])

    @staticmethod
    def joined(parts: list[CardDetections]) -> CardDetections:
        """The cards of several readings in one."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return CardDetections()
        return CardDetections(np.concatenate([p.quads for p in parts]),
                              np.concatenate([p.scores for p in parts]),
                              np.concatenate([p.whole for p in parts]),
                              [s for p in parts for s in p.seats],
                              [c for p in parts for c in p.cards],
                              np.concatenate([p.confidence for p in parts]),
                              np.concatenate([p.back_on_top for p in parts]),
                              [s for p in parts for s in p.parts],
                              [o for p in parts for o in p.odds],
                              np.concatenate([p.from_core for p in parts]),
                              np.concatenate([p.slanted for p in parts]))

    @property
    def centres(self) -> np.ndarray:
        return self.quads.mean(axis=1) if len(self) else np.zeros((0, 2), np.float32)


# a card's core, as the detector learns it (``vision.train.detector``): its outline shrunk to
# this share of its size about its centre
CORE_SHARE = 0.55
SPLIT_DEPTH = 0.6  # a core's parts shallower than this share of its deepest point seed nothing
SNAP_REACH = 0.15  # edges are looked for this fraction of a card's short side either side
SLANT = 0.9  # a free quadrilateral replaces the enclosing rectangle when this much smaller
# the longest a card may look in a picture without a calibration, long side over short: a
# card of the standard proportions seen 60 degrees off straight down
MOST_SLANTED = 2.8
# a card the picture's edge cuts (``_cut_by_the_edge``): the most its two sides meeting the edge
# may turn from each other, and the most its own corner may be off square, in degrees
CUT_PARALLEL = 12.0
CUT_SQUARE = 30.0
# a photograph's card seen from close by at a slant is a trapezium whose far side is much the
# shorter: its region's hull is then itself four-sided, and the quadrilateral around the hull
# is taken as the outline when it adds at most ``HUGS`` of the hull's area. How much longer
# its near side may be grows with how much of the picture the card spans (the nearer the
# camera, the more its two ends' distances differ): 1 + ``NEAR_GAIN`` times its longest side
# over the picture's long side, at most ``CLOSE_BY``
HUGS = 0.02
NEAR_GAIN = 2.0
CLOSE_BY = 2.0
# the table looked at around the zones asked for (``CardDetector.detect``): usually, and when a
# zone read empty does not look it (``vision.motion``), so the network has more around the card
ZONE_CONTEXT_MM = 40.0
WIDE_CONTEXT_MM = 100.0
# how close a whole card's sides on a calibrated table must be to a card's, as a share of them
CARD_SIZE_TOLERANCE = 0.22


class DetectorError(RuntimeError):
    """The detector model is missing or broken."""


class CardDetector:
    """``input_long_side``: a whole picture is shrunk to this long side for the network;
    ``table_long_side``: on a calibrated table, the part of the picture showing the table is
    shrunk to this (its cards are bigger there than in a whole picture, so fewer pixels do).
    Both default to the sizes the model's .yaml gives. ``core_threshold``: how sure the net
    must be that a pixel is in a card's middle for it to seed a card (lower finds fainter
    cards, and more false ones). ``fill``: how convex a card's region must be (its area over
    its convex hull's) to count as whole (higher rejects more half-hidden cards, and more
    whole cards whose edges are faint). ``min_side_px``: outlines whose short side is shorter
    (in the full picture) are ignored. ``threads``: onnxruntime threads (default: up to two;
    give 1 when several processes share the cores)."""

    def __init__(self, model: Path | str = MODELS / "detector.onnx",
                 input_long_side: int | None = None, table_long_side: int | None = None,
                 core_threshold: float = 0.5, card_threshold: float = 0.5, fill: float = 0.88,
                 min_side_px: float = 14.0, threads: int | None = None) -> None:
        sizes = _model_input(Path(model))
        self.multiple = sizes["multiple"]
        input_long_side = input_long_side or sizes["long_side"]
        table_long_side = table_long_side or sizes["table_long_side"]
        if not 0 < core_threshold < 1 or not 0 < card_threshold < 1:
            raise ValueError("thresholds must lie between 0 and 1")
        if not 0 < fill <= 1:
            raise ValueError("fill must lie in (0, 1]")
        for side in (input_long_side, table_long_side):
            if side % self.multiple or side < 64:
                raise ValueError(f"the long sides must be multiples of {self.multiple}, "
                                 "at least 64")
        # two threads bring a 1280x720 frame from about 16 to 12 ms on a 2-core machine
        self.session = load_session(model, threads, "detector", DetectorError)
        self.input_name = self.session.get_inputs()[0].name
        self.long_side, self.table_long_side = input_long_side, table_long_side
        self.core_threshold = core_threshold
        self.card_threshold = card_threshold
        self.fill = fill
        self.min_side_px = min_side_px

    # -- the network -----------------------------------------------------------------------

    def probabilities(self, frame: np.ndarray, long_side: float | None = None,
                      ) -> tuple[np.ndarray, np.ndarray, float]:
        """(card, core, scale): per-pixel probabilities at the network's size, and the factor
        from picture pixels to network pixels. ``long_side``: shrink the picture's long side
        to this (default: ``input_long_side``)."""
        h, w = frame.shape[:2]
        scale = (long_side or self.long_side) / max(h, w)
        nw, nh = max(8, int(round(w * scale))), max(8, int(round(h * scale)))
        small = _shrink(frame, (nw, nh))
        pw, ph = -nw % self.multiple, -nh % self.multiple
        if pw or ph:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        tensor = small.astype(np.float32).transpose(2, 0, 1)[None] / 255
        out = self.session.run(None, {self.input_name: tensor})[0][0]
        return out[0, :nh, :nw], out[1, :nh, :nw], scale

    # -- finding cards ---------------------------------------------------------------------

    def detect(self, frame: np.ndarray, calibration=None,  # noqa: ANN001
               seats: Collection[Seat] | None = None,
               context_mm: float = ZONE_CONTEXT_MM,
               long_side: int | None = None) -> CardDetections:
        """The cards in ``frame`` (BGR). With a ``calibration`` (``vision.table``) each card
        gets its seat, and outlines without a card's size on the table are dropped. ``seats``
        (with a calibration): look only at these seats' zones and return only their cards, at
        the scale the whole table would be seen at, so a card reads the same either way; it
        costs about the share of the table those zones cover. ``context_mm``: how much of the
        table around those zones is looked at too (more: surer to find a card near a zone's
        edge, which the network finds by its surroundings; slower). ``long_side`` (without a
        calibration): shrink the picture's long side to this for the network, instead of
        ``input_long_side`` (a card the network sees at another size may come out whole)."""
        x0, y0, view = 0, 0, frame
        seats = None if calibration is None else seats
        if calibration is not None:  # look only at the table, with more pixels for each card
            height, width = frame.shape[:2]
            x0, y0, x1, y1 = table_box(calibration, width, height)
            long_side = self.table_long_side
            if seats is not None:
                whole_table = max(x1 - x0, y1 - y0)
                x0, y0, x1, y1 = table_box(calibration, width, height, seats, context_mm)
                long_side = self.table_long_side * max(x1 - x0, y1 - y0) / whole_table
            view = frame[y0:y1, x0:x1]
        card, core, scale = self.probabilities(view, long_side)
        sure_card = _fill_holes(card > self.card_threshold)
        seeds = ((core > self.core_threshold) & sure_card).astype(np.uint8)
        groups = cv2.connectedComponents(sure_card.astype(np.uint8), connectivity=4)
        _add_missing_seeds(sure_card, seeds, groups)
        seeds = _split_waisted_cores(seeds)
        count, markers = cv2.connectedComponents(seeds, connectivity=4)
        if count <= 1:
            return CardDetections()
        markers = markers.astype(np.int32)
        _join_split_cores(groups, markers, self.fill, calibration, scale, (x0, y0))
        markers[(markers == 0) & ~sure_card] = count  # background seed
        picture = cv2.cvtColor((card * 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
        cv2.watershed(picture, markers)
        quads, reaches, scores, whole, contours, cores = [], [], [], [], [], []
        for label in range(1, count):
            region = ((markers == label) & sure_card).astype(np.uint8)
            bx, by, bw, bh = cv2.boundingRect(region)
            if bw * bh < 12:
                continue
            if calibration is not None:
                middle = ((bx + bw / 2) / scale + x0, (by + bh / 2) / scale + y0)
                if seats is not None and calibration.seat_at_pixel(*middle) not in seats:
                    continue  # a neighbour's card: not asked for
                if _on_a_marker(calibration, middle):
                    continue  # the printed markers look like cards to the network
            window = (slice(by, by + bh), slice(bx, bx + bw))
            region = region[window]
            area = cv2.countNonZero(region)
            if area < 12:
                continue
            outline = _outline(region, (bx, by))
            if outline is None:
                continue
            contour, hull, hull_area = outline
            # on a calibrated table a card-sized region is squared up on the table; any other
            # region (and every region without a calibration) gets the best quadrilateral
            on_table, card_sized = (None, True) if calibration is None else _fit_on_table(
                contour, scale, (x0, y0), calibration)
            # (a photograph's edges may cut a card: the network sees the whole picture)
            picture = None if calibration is not None else card.shape[::-1]
            quad = on_table if on_table is not None else (
                _to_picture(_quad_around(contour, hull, picture), scale, (x0, y0)))
            short = float(side_lengths(quad).min())
            if short < self.min_side_px:
                continue
            # the network's outline is a few of its pixels out: look that far for the edges
            reaches.append(max(5.0, SNAP_REACH * short))
            quads.append(quad)
            scores.append(float(cv2.mean(card[window], region)[0]))
            # A hand over a card bites a notch out of its region (low solidity) or cuts it short
            # (the wrong size or shape for a card).
            whole.append(area / max(hull_area, 1.0) >= self.fill and card_sized)
            contours.append(contour)
            cores.append(None if calibration is not None else _from_core(
                (markers[window] == label) & (core[window] > self.core_threshold),
                scale, (bx / scale + x0, by / scale + y0)))
        if not quads:
            return CardDetections()
        # snap to the picture's edges, then settle them with a short second look
        quads = np.array(quads)
        refined = _refined_twice(frame, quads, np.array(reaches))
        refined = _back_on_the_edge(quads, refined, frame.shape[1], frame.shape[0])
        shaped = cards_shaped(refined, calibration)
        on_top = np.zeros(len(refined), bool)
        gray = _Grey(frame)
        # cards over one another, or a card and a hand, make one region that is not one whole
        # card: a card on top may still show whole (found on the picture itself, so a short look
        # settles its edges). Without a calibration the table's plane is the one the nearest
        # whole card in the picture shows.
        searched = [i for i in range(len(refined)) if not (whole[i] and shaped[i])]
        if calibration is not None:
            planes = dict.fromkeys(searched, calibration)
        else:  # (a card running off the picture has a guessed outline: no plane from it)
            size = (frame.shape[1], frame.shape[0])
            seen = np.array(whole, bool) & shaped & ~runs_off(refined, *size, margin=2.0)
            planes = card_planes(refined, seen, searched, size) if searched else {}
        tops = [(i, top_card(gray.whole, _to_picture(contours[i].reshape(-1, 2), scale,
                                                     (x0, y0)), planes[i]))
                for i in searched if i in planes]
        # on a photograph a top card whose sides do not all show is left as the detector
        # found it (read along its own outline, and trusted only if read surely)
        tops = [(i, top) for i, top in tops
                if top is not None and (calibration is not None or top[1])]
        if tops:
            settled = refine_quads(gray.whole, np.array([corners for _, (corners, _) in tops]),
                                   3.0)
            for (i, (_, shows)), quad in zip(tops, settled):
                refined[i], whole[i] = quad, shows
                on_top[i] = not shows
            shaped[[i for i, _ in tops]] = cards_shaped(settled, calibration)
        q = portrait_orders(refined, None if calibration is None
                            else calibration.to_table_matrix).astype(np.float32)
        inside = ~runs_off(refined, frame.shape[1], frame.shape[0], margin=2.0)
        found = CardDetections(q, np.array(scores, np.float32),
                               np.array(whole, bool) & shaped & inside,
                               [None] * len(q), [None] * len(q), np.zeros(len(q), np.float32),
                               on_top & shaped & inside, from_core=_snapped_cores(gray, cores),
                               slanted=None if calibration is not None else slanted(q))
        if calibration is not None:
            found.seats = calibration.seats_at_pixels(q.mean(axis=1))
            if seats is not None:
                found = found[np.array([s in seats for s in found.seats], bool)]
        return found


def card_planes(quads: np.ndarray, whole: np.ndarray, wanted: list[int],
                size: tuple[int, int]) -> dict[int, Calibration]:
    """For a picture without a calibration: for each region of ``wanted`` (indices into
    ``quads``, (N, 4, 2) outlines), the table's plane as the whole card nearest to it (of
    ``whole``) shows it, as a calibration whose millimetres are that card's own (its short
    side along x); none where no card is whole. Cards lie on one plane, so one card's
    outline maps the table about it well enough to look for a card lying on top of another
    there (``vision.stacks``), whose four sides must then show."""
    candidates = [j for j in np.flatnonzero(whole) if np.isfinite(quads[j]).all()]
    if not candidates:
        return {}
    ordered = portrait_orders(quads[candidates])
    middles = ordered.mean(axis=1)
    short, long = CARD_MM
    card_mm = np.array([(0, 0), (short, 0), (short, long), (0, long)], float)
    made: dict[int, Calibration | None] = {}  # each card's plane, made once
    planes: dict[int, Calibration] = {}
    for i in wanted:
        nearest = int(np.argmin(np.linalg.norm(middles - quads[i].mean(axis=0), axis=1)))
        if nearest not in made:
            try:
                # (a degenerate outline fails here: a calibration checks its points)
                made[nearest] = Calibration(ordered[nearest], card_mm, size, TableLayout(),
                                            source="card", name="card")
            except CalibrationError:
                made[nearest] = None
        if made[nearest] is not None:
            planes[i] = made[nearest]
    return planes


def _on_a_marker(calibration, point: tuple[float, float],  # noqa: ANN001
                 margin_mm: float = 5.0) -> bool:
    """Does the picture point lie on one of the table's marker squares?"""
    x, y = calibration.to_table(np.array([point], float))[0]
    a, m = calibration.layout.area_mm, calibration.layout.marker_mm + margin_mm
    return (x < m or x > a - m) and (y < m or y > a - m)


def _shrink(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` shrunk to ``size`` (w, h): halved (each pixel the average of four) while it
    is at least twice as big and both sides are even, so the scale stays exact, then resized
    the rest of the way, less than twice, by linear interpolation. Averaging that last step
    too costs a 1280x720 frame about 0.7 ms more (OpenCV's averaging resize is slow by a
    factor that is not whole) and reads no more cards right on the hard pictures. A picture
    with odd sides that is still twice too big is averaged down in one step."""
    width, height = size
    while (image.shape[1] >= 2 * width and image.shape[0] >= 2 * height
           and image.shape[1] % 2 == 0 and image.shape[0] % 2 == 0):
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
    far = image.shape[1] >= 2 * width or image.shape[0] >= 2 * height
    return cv2.resize(image, (width, height),
                      interpolation=cv2.INTER_AREA if far else cv2.INTER_LINEAR)


def _model_input(model: Path) -> dict[str, int]:
    """What the model's .yaml says of its input: ``long_side`` (a whole picture's),
    ``table_long_side`` (a calibrated table's; as ``long_side`` when it says nothing) and the
    ``multiple`` the input's sides must be (8 when it says nothing); 256, 256, 8 without one.
    The float weights a model was quantized from (``detector-float.onnx``) share its .yaml."""
    import yaml

    own = model.with_suffix(".yaml")
    if not own.exists() and model.stem.endswith("-float"):
        own = model.with_name(model.stem[:-len("-float")] + ".yaml")
    try:
        given = yaml.safe_load(own.read_text())["input"]
        side = int(given["long_side"])
        return {"long_side": side, "table_long_side": int(given.get("table_long_side", side)),
                "multiple": int(given.get("multiple", 8))}
    except (OSError, yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError):
        return {"long_side": 256, "table_long_side": 256, "multiple": 8}


def table_box(calibration, width: int, height: int,  # noqa: ANN001
              seats: Collection[Seat] | None = None,
              margin_mm: float = ZONE_CONTEXT_MM) -> tuple[int, int, int, int]:
    """The part of the picture (x0, y0, x1, y1) that shows the play area (or only the zones of
    ``seats``) and ``margin_mm`` around it, so that a card on the edge is seen whole."""
    m = margin_mm
    if seats is None:
        a = calibration.layout.area_mm
        table = [(-m, -m), (a + m, -m), (a + m, a + m), (-m, a + m)]
    else:
        table = [(x, y) for zone in calibration.layout.zones() if zone.seat in seats
                 for x in (zone.x0 - m, zone.x1 + m) for y in (zone.y0 - m, zone.y1 + m)]
        if not table:
            raise ValueError("no zone to look at")
    corners = calibration.to_image(np.array(table, float))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    x0, y0 = max(0, min(x0, width - 16)), max(0, min(y0, height - 16))
    x1, y1 = max(x0 + 16, min(x1, width)), max(y0 + 16, min(y1, height))
    # sides a multiple of four pixels: the picture can then be halved twice exactly (_shrink)
    return x0, y0, x1 - (x1 - x0) % 4, y1 - (y1 - y0) % 4


def _fill_holes(mask: np.ndarray, most: float = 0.25) -> np.ndarray:
    """``mask`` with its holes filled: the big red pips of a dimly lit card can read as "not a
    card", which would cut the card into pieces or make it look bitten by a hand. Only holes
    smaller than ``most`` of the region around them are filled, so that table showing between
    cards laid in a ring stays table."""
    inverse = (~mask).astype(np.uint8)
    count, holes = cv2.connectedComponents(inverse, connectivity=4)
    if count <= 2:
        return mask
    # the parts of the inverse that reach the picture's edge are table; most pictures have no
    # other part, and then nothing more is worked out
    on_edge = np.zeros(count, bool)
    on_edge[np.concatenate([holes[0], holes[-1], holes[:, 0], holes[:, -1]])] = True
    on_edge[0] = True  # the mask itself
    enclosed = np.flatnonzero(~on_edge)
    if len(enclosed) == 0:
        return mask
    filled = mask.copy()
    _, regions, region_stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8),
                                                                    connectivity=8)
    for hole in enclosed:
        ys, xs = np.nonzero(holes == hole)
        # the region around the hole: the mask pixel just left of its first pixel
        around = regions[ys[0], xs[0] - 1] if xs[0] > 0 else 0
        if around and len(ys) < most * region_stats[around, cv2.CC_STAT_AREA]:
            filled[ys, xs] = True
    return filled


def _split_waisted_cores(seeds: np.ndarray, keep: float = SPLIT_DEPTH) -> np.ndarray:
    """The seeds with each core that is two cores run together cut in two: the cores of two
    cards lying over one another meet in a waist, like an 8, where a card's own core is a
    solid block. Only the parts of a core deeper than ``keep`` of its deepest point are kept
    as seeds (the watershed gives the rest back to the cards): a waist falls away, a block
    stays one."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(seeds, connectivity=4)
    if count <= 1:
        return seeds
    depth = cv2.distanceTransform(seeds, cv2.DIST_L2, 3)
    out = np.zeros_like(seeds)
    for label in range(1, count):
        x, y, w, h = stats[label, :4]
        window = (slice(y, y + h), slice(x, x + w))
        mine = labels[window] == label
        deep = depth[window] * mine
        out[window] |= (deep >= keep * deep.max()) & mine
    return out


def _add_missing_seeds(sure_card: np.ndarray, seeds: np.ndarray,
                       groups: tuple[int, np.ndarray]) -> None:
    """A card region in which no core was found still gets a seed: the pixels deepest inside
    it (a faint or small card whose core the network was unsure of). ``groups``: the card
    mask's connected regions, (count, labels)."""
    count, regions = groups
    if count <= 1:
        return
    seeded = np.zeros(count, bool)
    seeded[regions[seeds > 0]] = True
    if seeded[1:].all():
        return
    depth = cv2.distanceTransform(sure_card.astype(np.uint8), cv2.DIST_L2, 3)
    for label in np.flatnonzero(~seeded[1:]) + 1:
        inside = regions == label
        deepest = depth[inside].max()
        if deepest >= 1.5:
            seeds[inside & (depth >= 0.7 * deepest)] = 1


def _join_split_cores(groups: tuple[int, np.ndarray], markers: np.ndarray, fill: float,
                      calibration, scale: float,  # noqa: ANN001
                      offset: tuple[int, int]) -> None:
    """Give one label to the core pieces of a card whose core came out broken.

    Under dim or coloured light the network's core can fall apart around a big pip, and each
    piece would seed a fragment of the same card. A group of card pixels that is itself one
    card (a full quadrilateral of a card's shape, and size on a calibrated table) whose core
    pieces all lie in its middle is one card. Two cards side by side make a group of a card's
    proportions too, but each of their cores reaches out of the group's middle. ``groups``:
    the card mask's connected regions, (count, labels)."""
    count, labels_of = groups
    cores = markers > 0
    # the groups that hold more than one core piece, found in one pass over the cores' pixels
    span = int(markers.max()) + 1
    pairs = np.unique(labels_of[cores].astype(np.int64) * span + markers[cores])
    pieces = np.bincount(pairs // span, minlength=count)
    for group in np.flatnonzero(pieces[1:] >= 2) + 1:
        inside = labels_of == group
        labels = np.unique(markers[inside])
        labels = labels[labels > 0]
        region = inside.astype(np.uint8)
        fitted = _fit_quad(region)
        if fitted is None:
            continue
        quad_small, _ = fitted
        if int(region.sum()) < fill * cv2.contourArea(quad_small.astype(np.float32)):
            continue
        quad = _to_picture(quad_small, scale, offset)
        if not _card_shaped(quad, calibration):
            continue
        middle = quad_small.mean(axis=0) + 0.7 * (quad_small - quad_small.mean(axis=0))
        mask = np.zeros_like(region)
        cv2.fillConvexPoly(mask, np.round(middle).astype(np.int32), 1)
        cores = inside & (markers > 0)
        if (cores & (mask == 0)).any():
            continue
        markers[cores] = labels[0]


def _fit_on_table(contour: np.ndarray, scale: float, offset: tuple[int, int],  # noqa: ANN001
                  calibration, snap: float = 0.3) -> tuple[np.ndarray | None, bool]:
    """On a calibrated table every card is a rectangle of a card's size, however the camera
    looks at it: the region whose ``contour`` is given (``_outline``; network pixels, which
    ``scale`` and ``offset`` map to the picture) is seen from above, squared up there and,
    when it is about a card's size, given exactly a card's size about its centre, so a blurred
    or half-seen outline still gives the card's true corners in the picture (which the edge
    snapping then refines). A region far from a card's size gives None. Also says whether the
    region seen has a card's size (within the 22 % that a whole card must be within): a card
    cut short by a hand is snapped to its full size but not called whole."""
    outline = contour.reshape(-1, 2).astype(np.float64)
    # the region's pixels are whole pixels: its outline runs half a pixel outside their centres
    centre = outline.mean(axis=0)
    away = outline - centre
    outline += 0.5 * away / np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-6)
    pixels = _to_picture(outline, scale, offset)
    mm = calibration.to_table(pixels).astype(np.float32)
    (cx, cy), (w, h), angle = cv2.minAreaRect(mm)
    short, long = CARD_MM
    size = (short, long) if w <= h else (long, short)
    off = max(abs(min(w, h) - short) / short, abs(max(w, h) - long) / long)
    if off >= snap:
        return None, False
    box = cv2.boxPoints(((cx, cy), size, angle)).astype(np.float64)
    return calibration.to_image(box), off < CARD_SIZE_TOLERANCE


def _from_core(core: np.ndarray, scale: float, offset: tuple[float, float],
               ) -> np.ndarray | None:
    """The outline of the card whose core is ``core`` (a mask of network pixels; its top-left
    pixel at ``offset`` in the picture): the rectangle of least area around the core, drawn
    out about its centre to a whole card (the network learnt cores as outlines shrunk to
    ``CORE_SHARE``), in picture pixels. None for a core too small to measure. (The network
    draws cores with rounded ends, so the rectangle can lie a few degrees off the card: the
    caller snaps it to the picture's edges. Taking the core's principal axes instead kept a
    rounder core square to its card, but read 8 fewer of the 891 webcam photographs right.)"""
    points = cv2.findNonZero(core.astype(np.uint8))
    if points is None or len(points) < 12:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    # the core's pixels are whole pixels: its outline runs half a pixel outside their centres
    rect = cv2.boxPoints(((cx, cy), (w + 1, h + 1), angle)).astype(np.float64)
    rect = (rect - (cx, cy)) / CORE_SHARE + (cx, cy)
    return (rect + 0.5) / scale - 0.5 + offset


class _Grey:
    """The picture in grey, worked out only when first asked for (``whole``): most frames
    need only the parts about their cards (``_refined_twice``)."""

    def __init__(self, frame: np.ndarray) -> None:
        self.frame, self._whole = frame, None

    @property
    def whole(self) -> np.ndarray:
        if self._whole is None:
            self._whole = _grey(self.frame)
        return self._whole


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


def _refined_twice(frame: np.ndarray, quads: np.ndarray, reaches: np.ndarray) -> np.ndarray:
    """``refine_quads`` with ``reaches``, then again with a short reach (3 px) to settle the
    edges, looking only at the part of the picture about the quads. Each look stays within
    half as much again as its reach of the corners it starts from, so a grey part with
    twice the longest reach and a few pixels to spare all round holds every pixel either
    looks at: the corners are those the whole picture gives (to rounding: in 4 of 270 test
    pictures a near tie between two edges went the other way, moving a corner under a
    pixel), and making grey a zone about its cards costs far less than a 1280x720 frame."""
    height, width = frame.shape[:2]
    spare = 2.0 * float(np.max(reaches, initial=0.0)) + 8.0
    corners = quads.reshape(-1, 2)
    if not np.isfinite(corners).all():
        gray = _grey(frame)
        return refine_quads(gray, refine_quads(gray, quads, reaches), 3.0)
    x0, y0 = np.floor(corners.min(axis=0) - spare).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0) + spare).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x1 - x0 < 2 or y1 - y0 < 2:  # the cards lie off the picture: nothing to snap to
        return quads.astype(np.float64).copy()
    shift = np.array([x0, y0], np.float64)
    part = _grey(frame[y0:y1, x0:x1])
    return refine_quads(part, refine_quads(part, quads - shift, reaches), 3.0) + shift


def _snapped_cores(gray: _Grey | np.ndarray, cores: list[np.ndarray | None]) -> np.ndarray:
    """``cores`` (outlines in picture pixels, or None) snapped to the picture's edges and put
    in portrait order, as an (N, 4, 2) array with NaN for None."""
    out = np.full((len(cores), 4, 2), np.nan, np.float32)
    have = [i for i, c in enumerate(cores) if c is not None]
    if have:
        drawn = np.array([cores[i] for i in have])
        short = np.linalg.norm(drawn - drawn[:, [1, 2, 3, 0]], axis=2).min(axis=1)
        picture = gray.whole if isinstance(gray, _Grey) else gray
        out[have] = portrait_orders(refine_quads(picture, drawn,
                                                 np.maximum(5.0, SNAP_REACH * short)))
    return out


def _to_picture(points: np.ndarray, scale: float, offset: tuple[int, int]) -> np.ndarray:
    """Network pixels (pixel centres at whole numbers) as picture pixels: the network saw the
    part of the picture from ``offset`` shrunk by ``scale``."""
    return (np.asarray(points, np.float64) + 0.5) / scale - 0.5 + offset


def _outline(region: np.ndarray, offset: tuple[int, int] = (0, 0),
             ) -> tuple[np.ndarray, np.ndarray, float] | None:
    """A card region's (network pixels) largest contour (its straight runs given by their ends
    only), its convex hull, and the hull's area counted as the region's pixels are. ``region``
    may be a window of the network's picture whose top-left pixel is at ``offset`` there: the
    contour and hull are given in the whole picture's pixels."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    hull_mask = np.zeros_like(region)
    cv2.fillConvexPoly(hull_mask, hull, 1)
    shift = np.array(offset, contour.dtype)
    return contour + shift, hull + shift, float(cv2.countNonZero(hull_mask))


def _fit_quad(region: np.ndarray) -> tuple[np.ndarray, float] | None:
    """A quadrilateral around a card region (network pixels), and the area of the region's
    convex hull (in the same pixels, counted as the region's are)."""
    outline = _outline(region)
    if outline is None:
        return None
    contour, hull, hull_area = outline
    return _quad_around(contour, hull), hull_area


def _quad_around(contour: np.ndarray, hull: np.ndarray,
                 picture: tuple[int, int] | None = None) -> np.ndarray:
    """The quadrilateral around a region's contour (and its convex hull), on the outside of
    the region's pixels. ``picture``: the (width, height) of the picture the region lies in,
    when the picture's edges may cut the card (a photograph's, not a table's top-down view)."""
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for k in (0.02, 0.04, 0.06, 0.08, 0.1):
        approx = cv2.approxPolyDP(hull, k * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)
    rect_area = cv2.contourArea(rect.astype(np.float32))
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < 0.8 * rect_area:
        # No four corners stand out (a small region is ragged). A card seen at a slant is a
        # parallelogram or a trapezium, not a rectangle: when the quadrilateral that encloses
        # the hull with the least area is clearly tighter than the rectangle, it is the
        # outline. (On a square-on card the rectangle is steadier: a bump on the region's
        # edge can tilt the free quadrilateral.)
        quad = _enclosing_quad(hull.reshape(-1, 2).astype(np.float64))
        if (quad is None or not (_parallel_sided(quad) or _cut_by_the_edge(quad, picture)
                                 or _hugs_a_trapezium(quad, hull, picture))
                or cv2.contourArea(quad.astype(np.float32)) > SLANT * rect_area):
            quad = rect
    # region pixels are whole pixels: the outline runs half a pixel outside their centres
    centre = quad.mean(axis=0)
    direction = quad - centre
    norms = np.linalg.norm(direction, axis=1, keepdims=True)
    return quad + 0.5 * direction / np.maximum(norms, 1e-6) * math.sqrt(2)


def _cut_by_the_edge(quad: np.ndarray, picture: tuple[int, int] | None) -> bool:
    """Is ``quad`` a card the edge of the ``picture`` (width, height) cuts? Such a quadrilateral
    has one or two sides along the edge, where the picture cuts the card, not sides of the
    card's own, so its opposite sides need not match in length: a card cut at a slant shows
    more along the edge than across its far end, and one cut at a corner shows two sides of
    its own, each only as far as the edge. Its own sides must still be a card's: with one side
    along the edge the two that meet it run the same way (``CUT_PARALLEL``); with two, at a
    corner of the picture, the card's own corner across from it is about square
    (``CUT_SQUARE``)."""
    if picture is None:
        return False
    limits, near = _picture_edges(*picture)
    cut = [k for k in range(4) if _edges_under(quad[k], quad[(k + 1) % 4], limits, near)]
    sides = [quad[(k + 1) % 4] - quad[k] for k in range(4)]

    def degrees(u: np.ndarray, v: np.ndarray) -> float:
        cos = abs(float(u @ v)) / max(float(np.linalg.norm(u) * np.linalg.norm(v)), 1e-9)
        return math.degrees(math.acos(min(cos, 1.0)))  # 0: the same way, 90: square

    if len(cut) == 1:
        k = cut[0]
        return degrees(sides[(k + 1) % 4], sides[(k + 3) % 4]) <= CUT_PARALLEL
    if len(cut) == 2 and (cut[1] - cut[0]) % 2 == 1:
        k = cut[0] if cut[1] - cut[0] == 1 else cut[1]
        return degrees(sides[(k + 2) % 4], sides[(k + 3) % 4]) >= 90 - CUT_SQUARE
    return False


def _hugs_a_trapezium(quad: np.ndarray, hull: np.ndarray,
                      picture: tuple[int, int] | None) -> bool:
    """Is ``quad``, around the convex ``hull`` of a photograph's region (``picture`` given),
    the outline of a card seen at a slant from close by? Such a card's region is four-sided
    itself (``quad`` adds at most ``HUGS`` of its area), and its near side may be longer than
    its far one by more than ``_parallel_sided`` allows, the more the larger it looks.
    Two cards side by side, or a card and a hand, make a region with more corners than four;
    a small piece of a card under a hand may be four-sided, but nothing that small in the
    picture is seen that much from close by (``NEAR_GAIN``)."""
    if picture is None:
        return False
    hull_area = cv2.contourArea(hull.reshape(-1, 1, 2).astype(np.float32))
    longest = float(side_lengths(quad).max())
    most = min(CLOSE_BY, 1 + NEAR_GAIN * longest / max(picture))
    return (cv2.contourArea(quad.astype(np.float32)) <= (1 + HUGS) * hull_area
            and _parallel_sided(quad, most))


def _parallel_sided(quad: np.ndarray, most: float = 1.25) -> bool:
    """Are the opposite sides of ``quad`` about as long as each other, as a card's are however
    it is seen (short of a wide-angle view from close by)?"""
    return bool(taper(quad)[0] <= most)


def _enclosing_quad(hull: np.ndarray) -> np.ndarray | None:
    """A quadrilateral around the convex polygon ``hull`` (M, 2): edges are dropped one at a
    time, each time the one whose neighbours, extended to meet, add the least area."""
    points = cv2.approxPolyDP(hull.astype(np.float32).reshape(-1, 1, 2), 0.5, True)
    poly = [p for p in points.reshape(-1, 2).astype(np.float64)]
    while len(poly) > 4:
        best, best_area, best_point = -1, math.inf, None
        n = len(poly)
        for i in range(n):
            # drop edge (i, i+1): extend edges (i-1, i) and (i+1, i+2) to their crossing
            a, b = poly[i - 1], poly[i]
            c, d = poly[(i + 1) % n], poly[(i + 2) % n]
            u, v = b - a, d - c
            cross = u[0] * v[1] - u[1] * v[0]
            if abs(cross) < 1e-9:
                continue
            t = ((c - a)[0] * v[1] - (c - a)[1] * v[0]) / cross
            s = ((c - a)[0] * u[1] - (c - a)[1] * u[0]) / cross
            if t < 1 or s > 0:  # they meet before b or past c: that would cut the polygon
                continue
            meet = a + t * u
            area = abs((b - meet)[0] * (c - meet)[1] - (b - meet)[1] * (c - meet)[0]) / 2
            if area < best_area:
                best, best_area, best_point = i, area, meet
        if best < 0:
            return None
        n = len(poly)
        poly[best] = best_point
        del poly[(best + 1) % n]
    if len(poly) < 4:
        return None
    return np.array(poly)


def refine_quads(gray: np.ndarray, quads: np.ndarray, reaches: np.ndarray,
                 samples: int = 10) -> np.ndarray:
    """Snap each edge of each quad (N, 4, 2) to the strongest edge within its ``reaches`` px
    along the edge's normal, and return the corners where the snapped edges meet; a quad
    keeps its corners where that fails. All the quads' edges are sampled, fitted and met at
    once: per card the work would be a few dozen small array operations, whose overhead
    this shares. Points are complex numbers (x + iy), which halves the operations."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    reaches = np.broadcast_to(np.asarray(reaches, np.float64), (len(quads),))
    out = quads.copy()
    h, w = gray.shape[:2]
    corners = quads[..., 0] + 1j * quads[..., 1]  # (N, 4)
    along = corners[:, _NEXT] - corners  # edge i runs from corner i to corner i + 1
    lengths = np.abs(along)
    todo = np.flatnonzero(lengths.min(axis=1) >= 8)
    if len(todo) == 0:
        return out
    corners, along, lengths, reaches = corners[todo], along[todo], lengths[todo], reaches[todo]
    n = len(todo)
    # the edges' normals, turned to point away from the quad's centre
    normals = 1j * along / lengths
    outward = ((corners + along / 2 - corners.mean(axis=1, keepdims=True))
               * normals.conj()).real < 0
    normals[outward] *= -1
    # each card looks from -reach to +reach in whole steps; shorter reaches are padded
    counts = np.ceil(2 * reaches + 0.5).astype(int)
    k = int(counts.max())
    offsets = np.arange(k) - reaches[:, None]  # (N, K)
    ts = np.linspace(0.15, 0.85, samples)
    points = corners[:, :, None] + ts * along[:, :, None]  # (N, 4, S)
    probe = points[..., None] + offsets[:, None, None, :] * normals[:, :, None, None]
    values = cv2.remap(gray, probe.real.reshape(-1, k).astype(np.float32),
                       probe.imag.reshape(-1, k).astype(np.float32),
                       cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    step = np.abs(np.diff(values.astype(np.float32), axis=1)).reshape(n, 4, samples, k - 1)
    step *= (np.arange(k - 1) < (counts - 1)[:, None])[:, None, None, :]  # within reach
    # the card's own outline is the outermost strong edge (pips and frames lie inside it)
    candidates = (step >= 0.5 * step.max(axis=3, keepdims=True)) & (step > 8)
    strong = candidates.any(axis=3)  # (N, 4, S)
    last = k - 2 - np.argmax(candidates[..., ::-1], axis=3)
    moved = np.take_along_axis(offsets, last.reshape(n, -1), axis=1).reshape(n, 4, samples)
    found = points + (moved + 0.5) * normals[:, :, None]
    refined = _meeting_corners(found, strong)
    usable = (strong.sum(axis=2) >= samples // 2).all(axis=1) & np.isfinite(refined).all(axis=1)
    with np.errstate(invalid="ignore"):
        usable &= np.abs(refined - corners).max(axis=1) <= reaches * 1.5
        usable &= ((refined.real >= -reaches[:, None]) & (refined.imag >= -reaches[:, None])
                   & (refined.real <= w + reaches[:, None])
                   & (refined.imag <= h + reaches[:, None])).all(axis=1)
    out[todo[usable]] = np.stack([refined.real, refined.imag], axis=-1)[usable]
    return out


_NEXT, _BEFORE = np.array([1, 2, 3, 0]), np.array([3, 0, 1, 2])
# Huber's constant (px): points further off a fitted edge than this count for less
HUBER = 1.345


def _meeting_corners(found: np.ndarray, strong: np.ndarray, rounds: int = 3) -> np.ndarray:
    """The corners (N, 4, complex) where straight lines fitted through each edge's strong
    points (``found`` (N, 4, S) complex, ``strong`` (N, 4, S)) meet: corner i where the lines
    of edges i - 1 and i cross, NaN where they do not. Each line is fitted to its points by
    least squares, then again ``rounds`` times with the points far from it weighed down as
    Huber's loss does, so one stray point (a pip, a shadow) cannot tilt it."""
    weights = strong.astype(np.float64)
    for _ in range(rounds + 1):
        total = np.maximum(weights.sum(axis=2), 1e-9)
        centre = (weights * found).sum(axis=2) / total  # (N, 4)
        spread = found - centre[..., None]
        # the weighted mean of the squared offsets points twice the line's angle
        doubled = (weights * spread * spread).sum(axis=2)
        direction = np.sqrt(doubled / np.maximum(np.abs(doubled), 1e-12))
        off = np.abs((spread * direction.conj()[..., None]).imag)
        weights = strong * np.minimum(1.0, HUBER / np.maximum(off, 1e-9))
    before, before_dir = centre[:, _BEFORE], direction[:, _BEFORE]
    crossing = (direction.conj() * before_dir).imag
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(np.abs(crossing) >= 1e-6,
                     (direction.conj() * (centre - before)).imag / crossing, np.nan)
    return before + t * before_dir


# A side this close to the picture's edge (this share of the picture's short side, and at
# least 3 px) is the edge, not the card's: the network's outline stops a little short of it.
ON_THE_EDGE = 0.015


def _picture_edges(width: int, height: int) -> tuple[tuple[tuple[int, float], ...], float]:
    """The picture's four edges, each as (axis, coordinate), and how near an edge a side
    must lie to lie along it (``ON_THE_EDGE``)."""
    limits = ((0, 0.0), (0, width - 1.0), (1, 0.0), (1, height - 1.0))
    return limits, max(3.0, ON_THE_EDGE * min(width, height))


def _edges_under(p: np.ndarray, q: np.ndarray, limits: tuple[tuple[int, float], ...],
                 near: float) -> list[tuple[int, float]]:
    """The picture's edges (of ``limits``, as ``_picture_edges`` gives them) that the side from
    ``p`` to ``q`` lies along, both its ends within ``near`` of it (two only for a side no
    longer than that, at a corner of the picture)."""
    return [(axis, at) for axis, at in limits
            if abs(p[axis] - at) <= near and abs(q[axis] - at) <= near]


def _back_on_the_edge(before: np.ndarray, after: np.ndarray, width: int,
                      height: int) -> np.ndarray:
    """``after`` (N, 4, 2), the outlines ``before`` snapped to the picture's strongest edges,
    with each side that lay along the picture's edge before snapping put back on it.

    A card running off the picture has no edge of its own there, so snapping pulls that side
    in to the nearest strong edge inside the card (a row of pips, the index) and the card
    looks whole and squashed. The sides meeting it are drawn on to the picture's edge
    instead, so the card is seen to run off the picture (``runs_off``) and its crop is
    drawn out past the edge (``past_the_edge``) rather than squashed."""
    out = np.array(after, np.float64)
    limits, near = _picture_edges(width, height)
    by_edge = ((before <= near) | (before >= [width - 1 - near, height - 1 - near])).any(axis=2)
    for n, k in zip(*np.nonzero(by_edge & np.roll(by_edge, -1, axis=1))):
        for axis, at in _edges_under(before[n, k], before[n, (k + 1) % 4], limits, near):
            for corner, other in ((k, (k - 1) % 4), ((k + 1) % 4, (k + 2) % 4)):
                inner, outer = out[n, other], out[n, corner]
                step = outer[axis] - inner[axis]
                if abs(step) < 1e-6:
                    continue  # a side along the edge: nothing to draw on
                t = (at - inner[axis]) / step
                if 1.0 <= t <= 1.5:  # on past its snapped corner, by at most half the side
                    out[n, corner] = inner + t * (outer - inner)
    return out.astype(after.dtype)


# Two ends of one card a hand lies across: the card they make must be about a card's shape
# (this range of long side over short side, slant allowed), each end must span this share of
# its short side, as a card cut straight across does, the two may overlap by at most this
# share of its long side, and together they must cover this share of it.
JOINED_ASPECT = (1.15, 1.8)
JOINED_SPAN = 0.6
JOINED_OVERLAP = 0.1
JOINED_COVER = 0.6


def joined_ends(quads: np.ndarray, candidates: np.ndarray) -> list[tuple[int, np.ndarray, int]]:
    """Pairs ``(i, outline, j)`` of the outlines ``quads`` (N, 4, 2) marked in ``candidates``
    (the caller's: not seen whole, or read unsurely) that may be the two ends of one card with
    a hand across its middle, and the outline of that card: the least rectangle around both.
    Each end spans the card's width (``JOINED_SPAN``), the two lie at its two ends
    (``JOINED_OVERLAP``) and together cover most of it (``JOINED_COVER``); the card has about
    a card's shape (``JOINED_ASPECT``)."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    idx = np.flatnonzero(candidates)
    areas = {i: abs(cv2.contourArea(quads[i].astype(np.float32))) for i in idx}
    pairs = []
    for a in range(len(idx)):
        for b in range(a + 1, len(idx)):
            i, j = idx[a], idx[b]
            both = np.concatenate([quads[i], quads[j]]).astype(np.float32)
            (cx, cy), (w, h), angle = cv2.minAreaRect(both)
            short, long = min(w, h), max(w, h)
            if short < 1 or not JOINED_ASPECT[0] <= long / short <= JOINED_ASPECT[1]:
                continue
            if areas[i] + areas[j] < JOINED_COVER * short * long:
                continue
            # the card's long axis, and each end's extent across and along it
            box = cv2.boxPoints(((cx, cy), (w, h), angle))
            first = box[1] - box[0]
            along = first if np.hypot(*first) >= np.hypot(*(box[2] - box[1])) else box[2] - box[1]
            along = along / np.hypot(*along)
            across = np.array([-along[1], along[0]])
            spans, ends = [], []
            for k in (i, j):
                x = (quads[k] - (cx, cy)) @ along
                y = (quads[k] - (cx, cy)) @ across
                spans.append(y.max() - y.min())
                ends.append((x.min(), x.max()))
            if min(spans) < JOINED_SPAN * short:
                continue
            (lo_i, hi_i), (lo_j, hi_j) = ends
            if min(hi_i, hi_j) - max(lo_i, lo_j) > JOINED_OVERLAP * long:
                continue  # they overlap along the card: not its two ends
            pairs.append((int(i), box.astype(np.float64), int(j)))
    return pairs


def past_the_edge(quad: np.ndarray, width: int, height: int) -> np.ndarray:
    """A card running off the picture: its outline drawn out past the edge to a card's length.

    The network sees only what the picture shows, so such a card's outline stops at the
    picture's edge, and a crop of it would squash the card. Where exactly one side of ``quad``
    lies along the picture's edge and the two sides that meet it already show more than a
    card's short side would (so they must be the long sides), those two sides are drawn out to
    the length a card of that width has. The crop then shows the card in its true shape, its
    missing part filled as the classifier learnt (the edge's pixels drawn out). Any other
    outline is returned as it is. An outline can also stop short of the edge of a card that
    lies whole just inside the picture, so the caller reads both (``vision.check``)."""
    guesses = past_the_edge_guesses(quad, width, height)
    return guesses[0] if len(guesses) == 1 else np.asarray(quad, np.float64).reshape(4, 2)


def past_the_edge_guesses(quad: np.ndarray, width: int, height: int) -> list[np.ndarray]:
    """Every card ``quad`` may be the shown part of, where the picture's edge cuts it: as
    ``past_the_edge``, and also where less of it shows than a card's short side. Then the side
    opposite the edge may be the card's short side (the card runs on past the edge by most of
    its length) or its long side (it lies across the edge): both are drawn out, and which one
    reads surely is the classifier's to say. Where two edges cut it at a corner of the picture,
    only the card's own corner across from it shows, with the index: the two sides that meet
    there run on past the edges, and the card is drawn out from that corner, each side taken
    for its long side and for its short side, as the least card that covers what shows and
    as one ``CORNER_MORE`` times that. Empty where the edges do not cut ``quad`` so."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    limits, near = _picture_edges(width, height)

    def on_edge(p: np.ndarray, q: np.ndarray) -> bool:
        # both ends near one edge of the picture, and the side as a whole nearer still (the
        # corner where a card meets the edge is the least sure point of its outline)
        for axis, at in limits:
            gaps = [max(0.0, v[axis] - at if at == 0 else at - v[axis]) for v in (p, q)]
            if max(gaps) <= 3 * near and sum(gaps) / 2 <= 1.5 * near:
                return True
        return False

    cut = [k for k in range(4) if on_edge(quad[k], quad[(k + 1) % 4])]
    aspect = CARD_MM[1] / CARD_MM[0]
    if len(cut) == 2 and (cut[1] - cut[0]) % 2 == 1:
        return _past_a_corner(quad, cut[0] if cut[1] - cut[0] == 1 else cut[1], aspect)
    if len(cut) != 1:
        return []
    k = cut[0]
    a, b, c, d = (quad[(k + j) % 4] for j in range(4))  # a-b on the edge, c-d the far end
    end = float(np.linalg.norm(d - c))
    shown = float(np.linalg.norm(b - c)), float(np.linalg.norm(a - d))
    seen = min(shown)
    if end < 1 or max(shown) < STUB * end:
        # too little shows to hold a card's index (a card the edge cuts at a slant shows its
        # index at the far end's corner on the longer side)
        return []
    if seen >= end / aspect * 1.05:  # the sides meeting the edge are the card's long sides
        lengths = [end * aspect]
    else:  # the far end may be the card's short side or its long side
        lengths = [end * aspect, end / aspect]

    def drawn_out(length: float) -> np.ndarray:
        out = quad.copy()
        for at_edge, far, index in ((b, c, (k + 1) % 4), (a, d, k)):
            side = at_edge - far
            shown = float(np.linalg.norm(side))
            if shown < length:
                out[index] = far + side / shown * length
        return out

    return [drawn_out(length) for length in lengths]


def _past_a_corner(quad: np.ndarray, k: int, aspect: float) -> list[np.ndarray]:
    """The guesses of ``past_the_edge_guesses`` for ``quad`` whose sides ``k`` and ``k + 1``
    lie along the picture's edges: the card's own corner is corner ``k + 3``."""
    corner = quad[(k + 3) % 4]
    one, other = quad[(k + 2) % 4] - corner, quad[k] - corner
    lengths = float(np.linalg.norm(one)), float(np.linalg.norm(other))
    if min(lengths) < STUB * max(lengths) or min(lengths) < 1:
        return []  # a sliver along one edge
    one, other = one / lengths[0], other / lengths[1]
    guesses = []
    for more in (1.0, CORNER_MORE):
        for along_one, along_other in ((1.0, aspect), (aspect, 1.0)):
            width = max(lengths[0] / along_one, lengths[1] / along_other) * more
            a, b = one * along_one * width, other * along_other * width
            out = np.empty((4, 2))
            out[(k + 3) % 4], out[(k + 2) % 4] = corner, corner + a
            out[(k + 1) % 4], out[k] = corner + a + b, corner + b
            guesses.append(out)
    return guesses


# a card of which less shows past the edge than this share of its far end is not read
STUB = 0.25
# a card cut by two edges is guessed as the least card that covers what shows, and this many
# times bigger (it may run on past both edges by much or little)
CORNER_MORE = 1.3


def _card_shaped(quad: np.ndarray, calibration) -> bool:  # noqa: ANN001
    """Does the outline have a card's proportions (and, on a calibrated table, its size)?
    Without a calibration the picture may look at the card from the side, which squashes it
    along one axis: a card 1.4 times as long as wide, seen 45 degrees off straight down, can
    look square or twice as long as wide; so only outlines much longer than that are
    refused."""
    return bool(cards_shaped(np.asarray(quad).reshape(1, 4, 2), calibration)[0])


def cards_shaped(quads: np.ndarray, calibration) -> np.ndarray:  # noqa: ANN001
    """``_card_shaped`` of each of the quads (N, 4, 2), all at once."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if calibration is not None:
        quads = calibration.to_table(quads.reshape(-1, 2)).reshape(-1, 4, 2)
    pairs = np.sort(side_pairs(quads) / 2, axis=1)
    short, long = pairs[:, 0], pairs[:, 1]
    if calibration is None:
        return long / np.maximum(short, 1e-6) <= MOST_SLANTED
    return ((np.abs(short - CARD_MM[0]) < CARD_SIZE_TOLERANCE * CARD_MM[0])
            & (np.abs(long - CARD_MM[1]) < CARD_SIZE_TOLERANCE * CARD_MM[1]))
