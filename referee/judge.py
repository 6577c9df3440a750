"""Judging a whole recorded game, as the coursework scorer does.

Unlike the streaming ``Referee``, which hears cards one at a time and speaks up the moment a
fault is provable, a game file is judged with all of it in view, and its faults are reported
by kind in a fixed order: too few (or too many) rounds, then a card played twice, then the
dealer not holding the trump card, then an illegal play (a revoke). Only a revoke gives a
verdict (120-0 to the other pair); the other faults make the game void.
Unreadable cards and malformed tricks never get here: ``parse_game`` reports them first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import Card
from .engine import ROUNDS, forfeit_score
from .events import Announcement, CardAlreadyPlayed, DealerLacksTrump, Outcome, RevokeProven
from .gamefile import GameRecord
from .seats import Pair, Seat, TableOrder
from .tricks import Trick


@dataclass(frozen=True, slots=True)
class WrongRoundCount(Announcement):
    """The file does not hold exactly ten tricks."""

    kind: ClassVar[str] = "wrong_round_count"
    name: str
    rounds: int

    @property
    def message(self) -> str:
        if self.rounds < ROUNDS:
            only = "round only" if self.rounds == 1 else "rounds only"
            return (f"Game file '{self.name}' is incomplete. A complete game takes {ROUNDS} "
                    f"rounds; the given game includes {self.rounds} {only}.")
        return (f"Game file '{self.name}' has too many rounds. A complete game takes {ROUNDS} "
                f"rounds; the given game includes {self.rounds} rounds.")


@dataclass(frozen=True, slots=True)
class Judgement:
    """The result of judging a game file.

    ``fault`` is the first fault found (None for a valid game). ``score`` and ``outcome`` stand
    when ``has_verdict``: for a valid game, and for a revoke (120-0 against the cheat).
    ``tricks`` are the tricks with seats assigned (empty when the round count is wrong).
    """

    trump: Card
    tricks: tuple[Trick, ...]
    fault: Announcement | None
    score: tuple[int, int]

    @property
    def is_valid(self) -> bool:
        return self.fault is None

    @property
    def has_verdict(self) -> bool:
        return self.fault is None or isinstance(self.fault, RevokeProven)

    @property
    def outcome(self) -> Outcome:
        return Outcome.from_score(self.score)

    def cards_of(self, seat: Seat) -> list[Card]:
        """The cards ``seat`` played, in the order played: its hand for this deal."""
        return [p.card for t in self.tricks for p in t.plays if p.seat == seat]


def judge_game(record: GameRecord, name: str, order: TableOrder = TableOrder()) -> Judgement:
    """Judge a parsed game file. ``name`` is how the file is named in messages."""
    trump = record.trump
    cards = [t.cards for t in record.tricks]
    if len(cards) != ROUNDS:
        return Judgement(trump, (), WrongRoundCount(name, len(cards)), (0, 0))
    tricks = _seat_tricks(cards, trump, order)
    points = {Pair.A: 0, Pair.B: 0}
    for trick in tricks:
        points[trick.winner(trump.suit).pair] += trick.points
    score = (points[Pair.A], points[Pair.B])
    fault = (_card_played_twice(tricks) or _dealer_lacks_trump(tricks, trump, order)
             or _first_revoke(tricks))
    if isinstance(fault, RevokeProven):
        score = forfeit_score(fault.offender)
    return Judgement(trump, tricks, fault, score)


def _seat_tricks(cards: list[tuple[Card, ...]], trump: Card,
                 order: TableOrder) -> tuple[Trick, ...]:
    tricks: list[Trick] = []
    leader = order.first_leader
    for trick_cards in cards:
        trick = Trick.of(trick_cards, leader, order)
        tricks.append(trick)
        leader = trick.winner(trump.suit)
    return tuple(tricks)


def _card_played_twice(tricks: tuple[Trick, ...]) -> CardAlreadyPlayed | None:
    first_round: dict[Card, int] = {}
    for rnd, trick in enumerate(tricks, start=1):
        for play in trick.plays:
            if play.card in first_round:
                return CardAlreadyPlayed(play.seat, play.card, rnd, first_round[play.card])
            first_round[play.card] = rnd
    return None


def _dealer_lacks_trump(tricks: tuple[Trick, ...], trump: Card,
                        order: TableOrder) -> DealerLacksTrump | None:
    for rnd, trick in enumerate(tricks, start=1):
        for play in trick.plays:
            if play.card == trump and play.seat != order.dealer:
                return DealerLacksTrump(order.dealer, trump, play.seat, rnd)
    return None


def _first_revoke(tricks: tuple[Trick, ...]) -> RevokeProven | None:
    """The first play, in play order, that failed to follow suit while holding that suit.

    A seat's hand at round r is every card it plays from round r on.
    """
    for rnd, trick in enumerate(tricks, start=1):
        lead = trick.lead_suit
        for play in trick.plays[1:]:
            if play.card.suit is lead:
                continue
            for later_rnd in range(rnd + 1, len(tricks) + 1):
                proof = next(p.card for p in tricks[later_rnd - 1].plays if p.seat == play.seat)
                if proof.suit is lead:
                    return RevokeProven(play.seat, play.card, rnd, lead, proof, later_rnd)
    return None


__all__ = ["Judgement", "WrongRoundCount", "judge_game"]
