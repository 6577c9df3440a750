"""The studio's design catalogue and face checks (no download needed)."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest

from referee import Card
from referee.cards import FULL_DECK
from vision.studio.faces import (
    BACK,
    FACE_WIDTH,
    Design,
    StudioError,
    check_faces,
    designs_in,
    embedded_images,
    fetch_from_pool,
    licence_of,
    load_catalogue,
    pinned_packages,
    render_design,
    widened,
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


@pytest.mark.parametrize("ids, card, name", [
    # racket-common: ace low, suits in the order C D H S (card-0-0 is the ace of clubs)
    ("racket", "AC", "card-0-0@2x.png"), ("racket", "10C", "card-9-0@2x.png"),
    ("racket", "JD", "card-10-1@2x.png"), ("racket", "KS", "card-12-3@2x.png"),
    ("racket", BACK, "card-back@2x.png"),
    # pokerth-data: ace high, suits in the order D H S C (0.png is the two of diamonds)
    ("pokerth", "2D", "0.png"), ("pokerth", "JD", "9.png"), ("pokerth", "AH", "25.png"),
    ("pokerth", "AS", "38.png"), ("pokerth", "AC", "51.png"), ("pokerth", BACK, "flipside.png"),
    # pysolfc-cardsets: the rank in two digits, ace low, then the suit's letter
    ("pysol", "AC", "01c.gif"), ("pysol", "10H", "10h.gif"), ("pysol", "JD", "11d.gif"),
    ("pysol", "KS", "13s.gif"), ("pysol", BACK, "back01.gif"),
    # a PySolFC tarock cardset: a knight (12) between the jack (11) and the queen (13)
    ("pysol-tarock", "AC", "01c.gif"), ("pysol-tarock", "10H", "10h.gif"),
    ("pysol-tarock", "JD", "11d.gif"), ("pysol-tarock", "QD", "13d.gif"),
    ("pysol-tarock", "KS", "14s.gif"), ("pysol-tarock", BACK, "back01.gif"),
])
def test_bitmap_file_names(ids, card, name):
    design = Design("x", "pkg", "folder", ids)
    assert design.bitmap
    assert design.bitmap_file(Card.parse(card) if card != BACK else BACK) == name


def test_a_bitmap_design_is_read_trimmed_and_scaled(tmp_path):
    import cv2

    folder = tmp_path / "usr" / "cards"
    folder.mkdir(parents=True)
    design = Design("deck", "pkg", "usr/cards", "pokerth")
    for n, card in enumerate([*FULL_DECK, BACK]):
        image = np.zeros((80, 56, 4), np.uint8)  # a 48x76 card in a transparent margin
        image[2:78, 4:52] = (n, 255 - n, 128, 255)
        cv2.imwrite(str(folder / design.bitmap_file(card)), image)
    assert render_design(design, tmp_path, "", tmp_path / "out") is None
    ace = cv2.imread(str(tmp_path / "out" / "AS.png"), cv2.IMREAD_UNCHANGED)
    assert ace.shape == (round(FACE_WIDTH * 76 / 48), FACE_WIDTH, 4)
    assert ace[:, :, 3].min() == 255  # the margin was trimmed away
    (folder / design.bitmap_file(Card.parse("QH"))).unlink()
    problem = render_design(design, tmp_path, "", tmp_path / "out2")
    assert problem is not None and "QH" in problem and not (tmp_path / "out2").exists()


def test_a_pysol_cardset_is_read_in_either_bitmap_format_with_the_back_it_names(tmp_path):
    """A PySolFC cardset may draw its cards as PNG where the scheme names GIF files, and
    names the back it shows by default (of several) on the fifth line of its config.txt."""
    import cv2

    folder = tmp_path / "usr" / "cardset-x"
    folder.mkdir(parents=True)
    design = Design("pysol-x", "pkg", "usr/cardset-x", "pysol")
    for n, card in enumerate(FULL_DECK):
        image = np.full((96, 64, 4), 255, np.uint8)
        image[:, :, 0] = n
        cv2.imwrite(str(folder / design.bitmap_file(card).replace(".gif", ".png")), image)
    for name, blue in (("back01.png", 200), ("back101.png", 100)):
        image = np.full((96, 64, 4), 255, np.uint8)
        image[:, :, 0] = blue
        cv2.imwrite(str(folder / name), image)
    (folder / "config.txt").write_text("PySolFC solitaire cardset;7;.png;1;52;7\n"
                                       "1-x;X\n64 96 8\n16 20 7 7\nback101.png\n")
    assert render_design(design, tmp_path, "", tmp_path / "out") is None
    back = cv2.imread(str(tmp_path / "out" / "back.png"), cv2.IMREAD_UNCHANGED)
    assert abs(int(np.median(back[:, :, 0])) - 100) <= 2  # the back config.txt names
    five = cv2.imread(str(tmp_path / "out" / "5C.png"), cv2.IMREAD_UNCHANGED)
    assert abs(int(np.median(five[:, :, 0])) - FULL_DECK.index(Card.parse("5C"))) <= 2


def _narrow_card(picture: int) -> np.ndarray:
    """A 40x70 card as a tarock deck draws it: rounded (transparent) corners, a black
    border, a cream margin two pixels wide and a picture (``picture``) inside it."""
    card = np.zeros((70, 40, 4), np.uint8)
    card[:, :] = (0, 0, 0, 255)
    card[1:-1, 1:-1] = (200, 240, 250, 255)
    card[3:-3, 3:-3] = (picture, 60, 255 - picture, 255)
    for y, x in ((0, 0), (0, 1), (1, 0), (0, -1), (0, -2), (1, -1), (-1, 0), (-1, 1), (-2, 0),
                 (-1, -1), (-1, -2), (-2, -1)):
        card[y, x] = 0
    return card


def test_a_narrow_deck_is_widened_by_its_plain_margins_without_stretching_its_pictures():
    faces = [_narrow_card(n) for n in (10, 100, 200)]
    wide = widened(faces, 1.5)
    assert all(f.shape == (70, 47, 4) for f in wide)  # round(70 / 1.5) = 47 wide
    for face, before in zip(wide, faces):
        # the picture is as it was, only moved in by the columns added on the left
        assert np.array_equal(face[3:-3, 6:-7], before[3:-3, 3:-3])
        # the corners are still rounded, and the border runs on all round
        assert face[0, 0, 3] == 0 and face[-1, -1, 3] == 0 and face[0, 23, 3] == 255
        assert (face[0, 2:-2, :3] == 0).all() and (face[5:-5, 0, :3] == 0).all()
        assert (face[5:-5, -1, :3] == 0).all()
        assert (face[5:-5, 1:6, :3] == (200, 240, 250)).all()  # the margin, drawn out
    # a deck already wide enough, or whose margins are not plain on every card, stays as it is
    assert widened(faces, 1.8) == faces
    busy = [f.copy() for f in faces]
    busy[1][10, 1:3] = (0, 0, 255, 255)
    busy[2][10, -3:-1] = (0, 0, 255, 255)
    assert all(a is b for a, b in zip(widened(busy, 1.5), busy))


def test_the_tarock_decks_are_read_by_their_own_file_names_and_widened():
    catalogue = {d.name: d for d in load_catalogue()}
    vienna = catalogue["pysol-vienna-2k"]
    assert vienna.ids == "pysol-tarock" and vienna.split == "train"
    assert vienna.widen_to == 1.5 and vienna.bitmap
    assert vienna.bitmap_file(Card.parse("KH")) == "14h.gif"
    tarock = [d for d in catalogue.values() if d.ids == "pysol-tarock" and not d.skip]
    assert len(tarock) >= 4 and all(d.widen_to and d.split == "train" for d in tarock)
    pool, sha256 = pinned_packages()["pysolfc"]
    assert pool.startswith("pool/main/p/pysolfc/") and len(sha256) == 64


def test_a_package_from_the_pool_is_kept_only_if_its_checksum_matches(tmp_path):
    import hashlib

    mirror = tmp_path / "mirror"
    (mirror / "pool" / "main").mkdir(parents=True)
    (mirror / "pool" / "main" / "cards_1_all.deb").write_bytes(b"a Debian package")
    right = hashlib.sha256(b"a Debian package").hexdigest()
    debs = tmp_path / "debs"
    debs.mkdir()
    with pytest.raises(StudioError, match="SHA-256 differs"):
        fetch_from_pool("pool/main/cards_1_all.deb", "0" * 64, debs, f"file://{mirror}/")
    assert not list(debs.iterdir())  # nothing half-fetched or wrong is left behind
    with pytest.raises(StudioError, match="could not download"):
        fetch_from_pool("pool/main/none_1_all.deb", right, debs, f"file://{mirror}/")
    got = fetch_from_pool("pool/main/cards_1_all.deb", right, debs, f"file://{mirror}/")
    assert got == debs / "cards_1_all.deb" and got.read_bytes() == b"a Debian package"


def test_the_catalogue_fetches_pysol_cardsets_from_the_pool_and_keeps_test_artwork_out():
    pool, sha256 = pinned_packages()["pysolfc-cardsets"]
    assert pool.startswith("pool/main/p/pysolfc-cardsets/") and len(sha256) == 64
    catalogue = {d.name: d for d in load_catalogue()}
    # PySolFC's copies of test designs' artwork are never trained on
    assert catalogue["pysol-bellot"].skip and catalogue["pysol-penguins"].skip
    assert sum(d.ids == "pysol" and d.split == "train" for d in catalogue.values()) >= 50


def _copyright(root, package: str, stanzas: str) -> None:  # noqa: ANN001
    """Write ``stanzas`` as ``package``'s debian/copyright in the unpacked tree ``root``."""
    doc = root / "usr" / "share" / "doc" / package
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(stanzas)


def test_licence_is_the_last_matching_copyright_stanza(tmp_path):
    _copyright(tmp_path, "kdegames-card-data-kf5",
               "Files: *\nCopyright: someone\nLicense: GPL-2+\n\n"
               "Files: carddecks/svg-penguins/*\nCopyright: someone else\nLicense: GPL-3+\n")
    penguins = Design("kde-penguins", "kdegames-card-data-kf5",
                      "usr/share/carddecks/svg-penguins/penguins.svgz", "kde")
    standard = Design("kde-standard", "kdegames-card-data-kf5",
                      "usr/share/carddecks/svg-standard/standard.svgz", "kde")
    assert licence_of(penguins, tmp_path) == "GPL-3+"
    assert licence_of(standard, tmp_path) == "GPL-2+"
    assert licence_of(Design("y", "missing-pkg", "y.svgz", "kde"), tmp_path) == "unknown"


def test_a_copyright_stanza_may_list_its_files_over_several_lines(tmp_path):
    _copyright(tmp_path, "pysolfc-cardsets",
               "Files: cardset-a/*\nCopyright: someone\nLicense: GPL-2+\n\n"
               "Files: cardset-b/*\n       cardset-c/*\nCopyright: someone else\n"
               "License: GPL-3+\n")

    def cardset(name):
        return Design(name, "pysolfc-cardsets", f"usr/share/games/pysolfc/{name}", "pysol")
    assert licence_of(cardset("cardset-a"), tmp_path) == "GPL-2+"
    assert licence_of(cardset("cardset-c"), tmp_path) == "GPL-3+"
    assert licence_of(cardset("cardset-d"), tmp_path) == "unknown"


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


def _svg_with_images(path, images: dict[str, np.ndarray]) -> None:
    """An SVGZ that wraps one PNG a card, as KDE's old bitmap decks do."""
    import base64
    import gzip

    import cv2

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" '
             'xmlns:xlink="http://www.w3.org/1999/xlink">']
    for name, image in images.items():
        data = base64.b64encode(cv2.imencode(".png", image)[1].tobytes()).decode()
        wrapped = "\n".join(data[i:i + 76] for i in range(0, len(data), 76))  # as Inkscape does
        parts.append(f'<image id="{name}" width="{image.shape[1]}" height="{image.shape[0]}" '
                     f'xlink:href="data:image/png;base64,{wrapped}" />')
    with gzip.open(path, "wt") as stream:
        stream.write("\n".join(parts + ["</svg>"]))


def test_a_deck_of_embedded_pngs_is_read_and_a_smaller_back_scaled(tmp_path):
    import cv2

    design = Design("old", "pkg", "deck/old.svgz", "kde", embedded=True)
    images = {}
    for n, card in enumerate(FULL_DECK):
        image = np.zeros((112, 72, 4), np.uint8)
        image[:, :] = (n, 255 - n, 128, 255)
        images[design.element_id(card)] = image
    back = np.zeros((96, 62, 4), np.uint8)  # drawn smaller, but of the same shape
    back[:, :] = (10, 20, 30, 255)
    images[BACK] = back
    (tmp_path / "deck").mkdir()
    _svg_with_images(tmp_path / "deck" / "old.svgz", images)
    assert set(embedded_images(tmp_path / "deck" / "old.svgz")) == set(images)
    assert render_design(design, tmp_path, "", tmp_path / "out") is None
    height = round(FACE_WIDTH * 112 / 72)
    for name in ("AS", "10D", BACK):
        face = cv2.imread(str(tmp_path / "out" / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        assert face.shape == (height, FACE_WIDTH, 4), name
    assert tuple(cv2.imread(str(tmp_path / "out" / "back.png"))[50, 50]) == (10, 20, 30)
    # a card missing from the file, or a back of another shape, leaves the design out
    del images["queen_heart"]
    _svg_with_images(tmp_path / "deck" / "old.svgz", images)
    problem = render_design(design, tmp_path, "", tmp_path / "out2")
    assert problem is not None and "QH" in problem and not (tmp_path / "out2").exists()


def test_an_unreadable_embedded_deck_says_so(tmp_path):
    (tmp_path / "old.svgz").write_bytes(b"not gzip at all")
    with pytest.raises(StudioError, match="cannot read its images"):
        embedded_images(tmp_path / "old.svgz")


def test_two_processes_building_the_face_cache_build_it_once(tmp_path, monkeypatch):
    """The test suite's workers (or two commands) may find the same designs missing at once:
    the second waits on the cache's lock and then finds them built, rather than unpacking and
    rendering into the same folders as the first."""
    import threading

    from vision.studio import faces as faces_module

    monkeypatch.setenv("SUECA_CACHE", str(tmp_path))
    built, second_waits = [], threading.Event()

    def build(todo, root, workers, log):  # stands in for the download and rendering
        built.append([d.name for d in todo])
        assert second_waits.wait(20), "the second build did not wait for the first"
        for design in todo:
            (root / "faces" / design.name).mkdir(parents=True)
            (root / "faces" / design.name / "design.json").write_text("{}")

    monkeypatch.setattr(faces_module, "_build_designs", build)
    said: list[str] = []

    def second_log(message):
        said.append(message)
        second_waits.set()

    first = threading.Thread(target=faces_module.build_faces, args=("test",))
    first.start()
    while not built and first.is_alive():
        first.join(0.01)
    faces_module.build_faces("test", log=second_log)
    first.join(20)
    assert len(built) == 1 and set(built[0]) == {d.name for d in designs_in("test")}
    assert said == ["another process is building the face cache; waiting for it"]
    # and with the cache whole, nothing is built or waited for
    faces_module.build_faces("test", log=lambda m: pytest.fail(m))
    assert len(built) == 1


def test_a_face_cache_that_cannot_be_written_says_so(tmp_path, monkeypatch):
    from vision.studio import faces as faces_module

    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("SUECA_CACHE", str(tmp_path / "file" / "cache"))
    with pytest.raises(StudioError, match="cannot write the face cache in .*file/cache"):
        faces_module.build_faces("test", log=lambda m: None)


# A stand-in for rsvg-convert: the "SVG" is JSON naming, for each element, the size of its
# canvas at zoom 1 and where its card lies on it; the card is drawn with a pattern of its own
# pixels, so that it renders alike wherever it lies. Each call is logged, one line of arguments.
FAKE_RSVG = '''#!{python}
import json, struct, sys, zlib
import numpy as np
args = sys.argv[1:]
open({log!r}, "a").write(" ".join(args) + "\\n")
opts = dict(a.split("=", 1) for a in args if a.startswith("--"))
element, zoom = args[args.index("-i") + 1], float(args[args.index("-z") + 1])
spec = json.loads(open(args[-3]).read().replace("<image", ""))[element]
width, height = (round(v * zoom) for v in spec["canvas"])
x, y, w, h = (round(v * zoom) for v in spec["card"])
canvas = np.zeros((height, width, 4), np.uint8)
yy, xx = np.mgrid[0:h, 0:w]
canvas[y:y + h, x:x + w] = np.dstack([(xx * 7) % 256, (yy * 5) % 256, (xx + yy) % 256,
                                       np.full((h, w), 255)])
if "--page-width" in opts:
    left, top = int(opts["--left"]), int(opts["--top"])
    page = np.zeros((int(opts["--page-height"]), int(opts["--page-width"]), 4), np.uint8)
    src = canvas[max(-top, 0):, max(-left, 0):]
    part = src[:page.shape[0] - max(top, 0), :page.shape[1] - max(left, 0)]
    page[max(top, 0):max(top, 0) + part.shape[0], max(left, 0):max(left, 0) + part.shape[1]] = part
    canvas = page
rows = np.hstack([np.zeros((canvas.shape[0], 1), np.uint8), canvas.reshape(canvas.shape[0], -1)])
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
header = struct.pack(">IIBBBBB", canvas.shape[1], canvas.shape[0], 8, 6, 0, 0, 0)
open(args[-1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header)
                           + chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + chunk(b"IEND", b""))
'''


def _fake_rsvg(tmp_path, elements: dict, images: bool = False):
    import sys

    log = tmp_path / "calls.log"
    rsvg = tmp_path / "rsvg-convert"
    rsvg.write_text(FAKE_RSVG.format(python=sys.executable, log=str(log)))
    rsvg.chmod(0o755)
    svg = tmp_path / "deck.svg"
    svg.write_text(json.dumps(elements) + ("<image" if images else ""))
    return str(rsvg), svg, log


def test_a_card_far_inside_its_elements_canvas_is_rendered_in_a_window_the_same(tmp_path):
    from vision.studio.faces import _render, _render_card

    # a tight element, and one whose canvas is thirty times its card's width (as kde-penguins'
    # low pips are), its card far from the corner
    elements = {"tight": {"canvas": [54, 72], "card": [0, 0, 54, 72]},
                "loose": {"canvas": [1638, 864], "card": [792, 396, 54, 72]}}
    rsvg, svg, log = _fake_rsvg(tmp_path, elements)
    zoom, size = 2.0, (108, 144)
    for element in elements:
        log.unlink(missing_ok=True)
        face = _render_card(rsvg, svg, element, zoom, tmp_path, size)
        calls = log.read_text().splitlines()
        assert face is not None and face.shape == (144, 108, 4)
        assert np.array_equal(face, _render(rsvg, svg, element, zoom, tmp_path)), element
        windowed = [c for c in calls if "--page-width" in c and "-z 2.0000" in c]
        if element == "loose":  # one look at zoom 1, then the card alone
            assert len(calls) == 2 and windowed == [calls[1]], calls
        else:  # rendered on its canvas: no window
            assert len(calls) == 2 and not windowed, calls
    # ``size`` None (a design holding bitmaps) renders on the whole canvas at once
    log.unlink()
    face = _render_card(rsvg, svg, "loose", zoom, tmp_path, None)
    assert face is not None and face.shape == (144, 108, 4)
    assert log.read_text().count("\n") == 1 and "--page-width" not in log.read_text()


def test_a_card_not_whole_in_its_window_is_rendered_on_its_whole_canvas(tmp_path):
    from vision.studio.faces import _render_card

    # a loose element whose card is twice the size the deck's ace promised: cut by the
    # window, it is rendered again on its whole canvas, and comes out whole
    elements = {"odd": {"canvas": [1638, 864], "card": [792, 396, 108, 144]}}
    rsvg, svg, log = _fake_rsvg(tmp_path, elements)
    face = _render_card(rsvg, svg, "odd", 2.0, tmp_path, (108, 144))
    assert face is not None and face.shape == (288, 216, 4)
    calls = log.read_text().splitlines()
    assert len(calls) == 3 and "--page-width" in calls[1] and "--page-width" not in calls[2]


def test_only_an_svg_without_bitmaps_or_filters_is_rendered_in_windows(tmp_path):
    import gzip

    from vision.studio.faces import _windowed

    plain, bitmaps = tmp_path / "plain.svgz", tmp_path / "bitmaps.svg"
    plain.write_bytes(gzip.compress(b"<svg><g id='1_club'><path d='M0 0'/></g></svg>"))
    bitmaps.write_text("<svg><g id='king_club'><image href='data:...'/></g></svg>")
    shadows = tmp_path / "shadows.svg"
    shadows.write_text("<svg><filter id='blur'/><g id='2_club' filter='url(#blur)'/></svg>")
    assert _windowed(plain) and not _windowed(bitmaps) and not _windowed(shadows)
