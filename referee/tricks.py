"""Plays and tricks.

A ``Trick`` is four plays in the order they were made; the first one's suit is the lead suit.
Its text form is the four cards separated by spaces, as in a game file: ``AH 2D 5H 2H``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .seats import Seat, TableOrder


class TrickError(ValueError):
    """A trick string that is not four Sueca cards (wrong count, or an unreadable card)."""


@dataclass(frozen=True, slots=True)
class Play:
    seat: Seat
    card: Card

    def __str__(self) -> str:
        return f"{self.seat}: {self.card}"


@dataclass(frozen=True, slots=True)
class Trick:
    plays: tuple[Play, ...]

    def __post_init__(self) -> None:
        if len(self.plays) != 4:
            raise TrickError(f"a trick has four plays, got {len(self.plays)}")
        if len({play.seat for play in self.plays}) != 4:
            raise TrickError("each seat plays exactly once in a trick")

    @classmethod
    def of(cls, cards: tuple[Card, ...] | list[Card], leader: Seat = Seat(1),
           order: TableOrder = TableOrder()) -> Trick:
        """Build a trick from four cards in play order, led by ``leader``."""
        if len(cards) != 4:
            raise TrickError(f"a trick has four cards, got {len(cards)}")
        return cls(tuple(Play(s, c) for s, c in zip(order.seats_from(leader), cards)))

    @classmethod
    def parse(cls, text: str, leader: Seat = Seat(1), order: TableOrder = TableOrder()) -> Trick:
        """Read ``"AH 2D 5H 2H"``: four Sueca cards in play order.

        Raises ``TrickError`` when there are not exactly four cards, and ``CardError`` (also a
        ``ValueError``) naming the first card that is not a Sueca card.
        """
        return cls.of(parse_trick_cards(text), leader, order)

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(play.card for play in self.plays)

    @property
    def leader(self) -> Seat:
        return self.plays[0].seat

    @property
    def lead_suit(self) -> Suit:
        return self.plays[0].card.suit

    @property
    def points(self) -> int:
        return sum(play.card.points for play in self.plays)

    def winning_play(self, trump: Suit) -> Play:
        return self.plays[winning_index(self.cards, trump)]

    def winner(self, trump: Suit) -> Seat:
        return self.winning_play(trump).seat

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)


def parse_trick_cards(text: str) -> tuple[Card, ...]:
    """The four Sueca cards of a trick's text, in play order.

    Raises ``TrickError`` unless there are exactly four, and ``CardError`` (a ``ValueError``)
    for the first that is not a Sueca card.
    """
    tokens = text.split()
    if len(tokens) != 4:
        raise TrickError(
            f"A trick string must comprise four cards only; the given trick is: {' '.join(tokens)}"
        )
    return tuple(Card.parse_sueca(t) for t in tokens)


def winning_index(cards: tuple[Card, ...] | list[Card], trump: Suit) -> int:
    """Index of the winning card among cards played in order (the first one leads)."""
    if not cards:
        raise ValueError("no cards played")
    lead = cards[0].suit
    best = 0
    for i in range(1, len(cards)):
        if cards[i].beats(cards[best], lead, trump):
            best = i
    return best


__all__ = ["Play", "Trick", "TrickError", "parse_trick_cards", "winning_index"]
