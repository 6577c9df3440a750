"""Things on and over the table besides cards: hands with arms, cups, phones, coins.

Each object is described on the table plane in millimetres and knows how to give its outline as
polygons (for the renderer to project, fill and shade) and its colour. Hands hover ``lift`` mm
above the table, which decides how far and how soft their shadow falls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

SKIN_TONES = [(160, 190, 235), (130, 165, 215), (110, 145, 200), (80, 110, 160), (55, 80, 120),
              (40, 60, 95), (145, 180, 225)]


def capsule(p0: np.ndarray, p1: np.ndarray, r0: float, r1: float, steps: int = 8) -> np.ndarray:
    """Outline of a tapered capsule from ``p0`` (radius r0) to ``p1`` (radius r1)."""
    d = p1 - p0
    length = float(np.linalg.norm(d)) or 1.0
    u = d / length
    n = np.array([-u[1], u[0]])
    base = math.atan2(n[1], n[0])
    end = [p1 + r1 * np.array([math.cos(base - k * math.pi / steps),
                                 math.sin(base - k * math.pi / steps)]) for k in range(steps + 1)]
    start = [p0 + r0 * np.array([math.cos(base + math.pi - k * math.pi / steps),
                                   math.sin(base + math.pi - k * math.pi / steps)])
             for k in range(steps + 1)]
    return np.array(end + start)


def ellipse(centre: np.ndarray, axes: tuple[float, float], angle: float,
            steps: int = 28) -> np.ndarray:
    t = np.linspace(0, 2 * np.pi, steps, endpoint=False)
    ca, sa = math.cos(angle), math.sin(angle)
    x, y = axes[0] * np.cos(t), axes[1] * np.sin(t)
    return np.column_stack([centre[0] + ca * x - sa * y, centre[1] + sa * x + ca * y])


@dataclass(frozen=True)
class Hand:
    """A hand whose fingertips reach ``tip`` (mm), with the arm running off towards
    ``towards`` (a unit vector, normally the player's side of the table)."""

    tip: tuple[float, float]
    towards: tuple[float, float]
    skin: tuple[int, int, int]
    size: float = 1.0  # 1.0 is an adult hand about 185 mm long
    lift: float = 40.0
    spread: float = 0.15  # radians between neighbouring fingers
    curl: float = 0.0  # 0 flat fingers, 1 fingers tucked (a fist)
    thumb_side: int = 1  # +1 or -1: which side the thumb is on

    def outlines(self) -> list[np.ndarray]:
        s = self.size
        tip = np.array(self.tip, float)
        back = np.array(self.towards, float)
        back /= np.linalg.norm(back) or 1.0
        side = np.array([-back[1], back[0]])
        finger_len = (70 - 40 * self.curl) * s
        palm_centre = tip + back * (finger_len + 45 * s)
        shapes = [ellipse(palm_centre, (50 * s, 42 * s), math.atan2(back[1], back[0]))]
        for k, offset in enumerate((-1.5, -0.5, 0.5, 1.5)):
            length = finger_len * (0.85, 1.0, 0.97, 0.78)[k]
            angle = offset * self.spread
            direction = -(back * math.cos(angle) + side * math.sin(angle))
            root = palm_centre + side * offset * 19 * s - back * 35 * s
            shapes.append(capsule(root, root + direction * length, 9.5 * s, 8.0 * s))
        thumb_root = palm_centre + side * self.thumb_side * 34 * s
        thumb_dir = -(back * 0.6) + side * self.thumb_side * 0.8
        thumb_dir /= np.linalg.norm(thumb_dir)
        shapes.append(capsule(thumb_root, thumb_root + thumb_dir * 55 * s, 13 * s, 10 * s))
        wrist = palm_centre + back * 45 * s
        shapes.append(capsule(wrist, wrist + back * 900, 33 * s, 48 * s))
        return shapes


@dataclass(frozen=True)
class Prop:
    """A cup (seen from above: rim and drink), a phone, or a coin, lying on the table."""

    kind: str  # "cup", "phone", "coin"
    centre: tuple[float, float]
    angle: float = 0.0  # radians
    size: float = 1.0
    colour: tuple[int, int, int] = (220, 220, 225)

    def layers(self) -> list[tuple[np.ndarray, tuple[int, int, int]]]:
        """(outline, colour) pairs, drawn in order."""
        c = np.array(self.centre, float)
        s = self.size
        if self.kind == "cup":
            return [(ellipse(c, (42 * s, 42 * s), 0), self.colour),
                    (ellipse(c, (35 * s, 35 * s), 0), (20, 35, 60)),
                    (ellipse(c + [-8 * s, -8 * s], (12 * s, 8 * s), 0.6), (110, 140, 170))]
        if self.kind == "phone":
            body = _rounded_rect(c, 36 * s, 74 * s, self.angle, 8 * s)
            screen = _rounded_rect(c, 32 * s, 66 * s, self.angle, 5 * s)
            return [(body, self.colour), (screen, (25, 22, 20))]
        if self.kind == "coin":
            return [(ellipse(c, (11 * s, 11 * s), 0), self.colour),
                    (ellipse(c, (8.5 * s, 8.5 * s), 0), tuple(int(v * 0.85) for v in self.colour))]
        raise ValueError(f"unknown prop '{self.kind}'")

    @property
    def height(self) -> float:
        return {"cup": 90.0, "phone": 8.0, "coin": 2.0}[self.kind]


def _rounded_rect(c: np.ndarray, half_w: float, half_h: float, angle: float,
                  r: float) -> np.ndarray:
    pts = []
    for cx, cy, a0 in ((half_w - r, -half_h + r, -90), (half_w - r, half_h - r, 0),
                       (-half_w + r, half_h - r, 90), (-half_w + r, -half_h + r, 180)):
        for k in range(5):
            a = math.radians(a0 + k * 22.5)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    pts_arr = np.array(pts)
    ca, sa = math.cos(angle), math.sin(angle)
    rot = np.array([[ca, -sa], [sa, ca]])
    return pts_arr @ rot.T + c
