"""The classifier's training crops (made without PyTorch, so tested everywhere)."""

from __future__ import annotations

import numpy as np

from vision.cardclasses import CROP_SIZE
from vision.studio.facesets import TinyFaces
from vision.train.crops import CropMaker, off_the_picture


def test_not_a_card_crops_never_hold_a_whole_card_alone():
    maker = CropMaker([TinyFaces(0)], np.random.default_rng(5))
    pasted: list[tuple[tuple[int, ...], np.ndarray]] = []
    covered: list[bool] = []
    paste, hand_over = maker._paste, maker._hand_over
    maker._paste = lambda canvas, face, quad: (pasted.append((face.shape, quad.copy())),
                                               paste(canvas, face, quad))[1]
    maker._hand_over = lambda *a: (covered.append(True), hand_over(*a))[1]
    w, h = CROP_SIZE
    lone = 0
    for _ in range(400):
        pasted.clear()
        covered.clear()
        crop = maker._nothing()
        assert crop.shape == (h, w, 3)
        cards = [quad for shape, quad in pasted if shape[0] != shape[1]]  # markers are square
        if len(cards) != 1 or covered:
            continue
        lone += 1
        # the crop is cut along a card-sized quad about the canvas's middle
        shift = np.abs(cards[0].mean(axis=0) - (w * 1.5, h * 1.5)) / (w * 1.5, h * 1.5)
        assert shift.max() >= 0.5, "a whole card taught as 'not a card'"
    assert lone > 30  # the case was exercised


def test_card_outlines_carry_the_detectors_long_tail_of_errors():
    """Most outlines are close to the card, but some are as far out as the detector's worst
    tenth (over 8 % of the card's width on average per corner), and none is so far out that
    it could be taken for a card mostly outside the outline."""
    maker = CropMaker([TinyFaces(0)], np.random.default_rng(3))
    true = np.array([(0.0, 0.0), (100.0, 0.0), (100.0, 140.0), (0.0, 140.0)])
    errors = np.array([np.linalg.norm(maker.outline_error(true) - true, axis=1).mean() / 100
                       for _ in range(2000)])
    assert np.median(errors) < 0.05
    assert 0.08 < (errors > 0.08).mean() < 0.35
    assert errors.max() < 0.45


def test_a_card_running_off_the_picture_is_drawn_out_from_the_edge():
    yy, xx = np.mgrid[0:200, 0:160]
    canvas = np.dstack([xx, yy, (xx + yy) // 2]).astype(np.uint8)  # smooth, all different
    quad = np.array([(40.0, 40.0), (120.0, 40.0), (120.0, 150.0), (40.0, 150.0)])
    angle = np.random.default_rng(9).uniform(0, 2 * np.pi)  # what the function will draw
    out = off_the_picture(canvas, quad, 0.3, np.random.default_rng(9))
    normal = np.array([np.cos(angle), np.sin(angle)])
    reach = quad @ normal
    edge = reach.max() - 0.3 * (reach.max() - reach.min())
    along = xx * normal[0] + yy * normal[1]
    assert (out[along < edge - 1] == canvas[along < edge - 1]).all()  # the picture itself
    far = along > edge + 3
    assert far.sum() > 500 and (out[far] != canvas[far]).any()
    # beyond the edge, the picture is the same all the way along each normal
    step = np.round(xx + 3 * normal[0]).astype(int), np.round(yy + 3 * normal[1]).astype(int)
    inside = far & (step[0] >= 0) & (step[0] < 160) & (step[1] >= 0) & (step[1] < 200)
    diff = np.abs(out[inside].astype(int) - out[step[1][inside], step[0][inside]].astype(int))
    assert np.median(diff) <= 2


class _TopDark:
    """A face set whose every face is dark in its top half and light in its bottom half."""

    def face(self, card) -> np.ndarray:  # noqa: ANN001
        face = np.full((140, 100, 4), 235, np.uint8)
        face[:70, :, :3] = 20
        return face


def test_card_crops_come_either_way_up():
    """The detector cannot tell a card's top from its bottom, so at run time a card is cut out
    upside down as often as not; the training crops must be too."""
    maker = CropMaker([_TopDark()], np.random.default_rng(11))
    h = CROP_SIZE[1]
    upright = []
    for _ in range(200):
        crop = maker.crop("7H", hard=False).astype(float)
        top, bottom = crop[h // 8:h * 3 // 8].mean(), crop[h * 5 // 8:h * 7 // 8].mean()
        upright.append(top < bottom)
    assert 0.35 < np.mean(upright) < 0.65


def test_made_up_backs_are_each_new_with_rounded_corners():
    """Every made-up back differs from the others (from one generator, and from generators of
    different seeds), has the size asked for, and is opaque but for its rounded corners."""
    from vision.studio.backs import random_back

    rng = np.random.default_rng(11)
    backs = [random_back(rng, 120, 180) for _ in range(30)]
    assert all(b.shape == (180, 120, 4) for b in backs)
    for b in backs:
        assert b[0, 0, 3] == 0 and b[-1, -1, 3] == 0  # rounded corners
        assert (b[20:-20, 20:-20, 3] == 255).all()
    flat = np.array([b[..., :3].astype(np.float32).ravel() for b in backs])
    distances = np.linalg.norm(flat[:, None] - flat[None], axis=2)
    assert distances[np.triu_indices(len(backs), 1)].min() > 0
    shapes = {str(random_back(np.random.default_rng(s), 60, 90)[45, :, :3].tolist())
              for s in range(12)}
    assert len(shapes) == 12


def test_a_share_of_the_training_backs_is_made_up_and_none_of_the_cards_are():
    drawn: list[str] = []
    import vision.train.crops as crops

    real = crops.random_back

    def spy(*args, **kwargs):
        drawn.append("back")
        return real(*args, **kwargs)

    crops.random_back = spy
    try:
        maker = CropMaker([TinyFaces(0)], np.random.default_rng(2), random_backs=0.5)
        for _ in range(200):
            maker.crop("back")
        backs = len(drawn)
        for _ in range(100):
            maker.crop("7H")
        plain = CropMaker([TinyFaces(0)], np.random.default_rng(2))
        for _ in range(50):
            plain.crop("back")
    finally:
        crops.random_back = real
    assert 60 < backs < 140  # about half of 200
    assert len(drawn) == backs  # no card crop, and no crop of a maker without the share
