"""Render a table scene into a camera picture, with the labels of every visible card.

A ``Scene`` is what is on the table (cards, hands, props) and a ``Stage`` is what stays put while
a clip plays: the camera, the table surface with its markers, and the light. Rendering works on
the undistorted canvas of the camera (the picture plus a margin), in this order:

1. the table, warped from its texture (done once per stage);
2. soft shadows of the cards, then the cards, each warped from its face straight into place;
3. props, then the shadows of hands and props, then the hands;
4. light (exposure, white balance, uneven illumination, glare), lens distortion, defocus and
   motion blur, sensor noise. Compression happens when the picture is written.

An id buffer painted alongside says which card each pixel shows, so every label knows how much
of its card is really visible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from referee.cards import Card
from referee.seats import Seat

from ..layout import CARD_MM, TableLayout
from .camera import Camera
from .objects import Hand, Prop
from .surfaces import smooth_noise, surface

TEXTURE_PX_PER_MM = 1.5
TABLE_MARGIN_MM = 300.0  # how far the table top reaches beyond the play area


@dataclass
class CardOnTable:
    """``card`` is a Card, or ``"back"`` for a face-down card. ``angle`` (degrees) turns the
    card clockwise as seen from above; 0 is upright for the player at the bottom side."""

    card: Card | str
    face: np.ndarray  # RGBA
    centre: tuple[float, float]
    angle: float = 0.0
    lift: float = 0.0  # mm above the table (a card being carried)

    @property
    def size_mm(self) -> tuple[float, float]:
        h, w = self.face.shape[:2]
        return CARD_MM[0], CARD_MM[0] * h / w

    def corners_mm(self) -> np.ndarray:
        """The four corners on the table (mm), clockwise from the card's own top-left."""
        w, h = self.size_mm
        local = np.array([(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)])
        a = math.radians(self.angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return local @ rot.T + np.array(self.centre)

    def face_to_table(self) -> np.ndarray:
        """3x3 matrix: face pixels -> table mm."""
        fh, fw = self.face.shape[:2]
        w, h = self.size_mm
        a = math.radians(self.angle)
        scale = np.array([[w / fw, 0, -w / 2], [0, h / fh, -h / 2], [0, 0, 1]])
        rot = np.array([[math.cos(a), -math.sin(a), self.centre[0]],
                        [math.sin(a), math.cos(a), self.centre[1]], [0, 0, 1]])
        return rot @ scale


@dataclass
class Look:
    """The photographic side of a picture. Gains are multipliers; blur and noise in pixels."""

    exposure: float = 1.0
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R gains
    unevenness: float = 0.15  # depth of the smooth light/dark field
    vignette: float = 0.2
    light_direction: tuple[float, float] = (0.4, 0.6)  # where shadows fall (table plane)
    shadow_strength: float = 0.45
    glare: float = 0.0  # peak added brightness of a soft highlight (0-255 scale)
    glare_at: tuple[float, float] = (0.5, 0.5)  # in picture fractions
    glare_size: float = 0.15  # radius as a fraction of the picture width
    defocus: float = 0.0  # Gaussian sigma, px
    motion: float = 0.0  # motion blur length, px
    motion_angle: float = 0.0  # degrees
    noise: float = 2.0  # sensor noise sigma (0-255 scale)
    jpeg_quality: int = 90

    def to_dict(self) -> dict[str, Any]:
        return {k: (round(v, 3) if isinstance(v, float) else
                    [round(x, 3) for x in v] if isinstance(v, tuple) else v)
                for k, v in self.__dict__.items()}


@dataclass
class Stage:
    """What stays the same from frame to frame: camera, table, markers, light."""

    camera: Camera
    layout: TableLayout
    surface_kind: str
    markers: bool
    look: Look
    seed: int
    _backdrop: np.ndarray | None = field(default=None, repr=False)
    _light: np.ndarray | None = field(default=None, repr=False)
    _glare: np.ndarray | None = field(default=None, repr=False)
    _noise: np.ndarray | None = field(default=None, repr=False)
    steady_noise: bool = False  # True for clips: see fixed_noise()

    def backdrop(self) -> np.ndarray:
        if self._backdrop is None:
            self._backdrop = self._render_table()
        return self._backdrop

    def _render_table(self) -> np.ndarray:
        rng = np.random.default_rng([self.seed, 1])
        area = self.layout.area_mm
        side_mm = area + 2 * TABLE_MARGIN_MM
        n = int(side_mm * TEXTURE_PX_PER_MM)
        texture = surface(self.surface_kind, rng, (n, n), TEXTURE_PX_PER_MM)
        if self.markers:
            draw_markers(texture, self.layout, TEXTURE_PX_PER_MM, TABLE_MARGIN_MM)
        to_table = np.array([[1 / TEXTURE_PX_PER_MM, 0, -TABLE_MARGIN_MM],
                             [0, 1 / TEXTURE_PX_PER_MM, -TABLE_MARGIN_MM], [0, 0, 1]])
        size = self.camera.canvas_size
        floor = rng.uniform(15, 60, 3)
        table = cv2.warpPerspective(texture, self.camera.canvas_homography() @ to_table, size,
                                    flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                    borderValue=tuple(float(v) for v in floor))
        edge = cv2.warpPerspective(np.full((n, n), 255, np.uint8),
                                   self.camera.canvas_homography() @ to_table, size)
        beyond = cv2.GaussianBlur((edge == 0).astype(np.float32), (0, 0), 3)
        floor_tex = 1 + 0.3 * smooth_noise(rng, (size[1], size[0]), 60)
        table = table.astype(np.float32)
        table *= (1 - beyond * (1 - floor_tex * 0.8))[..., None]
        return np.clip(table, 0, 255).astype(np.uint8)

    def light(self) -> tuple[np.ndarray, np.ndarray | None]:
        """Per-pixel gain (x128, uint8, canvas-sized, 3 channels) and glare (uint8 or None)."""
        if self._light is None:
            rng = np.random.default_rng([self.seed, 2])
            w, h = self.camera.canvas_size
            look = self.look
            field_ = 1 + look.unevenness * smooth_noise(rng, (h, w), max(w, h) / 2.5)
            xx = ((np.arange(w, dtype=np.float32) - w / 2) / (w / 2)) ** 2
            yy = ((np.arange(h, dtype=np.float32) - h / 2) / (h / 2)) ** 2
            r2 = yy[:, None] + xx[None, :]
            field_ *= 1 - look.vignette * np.clip(r2 / 2, 0, 1)
            gains = np.array(look.white_balance, np.float32) * look.exposure
            self._light = np.clip(field_[..., None] * gains * 128, 0, 255).astype(np.uint8)
            if look.glare > 0:
                gx, gy = look.glare_at[0] * w, look.glare_at[1] * h
                radius = look.glare_size * w
                d2 = (((np.arange(w, dtype=np.float32) - gx) ** 2)[None, :]
                      + ((0.7 * (np.arange(h, dtype=np.float32) - gy)) ** 2)[:, None]) / radius ** 2
                glare = np.clip(look.glare * np.exp(-d2), 0, 255).astype(np.uint8)
                self._glare = cv2.merge([glare, glare, glare])
        return self._light, self._glare

    def fixed_noise(self) -> np.ndarray:
        """One sensor-noise pattern (int16, picture-sized) for clips: noise that changes every
        frame would make the video many times bigger without making it any harder to read."""
        if self._noise is None:
            self._noise = np.zeros((self.camera.height, self.camera.width, 3), np.int16)
            cv2.setRNGSeed(self.seed)
            cv2.randn(self._noise, 0, self.look.noise)
        return self._noise


@dataclass
class Scene:
    cards: list[CardOnTable] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    props: list[Prop] = field(default_factory=list)


@dataclass(frozen=True)
class CardLabel:
    card: Card | str
    seat: Seat | None
    corners: np.ndarray  # 4x2 picture pixels, clockwise from the card's top-left
    visible: float  # fraction of the card that shows in the picture
    index: int = 0  # 1 + the card's index in the scene (its value in the id map)


def draw_markers(texture: np.ndarray, layout: TableLayout, px_per_mm: float,
                 offset_mm: float) -> None:
    """Print the four ArUco markers (with a white margin) onto a table texture."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id, square in layout.marker_squares().items():
        x0, y0 = ((np.array(square[0]) + offset_mm) * px_per_mm).astype(int)
        side = int(round(layout.marker_mm * px_per_mm))
        quiet = int(round(side * 0.18))
        image = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        paper = np.full((side + 2 * quiet, side + 2 * quiet), 245, np.uint8)
        paper[quiet:quiet + side, quiet:quiet + side] = np.where(image > 127, 245, 25)
        top, left = y0 - quiet, x0 - quiet
        texture[top:top + paper.shape[0], left:left + paper.shape[1]] = paper[..., None]


def _plane_homography(camera: Camera, lift: float) -> np.ndarray:
    """Table-plane mm at ``lift`` mm above the table -> canvas pixels."""
    if lift == 0:
        return camera.canvas_homography()
    rotation = camera.rotation
    t = -rotation @ camera.centre - lift * rotation[:, 2]
    h = camera.matrix @ np.column_stack([rotation[:, 0], rotation[:, 1], t])
    shift = np.array([[1, 0, camera.pad], [0, 1, camera.pad], [0, 0, 1]], dtype=np.float64)
    h = shift @ h
    return h / h[2, 2]


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def _paste_card(canvas: np.ndarray, ids: np.ndarray, card: CardOnTable, h_canvas: np.ndarray,
                index: int) -> np.ndarray:
    """Warp one card's face onto the canvas; returns its corners on the canvas."""
    face_to_canvas = h_canvas @ card.face_to_table()
    fh, fw = card.face.shape[:2]
    corners = _project(face_to_canvas, np.array([(0, 0), (fw, 0), (fw, fh), (0, fh)], float))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return corners
    face = card.face
    on_screen = float(np.linalg.norm(corners[1] - corners[0]))
    if on_screen < 0.6 * fw:  # shrink first so that the warp does not alias
        k = max(on_screen * 1.5 / fw, 0.05)
        face = cv2.resize(face, (max(2, int(fw * k)), max(2, int(fh * k))),
                          interpolation=cv2.INTER_AREA)
        face_to_canvas = face_to_canvas @ np.diag([fw / face.shape[1], fh / face.shape[0], 1])
    to_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float) @ face_to_canvas
    patch = cv2.warpPerspective(face, to_roi, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = patch[..., 3:].astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1]
    roi[:] = (roi * (1 - alpha) + patch[..., :3] * alpha).astype(np.uint8)
    ids[y0:y1, x0:x1][alpha[..., 0] > 0.5] = index
    return corners


def _shade(canvas: np.ndarray, polygons: list[np.ndarray], blur: float, strength: float) -> None:
    """Darken the canvas under soft-edged ``polygons`` (a shadow), working on their box only."""
    pts = np.concatenate(polygons)
    margin = int(3 * blur) + 2
    ch, cw = canvas.shape[:2]
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + margin, [cw, ch])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    _fill(mask, [p - [x0, y0] for p in polygons], 255)
    mask = cv2.GaussianBlur(mask, (0, 0), blur)
    keep = 255 - (mask.astype(np.float32) * strength).astype(np.uint8)
    roi = canvas[y0:y1, x0:x1]
    roi[:] = cv2.multiply(roi, cv2.merge([keep, keep, keep]), scale=1 / 255)


def _fill(mask: np.ndarray, polygons: list[np.ndarray], value: float) -> None:
    for poly in polygons:
        # (an arm reaching towards a slanted camera can project some way beyond the int32
        # range, where the cast gave garbage and a warning: such points are held at its edge)
        fixed = np.clip(np.round(poly * 4), _INT32.min, _INT32.max)
        cv2.fillPoly(mask, [fixed.astype(np.int32)], value, cv2.LINE_AA, shift=2)


_INT32 = np.iinfo(np.int32)


def render(stage: Stage, scene: Scene, rng: np.random.Generator,
           with_ids: bool = False, labelled: bool = True) -> tuple[
               np.ndarray, list[CardLabel]] | tuple[np.ndarray, list[CardLabel], np.ndarray]:
    """The picture (BGR uint8, camera size) and the labels of the cards that show in it (none
    unless ``labelled``: a clip does without them); with ``with_ids`` also the picture's id map
    (int16: 0 for no card, else 1 + the card's index in ``scene.cards``), for training a
    detector."""
    camera, look = stage.camera, stage.look
    canvas = stage.backdrop().copy()
    ch, cw = canvas.shape[:2]
    ids = np.zeros((ch, cw), np.int16)
    h_table = camera.canvas_homography()
    light = np.array(look.light_direction, float)
    px_per_mm = _scale_at_centre(camera, stage.layout)

    for card in scene.cards:
        offset = light * (1.2 + 0.5 * card.lift)
        _shade(canvas, [_project(h_table, card.corners_mm() + offset)],
               max(0.8, 1.5 * px_per_mm), 0.6 * look.shadow_strength)

    quads = []
    for index, card in enumerate(scene.cards, start=1):
        quads.append(_paste_card(canvas, ids, card, _plane_homography(camera, card.lift), index))

    for prop in scene.props:
        h_prop = _plane_homography(camera, prop.height)
        for outline, colour in prop.layers():
            poly = _project(h_prop, outline)
            cv2.fillPoly(canvas, [np.round(poly * 4).astype(np.int32)], colour, cv2.LINE_AA,
                         shift=2)
            cv2.fillPoly(ids, [np.round(poly).astype(np.int32)], 0)

    outlines = []
    for hand in scene.hands:
        shade = np.array(look.light_direction) * hand.lift * 0.9
        outlines += [_project(h_table, o + shade) for o in hand.outlines()]
    for prop in scene.props:
        shade = np.array(look.light_direction) * prop.height * 0.5
        outlines.append(_project(h_table, prop.layers()[0][0] + shade))
    if outlines:
        _shade(canvas, outlines, max(1.0, 6 * px_per_mm), look.shadow_strength)
    for hand in scene.hands:
        _draw_hand(canvas, ids, hand, _plane_homography(camera, hand.lift), rng)

    picture = _develop(stage, canvas, rng)
    labels = _labels(stage, scene, quads, ids) if labelled else []
    if with_ids:
        return picture, labels, camera.bend(ids, nearest=True)
    return picture, labels


def _scale_at_centre(camera: Camera, layout: TableLayout) -> float:
    """Roughly how many canvas pixels one millimetre of table covers near the centre."""
    cx, cy = layout.centre
    p = _project(camera.canvas_homography(), np.array([(cx, cy), (cx + 10, cy)]))
    return float(np.linalg.norm(p[1] - p[0])) / 10


def _draw_hand(canvas: np.ndarray, ids: np.ndarray, hand: Hand, h_hand: np.ndarray,
               rng: np.random.Generator) -> None:
    outlines = [_project(h_hand, o) for o in hand.outlines()]
    allpts = np.concatenate(outlines)
    ch, cw = canvas.shape[:2]
    x0, y0 = np.maximum(np.floor(allpts.min(axis=0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(allpts.max(axis=0)).astype(int) + 4, [cw, ch])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    _fill(mask, [o - [x0, y0] for o in outlines], 1.0)
    size = max(2.0, float(np.sqrt(mask.sum())) / 12)
    body = cv2.GaussianBlur(mask, (0, 0), size)
    shade = 0.62 + 0.5 * np.clip(body / max(float(body.max()), 1e-6), 0, 1)
    grain = 1 + 0.04 * smooth_noise(rng, mask.shape, max(3.0, size))
    colour = np.array(hand.skin, np.float32)
    hand_rgb = colour[None, None, :] * (shade * grain)[..., None]
    soft = cv2.GaussianBlur(mask, (0, 0), 0.7)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1 - soft) + hand_rgb * soft, 0, 255).astype(np.uint8)
    ids[y0:y1, x0:x1][mask > 0.3] = 0


def _develop(stage: Stage, canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    look, camera = stage.look, stage.camera
    gain, glare = stage.light()
    image = cv2.multiply(canvas, gain, scale=1 / 128)
    if glare is not None:
        image = cv2.add(image, glare)
    image = camera.bend(image)
    if look.defocus > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), look.defocus)
    if look.motion >= 2:
        image = cv2.filter2D(image, -1, motion_kernel(look.motion, look.motion_angle))
    if look.noise > 0:
        if stage.steady_noise:
            noise = stage.fixed_noise()
        else:
            noise = np.empty(image.shape, np.int16)
            cv2.setRNGSeed(int(rng.integers(2 ** 31)))
            cv2.randn(noise, 0, look.noise)
            # sensor noise is mostly brightness noise: make the channels move together
            shared = noise[..., :1].copy()
            noise = cv2.addWeighted(noise, 0.35, np.repeat(shared, 3, axis=2), 0.94, 0,
                                    dtype=cv2.CV_16S)
        image = cv2.add(image, noise, dtype=cv2.CV_8U)
    return np.ascontiguousarray(image)


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * (length - 1) / 2, math.sin(a) * (length - 1) / 2
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))),
             (int(round(c + dx)), int(round(c + dy))), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def _labels(stage: Stage, scene: Scene, quads: list[np.ndarray],
            ids: np.ndarray) -> list[CardLabel]:
    camera = stage.camera
    p = camera.pad
    inside = ids[p:p + camera.height, p:p + camera.width]
    counts = np.bincount(inside.ravel().clip(0), minlength=len(scene.cards) + 1)
    labels = []
    for index, (card, quad) in enumerate(zip(scene.cards, quads), start=1):
        area = abs(cv2.contourArea(quad.astype(np.float32)))
        visible = min(1.0, counts[index] / area) if area > 0 else 0.0
        if visible <= 0.02:
            continue
        seat = stage.layout.seat_at(*card.centre) if card.lift == 0 else None
        labels.append(CardLabel(card.card, seat, camera.canvas_to_picture(quad), visible,
                                index))
    return labels
