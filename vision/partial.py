"""Outlines a card may have where the picture shows it only in part: a card the picture's edge
cuts, drawn out past the edge (``past_the_edge``, ``past_the_edge_guesses``), and a card a hand
lies across, whose two ends make one card (``joined_ends``). ``vision.check`` reads a
photograph's cards along them too."""

from __future__ import annotations

import cv2
import numpy as np

from .layout import CARD_MM
from .outlines import picture_edges


# Two ends of one card a hand lies across: the card they make must be about a card's shape
# (this range of long side over short side, slant allowed), each end must span this share of
# its short side, as a card cut straight across does, the two may overlap by at most this
# share of its long side, and together they must cover this share of it.
JOINED_ASPECT = (1.15, 1.8)
JOINED_SPAN = 0.6
JOINED_OVERLAP = 0.1
JOINED_COVER = 0.6


def joined_ends(quads: np.ndarray, candidates: np.ndarray) -> list[tuple[int, np.ndarray, int]]:
    """Pairs ``(i, outline, j)`` of the outlines ``quads`` (N, 4, 2) marked in ``candidates``
    (the caller's: not seen whole, or read unsurely) that may be the two ends of one card with
    a hand across its middle, and the outline of that card: the least rectangle around both.
    Each end spans the card's width (``JOINED_SPAN``), the two lie at its two ends
    (``JOINED_OVERLAP``) and together cover most of it (``JOINED_COVER``); the card has about
    a card's shape (``JOINED_ASPECT``)."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    idx = np.flatnonzero(candidates)
    areas = {i: abs(cv2.contourArea(quads[i].astype(np.float32))) for i in idx}
    pairs = []
    for a in range(len(idx)):
        for b in range(a + 1, len(idx)):
            i, j = idx[a], idx[b]
            both = np.concatenate([quads[i], quads[j]]).astype(np.float32)
            (cx, cy), (w, h), angle = cv2.minAreaRect(both)
            short, long = min(w, h), max(w, h)
            if short < 1 or not JOINED_ASPECT[0] <= long / short <= JOINED_ASPECT[1]:
                continue
            if areas[i] + areas[j] < JOINED_COVER * short * long:
                continue
            # the card's long axis, and each end's extent across and along it
            box = cv2.boxPoints(((cx, cy), (w, h), angle))
            first = box[1] - box[0]
            along = first if np.hypot(*first) >= np.hypot(*(box[2] - box[1])) else box[2] - box[1]
            along = along / np.hypot(*along)
            across = np.array([-along[1], along[0]])
            spans, ends = [], []
            for k in (i, j):
                x = (quads[k] - (cx, cy)) @ along
                y = (quads[k] - (cx, cy)) @ across
                spans.append(y.max() - y.min())
                ends.append((x.min(), x.max()))
            if min(spans) < JOINED_SPAN * short:
                continue
            (lo_i, hi_i), (lo_j, hi_j) = ends
            if min(hi_i, hi_j) - max(lo_i, lo_j) > JOINED_OVERLAP * long:
                continue  # they overlap along the card: not its two ends
            pairs.append((int(i), box.astype(np.float64), int(j)))
    return pairs


def past_the_edge(quad: np.ndarray, width: int, height: int) -> np.ndarray:
    """A card running off the picture: its outline drawn out past the edge to a card's length.

    The network sees only what the picture shows, so such a card's outline stops at the
    picture's edge, and a crop of it would squash the card. Where exactly one side of ``quad``
    lies along the picture's edge and the two sides that meet it already show more than a
    card's short side would (so they must be the long sides), those two sides are drawn out to
    the length a card of that width has. The crop then shows the card in its true shape, its
    missing part filled as the classifier learnt (the edge's pixels drawn out). Any other
    outline is returned as it is. An outline can also stop short of the edge of a card that
    lies whole just inside the picture, so the caller reads both (``vision.check``)."""
    guesses = past_the_edge_guesses(quad, width, height)
    return guesses[0] if len(guesses) == 1 else np.asarray(quad, np.float64).reshape(4, 2)


def past_the_edge_guesses(quad: np.ndarray, width: int, height: int) -> list[np.ndarray]:
    """Every card ``quad`` may be the shown part of, where the picture's edge cuts it: as
    ``past_the_edge``, and also where less of it shows than a card's short side. Then the side
    opposite the edge may be the card's short side (the card runs on past the edge by most of
    its length) or its long side (it lies across the edge): both are drawn out, and which one
    reads surely is the classifier's to say. Where two edges cut it at a corner of the picture,
    only the card's own corner across from it shows, with the index: the two sides that meet
    there run on past the edges, and the card is drawn out from that corner, each side taken
    for its long side and for its short side, as the least card that covers what shows and
    as one ``CORNER_MORE`` times that. Empty where the edges do not cut ``quad`` so."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    limits, near = picture_edges(width, height)

    def on_edge(p: np.ndarray, q: np.ndarray) -> bool:
        # both ends near one edge of the picture, and the side as a whole nearer still (the
        # corner where a card meets the edge is the least sure point of its outline)
        for axis, at in limits:
            gaps = [max(0.0, v[axis] - at if at == 0 else at - v[axis]) for v in (p, q)]
            if max(gaps) <= 3 * near and sum(gaps) / 2 <= 1.5 * near:
                return True
        return False

    cut = [k for k in range(4) if on_edge(quad[k], quad[(k + 1) % 4])]
    aspect = CARD_MM[1] / CARD_MM[0]
    if len(cut) == 2 and (cut[1] - cut[0]) % 2 == 1:
        return _past_a_corner(quad, cut[0] if cut[1] - cut[0] == 1 else cut[1], aspect)
    if len(cut) != 1:
        return []
    k = cut[0]
    a, b, c, d = (quad[(k + j) % 4] for j in range(4))  # a-b on the edge, c-d the far end
    end = float(np.linalg.norm(d - c))
    shown = float(np.linalg.norm(b - c)), float(np.linalg.norm(a - d))
    seen = min(shown)
    if end < 1 or max(shown) < STUB * end:
        # too little shows to hold a card's index (a card the edge cuts at a slant shows its
        # index at the far end's corner on the longer side)
        return []
    if seen >= end / aspect * 1.05:  # the sides meeting the edge are the card's long sides
        lengths = [end * aspect]
    else:  # the far end may be the card's short side or its long side
        lengths = [end * aspect, end / aspect]

    def drawn_out(length: float) -> np.ndarray:
        out = quad.copy()
        for at_edge, far, index in ((b, c, (k + 1) % 4), (a, d, k)):
            side = at_edge - far
            shown = float(np.linalg.norm(side))
            if shown < length:
                out[index] = far + side / shown * length
        return out

    return [drawn_out(length) for length in lengths]


def _past_a_corner(quad: np.ndarray, k: int, aspect: float) -> list[np.ndarray]:
    """The guesses of ``past_the_edge_guesses`` for ``quad`` whose sides ``k`` and ``k + 1``
    lie along the picture's edges: the card's own corner is corner ``k + 3``."""
    corner = quad[(k + 3) % 4]
    one, other = quad[(k + 2) % 4] - corner, quad[k] - corner
    lengths = float(np.linalg.norm(one)), float(np.linalg.norm(other))
    if min(lengths) < STUB * max(lengths) or min(lengths) < 1:
        return []  # a sliver along one edge
    one, other = one / lengths[0], other / lengths[1]
    guesses = []
    for more in (1.0, CORNER_MORE):
        for along_one, along_other in ((1.0, aspect), (aspect, 1.0)):
            width = max(lengths[0] / along_one, lengths[1] / along_other) * more
            a, b = one * along_one * width, other * along_other * width
            out = np.empty((4, 2))
            out[(k + 3) % 4], out[(k + 2) % 4] = corner, corner + a
            out[(k + 1) % 4], out[k] = corner + a + b, corner + b
            guesses.append(out)
    return guesses


# a card of which less shows past the edge than this share of its far end is not read
STUB = 0.25
# a card cut by two edges is guessed as the least card that covers what shows, and this many
# times bigger (it may run on past both edges by much or little)
CORNER_MORE = 1.3
