"""The streaming Sueca referee: events in, announcements out, no I/O.

States of one deal::

    AWAITING_TRUMP --TrumpRevealed--> PLAYING --CardPlayed x40--> OVER
    AWAITING_TRUMP --TrumpSuitRevealed--> PLAYING (a camera read the trump's suit, not its
                                          card: the dealer's holding it is not checked)

In PLAYING, each ``CardPlayed`` is either taken into the current trick or turned away. It is
turned away, with an announcement and the state left exactly as it was, when the reading is
unsure (``CardUnclear``), when it is not a Sueca card (``NotASuecaCard``), or when the seat is not
the one whose turn it is (``OutOfTurn``; but where whose lead it is rests on the last round's
cards or the trump read under ``accuse_confidence``, ``turn_in_doubt``, another seat's lead is
taken as a guess, as after a dropped trick; and in a trick led by such a guess, a play out of
the guessed order is turned away quietly: its seat may have led). A play that would prove cheating is only taken when its
reading is at least ``accuse_confidence`` sure; otherwise it is ``CardUnclear`` too, so nobody is
accused on a doubtful reading. So is a card read as one already played when that proves
nothing (one of the two readings is unsure): it is taken only if read that surely. The earlier
readings a proof rests on (the card's first play, the off-suit card and the lead it did not
follow, the trump) must be as sure, or there is no proof.

Cheating is announced the moment it is provable: a revoke when the seat later shows a card of
the suit it failed to follow (or, where that card was read too unsurely then, once it is known
by elimination: the other cards its odds named played and read surely since); the dealer
lacking the trump card when another seat plays it; a card played twice when it comes down
again. The first proven cheat decides the game: 120-0 to the
other pair. Play still goes on to the end so tricks and the running score stay visible.

An event that makes no sense in the current state (a card before the trump, anything after the
game is over) is misuse of the API and raises ``RefereeStateError``, again leaving the state as
it was.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import replace
from typing import NamedTuple

from .cards import SUECA_DECK, Card, Suit
from .events import (
    Announcement,
    CardAlreadyPlayed,
    CardPlayed,
    CardUnclear,
    Cheat,
    Cut,
    DealerLacksTrump,
    Event,
    GameIncomplete,
    GameOver,
    NotASuecaCard,
    Outcome,
    OutOfTurn,
    RevokeInDoubt,
    RevokeProven,
    TrickMissed,
    TrickWithdrawn,
    TrickWon,
    TrumpDeclared,
    TrumpRevealed,
    TrumpSuitDeclared,
    TrumpSuitRevealed,
)
from .seats import Pair, Seat, TableOrder
from .tricks import Play, Trick

ROUNDS = 10
TOTAL_POINTS = 120


def forfeit_score(offender: Pair) -> tuple[int, int]:
    """The score of a game decided by cheating: all 120 points to the other pair."""
    return (0, TOTAL_POINTS) if offender is Pair.A else (TOTAL_POINTS, 0)


def _named(odds: Sequence[tuple[str, float]]) -> list[tuple[Card, float]]:
    """The cards of a reader's odds, in their order (a card back, or "no card", left out)."""
    cards = []
    for name, share in odds:
        try:
            cards.append((Card.parse(name), share))
        except ValueError:
            continue
    return cards


class _Failure(NamedTuple):
    """A seat's failure to follow a suit, kept as evidence of a revoke."""

    round: int
    card: Card | None  # the off-suit card; None where it was never read (see ``_failed_unread``)
    lead: Card | None  # the lead card; None where who led was a guess
    off_suit: float = 0.0  # how surely the card, read or not, was off the lead's suit


class RefereeStateError(RuntimeError):
    """An event was fed that the referee cannot take in its current state (API misuse)."""


class Phase(enum.Enum):
    AWAITING_TRUMP = "awaiting_trump"
    PLAYING = "playing"
    OVER = "over"


class Referee:
    """Referees one deal of Sueca, fed one event at a time.

    ``min_confidence``: readings below it are never acted on (the card must be shown again).
    Raising it trades more "card unclear" requests for fewer misread plays.
    ``accuse_confidence``: a play that would prove cheating must be read at least this surely.
    It should be at least ``min_confidence``; raising it trades slower accusations for fewer
    false ones.

    A play that would prove cheating, read under ``accuse_confidence`` (or on one look), is
    turned away as unclear: the card must be shown again. A camera that never gets a surer
    look before the trick is swept gives it again as ``unproven``: it is then taken as read,
    like any play read at ``min_confidence``, so that its trick is scored, but it proves
    nothing; the failure to follow it would have proven stays open for a surer proof later
    (a card read as one already played is never taken so).

    A card is also known by elimination: a play read, on two looks, less surely than
    ``accuse_confidence`` (kept with its ``odds``) counts as read that surely once every other
    card its odds name has been played and read surely in the deal (a card is played once),
    so long as what the odds leave unnamed, and any card back or "no card" among them, weighs
    too little to matter: its sureness is then its own share of what remains. A king of clubs
    read 0.91 (king of spades 0.09) that failed to follow spades is a proven failure to follow
    once the king of spades has been played and read surely; if the same seat played that king
    of spades, that play proves the revoke.

    A revoke rests on suits, not ranks: the card that proves one needs only its suit read
    that surely (its odds' share of the suit, on two looks), and a card never read surely in a
    dropped trick fails to follow where its odds put it off the lead's suit that surely (see
    ``abandon_trick``). Scoring a dropped trick later (``only_card_left``) weighs the cards
    played since by how surely each was read; that is never evidence of cheating.
    """

    def __init__(self, order: TableOrder = TableOrder(), *, min_confidence: float = 0.0,
                 accuse_confidence: float = 0.0) -> None:
        if not 0.0 <= min_confidence <= 1.0 or not 0.0 <= accuse_confidence <= 1.0:
            raise ValueError("confidence thresholds lie between 0 and 1")
        if accuse_confidence < min_confidence:
            raise ValueError("accuse_confidence must be at least min_confidence")
        self.order = order
        self.min_confidence = min_confidence
        self.accuse_confidence = accuse_confidence
        self.phase = Phase.AWAITING_TRUMP
        self.trump: Card | None = None
        self._trump_suit: Suit | None = None  # when only the trump's suit was read
        self.round = 1
        self.leader: Seat | None = order.first_leader
        self.missed: list[int] = []  # rounds swept away unread (see ``abandon_trick``)
        # the plays of the last trick dropped that were taken late (``_take_late``)
        self.late_taken: list[CardPlayed] = []
        # whether who led the trick in progress is known: not after a dropped trick, until a
        # lead is seen coming down ``alone``; a trick led by a guess is won by a guess too
        self._lead_known = True
        self._lead_doubted = False  # the trick in progress was led by such a guess
        self.plays: list[Play] = []  # the trick in progress
        self.tricks: list[Trick] = []
        self.points = {Pair.A: 0, Pair.B: 0}
        self.cheat: Cheat | None = None
        # card -> [round it was first played, how surely it was read then]. A proof rests on
        # earlier readings too; a reading not yet ``confirmed`` (seen on one look only) is no
        # evidence until ``confirm`` raises it. The trump's sureness is kept the same way.
        self._played: dict[Card, list] = {}
        # (seat, suit it failed to follow) -> the first such failure of the deal
        self._failed_to_follow: dict[tuple[Seat, Suit], _Failure] = {}
        self._trump_sureness = 1.0
        # card -> the reader's odds (``CardPlayed.odds``) of a play read less surely than
        # ``accuse_confidence``: what may yet make it sure by elimination (once it has been
        # read on two looks: a single look is no evidence, however it is read)
        self._odds: dict[Card, tuple[tuple[str, float], ...]] = {}
        self._transitions: dict[tuple[Phase, type], Callable[..., list[Announcement]]] = {
            (Phase.AWAITING_TRUMP, TrumpRevealed): self._reveal_trump,
            (Phase.AWAITING_TRUMP, TrumpSuitRevealed): self._reveal_trump_suit,
            (Phase.PLAYING, CardPlayed): self._play,
        }

    # ------------------------------------------------------------------------------ queries

    @property
    def score(self) -> tuple[int, int]:
        """Points taken so far by pair A and pair B."""
        return (self.points[Pair.A], self.points[Pair.B])

    @property
    def trump_suit(self) -> Suit | None:
        return self.trump.suit if self.trump else self._trump_suit

    @property
    def to_play(self) -> Seat | None:
        """The seat whose turn it is, or None before the trump and after the game."""
        if self.phase is not Phase.PLAYING or self.leader is None:
            return None  # None while playing: after a missed trick, whoever plays next leads
        return self.order.seats_from(self.leader)[len(self.plays)]

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def turn_in_doubt(self) -> bool:
        """Whether whose lead it is now rests on a reading too unsure to accuse on: the last
        round's winner was worked out from its cards and the trump, and one of them was read
        under ``accuse_confidence`` (misread, it may have given the trick to another seat). A
        lead by another seat is then no proof that anyone played out of turn. Never so at
        ``accuse_confidence`` 0 (a game file), nor once the trick in progress is led."""
        if self.plays or self.leader is None or not self.tricks \
                or self.round - 1 in self.missed or self.phase is not Phase.PLAYING:
            return False
        last = self.tricks[-1]  # (in the order of their rounds: the last round's)
        return self._trump_sureness < self.accuse_confidence or any(
            self._played.get(play.card, (0, 0.0))[1] < self.accuse_confidence
            for play in last.plays)

    @property
    def calls_out_of_turn(self) -> bool:
        """Whether a card from a seat other than ``to_play`` would now be called out of turn
        (``_play``): not where whose turn it is rests on a doubtful reading
        (``turn_in_doubt``), nor where the trick was led on a guess."""
        return not self.turn_in_doubt and not self._lead_doubted

    @property
    def lead_known(self) -> bool:
        """Whether who led the trick in progress is known, not guessed after a dropped trick
        from the first card read (the true lead may have been a card never read)."""
        return self._lead_known

    def readings(self) -> tuple[float, dict[Card, tuple[float, tuple[tuple[str, float], ...]]]]:
        """How surely the evidence of this deal was read, as a camera's referee weighs it:
        the trump's sureness, and for each card played, how surely it was read (0: on one
        look only, no evidence; raised since by another look or by elimination) with the
        reader's odds where that is under ``accuse_confidence`` (empty where none were
        given). ``vision.settlement`` weighs a revoke in doubt with them at the deal's end."""
        return self._trump_sureness, {
            card: (sureness, self._odds.get(card, ())) for card, (_, sureness)
            in self._played.items()}

    def final_score(self) -> tuple[int, int]:
        """The score that stands: the points taken, or 120-0 against the first cheat."""
        return self.score if self.cheat is None else forfeit_score(self.cheat.offender)

    # ------------------------------------------------------------------------------ feeding

    def feed(self, event: Event) -> list[Announcement]:
        """Take one event; return what the referee announces because of it (maybe nothing).

        Raises ``RefereeStateError`` when the event cannot happen now (a card before the
        trump, anything after the game is over) and ``TypeError`` for something not an event.
        """
        if not isinstance(event, (TrumpRevealed, TrumpSuitRevealed, CardPlayed)):
            raise TypeError(f"not a referee event: {event!r}")
        handler = self._transitions.get((self.phase, type(event)))
        if handler is None:
            raise RefereeStateError(
                f"cannot take {type(event).__name__} while {self.phase.value.replace('_', ' ')}"
            )
        return handler(event)

    def _reveal_trump(self, event: TrumpRevealed) -> list[Announcement]:
        dealer = self.order.dealer
        if event.confidence < self.min_confidence:
            return [CardUnclear(dealer, event.card, event.confidence)]
        if not event.card.is_sueca:
            return [self._outside_the_deck(dealer, event.card, event.confidence)]
        self.trump = event.card
        self._trump_sureness = event.confidence if event.confirmed else 0.0
        self.phase = Phase.PLAYING
        return [TrumpDeclared(event.card, dealer)]

    def _reveal_trump_suit(self, event: TrumpSuitRevealed) -> list[Announcement]:
        self._trump_suit = event.suit
        self.phase = Phase.PLAYING
        return [TrumpSuitDeclared(event.suit, self.order.dealer)]

    def _play(self, event: CardPlayed) -> list[Announcement]:
        seat, card = event.seat, event.card
        if event.confidence < self.min_confidence:
            return [CardUnclear(seat, card, event.confidence)]
        if not card.is_sueca:
            return [self._outside_the_deck(seat, card, event.confidence)]
        expected = self.to_play if self.leader is not None else seat
        assert expected is not None
        # the last round's winner may have been misread: another seat's lead is taken as
        # after a dropped trick, a guess (unless it came down alone) on which nobody is
        # judged (no cut is said, no failure to follow proves anything)
        reseated = seat != expected and self.turn_in_doubt
        if seat != expected and not reseated:
            if self._lead_doubted:
                # the trick was led by a guess (after a dropped trick, the first card read):
                # this seat's card may have come down first, unread then, and led it. Nobody
                # is called out of turn on a guess; the play is not taken
                return []
            return [OutOfTurn(seat, card, expected, self.round)]
        event = self._known_by_elimination(event)
        cheats = self._cheats_proven_by(seat, card)
        if cheats and not self._proves(event, cheats):
            if not event.unproven or card in self._played:
                return [CardUnclear(seat, card, event.confidence)]
            cheats = []  # the trick is being swept: the play stands, its proof does not
        if not cheats and card in self._played and (
                event.confidence < self.accuse_confidence or not event.confirmed):
            # read as a card already played, but not surely enough to prove it was played
            # twice: one of the two readings is wrong, and this one is not sure enough (or
            # seen on one look only) to take over the other (see ``withdraw``)
            return [CardUnclear(seat, card, event.confidence)]
        # From here on the play is taken.
        said: list[Announcement] = self._take(event, cheats) + self._proven_since()
        if reseated:
            self.leader = None
        if not self.plays:
            # after a dropped trick whoever plays first leads; unless the card came down
            # alone, that is a guess, and in this trick a card never read may have led. The
            # tricks after a guess are led by their winners, each worked out from a lead that
            # may be wrong: the lead is known again once one comes down alone
            self._lead_doubted = self.leader is None and not event.alone
            if self.leader is None:
                self._lead_known = event.alone
            else:
                self._lead_known = self._lead_known or event.alone
            self.leader = seat
        else:
            said += self._off_the_lead(seat, card, event)
        self.plays.append(Play(seat, card))
        if len(self.plays) == 4:
            said.extend(self._close_trick())
        return said

    def _outside_the_deck(self, seat: Seat, card: Card, confidence: float) -> Announcement:
        """What to say of ``card``, an 8, 9 or 10, put down by ``seat``: take it back, where
        it is read surely enough to accuse on. Read less surely, it is most likely another
        card misread, since a Sueca deck holds none (a card back under a finger was read as
        the 10D at 0.92 twice, and its player told to take it back: game 3025 at 960x540 with
        --face-down): it is unclear, and nothing is recorded either way."""
        if confidence < self.accuse_confidence:
            return CardUnclear(seat, card, confidence)
        return NotASuecaCard(seat, card)

    def _cheats_proven_by(self, seat: Seat, card: Card) -> list[Cheat]:
        """The cheating this play would prove. A proof that rests on an earlier reading below
        ``accuse_confidence`` proves nothing: a misread card must not turn into an accusation
        rounds later."""
        cheats: list[Cheat] = []
        sure = self.accuse_confidence
        if card in self._played:
            first_round, sureness = self._played[card]
            if sureness >= sure:
                cheats.append(CardAlreadyPlayed(seat, card, self.round, first_round))
        elif card == self.trump and seat != self.order.dealer:
            if self._trump_sureness >= sure:
                cheats.append(DealerLacksTrump(self.order.dealer, card, seat, self.round))
        failed = self._failed_to_follow.get((seat, card.suit))
        if failed is not None and self._failure_sureness(failed) >= sure:
            cheats.append(
                RevokeProven(seat, failed.card, failed.round, card.suit, card, self.round)
            )
        return cheats

    def _proves(self, event: CardPlayed, cheats: list[Cheat]) -> bool:
        """Whether ``event`` is read surely enough to prove ``cheats``: on two looks, at
        ``accuse_confidence``; or, where all it would prove is a revoke, which rests on its
        suit alone, its suit that surely (``_share`` of its odds)."""
        if not event.confirmed:
            return False
        if event.confidence >= self.accuse_confidence:
            return True
        suit = event.card.suit
        return all(isinstance(cheat, RevokeProven) for cheat in cheats) and bool(event.odds) \
            and self._share(event.odds, lambda card: card.suit is suit) >= self.accuse_confidence

    def _played_surely(self) -> set[Card]:
        """The cards played in this deal and read at least ``accuse_confidence`` surely."""
        return {c for c, (_, sureness) in self._played.items()
                if sureness >= self.accuse_confidence}

    def _share(self, odds: Sequence[tuple[str, float]], fits: Callable[[Card], bool],
               also: Card | None = None) -> float:
        """How surely a card read with ``odds`` is one that ``fits``: the share of the cards
        that fit in what the odds leave once the cards played and read surely in this deal
        (and ``also``, and those no Sueca deck holds) are ruled out, all they do not name (a
        back, "no card", a card too unlikely to be named) counted as not fitting."""
        played = self._played_surely() | ({also} if also is not None else set())
        named = _named(odds)
        ruled_out = sum(share for card, share in named if not card.is_sueca or card in played)
        fitting = sum(share for card, share in named
                      if card.is_sueca and card not in played and fits(card))
        left = max(1.0, sum(share for _, share in odds)) - ruled_out
        return fitting / left if left > 0 else 0.0

    def _failure_sureness(self, failed: _Failure) -> float:
        """How surely a failure to follow (an entry of ``_failed_to_follow``) is known: both
        the off-suit card, or at least that it was off the suit (its odds; a card never read:
        see ``abandon_trick``), and the lead it did not follow must have been read surely."""
        if failed.lead is None:
            return 0.0
        lead = self._played[failed.lead][1]
        if failed.card is None:
            return min(failed.off_suit, lead)
        return min(max(self._played[failed.card][1], failed.off_suit), lead)

    def confirm(self, card: Card, confidence: float) -> list[Announcement]:
        """A card already taken was read again, on a separate look, this surely: as evidence
        it now counts that much (the camera referee calls this; game files never need to).
        What it proves now is said: a revoke it shows (``_proven_since``), while the deal
        is being played (once it is over, its verdict stands)."""
        self._reread(card, confidence)
        return self._proven_since() if self.phase is Phase.PLAYING else []

    def _reread(self, card: Card, confidence: float) -> None:
        """What ``confirm`` learns of ``card``: its sureness, and what that rules out."""
        if card in self._played:
            self._played[card][1] = max(self._played[card][1], confidence)
            if confidence >= self.accuse_confidence:
                self._odds.pop(card, None)
                self._rule_out(card, confidence)
            elif card in self._odds:  # the other cards it may be may have been played
                self._know(card, min(self._eliminated(card, self._odds[card]),
                                     self.accuse_confidence))
        elif card == self.trump:
            self._trump_sureness = max(self._trump_sureness, confidence)

    def following(self, seat: Seat, stray: float, lead: Suit | None = None,
                  ) -> tuple[frozenset[Card], float] | None:
        """What the trick in progress leads ``seat`` (yet to play in it) to play: the cards of
        the lead's suit not seen in this deal, and how many times likelier its card is each
        one of them than each card of another suit not seen, for a player who follows suit
        whenever they can and plays off it, cheating, ``stray`` of the times they could
        follow. A camera's referee weighs a card it cannot read surely by that (a black three
        on a spade lead is more likely the three of spades than of clubs); it never accuses
        anyone on such a reading. ``lead``: the suit of a lead put down but not read yet (no
        play of the trick taken): what the seat would be led to play if it were that suit.

        The seat's hand is taken as drawn at random from the cards not played (the dealer's
        holding the trump card, if it is not played, known): it lacks the suit with the
        hypergeometric chance of drawing none of those of it left. None where nothing is
        expected: no trick led, or its lead a guess (after a dropped trick), the seat has
        played in it or failed to follow that suit in this deal, no card of the suit is
        left unseen."""
        if self.phase is not Phase.PLAYING:
            return None
        if lead is None:
            if not self.plays or not self._lead_known \
                    or any(play.seat == seat for play in self.plays):
                return None
            suit = self.plays[0].card.suit
        elif self.plays or self.leader is None or seat == self.leader:
            return None
        else:
            suit = lead
        if (seat, suit) in self._failed_to_follow:
            return None
        seen = set(self._played)
        hidden = self.trump is not None and self.trump not in seen and seat != self.order.dealer
        if hidden:  # in the dealer's hand, not this seat's
            seen.add(self.trump)
        unseen = [card for card in SUECA_DECK if card not in seen]
        of_suit = frozenset(card for card in unseen if card.suit is suit)
        # the cards still in hands: four a round played, and those of this trick put down
        pool = len(SUECA_DECK) - 4 * (self.round - 1) - len(self.plays) - int(hidden) \
            - int(lead is not None)
        hand = ROUNDS + 1 - self.round
        if not of_suit or pool <= len(of_suit) or hand <= 0:
            return None
        if seat == self.order.dealer and self.trump is not None \
                and self.trump not in self._played and self.trump.suit is suit:
            void = 0.0  # the dealer holds the trump card, of the lead's suit
        else:
            void = math.comb(pool - len(of_suit), hand) / math.comb(pool, hand)
        follows = (1.0 - stray) * (1.0 - void)
        strays = void + stray * (1.0 - void)
        if strays <= 0.0:  # (it must follow, and nobody strays)
            return of_suit, math.inf
        return of_suit, (follows / len(of_suit)) / (strays / (pool - len(of_suit)))

    def first_reading(self, card: Card) -> tuple[int, float] | None:
        """The round ``card`` was played in this deal and how surely it was read then (0 for
        a reading never confirmed); None if it has not been played."""
        if card not in self._played:
            return None
        first_round, sureness = self._played[card]
        return first_round, sureness

    def withdraw(self, card: Card, sure: bool = True) -> list[Announcement]:
        """``card`` is about to be played again where its earlier play (in a round over,
        scored or dropped) was read less surely than ``accuse_confidence``: that earlier
        reading was wrong (``sure``: the new one is sure), or may have been. Its round stops
        counting: a scored trick gives its points
        back and joins the dropped rounds (``missed``), and what was learnt from the misread
        card (its play, a failure to follow that it made or that was measured against it) is
        forgotten. Who led the rounds after it stands: those plays came down in turn; but who
        is to lead a round not begun, where the winner of the round before was worked out with
        the card, is a guess again. Only the camera referee calls this; a game file never
        does. Raises ``RefereeStateError`` where there is no such earlier reading."""
        first = self.first_reading(card)
        if self.phase is not Phase.PLAYING or first is None or first[0] >= self.round \
                or first[1] >= self.accuse_confidence:
            raise RefereeStateError(f"no earlier unsure reading of {card} to withdraw")
        round_ = first[0]
        del self._played[card]
        self._unlearn_failures(card, round_)
        trick = next((t for t in self.tricks if card in (p.card for p in t.plays)), None)
        if trick is None:  # the round was dropped already: there is nothing to take back,
            if round_ == self.round - 1 and not self.plays:  # but its winner, worked out
                self.leader, self._lead_known = None, False  # with the card, led next
            return []
        seat = next(p.seat for p in trick.plays if p.card == card)
        assert self.trump_suit is not None
        winner = trick.winner(self.trump_suit)
        self.tricks.remove(trick)
        self.points[winner.pair] -= trick.points
        self.missed = sorted(self.missed + [round_])
        if round_ == self.round - 1 and not self.plays:
            self.leader, self._lead_known = None, False  # who leads next was its winner
        return [TrickWithdrawn(round_, seat, card, winner, trick.points, self.score, sure,
                               trick)]

    def leader_of(self, round_: int) -> Seat | None:
        """Who led round ``round_``, as played: the first play of its trick, scored or in
        progress; None for a round not played yet or dropped."""
        if round_ == self.round and self.plays:
            return self.plays[0].seat
        if round_ >= self.round or round_ in self.missed:
            return None
        # the tricks are kept in the order of their rounds, the dropped ones left out
        return self.tricks[sum(1 for r in range(1, round_) if r not in self.missed)].plays[0].seat

    def only_card_left(self, odds: Sequence[tuple[str, float]]) -> Card | None:
        """The card that a card never read surely, read with ``odds`` (a camera's classifier:
        card names and probabilities), must be by elimination: the likeliest card they name
        that has not been played in this deal, where the other cards they name were played
        since, read surely enough, and what they leave unnamed weighs too little, for it to be
        at least ``accuse_confidence`` sure (``_jointly``); else None. It is used to score a
        dropped trick, never as evidence of cheating."""
        unplayed = [card for card, _ in _named(odds) if card.is_sueca and card not in self._played]
        if not unplayed:
            return None
        card = unplayed[0]
        return card if self._jointly(card, tuple(odds)) >= self.accuse_confidence else None

    def _jointly(self, card: Card, odds: tuple[tuple[str, float], ...]) -> float:
        """How surely a card never read surely, read with ``odds``, is ``card`` (not played in
        this deal), weighing the other cards the odds name by how surely each was played
        already: a card played and read surely is ruled out, one played and read ``s`` surely
        counts ``1 - s`` of its share (it may have been misread, this card being it), one not
        played counts whole; and ``card``'s own share counts less by the chance that a play
        read unsurely as another card was ``card`` (the share of it in that play's odds). All
        the odds leave unnamed counts as another card. The readings are taken to err
        independently, as two cards' readings do."""
        own = other = 0.0
        for named, share in _named(odds):
            if not named.is_sueca:
                continue
            if named == card:
                free = 1.0
                for played, read in self._odds.items():
                    if played in self._played and played != card:
                        free *= 1.0 - dict(read).get(str(card), 0.0)
                own += share * free
            elif named in self._played:
                sureness = self._played[named][1]
                other += 0.0 if sureness >= self.accuse_confidence else share * (1.0 - sureness)
            else:
                other += share
        unnamed = max(0.0, 1.0 - sum(share for _, share in odds))
        return own / (own + other + unnamed) if own > 0 else 0.0

    def restore_trick(self, round_: int, plays: Sequence[Play]) -> list[Announcement]:
        """Score now a round dropped earlier (``abandon_trick``) whose cards never read are
        known by elimination since (``only_card_left``): ``plays`` in the order they were
        made. Its winner takes its points, and its cards count as played, those never read
        as no evidence (a later reading of one of them means one of the two was misread, see
        ``withdraw``); who led the rounds after it stands. Only the camera referee calls this.
        Raises ``RefereeStateError`` where the round was not dropped or the deal is over."""
        if self.phase is not Phase.PLAYING or round_ not in self.missed:
            raise RefereeStateError(f"round {round_} was not dropped in a deal still in play")
        trick = Trick(tuple(plays))
        self.missed.remove(round_)
        for play in trick.plays:
            self._played.setdefault(play.card, [round_, 0.0])
        return [self._score(trick, round_)]

    def abandon_trick(self, also_seen: tuple[str, ...] = (),
                      late: Sequence[CardPlayed] = (),
                      unread: Sequence[tuple[Seat, Sequence[tuple[str, float]]]] = (),
                      misread: Collection[Seat] = (),
                      ) -> list[Announcement]:
        """The trick in progress was swept away before all its cards were read (a card the
        camera never read surely): drop it unscored, and let whoever plays next lead (or its
        winner, where that is known all the same: ``_sure_winner``).
        ``also_seen``: plays read but not yet taken, for the announcement. ``late``: those
        of them that waited only for an earlier seat's card, never read (see
        ``_take_late``; those it takes as played are listed in ``late_taken`` until the next
        trick is dropped). ``unread``: the cards never read of seats that played none that
        was, each with the reader's odds on two looks or more (see ``_failed_unread``).
        ``misread``: seats whose play taken in this trick a sure reading elsewhere has shown
        wrong (``_forget``).
        Only the camera referee calls this; a game file never does."""
        if self.phase is not Phase.PLAYING:
            raise RefereeStateError("no trick in progress to abandon")
        self._forget([p for p in self.plays if p.seat in misread])
        said: list[Announcement] = []
        self.late_taken = []
        for event in late:
            said += self._take_late(event)
        for seat, odds in unread:
            self._failed_unread(seat, tuple(odds))
        winner = self._sure_winner(late, unread)
        said.append(TrickMissed(self.round, tuple(
            f"{p.seat.number}:{p.card}" for p in self.plays) + also_seen))
        self.missed.append(self.round)
        return said + self._next_round(winner)

    def _forget(self, wrong: Sequence[Play]) -> None:
        """Plays of the trick in progress, taken on readings under ``accuse_confidence``, that
        were misread (their cards read surely in other zones): they are no play of those cards
        and no evidence, and the failures to follow they showed (or, a lead, that the plays
        after it showed) are dropped. A misread lead leaves the trick without a lead: no late
        play is judged against it and no winner worked out."""
        if not wrong:
            return
        for play in wrong:
            first = self._played.get(play.card)
            if first is not None and first[0] == self.round and first[1] < self.accuse_confidence:
                del self._played[play.card]
                self._odds.pop(play.card, None)
            self._unlearn_failures(play.card, self.round)
        lead_wrong = self.plays[0] in wrong
        if lead_wrong:  # (failures measured against a lead guessed, too)
            for key, failure in list(self._failed_to_follow.items()):
                if failure.round == self.round:
                    del self._failed_to_follow[key]
        self.plays = [] if lead_wrong else [p for p in self.plays if p not in wrong]

    def _unlearn_failures(self, card: Card, round_: int) -> None:
        """Forget the failures to follow that ``card``'s play in ``round_``, a misreading,
        made or that were measured against it."""
        for key, failed in list(self._failed_to_follow.items()):
            if failed.round == round_ and card in (failed.card, failed.lead):
                del self._failed_to_follow[key]

    def _sure_winner(self, late: Sequence[CardPlayed],
                     unread: Sequence[tuple[Seat, Sequence[tuple[str, float]]]]) -> Seat | None:
        """Who won the trick being dropped, where that is known though its cards are not all
        read: who led it is known, every seat's card is a play taken (``late`` ones too) or a
        card never read whose odds (``unread``, on two looks) name cards not yet played
        surely that hold ``accuse_confidence`` of them, and every way of giving those cards
        to those seats (no card twice) makes the same seat win. Then that seat leads next, as
        after any trick; else None (whoever plays next leads, a guess)."""
        if not self.plays or not self._lead_known or self._lead_doubted:
            return None
        trump = self.trump_suit
        assert trump is not None
        known = {p.seat: p.card for p in self.plays}
        for event in late:
            first = self._played.get(event.card)
            if event.seat not in known and first is not None and first[0] == self.round:
                known[event.seat] = event.card  # taken (``_take_late``)
        played = self._played_surely()
        options: dict[Seat, list[Card]] = {}
        for seat, odds in unread:
            if seat in known:
                continue
            cards = [card for card, _ in _named(odds)
                     if card.is_sueca and card not in played and card not in known.values()]
            if not cards or self._share(odds, lambda card: card in cards) \
                    < self.accuse_confidence:
                return None
            options[seat] = cards
        order = self.order.seats_from(self.plays[0].seat)
        if set(known) | set(options) != set(order):
            return None
        winners = set()
        for filled in itertools.product(*options.values()):
            if len(set(filled)) < len(filled):
                continue  # a card is played once
            cards = {**known, **dict(zip(options, filled))}
            winners.add(Trick(tuple(Play(seat, cards[seat]) for seat in order)).winner(trump))
            if len(winners) > 1:
                return None
        return winners.pop() if winners else None

    def _take_late(self, event: CardPlayed) -> list[Announcement]:
        """A play of a trick being dropped that came down after a card never read, so it was
        never taken: the trick cannot be scored, but the card was played all the same. Read
        at ``min_confidence`` it counts as played (a later reading of it is a card played
        twice), and where it does not follow a lead read in this trick, led by a seat known to
        lead, it is a failure to follow like any other: a later card of that suit proves the
        revoke. Read surely enough, it proves what any play would (a card played twice, a
        revoke of an earlier round). Who played it comes from its zone, not from its turn,
        so the card never read changes none of this."""
        seat, card, late = event.seat, event.card, event
        if event.confidence < self.min_confidence or not card.is_sueca \
                or any(p.seat == seat for p in self.plays):
            return []
        event = self._known_by_elimination(event)
        cheats = self._cheats_proven_by(seat, card)
        if (cheats and not self._proves(event, cheats)) or (card in self._played and (
                event.confidence < self.accuse_confidence or not event.confirmed)):
            return []  # no proof, or read as a card already played: nothing is learnt from it
        self.late_taken.append(late)
        said = self._take(event, cheats)
        if self.plays:  # (a trump on that lead cuts, whatever the card never read was)
            said += self._off_the_lead(seat, card, event)
        return said

    def _off_the_lead(self, seat: Seat, card: Card, event: CardPlayed) -> list[Announcement]:
        """A play of the trick in progress, after its lead: where it does not follow the
        lead's suit, the failure is kept, and a trump is a cut (not on a lead in doubt, which
        may have been a trump itself)."""
        lead = self.plays[0].card.suit
        if card.suit is lead:
            return []
        self._note_failure(seat, card, event)
        if card.suit is self.trump_suit and not self._lead_doubted:
            return [Cut(self.round, seat, card, lead)]
        return []

    def _failed_unread(self, seat: Seat, odds: tuple[tuple[str, float], ...]) -> None:
        """``seat``'s card in the trick being dropped was never read, but its ``odds`` (on two
        looks) put it off the lead's suit (``_share``). A black two
        read 2C 0.83 / 2S 0.17 surely did not follow diamonds, whichever two it is. That
        failure is kept as any other (``_note_failure``), without its card: should the seat
        later show a card of the suit, it proves the revoke."""
        if not self.plays or any(p.seat == seat for p in self.plays):
            return
        lead = self.plays[0].card
        if (seat, lead.suit) in self._failed_to_follow or not self._lead_known:
            return
        sureness = self._share(odds, lambda card: card.suit is not lead.suit)
        if sureness >= self.accuse_confidence:
            self._failed_to_follow[(seat, lead.suit)] = _Failure(self.round, None, lead, sureness)

    def _take(self, event: CardPlayed, cheats: list[Cheat]) -> list[Announcement]:
        """A play taken: the cheating it proves (said, the first one the deal's), and the
        card's reading kept as evidence."""
        if self.cheat is None and cheats:
            self.cheat = cheats[0]
        for cheat in cheats:
            if isinstance(cheat, RevokeProven):
                del self._failed_to_follow[(event.seat, event.card.suit)]
        if event.card not in self._played:
            self._played[event.card] = [self.round,
                                        event.confidence if event.confirmed else 0.0]
            if event.odds and not (event.confirmed
                                   and event.confidence >= self.accuse_confidence):
                self._odds[event.card] = event.odds
        return list(cheats)

    def _known_by_elimination(self, event: CardPlayed) -> CardPlayed:
        """``event`` as surely as elimination reads it (see the class): surer where the other
        cards its odds name were played and read surely. Read surely (so), it rules itself out
        of the earlier plays kept with their odds, which may become sure in turn."""
        if not event.confirmed:
            return event
        if event.confidence < self.accuse_confidence and event.odds \
                and event.card not in self._played:
            by_elimination = self._eliminated(event.card, event.odds)
            if by_elimination > event.confidence:
                event = replace(event, confidence=by_elimination)
        if event.confidence >= self.accuse_confidence:
            self._rule_out(event.card, event.confidence)
        return event

    def _eliminated(self, card: Card, odds: tuple[tuple[str, float], ...],
                    also: Card | None = None) -> float:
        """How surely ``card`` is what was read, with ``odds``, once the cards played and
        read surely in this deal (and ``also``) are ruled out (``_share``)."""
        return self._share(odds, lambda other: other == card, also)

    def _rule_out(self, card: Card, sureness: float) -> None:
        """``card`` was played and read ``sureness`` surely (at least ``accuse_confidence``):
        each earlier play kept with odds naming it may now be known by elimination."""
        for other, odds in list(self._odds.items()):
            if other not in self._played:
                del self._odds[other]  # withdrawn
                continue
            if other == card or self._played[other][1] <= 0 \
                    or all(name != str(card) for name, _ in odds):
                continue  # (a reading on one look stays no evidence)
            self._know(other, min(self._eliminated(other, odds, also=card), sureness))

    def _know(self, card: Card, sureness: float) -> None:
        """``card``'s play is known ``sureness`` surely by elimination: as evidence it counts
        that much where that is enough for an accusation."""
        if sureness >= self.accuse_confidence:
            self._played[card][1] = max(self._played[card][1], sureness)
            del self._odds[card]

    def _note_failure(self, seat: Seat, card: Card, event: CardPlayed) -> None:
        """``seat`` played ``card`` (``event``), not of the suit the trick in progress was led
        with: the first such failure of the deal for that suit is kept, with how surely its
        odds (on two looks) put the card off that suit, whichever card it is (a black two
        read 2C 0.85 / 2S 0.15 surely did not follow diamonds). After a dropped trick, who
        leads is a guess (the true lead may be a card missed), unless the lead came down
        alone: a failure to follow a guessed lead is kept without its lead, and proves
        nothing."""
        lead = self.plays[0].card.suit
        if (seat, lead) not in self._failed_to_follow:
            off_suit = self._share(event.odds, lambda other: other.suit is not lead) \
                if event.confirmed and event.odds else 0.0
            self._failed_to_follow[(seat, lead)] = _Failure(
                self.round, card, self.plays[0].card if self._lead_known else None, off_suit)

    def _next_round(self, leader: Seat | None) -> list[Announcement]:
        """Move on to the next round, led by ``leader``; the verdict after the last."""
        self.plays = []
        self.leader = leader
        self.round += 1
        return [*self._proven_since(), self._game_over()] if self.round > ROUNDS else []

    def _game_over(self) -> GameOver:
        self.phase = Phase.OVER
        final = self.final_score()
        if self.missed and self.cheat is None:
            return GameIncomplete(final, Outcome.from_score(final), None, tuple(self.missed))
        doubt = self._revoke_in_doubt() if self.cheat is None else None
        if doubt is not None:
            seat, failed, proof, proof_round = doubt
            return RevokeInDoubt(final, Outcome.from_score(final), None, (), seat, failed.card,
                                 failed.round, proof.suit, proof, proof_round)
        return GameOver(final, Outcome.from_score(final), self.cheat)

    def _proven_since(self) -> list[Announcement]:
        """A revoke whose evidence became sure only after the card that shows it was played:
        the seat failed to follow a suit (the off-suit card, or that it was off the suit, and
        the lead read surely: ``_failure_sureness``) and later played a card of that suit that
        was not sure enough to prove it then, but is now (known by elimination once the other
        cards its odds named were played and read surely, or read surely on another look).
        The same standard as a proof when the card is played, met later: the revoke is
        proven now (the deal's first proven cheat decides it). Nothing once a cheat is."""
        if self.cheat is not None:
            return []
        for seat, failed, card, round_ in self._revokes_shown(sure=True):
            self.cheat = RevokeProven(seat, failed.card, failed.round, card.suit, card, round_)
            del self._failed_to_follow[(seat, card.suit)]
            return [self.cheat]
        return []

    def _revoke_in_doubt(self) -> tuple[Seat, _Failure, Card, int] | None:
        """A revoke that the plays taken show but that was never proven, the readings it
        rests on being too unsure to accuse on: a seat failed to follow a lead (known, not a
        guess after a dropped trick) and played that suit in a later round. The seat, its
        failure, the later card and its round; None where there is none."""
        return next(self._revokes_shown(sure=False), None)

    def _revokes_shown(self, sure: bool) -> Iterator[tuple[Seat, _Failure, Card, int]]:
        """Each failure to follow a known lead (``_failed_to_follow``) and a card of that suit
        the seat played in a later round, taken (in the tricks scored, or the trick in
        progress): the seat, the failure, the card and its round. ``sure``: only where both
        are now known at ``accuse_confidence``."""
        if not self._failed_to_follow:
            return  # (the usual case, after every play, and in each of a settling's replays)
        plays = [p for trick in self.tricks for p in trick.plays] + list(self.plays)
        for (seat, suit), failed in list(self._failed_to_follow.items()):
            if failed.lead is None or (
                    sure and self._failure_sureness(failed) < self.accuse_confidence):
                continue
            for play in plays:
                first = self._played.get(play.card)
                if play.seat == seat and play.card.suit is suit and first is not None \
                        and first[0] > failed.round \
                        and (not sure or first[1] >= self.accuse_confidence):
                    yield seat, failed, play.card, first[0]

    def _close_trick(self) -> list[Announcement]:
        won = self._score(Trick(tuple(self.plays)), self.round)
        return [won, *self._next_round(won.seat)]

    def _score(self, trick: Trick, round_: int) -> TrickWon:
        """``trick``, of round ``round_``, goes to its winner with its points, kept among the
        tricks in the order of their rounds."""
        assert self.trump_suit is not None
        winner = trick.winner(self.trump_suit)
        self.points[winner.pair] += trick.points
        self.tricks.insert(sum(1 for r in range(1, round_) if r not in self.missed), trick)
        return TrickWon(round_, winner, trick.points, self.score, trick)
