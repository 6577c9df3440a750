"""What the referee at the table says beyond the rules engine's announcements
(``referee.events``): a card to be shown again, a trump not read or in doubt, the cards never
read worked out from the deck; and ``Said``, an announcement with when it was made."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from referee.events import Announcement, GameIncomplete, GameOver
from referee.seats import Pair, Seat


@dataclass(frozen=True)
class ShowAgain(Announcement):
    """A card lies in a zone but cannot be read: nothing is recorded until it can.
    ``face_down``: it looks likeliest like a card back, though not surely."""

    kind: ClassVar[str] = "card_unclear"
    seat: Seat
    face_down: bool = False

    @property
    def message(self) -> str:
        if self.face_down:
            return (f"Card unclear in seat {self.seat.number}: it may lie face down; please "
                    "show it face up")
        return f"Card unclear in seat {self.seat.number}: please show it again"


@dataclass(frozen=True)
class FaceDown(Announcement):
    """A card came to rest face down in the zone of the seat whose play is due: it is no play
    until it lies face up, so the referee asks for it to be turned over (and records
    nothing). It accuses nobody: a face-down card may be a pile of tricks won, laid there."""

    kind: ClassVar[str] = "card_face_down"
    seat: Seat

    @property
    def message(self) -> str:
        return (f"A card lies face down in seat {self.seat.number}'s zone: a card counts once "
                "it lies face up; please turn it over")


@dataclass(frozen=True)
class CardAstray(Announcement):
    """A card lies face up in no seat's zone (in the middle of the table, say), a card not yet
    played this deal: read surely as ``card``, or not read surely (``card`` None). Nothing is
    recorded until it lies in a zone, since the zone is what tells whose card it is.
    ``seat``: the seat whose zone it lies nearest, where one clearly does; ``quad``: its
    outline in the picture (the overlay draws it); ``corner``: it lies beyond the middle of
    the table, by a corner between two zones."""

    kind: ClassVar[str] = "card_astray"
    card: str | None
    seat: Seat | None = None
    quad: tuple[tuple[float, float], ...] = ()
    corner: bool = False

    @property
    def message(self) -> str:
        if self.seat is not None:
            where = f"outside every zone, nearest seat {self.seat.number}'s"
        elif self.corner:
            where = "outside every zone, in a corner between two zones"
        else:
            where = "in the middle of the table"
        what = self.card or "A card"
        return (f"{what} lies {where}: a card counts once it lies in its player's zone; "
                "please move it there")


@dataclass(frozen=True)
class TrickResumed(Announcement):
    """A card of the trick in play left the table, and the trick was taken for swept before
    it was whole (``trick_missed``); but a card came back to its player's zone while the
    rest of the trick still lay where it was: its player had only picked the card up. The
    trick goes on as it stood. ``seen``: how the card put back is read, where that is not the
    card played (another card: a misreading, or a card swapped, and a card played stays
    played), or "" where it is not read at all; None where it is read as played. ``told``:
    whether the trick was said to be swept (``trick_missed``), or that was held back."""

    kind: ClassVar[str] = "trick_resumed"
    round: int
    seat: Seat
    card: str
    seen: str | None = None
    told: bool = True

    @property
    def message(self) -> str:
        goes_on = f"round {self.round} {'was not swept and ' if self.told else ''}goes on"
        if self.seen is None:
            return f"{self.card} is back in seat {self.seat.number}'s zone: {goes_on}"
        if not self.seen:
            return (f"A card is back in seat {self.seat.number}'s zone, taken for the "
                    f"{self.card} played there: {goes_on}")
        return (f"Seat {self.seat.number}'s card is back in its zone, read now as "
                f"{self.seen}: the {self.card} played there stands, and {goes_on}")


@dataclass(frozen=True)
class TrumpNotRead(Announcement):
    """Play began before the trump card was read: the deal cannot be refereed."""

    kind: ClassVar[str] = "trump_unclear"
    dealer: Seat

    @property
    def message(self) -> str:
        return (f"The trump was not read before play began (dealer: seat {self.dealer.number}): "
                "this deal cannot be refereed; give the trump with --trump")


@dataclass(frozen=True)
class CardDeduced(Announcement):
    """At the end of a deal: a card never read can only be ``card``, since every other card of
    the deck was seen (and only this way of putting the unread cards back holds); the deal's
    score and verdict follow."""

    kind: ClassVar[str] = "card_deduced"
    round: int
    seat: Seat
    card: str

    @property
    def message(self) -> str:
        return (f"Round {self.round}: the card of seat {self.seat.number} was never read, but "
                f"every other card was: it can only be {self.card}")


@dataclass(frozen=True)
class CardKnown(CardDeduced):
    """During a deal: a card of a dropped trick, never read surely, can now only be ``card``:
    every other card the classifier took it for has since been played, read surely enough
    (``Referee.only_card_left``). Its round is scored now (a ``TrickWon`` follows)."""

    kind: ClassVar[str] = "card_known"

    @property
    def message(self) -> str:
        return (f"Round {self.round}: the card of seat {self.seat.number} was never read "
                f"surely, but the other cards it looked like have been played since: it can "
                f"only be {self.card}")


def in_rounds(rounds: tuple[int, ...]) -> str:
    """"round 3" or "rounds 3, 6"."""
    return f"round{'s' if len(rounds) > 1 else ''} {', '.join(str(r) for r in rounds)}"


def _only_left(what: str, rounds: tuple[int, ...], cards: tuple[str, ...]) -> str:
    """How the deck settles the cards never read: "The cards never read in rounds 3, 6 can
    only be ..., since every other card was seen"."""
    return (f"The cards {what} in {in_rounds(rounds)} can only be {' '.join(cards)}, since "
            f"every other card was seen")


def _listed(scores: tuple[tuple[int, int], ...]) -> str:
    """The first three of ``scores``: "64 | 56, 63 | 57 or others"."""
    shown = [f"{a} | {b}" for a, b in scores[:3]] + (["others"] if len(scores) > 3 else [])
    return ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0]


@dataclass(frozen=True)
class ScoreSettled(Announcement):
    """At the end of a deal: the cards never read (``cards``, in rounds ``rounds``) can only be
    the ones not seen, and every way of putting them back that the play allows gives the same
    score and no cheating (``ways`` of them): the deal's verdict follows, though which card
    lay where is not known."""

    kind: ClassVar[str] = "score_settled"
    rounds: tuple[int, ...]
    cards: tuple[str, ...]
    ways: int

    @property
    def message(self) -> str:
        return (f"{_only_left('never read', self.rounds, self.cards)}: whichever way they lay "
                f"({self.ways} ways fit the play), the score is the same")


@dataclass(frozen=True)
class ScoreLikely(Announcement):
    """At the end of a deal: the cards never read surely (``cards``, in rounds ``rounds``) can
    only be the ones not seen, and the ways of putting them back differ in score (or are too
    many to try); but weighed by how those cards were read (the classifier's odds of each,
    multiplied over each way's cards) the ways that give one score, none showing cheating,
    hold at least ``share`` of the weight, and that is at least ``vision.ways.LIKELY``: that
    score's verdict follows. Where one way alone holds that much, which card lay where
    (``placed``: round, seat, card)."""

    kind: ClassVar[str] = "score_likely"
    rounds: tuple[int, ...]
    cards: tuple[str, ...]
    share: float
    placed: tuple[tuple[int, Seat, str], ...] = ()

    @property
    def message(self) -> str:
        head = _only_left("never read surely", self.rounds, self.cards)
        if self.placed:
            where = ", ".join(f"{card} in round {r} (seat {seat.number})"
                              for r, seat, card in self.placed)
            return (f"{head}; as they were read, they lay as {where} "
                    f"({100 * self.share:.1f} % of the odds)")
        return (f"{head}; as they were read, the ways they may lie that give this score hold "
                f"{100 * self.share:.1f} % of the odds")


@dataclass(frozen=True)
class RevokeSettled(Announcement):
    """At the end of a deal: a revoke the plays show (``seat``'s, in ``round``) rests on cards
    read too unsurely to accuse on one by one, but every card of the deck was played once as
    read. A card misread would then be a card seen elsewhere, misread in turn, so each way of
    the cards read unsurely being one another's that the play allows is weighed by how they
    were read, and the ways that show that same revoke hold ``share`` of the weight, at least
    ``vision.ways.LIKELY``. The revoke is then proven (said next, as ``RevokeProven``), and
    the verdict follows."""

    kind: ClassVar[str] = "revoke_settled"
    seat: Seat
    round: int
    share: float

    @property
    def message(self) -> str:
        return (f"Every card of the deck was played once as read, and weighed by how surely "
                f"each was read, the plays show {self.seat}'s revoke in round {self.round} "
                f"({min(100 * self.share, 99.9):.1f} % of the odds)")


@dataclass(frozen=True, slots=True)
class OutcomeSettled(GameOver):
    """At the end of a deal: the cards never read surely (in rounds ``missed``) can only be
    the ones not seen, and the ways of putting them back differ in score, but not in the
    deal's result: the ways that give one winner (or the draw), taking the same number of
    games for the match, none of them showing cheating, hold at least ``vision.ways.LIKELY`` of the
    weight of all the ways the play allows (``share``: 1.0 where every way gives it, weighed
    or not). That result is the verdict and counts for the match; the score is not known for
    sure: ``score`` is the likeliest way's, ``scores`` each score those ways give, likeliest
    first, and ``games`` what the deal is worth to the winner."""

    kind: ClassVar[str] = "outcome_settled"
    scores: tuple[tuple[int, int], ...] = ()
    share: float = 1.0
    games: int = 0
    missed: tuple[int, ...] = ()

    @property
    def message(self) -> str:
        listed = _listed(self.scores)
        weight = ("every way the play allows" if self.share >= 1.0
                  else f"{min(100 * self.share, 99.9):.1f} % of the odds")
        return (f"{self.outcome.verdict}\nScore: {listed}, as the cards never read surely in "
                f"{in_rounds(self.missed)} may lie; {self.either_way} ({weight})")

    @property
    def either_way(self) -> str:
        """The result that holds whatever the score: "either way Pair A takes 1 game"."""
        winner = self.outcome.winner
        if winner is None:
            return "either way it is a draw"
        return f"either way {winner} takes {self.games} game{'s' if self.games != 1 else ''}"


@dataclass(frozen=True)
class ResultIfHonest(Announcement):
    """At the end of a deal with no verdict: the cards never read surely (in rounds
    ``missed``) can only be the ones not seen; over the ways of putting them back that the
    play allows (each trick led by the last one's winner), the cards as read are at least
    ``vision.settlement.HONEST_EVIDENCE`` times likelier if every seat followed suit and the
    dealer held the trump card than if somebody cheated; and the honest ways of one result
    (``winner``, None for a draw, and ``games`` for the match) hold ``share`` of their
    weight, at least
    ``vision.ways.LIKELY`` (``scores``: the scores those ways give, likeliest first). Said
    before the deal's "no verdict", which it does not replace: a revoke made with a card
    never read surely can be neither proven nor ruled out, and it would decide the deal; the
    match counts nothing. The players, who know whether anyone failed to follow suit, can
    settle it themselves."""

    kind: ClassVar[str] = "result_if_honest"
    missed: tuple[int, ...]
    winner: Pair | None
    games: int
    scores: tuple[tuple[int, int], ...]
    share: float

    @property
    def message(self) -> str:
        weight = ("every way" if self.share >= 1.0 else
                  f"{min(100 * self.share, 99.9):.1f} % of the odds of the ways")
        return (f"If nobody revoked with the cards never read surely in "
                f"{in_rounds(self.missed)}, {self.result}: score {_listed(self.scores)}, as "
                f"they may lie ({weight} in which every seat follows suit). No verdict: such "
                "a revoke can be neither proven nor ruled out")

    @property
    def result(self) -> str:
        """"Pair A won (1 game)", or "it is a draw"."""
        return ("it is a draw" if self.winner is None else
                f"{self.winner} won ({self.games} game{'s' if self.games != 1 else ''})")


@dataclass(frozen=True)
class TrumpInDoubt(Announcement):
    """Play began before the trump card was read surely, but it was read as one of a few
    cards of different suits, or where no such few stand out, of some or all suits
    (``cards``: cards such as ``7D``, or suits such as ``Diamonds``, likeliest first, with
    the classifier's ``shares``): the deal is refereed under each, and what depends on the
    trump is said once the play tells which it was (``TrumpSettled``)."""

    kind: ClassVar[str] = "trump_in_doubt"
    dealer: Seat
    cards: tuple[str, ...]
    shares: tuple[float, ...]

    @property
    def message(self) -> str:
        read = " or ".join(f"{card} ({100 * share:.0f} %)" if share >= 0.005
                           else f"{card} (under 1 %)"  # not "0 %": it is still in doubt
                           for card, share in zip(self.cards, self.shares))
        return (f"The trump was not read surely (dealer: seat {self.dealer.number}): {read}. "
                "What the trump decides is announced once the play tells which it is")


@dataclass(frozen=True)
class TrumpSettled(Announcement):
    """The play told which of the cards in doubt (``TrumpInDoubt``) was the trump: ``card``,
    not ``others`` (where suits were in doubt, ``card`` is a suit's name, ``Hearts``).
    ``why``: what showed it (a card in doubt played surely by a seat that is not the
    dealer's, who holds the trump; or a play that makes sense under no other trump: someone
    would have played out of turn under it)."""

    kind: ClassVar[str] = "trump_settled"
    card: str
    others: tuple[str, ...]
    why: str

    @property
    def message(self) -> str:
        return f"The trump is {self.card}, not {' or '.join(self.others)}: {self.why}"


@dataclass(frozen=True)
class TrumpUndecided(GameIncomplete):
    """The deal ended with its trump still in doubt (``trumps``), and the cards in doubt give
    different results (or one gives none, or the play makes sense under none): no
    verdict."""

    kind: ClassVar[str] = "trump_undecided"
    trumps: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        return (f"Game over, but the trump was never read surely ({' or '.join(self.trumps)}) "
                "and the play never told which it was: no verdict")


@dataclass(frozen=True, slots=True)
class TrumpOutcome(OutcomeSettled):
    """The deal ended with its trump still in doubt (``trumps``, likeliest first), but each
    card in doubt gives the same result, none of them cheating: that is the verdict, and it
    counts for the match; ``scores``: each one's score, in the same order where they differ."""

    kind: ClassVar[str] = "outcome_settled"
    trumps: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        if len(set(self.scores)) == 1:
            score = f"{self.score[0]} | {self.score[1]}"
            return (f"{self.outcome.verdict}\nScore: {score}, whether the trump was "
                    f"{' or '.join(self.trumps)} (it was never read surely)")
        listed = " or ".join(f"{a} | {b} if the trump was {trump}"
                             for (a, b), trump in zip(self.scores, self.trumps))
        return (f"{self.outcome.verdict}\nScore: {listed} (it was never read surely); "
                f"{self.either_way}")


@dataclass(frozen=True)
class Said:
    """An announcement with when it was made."""

    frame: int
    time_s: float
    announcement: Announcement

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.frame, "time": round(self.time_s, 3),
                **self.announcement.to_dict()}
