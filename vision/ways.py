"""The ways of putting the cards never read surely back in their places at the end of a deal
(``vision.game.TableReferee._settle``): the dropped tricks as they were seen (``Dropped``), each
way of filling their gaps with the cards left, no card twice (``distinct``), and, weighed by how
those cards were read, the heaviest ways first with a bound on what the rest weigh
(``heaviest``, ``permanent``)."""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from referee.cards import SUECA_DECK, Card, Suit
from referee.events import Cut
from referee.seats import Pair, Seat
from referee.tricks import winning_index

from .cardclasses import part_fits

# the most ways of putting the cards never read back in their places (each scored again)
# that a deal's verdict may be worked out from: four cards of which nothing was read make 24,
# twelve court cards whose suits alone were read 1,296
MOST_WAYS = 2000
# where the ways of putting the cards never read surely back differ in score, the share of the
# odds (the classifier's readings of those cards, multiplied over the cards of each way) that
# one score's ways must hold, all of them free of cheating, for that score to be the verdict
LIKELY = 0.99
# the share of a card's odds taken as knowing nothing of it: no reading rules a card out, so a
# confident misreading cannot weigh more than about 400 to 1
ODDS_FLOOR = 0.05


@dataclass(frozen=True)
class Dropped:
    """A trick swept away with cards never read: the orders its plays may have come in
    (``None`` for a card never read; its seat follows from the order of play)."""

    round: int
    orders: tuple[tuple[tuple[Seat, Card | None], ...], ...]
    # the suit or rank read surely of cards never read, by seat (``ZoneTracker.unread_part``)
    parts: tuple[tuple[Seat, str], ...] = ()
    # the classifier's odds of cards never read, by seat (``ZoneTracker.unread_odds``)
    odds: tuple[tuple[Seat, tuple[tuple[str, float], ...]], ...] = ()

    def fits(self, seat: Seat, card: Card) -> bool:
        """Whether ``card`` may be the card of ``seat`` never read: of its suit or rank, if
        either was read."""
        return all(part_fits(part, str(card)) for s, part in self.parts if s == seat)

    def likelihood(self, seat: Seat, card: Card) -> float:
        """How well ``card`` fits what was read of the card of ``seat`` never read
        (``odds_weight``; 1 for every card where it was never read whole: that tells
        nothing)."""
        for s, odds in self.odds:
            if s == seat:
                return odds_weight(odds, card)
        return 1.0


def odds_weight(odds: tuple[tuple[str, float], ...], card: Card) -> float:
    """How well ``card`` fits a reading with ``odds`` (the classifier's likeliest cards): its
    probability there, less ``ODDS_FLOOR`` of it shared out over the deck, so that no reading
    rules a card out."""
    return (1 - ODDS_FLOOR) * dict(odds).get(str(card), 0.0) + ODDS_FLOOR / len(SUECA_DECK)


def cuts_named(round_: int, plays: list[tuple[Seat, Card]], named: set[Seat],
               trump: Suit | None) -> list[Cut]:
    """The cuts in a dropped trick (``plays``, in order) made by cards never read that are
    now known (the seats ``named``): a trump off a lead of another suit. A play read surely
    was said to cut, if it did, as it was taken: in turn, or as the trick was dropped
    (``Referee._take_late``)."""
    lead = plays[0][1].suit
    return [Cut(round_, seat, card, lead) for seat, card in plays[1:]
            if seat in named and card.suit is trump and lead is not trump]


class TooMany(Exception):
    """More ways to try than the deal's settling will look through."""


def distinct(fits: list[list[Card]], budget: list[int],
              taken: tuple[Card, ...] = ()) -> Iterator[tuple[Card, ...]]:
    """Each way of picking one card from each list, no card twice (a generator). ``budget``
    (one number, in a list so that all calls share it) counts down the picks tried, dead ends
    included; ``TooMany`` when it runs out."""
    if len(taken) == len(fits):
        yield taken
        return
    for card in fits[len(taken)]:
        if card not in taken:
            budget[0] -= 1
            if budget[0] < 0:
                raise TooMany
            yield from distinct(fits, budget, taken + (card,))


def heaviest(weights: list[np.ndarray], most: int
              ) -> Iterator[tuple[float, tuple[int, ...], int, float]]:
    """The ways of filling gaps with cards, no card twice, heaviest first (a generator):
    ``weights[k]`` is a (gaps, cards) matrix, the weight of each card that may fill each gap
    of the ``k``-th set of gaps (0: it may not), and a way weighs the product of its cards'
    weights. Yields each way's weight, its cards (column indices, gap by gap), ``k``, and the
    most that the ways not yet yielded can weigh together: the least of what the partial
    ways still to follow can weigh (each gap's weights summed over the cards still free,
    multiplied: more than they weigh, as it lets two gaps take the same card) and what all
    the ways weigh (``permanent``) less what those yielded weighed. Stops after ``most``
    ways, or after looking at twenty times as many partial ways."""
    heap: list[tuple[float, int, int, tuple[int, ...], float]] = []
    tiebreak = itertools.count()
    whole = sum(permanent(matrix) for matrix in weights)
    frontier = spent = 0.0
    for k, matrix in enumerate(weights):
        bound = float(np.prod(matrix.sum(axis=1)))
        if bound > 0:
            heapq.heappush(heap, (-bound, next(tiebreak), k, (), 1.0))
            frontier += bound
    ways = looked = 0
    while heap and ways < most and looked < 20 * most:
        bound, _, k, taken, weight = heapq.heappop(heap)
        frontier += bound  # (the bound is kept negated)
        looked += 1
        matrix = weights[k]
        depth = len(taken)
        if depth == len(matrix):
            ways += 1
            spent += weight
            yield weight, taken, k, max(min(frontier, whole - spent), 0.0)
            continue
        free = np.ones(matrix.shape[1])
        free[list(taken)] = 0.0
        options = np.flatnonzero(matrix[depth] * free)
        rest = matrix[depth + 1:]
        weights_now = weight * matrix[depth, options]
        # each option's bound: its weight times the later gaps' sums over the cards left
        bounds = weights_now * np.prod((rest @ free)[:, None] - rest[:, options], axis=0)
        for card, child, now in zip(options.tolist(), bounds.tolist(), weights_now.tolist()):
            if child > 0:
                heapq.heappush(heap, (-child, next(tiebreak), k, taken + (card,), now))
                frontier += child


# the most gaps whose ways ``permanent`` weighs all together (2 ** n sums of n numbers)
PERMANENT_GAPS = 16


def permanent(matrix: np.ndarray) -> float:
    """What all the ways of filling gaps with cards, no card twice, weigh together
    (``matrix``: the weight of each card in each gap, as for ``heaviest``): the matrix's
    permanent, by Ryser's formula over the subsets of the cards. Infinity (no bound) for
    more than ``PERMANENT_GAPS`` gaps, or as many cards as gaps not (the deck leaves as
    many cards as gaps)."""
    gaps, cards = matrix.shape
    if gaps == 0:
        return 1.0
    if gaps > PERMANENT_GAPS or cards != gaps:
        return math.inf
    scale = matrix.sum(axis=1, keepdims=True)
    if not scale.all():
        return 0.0  # a gap no card can fill
    unit = matrix / scale  # rows summing to 1 keep the alternating sum's terms near its size
    subsets = (np.arange(1, 2 ** cards)[:, None] >> np.arange(cards)) & 1
    signs = (-1.0) ** (gaps - subsets.sum(axis=1))
    total = float(signs @ np.prod(subsets @ unit.T, axis=1))
    return max(total, 0.0) * float(np.prod(scale))


# the most tricks filled (a way of putting cards in a dropped trick's gaps, from one position
# of the play) that ``weigh_in_play`` looks at, about 2 s on a 2-core machine: the twelve
# court cards of the studio's guyenne-classic deals, their suits mostly unread, take 50,000
# to 190,000; a trick of which no card was read among them, millions
MOST_FILLS = 400_000


@dataclass(frozen=True)
class InPlay:
    """The ways of putting the cards never read back that the play allows, weighed
    (``weigh_in_play``): what the ways in which every seat followed suit and the dealer held
    the trump card weigh, by score, and how many they are; what the ways that show cheating
    weigh together, and how many they are."""

    honest: dict[tuple[int, int], float]
    cheating: float
    honest_ways: int
    cheating_ways: int

    @property
    def evidence(self) -> float:
        """How many times likelier the cards as read are if nobody cheated than if somebody
        did, each taken to be played in any of its ways alike: the honest ways' weight per
        way over the cheating ways' (a Bayes factor; infinite where no way shows cheating,
        0 where none is honest). Their weights summed would count the ways instead: cheating
        leaves far more ways open than following suit does (game 14 of the studio's clips:
        211,896 against 3,240)."""
        if not self.honest_ways:
            return 0.0
        if not self.cheating_ways or not self.cheating:
            return math.inf
        return (sum(self.honest.values()) / self.honest_ways) / (
            self.cheating / self.cheating_ways)


def weigh_in_play(rounds: list[Dropped | tuple[tuple[Seat, Card], ...]], missing: list[Card],
                  trump: Suit, trump_card: Card | None, dealer: Seat, first_leader: Seat,
                  most: int = MOST_FILLS) -> InPlay | None:
    """Every way of filling the gaps of a deal's dropped tricks with the cards ``missing``
    (no card twice, each only where ``Dropped.fits``) in which each trick is led by the last
    one's winner (``first_leader`` the first), weighed by ``Dropped.likelihood`` (multiplied
    over its cards), summed round by round: the ways that reach the same position (the cards
    still free, who leads next, the suits each seat failed to follow) go on together. A way
    in which a seat plays a suit it failed to follow, or anyone but ``dealer`` the trump card,
    shows cheating; those are summed without their scores. ``rounds``: the deal's ten, each a
    ``Dropped`` or the plays of a trick scored (seat and card, in order). None where that
    takes filling more than ``most`` tricks."""
    start = (frozenset(missing), first_leader, frozenset())
    # position -> score -> (weight, ways) of the ways still honest; position -> (weight,
    # ways) of the others
    honest: dict[tuple, dict[tuple[int, int], tuple[float, int]]] = {start: {(0, 0): (1.0, 1)}}
    cheating: dict[tuple, tuple[float, int]] = {}
    work = 0
    for trick in rounds:
        orders = trick.orders if isinstance(trick, Dropped) else (trick,)
        # by seat, the weight of each card that fits its gap
        likes = {seat: {card: trick.likelihood(seat, card) for card in missing
                        if trick.fits(seat, card)}
                 for seat, card in orders[0] if card is None} if isinstance(trick, Dropped) \
            else {}
        next_honest: dict[tuple, dict[tuple[int, int], tuple[float, int]]] = {}
        next_cheating: dict[tuple, tuple[float, int]] = {}
        for (free, leader, failed), weights in itertools.chain(
                honest.items(), ((position, None) for position in cheating)):
            for order in orders:
                if order[0][0] != leader:
                    continue  # a play out of turn: not what happened
                for plays, weight, left in _filled(order, free, likes):
                    work += 1
                    if work > most:
                        return None
                    cards = [card for _, card in plays]
                    winner = plays[winning_index(cards, trump)][0]
                    lead = cards[0].suit
                    if weights is None or any(
                            (seat, card.suit) in failed
                            or (card == trump_card and seat != dealer) for seat, card in plays):
                        base, ways = cheating[(free, leader, failed)] if weights is None \
                            else _summed(weights.values())
                        key = (left, winner, frozenset())
                        so_far, counted = next_cheating.get(key, (0.0, 0))
                        next_cheating[key] = (so_far + base * weight, counted + ways)
                        continue
                    key = (left, winner, failed | {(seat, lead) for seat, card in plays
                                                   if card.suit is not lead})
                    points = sum(card.points for card in cards)
                    scores = next_honest.setdefault(key, {})
                    for (a, b), (w, n) in weights.items():
                        score = (a + points, b) if winner.pair is Pair.A else (a, b + points)
                        so_far, counted = scores.get(score, (0.0, 0))
                        scores[score] = (so_far + w * weight, counted + n)
        honest, cheating = next_honest, next_cheating
    totals: dict[tuple[int, int], float] = {}
    for scores in honest.values():
        for score, (weight, _) in scores.items():
            totals[score] = totals.get(score, 0.0) + weight
    honest_ways = sum(n for scores in honest.values() for _, n in scores.values())
    weight, ways = _summed(cheating.values())
    return InPlay(totals, weight, honest_ways, ways)


def _summed(pairs: Iterable[tuple[float, int]]) -> tuple[float, int]:
    """The weights and the counts of ways of ``pairs`` (weight, ways), each summed."""
    weight, ways = 0.0, 0
    for w, n in pairs:
        weight, ways = weight + w, ways + n
    return weight, ways


def _filled(order: tuple[tuple[Seat, Card | None], ...], free: frozenset[Card],
            likes: dict[Seat, dict[Card, float]],
            ) -> list[tuple[list[tuple[Seat, Card]], float, frozenset[Card]]]:
    """Each way of filling the gaps of ``order`` (a trick's plays in order) with cards of
    ``free`` (``likes``: by seat, the weight of each card that fits its gap): its plays, its
    weight and the cards left free."""
    ways: list[tuple[list[tuple[Seat, Card]], float, frozenset[Card]]] = [([], 1.0, free)]
    for seat, card in order:
        if card is not None:
            ways = [(plays + [(seat, card)], weight, left) for plays, weight, left in ways]
            continue
        fit = likes[seat]
        ways = [(plays + [(seat, pick)], weight * fit[pick], left - {pick})
                for plays, weight, left in ways for pick in left if pick in fit]
    return ways
