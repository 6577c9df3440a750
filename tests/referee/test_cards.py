"""Suits, ranks and cards (table-driven, with the coursework's console examples)."""

from __future__ import annotations

import pytest

from referee import FULL_DECK, SUECA_DECK, Card, CardError, Rank, Suit


def test_decks_have_the_right_cards():
    assert len(SUECA_DECK) == 40 and len(set(SUECA_DECK)) == 40
    assert len(FULL_DECK) == 52 and len(set(FULL_DECK)) == 52
    assert {c.rank.symbol for c in FULL_DECK if not c.is_sueca} == {"8", "9", "10"}
    assert all(c.is_sueca for c in SUECA_DECK)


@pytest.mark.parametrize("card", FULL_DECK, ids=str)
def test_every_card_round_trips_through_text(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


@pytest.mark.parametrize("text, reason", [
    ("8C", "Invalid rank symbol: 8"),
    ("9D", "Invalid rank symbol: 9"),
    ("10S", "Invalid rank symbol: 10"),
    ("QSD", "A card string representation must contain 2 characters only"),
    ("", "A card string representation must contain 2 characters only"),
    ("7Q", "Invalid suit symbol: Q"),
    ("1H", "Invalid rank symbol: 1"),
    ("XX", "Invalid rank symbol: X"),
])
def test_sueca_parse_errors_use_the_coursework_wording(text, reason):
    with pytest.raises(CardError) as caught:
        Card.parse_sueca(text)
    assert str(caught.value) == f"Card '{text}' is invalid!\n{reason}"
    assert caught.value.reason == reason
    assert isinstance(caught.value, ValueError)


def test_ranks_outside_sueca_parse_as_real_cards():
    assert Card.parse("10c") == Card(Rank.TEN, Suit.CLUBS)
    assert Card.parse("8S").is_sueca is False
    with pytest.raises(ValueError, match="Invalid rank symbol: 8"):
        Card.parse("8S").points  # noqa: B018


def test_parse_rejects_non_strings():
    with pytest.raises(TypeError):
        Card.parse(7)  # type: ignore[arg-type]


@pytest.mark.parametrize("rank, points", [
    ("A", 11), ("7", 10), ("K", 4), ("J", 3), ("Q", 2),
    ("6", 0), ("5", 0), ("4", 0), ("3", 0), ("2", 0),
])
def test_points(rank, points):
    assert Rank.parse(rank).points == points


def test_rank_order_is_sueca_order():
    order = ["2", "3", "4", "5", "6", "Q", "J", "K", "7", "A"]
    for low, high in zip(order, order[1:]):
        assert Rank.parse(high).higher_than(Rank.parse(low))
        assert not Rank.parse(low).higher_than(Rank.parse(high))
    assert not Rank.parse("4").higher_than(Rank.parse("4"))


def test_points_over_a_deck_total_120():
    assert sum(card.points for card in SUECA_DECK) == 120


def test_suit_names_and_errors():
    assert [s.full_name for s in Suit] == ["Clubs", "Diamonds", "Hearts", "Spades"]
    with pytest.raises(ValueError, match="Invalid suit symbol: P"):
        Suit.parse("P")


def test_a_suit_is_found_by_its_full_name_and_nothing_else_is():
    assert [Suit.from_full_name(s.full_name) for s in Suit] == list(Suit)
    assert Suit.from_full_name("7D") is None and Suit.from_full_name("hearts") is None


@pytest.mark.parametrize("card, other, lead, trump, expected", [
    # the coursework's examples
    ("KS", "2C", "S", "D", True),
    ("KS", "JS", "S", "D", True),
    ("KS", "2D", "S", "D", False),
    ("7S", "2C", "C", "D", False),
    # trumps beat everything else, and rank among themselves
    ("2D", "AH", "H", "D", True),
    ("7D", "2D", "H", "D", True),
    ("2D", "7D", "H", "D", False),
    # two off-suit non-trumps beat nothing
    ("AC", "2S", "H", "D", False),
    ("2S", "AC", "H", "D", False),
    # the 7 sits just under the ace
    ("7H", "KH", "H", "D", True),
    ("AH", "7H", "H", "D", True),
])
def test_beats(card, other, lead, trump, expected):
    assert Card.parse(card).beats(Card.parse(other), Suit(lead), Suit(trump)) is expected


def test_cards_are_immutable_values():
    card = Card.parse("QH")
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE  # type: ignore[misc]
    assert card == Card(Rank.QUEEN, Suit.HEARTS) and hash(card) == hash(Card.parse("qh"))
    assert repr(card) == "Card.parse('QH')"
