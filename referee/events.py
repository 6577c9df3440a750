"""What the referee is told (events in) and what it says (announcements out).

Both are frozen dataclasses. Every announcement has a ``kind`` (a stable snake_case name used in
JSON logs), a ``message`` in plain English, and ``to_dict()`` for logging. Announcements that
accuse a pair of cheating are ``Cheat`` subclasses and name the ``offender`` pair.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card, Suit
from .seats import Pair, Seat
from .tricks import Trick

# ----------------------------------------------------------------------------------- events in


@dataclass(frozen=True, slots=True)
class TrumpRevealed:
    """The dealer shows the trump card. ``confidence`` is how sure the reader of the card is;
    ``confirmed``: the card was read that surely on two separate looks (a camera's single
    look, however sure, is no evidence for an accusation)."""

    card: Card
    confidence: float = 1.0
    confirmed: bool = True


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` put ``card`` on the table. ``confidence`` is how sure the reader of the card is;
    ``confirmed`` as for ``TrumpRevealed``. ``alone``: no other card lay in any seat's zone
    when it came down (a camera can tell): after a dropped trick, such a card is known to
    lead, where otherwise who leads is a guess. ``odds``: the cards the reader took it for,
    each with its probability (a camera's classifier; card names, likeliest first, a few):
    a play read less surely than an accusation needs becomes that sure once every other card
    it may be has been played and read surely (see ``Referee``). ``unproven``: the trick is
    being swept and this play, which would prove cheating, was never read surely enough to:
    it is taken as a play that proves nothing (see ``Referee``)."""

    seat: Seat
    card: Card
    confidence: float = 1.0
    confirmed: bool = True
    alone: bool = False
    odds: tuple[tuple[str, float], ...] = ()
    unproven: bool = False


@dataclass(frozen=True, slots=True)
class TrumpSuitRevealed:
    """The dealer showed the trump card but only its suit could be read (a camera sure of a
    court card's suit, not of its rank): the deal is played with that trump suit, and whether
    the dealer holds the trump card cannot be checked."""

    suit: Suit


Event = TrumpRevealed | TrumpSuitRevealed | CardPlayed


# ------------------------------------------------------------------------------ announcements


def _plain(value: Any) -> Any:
    if isinstance(value, (Card, Suit)):
        return str(value)
    if isinstance(value, Seat):
        return value.number
    if isinstance(value, Trick):
        return [str(card) for card in value.cards]
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Announcement):
        return value.to_dict()
    return value


@dataclass(frozen=True, slots=True)
class Announcement:
    kind: ClassVar[str] = "announcement"

    @property
    def message(self) -> str:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        out["message"] = self.message
        return out

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class TrumpDeclared(Announcement):
    kind: ClassVar[str] = "trump"
    card: Card
    dealer: Seat

    @property
    def message(self) -> str:
        return f"Trump: {self.card} | {self.card.suit.full_name}"


@dataclass(frozen=True, slots=True)
class TrumpSuitDeclared(Announcement):
    """The trump suit, its card not read (``TrumpSuitRevealed``)."""

    kind: ClassVar[str] = "trump_suit"
    suit: Suit
    dealer: Seat

    @property
    def message(self) -> str:
        return (f"Trump: {self.suit.full_name} (the trump card itself could not be read, so "
                f"whether the dealer holds it is not checked)")


@dataclass(frozen=True, slots=True)
class Cut(Announcement):
    kind: ClassVar[str] = "cut"
    round: int
    seat: Seat
    card: Card
    lead_suit: Suit

    @property
    def message(self) -> str:
        return (f"Cut! {self.seat} trumps the {self.lead_suit.full_name} lead with {self.card} "
                f"in round {self.round}")


@dataclass(frozen=True, slots=True)
class TrickWon(Announcement):
    kind: ClassVar[str] = "trick_won"
    round: int
    seat: Seat
    points: int
    score: tuple[int, int]
    trick: Trick

    @property
    def pair(self) -> Pair:
        return self.seat.pair

    @property
    def message(self) -> str:
        return (f"Round {self.round}: {self.seat} ({self.pair}) wins {self.trick} for "
                f"{self.points} points. Score: {self.score[0]} | {self.score[1]}")


@dataclass(frozen=True, slots=True)
class Cheat(Announcement):
    """An announcement that proves a pair cheated; the first one decides the game 120-0."""

    kind: ClassVar[str] = "cheat"

    @property
    def offender(self) -> Pair:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class RevokeProven(Cheat):
    """``seat`` did not follow ``lead_suit`` in ``round`` though it held ``proof``, shown later.
    ``card``: what it played instead; None where a camera never read that card, only surely
    that it was not of the lead's suit."""

    kind: ClassVar[str] = "revoke"
    seat: Seat
    card: Card | None
    round: int
    lead_suit: Suit
    proof: Card
    proof_round: int

    @property
    def offender(self) -> Pair:
        return self.seat.pair

    @property
    def message(self) -> str:
        if self.card is None:
            suit = self.lead_suit.full_name
            return (f"{self.seat} played an illegal card in round {self.round} with respect to "
                    f"lead suit {suit} (the card was not read, but surely no "
                    f"{suit.lower().rstrip('s')})")
        return (f"{self.seat} played illegal card {self.card} in round {self.round} with respect "
                f"to lead suit {self.lead_suit.full_name}")


@dataclass(frozen=True, slots=True)
class DealerLacksTrump(Cheat):
    """The trump card the dealer showed was played by ``seat``, so the dealer never held it."""

    kind: ClassVar[str] = "dealer_lacks_trump"
    dealer: Seat
    trump: Card
    seat: Seat
    round: int

    @property
    def offender(self) -> Pair:
        return self.dealer.pair

    @property
    def message(self) -> str:
        return f"{self.dealer} (dealer) does not hold trump card {self.trump}"


@dataclass(frozen=True, slots=True)
class CardAlreadyPlayed(Cheat):
    kind: ClassVar[str] = "card_already_played"
    seat: Seat
    card: Card
    round: int
    first_round: int

    @property
    def offender(self) -> Pair:
        return self.seat.pair

    @property
    def message(self) -> str:
        return (f"Card {self.card} of round {self.round} has already been played in round "
                f"{self.first_round}")


@dataclass(frozen=True, slots=True)
class NotASuecaCard(Announcement):
    """A card outside the 40-card deck (an 8, 9 or 10) was put down; it is not part of the game."""

    kind: ClassVar[str] = "not_a_sueca_card"
    seat: Seat
    card: Card

    @property
    def message(self) -> str:
        return f"{self.card} is not a Sueca card ({self.seat}): take it back"


@dataclass(frozen=True, slots=True)
class OutOfTurn(Announcement):
    """``seat`` played when it was ``expected``'s turn; the card is not taken into the trick."""

    kind: ClassVar[str] = "out_of_turn"
    seat: Seat
    card: Card
    expected: Seat
    round: int

    @property
    def message(self) -> str:
        return (f"{self.seat} played {self.card} out of turn in round {self.round}: "
                f"it is {self.expected}'s turn")


@dataclass(frozen=True, slots=True)
class CardUnclear(Announcement):
    """A reading too unsure to act on; nothing was recorded and the card should be shown again."""

    kind: ClassVar[str] = "card_unclear"
    seat: Seat
    card: Card
    confidence: float

    @property
    def message(self) -> str:
        return f"Card unclear in seat {self.seat.number}: please show it again"


class Outcome(enum.Enum):
    PAIR_A = "A"
    PAIR_B = "B"
    DRAW = "draw"

    @classmethod
    def from_score(cls, score: tuple[int, int]) -> Outcome:
        if score[0] == score[1]:
            return cls.DRAW
        return cls.PAIR_A if score[0] > score[1] else cls.PAIR_B

    @property
    def winner(self) -> Pair | None:
        return None if self is Outcome.DRAW else Pair(self.value)

    @property
    def verdict(self) -> str:
        """The scorer's sentence: ``Pair A won the given sueca game.`` or the draw."""
        if self is Outcome.DRAW:
            return "The game resulted in a draw."
        return f"{self.winner} won the given sueca game."


@dataclass(frozen=True, slots=True)
class GameOver(Announcement):
    """The final verdict. ``cheat`` is the proven cheat that decided it, if any."""

    kind: ClassVar[str] = "game_over"
    score: tuple[int, int]
    outcome: Outcome
    cheat: Cheat | None = None

    @property
    def message(self) -> str:
        return f"{self.outcome.verdict}\nScore: {self.score[0]} | {self.score[1]}"


@dataclass(frozen=True, slots=True)
class TrickMissed(Announcement):
    """The cards of round ``round`` were swept away before all four were read: the trick
    (``seen``: the plays that were read) cannot be scored, and the next card played leads."""

    kind: ClassVar[str] = "trick_missed"
    round: int
    seen: tuple[str, ...]

    @property
    def message(self) -> str:
        read = " ".join(self.seen) or "no card"
        return (f"Round {self.round} was swept away before all its cards were read ({read}): "
                f"it cannot be scored")


@dataclass(frozen=True, slots=True)
class TrickWithdrawn(Announcement):
    """The card of ``seat`` in round ``round`` was taken as ``card`` on a reading not sure
    enough to accuse anyone on, and ``card`` has now been played again: read surely (twice),
    so the first reading was wrong (``sure``); or read again no more surely, so one of the
    two readings is wrong and which is not known (not ``sure``). The round no longer counts:
    its ``points`` go back from ``winner``'s pair (``winner`` None: the round was already
    dropped unscored), leaving ``score``; like a dropped round, it stands in the way of the
    verdict unless the deck settles it at the end of the deal. Only the camera referee says
    this."""

    kind: ClassVar[str] = "trick_withdrawn"
    round: int
    seat: Seat
    card: Card
    winner: Seat | None
    points: int
    score: tuple[int, int]
    sure: bool = True
    trick: Trick | None = None  # the trick taken back (None: the round was dropped already)

    @property
    def message(self) -> str:
        taken = f"Round {self.round}: the card of seat {self.seat.number} taken as {self.card}"
        head = (f"{taken} was misread, as {self.card} is played now, read surely" if self.sure
                else f"{taken} may have been misread: {self.card} is read again now, and "
                     "neither reading is sure enough to tell which is right")
        if self.winner is None:
            return head
        return (f"{head}. Round {self.round} no longer counts: {self.points} points go back "
                f"from Pair {self.winner.pair.name}. Score: {self.score[0]} | {self.score[1]}")


@dataclass(frozen=True, slots=True)
class GameIncomplete(GameOver):
    """The deal is over but ``missed`` rounds could not be scored: no verdict is given on a
    score that is not known (a proven cheat still decides the game, as a ``GameOver``)."""

    kind: ClassVar[str] = "game_incomplete"
    missed: tuple[int, ...] = ()

    @property
    def message(self) -> str:
        rounds = ", ".join(str(r) for r in self.missed)
        return (f"Game over, but round{'s' if len(self.missed) > 1 else ''} {rounds} could not "
                f"be scored: no verdict.\nScore of the rounds read: {self.score[0]} | "
                f"{self.score[1]}")


@dataclass(frozen=True, slots=True)
class RevokeInDoubt(GameIncomplete):
    """Every round was scored, but the plays as read show a revoke that was never read surely
    enough to accuse anyone of: ``seat`` played ``card`` on a ``lead_suit`` lead in ``round``
    and a card of that suit (``proof``) in ``proof_round``. A revoke would decide the game
    (120 | 0 against the offender), so the score of the cards as read is no verdict either:
    no verdict is given. Only the camera referee says this; in a game file every reading is
    sure, and such a revoke is proven."""

    kind: ClassVar[str] = "revoke_in_doubt"
    seat: Seat | None = None
    card: Card | None = None
    round: int = 0
    lead_suit: Suit | None = None
    proof: Card | None = None
    proof_round: int = 0

    @property
    def message(self) -> str:
        assert self.seat is not None and self.lead_suit is not None
        played = f"played {self.card}" if self.card is not None else "played a card"
        return (f"Game over, but {self.seat} may have revoked ({played} on a "
                f"{self.lead_suit.full_name} lead in round {self.round}, then {self.proof} in "
                f"round {self.proof_round}); the cards were not read surely enough to accuse "
                f"anyone: no verdict.\nScore of the cards as read: {self.score[0]} | "
                f"{self.score[1]}")
