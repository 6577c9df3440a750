"""The classes the card classifier tells apart: the 52 French-suited cards, a card back, and
"not a card" (a detection that is no card at all, or too hidden to read)."""

from __future__ import annotations

from referee.cards import FULL_DECK

BACK = "back"
NOT_A_CARD = "none"
CLASSES: tuple[str, ...] = tuple(str(c) for c in FULL_DECK) + (BACK, NOT_A_CARD)
CROP_SIZE = (64, 96)  # width, height of a rectified card as the classifier sees it
