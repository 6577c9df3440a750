"""Synthetic training crops for the card classifier.

A crop is what the classifier sees at run time: a card cut out of a picture along the outline
the detector found, warped upright to ``CROP_SIZE``. To learn to read it in any conditions, each
training crop is made the long way round:

1. the face is laid on a patch of procedural table (and sometimes half-covered by a hand,
   overlapped by another card or running off the picture), slightly tilted in perspective;
2. the outline used to cut it out is the true one plus detector-sized errors (with the
   detector's long tail of bad outlines), either way up;
3. the cut-out is degraded as a camera would: too few pixels (a far card), defocus or motion
   blur, dim or bright or coloured light, glare, sensor noise, JPEG.

"Not a card" crops are cut from tables, hands, props, markers, two overlapping cards or a card
with most of it outside the outline; they teach the model to say when there is nothing to read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..cardclasses import BACK, CLASSES, CROP_SIZE, NOT_A_CARD
from ..studio.backs import random_back
from ..studio.objects import SKIN_TONES
from ..studio.surfaces import KINDS, surface

PATCH = 3.0  # the patch around a card is this many card widths across


@dataclass
class CropMaker:
    """Makes crops from a set of face sets; ``rng`` drives everything."""

    faces: list  # FaceSet objects
    rng: np.random.Generator
    size: tuple[int, int] = CROP_SIZE
    # the share of the backs that are made up (``vision.studio.backs``), each one new, instead
    # of a design's own
    random_backs: float = 0.0

    def __post_init__(self) -> None:
        self.tables = [surface(KINDS[i % len(KINDS)], self.rng, (300, 300), 1.0)
                       for i in range(12)]

    # -- pieces ----------------------------------------------------------------------------

    def _table_patch(self, w: int, h: int) -> np.ndarray:
        table = self.tables[int(self.rng.integers(len(self.tables)))]
        k = self.rng.uniform(0.6, 2.0)
        tile = cv2.resize(table, None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR)
        reps = (math.ceil(h / tile.shape[0]) + 1, math.ceil(w / tile.shape[1]) + 1, 1)
        tiled = np.tile(tile, reps)
        y = int(self.rng.integers(0, tiled.shape[0] - h + 1))
        x = int(self.rng.integers(0, tiled.shape[1] - w + 1))
        return tiled[y:y + h, x:x + w].copy()

    def _paste(self, canvas: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
        fh, fw = face.shape[:2]
        src = np.array([(0, 0), (fw, 0), (fw, fh), (0, fh)], np.float32)
        matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        h, w = canvas.shape[:2]
        warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_AREA
                                     if fw > 2 * np.linalg.norm(quad[1] - quad[0])
                                     else cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3:].astype(np.float32) / 255
        canvas[:] = (canvas * (1 - alpha) + warped[..., :3] * alpha).astype(np.uint8)

    def _hand(self, canvas: np.ndarray, cover: float) -> None:
        """A skin-coloured blob (fingers and palm) reaching in from one side."""
        h, w = canvas.shape[:2]
        mask = np.zeros((h, w), np.uint8)
        side = int(self.rng.integers(4))
        depth = cover * (w if side % 2 else h)
        for _ in range(int(self.rng.integers(1, 5))):
            r = int(self.rng.uniform(0.05, 0.12) * w)
            along = self.rng.uniform(0.1, 0.9)
            if side == 0:
                p0, p1 = (int(along * w), -r), (int(along * w + self.rng.normal(0, r)), int(depth))
            elif side == 1:
                p0, p1 = (w + r, int(along * h)), (int(w - depth), int(along * h))
            elif side == 2:
                p0, p1 = (int(along * w), h + r), (int(along * w), int(h - depth))
            else:
                p0, p1 = (-r, int(along * h)), (int(depth), int(along * h))
            cv2.line(mask, p0, p1, 255, 2 * r)
            cv2.circle(mask, p1, r, 255, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 1.2).astype(np.float32)[..., None] / 255
        skin = np.array(SKIN_TONES[int(self.rng.integers(len(SKIN_TONES)))], np.float32)
        shade = 0.8 + 0.3 * self.rng.random()
        canvas[:] = (canvas * (1 - mask) + skin * shade * mask).astype(np.uint8)

    def _card_quad(self, cx: float, cy: float, cw: float, ch: float, turn: float,
                   tilt: float) -> np.ndarray:
        local = np.array([(-cw / 2, -ch / 2), (cw / 2, -ch / 2), (cw / 2, ch / 2),
                          (-cw / 2, ch / 2)])
        local += self.rng.normal(0, tilt * cw, (4, 2))  # perspective left after rectifying
        c, s = math.cos(turn), math.sin(turn)
        return local @ np.array([[c, s], [-s, c]]) + [cx, cy]

    def _degrade(self, crop: np.ndarray, hard: bool) -> np.ndarray:
        rng = self.rng
        w, h = self.size
        if rng.random() < 0.6:  # a far card: fewer pixels than the crop (down to 29x43)
            k = rng.uniform(0.45, 1.0)
            small = cv2.resize(crop, (max(8, int(w * k)), max(12, int(h * k))),
                               interpolation=cv2.INTER_AREA)
            crop = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        if rng.random() < 0.35:
            crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(0.3, 1.3 if hard else 0.9))
        if rng.random() < 0.25:
            length = int(rng.integers(3, 9 if hard else 6))
            kernel = np.zeros((length, length), np.float32)
            a = rng.uniform(0, math.pi)
            c = length // 2
            cv2.line(kernel, (int(c - math.cos(a) * c), int(c - math.sin(a) * c)),
                     (int(c + math.cos(a) * c), int(c + math.sin(a) * c)), 1.0, 1)
            crop = cv2.filter2D(crop, -1, kernel / kernel.sum())
        image = crop.astype(np.float32)
        gain = rng.uniform(0.3 if hard else 0.5, 1.3)
        cast = rng.uniform(0.85, 1.15, 3)
        gamma = rng.uniform(0.7, 1.4)
        image = 255 * (np.clip(image * gain * cast / 255, 0, 1) ** gamma)
        if rng.random() < 0.3:  # uneven light across the card
            ramp = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(1.0, 1.3), w if rng.random()
                               < 0.5 else h, dtype=np.float32)
            image *= ramp[None, :, None] if len(ramp) == w else ramp[:, None, None]
        if rng.random() < 0.15:  # glare
            gx, gy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(8, 30)
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            image += rng.uniform(40, 140) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / r ** 2)[
                ..., None]
        sigma = rng.uniform(0, 12 if hard else 6) * (1.3 - 0.3 * min(gain, 1))
        image += rng.normal(0, sigma, (h, w, 1)) + rng.normal(0, sigma * 0.3, (h, w, 3))
        crop = np.clip(image, 0, 255).astype(np.uint8)
        if rng.random() < 0.7:
            quality = int(rng.integers(30 if hard else 50, 96))
            ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, quality])
            crop = cv2.imdecode(data, cv2.IMREAD_COLOR)
        return crop

    # -- crops -----------------------------------------------------------------------------

    def crop(self, label: str, hard: bool = True) -> np.ndarray:
        """One crop of class ``label`` (a card name, ``back`` or ``none``)."""
        if label == NOT_A_CARD:
            return self._degrade(self._nothing(), hard)
        rng = self.rng
        faces = self.faces[int(rng.integers(len(self.faces)))]
        face = faces.face(label if label == BACK else _card(label))
        if label == BACK and self.random_backs and rng.random() < self.random_backs:
            face = random_back(rng, face.shape[1], face.shape[0], self.faces)
        fh, fw = face.shape[:2]
        cw = 100.0
        ch = cw * fh / fw
        pw, ph = int(cw * PATCH), int(ch * PATCH * 0.8)
        canvas = self._table_patch(pw, ph)
        cx, cy = pw / 2, ph / 2
        true = self._card_quad(cx, cy, cw, ch, rng.uniform(-0.08, 0.08), 0.03)
        if rng.random() < 0.25:  # a neighbour card underneath, peeking out
            other = self.faces[int(rng.integers(len(self.faces)))].face(
                CLASSES[int(rng.integers(52))] if rng.random() < 0.9 else BACK)
            shift = rng.choice([-1, 1]) * rng.uniform(0.7, 1.0) * cw
            self._paste(canvas, _as_face(other), self._card_quad(
                cx + shift, cy + rng.normal(0, 20), cw, ch, rng.uniform(-0.5, 0.5), 0.02))
        self._paste(canvas, face, true)
        if rng.random() < (0.2 if hard else 0.1):  # a thumb or fingertip over an edge
            self._hand_over(canvas, true, rng.uniform(0.05, 0.2))
        if rng.random() < (0.1 if hard else 0.05):  # the card runs off the picture
            canvas = off_the_picture(canvas, true, rng.uniform(0.08, 0.35), rng)
        cut = self.outline_error(true)
        if rng.random() < 0.5:  # the detector cannot tell a card's top from its bottom
            cut = np.roll(cut, 2, axis=0)
        return self._degrade(_cut(canvas, cut, self.size), hard)

    def outline_error(self, true: np.ndarray) -> np.ndarray:
        """The outline the detector might give for a card whose true outline is ``true``
        (corners in order round a portrait card). Measured against the hard test set's truth,
        the detector's corners are a median 1.8 % of the card's width out, but one in ten is
        over 13 % out (mostly on oblique photographs), and on a table whose cards are not of
        the standard proportions the outline can fall short of a card's ends."""
        rng = self.rng
        width = float(np.linalg.norm(true[1] - true[0]))
        spread = rng.uniform(0.005, 0.04) if rng.random() < 0.75 else rng.uniform(0.04, 0.11)
        cut = true + rng.normal(0, spread * width, (4, 2))
        if rng.random() < 0.2:  # too short or too long along the card's length
            centre = cut.mean(axis=0)
            along = true[3] - true[0]
            along /= max(float(np.linalg.norm(along)), 1e-6)
            reach = (cut - centre) @ along
            cut = cut + np.outer(reach * (rng.uniform(0.88, 1.08) - 1), along)
        return cut

    def _hand_over(self, canvas: np.ndarray, quad: np.ndarray, cover: float) -> None:
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
        roi = canvas[max(y0, 0):y1, max(x0, 0):x1]
        self._hand(roi, cover)

    def _nothing(self) -> np.ndarray:
        rng = self.rng
        kind = rng.random()
        w, h = self.size
        canvas = self._table_patch(w * 3, h * 3)
        quad = self._card_quad(w * 1.5, h * 1.5, w * 1.5, h * 1.5, rng.uniform(-0.2, 0.2), 0.04)
        faces = self.faces[int(rng.integers(len(self.faces)))]
        if kind < 0.25:  # bare table, perhaps a hand
            if rng.random() < 0.5:
                self._hand(canvas, rng.uniform(0.3, 1.0))
        elif kind < 0.45:  # a card mostly outside the outline
            face = faces.face(_card(CLASSES[int(rng.integers(52))]))
            off = rng.choice([-1, 1], 2) * rng.uniform(0.55, 0.9, 2) * [w * 1.5, h * 1.5]
            shifted = rng.random(2) < 0.7
            shifted[int(rng.integers(2))] = True  # never neither: that is a whole card
            self._paste(canvas, face, quad + off * shifted)
        elif kind < 0.65:  # a card almost all under a hand
            face = faces.face(_card(CLASSES[int(rng.integers(52))]))
            self._paste(canvas, face, quad)
            self._hand_over(canvas, quad, rng.uniform(0.6, 1.0))
        elif kind < 0.8:  # two cards overlapping half and half
            for shift in (-0.5, 0.5):
                face = faces.face(_card(CLASSES[int(rng.integers(52))]))
                self._paste(canvas, face, quad + [shift * w * 1.5, rng.normal(0, 10)])
        elif kind < 0.9:  # a table marker
            marker = cv2.aruco.generateImageMarker(
                cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                int(rng.integers(4)), 120)
            paper = cv2.copyMakeBorder(marker, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=245)
            self._paste(canvas, _as_face(cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)), quad)
        else:  # a phone or cup seen from above
            colour = rng.integers(0, 255, 3).tolist()
            cv2.ellipse(canvas, (int(w * 1.5), int(h * 1.5)), (int(w * 0.6), int(h * 0.5)),
                        0, 0, 360, colour, -1)
            cv2.ellipse(canvas, (int(w * 1.5), int(h * 1.5)), (int(w * 0.5), int(h * 0.4)),
                        0, 0, 360, (30, 40, 60), -1)
        return _cut(canvas, quad, self.size)


def off_the_picture(canvas: np.ndarray, quad: np.ndarray, share: float,
                    rng: np.random.Generator) -> np.ndarray:
    """``canvas`` as if the picture ended along a straight line, at a random angle, across the
    card outlined by ``quad``, with ``share`` of the card's extent across that line beyond it.
    What lies beyond is the picture's last pixels drawn out, as in a crop cut past a picture's
    edge (``rectify`` replicates the border)."""
    angle = rng.uniform(0, 2 * math.pi)
    normal = np.array([math.cos(angle), math.sin(angle)])
    reach = quad @ normal
    edge = reach.max() - share * (reach.max() - reach.min())
    h, w = canvas.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    beyond = np.maximum(xx * normal[0] + yy * normal[1] - edge, 0)
    return cv2.remap(canvas, (xx - beyond * normal[0]).astype(np.float32),
                     (yy - beyond * normal[1]).astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _card(name: str):
    from referee.cards import Card

    return Card.parse(name)


def _as_face(image: np.ndarray) -> np.ndarray:
    if image.shape[2] == 4:
        return image
    return np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])


def _cut(canvas: np.ndarray, quad: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    from ..geometry import rectify

    return rectify(canvas, quad, size, ordered=True)
