"""Suits, ranks and cards: small immutable values that round-trip through text.

A card is written rank then suit: ``AS``, ``7D``, ``QH``, ``10C``. Parsing is case-insensitive.
All 52 French-suited cards can be represented, because a camera can see any of them; only 40 of
them make up the Sueca deck (ranks 8, 9 and 10 are not Sueca cards). ``Card.parse`` reads any of
the 52; ``Card.parse_sueca`` also insists on the Sueca deck and words its error the way the
coursework scorer does ("Invalid rank symbol: 8").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class CardError(ValueError):
    """A card string that does not name a card we can use.

    ``str(error)`` is the two-line message of the coursework scorer, e.g.
    ``Card '8S' is invalid!\\nInvalid rank symbol: 8``; ``text`` is the string as given and
    ``reason`` the second line alone.
    """

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"Card '{text}' is invalid!\n{reason}")
        self.text = text
        self.reason = reason


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return self.value

    @property
    def full_name(self) -> str:
        """``Clubs``, ``Diamonds``, ``Hearts`` or ``Spades``."""
        return self.name.capitalize()

    @classmethod
    def from_full_name(cls, text: str) -> Suit | None:
        """The suit named ``text`` in full (``Diamonds``, as ``full_name`` writes it), or None
        where ``text`` names no suit."""
        return next((suit for suit in cls if suit.full_name == text), None)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a one-letter suit symbol (any case). Raises ``ValueError`` naming the symbol."""
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"Invalid suit symbol: {text}") from None

    def __str__(self) -> str:
        return self.value


# Sueca order, lowest first, then the three ranks a French deck has and Sueca does not.
_SUECA_ORDER = ("2", "3", "4", "5", "6", "Q", "J", "K", "7", "A")
_POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "Q": 2}


class Rank(enum.Enum):
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    QUEEN = "Q"
    JACK = "J"
    KING = "K"
    SEVEN = "7"
    ACE = "A"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"

    @property
    def symbol(self) -> str:
        return self.value

    @property
    def is_sueca(self) -> bool:
        """True for the ten ranks of the Sueca deck; False for 8, 9 and 10."""
        return self.value in _SUECA_ORDER

    @property
    def strength(self) -> int:
        """Position in Sueca order: 0 for the 2 up to 9 for the ace.

        Raises ``ValueError`` for 8, 9 and 10, which have no place in Sueca.
        """
        try:
            return _SUECA_ORDER.index(self.value)
        except ValueError:
            raise ValueError(f"Invalid rank symbol: {self.value}") from None

    @property
    def points(self) -> int:
        """Points in Sueca: A 11, 7 10, K 4, J 3, Q 2, others 0. ``ValueError`` for 8, 9, 10."""
        self.strength  # noqa: B018 - raises for ranks outside the Sueca deck
        return _POINTS.get(self.value, 0)

    def higher_than(self, other: Rank) -> bool:
        return self.strength > other.strength

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank symbol (any case; ``T`` is taken for 10). ``ValueError`` names it."""
        symbol = text.strip().upper()
        if symbol == "T":
            symbol = "10"
        try:
            return cls(symbol)
        except ValueError:
            raise ValueError(f"Invalid rank symbol: {text}") from None

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read any of the 52 French-suited cards, e.g. ``QH``, ``qh``, ``10C``.

        Raises ``CardError`` with the coursework's wording when the string is not a card.
        """
        if not isinstance(text, str):
            raise TypeError(f"Card.parse expects a string, got {type(text).__name__}")
        token = text.strip()
        if len(token) == 3 and token[:2] == "10":
            rank_text, suit_text = "10", token[2]
        elif len(token) == 2:
            rank_text, suit_text = token[0], token[1]
        else:
            raise CardError(text, "A card string representation must contain 2 characters only")
        try:
            rank = Rank.parse(rank_text)
        except ValueError as error:
            raise CardError(text, str(error)) from None
        try:
            suit = Suit.parse(suit_text)
        except ValueError as error:
            raise CardError(text, str(error)) from None
        return cls(rank, suit)

    @classmethod
    def parse_sueca(cls, text: str) -> Card:
        """Like ``parse``, but the card must belong to the 40-card Sueca deck.

        ``Card.parse_sueca("8S")`` raises ``CardError``: ``Invalid rank symbol: 8``.
        """
        card = cls.parse(text)
        if not card.is_sueca:
            raise CardError(text, f"Invalid rank symbol: {card.rank.symbol}")
        return card

    @property
    def is_sueca(self) -> bool:
        return self.rank.is_sueca

    @property
    def points(self) -> int:
        return self.rank.points

    def beats(self, other: Card, lead: Suit, trump: Suit) -> bool:
        """Whether this card wins over ``other`` in a trick led in ``lead`` with ``trump``.

        A trump beats any non-trump; otherwise a card of the lead suit beats one that is not;
        between cards of one suit the higher Sueca rank wins. Two cards that are both off-suit
        and not trumps beat nothing.
        """
        for suit in (trump, lead):
            mine, theirs = self.suit is suit, other.suit is suit
            if mine != theirs:
                return mine
            if mine:
                return self.rank.higher_than(other.rank)
        return False

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


SUECA_DECK: tuple[Card, ...] = tuple(
    Card(Rank(r), s) for s in Suit for r in _SUECA_ORDER
)
"""The 40 cards of a Sueca deck, suit by suit, lowest rank first."""

FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in Rank)
"""All 52 French-suited cards."""
