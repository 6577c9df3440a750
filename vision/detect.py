"""Find the cards in a picture: their outlines, whether they are whole, and their seat.

A small segmentation network (``models/detector.onnx``, trained by ``python -m vision.train
detector`` on studio pictures) looks at the picture (with a calibration: only the part showing
the table) shrunk to the long side its .yaml gives, ``input_long_side`` pixels, and says, for
every pixel, whether it shows a card and whether it lies in a card's core (the middle of a card,
well inside its edges). Cores tell touching cards apart: each core seeds one card, and the card
pixels around it are shared out between the seeds (a watershed); the cores of two cards lying
over one another can run together, and are cut apart where they narrow. Each card's region is
then fitted with a quadrilateral (on a calibrated table: a card-sized rectangle on the table
plane), which is refined on the full-size picture by snapping its edges to the strongest nearby
edges (``vision.outlines``). The cards found are a ``CardDetections`` (``vision.detections``).
With a calibration the detector can also look at only some seats' zones, which costs about the
share of the table they cover (``vision.motion`` reads only the zones where something has come
to rest).

A card whose region does not fill its outline (a hand over it, the picture's edge through it) is
kept but marked ``whole=False``: the classifier does not read it and the referee asks for it to
be shown again, rather than guessing. With a calibration the outline must also have a card's
size on the table, and the card gets the seat whose zone holds its centre; a region that is not
one whole card there (cards over one another, a card and a hand) is searched for a card lying
on top of it that shows all four edges (``vision.stacks``); one found with a side that does not
show clearly is marked ``back_on_top`` and counts as whole only if the classifier reads it
surely as a card back. An outline that stops at the edge of a card seen whole, a side of it
lying along a stretch of that card's side, is a card half under it, and is not whole either
(``vision.geometry.cut_across``).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import cv2
import numpy as np

from referee.seats import Seat

from .detections import CardDetections
from .geometry import cut_across, edge_hides_part, portrait_orders, runs_off, side_lengths, slanted
from .layout import CARD_MM, TableLayout
from .models import MODELS, load_session
from .outlines import (SNAP_REACH, Grey, back_on_the_edge, card_shaped, cards_shaped,
                       core_outline, fit_on_table, fit_quad, quad_around, refine_quads,
                       refined_twice, region_outline, snapped_cores, to_picture)
from .stacks import top_card
from .table import Calibration, CalibrationError
SPLIT_DEPTH = 0.6  # a core's parts shallower than this share of its deepest point seed nothing
# the table looked at around the zones asked for (``CardDetector.detect``): usually, and when a
# zone read empty does not look it or its card was found in part (``vision.motion``), so the
# network has more around the card (``CardDetector.detect_widely``, which also tries the whole
# table)
ZONE_CONTEXT_MM = 40.0
WIDE_CONTEXT_MM = 100.0
# A card whose middle lies this close (mm) beside one seat's zone, and no other's, is that seat's:
# a card tossed a little wide of its zone is still played (game 2331 at 1280x720: seat 1's 3S,
# its middle 20 mm right of the zone, was never taken). Within ZONE_CONTEXT_MM, so that a zone's
# own look (``seats``) still sees such a card.
SEAT_REACH_MM = 25.0


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
        # (a picture of any size in; a map of cards and one of their cores out)
        inputs, outputs = self.session.get_inputs()[0].shape, self.session.get_outputs()[0].shape
        if len(inputs) != 4 or any(isinstance(side, int) for side in inputs[2:]) \
                or len(outputs) != 4 or outputs[1] != 2:
            raise DetectorError(f"'{model}' is no card detector: it takes {inputs} and gives "
                                f"{outputs}, where a detector takes pictures of any size and "
                                "gives two maps of them")
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
               context_mm: float | None = ZONE_CONTEXT_MM,
               long_side: int | None = None) -> CardDetections:
        """The cards in ``frame`` (BGR). With a ``calibration`` (``vision.table``) each card
        gets its seat, and outlines without a card's size on the table are dropped. ``seats``
        (with a calibration): look only at these seats' zones and return only their cards, at
        the scale the whole table would be seen at, so a card reads the same either way; it
        costs about the share of the table those zones cover. ``context_mm``: how much of the
        table around those zones is looked at too (more: surer to find a card near a zone's
        edge, which the network finds by its surroundings; slower); None: the whole table, as
        the network was trained to see it, still returning only those zones' cards.
        ``long_side`` (without a calibration): shrink the picture's long side to this for the
        network, instead of ``input_long_side`` (a card the network sees at another size may
        come out whole)."""
        x0, y0, view = 0, 0, frame
        seats = None if calibration is None else seats
        if calibration is not None:  # look only at the table, with more pixels for each card
            height, width = frame.shape[:2]
            x0, y0, x1, y1 = table_box(calibration, width, height)
            long_side = self.table_long_side
            if seats is not None and context_mm is not None:
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
                if seats is not None and calibration.seat_at_pixel(*middle, SEAT_REACH_MM) \
                        not in seats:
                    continue  # a neighbour's card: not asked for
                if _on_a_marker(calibration, middle):
                    continue  # the printed markers look like cards to the network
            window = (slice(by, by + bh), slice(bx, bx + bw))
            region = region[window]
            area = cv2.countNonZero(region)
            if area < 12:
                continue
            outline = region_outline(region, (bx, by))
            if outline is None:
                continue
            contour, hull, hull_area = outline
            # on a calibrated table a card-sized region is squared up on the table; any other
            # region (and every region without a calibration) gets the best quadrilateral
            on_table, card_sized = (None, True) if calibration is None else fit_on_table(
                contour, scale, (x0, y0), calibration)
            # (a photograph's edges may cut a card: the network sees the whole picture)
            picture = None if calibration is not None else card.shape[::-1]
            quad = on_table if on_table is not None else (
                to_picture(quad_around(contour, hull, picture), scale, (x0, y0)))
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
            cores.append(None if calibration is not None else core_outline(
                (markers[window] == label) & (core[window] > self.core_threshold),
                scale, (bx / scale + x0, by / scale + y0)))
        if not quads:
            return CardDetections()
        # snap to the picture's edges, then settle them with a short second look
        quads = np.array(quads)
        refined = refined_twice(frame, quads, np.array(reaches))
        refined = back_on_the_edge(quads, refined, frame.shape[1], frame.shape[0])
        shaped = cards_shaped(refined, calibration)
        on_top = np.zeros(len(refined), bool)
        gray = Grey(frame)
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
        tops = [(i, top_card(gray.whole, to_picture(contours[i].reshape(-1, 2), scale,
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
        inside = ~edge_hides_part(refined, frame.shape[1], frame.shape[0])
        seen = np.array(whole, bool) & shaped & inside
        seen &= ~cut_across(q, seen)  # a card half under another
        found = CardDetections(q, np.array(scores, np.float32), seen,
                               [None] * len(q), [None] * len(q), np.zeros(len(q), np.float32),
                               on_top & shaped & inside, from_core=snapped_cores(gray, cores),
                               slanted=None if calibration is not None else slanted(q))
        if calibration is not None:
            found.seats = calibration.seats_at_pixels(q.mean(axis=1), SEAT_REACH_MM)
            if seats is not None:
                found = found[np.array([s in seats for s in found.seats], bool)]
        return found

    def detect_widely(self, frame: np.ndarray, calibration,  # noqa: ANN001
                      seats: Collection[Seat]) -> CardDetections:
        """The cards of the zones of ``seats`` looked for again, where a still zone's own look
        found its card only in part, or none where the pixels say one lies (``vision.motion``,
        ``Plan.wide``): with ``WIDE_CONTEXT_MM`` of the table around those zones, and where
        that too leaves a card of theirs not whole (or finds none), on the whole table as the
        network was trained to see it; the look that finds more of their cards whole. Either
        look alone misses cards the other finds: game 2610 of the studio's 960x540 clips
        (a striped cloth), seat 3's QS found whole only on the whole table; game 2444 (with
        its deck, 1280x720), seat 4's JD found whole only with the wide margin."""
        wide = self.detect(frame, calibration, seats, WIDE_CONTEXT_MM)
        if len(wide) and wide.whole.all():
            return wide
        table = self.detect(frame, calibration, seats, None)
        return table if int(table.whole.sum()) > int(wide.whole.sum()) else wide


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
        fitted = fit_quad(region)
        if fitted is None:
            continue
        quad_small, _ = fitted
        if int(region.sum()) < fill * cv2.contourArea(quad_small.astype(np.float32)):
            continue
        quad = to_picture(quad_small, scale, offset)
        if not card_shaped(quad, calibration):
            continue
        middle = quad_small.mean(axis=0) + 0.7 * (quad_small - quad_small.mean(axis=0))
        mask = np.zeros_like(region)
        cv2.fillConvexPoly(mask, np.round(middle).astype(np.int32), 1)
        cores = inside & (markers > 0)
        if (cores & (mask == 0)).any():
            continue
        markers[cores] = labels[0]
