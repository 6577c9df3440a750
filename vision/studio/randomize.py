"""Random stages and scenes for labelled still pictures.

Three difficulties set how far the random draws may go: ``easy`` (a steady camera almost
straight above a well-lit table), ``normal``, and ``hard`` (the studio's hardest settings: up to
60 degrees of tilt, dim light, strong blur and noise, glare, hands and props over the cards,
overlapping cards, low JPEG quality). Two kinds of picture:

- ``table``: the whole play area as the referee's camera sees it, a card or none in each seat
  zone, sometimes a face-down pile or a stray card outside the zones;
- ``closeup``: a camera close to one to three cards, often held down by a hand, with cards
  running off the edge now and then (like a phone photo of a few cards).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from referee.cards import FULL_DECK, Card
from referee.seats import SEATS

from ..layout import TableLayout
from .camera import Camera
from .facesets import FaceSet
from .faces import BACK
from .objects import SKIN_TONES, Hand, Prop
from .scene import CardOnTable, Look, Scene, Stage
from .surfaces import KINDS

DIFFICULTIES = ("easy", "normal", "hard")
KINDS_OF_PICTURE = ("table", "closeup")
SIDE_ANGLE = {"bottom": 0.0, "left": 90.0, "top": 180.0, "right": 270.0}


@dataclass(frozen=True)
class Limits:
    tilt: float
    noise: float
    defocus: float
    motion: float
    dim: float  # lowest exposure
    glare: float
    jpeg: int  # lowest JPEG quality
    hands: float  # chance of hands in a picture
    props: float
    overlap: float


LIMITS = {
    "easy": Limits(20, 3, 0.6, 0, 0.85, 0, 85, 0.0, 0.0, 0.0),
    "normal": Limits(45, 6, 1.2, 4, 0.6, 40, 60, 0.4, 0.3, 0.15),
    "hard": Limits(60, 10, 1.8, 8, 0.35, 90, 35, 0.6, 0.4, 0.3),
}


def random_look(rng: np.random.Generator, difficulty: str) -> Look:
    lim = LIMITS[difficulty]
    exposure = float(rng.uniform(lim.dim, 1.15))
    angle = rng.uniform(0, 2 * math.pi)
    warm = rng.uniform(-0.12, 0.12)
    return Look(
        exposure=exposure,
        white_balance=(1 - warm + rng.uniform(-0.04, 0.04), 1 + rng.uniform(-0.04, 0.04),
                       1 + warm + rng.uniform(-0.04, 0.04)),
        unevenness=float(rng.uniform(0.05, 0.3)),
        vignette=float(rng.uniform(0.0, 0.35)),
        light_direction=(math.cos(angle) * rng.uniform(0.2, 0.8),
                         math.sin(angle) * rng.uniform(0.2, 0.8)),
        shadow_strength=float(rng.uniform(0.2, 0.6)),
        glare=float(rng.uniform(0, lim.glare)) if rng.random() < 0.4 else 0.0,
        glare_at=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
        glare_size=float(rng.uniform(0.05, 0.25)),
        defocus=float(rng.uniform(0, lim.defocus)),
        motion=float(rng.uniform(0, lim.motion)) if rng.random() < 0.35 else 0.0,
        motion_angle=float(rng.uniform(0, 180)),
        # a dim picture is a noisy one: the camera turns its gain up
        noise=float(rng.uniform(0.5, lim.noise) * (1.4 - 0.4 * min(exposure, 1.0))),
        jpeg_quality=int(rng.integers(lim.jpeg, 96)),
    )


def random_camera(rng: np.random.Generator, layout: TableLayout, difficulty: str,
                  width: int, height: int, aim: tuple[float, float] | None = None,
                  frame_mm: np.ndarray | None = None, fill: float | None = None,
                  yaw: float | None = None) -> Camera:
    """A camera looking at ``aim`` (default: near the centre), framing ``frame_mm`` (default:
    the play area) so that it fills ``fill`` of the picture."""
    lim = LIMITS[difficulty]
    cx, cy = layout.centre
    aim = aim or (cx + rng.normal(0, 25), cy + rng.normal(0, 25))
    tilt = float(rng.uniform(0, lim.tilt))
    if yaw is None:
        yaw = float(rng.uniform(-180, 180)) if rng.random() < 0.5 else float(rng.normal(0, 8))
    field_of_view = math.radians(rng.uniform(50, 80))  # across the picture's width
    focal = width / 2 / math.tan(field_of_view / 2)
    k1 = float(rng.uniform(-0.15, 0.05))  # mild barrel to mild pincushion
    k2 = float(rng.uniform(0.0, 0.03))
    camera = Camera.looking_at(aim, tilt, 700.0, yaw, width, height, focal, k1, k2)
    if frame_mm is None:
        a = layout.area_mm
        frame_mm = np.array([(0, 0), (a, 0), (a, a), (0, a)], float)
    return camera.framing(frame_mm, fill if fill is not None else float(rng.uniform(0.88, 1.1)))


def _random_cards(rng: np.random.Generator) -> list[Card]:
    cards = list(FULL_DECK)
    picks = rng.permutation(len(cards))
    return [cards[i] for i in picks]


def random_hand(rng: np.random.Generator, tip: tuple[float, float],
                towards: tuple[float, float], lift: float | None = None) -> Hand:
    jitter = rng.normal(0, 0.25, 2)
    direction = np.array(towards, float) + jitter
    direction /= np.linalg.norm(direction)
    return Hand(tip=(float(tip[0]), float(tip[1])), towards=(float(direction[0]),
                                                             float(direction[1])),
                skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
                size=float(rng.uniform(0.85, 1.15)),
                lift=float(lift if lift is not None else rng.uniform(15, 70)),
                spread=float(rng.uniform(0.05, 0.25)), curl=float(rng.uniform(0, 0.6)),
                thumb_side=int(rng.choice([-1, 1])))


def random_prop(rng: np.random.Generator, centre: tuple[float, float]) -> Prop:
    kind = str(rng.choice(["cup", "phone", "coin", "coin"]))
    colours = {"cup": [(230, 230, 235), (40, 60, 160), (160, 90, 40), (30, 30, 30)],
               "phone": [(20, 20, 20), (200, 200, 205), (90, 60, 50)],
               "coin": [(60, 170, 200), (180, 180, 180), (70, 120, 170)]}[kind]
    return Prop(kind, centre, float(rng.uniform(0, math.pi)), float(rng.uniform(0.9, 1.1)),
                colours[int(rng.integers(len(colours)))])


def random_table_scene(rng: np.random.Generator, faces: FaceSet, layout: TableLayout,
                       difficulty: str) -> Scene:
    lim = LIMITS[difficulty]
    deck = _random_cards(rng)
    scene = Scene()
    centre = np.array(layout.centre)
    overlap = rng.random() < lim.overlap
    for seat in SEATS:
        if rng.random() > 0.85:
            continue
        side = layout.side_of(seat)
        out = np.array(layout.outward(seat))
        across = np.array([-out[1], out[0]])
        half_depth = (layout.zone_far_mm - layout.zone_near_mm) / 2
        depth = (layout.zone_near_mm + layout.zone_far_mm) / 2 + rng.uniform(-0.8, 0.6) * half_depth
        shift = rng.uniform(-0.7, 0.7) * layout.zone_width_mm / 2
        if overlap:  # into the zone's inner corner, where the neighbour's card may lie
            depth = layout.zone_near_mm + rng.uniform(0, 15)
            shift = rng.choice([-1, 1]) * (layout.zone_width_mm / 2 - rng.uniform(15, 35))
        pos = centre + out * depth + across * shift
        angle = SIDE_ANGLE[side] + (rng.uniform(-35, 35) if rng.random() < 0.75
                                    else rng.uniform(-180, 180))
        card = deck.pop()
        scene.cards.append(CardOnTable(card, faces.face(card), (float(pos[0]), float(pos[1])),
                                       float(angle)))
    if rng.random() < 0.3:  # a face-down pile of won tricks in a corner
        corner = np.array([rng.choice([90, layout.area_mm - 90]),
                           rng.choice([90, layout.area_mm - 90])]) + rng.normal(0, 15, 2)
        for _ in range(int(rng.integers(1, 4))):
            scene.cards.append(CardOnTable(BACK, faces.face(BACK),
                                           (float(corner[0] + rng.normal(0, 4)),
                                            float(corner[1] + rng.normal(0, 4))),
                                           float(rng.uniform(0, 360))))
    if rng.random() < 0.15:  # a stray face-up card in the middle, in no seat's zone
        card = deck.pop()
        pos = centre + rng.normal(0, 10, 2)
        scene.cards.append(CardOnTable(card, faces.face(card), (float(pos[0]), float(pos[1])),
                                       float(rng.uniform(0, 360))))
    if rng.random() < lim.hands:
        for _ in range(int(rng.integers(1, 3))):
            seat = SEATS[int(rng.integers(4))]
            out = np.array(layout.outward(seat))
            reach = rng.uniform(20, layout.zone_far_mm + 40)
            tip = centre + out * reach + rng.normal(0, 50, 2)
            scene.hands.append(random_hand(rng, (tip[0], tip[1]), (out[0], out[1])))
    if rng.random() < lim.props:
        for _ in range(int(rng.integers(1, 3))):
            spot = centre + rng.uniform(-1, 1, 2) * (layout.area_mm / 2 - 40)
            scene.props.append(random_prop(rng, (float(spot[0]), float(spot[1]))))
    return scene


def random_closeup_scene(rng: np.random.Generator, faces: FaceSet, layout: TableLayout,
                         difficulty: str) -> tuple[Scene, np.ndarray]:
    """A scene of one to three cards near the centre; also returns the outline to frame."""
    deck = _random_cards(rng)
    scene = Scene()
    centre = np.array(layout.centre)
    count = int(rng.choice([1, 1, 1, 2, 3]))
    for k in range(count):
        pos = centre + np.array([(k - (count - 1) / 2) * rng.uniform(45, 75), rng.normal(0, 8)])
        card = deck.pop()
        scene.cards.append(CardOnTable(card, faces.face(card), (float(pos[0]), float(pos[1])),
                                       float(rng.uniform(-180, 180))))
    if rng.random() < max(LIMITS[difficulty].hands, 0.3) + 0.2:
        target = scene.cards[int(rng.integers(count))]
        corners = target.corners_mm()
        tip = corners[int(rng.integers(4))] * 0.8 + np.array(target.centre) * 0.2
        away = tip - np.array(target.centre) + rng.normal(0, 15, 2)
        scene.hands.append(random_hand(rng, (tip[0], tip[1]), (away[0], away[1]),
                                       lift=float(rng.uniform(3, 15))))
    frame = np.concatenate([c.corners_mm() for c in scene.cards])
    return scene, frame


def picture_faces(seed: int, index: int, faces: list[FaceSet]) -> FaceSet:
    """The design of picture ``index`` of a set made with ``seed`` (``random_picture``'s first
    draw), without rendering it."""
    return faces[int(np.random.default_rng([seed, index]).integers(len(faces)))]


def random_picture(seed: int, index: int, faces: list[FaceSet], layout: TableLayout,
                   difficulty: str = "normal", kind: str = "table", markers: float = 0.5,
                   width: int = 1280, height: int = 720) -> tuple[Stage, Scene, np.random.Generator]:
    """The stage and scene of picture ``index`` of a set made with ``seed``. The same (seed,
    index) always gives the same picture, whatever the number of worker processes."""
    rng = np.random.default_rng([seed, index])
    face_set = faces[int(rng.integers(len(faces)))]  # (picture_faces draws the same)
    look = random_look(rng, difficulty)
    surface_kind = str(rng.choice(KINDS))
    if kind == "closeup":
        scene, frame = random_closeup_scene(rng, face_set, layout, difficulty)
        aim = tuple(frame.mean(axis=0) + rng.normal(0, 10, 2))
        camera = random_camera(rng, layout, difficulty, width, height, aim=aim, frame_mm=frame,
                               fill=float(rng.uniform(0.35, 1.1)))
        has_markers = False
    else:
        scene = random_table_scene(rng, face_set, layout, difficulty)
        camera = random_camera(rng, layout, difficulty, width, height)
        has_markers = bool(rng.random() < markers)
    stage = Stage(camera, layout, surface_kind, has_markers, look,
                  seed=int(rng.integers(2 ** 31)))
    return stage, scene, rng
