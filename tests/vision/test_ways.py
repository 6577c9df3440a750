"""The ways of putting cards never read back in their places (``vision.ways``)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from referee import Card
from vision.ways import MOST_WAYS, TooMany, distinct, heaviest, permanent


def test_ways_come_heaviest_first_and_what_is_left_is_bounded():
    rng = np.random.default_rng(4)
    for n in (1, 3, 5, 6):
        matrix = rng.random((n, n)) * (rng.random((n, n)) < 0.75)
        every = sorted((float(np.prod([matrix[g, c] for g, c in enumerate(p)])), p)
                       for p in itertools.permutations(range(n)))
        every = [(w, p) for w, p in every if w > 0][::-1]
        assert permanent(matrix) == pytest.approx(sum(w for w, _ in every))
        ways = list(heaviest([matrix], 10_000))
        assert [w for w, *_ in ways] == pytest.approx([w for w, _ in every])
        for i, (_, picked, k, untried) in enumerate(ways):
            assert k == 0 and len(set(picked)) == n
            assert untried >= sum(w for w, *_ in ways[i + 1:]) - 1e-12
    assert len(list(heaviest([rng.random((4, 4))], 5))) == 5  # no more than asked for


def test_the_ways_to_try_are_counted_dead_ends_included():
    courts = {suit: [Card.parse(r + suit) for r in "JQK"] for suit in "CDHS"}
    # twelve court cards never read, each one's suit read: 3! ways a suit, 1,296 in all
    fits = [courts[suit] for suit in "CDHS" for _ in range(3)]
    assert sum(1 for _ in distinct(fits, [20 * MOST_WAYS])) == 6 ** 4
    # eleven cards of unknown suit and one whose suit no card missing has: nothing fits, and
    # finding that out would take 12! tries; the budget stops it
    anything = [c for cards in courts.values() for c in cards]
    with pytest.raises(TooMany):
        list(distinct([anything] * 11 + [[]], [20 * MOST_WAYS]))


def _deal_with_gaps(name: str, gaps: dict[tuple[int, int], dict[str, float]]):
    """A bundled game's ten tricks (seat, card) and trump, with the cards of ``gaps`` ((round,
    seat) -> odds) never read: the rounds as ``weigh_in_play`` takes them, and the cards
    missing."""
    from pathlib import Path

    from referee.seats import Seat
    from vision.studio.clip import game_from_file
    from vision.ways import Dropped

    game = game_from_file(Path(__file__).parents[2] / "samples" / "games" / f"{name}.sueca")
    rounds, missing = [], []
    for number, trick in enumerate(game.tricks, start=1):
        plays = tuple((p.seat, p.card) for p in trick.plays)
        here = {seat: odds for (r, seat), odds in gaps.items() if r == number}
        if not here:
            rounds.append(plays)
            continue
        missing += [card for seat, card in plays if seat.number in here]
        rounds.append(Dropped(number, (tuple((seat, None if seat.number in here else card)
                                             for seat, card in plays),),
                              odds=tuple((Seat(s), tuple(odds.items()))
                                         for s, odds in here.items())))
    return rounds, sorted(missing, key=str), game.trump


@pytest.mark.parametrize("name", ["game1", "game1c"])
def test_the_ways_weighed_in_play_are_those_the_rules_engine_scores(name):
    # four cards never read, each read with odds on the others (in game1c, the lead and the
    # card off it of the revoke among them): every way of putting them back, weighed,
    # summed by score where nobody cheats and in all where somebody does,
    # against the same ways played through the rules engine one by one (those it refuses,
    # a play out of turn, left out)
    from referee.engine import Referee, RefereeStateError
    from referee.events import CardPlayed, GameOver, TrumpRevealed
    from referee.seats import TableOrder
    from vision.ways import Dropped, weigh_in_play

    cards = {"game1": ((1, 2), (4, 3), (4, 4), (6, 2)),  # 2D AD 4H, and 7D: the trump card
             "game1c": ((3, 3), (3, 2), (8, 1), (10, 2))}[name]  # AS 6D 5C KS: a revoke
    rounds, missing, trump = _deal_with_gaps(name, {gap: {} for gap in cards})
    odds = {gap: dict(zip(map(str, missing), (0.5, 0.3, 0.15, 0.05)[i:] + (0.5, 0.3, 0.15,
                                                                          0.05)[:i]))
            for i, gap in enumerate(cards)}
    rounds, missing, trump = _deal_with_gaps(name, odds)
    order = TableOrder()
    weighed = weigh_in_play(rounds, missing, trump.suit, trump, order.dealer,
                            order.first_leader)
    assert weighed is not None
    honest: dict[tuple[int, int], float] = {}
    cheating, refused, honest_ways, cheating_ways = 0.0, 0, 0, 0
    for way in itertools.permutations(missing):
        fill, weight, referee = iter(way), 1.0, Referee(order)
        said = referee.feed(TrumpRevealed(trump))
        try:
            for trick in rounds:
                plays = trick.orders[0] if isinstance(trick, Dropped) else trick
                for seat, card in plays:
                    if card is None:
                        card = next(fill)
                        weight *= trick.likelihood(seat, card)
                    said += referee.feed(CardPlayed(seat, card))
        except RefereeStateError:
            refused += 1
            continue
        over = next((a for a in said if isinstance(a, GameOver)), None)
        if over is None:  # (a play out of turn, said as such)
            refused += 1
            continue
        if over.cheat is None:
            honest[over.score] = honest.get(over.score, 0.0) + weight
            honest_ways += 1
        else:
            cheating += weight
            cheating_ways += 1
    assert refused and honest and cheating > 0  # each kind of way is there
    assert weighed.honest == pytest.approx(honest)
    assert weighed.cheating == pytest.approx(cheating)
    assert (weighed.honest_ways, weighed.cheating_ways) == (honest_ways, cheating_ways)
    assert weighed.evidence == pytest.approx(
        sum(honest.values()) / honest_ways / (cheating / cheating_ways))


def test_a_deal_with_too_many_positions_to_weigh_is_not_weighed():
    from referee.seats import TableOrder
    from vision.ways import weigh_in_play

    gaps = {(r, s): {} for r in (2, 3, 4) for s in (1, 3)}
    rounds, missing, trump = _deal_with_gaps("game1", gaps)
    order = TableOrder()
    args = rounds, missing, trump.suit, trump, order.dealer, order.first_leader
    assert weigh_in_play(*args, most=20) is None
    assert weigh_in_play(*args) is not None
