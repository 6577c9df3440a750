"""The face cache: every card of every usable design, rendered once to PNG.

Building it (``sueca-referee studio faces``):

1. fetch the Debian card packages and ``librsvg2-bin`` with ``apt-get download`` and unpack
   them with ``dpkg -x`` into the cache (nothing is installed on the system). A package this
   machine's Debian release lacks (pysolfc and pysolfc-cardsets are in Debian 13, not 12) is
   named in the catalogue by its file in the Debian archive's pool and that file's SHA-256,
   and fetched from there;
2. render each card's SVG element with ``rsvg-convert --export-id`` (where an element's
   canvas is much bigger than its card, only a window around the card: ``_render_card``);
   the designs that come as one bitmap a card (PNG or GIF, ``ids: racket``, ``pokerth``,
   ``pysol`` or ``pysol-tarock``; a design may name its own ``ids`` in the catalogue) are
   read as they are, and so are the SVG decks that only wrap one small PNG a card
   (``embedded: true`` in the catalogue: old KDE decks, drawn before KDE's decks were SVG,
   whose elements rsvg cannot export by id);
3. trim each render to its opaque pixels. rsvg sizes an exported element by a bounding box that
   is sometimes too big (the card sits in a corner of an empty canvas) and sometimes too small
   (the card is cut off). Trimming fixes the first; the second is caught by comparing each
   card's size with the deck's usual size, and a design with a cut-off card is left out whole;
4. scale every face to ``FACE_WIDTH`` pixels wide and write ``<cache>/faces/<design>/<CARD>.png``
   (RGBA) plus ``design.json`` with the design's split, licence and face size.

The cache lives in ``$SUECA_CACHE`` or ``<project>/cache`` (ignored by git).
"""

from __future__ import annotations

import fnmatch
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from referee.cards import FULL_DECK, Card, Rank, Suit

from ..locking import held

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Path(__file__).with_name("designs.yaml")
FACE_WIDTH = 240
BACK = "back"
RSVG_PACKAGE = "librsvg2-bin"

_RANK_WORDS = {Rank.ACE: "1", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king"}
_SUIT_WORDS = {Suit.CLUBS: "club", Suit.DIAMONDS: "diamond", Suit.HEARTS: "heart",
               Suit.SPADES: "spade"}


def _pokerth_number(card: Card) -> int:
    return "DHSC".index(card.suit.symbol) * 13 + _RANKS_ACE_HIGH.index(card.rank.symbol)


# bitmap decks number their files: the rank's and the suit's place in the deck's own order
_RANKS_ACE_LOW = "A 2 3 4 5 6 7 8 9 10 J Q K".split()
_RANKS_ACE_HIGH = "2 3 4 5 6 7 8 9 10 J Q K A".split()
_RANKS_TAROCK = "A 2 3 4 5 6 7 8 9 10 J knight Q K".split()


def _pysol_file(ranks: list[str]) -> Callable[[Card], str]:
    """A PySolFC cardset's file of a card: its rank's place in ``ranks``, counted from 1 in
    two digits, then its suit's letter."""
    return lambda c: f"{ranks.index(c.rank.symbol) + 1:02d}{c.suit.symbol.lower()}.gif"


BITMAP_SCHEMES = {
    # racket-common's games/cards: card-<rank>-<suit>@2x.png, ace low, suits C D H S
    "racket": (lambda c: f"card-{_RANKS_ACE_LOW.index(c.rank.symbol)}-"
                         f"{'CDHS'.index(c.suit.symbol)}@2x.png", "card-back@2x.png"),
    # pokerth-data's decks: <suit * 13 + rank>.png, ace high, suits D H S C
    "pokerth": (lambda c: f"{_pokerth_number(c)}.png", "flipside.png"),
    # pysolfc-cardsets' cardsets: <rank, two digits, ace low><suit letter>.gif (or .png, which
    # ``_bitmap_path`` finds), the back back01
    "pysol": (_pysol_file(_RANKS_ACE_LOW), "back01.gif"),
    # a PySolFC tarock cardset (type 3): the same, but each suit has a knight (12) between
    # its jack (11) and its queen (13), so the queen is 13 and the king 14
    "pysol-tarock": (_pysol_file(_RANKS_TAROCK), "back01.gif"),
}
# where the Debian archive's pool is, for a package fetched by its file there (``pool``)
DEBIAN_MIRROR = "http://deb.debian.org/debian/"


class StudioError(RuntimeError):
    """Something the studio needs is missing or broken; the message says what to do."""


@dataclass(frozen=True, slots=True)
class Design:
    name: str
    package: str  # Debian package name
    path: str  # path of the SVG inside the unpacked package
    ids: str  # element-id scheme: "aisleriot" (club_1) or "kde" (1_club); or a bitmap
    # scheme of BITMAP_SCHEMES, when ``path`` is a folder of one PNG a card
    family: str = ""
    split: str = ""
    skip: str = ""  # why the design is not used, if it is not
    licence: str = ""  # as recorded in the catalogue
    embedded: bool = False  # an SVG whose cards are PNG images inside it, read as they are
    widen_to: float = 0.0  # a narrow deck (tarock) widened to this height/width, if set

    def element_id(self, card: Card | str) -> str:
        if card == BACK:
            return BACK
        assert isinstance(card, Card)
        rank = _RANK_WORDS.get(card.rank, card.rank.symbol)
        suit = _SUIT_WORDS[card.suit]
        return f"{suit}_{rank}" if self.ids == "aisleriot" else f"{rank}_{suit}"

    @property
    def bitmap(self) -> bool:
        return self.ids in BITMAP_SCHEMES

    def bitmap_file(self, card: Card | str) -> str:
        """The file name of ``card`` in a bitmap design's folder."""
        name_of, back = BITMAP_SCHEMES[self.ids]
        if card == BACK:
            return back
        assert isinstance(card, Card)
        return name_of(card)


def load_catalogue(path: Path = CATALOGUE) -> list[Design]:
    """Every design in the committed catalogue, usable or not."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    packages = data["packages"]
    designs = []
    for entry in data["designs"]:
        package = packages[entry["package"]]
        designs.append(Design(
            name=entry["name"], package=package["name"],
            path=f"{package['root']}/{entry['file']}", ids=entry.get("ids", package["ids"]),
            family=entry.get("family", ""), split=entry.get("split", ""),
            skip=entry.get("skip", ""), licence=entry.get("licence", ""),
            embedded=bool(entry.get("embedded", False)),
            widen_to=float(entry.get("widen_to", 0.0)),
        ))
    return designs


def pinned_packages(path: Path = CATALOGUE) -> dict[str, tuple[str, str]]:
    """The catalogue's packages fetched from the Debian archive's pool rather than with
    ``apt-get download``: package name -> (pool path, SHA-256 of the file)."""
    import yaml

    packages = yaml.safe_load(path.read_text(encoding="utf-8"))["packages"]
    return {p["name"]: (p["pool"], p["sha256"]) for p in packages.values() if "pool" in p}


def designs_in(split: str, catalogue: Iterable[Design] | None = None) -> list[Design]:
    """Usable designs of a split (``train``, ``val``, ``test``), or all of them for ``all``."""
    usable = [d for d in (catalogue or load_catalogue()) if not d.skip]
    if split == "all":
        return usable
    chosen = [d for d in usable if d.split == split]
    if not chosen:
        splits = sorted({d.split for d in usable})
        raise StudioError(f"no designs in split '{split}' (splits: {', '.join(splits)}, all)")
    return chosen


def cache_dir() -> Path:
    return Path(os.environ.get("SUECA_CACHE") or PROJECT_ROOT / "cache")


# ------------------------------------------------------------------------------ packages


def fetch_packages(names: Iterable[str], root: Path, log: Callable[[str], None],
                   pinned: dict[str, tuple[str, str]] | None = None) -> Path:
    """Download the Debian packages into ``root/debs`` and unpack them into ``root/pkgroot``.
    Those in ``pinned`` (name -> pool path, SHA-256) are fetched from the Debian archive's
    pool and checked; the others with ``apt-get download``."""
    debs, unpacked = root / "debs", root / "pkgroot"
    debs.mkdir(parents=True, exist_ok=True)
    pinned = pinned or {}
    for name in names:
        if list(debs.glob(f"{name}_*.deb")):
            continue
        log(f"downloading Debian package {name}")
        if name in pinned:
            fetch_from_pool(*pinned[name], debs)
            continue
        if _apt_download(name, debs) != 0:
            log("apt-get download failed; refreshing the package lists and trying again")
            _run_quiet(["apt-get", "update"])
            if _apt_download(name, debs) != 0:
                raise StudioError(
                    f"could not download the Debian package {name} (apt-get download {name}); "
                    "is this a Debian machine that can reach its package archive?")
    stamp = unpacked / ".unpacked"
    wanted = sorted(p.name for p in debs.glob("*.deb"))
    if not stamp.exists() or stamp.read_text().split() != wanted:
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir(parents=True)
        for deb in wanted:
            if _run_quiet(["dpkg", "-x", str(debs / deb), str(unpacked)]) != 0:
                raise StudioError(f"could not unpack {deb} with dpkg -x")
        stamp.write_text("\n".join(wanted))
    return unpacked


def fetch_from_pool(pool: str, sha256: str, where: Path, mirror: str = DEBIAN_MIRROR) -> Path:
    """Download ``pool`` (a path in the Debian archive, ``pool/main/...deb``) into ``where``
    and check it against ``sha256``; the file is kept only if it matches."""
    import urllib.error
    import urllib.request

    target = where / Path(pool).name
    partial = target.with_name(target.name + ".part")
    url = mirror + pool
    digest = hashlib.sha256()
    try:
        with urllib.request.urlopen(url, timeout=60) as answer, open(partial, "wb") as out:
            while chunk := answer.read(1 << 20):
                digest.update(chunk)
                out.write(chunk)
    except (urllib.error.URLError, OSError) as error:
        partial.unlink(missing_ok=True)
        raise StudioError(f"could not download {url} ({error}); can this machine reach the "
                          "Debian archive?") from error
    if digest.hexdigest() != sha256:
        partial.unlink(missing_ok=True)
        raise StudioError(f"{url} is not the file the catalogue names (its SHA-256 differs); "
                          "update the package's pool and sha256 in vision/studio/designs.yaml")
    partial.replace(target)
    return target


def _apt_download(name: str, where: Path) -> int:
    if shutil.which("apt-get") is None:
        raise StudioError("apt-get is not available: the studio fetches card designs from "
                          "Debian packages")
    return _run_quiet(["apt-get", "download", "-q", name], cwd=where)


def _run_quiet(args: list[str], cwd: Path | None = None) -> int:
    return subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode


def find_rsvg(pkgroot: Path) -> str:
    """``rsvg-convert`` from the unpacked package, else from the system."""
    for candidate in (pkgroot / "usr" / "bin" / "rsvg-convert", shutil.which("rsvg-convert")):
        if candidate and Path(candidate).exists():
            if _run_quiet([str(candidate), "--version"]) == 0:
                return str(candidate)
    raise StudioError("rsvg-convert does not run here; install it with "
                      "'apt-get install librsvg2-bin'")


def licence_of(design: Design, pkgroot: Path) -> str:
    """The licence debian/copyright gives for the design's files (last matching stanza)."""
    copyright_file = pkgroot / "usr" / "share" / "doc" / design.package / "copyright"
    if not copyright_file.exists():
        return "unknown"
    if design.ids.startswith("pysol"):  # cardset-<name>/<card file>
        source_path = Path(design.path).name + "/" + design.bitmap_file(Card.parse("2C"))
    elif design.bitmap:  # a card's file as the package's source tree names it
        source_path = ("data/gfx/cards/" + Path(design.path).name + "/"
                       + design.bitmap_file(Card.parse("2C")))
    elif design.ids == "aisleriot":
        source_path = "cards/" + Path(design.path).name.replace(".svgz", ".svg")
    else:
        source_path = ("carddecks/" + Path(design.path).parent.name + "/"
                       + Path(design.path).name)
    licence = "unknown"
    patterns: list[str] = []
    listing = False  # inside a Files field, whose patterns may go on over indented lines
    for line in copyright_file.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("Files:"):
            patterns, listing = line.split(":", 1)[1].split(), True
            continue
        if listing and line.startswith((" ", "\t")):
            patterns += line.split()
            continue
        listing = False
        if line.startswith(("License:", "Licence:")) and patterns:
            if any(fnmatch.fnmatch(source_path, p) for p in patterns):
                licence = line.split(":", 1)[1].strip()
            patterns = []
    return licence


# ------------------------------------------------------------------------------ rendering


def _canvas(rsvg: str, svg: Path, element: str, zoom: float, tmp: Path,
            window: tuple[int, int, int, int] | None = None) -> np.ndarray | None:
    """One element rendered by rsvg (RGBA), on the canvas of its bounding box, or only the
    ``window`` (left, top, width, height, in pixels) of that canvas; None if it fails."""
    import cv2

    out = tmp / f"{element}-{zoom:.4f}.png"
    page = [] if window is None else [f"--left={-window[0]}", f"--top={-window[1]}",
                                      f"--page-width={window[2]}", f"--page-height={window[3]}"]
    done = subprocess.run([rsvg, "-i", element, "-z", f"{zoom:.4f}", *page, str(svg),
                           "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED) if done.returncode == 0 else None
    out.unlink(missing_ok=True)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        return None
    return image


def _render(rsvg: str, svg: Path, element: str, zoom: float, tmp: Path) -> np.ndarray | None:
    """Render one element and trim it to its opaque pixels (RGBA), or None if it is empty."""
    return _opaque(_canvas(rsvg, svg, element, zoom, tmp))


def _opaque_box(image: np.ndarray | None) -> tuple[int, int, int, int] | None:
    """The box of a render's opaque pixels, (x0, y0, x1, y1), ends excluded; None if it has
    none."""
    if image is None:
        return None
    ys, xs = np.nonzero(image[:, :, 3] > 24)
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _opaque(image: np.ndarray | None) -> np.ndarray | None:
    """A render trimmed to its opaque pixels; None if it has none."""
    box = _opaque_box(image)
    if box is None:
        return None
    x0, y0, x1, y1 = box
    return image[y0:y1, x0:x1]


# the room left around a card's expected size in the window it is rendered in, in pixels
WINDOW_ROOM = 24
# an element whose canvas is this many times the area of its card is rendered in a window
LOOSE_CANVAS = 4


def _render_card(rsvg: str, svg: Path, element: str, zoom: float, tmp: Path,
                 size: tuple[int, int] | None) -> np.ndarray | None:
    """``_render`` of one card at ``zoom`` (expected about ``size``, width and height, there),
    quicker where the element's canvas is much bigger than its card. Some designs' elements
    reach far beyond their card (kde-penguins' low pips span 30 times its width, a few of
    bellot's and guyenne-classic's ten times), and rsvg renders all of that canvas: seconds
    a card. So the element is rendered at zoom 1 first (a tenth of a second), and if its
    canvas is more than ``LOOSE_CANVAS`` times its card, the card is rendered in a window of
    about its size where that render found it: moved by whole pixels, it renders the same.
    One not found whole in its window (its opaque pixels reaching the window's edge, or of
    another size) is rendered on its whole canvas, as ``_render`` does, and so is a card
    whose canvas is tight (a window may not keep the fraction of a pixel rsvg places it at),
    and every card of a design ``_windowed`` rules out (``size`` None).

    Checked on 2026-11-27 against faces rendered on their whole canvases: every face of the
    test and validation designs came out the same to the pixel; of the train designs', six
    cards of four designs differ, a few pixels of their edges (kde-oxygen-air's back, a
    border). kde-penguins took 36 s and takes 7; the six test designs 66 s, 42."""
    if size is None:
        return _render(rsvg, svg, element, zoom, tmp)
    small = _canvas(rsvg, svg, element, 1.0, tmp)
    box = _opaque_box(small)
    if box is not None and small.shape[0] * small.shape[1] > LOOSE_CANVAS * (
            (box[2] - box[0]) * (box[3] - box[1])):
        room = WINDOW_ROOM
        window = (int(box[0] * zoom) - room, int(box[1] * zoom) - room,
                  size[0] + 2 * room, size[1] + 2 * room)
        face = _whole_in(_canvas(rsvg, svg, element, zoom, tmp, window), size)
        if face is not None:
            return face
    return _render(rsvg, svg, element, zoom, tmp)


def _windowed(svg: Path) -> bool:
    """Whether ``svg``'s cards may be rendered in windows (``_render_card``): not where it
    holds bitmaps (kde-jolly-royal's court cards, kde-ancient-egyptians') or filters
    (kde-oxygen's shadows), which rsvg works out along the canvas, so that a card rendered
    in a window comes out different."""
    data = svg.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return b"<image" not in data and b"<filter" not in data


def _whole_in(window: np.ndarray | None, size: tuple[int, int]) -> np.ndarray | None:
    """The card rendered in ``window`` (``_render_card``), trimmed; None unless it lies
    whole inside it, of about ``size``."""
    if window is None:
        return None
    alpha = window[:, :, 3]
    if alpha[[0, -1]].any() or alpha[:, [0, -1]].any():
        return None  # it may go on beyond the window
    face = _opaque(window)
    if face is None or any(abs(got - want) > max(4, want // 25)
                           for got, want in zip(face.shape[1::-1], size)):
        return None
    return face


def check_faces(cards: list[Card | str], faces: list[np.ndarray]) -> tuple[str | None, int]:
    """Check a design's trimmed renders; returns (why it is unusable or None, face height).

    Every face must be about the deck's usual size (a cut-off or padded render is not), mostly
    opaque (a card, not a drawing on a transparent sheet) and card-shaped.
    """
    sizes = np.array([f.shape[:2] for f in faces], dtype=float)
    usual = np.median(sizes, axis=0)
    for card, face, size in zip(cards, faces, sizes):
        if np.any(np.abs(size - usual) > 0.04 * usual + 2):
            return (f"{card} renders cut off or oversized ({int(size[1])}x{int(size[0])} "
                    f"against {int(usual[1])}x{int(usual[0])})", 0)
        opaque = (face[:, :, 3] > 200).mean()
        if opaque < 0.85:
            return f"{card} is not an opaque card ({opaque:.0%} opaque)", 0
    height = int(round(FACE_WIDTH * usual[0] / usual[1]))
    if not 1.3 <= height / FACE_WIDTH <= 1.7:
        return f"cards are not card-shaped (height/width {height / FACE_WIDTH:.2f})", 0
    return None, height


def _bitmap_name(design: Design, folder: Path, card: Card | str) -> str:
    """The file of ``card`` in a bitmap design's ``folder``. A PySolFC cardset names the back
    it shows by default in its ``config.txt`` (its fifth line), among several it draws."""
    if card == BACK and design.ids.startswith("pysol"):
        try:
            lines = (folder / "config.txt").read_text(encoding="utf-8",
                                                      errors="replace").splitlines()
        except OSError:
            lines = []
        if len(lines) >= 5 and lines[4].strip():
            return lines[4].strip()
    return design.bitmap_file(card)


def _bitmap_path(path: Path) -> Path:
    """``path``, or the file of the same name in the other bitmap format where a deck drew
    its cards as PNG rather than GIF (or the other way round)."""
    if path.exists():
        return path
    for suffix in (".png", ".gif"):
        if path.with_suffix(suffix).exists():
            return path.with_suffix(suffix)
    return path


def _read_bitmap(path: Path) -> np.ndarray | None:
    """A bitmap card as RGBA, trimmed to its opaque pixels, or None if it is not there."""
    import cv2

    path = _bitmap_path(path)
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None and path.suffix == ".gif" and path.exists():
        # (OpenCV reads GIF itself only since 4.11; before, its video reader does, without
        # the transparency: the card's rounded corners then show the colour under them)
        capture = cv2.VideoCapture(str(path))
        ok, image = capture.read()
        capture.release()
        image = image if ok else None
    return _trimmed(image)


def _trimmed(image: np.ndarray | None) -> np.ndarray | None:
    """A decoded bitmap card as RGBA, trimmed to its opaque pixels; None if it is not one."""
    import cv2

    if image is None or image.ndim != 3:
        return None
    if image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    return _opaque(image)


def widened(faces: list[np.ndarray | None], ratio: float) -> list[np.ndarray | None]:
    """A narrow deck's faces (a tarock deck's, 1.74 times as tall as wide) made ``ratio``
    times as tall as wide without stretching their pictures: each side margin is drawn out by
    repeating the colour of the column nearest the card's edge that is plain and of the
    margin's colour, on each face. Along the rounded corners the column where the corner ends
    is repeated instead, so the corners keep their shape and the top and bottom edges run on.
    A deck with a face that has no such column, or of another size than the others, or
    already that wide, is left as it is."""
    present = [f for f in faces if f is not None]
    if not present:
        return faces
    height, width = (int(v) for v in np.median([f.shape[:2] for f in present], axis=0))
    extra = int(round(height / ratio)) - width
    if extra <= 0 or any(f.shape[:2] != (height, width) for f in present):
        return faces
    # the corner's size: how far in the top row's first opaque pixel lies
    corner = int(np.argmax(present[0][0, :, 3] > 24)) + 1
    middle = slice(corner, height - corner)

    # the margin's colour: the commonest colour (in steps of 16) of the columns just inside
    # the edge, over the deck; the border, indices and pictures each take fewer pixels there
    edge = np.concatenate([f[middle, 1:max(2, width // 8), :3].reshape(-1, 3)
                           for f in present]).astype(float)
    steps = (edge // 16).astype(int) @ np.array([256, 16, 1])
    margin = edge[steps == np.bincount(steps).argmax()].mean(axis=0)

    def plain(face: np.ndarray, column: int) -> bool:
        """One colour down the column, about the margin's (an old GIF's margin is dithered,
        its channels varying by 5-30 together, and a court card scanned apart is tinted)."""
        strip = face[middle, column].astype(float)
        return bool(strip[:, :3].std(axis=0).sum() < 40 and (strip[:, 3] > 200).all()
                    and np.abs(strip[:, :3].mean(axis=0) - margin).sum() < 45)

    if corner >= width // 4:
        return faces
    columns = []  # each face's own: the plainest columns lie a pixel apart from card to card
    for face in present:
        left = next((c for c in range(1, width // 4) if plain(face, c)), None)
        right = next((c for c in range(width - 2, width - 1 - width // 4, -1)
                      if plain(face, c)), None)
        if left is None or right is None:
            return faces
        columns.append((left, right))
    columns_of = iter(columns)
    grow = (extra // 2, extra - extra // 2)

    def drawn_out(rows: np.ndarray, at: tuple[int, int], fill: list[np.ndarray]) -> np.ndarray:
        """``rows`` with ``grow`` columns of ``fill`` put in before column ``at[0]`` and after
        column ``at[1]``."""
        strips = [np.broadcast_to(f[:, None], (len(rows), n, rows.shape[2]))
                  for f, n in zip(fill, grow)]
        return np.concatenate([rows[:, :at[0]], strips[0], rows[:, at[0]:at[1] + 1],
                               strips[1], rows[:, at[1] + 1:]], axis=1)

    out: list[np.ndarray | None] = []
    for face in faces:
        if face is None:
            out.append(None)
            continue
        left, right = next(columns_of)
        # the margin is drawn out in its one colour (the column's median), not by repeating
        # a dithered column, which would streak it; along the corners, the column where the
        # corner ends
        flat = [np.median(face[middle, c], axis=0).astype(face.dtype) for c in (left, right)]
        ends = (corner, width - 1 - corner)
        top, bottom = face[:corner], face[height - corner:]
        out.append(np.concatenate([
            drawn_out(top, ends, [top[:, ends[0]], top[:, ends[1]]]),
            drawn_out(face[middle], (left, right),
                      [np.broadcast_to(f, (height - 2 * corner, f.shape[0])) for f in flat]),
            drawn_out(bottom, ends, [bottom[:, ends[0]], bottom[:, ends[1]]])]))
    return out


def embedded_images(svg: Path) -> dict[str, np.ndarray]:
    """The PNG images an SVG (or gzipped SVGZ) file holds as ``data:`` links, by element id,
    decoded (as OpenCV reads them: BGR or BGRA); images it cannot decode are left out."""
    import base64
    import binascii
    import gzip
    import xml.etree.ElementTree as ET

    import cv2

    opener = gzip.open if svg.suffix == ".svgz" else open
    prefix = "data:image/png;base64,"
    images = {}
    try:
        with opener(svg, "rb") as stream:
            for _, element in ET.iterparse(stream):
                if not element.tag.endswith("}image") or not element.get("id"):
                    continue
                link = element.get("{http://www.w3.org/1999/xlink}href") or element.get("href")
                if link and link.startswith(prefix):
                    data = base64.b64decode("".join(link[len(prefix):].split()))
                    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
                    if image is not None:
                        images[element.get("id")] = image
                element.clear()
    except (OSError, EOFError, ET.ParseError, binascii.Error) as error:
        raise StudioError(f"{svg}: cannot read its images ({error})") from error
    return images


def _alike(faces: list[np.ndarray | None]) -> list[np.ndarray | None]:
    """Bitmap faces drawn smaller or bigger than the rest but of the same shape (one deck's
    back is) scaled to the deck's usual size, so that the size check passes them; a face of
    another shape is left as it is, to fail it."""
    import cv2

    sizes = np.array([f.shape[:2] for f in faces if f is not None], dtype=float)
    if len(sizes) == 0:
        return faces
    usual = np.median(sizes, axis=0)
    out = []
    for face in faces:
        if face is not None and tuple(face.shape[:2]) != tuple(usual.astype(int)):
            shape = face.shape[0] / face.shape[1]
            if abs(shape / (usual[0] / usual[1]) - 1) < 0.03:
                face = cv2.resize(face, (int(usual[1]), int(usual[0])),
                                  interpolation=cv2.INTER_CUBIC)
        out.append(face)
    return out


def render_design(design: Design, pkgroot: Path, rsvg: str, out_dir: Path,
                  workers: int = 2) -> str | None:
    """Render all 52 faces and the back of ``design`` into ``out_dir``.

    Returns None on success, or why the design cannot be used (nothing is written then).
    """
    import cv2

    svg = pkgroot / design.path
    if not svg.exists():
        return f"{design.path} is not in the package"
    cards: list[Card | str] = [*FULL_DECK, BACK]
    if design.bitmap:
        faces = [_read_bitmap(svg / _bitmap_name(design, svg, c)) for c in cards]
        if design.widen_to:
            faces = widened(faces, design.widen_to)
        return _write_faces(cards, faces, out_dir, cv2.INTER_CUBIC)
    if design.embedded:
        images = embedded_images(svg)
        faces = _alike([_trimmed(images.get(design.element_id(c))) for c in cards])
        return _write_faces(cards, faces, out_dir, cv2.INTER_CUBIC)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        probe = _render(rsvg, svg, design.element_id(Card.parse("AS")), 1.0, tmp)
        if probe is None:
            return "the ace of spades does not render"
        zoom = 1.15 * FACE_WIDTH / probe.shape[1]
        size = (round(probe.shape[1] * zoom), round(probe.shape[0] * zoom)) \
            if _windowed(svg) else None
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            faces = list(pool.map(
                lambda c: _render_card(rsvg, svg, design.element_id(c), zoom, tmp, size),
                cards))
    return _write_faces(cards, faces, out_dir, cv2.INTER_AREA)


def _write_faces(cards: list[Card | str], faces: list[np.ndarray | None], out_dir: Path,
                 interpolation: int) -> str | None:
    """Check a design's faces and write them at ``FACE_WIDTH``; None, or why they are unusable."""
    import cv2

    missing = [str(c) for c, f in zip(cards, faces) if f is None]
    if missing:
        return f"no {', '.join(missing[:4])}{' ...' if len(missing) > 4 else ''}"
    problem, height = check_faces(cards, faces)
    if problem:
        return problem
    out_dir.mkdir(parents=True, exist_ok=True)
    for card, face in zip(cards, faces):
        scaled = cv2.resize(face, (FACE_WIDTH, height), interpolation=interpolation)
        cv2.imwrite(str(out_dir / f"{card}.png"), scaled)
    return None


def build_faces(split: str = "all", force: bool = False, workers: int | None = None,
                log: Callable[[str], None] = lambda m: print(m, file=sys.stderr)) -> Path:
    """Build (or complete) the face cache for ``split``; returns the faces folder. Two
    processes that both find designs missing (two commands, or the test suite's workers) build
    them one after the other: the second waits for the first and then finds them built."""
    catalogue = load_catalogue()
    chosen = designs_in(split, catalogue)
    root = cache_dir()
    faces = root / "faces"

    def missing() -> list[Design]:
        return [d for d in chosen if force or not (faces / d.name / "design.json").exists()]

    if not missing():
        return faces
    lock = root / "faces.lock"
    try:
        root.mkdir(parents=True, exist_ok=True)
        lock.touch()
    except OSError as error:
        raise StudioError(f"cannot write the face cache in {root} ({error.strerror})") from error
    with held(lock, lambda: log("another process is building the face cache; waiting for it")):
        todo = missing()
        if todo:
            _build_designs(todo, root, workers, log)
    return faces


def _build_designs(todo: list[Design], root: Path, workers: int | None,
                   log: Callable[[str], None]) -> None:
    faces = root / "faces"
    packages = sorted({d.package for d in todo} | {RSVG_PACKAGE})
    pkgroot = fetch_packages(packages, root, log, pinned_packages())
    rsvg = find_rsvg(pkgroot) if any(not (d.bitmap or d.embedded) for d in todo) else ""
    workers = workers or os.cpu_count() or 2
    for n, design in enumerate(todo, start=1):
        target = faces / design.name
        shutil.rmtree(target, ignore_errors=True)
        problem = render_design(design, pkgroot, rsvg, target, workers)
        if problem:
            shutil.rmtree(target, ignore_errors=True)
            log(f"[{n}/{len(todo)}] {design.name}: left out: {problem}")
            continue
        licence = licence_of(design, pkgroot)
        if licence != design.licence:
            log(f"warning: {design.name}: debian/copyright now says {licence}, the catalogue "
                f"says {design.licence or 'nothing'}; update vision/studio/designs.yaml")
        meta = {"name": design.name, "split": design.split, "family": design.family,
                "package": design.package, "file": design.path, "licence": licence}
        (target / "design.json").write_text(json.dumps(meta, indent=1))
        log(f"[{n}/{len(todo)}] {design.name}: 53 faces ({meta['licence']})")
