"""The table plane: where the markers, the seats and their zones are, in millimetres.

Table coordinates look down on the table: x to the right, y down, origin at the outer corner of
marker 0. The four ArUco markers (dictionary 4x4_50) lie inside the corners of a square play
area: id 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left. Each seat sits at one side of
that square and plays into a rectangular zone between the centre and its side. A card whose
centre lies in no zone (the middle of the table, the corners) belongs to no seat; the detector
gives a card just beside one zone, and near no other, that zone's seat (``seat_at``'s reach).

The studio renders with this layout and calibration writes it into its files, so a picture of
the table means the same thing to both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.seats import SEATS, Seat

SIDES = ("bottom", "left", "top", "right")
CARD_MM = (63.0, 88.0)  # a standard (poker-size) playing card


class LayoutError(ValueError):
    """A table layout that cannot be used; the message names the key."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A seat's zone: an axis-aligned rectangle on the table plane (mm)."""

    seat: Seat
    side: str
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1

    def distance(self, x: float, y: float) -> float:
        """How far (mm) the point lies from the zone (0 inside it)."""
        dx = max(self.x0 - x, 0.0, x - self.x1)
        dy = max(self.y0 - y, 0.0, y - self.y1)
        return (dx * dx + dy * dy) ** 0.5

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    @property
    def corners(self) -> list[tuple[float, float]]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]


@dataclass(frozen=True, slots=True)
class TableLayout:
    """``area_mm``: side of the square play area framed by the markers. ``marker_mm``: side of
    each printed marker. ``seat_sides``: which side of the area each seat sits at.
    ``zone_width_mm``: how wide a seat zone is along its side; its depth runs from
    ``zone_near_mm`` to ``zone_far_mm`` away from the centre. Raises ``LayoutError``."""

    area_mm: float = 500.0
    marker_mm: float = 45.0
    seat_sides: dict[str, int] = field(
        default_factory=lambda: {"bottom": 1, "left": 2, "top": 3, "right": 4})
    zone_width_mm: float = 180.0
    zone_near_mm: float = 90.0
    zone_far_mm: float = 235.0

    def __post_init__(self) -> None:
        if sorted(self.seat_sides) != sorted(SIDES) or \
                sorted(self.seat_sides.values()) != [s.number for s in SEATS]:
            raise LayoutError("seat_sides must give each of bottom, left, top, right "
                              "one of the seats 1-4")
        if not 0 < self.marker_mm < self.area_mm / 4:
            raise LayoutError("marker_mm must be positive and under a quarter of area_mm")
        if not 0 <= self.zone_near_mm < self.zone_far_mm <= self.area_mm / 2:
            raise LayoutError("need 0 <= zone_near_mm < zone_far_mm <= area_mm / 2")
        if not 0 < self.zone_width_mm <= self.area_mm:
            raise LayoutError("zone_width_mm must be positive and fit in the area")
        if self.zone_near_mm < self.zone_width_mm / 2:
            raise LayoutError("zones would overlap at the corners: zone_near_mm must be at "
                              "least half of zone_width_mm")

    @property
    def centre(self) -> tuple[float, float]:
        return self.area_mm / 2, self.area_mm / 2

    def side_of(self, seat: Seat) -> str:
        return next(side for side, n in self.seat_sides.items() if n == seat.number)

    def zones(self) -> list[Zone]:
        cx, cy = self.centre
        half, near, far = self.zone_width_mm / 2, self.zone_near_mm, self.zone_far_mm
        boxes = {
            "bottom": (cx - half, cy + near, cx + half, cy + far),
            "top": (cx - half, cy - far, cx + half, cy - near),
            "left": (cx - far, cy - half, cx - near, cy + half),
            "right": (cx + near, cy - half, cx + far, cy + half),
        }
        return sorted((Zone(Seat(n), side, *boxes[side]) for side, n in self.seat_sides.items()),
                      key=lambda z: z.seat.number)

    def zone(self, seat: Seat) -> Zone:
        return next(z for z in self.zones() if z.seat == seat)

    def seat_at(self, x: float, y: float, reach: float = 0.0) -> Seat | None:
        """The seat whose zone holds the point (x, y), or None. With ``reach`` (mm), a point in
        no zone belongs to the seat of the only zone that lies within that distance of it (a
        card dropped just beside its zone); where two do (near a corner between zones), to
        none."""
        zones = self.zones()
        inside = next((z.seat for z in zones if z.contains(x, y)), None)
        if inside is not None or reach <= 0:
            return inside
        near = [z.seat for z in zones if z.distance(x, y) <= reach]
        return near[0] if len(near) == 1 else None

    def nearest_seat(self, x: float, y: float, lead_mm: float = 20.0) -> Seat | None:
        """The seat whose zone lies nearest the point (x, y), where it is nearer by at least
        ``lead_mm`` than every other zone; None where two are about as near (the middle of
        the table, a corner between two zones): a card lying there could be anyone's."""
        by_distance = sorted((z.distance(x, y), z.seat.number) for z in self.zones())
        (first, seat), (second, _) = by_distance[0], by_distance[1]
        return Seat(seat) if second - first >= lead_mm else None

    def middle(self) -> list[tuple[float, float]]:
        """The middle of the table: the square the four zones' inner edges frame, where no
        seat plays (its corners, clockwise from the top-left)."""
        (cx, cy), n = self.centre, self.zone_near_mm
        return [(cx - n, cy - n), (cx + n, cy - n), (cx + n, cy + n), (cx - n, cy + n)]

    def corners_between(self) -> list[list[tuple[float, float]]]:
        """The four corners of the play area between two neighbouring zones, where no seat
        plays either: squares from the zones' sides (half ``zone_width_mm`` from the centre)
        out to their far ends (``zone_far_mm``), each as ``middle`` gives its square; the
        top-left corner first, then clockwise."""
        (cx, cy), a, b = self.centre, self.zone_width_mm / 2, self.zone_far_mm
        squares = []
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            x0, x1 = sorted((cx + sx * a, cx + sx * b))
            y0, y1 = sorted((cy + sy * a, cy + sy * b))
            squares.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        return squares

    def in_middle(self, x: float, y: float) -> bool:
        """Whether the point lies in the middle of the table (``middle``)."""
        (x0, y0), _, (x1, y1), _ = self.middle()
        return x0 <= x <= x1 and y0 <= y <= y1

    def outward(self, seat: Seat) -> tuple[float, float]:
        """Unit vector from the centre towards ``seat``'s side of the table."""
        return {"bottom": (0.0, 1.0), "top": (0.0, -1.0), "left": (-1.0, 0.0),
                "right": (1.0, 0.0)}[self.side_of(seat)]

    def marker_squares(self) -> dict[int, list[tuple[float, float]]]:
        """Each marker's four corners (clockwise from its top-left), by marker id."""
        a, m = self.area_mm, self.marker_mm
        origins = {0: (0.0, 0.0), 1: (a - m, 0.0), 2: (a - m, a - m), 3: (0.0, a - m)}
        return {i: [(x, y), (x + m, y), (x + m, y + m), (x, y + m)]
                for i, (x, y) in origins.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"area_mm": self.area_mm, "marker_mm": self.marker_mm,
                "seat_sides": dict(self.seat_sides), "zone_width_mm": self.zone_width_mm,
                "zone_near_mm": self.zone_near_mm, "zone_far_mm": self.zone_far_mm}


def layout_from_mapping(data: dict[str, Any] | None, source: str = "layout") -> TableLayout:
    """A ``TableLayout`` from a config mapping (the ``layout`` section). Unknown keys are
    errors. Raises ``LayoutError`` naming ``source``."""
    data = data or {}
    if not isinstance(data, dict):
        raise LayoutError(f"{source}: 'layout' must be a mapping")
    known = set(TableLayout.__dataclass_fields__)
    unknown = set(data) - known
    if unknown:
        raise LayoutError(f"{source}: unknown key 'layout.{sorted(unknown)[0]}'")
    for key, value in data.items():
        if key != "seat_sides" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise LayoutError(f"{source}: 'layout.{key}' must be a number (millimetres), not "
                              f"{value!r}")
    if "seat_sides" in data and not isinstance(data["seat_sides"], dict):
        raise LayoutError(f"{source}: 'layout.seat_sides' must be a mapping of sides to seats, "
                          "e.g. {bottom: 1, left: 2, top: 3, right: 4}")
    try:
        values: dict[str, Any] = {k: float(v) for k, v in data.items() if k != "seat_sides"}
        if "seat_sides" in data:
            values["seat_sides"] = {str(k): int(v) for k, v in dict(data["seat_sides"]).items()}
        return TableLayout(**values)
    except LayoutError as error:
        raise LayoutError(f"{source}: {error}") from None
    except (TypeError, ValueError) as error:
        raise LayoutError(f"{source}: layout: {error}") from None


def load_layout(explicit: str | None = None) -> TableLayout:
    """The ``layout`` section of the config file (see ``referee.config.find_config``), or the
    default layout when there is no file. Raises ``LayoutError`` or ``ConfigError``."""
    from referee.config import find_config, read_config_file

    path = find_config(explicit)
    if path is None:
        return TableLayout()
    return layout_from_mapping(read_config_file(path).get("layout"), str(path))
