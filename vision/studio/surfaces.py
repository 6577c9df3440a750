"""Procedural table surfaces: felt, wood and cloth, drawn at a given scale (px per mm).

Every surface is made from the same few ingredients: smooth random fields at several sizes
(mottling, uneven dye, grain), fine per-pixel noise (fibres) and, for cloth, a printed or woven
pattern. Colours are BGR. ``surface(kind, ...)`` is deterministic for a given generator.
"""

from __future__ import annotations

import cv2
import numpy as np

KINDS = ("green felt", "blue felt", "red felt", "wood", "plain cloth", "patterned cloth")


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cell: float) -> np.ndarray:
    """A smooth random field in [-1, 1] whose features are about ``cell`` pixels across."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)),
                                dtype=np.float32)
    field = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(field / 2.0, -1, 1)


def _tint(base: np.ndarray, field: np.ndarray, amount: float) -> np.ndarray:
    return base.astype(np.float32)[None, None, :] * (1 + amount * field[..., None])


def felt(rng: np.random.Generator, shape: tuple[int, int], colour: tuple[int, int, int],
         px_per_mm: float) -> np.ndarray:
    base = np.array(colour, np.float32) * rng.uniform(0.8, 1.15, 3)
    image = _tint(base, smooth_noise(rng, shape, 180 * px_per_mm), 0.10)
    image *= 1 + 0.05 * smooth_noise(rng, shape, 25 * px_per_mm)[..., None]
    fibres = rng.standard_normal(shape, dtype=np.float32)
    fibres = cv2.GaussianBlur(fibres, (0, 0), 0.6)
    image *= 1 + 0.06 * fibres[..., None]
    return image


def wood(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    h, w = shape
    browns = [(40, 80, 140), (30, 60, 110), (60, 110, 170), (25, 45, 80), (70, 130, 190)]
    base = np.array(browns[rng.integers(len(browns))], np.float32) * rng.uniform(0.85, 1.1, 3)
    along_x = rng.random() < 0.5
    across = np.arange(h if along_x else w, dtype=np.float32)[:, None] / px_per_mm
    along = np.arange(w if along_x else h, dtype=np.float32)[None, :] / px_per_mm
    warp = 8 * smooth_noise(rng, (len(across), along.shape[1]), 120 * px_per_mm)
    period = rng.uniform(3, 7)
    grain = np.sin((across + warp + 0.01 * along) * 2 * np.pi / period)
    grain = 0.5 + 0.5 * grain
    grain = grain ** rng.uniform(2, 5)
    fine = smooth_noise(rng, grain.shape, 1.5 * px_per_mm)
    plank = rng.uniform(90, 160) * px_per_mm
    seams = (np.abs(((across * px_per_mm) % plank) - plank / 2) > plank / 2 - 1.2).astype(np.float32)
    seams = np.broadcast_to(seams, grain.shape)
    shade = 1 - 0.25 * grain + 0.05 * fine - 0.35 * seams
    if not along_x:
        shade = shade.T
    plank_tone = smooth_noise(rng, shape, 200 * px_per_mm)
    image = _tint(base, plank_tone, 0.12) * shade[..., None]
    return image


def cloth(rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float,
          patterned: bool) -> np.ndarray:
    h, w = shape
    palette = [(200, 200, 205), (150, 180, 210), (60, 60, 140), (170, 120, 60), (90, 140, 90),
               (210, 225, 235), (50, 50, 50)]
    first = np.array(palette[rng.integers(len(palette))], np.float32)
    image = _tint(first, smooth_noise(rng, shape, 150 * px_per_mm), 0.08)
    xx = np.arange(w, dtype=np.float32)[None, :] / px_per_mm
    yy = np.arange(h, dtype=np.float32)[:, None] / px_per_mm
    if patterned:
        second = np.array(palette[rng.integers(len(palette))], np.float32)
        if np.abs(second - first).sum() < 80:
            second = 255 - first
        period = rng.uniform(15, 45)
        style = rng.integers(3)
        if style == 0:  # gingham checks
            mix = ((np.floor(xx / period) % 2) + (np.floor(yy / period) % 2)) / 2
        elif style == 1:  # stripes
            mix = np.floor((xx + yy * rng.uniform(-0.3, 0.3)) / period) % 2
        else:  # dots
            gx = (xx % period) - period / 2
            gy = (yy % period) - period / 2
            mix = (gx * gx + gy * gy < (period / 4) ** 2)
        mix = np.ascontiguousarray(np.broadcast_to(mix.astype(np.float32), (h, w)))
        mix = cv2.GaussianBlur(mix, (0, 0), 0.4 * px_per_mm)[..., None] * 0.8
        image = image * (1 - mix) + second[None, None, :] * mix
    fibres = cv2.GaussianBlur(rng.standard_normal(shape, dtype=np.float32), (0, 0), 0.7)
    image *= 1 + 0.04 * fibres[..., None]
    return image


def surface(kind: str, rng: np.random.Generator, shape: tuple[int, int],
            px_per_mm: float) -> np.ndarray:
    """A BGR uint8 texture of ``shape`` (rows, cols) pixels for the surface ``kind``."""
    if kind == "green felt":
        image = felt(rng, shape, (60, 110, 20), px_per_mm)
    elif kind == "blue felt":
        image = felt(rng, shape, (120, 60, 20), px_per_mm)
    elif kind == "red felt":
        image = felt(rng, shape, (30, 30, 120), px_per_mm)
    elif kind == "wood":
        image = wood(rng, shape, px_per_mm)
    elif kind in ("plain cloth", "patterned cloth"):
        image = cloth(rng, shape, px_per_mm, kind == "patterned cloth")
    else:
        raise ValueError(f"unknown surface '{kind}' (one of: {', '.join(KINDS)})")
    return np.clip(image, 0, 255).astype(np.uint8)
