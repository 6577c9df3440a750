"""The studio's design catalogue and face checks (no download needed)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

from referee import Card
from vision.studio.faces import (
    BACK,
    FACE_WIDTH,
    Design,
    StudioError,
    check_faces,
    designs_in,
    licence_of,
    load_catalogue,
)


def test_catalogue_splits_by_family_and_keeps_test_designs_apart():
    catalogue = load_catalogue()
    names = [d.name for d in catalogue]
    assert len(names) == len(set(names))
    splits_of_family = defaultdict(set)
    for design in catalogue:
        if design.skip:
            assert not design.split
            continue
        assert design.split in {"train", "val", "test"} and design.family
        assert design.licence, f"{design.name} has no licence recorded"
        splits_of_family[design.family].add(design.split)
    assert all(len(s) == 1 for s in splits_of_family.values()), splits_of_family
    assert len(designs_in("test")) >= 4 and len(designs_in("val")) >= 2
    assert len(designs_in("train")) > len(designs_in("test"))
    assert not {d.name for d in designs_in("train")} & {d.name for d in designs_in("test")}


def test_unknown_split():
    with pytest.raises(StudioError, match="no designs in split 'nope'"):
        designs_in("nope")


@pytest.mark.parametrize("ids, card, element", [
    ("aisleriot", "AS", "spade_1"), ("aisleriot", "10H", "heart_10"),
    ("aisleriot", "QD", "diamond_queen"), ("kde", "JC", "jack_club"), ("kde", "7S", "7_spade"),
    ("kde", BACK, "back"),
])
def test_element_ids(ids, card, element):
    design = Design("x", "pkg", "x.svgz", ids)
    assert design.element_id(Card.parse(card) if card != BACK else BACK) == element


def test_licence_is_the_last_matching_copyright_stanza(tmp_path):
    doc = tmp_path / "usr" / "share" / "doc" / "kdegames-card-data-kf5"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(
        "Files: *\nCopyright: someone\nLicense: GPL-2+\n\n"
        "Files: carddecks/svg-penguins/*\nCopyright: someone else\nLicense: GPL-3+\n")
    penguins = Design("kde-penguins", "kdegames-card-data-kf5",
                      "usr/share/carddecks/svg-penguins/penguins.svgz", "kde")
    standard = Design("kde-standard", "kdegames-card-data-kf5",
                      "usr/share/carddecks/svg-standard/standard.svgz", "kde")
    assert licence_of(penguins, tmp_path) == "GPL-3+"
    assert licence_of(standard, tmp_path) == "GPL-2+"
    assert licence_of(Design("y", "missing-pkg", "y.svgz", "kde"), tmp_path) == "unknown"


def face(width: int = 100, height: int = 140, opaque: bool = True) -> np.ndarray:
    image = np.zeros((height, width, 4), np.uint8)
    image[:, :, 3] = 255 if opaque else 0
    image[:10, :10, 3] = 0  # a rounded corner's worth of transparency
    return image


def test_a_good_deck_passes():
    cards = [Card.parse("AS"), Card.parse("2C"), Card.parse("QH"), BACK]
    problem, height = check_faces(cards, [face() for _ in cards])
    assert problem is None and height == round(FACE_WIDTH * 1.4)


@pytest.mark.parametrize("odd, message", [
    (face(100, 80), "renders cut off or oversized"),
    (face(100, 140, opaque=False), "is not an opaque card"),
])
def test_a_bad_face_fails_the_deck(odd, message):
    cards = [Card.parse(c) for c in ("AS", "2C", "QH", "KD")]
    faces = [face(), face(), odd, face()]
    problem, _ = check_faces(cards, faces)
    assert problem is not None and message in problem and "QH" in problem


def test_cards_must_be_card_shaped():
    cards = [Card.parse(c) for c in ("AS", "2C")]
    problem, _ = check_faces(cards, [face(100, 100), face(100, 100)])
    assert problem is not None and "not card-shaped" in problem
