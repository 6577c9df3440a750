"""Settling a deal whose tricks were dropped: the cards never read surely can only be the cards
of the deck not seen, so the deal is scored again with each way of putting them back
(``Settlement.settle``). Where every way the play allows gives one score and no cheating,
that score and its verdict stand; where the ways differ, they are weighed by what the
classifier read of the cards in their places (``ways.heaviest``; where they are too many,
round by round: ``ways.weigh_in_play``), and a score (or at least a result for the match)
holding ``LIKELY`` of their weight stands. Nobody is judged on a card never read.
``vision.game.TableReferee`` settles each deal this way when it ends, and when a trick is
dropped."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

import numpy as np

from referee.cards import SUECA_DECK, Card, Suit
from referee.engine import ROUNDS, Referee, RefereeStateError
from referee.events import (
    Announcement,
    CardPlayed,
    Cheat,
    Cut,
    GameIncomplete,
    GameOver,
    Outcome,
    RevokeInDoubt,
    RevokeProven,
    TrickWon,
    TrumpDeclared,
    TrumpRevealed,
    TrumpSuitDeclared,
    TrumpSuitRevealed,
)
from referee.match import MatchRules
from referee.seats import Pair, Seat, TableOrder

from .announcements import (
    CardDeduced,
    OutcomeSettled,
    ResultIfHonest,
    RevokeSettled,
    ScoreLikely,
    ScoreSettled,
)
from .ways import (
    LIKELY,
    MOST_WAYS,
    Dropped,
    TooMany,
    cuts_named,
    distinct,
    heaviest,
    odds_weight,
    weigh_in_play,
)


_Round = TypeVar("_Round")  # a dropped round as a settling step gives it (``Settlement._rounds``)

# how many times likelier the cards never read surely, as read, must be if every seat
# followed suit than if somebody cheated (``InPlay.evidence``) for a deal with no verdict to
# say what it gives if nobody revoked (``Settlement._in_play``): "strong" evidence on
# Jeffreys' scale. The studio's guyenne-classic deals: 24-1,510 where nobody revoked, 0-0.77
# where somebody did (docs/refereeing.md, seventy-fourth session)
HONEST_EVIDENCE = 10.0


class Settlement:
    """The deal ``referee`` refereed (its tricks, the rounds it missed, its trump), played in
    ``order``, settled under the match's ``rules``."""

    def __init__(self, referee: Referee, order: TableOrder, rules: MatchRules) -> None:
        self.referee = referee
        self.order = order
        self.rules = rules
        # set by ``settle`` where every way of putting the cards back was tried and none
        # fits the play (each makes a play out of turn): what the deal was refereed under,
        # its trump, cannot be what happened
        self.no_way_fits = False

    def settle(self, said: list[Announcement],
               dropped_all: list[Dropped | None]) -> list[Announcement]:
        """A deal that ends with some tricks dropped, every card of the deck seen but the ones
        never read: those can only be the ones not seen. The deal is scored again with each
        way of putting them in their places (a card whose suit or rank was read only where
        that allows) and of ordering a trick whose lead was a guess, if there are at most
        ``MOST_WAYS`` such ways. A way that makes a play out of turn
        cannot be what happened. If the ways left all show no cheating and give the same
        score, that score and its verdict stand: with one way left the cards are named, with
        several the referee says the score holds however they lie. Nobody is judged on a card
        never read, and no verdict is given that cheating nobody could prove might overturn:
        if any way left shows cheating, or the ways left differ in score, or none is left,
        the deal keeps its "no verdict".

        A deal with every round scored that ends with a revoke in doubt is weighed as a whole
        instead (``_revoke_by_the_deck``)."""
        doubt = next((a for a in said if isinstance(a, RevokeInDoubt)), None)
        if doubt is not None and not doubt.missed:
            return self._revoke_by_the_deck(said) or said
        if any(isinstance(a, GameOver) and not isinstance(a, GameIncomplete)
               and a.cheat is not None for a in said):
            return self._named_after_the_verdict(said, dropped_all)
        if not any(isinstance(a, GameIncomplete) for a in said):
            return said
        dropped = self._dropped_in_order(dropped_all)
        missing = None if dropped is None else self._missing(dropped)
        if dropped is None or missing is None:
            return said
        rest = [a for a in said if not isinstance(a, GameIncomplete)]
        tries, budget = [], [20 * MOST_WAYS]
        try:
            for orders in itertools.product(*(d.orders for d in dropped)):
                fits = _gap_fits(dropped, orders, missing)
                tries += [(cards, orders) for cards in itertools.islice(
                    distinct(fits, budget), MOST_WAYS + 1 - len(tries))]
                if len(tries) > MOST_WAYS:
                    raise TooMany  # too many ways to tell apart
        except TooMany:  # too many to try, or to look through (most of them dead ends)
            likely = self._likely(dropped, missing, said)
            return self._in_play(dropped, missing, said) if likely is None \
                else rest + likely
        ways = []
        for cards, orders in tries:
            over = self._score_again(dict(zip((d.round for d in dropped), orders)), cards)
            if over is not None:
                ways.append((cards, orders, over))
        if not ways:
            self.no_way_fits = bool(tries)
            return said
        if any(over.cheat is not None for _, _, over in ways) \
                or len({over.score for _, _, over in ways}) != 1:
            likely = self._likely(dropped, missing, said)
            if likely is not None:
                return rest + likely
            results = {deal_result(over, self.rules) for _, _, over in ways}
            if len(results) == 1 and None not in results:  # one result, whatever the score
                scores = Counter(over.score for _, _, over in ways)
                return rest + [_outcome([s for s, _ in scores.most_common()], 1.0,
                                             results.pop(), said)]
            doubt = self._revoke_in_doubt(ways, dropped, said)
            return self._in_play(dropped, missing, said) if doubt is None \
                else rest + doubt
        if len(ways) > 1:
            rounds = tuple(d.round for d in dropped)
            return rest + [ScoreSettled(rounds, tuple(str(c) for c in missing), len(ways)),
                           ways[0][2]]
        cards, orders, over = ways[0]
        again = self._replay(dict(zip((d.round for d in dropped), orders)), cards)
        assert again is not None
        # who won each dropped trick, with the score as it stands now, the deal's (as for a
        # trick scored once its card is known during the deal: ``Referee.restore_trick``)
        won = [replace(a, score=over.score) for a in again[2] if isinstance(a, TrickWon)]
        return rest + _deduced(dropped, orders, cards, self.referee.trump_suit, won) + [over]

    def _dropped_in_order(self, dropped_all: list[Dropped | None]) -> list[Dropped] | None:
        """The deal's dropped tricks in the order of their rounds, as the deal is scored
        again (the cards that fill the gaps are taken in that order; a trick withdrawn later
        is dropped after the others); None where one of the rounds missed was not kept, or
        the trump is not known."""
        if not dropped_all or None in dropped_all \
                or len(dropped_all) != len(self.referee.missed) \
                or self.referee.trump_suit is None:
            return None
        return sorted((d for d in dropped_all if d is not None), key=lambda d: d.round)

    def _missing(self, dropped: list[Dropped]) -> list[Card] | None:
        """The cards of the deck not seen in the deal, which the gaps of ``dropped`` can only
        be; None where a card was seen twice, or they are not as many as the gaps."""
        known = [p.card for trick in self.referee.tricks for p in trick.plays] + [
            card for d in dropped for _, card in d.orders[0] if card is not None]
        missing = sorted(set(SUECA_DECK) - set(known), key=str)
        gaps = sum(card is None for d in dropped for _, card in d.orders[0])
        if len(known) != len(set(known)) or len(missing) != gaps:
            return None
        return missing

    def _named_after_the_verdict(self, said: list[Announcement],
                                 dropped_all: list[Dropped | None]) -> list[Announcement]:
        """A deal that a proven cheat decided (its ``GameOver`` in ``said``) with tricks
        dropped: where the cards never read can be put back one way only, whatever the order
        of their tricks' plays (each card of its suit or rank, if read, and none twice), each
        is named (``CardDeduced``) before the verdict; where each such trick's order is
        known, with the cuts they make and who won it (the score said with it is the tricks'
        tally at the deal's end, as the tricks after the cheat were said). The verdict
        stands as it is: the cheat decided the score. Naming them tells the deal's every
        card, so a deck is learnt in play from it (``vision.learning``: game 3208's jack of
        clubs, the one card never read, left unnamed under a revoke proven in round 6)."""
        dropped = self._dropped_in_order(dropped_all)
        if dropped is None:
            return said
        missing = self._missing(dropped)
        if missing is None:
            return said
        places = set()  # each way, as {(round, seat): card}
        ways: list[tuple[tuple, tuple[Card, ...]]] = []
        budget = [20 * MOST_WAYS]
        try:
            for orders in itertools.product(*(d.orders for d in dropped)):
                slots = [(d.round, seat) for d, order in zip(dropped, orders)
                         for seat, c in order if c is None]
                fits = _gap_fits(dropped, orders, missing)
                for cards in itertools.islice(distinct(fits, budget), 2):
                    places.add(frozenset(zip(slots, cards)))
                    ways.append((orders, cards))
                if len(places) > 1:
                    return said
        except TooMany:
            return said
        if len(places) != 1:
            return said
        orders, cards = ways[0]
        if len({orders for orders, _ in ways}) > 1:  # who led is in doubt: only the cards
            named = [a for a in _deduced(dropped, orders, cards, self.referee.trump_suit)
                     if isinstance(a, CardDeduced)]
        else:  # and the cuts they make, and who won their tricks, with the tricks' tally
            again = self._replay(dict(zip((d.round for d in dropped), orders)), cards)
            tricks = [] if again is None else [a for a in again[2] if isinstance(a, TrickWon)]
            won = [replace(a, score=tricks[-1].score) for a in tricks]
            named = _deduced(dropped, orders, cards, self.referee.trump_suit, won)
        at = next(i for i, a in enumerate(said) if isinstance(a, GameOver))
        return said[:at] + named + said[at:]

    def _likely(self, dropped: list[Dropped], missing: list[Card],
                said: list[Announcement]) -> list[Announcement] | None:
        """Where the ways of putting back the cards never read differ (in score, or some show
        cheating), or are too many to try all: weigh each way by how well its cards fit what
        the classifier read of the cards in their places (``Dropped.likelihood``, multiplied
        over them). If the ways of one score, none showing cheating, hold at least ``LIKELY``
        of the weight of all the ways the play allows, that score stands (``ScoreLikely``,
        then the verdict). Only where every one of those cards was read whole at least once:
        a card never seen leaves its ways as likely as each other, and counting ways is no
        evidence of how the cards were played.

        The ways are tried heaviest first (``heaviest``), at most ``MOST_WAYS`` of them; what
        the ways not tried could weigh, at most, counts against the score, so the search can
        stop as soon as the score is certain to hold its share.

        Where no score holds that share but one result does (``_result``: the winner and the
        games the deal is worth, none of its ways showing cheating), that result is the
        verdict (``OutcomeSettled``, in place of the ``GameIncomplete`` in ``said``)."""
        if not _read_whole(dropped):
            return None
        combos = list(itertools.product(*(d.orders for d in dropped)))
        gaps = [[(d, seat) for d, order in zip(dropped, orders) for seat, c in order
                 if c is None] for orders in combos]
        weights = [np.array([[d.likelihood(seat, c) if d.fits(seat, c) else 0.0
                              for c in missing] for d, seat in slots]).reshape(-1, len(missing))
                   for slots in gaps]
        held: dict[tuple, float] = {}
        overs: dict[tuple, GameOver] = {}
        results: dict[tuple, dict[tuple[int, int], float]] = {}  # result -> score -> weight
        total, first_way, left = 0.0, None, math.inf
        for weight, picked, combo, untried in heaviest(weights, MOST_WAYS):
            left = untried
            cards = tuple(missing[i] for i in picked)
            over = self._score_again(dict(zip((d.round for d in dropped), combos[combo])),
                                     cards)
            if over is None:
                continue  # a play out of turn: not what happened
            key = (over.score, over.cheat)
            held[key] = held.get(key, 0.0) + weight
            overs.setdefault(key, over)
            result = deal_result(over, self.rules)
            if result is not None:
                scores = results.setdefault(result, {})
                scores[over.score] = scores.get(over.score, 0.0) + weight
            total += weight
            if first_way is None:
                first_way = (weight, cards, combo)  # the first tried is the heaviest
            key, mass = max(held.items(), key=lambda item: item[1])
            if key[1] is None and mass >= LIKELY * (total + untried):
                break
        else:
            # no score holds enough of the weight, or too many ways to be sure: one result?
            likely = _likely_result(results, total + left)
            return None if likely is None else [_outcome(likely[2], likely[1], likely[0], said)]
        assert first_way is not None
        weight, cards, combo = first_way
        placed = tuple((d.round, seat, str(card)) for (d, seat), card
                       in zip(gaps[combo], cards)) if weight >= LIKELY * (total + untried) \
            else ()
        rounds = tuple(d.round for d in dropped)
        return [ScoreLikely(rounds, tuple(str(c) for c in missing), mass / (total + untried),
                            placed), overs[key]]

    def _in_play(self, dropped: list[Dropped], missing: list[Card],
                 said: list[Announcement]) -> list[Announcement]:
        """``said``, a deal left with no verdict, weighed over every way of putting the cards
        never read surely back that the play allows (``weigh_in_play``: each trick led by the
        last one's winner), where the ways were too many to weigh one by one or none of
        their scores or results held ``LIKELY`` of the weight. Only where every one of those
        cards was read whole at least once (as for ``_likely``): counting ways is no evidence.

        - Where the ways of one result, none showing cheating, hold ``LIKELY`` of the weight
          of all the ways, cheating ones included, that result is the verdict
          (``OutcomeSettled``, in place of the ``GameIncomplete``), as ``_likely`` gives it
          where it can weigh every way.
        - Else, where the cards as read are at least ``HONEST_EVIDENCE`` times likelier if
          every seat followed suit and the dealer held the trump card than if somebody
          cheated (``InPlay.evidence``), and ways of one result hold ``LIKELY`` of the
          honest ways' weight, the deal says what it gives if nobody cheated so
          (``ResultIfHonest``, before its "no verdict", which stands)."""
        if not _read_whole(dropped):
            return said
        rounds = self._rounds({d.round: d for d in dropped})
        assert self.referee.trump_suit is not None
        weighed = weigh_in_play(rounds, missing, self.referee.trump_suit, self.referee.trump,
                                self.order.dealer, self.order.first_leader)
        if weighed is None:
            return said
        honest = sum(weighed.honest.values())
        results: dict[tuple[Pair | None, int], dict[tuple[int, int], float]] = {}
        for score, weight in weighed.honest.items():
            results.setdefault(score_result(score, self.rules), {})[score] = weight
        incomplete = next(a for a in said if isinstance(a, GameIncomplete))
        at = said.index(incomplete)
        settled = _likely_result(results, honest + weighed.cheating)
        if settled is not None:
            result, share, ranked = settled
            return said[:at] + said[at + 1:] + [_outcome(ranked, share, result, said)]
        likely = _likely_result(results, honest)
        if weighed.evidence < HONEST_EVIDENCE or likely is None:
            return said
        (winner, games), share, ranked = likely
        return said[:at] + [ResultIfHonest(incomplete.missed, winner, games, tuple(ranked),
                                           share)] + said[at:]

    def _revoke_by_the_deck(self, said: list[Announcement]) -> list[Announcement] | None:
        """A deal with every round scored whose plays, as read, show a revoke that rests on
        readings under ``accuse_confidence`` (``RevokeInDoubt`` in ``said``), though each was
        read at ``min_confidence`` on two looks: where the forty cards played are the forty
        of the deck and the trump was read surely, a card misread would have to be a card
        seen elsewhere, misread in turn (game 2596 of the studio's clips: a jolly-royal JH,
        read 0.95, proved that seat 2 had not followed hearts with its QD, but a 4 % share of
        its odds was no card at all). The cards read unsurely are put back in each other's
        places (``heaviest``), each way weighed by their odds (``odds_weight``) and scored
        again (a way that makes a play out of turn cannot be what happened). Where the ways
        that show the same revoke (the seat, the card, the round and the lead's suit) hold
        ``LIKELY`` of the weight, with what the ways not tried may weigh counted against
        them, it is proven: ``RevokeSettled``, the revoke and the verdict replace the doubt.
        None where it is not, or where the deal cannot be weighed so (a card seen twice or
        never, one read on one look only or with no odds, a trump in doubt)."""
        referee = self.referee
        trump_sureness, readings = referee.readings()
        plays = [p for trick in referee.tricks for p in trick.plays]
        if referee.missed or {p.card for p in plays} != set(SUECA_DECK) \
                or trump_sureness < referee.accuse_confidence \
                or any(p.card not in readings for p in plays):
            return None
        unsure = [p.card for p in plays if readings[p.card][0] < referee.accuse_confidence]
        if not unsure or any(readings[card][0] < referee.min_confidence
                             or not readings[card][1] for card in unsure):
            return None
        # every round as read, the cards read unsurely as gaps (filled in the order of play)
        rounds = {number: tuple((p.seat, None if p.card in unsure else p.card)
                                for p in trick.plays)
                  for number, trick in enumerate(referee.tricks, start=1)}
        as_read = self._score_again(rounds, tuple(unsure))
        cheat = None if as_read is None else as_read.cheat
        if not isinstance(cheat, RevokeProven):
            return None
        weights = np.array([[odds_weight(readings[card][1], other) for other in unsure]
                            for card in unsure])
        held = total = 0.0
        for weight, picked, _, untried in heaviest([weights], MOST_WAYS):
            over = self._score_again(rounds, tuple(unsure[i] for i in picked))
            if over is None:
                continue  # a play out of turn: not what happened
            total += weight
            if _same_revoke(over.cheat, cheat):
                held += weight
            if total - held > (1 - LIKELY) * (total + untried):
                return None  # the ways against it already weigh too much, whatever is left
            if held >= LIKELY * (total + untried):
                assert as_read is not None
                share = held / (total + untried)
                return [a for a in said if not isinstance(a, RevokeInDoubt)] + [
                    RevokeSettled(cheat.seat, cheat.round, share), cheat, as_read]
        return None

    def _revoke_in_doubt(self, ways: list[tuple[tuple[Card, ...], tuple, GameOver]],
                         dropped: list[Dropped], said: list[Announcement],
                         ) -> list[Announcement] | None:
        """Where every way of putting the cards never read back (``ways``: cards, orders,
        verdict) shows one and the same revoke (the same card off the lead, and the same later
        card of the lead's suit that shows it), nobody is judged on it (the cards it rests
        on were not all read surely, or it would have been proven as they came down), but
        the deal ends saying who may have revoked (``RevokeInDoubt``, with the score of the
        first way's tricks), so the players can look for themselves; with one way, the cards
        it puts back are named first. None where the ways show anything else."""
        cheats = [over.cheat for _, _, over in ways]
        first = cheats[0]
        if not isinstance(first, RevokeProven) or any(c != first for c in cheats):
            return None  # (a revoke whose later card differs between the ways is not said)
        cards, orders, _ = ways[0]
        again = self._replay(dict(zip((d.round for d in dropped), orders)), cards)
        assert again is not None
        points = again[1].score
        missed = next(a.missed for a in said if isinstance(a, GameIncomplete))
        deduced = _deduced(dropped, orders, cards, self.referee.trump_suit) \
            if len(ways) == 1 else []
        return deduced + [RevokeInDoubt(points, Outcome.from_score(points), None, missed,
                                        first.seat, first.card, first.round, first.lead_suit,
                                        first.proof, first.proof_round)]

    def _score_again(self, dropped: dict[int, tuple[tuple[Seat, Card | None], ...]],
                     cards: tuple[Card, ...]) -> GameOver | None:
        """The deal's verdict with ``cards`` in the dropped tricks' gaps (round -> plays, in
        order; a round given so is played so, scored or not, the others as they were
        scored), the cheating it shows in its ``cheat``; None if it cannot be what happened
        (a play out of turn, or anything else but tricks and cheating)."""
        again = self._replay(dropped, cards)
        return None if again is None else again[0]

    def _replay(self, dropped: dict[int, tuple[tuple[Seat, Card | None], ...]],
                cards: tuple[Card, ...],
                ) -> tuple[GameOver, Referee, list[Announcement]] | None:
        """As ``_score_again``, with the referee that scored the deal again (its points) and
        what it said."""
        again = Referee(self.order)
        trump, suit = self.referee.trump, self.referee.trump_suit
        assert suit is not None
        said = again.feed(TrumpRevealed(trump) if trump is not None else TrumpSuitRevealed(suit))
        fill = iter(cards)
        for plays in self._rounds(dropped):
            for seat, card in plays:
                try:
                    said += again.feed(CardPlayed(seat, card if card is not None
                                                  else next(fill)))
                except RefereeStateError:
                    return None
        over = [a for a in said if isinstance(a, GameOver)]
        if any(not isinstance(a, (TrumpDeclared, TrumpSuitDeclared, Cut, TrickWon, GameOver,
                                  Cheat)) for a in said) \
                or len(over) != 1 or isinstance(over[0], GameIncomplete):
            return None
        return over[0], again, said  # the first cheating proven is the verdict's ``cheat``

    def _rounds(self, dropped: Mapping[int, _Round]
                ) -> list[_Round | tuple[tuple[Seat, Card], ...]]:
        """The deal's ten rounds in order: those in ``dropped`` as it gives them, the others
        as they were scored (their plays, seat and card; the referee keeps its tricks in the
        order of their rounds, the dropped ones left out)."""
        scored = [n for n in range(1, ROUNDS + 1) if n not in self.referee.missed]
        kept = dict(zip(scored, self.referee.tricks))
        return [dropped[n] if n in dropped else tuple((p.seat, p.card) for p in kept[n].plays)
                for n in range(1, ROUNDS + 1)]


def _gap_fits(dropped: list[Dropped], orders: tuple, missing: list[Card]) -> list[list[Card]]:
    """For each gap of ``dropped`` played in ``orders`` (a card never read), in turn, the cards
    of ``missing`` that may fill it (``Dropped.fits``)."""
    return [[c for c in missing if d.fits(seat, c)]
            for d, order in zip(dropped, orders) for seat, c in order if c is None]


def _deduced(dropped: list[Dropped], orders: tuple, cards: tuple[Card, ...],
             trump: Suit | None, won: Sequence[TrickWon] = ()) -> list[Announcement]:
    """The cards of the one way left (``cards``, in the order of the gaps of ``dropped``
    played in ``orders``), each named in its place, and the cuts those of them make; then
    who won the trick, where ``won`` (the tricks of the deal scored again that way) has it."""
    fill = iter(cards)
    by_round = {a.round: a for a in won}
    said: list[Announcement] = []
    for d, order in zip(dropped, orders):
        plays = [(seat, c if c is not None else next(fill)) for seat, c in order]
        named = {seat for seat, c in order if c is None}
        said += [CardDeduced(d.round, seat, str(card)) for seat, card in plays if seat in named]
        said += cuts_named(d.round, plays, named, trump)
        said += [by_round[d.round]] if d.round in by_round else []
    return said


def _read_whole(dropped: list[Dropped]) -> bool:
    """Whether every card never read surely in ``dropped`` was read whole at least once
    (it has odds): a card never seen leaves its ways as likely as each other, and counting
    ways is no evidence of how the cards were played."""
    return all(seat in dict(d.odds) for d in dropped for order in d.orders
               for seat, card in order if card is None)


def _likely_result(results: dict[tuple[Pair | None, int], dict[tuple[int, int], float]],
                   total: float,
                   ) -> tuple[tuple[Pair | None, int], float, list[tuple[int, int]]] | None:
    """The result (winner and games) whose ways hold at least ``LIKELY`` of ``total`` (the
    weight of every way, and of what the ways not tried may weigh), with that share and its
    scores, likeliest first; ``results``: result -> score -> weight. None if none does."""
    for result, scores in results.items():
        share = sum(scores.values()) / total
        if share >= LIKELY:
            return result, share, sorted(scores, key=lambda score: -scores[score])
    return None


def _same_revoke(cheat: Cheat | None, revoke: RevokeProven) -> bool:
    """Whether ``cheat`` is ``revoke``: the same seat, failing to follow the same suit with
    the same card in the same round (the later card that shows it may differ)."""
    return isinstance(cheat, RevokeProven) and (
        cheat.seat, cheat.card, cheat.round, cheat.lead_suit) == (
        revoke.seat, revoke.card, revoke.round, revoke.lead_suit)


def deal_result(over: GameOver, rules: MatchRules) -> tuple[Pair | None, int] | None:
    """What a deal's verdict means for the match: the winner (None: a draw) and the games
    it is worth; None where it shows cheating."""
    if over.cheat is not None:
        return None
    return score_result(over.score, rules)


def score_result(score: tuple[int, int], rules: MatchRules) -> tuple[Pair | None, int]:
    """What a deal's ``score``, nobody cheating, means for the match (``deal_result``)."""
    winner = Outcome.from_score(score).winner
    return winner, rules.games_for(max(score)) if winner else 0


def _outcome(scores: list[tuple[int, int]], share: float,
             result: tuple[Pair | None, int], said: list[Announcement]) -> OutcomeSettled:
    """The verdict of a deal whose result is settled but not its score (``scores``:
    likeliest first, or, where the ways were not weighed, those most ways give first), in
    place of its ``GameIncomplete`` (in ``said``)."""
    missed = next(a.missed for a in said if isinstance(a, GameIncomplete))
    return OutcomeSettled(scores[0], Outcome.from_score(scores[0]), None, tuple(scores),
                          float(share), result[1], missed)
