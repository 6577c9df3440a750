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
