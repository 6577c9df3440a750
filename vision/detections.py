"""The cards found in one picture, as parallel arrays (``CardDetections``): what the detector
found (``vision.detect``) and what the classifier then read of them (``vision.classify``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from referee.seats import Seat


@dataclass
class CardDetections:
    """Parallel arrays for the cards of one picture (numpy first, like a detections table).

    ``quads`` (N, 4, 2): outlines in picture pixels, clockwise, first edge a short one;
    ``scores`` (N,): how sure the detector is that it is a card; ``whole`` (N,): the card is not
    partly hidden; ``seats``: seat zone of each card (None outside the zones or without a
    calibration); ``cards``: what the classifier read (None until read, or when not whole);
    ``confidence`` (N,): the classifier's confidence (0 until read); ``back_on_top`` (N,): the
    card on top of a pile, found but with a side that does not show clearly (a card back's
    pattern running to its edge looks like the card under it), so not ``whole``; the
    classifier takes it as whole only if it reads a card back there surely (a back is never
    a play, so taking one costs nothing; a face is never trusted on sides it cannot see);
    ``parts``: the part of a whole card the classifier is sure of, whether or not it is sure
    of the card: its suit (``S``) or else its rank (``7``); None otherwise; ``odds``: the
    classifier's likeliest cards for a whole card and their probabilities (``((card, p),
    ...)``, surest first), None until read; ``from_core`` (N, 4, 2): in a picture without a
    calibration, each card's outline as the network's core for it gives it (the core drawn
    out to a whole card and snapped to the picture's edges), which a hand lying against the
    card or across a side spoils less than it spoils the card's region; NaN with a
    calibration, or where the core is too small to measure; ``slanted`` (N,): in a picture
    without a calibration, the outline's sides on the picture do not tell which pair is the
    card's long one (a card seen slantwise: ``vision.geometry.slanted``), so the classifier
    reads it both ways."""

    quads: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    scores: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    whole: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    seats: list[Seat | None] = field(default_factory=list)
    cards: list[str | None] = field(default_factory=list)
    confidence: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    back_on_top: np.ndarray | None = None
    parts: list[str | None] | None = None
    odds: list[tuple[tuple[str, float], ...] | None] | None = None
    from_core: np.ndarray | None = None
    slanted: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.quads)
        if self.slanted is None:
            self.slanted = np.zeros(n, bool)
        if self.from_core is None:
            self.from_core = np.full((n, 4, 2), np.nan, np.float32)
        if self.back_on_top is None:
            self.back_on_top = np.zeros(n, bool)
        if self.parts is None:
            self.parts = [None] * n
        if self.odds is None:
            self.odds = [None] * n
        if n and self.quads.shape[1:] != (4, 2):
            raise ValueError(f"quads must be (N, 4, 2), not {self.quads.shape}")
        for name in ("scores", "whole", "confidence", "back_on_top", "from_core", "slanted"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries for {n} cards")
        for name in ("seats", "cards", "parts", "odds"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} has {len(getattr(self, name))} entries for {n} cards")

    def __len__(self) -> int:
        return len(self.quads)

    def __getitem__(self, keep: np.ndarray) -> CardDetections:
        keep = np.asarray(keep)
        index = np.flatnonzero(keep) if keep.dtype == bool else keep
        return CardDetections(self.quads[index], self.scores[index], self.whole[index],
                              [self.seats[i] for i in index], [self.cards[i] for i in index],
                              self.confidence[index], self.back_on_top[index],
                              [self.parts[i] for i in index], [self.odds[i] for i in index],
                              self.from_core[index], self.slanted[index])

    @staticmethod
    def joined(parts: list[CardDetections]) -> CardDetections:
        """The cards of several readings in one."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return CardDetections()
        return CardDetections(np.concatenate([p.quads for p in parts]),
                              np.concatenate([p.scores for p in parts]),
                              np.concatenate([p.whole for p in parts]),
                              [s for p in parts for s in p.seats],
                              [c for p in parts for c in p.cards],
                              np.concatenate([p.confidence for p in parts]),
                              np.concatenate([p.back_on_top for p in parts]),
                              [s for p in parts for s in p.parts],
                              [o for p in parts for o in p.odds],
                              np.concatenate([p.from_core for p in parts]),
                              np.concatenate([p.slanted for p in parts]))

    @property
    def centres(self) -> np.ndarray:
        return self.quads.mean(axis=1) if len(self) else np.zeros((0, 2), np.float32)
