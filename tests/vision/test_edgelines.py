"""The card on top of a photograph's region, found by its four straight edges (no models)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.edgelines import cards_on_top


def _card(centre, size, degrees) -> np.ndarray:
    return cv2.boxPoints(((float(centre[0]), float(centre[1])), size, degrees)).astype(np.float64)


def _picture(cards, pips: bool = False) -> np.ndarray:
    """A dark table with light cards drawn in turn (the last on top), each with a thin grey
    rim as a card's edge shows; ``pips``: rows of dark pips on each card."""
    picture = np.full((540, 720), 60, np.uint8)
    rng = np.random.default_rng(0)
    for corners, shade in cards:
        cv2.fillConvexPoly(picture, np.round(corners).astype(np.int32), shade, cv2.LINE_AA)
        cv2.polylines(picture, [np.round(corners).astype(np.int32)], True, 150, 1, cv2.LINE_AA)
        if pips:
            a, b, _, d = corners
            for u in (0.3, 0.7):
                for v in np.linspace(0.2, 0.8, 4):
                    centre = a + u * (b - a) + v * (d - a)
                    cv2.circle(picture, tuple(int(c) for c in np.round(centre)), 7, 30, -1)
    noisy = picture.astype(np.float32) + rng.normal(0, 3, picture.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _off(found, corners) -> float:
    """The furthest a corner of ``found`` lies from its nearest corner of ``corners``."""
    return float(np.linalg.norm(found[:, None] - corners[None], axis=2).min(axis=0).max())


def test_the_card_lying_over_another_is_found_by_its_four_edges():
    """Two cards pushed together make one region, which the detector outlines as a rectangle
    about both. The card on top shows four straight edges, one of them across the card under
    it; the card under it shows only three, so it is not found."""
    under = _card((300, 260), (180, 250), 10)
    top = _card((420, 300), (180, 250), -20)
    picture = _picture([(under, 215), (top, 240)])
    region = cv2.boxPoints(cv2.minAreaRect(np.concatenate([under, top]).astype(np.float32)))
    found = cards_on_top(picture, region)
    assert found and _off(found[0], top) < 4, found
    assert all(_off(quad, under) > 15 for quad in found)


def test_a_lone_card_is_its_own_card_on_top_and_its_rows_of_pips_are_no_card():
    """A card alone: the best outline is its own, though its pips stand in straight rows."""
    card = _card((360, 270), (200, 280), 25)
    found = cards_on_top(_picture([(card, 235)], pips=True), card)
    assert found and _off(found[0], card) < 4, found


def test_a_region_too_small_or_without_four_edges_gives_nothing():
    picture = _picture([])
    assert cards_on_top(picture, _card((360, 270), (200, 280), 0)) == []
    assert cards_on_top(picture, _card((2, 2), (4, 4), 0)) == []
