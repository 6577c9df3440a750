"""The classes the card classifier tells apart: the 52 French-suited cards, a card back, and
"not a card" (a detection that is no card at all, or too hidden to read)."""

from __future__ import annotations

from referee.cards import FULL_DECK, Suit

BACK = "back"
NOT_A_CARD = "none"
CARD_CLASSES: tuple[str, ...] = tuple(str(c) for c in FULL_DECK)  # the 52 cards: "2C" ... "AS"
CLASSES: tuple[str, ...] = CARD_CLASSES + (BACK, NOT_A_CARD)
CROP_SIZE = (64, 96)  # width, height of a rectified card as the classifier sees it
SUITS = tuple(suit.value for suit in Suit)  # "C", "D", "H", "S"


def is_court(name: str) -> bool:
    """Whether a class name (``QS``) is a jack, a queen or a king."""
    return name[:-1] in ("J", "Q", "K")


def part_fits(part: str, card: str) -> bool:
    """Whether ``card`` (``QS``) has ``part``, what was read surely of a card not read surely
    as a whole: its suit (``S``) or its rank (``Q``, ``10``); the two never look alike."""
    return card[-1] == part if part in SUITS else card[:-1] == part
