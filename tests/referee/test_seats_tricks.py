"""Seats, pairs, the order of play, and tricks."""

from __future__ import annotations

import pytest

from referee import SEATS, Card, Direction, Pair, Seat, TableOrder, Trick, TrickError
from referee.tricks import winning_index


def test_pairs_sit_opposite():
    assert [s.pair for s in SEATS] == [Pair.A, Pair.B, Pair.A, Pair.B]
    assert [s.partner.number for s in SEATS] == [3, 4, 1, 2]
    assert Pair.A.seats == (Seat(1), Seat(3)) and Pair.B.other is Pair.A


@pytest.mark.parametrize("bad", [0, 5, -1])
def test_seat_numbers_are_checked(bad):
    with pytest.raises(ValueError, match=f"Invalid player number {bad}"):
        Seat(bad)


def test_order_of_play():
    clockwise = TableOrder()
    assert [s.number for s in clockwise.seats_from(Seat(3))] == [3, 4, 1, 2]
    anti = TableOrder(Seat(2), Seat(1), Direction.ANTICLOCKWISE)
    assert [s.number for s in anti.seats_from(Seat(1))] == [1, 4, 3, 2]
    following = clockwise.next_deal()
    assert (following.dealer, following.first_leader) == (Seat(3), Seat(2))


@pytest.mark.parametrize("text, trump, winner_pos, points", [
    ("AH 2D 5H 2H", "D", 1, 11),   # the cut wins
    ("AS 2S 7S JS", "D", 0, 24),
    ("5C 6S 6H JS", "D", 0, 3),     # nobody follows clubs and there is no trump
    ("2H 3H 4D 5D", "D", 3, 0),     # highest of two trumps
    ("QC KC JC 7C", "H", 3, 19),
])
def test_trick_winner_and_points(text, trump, winner_pos, points):
    trick = Trick.parse(text)
    assert winning_index(trick.cards, Card.parse("2" + trump).suit) == winner_pos
    assert trick.winner(Card.parse("2" + trump).suit) == Seat(winner_pos + 1)
    assert trick.points == points
    assert str(trick) == text


def test_trick_seats_follow_the_leader():
    trick = Trick.parse("AC 3D 4C KC", leader=Seat(2))
    assert [p.seat.number for p in trick.plays] == [2, 3, 4, 1]
    assert trick.winner(Card.parse("7D").suit) == Seat(3)


@pytest.mark.parametrize("text, message", [
    ("AS 2S 7S JS 5S", "A trick string must comprise four cards only; the given trick is: "
                       "AS 2S 7S JS 5S"),
    ("AS 2S", "A trick string must comprise four cards only; the given trick is: AS 2S"),
])
def test_malformed_tricks(text, message):
    with pytest.raises(TrickError) as caught:
        Trick.parse(text)
    assert str(caught.value) == message


def test_bad_card_in_trick():
    with pytest.raises(ValueError, match="Card '8H' is invalid!\nInvalid rank symbol: 8"):
        Trick.parse("AH 2D 5H 8H")


def test_a_trick_needs_four_different_seats():
    plays = Trick.parse("AH 2D 5H 2H").plays
    with pytest.raises(TrickError):
        Trick((plays[0], plays[1], plays[2], plays[0]))
