"""Sets of card faces the scene renderer draws from.

A face set gives the RGBA picture of each card's face (and ``"back"``). Two kinds:

- ``DesignFaces``: one Debian design from the face cache (``studio faces`` builds it);
- ``TinyFaces``: faces drawn here with OpenCV, so that tests and quick demos need no download
  and no third-party artwork ships with the project. They are plain but have what a reader
  needs: corner indices, pips or a court panel, red and black suits.

``face_sets("test")`` picks the designs of a split, building the cache on first use.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from referee.cards import Card, Rank, Suit

from .faces import BACK, StudioError, build_faces, cache_dir, designs_in, load_catalogue
from .objects import SKIN_TONES

TINY = "tiny"


class FaceSet(Protocol):
    name: str

    def face(self, card: Card | str) -> np.ndarray:
        """The RGBA face of ``card`` (or of the back, for ``"back"``)."""
        ...


class DesignFaces:
    """A design in the face cache; faces are read on first use and kept."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = folder.name
        meta = json.loads((folder / "design.json").read_text())
        self.split = meta.get("split", "")
        self._faces: dict[str, np.ndarray] = {}

    def face(self, card: Card | str) -> np.ndarray:
        key = BACK if card == BACK else str(card)
        if key not in self._faces:
            image = cv2.imread(str(self.folder / f"{key}.png"), cv2.IMREAD_UNCHANGED)
            if image is None or image.ndim != 3 or image.shape[2] != 4:
                raise StudioError(f"face cache: {self.folder / key}.png is missing or broken; "
                                  "run 'sueca-referee studio faces --force'")
            self._faces[key] = image
        return self._faces[key]


class TinyFaces:
    """Procedurally drawn faces (``variant`` 0-2 changes colours and fonts)."""

    def __init__(self, variant: int = 0, width: int = 160) -> None:
        self.name = f"{TINY}-{variant}"
        self.variant = variant
        self.width = width
        self.height = int(round(width * 88 / 63))
        self._faces: dict[str, np.ndarray] = {}

    def face(self, card: Card | str) -> np.ndarray:
        key = BACK if card == BACK else str(card)
        if key not in self._faces:
            self._faces[key] = (self._draw_back() if key == BACK
                                else self._draw_face(Card.parse(key)))
        return self._faces[key]

    # -- drawing ---------------------------------------------------------------------------

    def _blank(self, colour: tuple[int, int, int]) -> np.ndarray:
        w, h = self.width, self.height
        image = np.zeros((h, w, 4), np.uint8)
        image[..., :3] = colour
        radius = w // 14
        alpha = np.zeros((h, w), np.uint8)
        cv2.rectangle(alpha, (radius, 0), (w - 1 - radius, h - 1), 255, -1)
        cv2.rectangle(alpha, (0, radius), (w - 1, h - 1 - radius), 255, -1)
        for cx, cy in ((radius, radius), (w - 1 - radius, radius), (radius, h - 1 - radius),
                       (w - 1 - radius, h - 1 - radius)):
            cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
        image[..., 3] = alpha
        cv2.rectangle(image, (0, 0), (w - 1, h - 1), (150, 150, 150, 255), 1)
        image[..., 3] = alpha
        return image

    def _ink(self, suit: Suit) -> tuple[int, int, int]:
        reds = [(40, 30, 200), (50, 50, 210), (30, 20, 170)]
        blacks = [(25, 25, 25), (60, 30, 20), (20, 40, 20)]
        red = suit in (Suit.HEARTS, Suit.DIAMONDS)
        return (reds if red else blacks)[self.variant % 3]

    def _paper(self) -> tuple[int, int, int]:
        return (245, 248, 250) if self.variant != 1 else (232, 240, 246)

    def _font(self) -> int:
        return (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                cv2.FONT_HERSHEY_TRIPLEX)[self.variant % 3]

    def _pip_size(self, card: Card) -> float:
        return self.width * (0.16 if card.rank != Rank.ACE else 0.34)

    def _draw_face(self, card: Card) -> np.ndarray:
        w, h = self.width, self.height
        image = self._blank(self._paper())
        ink = self._ink(card.suit)
        font = self._font()
        half = np.zeros_like(image)
        self._corner_index(half, card, ink, font)
        turned = cv2.rotate(half, cv2.ROTATE_180)
        layer = np.maximum(half[..., 3], turned[..., 3])
        inked = np.where(half[..., 3:] > 0, half, turned)
        if card.rank in COURTS:
            self._court(image, card, ink, font)
        elif self._decorates(card):
            self._decorated_ace(image, card)
        else:
            for x, y, flip in _pip_positions(card.rank):
                _suit_symbol(image, card.suit, (int(w * x), int(h * y)), self._pip_size(card),
                             (*ink, 255), flip)
        a = layer.astype(np.float32)[..., None] / 255
        image[..., :3] = (image[..., :3] * (1 - a) + inked[..., :3] * a).astype(np.uint8)
        return image

    def _decorates(self, card: Card) -> bool:
        """Whether the design draws a picture in ``card``'s middle instead of its pips
        (``_decorated_ace``)."""
        return False

    def _decorated_ace(self, image: np.ndarray, card: Card) -> None:
        raise NotImplementedError

    def _corner_index(self, image: np.ndarray, card: Card, ink: tuple[int, int, int],
                      font: int) -> None:
        w = self.width
        text = card.rank.symbol
        scale = w / 170 if len(text) == 1 else w / 230
        colour = (*ink, 255)
        cv2.putText(image, text, (int(w * 0.04), int(w * 0.16)), font, scale, colour,
                    max(1, w // 60), cv2.LINE_AA)
        _suit_symbol(image, card.suit, (int(w * 0.11), int(w * 0.27)), w * 0.11, colour)

    def _court(self, image: np.ndarray, card: Card, ink: tuple[int, int, int], font: int) -> None:
        w, h = self.width, self.height
        x0, y0, x1, y1 = int(w * 0.22), int(h * 0.17), int(w * 0.78), int(h * 0.83)
        panel = [(200, 170, 60), (60, 160, 220), (90, 140, 60)][(card.rank.strength
                                                                  + self.variant) % 3]
        cv2.rectangle(image, (x0, y0), (x1, y1), (*panel, 255), -1)
        cv2.rectangle(image, (x0, y0), (x1, y1), (*ink, 255), max(1, w // 80))
        cv2.putText(image, card.rank.symbol, (int(w * 0.36), int(h * 0.47)), font, w / 70,
                    (*ink, 255), max(2, w // 40), cv2.LINE_AA)
        _suit_symbol(image, card.suit, (w // 2, int(h * 0.66)), w * 0.2, (*ink, 255))

    def _draw_back(self) -> np.ndarray:
        w, h = self.width, self.height
        colours = [(140, 50, 30), (40, 40, 150), (60, 110, 40)]
        image = self._blank(colours[self.variant % 3])
        m = w // 12
        for k in range(-h, w + h, max(4, w // 16)):
            cv2.line(image, (k, 0), (k + h, h), (230, 230, 230, 255), 1, cv2.LINE_AA)
            cv2.line(image, (k, 0), (k - h, h), (230, 230, 230, 255), 1, cv2.LINE_AA)
        alpha = image[..., 3].copy()
        cv2.rectangle(image, (m, m), (w - m, h - m), (250, 250, 250, 255), max(2, w // 40))
        image[..., 3] = alpha
        return image


COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)
COURT_LETTERS = ({Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K"},  # English
                 {Rank.JACK: "V", Rank.QUEEN: "D", Rank.KING: "R"},  # French
                 {Rank.JACK: "B", Rank.QUEEN: "D", Rank.KING: "K"})  # German, Dutch


class RandomFaces(TinyFaces):
    """A made-up design drawn from ``seed``: its own inks (sometimes four colours), fonts, index
    size and letters (J Q K, V D R or B D K), pip size, paper tint and court-card art. Many of
    them teach the classifier to read indices and pips rather than remember artwork.

    ``art``: face sets whose court portraits a "portrait" design borrows, each card the middle
    of a court card of any rank and suit from any of them. Real portraits under an index that
    does not match them teach the classifier that on a court card only the index says which
    court it is; an unseen design's king, drawn in a style never seen, is then read by its
    corner, not guessed from its face. Without ``art`` such a design draws shapes instead.
    A "suit-only" design (one in five, given ``art``) prints no rank in its court cards'
    corners and borrows the portrait of the same card from a real design, as some real
    designs leave only the portrait to tell."""

    def __init__(self, seed: int, width: int = 160, art: Sequence[FaceSet] = ()) -> None:
        super().__init__(seed % 3, width)
        self.art = list(art)
        self.name = f"random-{seed}"
        rng = np.random.default_rng([seed, 17])
        self.rng_seed = seed
        red = tuple(int(v) for v in rng.integers([10, 0, 150], [80, 60, 235]))
        black = tuple(int(v) for v in rng.integers(0, 70, 3))
        self.inks = {Suit.HEARTS: red, Suit.DIAMONDS: red, Suit.SPADES: black,
                     Suit.CLUBS: black}
        if rng.random() < 0.2:  # a four-colour deck
            self.inks[Suit.DIAMONDS] = (170, 70, 20)
            self.inks[Suit.CLUBS] = (40, 130, 30)
        self.font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX,
                                    cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX,
                                    cv2.FONT_HERSHEY_PLAIN]))
        self.letters = COURT_LETTERS[int(rng.choice(3, p=[0.6, 0.2, 0.2]))]
        self.index_scale = float(rng.uniform(0.75, 1.3))
        self.pip_scale = float(rng.uniform(0.8, 1.25))
        self.paper = tuple(int(v) for v in rng.integers(225, 256, 3))
        self.court_seed = int(rng.integers(2 ** 31))
        self.big_index = bool(rng.random() < 0.15)  # a "jumbo index" deck
        self.court_style = str(rng.choice(["shapes", "letter", "figure", "portrait"],
                                          p=[0.3, 0.2, 0.2, 0.3]))
        # Some real designs print only the suit in a court card's corner (guyenne-classic), so
        # that only the portrait tells a king from a queen or a jack. A "suit-only" design
        # does the same, and its court cards borrow real portraits of their own rank: it
        # teaches what a king looks like in many styles, where the borrowed portraits under
        # any index teach that an index, when there is one, has the last word.
        self.suit_only_courts = bool(rng.random() < 0.2) and bool(self.art)
        if self.suit_only_courts:
            self.court_style = "portrait"
        # Some real designs draw the same court panel in all four suits (kde-penguins), so that
        # only the small suit signs tell the king of spades from the king of clubs.
        self.same_panel_every_suit = bool(rng.random() < 0.3) and not self.suit_only_courts
        # Many real designs draw a picture on an ace (the ace of spades above all: a penguin on
        # kde-penguins', an engraving on old English decks), where the index alone says ace.
        # (Drawn from a generator of its own, so the designs' other choices stay as they were.)
        aces = np.random.default_rng([seed, 29])
        self.decorated_aces: frozenset[Suit] = frozenset()
        if self.art and aces.random() < 0.25:
            self.decorated_aces = frozenset(
                {Suit.SPADES} if aces.random() < 0.6 else set(Suit))
        self.ace_seed = int(aces.integers(2 ** 31))

    def _ink(self, suit: Suit) -> tuple[int, int, int]:
        return self.inks[suit]

    def _paper(self) -> tuple[int, int, int]:
        return self.paper

    def _font(self) -> int:
        return self.font

    def _pip_size(self, card: Card) -> float:
        return super()._pip_size(card) * self.pip_scale

    def _corner_index(self, image: np.ndarray, card: Card, ink: tuple[int, int, int],
                      font: int) -> None:
        w = self.width
        k = self.index_scale * (1.6 if self.big_index else 1.0)
        colour = (*ink, 255)
        if self.suit_only_courts and card.rank in COURTS:  # the suit alone, a little larger
            _suit_symbol(image, card.suit, (int(w * 0.12 * k), int(w * 0.14 * k)),
                         w * 0.15 * k, colour)
            return
        text = self.letters.get(card.rank, card.rank.symbol)
        scale = (w / 170 if len(text) == 1 else w / 230) * k
        cv2.putText(image, text, (int(w * 0.04), int(w * 0.16 * k)), font, scale, colour,
                    max(1, int(w // 60 * k)), cv2.LINE_AA)
        _suit_symbol(image, card.suit, (int(w * 0.11 * k), int(w * 0.27 * k)), w * 0.11 * k,
                     colour)

    def _decorates(self, card: Card) -> bool:
        return card.rank is Rank.ACE and card.suit in self.decorated_aces

    def _decorated_ace(self, image: np.ndarray, card: Card) -> None:
        """An ace the design decorates: the middle of a court card borrowed from another
        design, in an oval rather than a court card's framed panel, perhaps with a small pip."""
        w, h = self.width, self.height
        rng = np.random.default_rng([self.ace_seed, "CDHS".index(card.suit.value)])
        source = self.art[int(rng.integers(len(self.art)))]
        middle = _middle_of(source.face(
            Card(COURTS[int(rng.integers(3))], list(Suit)[int(rng.integers(4))])))
        x0, y0 = int(w * rng.uniform(0.18, 0.28)), int(h * rng.uniform(0.15, 0.25))
        x1, y1 = w - x0, h - y0
        picture = cv2.resize(middle, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
        oval = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.ellipse(oval, ((x1 - x0) // 2, (y1 - y0) // 2), ((x1 - x0) // 2, (y1 - y0) // 2),
                    0, 0, 360, 255, -1, cv2.LINE_AA)
        a = oval.astype(np.float32)[..., None] / 255
        region = image[y0:y1, x0:x1, :3]
        image[y0:y1, x0:x1, :3] = (region * (1 - a) + picture * a).astype(np.uint8)
        if rng.random() < 0.5:
            _suit_symbol(image, card.suit, (w // 2, int(h * 0.5)), w * 0.14,
                         (*self._ink(card.suit), 255))

    def _court(self, image: np.ndarray, card: Card, ink: tuple[int, int, int], font: int) -> None:
        """A panel in one of the design's court styles: coloured shapes, the rank's letter drawn
        large, a crude double-headed figure, or a portrait borrowed from another design's court
        card. Nothing spills out of the panel onto the index."""
        w, h = self.width, self.height
        suit = 4 if self.same_panel_every_suit else "CDHS".index(card.suit.value)
        rng = np.random.default_rng([self.court_seed, card.rank.strength, suit])
        x0, y0, x1, y1 = int(w * 0.2), int(h * 0.15), int(w * 0.8), int(h * 0.85)
        panel = image.copy()
        cv2.rectangle(panel, (x0, y0), (x1, y1), (*(int(v) for v in rng.integers(0, 256, 3)),
                                                  255), -1)
        style = self.court_style
        if style == "portrait" and self.art:
            source = self.art[int(rng.integers(len(self.art)))]
            court = Card(COURTS[int(rng.integers(3))], list(Suit)[int(rng.integers(4))])
            if self.suit_only_courts:  # the portrait must tell: the very card's, re-framed
                court = card
            middle = _middle_of(source.face(court))
            panel[y0:y1 + 1, x0:x1 + 1, :3] = cv2.resize(middle, (x1 - x0 + 1, y1 - y0 + 1),
                                                         interpolation=cv2.INTER_AREA)
        elif style == "letter":
            text = self.letters.get(card.rank, card.rank.symbol)
            scale = (x1 - x0) / 30
            thick = max(2, int(scale * rng.uniform(1.5, 3)))
            (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
            cv2.putText(panel, text, ((x0 + x1 - tw) // 2, (y0 + y1 + th) // 2), font, scale,
                        (*ink, 255), thick, cv2.LINE_AA)
        elif style == "figure":
            robe = (*(int(v) for v in rng.integers(0, 256, 3)), 255)
            skin = (*SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], 255)
            cx, mid = (x0 + x1) // 2, (y0 + y1) // 2
            for flip in (1, -1):  # the top half and its mirror
                head = (cx, mid - flip * int((y1 - y0) * 0.3))
                body = np.array([(cx - w * 0.2, mid), (cx + w * 0.2, mid),
                                 (cx + w * 0.1, mid - flip * (y1 - y0) * 0.2),
                                 (cx - w * 0.1, mid - flip * (y1 - y0) * 0.2)], np.int32)
                cv2.fillPoly(panel, [body], robe, cv2.LINE_AA)
                cv2.circle(panel, head, int(w * 0.09), skin, -1, cv2.LINE_AA)
                if card.rank is not Rank.JACK:  # a crown
                    cv2.rectangle(panel, (head[0] - int(w * 0.08), head[1] - flip * int(w * 0.16)),
                                  (head[0] + int(w * 0.08), head[1] - flip * int(w * 0.08)),
                                  (0, 190, 230, 255), -1)
        else:
            for _ in range(int(rng.integers(6, 16))):  # robes, crowns, faces: coloured shapes
                colour = (*(int(v) for v in rng.integers(0, 256, 3)), 255)
                cx, cy = int(rng.integers(x0, x1)), int(rng.integers(y0, y1))
                if rng.random() < 0.5:
                    cv2.circle(panel, (cx, cy), int(rng.integers(3, w // 6)), colour, -1,
                               cv2.LINE_AA)
                else:
                    cv2.rectangle(panel, (cx, cy), (min(x1, cx + int(rng.integers(4, w // 3))),
                                                    min(y1, cy + int(rng.integers(4, h // 4)))),
                                  colour, -1)
        image[y0:y1 + 1, x0:x1 + 1] = panel[y0:y1 + 1, x0:x1 + 1]
        cv2.rectangle(image, (x0, y0), (x1, y1), (*ink, 255), max(1, w // 80))
        if rng.random() < 0.5:
            _suit_symbol(image, card.suit, (int(w * 0.32), int(h * 0.25)), w * 0.14,
                         (*ink, 255))


def _middle_of(face: np.ndarray) -> np.ndarray:
    """The middle of a borrowed face (its colours), clear of its own indices."""
    fh, fw = face.shape[:2]
    return face[int(fh * 0.17):int(fh * 0.83), int(fw * 0.22):int(fw * 0.78), :3]


def _pip_positions(rank: Rank) -> list[tuple[float, float, bool]]:
    """Pip centres as fractions of the face, and whether the pip is upside down."""
    left, mid, right = 0.3, 0.5, 0.7
    rows = {
        Rank.ACE: [(mid, 0.5)],
        Rank.TWO: [(mid, 0.22), (mid, 0.78)],
        Rank.THREE: [(mid, 0.22), (mid, 0.5), (mid, 0.78)],
        Rank.FOUR: [(left, 0.22), (right, 0.22), (left, 0.78), (right, 0.78)],
        Rank.FIVE: [(left, 0.22), (right, 0.22), (mid, 0.5), (left, 0.78), (right, 0.78)],
        Rank.SIX: [(x, y) for y in (0.22, 0.5, 0.78) for x in (left, right)],
        Rank.SEVEN: [(x, y) for y in (0.22, 0.5, 0.78) for x in (left, right)] + [(mid, 0.36)],
        Rank.EIGHT: [(x, y) for y in (0.22, 0.5, 0.78) for x in (left, right)]
        + [(mid, 0.36), (mid, 0.64)],
        Rank.NINE: [(x, y) for y in (0.22, 0.41, 0.59, 0.78) for x in (left, right)]
        + [(mid, 0.5)],
        Rank.TEN: [(x, y) for y in (0.22, 0.41, 0.59, 0.78) for x in (left, right)]
        + [(mid, 0.31), (mid, 0.69)],
    }[rank]
    return [(x, y, y > 0.5) for x, y in rows]


def _suit_symbol(image: np.ndarray, suit: Suit, centre: tuple[int, int], size: float,
                 colour: tuple[int, ...], upside_down: bool = False) -> None:
    """Draw a suit symbol of height ``size`` px centred at ``centre``."""
    cx, cy = centre
    s = size / 2
    sign = -1 if upside_down else 1

    def pt(dx: float, dy: float) -> tuple[int, int]:
        return int(round(cx + dx * s)), int(round(cy + sign * dy * s))

    def lobe(dx: float, dy: float, r: float) -> None:
        cv2.circle(image, pt(dx, dy), max(1, int(round(r * s))), colour, -1, cv2.LINE_AA)

    if suit == Suit.DIAMONDS:
        poly = [pt(0, -1), pt(0.72, 0), pt(0, 1), pt(-0.72, 0)]
        cv2.fillConvexPoly(image, np.array(poly), colour, cv2.LINE_AA)
    elif suit == Suit.HEARTS:
        lobe(-0.45, -0.4, 0.5)
        lobe(0.45, -0.4, 0.5)
        cv2.fillConvexPoly(image, np.array([pt(-0.93, -0.25), pt(0.93, -0.25), pt(0, 1)]),
                           colour, cv2.LINE_AA)
    elif suit == Suit.SPADES:
        lobe(-0.45, 0.25, 0.48)
        lobe(0.45, 0.25, 0.48)
        cv2.fillConvexPoly(image, np.array([pt(-0.9, 0.1), pt(0.9, 0.1), pt(0, -1)]),
                           colour, cv2.LINE_AA)
        cv2.fillConvexPoly(image, np.array([pt(0, 0.3), pt(0.35, 1), pt(-0.35, 1)]),
                           colour, cv2.LINE_AA)
    else:  # clubs
        lobe(0, -0.5, 0.42)
        lobe(-0.5, 0.15, 0.42)
        lobe(0.5, 0.15, 0.42)
        cv2.fillConvexPoly(image, np.array([pt(0, -0.1), pt(0.35, 1), pt(-0.35, 1)]),
                           colour, cv2.LINE_AA)


def face_sets(spec: str, log: Callable[[str], None] = print) -> list[FaceSet]:
    """The face sets named by ``spec``: a split (``train``, ``val``, ``test``, ``all``),
    ``tiny`` (the procedural faces), or design names separated by commas. Builds the face cache
    for Debian designs when it is missing. Raises ``StudioError``."""
    if spec == TINY:
        return [TinyFaces(v) for v in range(3)]
    if spec in ("train", "val", "test", "all"):
        wanted = [d.name for d in designs_in(spec)]
        split = spec
    else:
        names = {d.name: d for d in load_catalogue() if not d.skip}
        wanted = [n.strip() for n in spec.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names and n != TINY]
        if unknown:
            raise StudioError(f"unknown design '{unknown[0]}' (see vision/studio/designs.yaml, "
                              "or use a split: train, val, test, all, tiny)")
        split = "all"
    folder = cache_dir() / "faces"
    missing = [n for n in wanted if n != TINY and not (folder / n / "design.json").exists()]
    if missing:
        log(f"face cache lacks {len(missing)} design(s); building it (once)")
        build_faces(split, log=log)
    sets: list[FaceSet] = []
    for name in wanted:
        if name == TINY:
            sets.append(TinyFaces(0))
        elif (folder / name / "design.json").exists():
            sets.append(DesignFaces(folder / name))
    if not sets:
        raise StudioError(f"no usable designs for '{spec}' in {folder}")
    return sets
