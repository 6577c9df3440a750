"""Table calibration: the homography between the picture and the table plane, and the seats.

Two ways to get it:

- from the four ArUco markers (dictionary 4x4_50, ids 0-3) lying inside the corners of the play
  area (``find_markers`` / ``from_markers``): every marker corner seen is one point pair, so two
  markers are enough and four are better;
- from the four corners of the play area clicked by hand or given on the command line
  (``from_corners``), clockwise from the top-left as seen from above with seat 1 at the bottom.

A ``Calibration`` is written to and read from a small YAML file (``calibration/<name>.yaml``)
that names the seats, the dealer and the zones in table millimetres, so it can be read and
corrected by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.seats import Seat

from .geometry import side_pairs
from .layout import CARD_MM, LayoutError, TableLayout, layout_from_mapping

ARUCO_DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
# the farthest a calibration's picture point may land from its table point, as a share of the
# table's extent (markers found a pixel out land a millimetre or two out; points that fix no
# plane land anywhere)
MISFIT = 0.05
# How big a card must show to be read well: its short side in picture pixels. Measured with
# benchmarks/card_size.py (1,000 studio table pictures of the validation designs, normal
# difficulty, five picture sizes from 1280x720 down to 480x270; 2026-11-27): of the cards
# showing whole, 76-82 % were read right surely enough to be plays at 50 px or more, 64-72 %
# at 35-50 px and 33-49 % under 35 px (the classifier reads a 64x96 crop: a card bigger than
# that gains nothing more)
CARD_PX_GOOD = 50.0
CARD_PX_LEAST = 35.0
# a picture size whose width over height is within this share of a calibration's own has the
# same shape: the calibration is scaled to it (``Calibration.fitted_to``)
ASPECT_SLACK = 0.01


class CalibrationError(ValueError):
    """A calibration that cannot be made or read; the message says why."""


@dataclass(frozen=True)
class Calibration:
    """``image_points`` (picture px) map to ``table_points`` (table mm)."""

    image_points: np.ndarray
    table_points: np.ndarray
    image_size: tuple[int, int]
    layout: TableLayout
    dealer: Seat = Seat(2)
    source: str = "markers"
    name: str = "table"

    def __post_init__(self) -> None:
        if len(self.image_points) != len(self.table_points):
            raise CalibrationError(
                f"{len(self.image_points)} points in the picture but {len(self.table_points)} "
                "on the table: each picture point needs its table point")
        if len(self.image_points) < 4:
            raise CalibrationError("a calibration needs at least four point pairs")
        if not (np.isfinite(self.image_points).all() and np.isfinite(self.table_points).all()):
            raise CalibrationError("a calibration point is not a number")
        if min(self.image_size) < 1:
            raise CalibrationError(f"the picture's size must be positive, not {self.image_size}")
        self.to_table_matrix  # noqa: B018 - points that fix no table plane fail here

    @cached_property
    def to_table_matrix(self) -> np.ndarray:
        """3x3 homography: picture pixels -> table mm (worked out once)."""
        h, _ = cv2.findHomography(self.image_points.astype(np.float64),
                                  self.table_points.astype(np.float64), 0)
        if h is None or not np.isfinite(h).all() or abs(np.linalg.det(h)) < 1e-12:
            raise CalibrationError("the calibration points are degenerate (in a line?)")
        # points that fix no plane (two of four the same, three in a line) still give a
        # matrix, one that does not take the picture's points to their places on the table
        pts = self.image_points.astype(np.float64).reshape(-1, 1, 2)
        off = np.linalg.norm(cv2.perspectiveTransform(pts, h).reshape(-1, 2) - self.table_points,
                             axis=1).max()
        extent = float(np.ptp(self.table_points, axis=0).max())
        if not off <= MISFIT * extent:
            raise CalibrationError("the calibration points are degenerate (in a line, or two "
                                   "the same?): no table plane takes each to its place")
        return h

    @cached_property
    def to_image_matrix(self) -> np.ndarray:
        """3x3 homography: table mm -> picture pixels."""
        return np.linalg.inv(self.to_table_matrix)

    def to_table(self, pixels: np.ndarray) -> np.ndarray:
        pts = np.asarray(pixels, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_table_matrix).reshape(-1, 2)

    def to_image(self, table_mm: np.ndarray) -> np.ndarray:
        pts = np.asarray(table_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.to_image_matrix).reshape(-1, 2)

    def seat_at_pixel(self, x: float, y: float, reach: float = 0.0) -> Seat | None:
        return self.seats_at_pixels(np.array([[x, y]]), reach)[0]

    def seats_at_pixels(self, pixels: np.ndarray, reach: float = 0.0) -> list[Seat | None]:
        """The seat whose zone holds each picture point (N, 2), or None (``reach``: see
        ``TableLayout.seat_at``)."""
        return [self.layout.seat_at(float(x), float(y), reach)
                for x, y in self.to_table(pixels)]

    def fitted_to(self, size: tuple[int, int]) -> Calibration:
        """This calibration for pictures of ``size`` (w, h): itself where that is its own
        size; scaled where the pictures have the same shape at another resolution (a camera
        giving 1280x720 where it was calibrated at 960x540 shows the same view); else a
        ``CalibrationError`` saying what to do (a camera mode of another shape may show
        another part of the view, so no scaling can be trusted)."""
        if tuple(size) == tuple(self.image_size):
            return self
        (w, h), (w0, h0) = size, self.image_size
        if abs((w / h) / (w0 / h0) - 1) > ASPECT_SLACK:
            raise CalibrationError(
                f"the calibration '{self.name}' was made on {w0}x{h0} pictures, but these are "
                f"{w}x{h}, of another shape: calibrate again on a {w}x{h} picture "
                f"('sueca-referee calibrate --image FRAME.png', or '--camera N --width {w} "
                f"--height {h}'), or, live, have the camera give {w0}x{h0} (--width {w0} "
                f"--height {h0})")
        points = self.image_points * np.array([w / w0, h / h0])
        return Calibration(points, self.table_points, (int(w), int(h)), self.layout,
                           self.dealer, self.source, self.name)

    def card_sizes_px(self) -> dict[Seat, float]:
        """For each seat, the short side in picture pixels of a card lying in the middle of
        its zone: the smaller of the card lying along either pair of the table's sides (in
        perspective a card's sides show at different scales), each the mean of its two
        short sides."""
        short, long = CARD_MM
        sizes = {}
        for zone in self.layout.zones():
            cx, cy = zone.centre
            both_ways = [self.to_image(np.array([(-w, -h), (w, -h), (w, h), (-w, h)]) / 2
                                       + (cx, cy)) for w, h in ((short, long), (long, short))]
            sizes[zone.seat] = float(side_pairs(np.array(both_ways)).min() / 2)
        return sizes

    def area_outline(self) -> np.ndarray:
        """The play area's corners in the picture (4x2 px)."""
        a = self.layout.area_mm
        return self.to_image(np.array([(0, 0), (a, 0), (a, a), (0, a)], float))

    def to_dict(self) -> dict[str, Any]:
        layout = self.layout
        zones = {z.seat.number: [[round(x, 1), round(y, 1)] for x, y in z.corners]
                 for z in layout.zones()}
        return {
            "name": self.name,
            "source": self.source,
            "image_size": list(self.image_size),
            "homography_source_px": [[round(float(x), 2), round(float(y), 2)]
                                     for x, y in self.image_points],
            "homography_target_mm": [[round(float(x), 2), round(float(y), 2)]
                                     for x, y in self.table_points],
            "table_mm": [layout.area_mm, layout.area_mm],
            "dealer": self.dealer.number,
            "seats": {n: side for side, n in sorted(layout.seat_sides.items(),
                                                    key=lambda kv: kv[1])},
            "zones_mm": zones,
            "layout": layout.to_dict(),
        }

    def save(self, path: Path) -> None:
        import yaml

        path.parent.mkdir(parents=True, exist_ok=True)
        header = ("# sueca-referee table calibration. homography_source_px are points in the "
                  "camera picture;\n# homography_target_mm are the same points on the table "
                  "(mm, looking down, seat 1's\n# side at the bottom). Zones are the seats' "
                  "play zones in table mm. table_mm, seats and\n# zones_mm are written from "
                  "'layout' for reading: to change them, edit 'layout'.\n")
        path.write_text(header + yaml.safe_dump(self.to_dict(), sort_keys=False,
                                                default_flow_style=None))


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file. Raises ``CalibrationError`` with a one-line reason."""
    import yaml

    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CalibrationError(f"calibration file '{path}' does not exist") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CalibrationError(f"cannot read calibration file '{path}': {error}") from None
    except yaml.YAMLError:
        raise CalibrationError(f"calibration file '{path}' is not valid YAML") from None
    if not isinstance(data, dict):
        raise CalibrationError(f"calibration file '{path}' must hold a mapping")
    try:
        src, dst = (_points(data[key], key) for key in ("homography_source_px",
                                                         "homography_target_mm"))
        size = data["image_size"]
        if (not isinstance(size, list) or len(size) != 2 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer()
                for v in size)):
            raise CalibrationError(f"'image_size' must be the picture's width and height in "
                                   f"pixels, such as [1280, 720], not {size!r}")
        size = (int(size[0]), int(size[1]))
        dealer = data.get("dealer", 2)
        if dealer not in (1, 2, 3, 4) or isinstance(dealer, bool):
            raise CalibrationError(f"'dealer' must be a seat, 1 to 4, not {dealer!r}")
        layout = layout_from_mapping(data.get("layout"), str(path))
        dealer = Seat(int(dealer))
        calibration = Calibration(src, dst, (size[0], size[1]), layout, dealer,
                                  str(data.get("source", "file")), str(data.get("name", path.stem)))
        written = calibration.to_dict()
        for key in DERIVED_KEYS:  # edited by hand, they would be ignored without a word
            if key in data and not _alike(data[key], written[key]):
                raise CalibrationError(f"'{key}' does not match 'layout', which it is written "
                                       "from: to move the seats or their zones, edit 'layout'")
    except KeyError as error:
        raise CalibrationError(f"calibration file '{path}' lacks {error}") from None
    except (TypeError, ValueError, LayoutError) as error:  # (a CalibrationError is a ValueError)
        raise CalibrationError(f"calibration file '{path}': {error}") from None
    return calibration


def _points(value: Any, key: str) -> np.ndarray:
    """The (N, 2) points listed under ``key`` in a calibration file. Raises
    ``CalibrationError`` unless they are pairs of numbers."""
    try:
        points = np.array(value, np.float64)
    except (TypeError, ValueError):
        points = None
    if points is None or points.ndim != 2 or points.shape[1] != 2:
        raise CalibrationError(f"'{key}' must list points as pairs of numbers, such as "
                               "[308.0, 104.0]")
    return points


# what a calibration file shows of its layout, for reading (``Calibration.to_dict``)
DERIVED_KEYS = ("table_mm", "seats", "zones_mm")


def _alike(given: Any, written: Any) -> bool:
    """Whether a value read from a calibration file is the one ``to_dict`` writes (numbers to
    0.05, mapping keys compared as text)."""
    if isinstance(written, dict):
        if not isinstance(given, dict):
            return False
        keyed = {str(k): v for k, v in given.items()}
        return keyed.keys() == {str(k) for k in written} and all(
            _alike(keyed[str(k)], w) for k, w in written.items())
    if isinstance(written, list):
        return (isinstance(given, list) and len(given) == len(written)
                and all(_alike(g, w) for g, w in zip(given, written)))
    if isinstance(written, (int, float)) and not isinstance(written, bool):
        return (isinstance(given, (int, float)) and not isinstance(given, bool)
                and abs(float(given) - float(written)) <= 0.05)
    return bool(given == written)


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The table markers (ids 0-3) visible in ``image``: id -> 4x2 corners (px), clockwise
    from the marker's top-left."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return _markers_in(gray, _marker_detector())


def _marker_detector() -> cv2.aruco.ArucoDetector:
    parameters = cv2.aruco.DetectorParameters()
    # each of a marker's cells read from 8x8 pixels of its squared-up picture, not OpenCV's
    # 4x4: a small, soft, dim marker (the far ones of a 640x480 camera looking from low down
    # at a red felt, some 20 pixels wide: game 2551 of the studio's lift set) is otherwise
    # misread, and with two of four markers the table is not found at all
    parameters.perspectiveRemovePixelPerCell = 8
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY),
                                   parameters)


def _markers_in(gray: np.ndarray, detector: cv2.aruco.ArucoDetector,
                offset: tuple[int, int] = (0, 0), wanted: Collection[int] = MARKER_IDS,
                ) -> dict[int, np.ndarray]:
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, ids.ravel()):
        if int(marker_id) in wanted:
            found[int(marker_id)] = quad.reshape(4, 2).astype(np.float64) + offset
    return found


def markers_near(image: np.ndarray, calibration: Calibration) -> dict[int, np.ndarray]:
    """The table markers found where ``calibration`` puts them, each looked for only in a box
    around its square with a marker's diagonal to spare all round: four small patches instead
    of the whole picture (at 1280x720 about half the time: 1.8 against 3.6 ms), enough to
    see that the table has not moved, or moved a little."""
    height, width = image.shape[:2]
    detector = _marker_detector()
    found: dict[int, np.ndarray] = {}
    for marker_id, square in calibration.layout.marker_squares().items():
        corners = calibration.to_image(np.array(square, float))
        box = _box_around(corners, float(np.linalg.norm(corners[2] - corners[0])),
                          (width, height), 8) if np.isfinite(corners).all() else None
        if box is None:
            continue
        patch = image[box]
        gray = patch if patch.ndim == 2 else cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        found.update(_markers_in(gray, detector, (box[1].start, box[0].start), (marker_id,)))
    return found


def _box_around(corners: np.ndarray, spare: float, size: tuple[int, int],
                least: int) -> tuple[slice, slice] | None:
    """The part of a picture of ``size`` (width, height) holding the picture points
    ``corners`` with ``spare`` pixels all round (rows, columns), or None where it is under
    ``least`` pixels either way once cut to the picture."""
    (x0, y0), (x1, y1) = corners.min(axis=0) - spare, corners.max(axis=0) + spare
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(size[0], int(np.ceil(x1))), min(size[1], int(np.ceil(y1)))
    if x1 - x0 < least or y1 - y0 < least:
        return None
    return slice(y0, y1), slice(x0, x1)


def from_markers(image: np.ndarray, layout: TableLayout = TableLayout(), dealer: Seat = Seat(2),
                 name: str = "table", minimum: int = 2) -> Calibration:
    """Calibrate from the markers in ``image``. Raises ``CalibrationError`` when fewer than
    ``minimum`` of them are visible."""
    h, w = image.shape[:2]
    return _from_found(find_markers(image), (w, h), layout, dealer, name, minimum)


def _from_found(found: dict[int, np.ndarray], size: tuple[int, int], layout: TableLayout,
                dealer: Seat, name: str, minimum: int) -> Calibration:
    """The calibration the markers ``found`` (``find_markers``) give, in a picture of
    ``size`` (w, h)."""
    if len(found) < minimum:
        seen = ", ".join(str(i) for i in sorted(found)) or "none"
        raise CalibrationError(f"found {len(found)} of the 4 table markers (ids seen: {seen}); "
                               f"need at least {minimum}")
    squares = layout.marker_squares()
    src = np.concatenate([found[i] for i in sorted(found)])
    dst = np.concatenate([np.array(squares[i], float) for i in sorted(found)])
    # Markers from one flat table agree on one homography to within a pixel or two (finer
    # than the check every calibration makes of its points, which is said the same way here)
    off_plane = CalibrationError("the markers seen do not lie on one table plane "
                                 f"(ids {', '.join(str(i) for i in sorted(found))})")
    try:
        calibration = Calibration(src, dst, size, layout, dealer, "markers", name)
    except CalibrationError:
        raise off_plane from None
    back = calibration.to_image(dst)
    side = float(np.median([np.linalg.norm(q[1] - q[0]) for q in found.values()]))
    if np.abs(back - src).max() > max(2.0, 0.15 * side):
        raise off_plane
    return calibration


def from_corners(corners: np.ndarray, image_size: tuple[int, int],
                 layout: TableLayout = TableLayout(), dealer: Seat = Seat(2),
                 name: str = "table") -> Calibration:
    """Calibrate from the play area's four corners in the picture, clockwise from the
    top-left (as seen from above, seat 1's side at the bottom)."""
    corners = np.asarray(corners, np.float64).reshape(-1, 2)
    if corners.shape != (4, 2):
        raise CalibrationError("give exactly four corners: x1,y1,x2,y2,x3,y3,x4,y4")
    a = layout.area_mm
    area = abs(cv2.contourArea(corners.astype(np.float32)))
    if area < 0.01 * image_size[0] * image_size[1]:
        raise CalibrationError("the four corners enclose almost nothing; give them clockwise "
                               "from the play area's top-left")
    table = np.array([(0, 0), (a, 0), (a, a), (0, a)], float)
    return Calibration(corners, table, image_size, layout, dealer, "corners", name)


def parse_corners(text: str) -> np.ndarray:
    """``x1,y1,x2,y2,x3,y3,x4,y4`` -> 4x2 array. Raises ``CalibrationError``."""
    try:
        values = [float(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError:
        raise CalibrationError(f"corners must be eight numbers, not '{text}'") from None
    if len(values) != 8 or not all(math.isfinite(v) for v in values):
        raise CalibrationError(f"corners must be eight numbers x1,y1,...,x4,y4, not '{text}'")
    return np.array(values).reshape(4, 2)


def marker_sheet(layout: TableLayout = TableLayout(), dpi: int = 300) -> np.ndarray:
    """A printable A4 page (grey image) with the four markers at their true size."""
    mm = dpi / 25.4
    page = np.full((int(297 * mm), int(210 * mm)), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICTIONARY)
    side = int(round(layout.marker_mm * mm))
    where = {0: "top-left", 1: "top-right", 2: "bottom-right", 3: "bottom-left"}
    for k, marker_id in enumerate(MARKER_IDS):
        cx = int((55 + 100 * (k % 2)) * mm)
        cy = int((80 + 120 * (k // 2)) * mm)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        page[cy - side // 2:cy - side // 2 + side, cx - side // 2:cx - side // 2 + side] = marker
        box = int((layout.marker_mm / 2 + 8) * mm)
        cv2.rectangle(page, (cx - box, cy - box), (cx + box, cy + box), 180, 1)
        for n, line in enumerate((f"marker {marker_id}", f"{where[marker_id]} corner")):
            cv2.putText(page, line, (cx - box, cy + box + int((6 + 6 * n) * mm)),
                        cv2.FONT_HERSHEY_SIMPLEX, 1.2 * dpi / 300, 0, max(1, dpi // 150),
                        cv2.LINE_AA)
    note = [f"Cut along the grey lines. Lay the markers inside the corners of a "
            f"{layout.area_mm:.0f} mm square,",
            f"printed side up, each {layout.marker_mm:.0f} mm wide (check with a ruler). "
            f"Seat 1 sits at the bottom side,",
            "seat 2 at the left, seat 3 at the top, seat 4 at the right (see config.yaml)."]
    for n, line in enumerate(note):
        cv2.putText(page, line, (int(12 * mm), int((20 + 6 * n) * mm)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.95 * dpi / 300, 0, max(1, dpi // 150),
                    cv2.LINE_AA)
    return page


def card_size_verdict(sizes: dict[Seat, float]) -> tuple[list[int], list[int]]:
    """The seats (numbers) whose cards show too small to be read well (under
    ``CARD_PX_LEAST``), and those whose cards show small (under ``CARD_PX_GOOD``)."""
    ordered = sorted(sizes.items(), key=lambda item: item[0].number)
    return ([seat.number for seat, px in ordered if px < CARD_PX_LEAST],
            [seat.number for seat, px in ordered if CARD_PX_LEAST <= px < CARD_PX_GOOD])


def card_size_advice(sizes: dict[Seat, float]) -> str:
    """One line on whether the cards will show big enough in the picture to be read well,
    from each seat's card size in pixels (``Calibration.card_sizes_px``), with what to do if
    not (the thresholds and their figures: ``CARD_PX_GOOD``)."""
    ordered = sorted(sizes.items(), key=lambda item: item[0].number)
    each = ", ".join(f"seat {seat.number} {px:.0f}" for seat, px in ordered)
    said = (f"a card will show {min(sizes.values()):.0f}-{max(sizes.values()):.0f} px across "
            f"({each})")
    too_small, small = card_size_verdict(sizes)
    if not too_small and not small:
        return f"{said}: big enough to be read well"
    found = []
    if too_small:
        found.append(f"too small {_seats(too_small, len(sizes))} (under {CARD_PX_LEAST:.0f} px "
                     "only about half the cards are read surely enough to be plays)")
    if small:
        found.append(f"small {_seats(small, len(sizes))} (about 2 cards in 3 are read surely "
                     f"at {CARD_PX_LEAST:.0f}-{CARD_PX_GOOD:.0f} px, 4 in 5 from "
                     f"{CARD_PX_GOOD:.0f} px; the rest are asked for again)")
    return (f"{said}: {'; '.join(found)}. Bring the camera closer to the table, zoom in, or "
            "give it a higher resolution (live --width/--height)")


def _seats(numbers: list[int], of: int) -> str:
    """'in seat 3', 'in seats 2, 3 and 4', 'in every seat'."""
    if len(numbers) == of:
        return "in every seat"
    if len(numbers) == 1:
        return f"in seat {numbers[0]}"
    return "in seats " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


class CalibrationKeeper:
    """Keeps a calibration up to date while frames come in: the markers are looked for again
    every ``recheck_s`` seconds of video, so a nudged camera recovers by itself, and at once
    where the picture around the markers changes (a camera knocked: ``marker_thumbs``). A fixed
    calibration (from a file, ``fixed=True``) is only scaled to the frames' size
    (``Calibration.fitted_to``), which is said through ``say``, and, with ``follow``, moved
    with the picture where the camera is knocked (``_follow``: no markers are looked for).
    ``minimum`` is how many markers a new calibration needs; a frame where too few show keeps
    the old calibration."""

    def __init__(self, calibration: Calibration | None = None, layout: TableLayout = TableLayout(),
                 dealer: Seat = Seat(2), recheck_s: float = 3.0, fixed: bool = False,
                 minimum: int = 3, say: Callable[[str], None] | None = None,
                 follow: bool = True) -> None:
        if recheck_s <= 0:
            raise ValueError("recheck_s must be positive")
        self.say = say
        self.calibration = calibration
        self.layout, self.dealer = layout, dealer
        self.recheck_s, self.fixed, self.minimum = recheck_s, fixed, minimum
        self._last_check: float | None = None
        # the markers' neighbourhoods at the last look (where the calibration then in use saw
        # them, and how they looked), to tell a knocked camera at once
        self._boxes: list[tuple[slice, slice]] = []
        self._thumbs: list[np.ndarray] = []
        self._last_thumbs: list[np.ndarray] = []  # how they looked on the frame before
        self.moves = 0  # how many times the table was found somewhere else
        # a fixed calibration: the picture the table was last known in (``_follow``)
        self.follow = follow
        self._reference: np.ndarray | None = None
        self._plain_said = False  # (``PLAIN_CORNERS_NOTE``, said once)

    def update(self, frame: np.ndarray, time_s: float) -> Calibration | None:
        """The calibration to use for ``frame`` (None while the table has never been found).
        A fixed calibration made at another picture size is scaled to the frame's, said once
        through ``say``; one of another shape raises ``CalibrationError``."""
        size = (frame.shape[1], frame.shape[0])
        if self.fixed and self.calibration is not None:
            if size != tuple(self.calibration.image_size):
                before = self.calibration.image_size
                self.calibration = self.calibration.fitted_to(size)
                self._boxes = []  # the play area's corners are looked at afresh
                if self.say is not None:
                    self.say(f"the calibration '{self.calibration.name}' was made on "
                             f"{before[0]}x{before[1]} pictures and these are {size[0]}x"
                             f"{size[1]}: scaled to fit (calibrate again at this size if the "
                             "seat zones look wrong)")
            if self.follow:
                self._follow(frame)
            return self.calibration
        # (pictures of another size, as a folder of photos may hold, are looked at afresh)
        fits = self.calibration is not None and tuple(self.calibration.image_size) == size
        if not fits or self._last_check is None or time_s - self._last_check >= self.recheck_s \
                or self._markers_changed(frame):
            self._last_check = time_s
            found = self._look_again(frame)
            if found is not None:
                if not fits:
                    self.calibration = found
                elif _moved(self.calibration, found) and not _agrees(self.calibration, found):
                    self.moves += 1
                    self.calibration = found
                # else the table is where it was: keep the same object, so whatever was worked
                # out from it (zone masks, the last reading) still holds
            self._remember_markers(frame)
        if self.calibration is not None and tuple(self.calibration.image_size) != size:
            try:  # no markers in this picture of another size: the last table, if it fits
                return self.calibration.fitted_to(size)
            except CalibrationError:
                return None
        return self.calibration

    def _remember_markers(self, frame: np.ndarray) -> None:
        """How the markers' neighbourhoods look now, where the calibration in use puts them
        (also after a look that found too few markers: a hand lying over them then does not
        make every frame a look again, and its going away is a change)."""
        fits = self.calibration is not None \
            and tuple(self.calibration.image_size) == (frame.shape[1], frame.shape[0])
        self._boxes = marker_boxes(self.calibration) if fits else []
        self._thumbs = self._last_thumbs = marker_thumbs(frame, self._boxes)

    def _markers_changed(self, frame: np.ndarray) -> bool:
        """Whether ``MARKERS_CHANGED`` of the markers' neighbourhoods (or of the play area's
        corners', ``_follow``) look otherwise than at the last look, and as on the frame
        before: the camera has moved and come to rest (or things lie over them). A change on
        one frame only (a shadow, the light dipping) and a camera still moving are not looked
        at."""
        if len(self._boxes) < MARKERS_CHANGED:
            return False
        now = marker_thumbs(frame, self._boxes)
        before, self._last_thumbs = self._last_thumbs, now
        changed = sum(float(np.abs(a - b).mean()) > MARKER_CHANGE
                      and float(np.abs(a - c).mean()) <= MARKER_CHANGE / 2
                      for a, b, c in zip(now, self._thumbs, before))
        return changed >= MARKERS_CHANGED

    def _follow(self, frame: np.ndarray) -> None:
        """Move a fixed calibration with the picture where the camera has been knocked: the
        picture around ``MARKERS_CHANGED`` of the play area's four corners (``corner_boxes``)
        looks otherwise than at the last look, and as on the frame before (as for markers,
        ``_markers_changed``). The whole picture is then lined up with the one the table was
        last known in (``moved_by``); where that fits, the calibration's picture points move
        with it. Where it does not (a hand over two corners, a picture too plain to line up),
        the calibration stays, and so does the picture it is lined up with next time."""
        if not self._boxes:
            self._boxes = corner_boxes(self.calibration)
            self._thumbs = self._last_thumbs = marker_thumbs(frame, self._boxes)
            self._reference = _plain_grey(frame)
            shown = _textured(self._reference,
                              _shrunk(self._boxes, frame.shape[1] / self._reference.shape[1]))
            if self.say is not None and not self._plain_said and shown < MARKERS_CHANGED:
                self._plain_said = True
                self.say(PLAIN_CORNERS_NOTE)
            return
        if not self._markers_changed(frame):
            return
        now = _plain_grey(frame)
        move = moved_by(self._reference, now, frame.shape[1] / now.shape[1], self._boxes,
                        self.calibration.area_outline())
        if move is not None:
            points = cv2.perspectiveTransform(self.calibration.image_points[None], move)[0]
            found = replace(self.calibration, image_points=points)
            if _moved(self.calibration, found):
                shift = np.linalg.norm(points - self.calibration.image_points, axis=1).max()
                self.moves += 1
                self.calibration = found
                self._boxes = corner_boxes(found)
                if self.say is not None:
                    self.say(f"the picture moved (up to {shift:.0f} px): the table was lined "
                             "up again by the picture around its corners (calibrate again if "
                             "the seat zones look wrong)")
            self._reference = now
        self._thumbs = self._last_thumbs = marker_thumbs(frame, self._boxes)

    def _look_again(self, frame: np.ndarray) -> Calibration | None:
        """The calibration the markers give now: looked for first where the table was (a
        quick look, ``markers_near``), then, if too few show there, in the whole picture."""
        h, w = frame.shape[:2]
        if self.calibration is not None and self.calibration.image_size == (w, h):
            try:
                return _from_found(markers_near(frame, self.calibration), (w, h), self.layout,
                                   self.dealer, "table", self.minimum)
            except CalibrationError:
                pass
        try:
            return from_markers(frame, self.layout, self.dealer, minimum=self.minimum)
        except CalibrationError:
            return None


# A picture whose markers' neighbourhoods look otherwise than at the last look, by this mean
# change of level (0-255) in at least ``MARKERS_CHANGED`` of them, is looked at again at once
# (the camera knocked), not at the next recheck; each neighbourhood is the marker's square
# grown by ``MARKER_MARGIN`` of its side all round, sampled about ``MARKER_THUMB`` pixels
# square. (Studio clips: 1.3-2.1 from frame to frame, 20-70 in a knocked camera's first
# frame.)
MARKER_CHANGE = 12.0
MARKERS_CHANGED = 2
MARKER_MARGIN = 0.5
MARKER_THUMB = 12


def marker_boxes(calibration: Calibration) -> list[tuple[slice, slice]]:
    """Where in the picture each marker's neighbourhood lies (rows, columns), as the
    calibration sees it: a box around the marker's square grown by ``MARKER_MARGIN``, cut to
    the picture (markers wholly outside it are left out)."""
    boxes = []
    for square in calibration.layout.marker_squares().values():
        corners = np.array(square, np.float64)
        middle = corners.mean(axis=0)
        grown = middle + (corners - middle) * (1 + 2 * MARKER_MARGIN)
        box = _box_around(calibration.to_image(grown), 0.0, calibration.image_size, 4)
        if box is not None:
            boxes.append(box)
    return boxes


# A fixed calibration (no markers) follows a knocked camera by the picture around the play
# area's four corners, each a square of ``CORNER_BOX_MM`` on the table about the corner: where
# ``MARKERS_CHANGED`` of them have changed and come to rest, the whole picture, grey, shrunk to
# ``FOLLOW_SIDE`` pixels on its long side and blurred, is lined up with the picture the table
# was last known in (``moved_by``, about 0.14 s on this 2-core machine, only then). The lining
# up must match the two about two of the corners (``FOLLOW_MATCH``, a correlation) better than
# no move does, and move no corner of the picture farther than ``FOLLOW_FARTHEST`` of its long
# side; else the table is taken not to have moved. A corner's neighbourhood looked for on its
# own (``_corners_found``) must match at ``CORNER_FOUND``. Measured on studio pictures
# (960x540, five surfaces, the camera moved 18-108 mm and turned 1.5-5 degrees, the play
# area's corners 20-119 px): with markers lying at the corners 17 of 20 knocks were followed,
# to 0.1-0.4 px (the three left were the largest, a marker out of the picture); on bare
# cloths most were left (a plain cloth lines up anywhere, and no match reaches 0.97), two on
# green felt followed to 1.8 px, and three on the patterned cloth, whose pattern repeats, to
# 3-37 px (of 20-61 moved).
CORNER_BOX_MM = 90.0
FOLLOW_SIDE = 320
FOLLOW_MATCH = 0.97
FOLLOW_FARTHEST = 0.25
CORNER_FOUND = 0.8


def corner_boxes(calibration: Calibration) -> list[tuple[slice, slice]]:
    """Where in the picture the neighbourhood of each of the play area's corners lies (rows,
    columns): a square of ``CORNER_BOX_MM`` about the corner on the table, cut to the picture
    (corners wholly outside it are left out)."""
    a, half = calibration.layout.area_mm, CORNER_BOX_MM / 2
    boxes = []
    for x, y in ((0, 0), (a, 0), (a, a), (0, a)):
        square = np.array([(x - half, y - half), (x + half, y - half), (x + half, y + half),
                           (x - half, y + half)], float)
        box = _box_around(calibration.to_image(square), 0.0, calibration.image_size, 4)
        if box is not None:
            boxes.append(box)
    return boxes


# A corner's neighbourhood whose grey levels (``_plain_grey``) spread less than this (their
# standard deviation, 0-255) shows nothing to line a picture up by. Studio pictures: bare felt,
# wood and plain cloth 0.9-2.4; a patterned cloth 8-13; a marker lying there 28-47.
PLAIN_CORNER = 5.0
PLAIN_CORNERS_NOTE = ("the play area's corners look plain in the picture: a knocked camera "
                      "cannot be followed by them (calibrate again after a knock, or lay "
                      "something patterned by two of the corners, such as the markers)")


def corners_to_follow_by(frame: np.ndarray, calibration: Calibration) -> int:
    """How many of the play area's corners (``corner_boxes``) show enough in ``frame`` to line
    a moved picture up by (``PLAIN_CORNER``): a fixed calibration follows a knock only where
    ``MARKERS_CHANGED`` of them do."""
    grey = _plain_grey(frame)
    return _textured(grey, _shrunk(corner_boxes(calibration), frame.shape[1] / grey.shape[1]))


def _textured(grey: np.ndarray, boxes: list[tuple[slice, slice]]) -> int:
    """How many of ``boxes`` (in ``grey``'s pixels) spread its grey levels by ``PLAIN_CORNER``
    or more."""
    return sum(grey[box].size > 0 and float(grey[box].std()) >= PLAIN_CORNER for box in boxes)


def _shrunk(boxes: list[tuple[slice, slice]], scale: float) -> list[tuple[slice, slice]]:
    """``boxes`` (rows, columns) of a full-size picture in the pixels of one ``scale`` times
    smaller (``_plain_grey``), grown to whole pixels."""
    return [(slice(int(r.start / scale), int(np.ceil(r.stop / scale))),
             slice(int(c.start / scale), int(np.ceil(c.stop / scale)))) for r, c in boxes]


def _plain_grey(frame: np.ndarray) -> np.ndarray:
    """The picture as ``moved_by`` lines it up: grey, ``FOLLOW_SIDE`` pixels on its long
    side, blurred, as float32."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    scale = FOLLOW_SIDE / max(grey.shape[:2])
    size = (max(8, round(grey.shape[1] * scale)), max(8, round(grey.shape[0] * scale)))
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)


def moved_by(before: np.ndarray, now: np.ndarray, scale: float,
             boxes: list[tuple[slice, slice]],
             play_area: np.ndarray | None = None) -> np.ndarray | None:
    """The homography (3x3) that takes a point of the picture ``before`` to where it shows in
    ``now`` (both from ``_plain_grey``; ``scale``: full-size pixels per pixel of theirs, and
    the homography is for full-size pixels), or None where the two cannot be lined up well
    enough in two of ``boxes`` (full-size: the play area's corners, ``corner_boxes``; a plain
    cloth lines up anywhere) by ``FOLLOW_MATCH``, or only by a move too large for a knock
    (``FOLLOW_FARTHEST``). ``play_area``: its four corners in ``before`` (full-size).

    A knock moves the picture by tens of pixels, more than a fit started where nothing moved
    finds on a smooth cloth: the fits start from no move, from the shift that lines the two
    pictures up best as a whole (``cv2.phaseCorrelate``) and from where the corners are found
    again on their own (``_corners_found``). Each is fitted on the whole picture and on what
    lies around the play area and about its corners only (what lies on it, cards and hands,
    comes and goes), as an affine move and then a homography from it (``_lined_up``); the
    one that matches best about the corners stands, if it matches better than no move."""
    if before.shape != now.shape:
        return None
    small = _shrunk(boxes, scale)
    around = np.full(before.shape, 255, np.uint8)
    if play_area is not None:
        cv2.fillConvexPoly(around, np.round(play_area / scale).astype(np.int32), 0)
    for box in small:
        around[box] = 255
    # (phaseCorrelate windows its inputs in place: it is given copies)
    shift, _ = cv2.phaseCorrelate(before.copy(), now.copy(),
                                  cv2.createHanningWindow(before.shape[::-1], cv2.CV_32F))
    starts = [np.float32([[1, 0, 0], [0, 1, 0]]),
              np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])]
    corners = _corners_found(before, now, small)
    if corners is not None:
        starts.append(corners)
    # (no move at all is one of the fits: a table that did not move stays, however well a
    # repeating cloth lines up elsewhere)
    best, match = np.eye(3, dtype=np.float32), _match(before, now, np.eye(3, dtype=np.float32),
                                                      small)
    for start in starts:
        for mask in (None, around):
            for warp in _lined_up(before, now, start, mask):
                fit = _match(before, now, warp, small)
                if fit > match:
                    best, match = warp, fit
    if match < FOLLOW_MATCH:
        return None
    to_small = np.diag([1 / scale, 1 / scale, 1.0])
    move = np.linalg.inv(to_small) @ best.astype(np.float64) @ to_small
    h, w = before.shape[:2]
    corners = np.array([[(0, 0), (w, 0), (w, h), (0, h)]], np.float64) * scale
    farthest = np.linalg.norm(cv2.perspectiveTransform(corners, move) - corners, axis=2).max()
    return move if farthest <= FOLLOW_FARTHEST * max(w, h) * scale else None


def _corners_found(before: np.ndarray, now: np.ndarray,
                   boxes: list[tuple[slice, slice]]) -> np.ndarray | None:
    """Where the picture moved by the play area's corners alone (2x3, a turn, a scale and a
    shift): each box of ``before`` is looked for anywhere in ``now`` (``cv2.matchTemplate``),
    and found where it matches at ``CORNER_FOUND`` or more; None where fewer than two are."""
    old, new = [], []
    for rows, cols in boxes:
        patch = before[rows, cols]
        if min(patch.shape) < 8 or patch.std() < 1.0:  # (a plain patch is found anywhere)
            continue
        scores = cv2.matchTemplate(now, patch, cv2.TM_CCOEFF_NORMED)
        _, best, _, (x, y) = cv2.minMaxLoc(scores)
        if best >= CORNER_FOUND:
            old.append((cols.start, rows.start))
            new.append((x, y))
    if len(old) < 2:
        return None
    fit, _ = cv2.estimateAffinePartial2D(np.float32(old), np.float32(new), method=cv2.LMEDS)
    return None if fit is None else fit.astype(np.float32)


def _lined_up(before: np.ndarray, now: np.ndarray, start: np.ndarray,
              mask: np.ndarray | None) -> list[np.ndarray]:
    """``moved_by``'s fits (3x3, in the pictures' own pixels) from the affine move ``start``
    (2x3): an affine move, fitted at half size and then at full, and a homography from it (a
    homography fitted straight away strays on a plain cloth). Those that did not converge
    are left out."""
    stop = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4)
    half_mask = None if mask is None else cv2.resize(
        mask, ((mask.shape[1] + 1) // 2, (mask.shape[0] + 1) // 2),
        interpolation=cv2.INTER_NEAREST)
    warp = start.copy()
    warp[:, 2] /= 2
    fits = []
    try:
        _, warp = cv2.findTransformECC(cv2.pyrDown(before), cv2.pyrDown(now), warp,
                                       cv2.MOTION_AFFINE, stop, half_mask, 3)
        warp[:, 2] *= 2
        _, warp = cv2.findTransformECC(before, now, warp, cv2.MOTION_AFFINE, stop, mask, 3)
        fits.append(np.vstack([warp, [0, 0, 1]]).astype(np.float32))
        _, bent = cv2.findTransformECC(before, now, fits[0].copy(), cv2.MOTION_HOMOGRAPHY,
                                       stop, mask, 3)
        fits.append(bent)
    except cv2.error:  # (it did not converge)
        pass
    return [fit for fit in fits if np.isfinite(fit).all()]


def _match(before: np.ndarray, now: np.ndarray, warp: np.ndarray,
           boxes: list[tuple[slice, slice]]) -> float:
    """How well ``before`` moved by ``warp`` (``moved_by``) matches ``now`` in ``boxes``:
    the correlation (-1 to 1) of the two in the box that matches second best (a hand may lie
    over one), 0 where fewer than two boxes show in both pictures."""
    size = (now.shape[1], now.shape[0])
    moved = cv2.warpPerspective(before, warp, size, flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones_like(before), warp, size, flags=cv2.INTER_LINEAR) > 0.99
    matches = []
    for box in boxes:
        shows = inside[box]
        if shows.mean() < 0.5:
            continue
        a, b = moved[box][shows], now[box][shows]
        a, b = a - a.mean(), b - b.mean()
        matches.append(float((a * b).sum() / max(float(np.sqrt((a * a).sum() * (b * b).sum())),
                                                 1e-9)))
    return sorted(matches)[-2] if len(matches) >= 2 else 0.0


def marker_thumbs(frame: np.ndarray, boxes: list[tuple[slice, slice]]) -> list[np.ndarray]:
    """Each box of the picture, as about ``MARKER_THUMB`` pixels square of its green channel
    (every so many pixels: cheap enough for every frame, and a marker moved by a few pixels
    changes most of them)."""
    thumbs = []
    for rows, cols in boxes:
        step_y = max(1, (rows.stop - rows.start) // MARKER_THUMB)
        step_x = max(1, (cols.stop - cols.start) // MARKER_THUMB)
        patch = frame[rows.start:rows.stop:step_y, cols.start:cols.stop:step_x]
        thumbs.append((patch[..., 1] if patch.ndim == 3 else patch).astype(np.int16))
    return thumbs


def _moved(old: Calibration, new: Calibration, tolerance_px: float = 3.0) -> bool:
    probe = np.array([(0, 0), (old.layout.area_mm, old.layout.area_mm)], float)
    return bool(np.abs(old.to_image(probe) - new.to_image(probe)).max() > tolerance_px)


def _agrees(old: Calibration, new: Calibration, tolerance_px: float = 3.0) -> bool:
    """Whether every point ``new`` was fitted to (each marker's corners) lies where ``old``
    puts it, to within ``tolerance_px`` on average over each marker's four corners: then the
    table has not moved, however the two fits differ between the markers. Two fits to
    different markers of one still table can differ by more than ``_moved`` allows at the
    table's corners: small, soft, far markers are found to a pixel or two, and a fit to
    three of them bends more than one to four (game 2551 of the studio's 640x480 lift set:
    4.5 px, where no corner of a marker found lay more than 2.5 px off either way). ``new``
    is fitted to markers, four points each."""
    found = new.image_points.reshape(-1, 4, 2)
    there = old.to_image(new.table_points).reshape(-1, 4, 2)
    return bool((np.linalg.norm(found - there, axis=2).mean(axis=1) <= tolerance_px).all())
