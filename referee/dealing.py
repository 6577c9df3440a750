"""Random deals and random legal games, reproducible from a seed.

Used by the studio to render whole games and by the tests. ``random_game`` deals the 40 cards,
takes the dealer's last card as the trump, and plays each trick with every seat following suit
when it can. With ``revoke=True`` exactly one seat, once, fails to follow a suit it holds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import SUECA_DECK, Card
from .engine import ROUNDS
from .events import CardPlayed, Event, TrumpRevealed
from .seats import SEATS, Seat, TableOrder
from .tricks import Play, Trick


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """A whole deal: the trump card and the ten tricks with seats."""

    trump: Card
    tricks: tuple[Trick, ...]
    order: TableOrder = TableOrder()

    def to_text(self, score: tuple[int, int] | None = None) -> str:
        """The game as a game file, optionally with a final ``Score:`` line."""
        lines = [f"Trump Card: {self.trump}"] + [str(t) for t in self.tricks]
        if score is not None:
            lines.append(f"Score: {score[0]} - {score[1]}")
        return "\n".join(lines) + "\n"

    def events(self) -> list[Event]:
        """The game as the events a referee hears: the trump, then every card in order."""
        events: list[Event] = [TrumpRevealed(self.trump)]
        events += [CardPlayed(p.seat, p.card) for t in self.tricks for p in t.plays]
        return events


def deal(rng: random.Random) -> dict[Seat, list[Card]]:
    """Shuffle the Sueca deck and give each seat ten cards."""
    cards = list(SUECA_DECK)
    rng.shuffle(cards)
    return {seat: cards[i * 10:(i + 1) * 10] for i, seat in enumerate(SEATS)}


def random_game(seed: int | random.Random, order: TableOrder = TableOrder(),
                revoke: bool = False) -> RecordedGame:
    """A random legal game (or one with a single revoke) from ``seed``."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    hands = deal(rng)
    trump = hands[order.dealer][-1]
    revoke_at = _pick_revoke(rng) if revoke else None
    while True:
        game = _play_out(rng, {s: list(h) for s, h in hands.items()}, trump, order, revoke_at)
        if game is not None:
            return game
        revoke_at = _pick_revoke(rng)  # that chance never came: retry


def _pick_revoke(rng: random.Random) -> tuple[int, int]:
    """A (round, position in trick) at which to try the revoke; position 1..3 never leads."""
    return rng.randrange(ROUNDS - 1), rng.randrange(1, 4)


def _play_out(rng: random.Random, hands: dict[Seat, list[Card]], trump: Card,
              order: TableOrder, revoke_at: tuple[int, int] | None) -> RecordedGame | None:
    tricks: list[Trick] = []
    leader = order.first_leader
    revoked = False
    for rnd in range(ROUNDS):
        plays: list[Play] = []
        for pos, seat in enumerate(order.seats_from(leader)):
            hand = hands[seat]
            if not plays:
                choice = hand
            else:
                lead = plays[0].card.suit
                following = [c for c in hand if c.suit is lead]
                others = [c for c in hand if c.suit is not lead]
                choice = following or hand
                if revoke_at == (rnd, pos) and following and others:
                    choice, revoked = others, True
            card = rng.choice(choice)
            hand.remove(card)
            plays.append(Play(seat, card))
        trick = Trick(tuple(plays))
        tricks.append(trick)
        leader = trick.winner(trump.suit)
    if revoke_at is not None and not revoked:
        return None
    return RecordedGame(trump, tuple(tricks), order)
