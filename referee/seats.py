"""Seats around the table, the two pairs, and the order of play.

Seats are numbered 1 to 4 around the table. Partners sit opposite: pair A is seats 1 and 3,
pair B seats 2 and 4. ``TableOrder`` says who deals, who leads the first trick and which way
play goes; the coursework's table is dealer 2, seat 1 leads, clockwise 1-2-3-4.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Pair(enum.Enum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Pair:
        return Pair.B if self is Pair.A else Pair.A

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(1), Seat(3)) if self is Pair.A else (Seat(2), Seat(4))

    def __str__(self) -> str:
        return f"Pair {self.value}"


@dataclass(frozen=True, slots=True, order=True)
class Seat:
    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool):
            raise TypeError(f"a seat number is an int, got {self.number!r}")
        if not 1 <= self.number <= 4:
            raise ValueError(f"Invalid player number {self.number}")

    @property
    def pair(self) -> Pair:
        return Pair.A if self.number % 2 == 1 else Pair.B

    @property
    def partner(self) -> Seat:
        return Seat((self.number + 1) % 4 + 1)

    def __str__(self) -> str:
        return f"Player {self.number}"


SEATS: tuple[Seat, ...] = tuple(Seat(n) for n in range(1, 5))


class Direction(enum.Enum):
    CLOCKWISE = "clockwise"  # 1, 2, 3, 4
    ANTICLOCKWISE = "anticlockwise"  # 1, 4, 3, 2

    @property
    def step(self) -> int:
        return 1 if self is Direction.CLOCKWISE else -1


@dataclass(frozen=True, slots=True)
class TableOrder:
    """Who deals, who leads the first trick, and which way play goes round the table."""

    dealer: Seat = Seat(2)
    first_leader: Seat = Seat(1)
    direction: Direction = Direction.CLOCKWISE

    def next_seat(self, seat: Seat) -> Seat:
        return Seat((seat.number - 1 + self.direction.step) % 4 + 1)

    def seats_from(self, leader: Seat) -> tuple[Seat, Seat, Seat, Seat]:
        """The four seats in the order they play a trick that ``leader`` leads."""
        second = self.next_seat(leader)
        third = self.next_seat(second)
        return (leader, second, third, self.next_seat(third))

    def next_deal(self) -> TableOrder:
        """The order for the following deal: dealer and first leader move on one seat."""
        return TableOrder(
            self.next_seat(self.dealer), self.next_seat(self.first_leader), self.direction
        )
