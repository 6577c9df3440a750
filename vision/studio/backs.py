"""Made-up card backs, each one new, for teaching the classifier what a back is.

The train designs hold about a hundred backs, and a third of them are plain paper tints. The
classifier learnt those backs rather than what a back is: on the hard pictures a fifth of the
test designs' backs were missed or read as a card (kde-jolly-royal's red back with a white
margin and gold scrolls as the ace or the king of hearts or diamonds, lattmann's harlequin of
blue diamonds as the ten of diamonds, guyenne-classic's navy lace as no card).

``random_back`` draws a back from a generator: a margin of paper or none, a ground colour,
one of several all-over patterns (a lattice of small motifs, suit signs among them, a
checker or harlequin, stripes or cross-hatching, a marbled tint, a picture borrowed from a
court card, or nothing), and perhaps a frame, a medallion in the middle and scrolls, drawn
twice, the second time turned half round, as most backs are. What no back has, and every face
has, is a corner index.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence

import cv2
import numpy as np

from referee.cards import Card, Suit

from .facesets import COURTS, _suit_symbol

KINDS = ("lattice", "checker", "harlequin", "lines", "marble", "picture", "plain")
# how often each kind of all-over pattern is drawn
KIND_ODDS = (0.28, 0.11, 0.13, 0.17, 0.13, 0.06, 0.12)
MOTIFS = ("dot", "ring", "diamond", "star", "cross", "suit")


def random_back(rng: np.random.Generator, width: int = 240, height: int = 350,
                art: Sequence = ()) -> np.ndarray:
    """A made-up back, ``width`` x ``height`` RGBA (BGR order, like every face), with rounded
    corners outside it transparent. ``art``: face sets whose court cards a "picture" back may
    borrow its picture from."""
    w, h = int(width), int(height)
    ground = _colour(rng)
    second = _second_colour(rng, ground)
    paper = tuple(int(v) for v in rng.integers(225, 256, 3))
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = paper
    margin = int(w * rng.uniform(0.03, 0.11)) if rng.random() < 0.6 else 0
    x0, y0, x1, y1 = margin, margin, w - margin, h - margin
    inner = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    inner[:] = ground
    kind = str(rng.choice(KINDS, p=KIND_ODDS))
    if kind == "lattice":
        _lattice(inner, rng, second)
    elif kind == "checker":
        _checker(inner, rng, second, turned=False)
    elif kind == "harlequin":
        _checker(inner, rng, second, turned=True)
    elif kind == "lines":
        _lines(inner, rng, second)
    elif kind == "marble":
        _marble(inner, rng, ground, second)
    elif kind == "picture":
        _picture(inner, rng, art, second)
    image[y0:y1, x0:x1] = inner
    if rng.random() < 0.45:  # a frame inside the margin
        inset = int(w * rng.uniform(0.02, 0.09))
        colour = _second_colour(rng, ground) if rng.random() < 0.6 else paper
        cv2.rectangle(image, (x0 + inset, y0 + inset), (x1 - 1 - inset, y1 - 1 - inset),
                      colour, max(1, int(w * rng.uniform(0.008, 0.03))), cv2.LINE_AA)
    if rng.random() < 0.35:
        _medallion(image, rng, ground)
    if rng.random() < 0.25:
        _scrolls(image, rng)
    alpha = np.zeros((h, w), np.uint8)
    radius = int(w * rng.uniform(0.03, 0.08))
    cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                   (w - 1 - radius, h - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return np.dstack([image, alpha])


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    """A back's ground: mostly a strong or dark colour (red, blue, green, black), sometimes a
    pale tint."""
    hue = float(rng.random())
    if rng.random() < 0.2:
        sat, val = rng.uniform(0.05, 0.35), rng.uniform(0.75, 1.0)
    else:
        sat, val = rng.uniform(0.4, 1.0), rng.uniform(0.15, 0.9)
    r, g, b = colorsys.hsv_to_rgb(hue, sat, val)
    return int(b * 255), int(g * 255), int(r * 255)


def _second_colour(rng: np.random.Generator, ground: tuple[int, int, int]) -> tuple[int, int, int]:
    """What a pattern is drawn in over ``ground``: white, gold, or the ground made much lighter
    or darker."""
    pick = rng.random()
    if pick < 0.35:
        return tuple(int(v) for v in rng.integers(220, 256, 3))
    if pick < 0.55:
        return _gold(rng)
    g = np.array(ground, float)
    shifted = g + (255 - g) * 0.6 if g.mean() < 128 else g * 0.35
    return tuple(int(v) for v in shifted)


def _gold(rng: np.random.Generator) -> tuple[int, int, int]:
    """A gold or yellow ink (BGR)."""
    return int(rng.integers(20, 90)), int(rng.integers(150, 215)), int(rng.integers(190, 250))


def _lattice(inner: np.ndarray, rng: np.random.Generator, colour: tuple[int, int, int]) -> None:
    """Small motifs in rows, every other row shifted half a step (or not)."""
    h, w = inner.shape[:2]
    pitch = max(5.0, w * rng.uniform(0.05, 0.16))
    size = pitch * rng.uniform(0.3, 0.75)
    motif = str(rng.choice(MOTIFS))
    suit = list(Suit)[int(rng.integers(4))]
    shifted = rng.random() < 0.6
    for row in range(int(h / pitch) + 2):
        offset = pitch / 2 if shifted and row % 2 else 0.0
        for col in range(int(w / pitch) + 2):
            _motif(inner, motif, (col * pitch + offset, row * pitch), size, colour, suit)


def _motif(image: np.ndarray, motif: str, centre: tuple[float, float], size: float,
           colour: tuple[int, int, int], suit: Suit) -> None:
    cx, cy = centre
    r = size / 2
    point = (int(round(cx)), int(round(cy)))
    if motif == "dot":
        cv2.circle(image, point, max(1, int(r * 0.6)), colour, -1, cv2.LINE_AA)
    elif motif == "ring":
        cv2.circle(image, point, max(1, int(r)), colour, max(1, int(r / 3)), cv2.LINE_AA)
    elif motif == "diamond":
        poly = np.array([(cx, cy - r), (cx + 0.7 * r, cy), (cx, cy + r), (cx - 0.7 * r, cy)])
        cv2.fillConvexPoly(image, np.round(poly).astype(np.int32), colour, cv2.LINE_AA)
    elif motif == "star":
        angles = np.arange(10) * math.pi / 5 - math.pi / 2
        radii = np.where(np.arange(10) % 2, 0.45 * r, r)
        poly = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], axis=1)
        cv2.fillPoly(image, [np.round(poly).astype(np.int32)], colour, cv2.LINE_AA)
    elif motif == "cross":
        t = max(1, int(r / 3))
        cv2.line(image, (int(cx - r), int(cy)), (int(cx + r), int(cy)), colour, t, cv2.LINE_AA)
        cv2.line(image, (int(cx), int(cy - r)), (int(cx), int(cy + r)), colour, t, cv2.LINE_AA)
    else:
        _suit_symbol(image, suit, point, size, colour)


def _checker(inner: np.ndarray, rng: np.random.Generator, colour: tuple[int, int, int],
             turned: bool) -> None:
    """Squares of two colours, or (``turned``) diamonds: a harlequin."""
    h, w = inner.shape[:2]
    pitch = w * rng.uniform(0.05, 0.14)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if turned:
        stretch = rng.uniform(1.0, 1.8)  # harlequin diamonds are often taller than wide
        u, v = xx / pitch + yy / (pitch * stretch), xx / pitch - yy / (pitch * stretch)
    else:
        u, v = xx / pitch, yy / pitch
    mask = ((np.floor(u) + np.floor(v)) % 2).astype(bool)
    inner[mask] = colour


def _lines(inner: np.ndarray, rng: np.random.Generator, colour: tuple[int, int, int]) -> None:
    """Stripes one way, or crossed both ways."""
    h, w = inner.shape[:2]
    pitch = max(3.0, w * rng.uniform(0.025, 0.1))
    thick = max(1, int(pitch * rng.uniform(0.15, 0.5)))
    angle = rng.uniform(0, math.pi)
    ways = (angle, angle + rng.uniform(0.5, 1.3)) if rng.random() < 0.6 else (angle,)
    span = int(math.hypot(w, h))
    for a in ways:
        dx, dy = math.cos(a), math.sin(a)
        for k in np.arange(-span, span, pitch):
            mx, my = w / 2 - dy * k, h / 2 + dx * k
            cv2.line(inner, (int(mx - dx * span), int(my - dy * span)),
                     (int(mx + dx * span), int(my + dy * span)), colour, thick, cv2.LINE_AA)


def _marble(inner: np.ndarray, rng: np.random.Generator, ground: tuple[int, int, int],
            second: tuple[int, int, int]) -> None:
    """A smooth mottle of the two colours."""
    h, w = inner.shape[:2]
    cells = int(rng.integers(3, 14))
    field = rng.random((cells, max(2, int(cells * w / h)))).astype(np.float32)
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_CUBIC)
    field = np.clip((field - field.min()) / max(float(np.ptp(field)), 1e-6), 0, 1)[..., None]
    share = rng.uniform(0.3, 1.0)
    mixed = np.array(ground, np.float32) * (1 - share * field) + np.array(
        second, np.float32) * share * field
    inner[:] = np.clip(mixed, 0, 255).astype(np.uint8)


def _picture(inner: np.ndarray, rng: np.random.Generator, art: Sequence,
             colour: tuple[int, int, int]) -> None:
    """A picture: the middle of a court card from ``art``, whole or repeated, or else big
    soft shapes."""
    h, w = inner.shape[:2]
    if art:
        source = art[int(rng.integers(len(art)))]
        face = source.face(Card(COURTS[int(rng.integers(3))], list(Suit)[int(rng.integers(4))]))
        fh, fw = face.shape[:2]
        middle = face[int(fh * 0.2):int(fh * 0.8), int(fw * 0.25):int(fw * 0.75), :3]
        if rng.random() < 0.3:  # one picture (a court card's, with no index, is no card)
            inner[:] = cv2.resize(middle, (w, h), interpolation=cv2.INTER_AREA)
            return
        tiles = int(rng.integers(2, 5))
        tile = cv2.resize(middle, (max(2, w // tiles), max(2, h // tiles)),
                          interpolation=cv2.INTER_AREA)
        reps = np.tile(tile, (tiles + 1, tiles + 1, 1))
        inner[:] = reps[:h, :w]
        return
    for _ in range(int(rng.integers(3, 9))):
        shade = tuple(int(v) for v in rng.integers(0, 256, 3)) if rng.random() < 0.7 else colour
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        axes = (int(w * rng.uniform(0.1, 0.5)), int(h * rng.uniform(0.05, 0.3)))
        cv2.ellipse(inner, centre, axes, float(rng.uniform(0, 180)), 0, 360, shade, -1,
                    cv2.LINE_AA)


def _medallion(image: np.ndarray, rng: np.random.Generator,
               ground: tuple[int, int, int]) -> None:
    """An oval or circle in the middle, filled and edged, with a motif in it."""
    h, w = image.shape[:2]
    centre = (w // 2, h // 2)
    rx = int(w * rng.uniform(0.12, 0.35))
    ry = int(rx * rng.uniform(1.0, 1.6))
    fill = _second_colour(rng, ground)
    edge = _second_colour(rng, fill)
    cv2.ellipse(image, centre, (rx, ry), 0, 0, 360, fill, -1, cv2.LINE_AA)
    cv2.ellipse(image, centre, (rx, ry), 0, 0, 360, edge, max(1, w // 80), cv2.LINE_AA)
    _motif(image, str(rng.choice(MOTIFS)), (w / 2, h / 2), rx * 0.9, edge,
           list(Suit)[int(rng.integers(4))])


def _scrolls(image: np.ndarray, rng: np.random.Generator) -> None:
    """Curling lines, each drawn again turned half round about the middle."""
    h, w = image.shape[:2]
    colour = _gold(rng)
    thick = max(1, int(w * rng.uniform(0.006, 0.02)))
    for _ in range(int(rng.integers(2, 6))):
        t = np.linspace(0, rng.uniform(3, 9), 40)
        r = w * rng.uniform(0.03, 0.12) * (1 + t / 3)
        cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.1, 0.5) * h
        curve = np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], axis=1)
        for points in (curve, np.array([w - 1, h - 1]) - curve):
            cv2.polylines(image, [np.round(points).astype(np.int32)], False, colour, thick,
                          cv2.LINE_AA)
