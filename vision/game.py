"""The game at the table: tracker events in, the rules engine's announcements out.

Phases of a deal:

    WAIT_TRUMP --(a card lands in the dealer's zone)--> TRUMP_SHOWN (trump announced)
    WAIT_TRUMP --(a card lands in another zone, or in the dealer's after a card seen there
               unread was taken away: play began before the trump was read)-->
               PLAYING with the trump's suit, if that was read surely though the card was
               not (``TrumpSuitDeclared``: whether the dealer holds the trump card is not
               checked); if it was read at all, none of it surely (``TrumpInDoubt``), the
               deal is refereed under each card it may be (two or three cards of different
               suits), or else under each suit it may be, until the play rules all but one
               out (``TrumpSettled``; see ``_reconcile``); if nothing of it was read,
               TRUMP_MISSED: the deal is not refereed (no trick can be judged without the
               trump, and the dealer's next card is a play, not the trump); after ten
               sweeps of the table the deal ends with no verdict
    TRUMP_SHOWN --(that zone clears, or another seat plays)--> PLAYING
    PLAYING --(a card lands)--> the play goes to the referee; after the fourth card of a trick
               --> SWEEP
    SWEEP --(every zone is clear, or the next lead lands)--> PLAYING
    ... after the tenth trick the referee says game over --> DEAL_OVER
    DEAL_OVER --(the table clears)--> WAIT_TRUMP of the next deal (the dealer moves on and the
               match tally carries over)

With a trump given up front (``--trump``) a deal starts in PLAYING. The seat of a play comes
from the zone it landed in, so a card played out of turn is seen (and turned away) as such. A
card that cannot be read is never guessed: the referee asks for it to be shown again, and the
cards played after it wait for it rather than being called out of turn. A trick swept away
before all its cards were read is dropped unscored (nobody is judged on it), the next card
played leads, and the deal ends with the score of the rounds read but no verdict, unless the
deck settles the cards never read (``vision.settlement``: the score, or at least the
winner). A card read again where it was taken before on an unsure reading takes that earlier
round back (``_withdraw_misread``): it is dropped, its card a gap for the deck.
"""

from __future__ import annotations

import copy
import enum
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.cards import FULL_DECK, SUECA_DECK, Card, CardError, Suit
from referee.config import RulesConfig
from referee.engine import ROUNDS, Referee, RefereeStateError
from referee.engine import Phase as DealPhase
from referee.events import (
    Announcement,
    CardPlayed,
    Cheat,
    CardUnclear,
    Cut,
    GameIncomplete,
    GameOver,
    Outcome,
    OutOfTurn,
    TrickMissed,
    TrickWithdrawn,
    TrickWon,
    TrumpDeclared,
    TrumpRevealed,
    TrumpSuitRevealed,
)
from referee.match import Match, MatchScored
from referee.seats import SEATS, Seat, TableOrder
from referee.tricks import Play, Trick

from .announcements import (
    CardAstray,
    CardKnown,
    FaceDown,
    Said,
    ShowAgain,
    TrickResumed,
    TrumpInDoubt,
    TrumpNotRead,
    TrumpOutcome,
    TrumpSettled,
    TrumpUndecided,
    in_rounds,
)
from .cardclasses import BACK, NOT_A_CARD, SUITS, is_court, part_fits
from .settlement import Settlement, deal_result
from .track import CardConfirmed, CardLanded, TrackEvent, ZoneCleared, ZoneUnclear
from .ways import Dropped, cuts_named


# a trump card read unsurely is in doubt between the cards of its odds that hold at least
# TRUMP_FLOOR of them each, TRUMP_COVER together (``TableReferee._trump_candidates``)
TRUMP_FLOOR = 0.02
TRUMP_COVER = 0.98
# A card read unsurely is weighed by what the trick in progress leads its seat to play, or
# what the cards that followed a lead not read say it was (``TableReferee.leanings``):
# players are taken to follow suit whenever they can, and to play off it anyway (cheating)
# STRAY of the times they could; each card that follows makes its suit at most the rules'
# ``follow_suit`` times likelier (config.yaml, 20 by default)
STRAY = 0.02
# Something lying still in a seat's zone while that seat is yet to play in the trick is a card:
# "not a card" is made this many times less likely there (only the classifier's odds among
# the cards then say which card it is). On the four sets of twenty games alone, 10, 20 and 100
# took 2,761, 2,762 and 2,763 plays right (2,758 without it), none wrongly
DUE_IS_A_CARD = 100.0
# the cards a camera can read that a Sueca deck does not hold (8, 9 and 10)
_SUECA = frozenset(str(c) for c in SUECA_DECK)
_NOT_SUECA = frozenset(str(c) for c in FULL_DECK) - _SUECA
_SUECA_OR_NOT = _SUECA | _NOT_SUECA  # the 52 cards: not a card back, nor "not a card"
# a card found astray within this distance (mm) of one asked about is that card, not moved
ASKED_NEAR_MM = 20.0
# a card found astray read unsurely is asked for (by no name) unless the cards played this
# deal hold this share of its odds: it may be one of them. (Any share at all, as before the
# seventy-sixth session, let a card 0.1-4 % likely a played one go unasked: 7 of the 9 cards
# put astray and never asked for in 2801-2830, 1280x720 with every mishap.)
ASTRAY_PLAYED_SHARE = 0.05
# What is said of a trick taken for swept (``trick_missed``, and the end of the deal where it
# was the last), where that trick held nothing but its own cards (so that a card of it was
# more likely picked up: ``_Lifted.quiet``), or was the deal's last, is said this many seconds
# late, unless the card comes back first (then it is not said at all) or the chance of its
# coming back ends
HELD_BACK_S = 5.0
# what a deal whose trump is in doubt says at once, under whichever card it may be: a player
# asked to show a card again, or to turn one over (``TableReferee._reconcile``)
_ASKED_AT_ONCE = (ShowAgain, FaceDown)


@dataclass(frozen=True)
class FoundAstray:
    """A card a look at the whole table found face up in no seat's zone (``vision.session``):
    as read (``card``, ``confidence``, the classifier's ``odds``), the seat whose zone lies
    clearly nearest (or None), where its middle lies on the table (mm), its outline in the
    picture, and whether it lies beyond the middle of the table (``corner``: by a corner
    between two zones)."""

    card: str
    confidence: float
    seat: Seat | None
    odds: Sequence[tuple[str, float]]
    where: tuple[float, float]
    quad: tuple[tuple[float, float], ...] = ()
    corner: bool = False


class Phase(enum.Enum):
    WAIT_TRUMP = "waiting for the trump"
    TRUMP_SHOWN = "trump shown"
    PLAYING = "playing"
    SWEEP = "trick complete"
    DEAL_OVER = "deal over"
    TRUMP_MISSED = "trump not read"


def _odds_of(event: CardLanded) -> tuple[tuple[str, float], ...]:
    """A landing's odds as the rules engine takes them (``CardPlayed.odds``): pairs, though a
    log read back (``--resume``) gives lists."""
    return tuple((str(name), float(share)) for name, share in event.odds)


@dataclass
class _Lifted:
    """A trick in play dropped when a card of it left the table (``_keeping_lifted``): the
    table referee as it stood before, the trick's plays (seat, card), the cards landed since
    that may yet belong to it, and the zones other than its plays' where something lay or
    was seen while it was played."""

    before: "TableReferee"
    plays: frozenset[tuple[Seat, str]]
    since: list[CardLanded]
    stirred: frozenset[Seat]
    # the frame each play was first seen lying in its zone (read or not: a card read only
    # after the next seat's came down lay there first all the same), else where it landed
    laid_at: dict[Seat, int]

    @property
    def quiet(self) -> bool:
        """Whether nothing lay or was seen in the zones during the trick but its own cards:
        its plays', and those landed since (a player about to play reaches out first)."""
        return self.stirred <= {landed.seat for landed in self.since}


@dataclass(eq=False)  # one is told from another by identity
class _Candidate:
    """One card the trump may be (``TrumpInDoubt``), or one suit where no card stands out,
    and the deal refereed under it: its table referee, what it said that was not said aloud
    yet, and the first call out of turn it made, if any (under a wrong trump a trick goes to
    the wrong seat, who is then expected to lead)."""

    card: Card | Suit
    table: TableReferee
    held: list[Announcement]
    trouble: Announcement | str | None = None


def _laid(event: CardLanded) -> int:
    """The frame the card of ``event`` was first seen lying in its zone, read or not (where
    the tracker knew it), else the frame it landed."""
    return event.frame if event.since is None else event.since


def _court_share(odds: tuple[tuple[str, float], ...]) -> float:
    """How much of a reading's odds (card, probability) go to jacks, queens and kings."""
    return sum(share for name, share in odds if is_court(name))


def _named(trump: Card | Suit) -> str:
    """A trump in doubt as announcements name it: a card (``7D``), or a suit (``Diamonds``)."""
    return str(trump) if isinstance(trump, Card) else trump.full_name


@dataclass
class TableReferee:
    rules: RulesConfig
    trump: Card | None = None  # given up front (--trump): no trump to wait for
    order: TableOrder = field(init=False)
    referee: Referee = field(init=False)
    match: Match = field(init=False)
    phase: Phase = field(init=False)
    deal: int = field(default=1, init=False)
    _began: int = field(default=-1, init=False)  # the frame this deal began on
    taken: list[CardLanded] = field(default_factory=list, init=False)  # landings played
    # court cards (by the classifier's odds) never read surely, in tricks dropped for them, in
    # all deals so far: an unfamiliar design's, which showing the deck first would read
    courts_unread: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.order = self.rules.order
        self.match = Match(self.rules.match)
        # what is held back of a trick taken for swept (``HELD_BACK_S``): when it is due
        # (None: from this frame's time), and what is to be said then
        self._held_back: tuple[float | None, list[Announcement]] | None = None
        # the cuts said aloud, by deal, round, seat and card: a trick dropped and then going
        # on (``_resume``) takes its plays again, and each would say its cut again
        self._cuts_told: set[tuple[int, int, Seat, Card]] = set()
        self._new_deal()

    def _new_deal(self) -> None:
        settings = self.rules.referee
        self.referee = Referee(self.order, min_confidence=settings.min_confidence,
                               accuse_confidence=settings.accuse_confidence)
        self.phase = Phase.WAIT_TRUMP
        self._pending: list[Announcement] = []
        self._waiting: list[tuple[CardLanded, Card]] = []  # early plays (see ``_play``)
        # plays that would prove cheating, waiting for a second look (see ``_feed_play``)
        self._unconfirmed: dict[Seat, tuple[CardLanded, Card]] = {}
        # cards read in two places, neither surely: only a sure reading takes either
        self._doubted: set[Card] = set()
        # plays of the open trick shown misread by a sure reading of their card in another
        # zone (their landings, by seat), and those sure plays, held back until the sweep
        # (see ``_misread_in_trick``)
        self._misread_now: dict[Seat, CardLanded] = {}
        self._held_sure: set[Seat] = set()
        # leads after a dropped trick that came down with every other zone empty
        self._alone: set[CardLanded] = set()
        # the cards of this deal's tricks, in order, scored or dropped (those that were read)
        self._finished: list[frozenset[str]] = []
        # whether the last trick over was dropped, its cards not all read (``astray``)
        self._last_dropped = False
        # a trick in play, dropped when a card of it left the table before it was whole:
        # this referee as it stood before, the plays it held, and the cards landed since,
        # which may yet belong to it (``_lifted_back``)
        self._lifted: _Lifted | None = None
        # plays of this deal picked up and put back (``_lifted_back``), by (seat, card played):
        # how the card put back was read since, other than as played (empty: not read yet)
        self._put_back: dict[tuple[Seat, str], set[str]] = {}
        # where cards found astray were asked about, since the table outside the zones was
        # last seen clear
        self._asked_at: list[tuple[float, float]] = []
        # the dropped tricks, with the orders their plays may have come in (None where no
        # card of it was read, or a play awaited a second look)
        self._dropped: list[Dropped | None] = []
        # why the deal, as the settlement found it, cannot be what happened (``_settle``)
        self._no_way_fits: str | None = None
        # the zones a card lay unread in since the trick in progress began
        self._unread_in_trick: set[Seat] = set()
        # the zones that did not look as they did empty, or held a card unread, at some frame
        # of the play since the trick in progress began
        self._stirred_in_trick: set[Seat] = set()
        # what the tracker holds and the zones that look empty, as of this frame
        self._view: tuple[Mapping[Seat, str], frozenset[Seat]] = ({}, frozenset())
        # the suits or ranks read of unread cards lying in the zones during the trick in
        # progress, by seat: (the frame the card was first seen, that part; None where two
        # cards seen there in turn differed); and the cards (seat, that frame) seen during
        # tricks already over, which are never taken for a card of a later trick
        self._gap_parts: dict[Seat, tuple[int, str | None]] = {}
        # likewise the classifier's odds of those cards (None where two were seen in turn)
        self._gap_odds: dict[Seat, tuple[int, tuple[tuple[str, float], ...] | None]] = {}
        # and the last of those odds that rested on two fresh looks or more
        self._gap_looked: dict[Seat, tuple[int, tuple[tuple[str, float], ...] | None]] = {}
        self._spent: set[tuple[Seat, int]] = set()
        # whether the whole table has looked as it did empty since the last trick was over:
        # swept, so a card of that trick landing again was put down anew, not seen again
        self._swept_since = False
        # TRUMP_MISSED: sweeps of the table seen, and whether cards lie there now
        self._sweeps, self._table_busy = 0, False
        # WAIT_TRUMP: a card was seen unread in the dealer's zone and the zone then looked
        # empty again: that was the trump, shown and taken back unread; and how the dealer's
        # zone was last seen (None, "empty" or "unread": a card there since it was empty)
        self._trump_gone = False
        self._dealer_look: str | None = None
        # what was read of that card (its entries of ``_gap_parts`` and ``_gap_odds``) as it
        # was taken back: the dealer's next card, often down before the play reaches them,
        # must not stand in for it
        self._trump_read: tuple[tuple | None, tuple | None] | None = None
        # the trump read as one of a few cards, none surely: the deal under each (see
        # ``_doubt_trump``), until the play tells which it is
        self._candidates: list[_Candidate] = []
        # whether this is such a deal, under one trump in doubt (``_play``)
        self._under_a_candidate = False
        if self.trump is not None:
            self._pending = self.referee.feed(TrumpRevealed(self.trump))
            self.phase = Phase.PLAYING

    # -- feeding -----------------------------------------------------------------------------

    def start(self, frame: int = 0, time_s: float = 0.0) -> list[Said]:
        """Announcements due before any frame (the trump, when it was given)."""
        said = [Said(frame, time_s, a) for a in self._pending]
        self._pending = []
        return said

    def on_events(self, events: list[TrackEvent], frame: int, time_s: float,
                  holding: dict[Seat, str], unread: frozenset[Seat] = frozenset(),
                  empty: frozenset[Seat] = frozenset(),
                  parts: dict[Seat, tuple[int, str]] | None = None,
                  odds: dict[Seat, tuple[int, tuple[tuple[str, float], ...]]] | None = None,
                  looks: dict[Seat, tuple[int, int]] | None = None,
                  ) -> list[Said]:
        """Feed one frame's tracker events; ``holding`` is what each zone holds now, ``unread``
        the zones where a card lies that could not be read (yet), ``empty`` the zones known to
        be empty whatever the detector says (they look as they did on the empty table),
        ``parts`` the suits or ranks read surely of unread cards (``Tracker.unread_parts``):
        should such a card never be read, that part narrows what the deck can put in its
        place; ``odds`` the classifier's odds of unread cards (``Tracker.unread_odds``),
        which weigh the ways the deck can put them back; ``looks`` on how many fresh looks
        those odds rest (``Tracker.unread_looks``): on two or more, odds that put a card off
        the lead's suit show a failure to follow, should the card never be read."""
        if self._candidates:
            return self._told(frame, time_s, self._with_held_back(self._under_candidates(
                events, frame, time_s, holding, unread, empty, parts, odds, looks), time_s))
        out: list[Announcement] = []
        # two cards in turn: parts read alike may stand; odds only of one and the same card
        self._note(self._gap_parts, parts or {},
                   lambda before, since, part: before[0] == since or before[1] == part)
        self._note(self._gap_odds, odds or {},
                   lambda before, since, _: before[0] == since and before[1] is not None)
        self._note(self._gap_looked, {seat: read for seat, read in (odds or {}).items()
                                      if (looks or {}).get(seat, (None, 0))[1] >= 2},
                   lambda before, since, _: before[0] == since and before[1] is not None)
        self._view = (holding, empty)
        if self.phase is Phase.WAIT_TRUMP:
            self._watch_dealer(unread, empty)
        if self.phase in (Phase.TRUMP_SHOWN, Phase.PLAYING):
            self._unread_in_trick |= unread
        if self.phase is Phase.PLAYING:
            self._stirred_in_trick |= (set(SEATS) - empty) | unread
        for n, event in enumerate(events):
            if isinstance(event, CardLanded):
                out += self._lifted_back(event, holding, empty, unread)
                if not self.referee.plays and all(
                        seat in empty for seat in self.order.seats_from(event.seat)[1:]):
                    self._alone.add(event)  # were it to lead: surely the trick's first card
                out += self._landed(event, unread)
                if self._candidates:  # play began with the trump in doubt: the rest of
                    # this frame goes to the deal under each card it may be
                    out += self._under_candidates(events[n + 1:], frame, time_s, holding,
                                                  unread, empty, parts, odds, looks)
                    return self._told(frame, time_s, self._with_held_back(out, time_s))
            elif isinstance(event, CardConfirmed):
                out += self._confirmed(event)
            elif isinstance(event, ZoneCleared):
                self._cleared(event)
                # (another card landing there on this frame: the tracker read it anew)
                landing = any(isinstance(e, CardLanded) and e.seat == event.seat
                              for e in events[n + 1:])
                if landing:
                    self._stand_by_a_card_read_anew(event, holding, empty)
                if self._in_open_trick(event.seat, event.card) and not (
                        self._taken_as_put_back(event.seat) and landing):
                    # its cards are being swept before all were read (not a card put back
                    # read again another way where it lies)
                    out += self._keeping_lifted(self._abandon)
            elif isinstance(event, ZoneUnclear):
                resumed = self._put_back_unread(event.seat, holding, empty, unread)
                out += resumed
                if not resumed and self.phase is not Phase.DEAL_OVER \
                        and not self._taken_as_put_back(event.seat):
                    out.append(ShowAgain(event.seat, event.face_down))
        if len(empty) == len(SEATS):
            out += self._keeping_lifted(self._swept)
        if events:
            out += self._restore_known()
        if self.phase is Phase.SWEEP and not holding:
            self.phase = Phase.PLAYING
        if self.phase is Phase.TRUMP_MISSED:
            out += self._count_sweeps(bool(holding or unread))
        if self.phase is Phase.DEAL_OVER and not holding:
            self._next_deal()
            self._began = frame
        return self._told(frame, time_s, self._with_held_back(out, time_s))

    def _told(self, frame: int, time_s: float, said: list[Announcement]) -> list[Said]:
        """``said``, as said aloud at ``frame``, but for a cut said already: a trick dropped
        with a cut in it, then going on as a card of it was put back (``_resume``), takes the
        cut's play again (game 3016 with --lift said the 7C's cut twice). (A deal under a
        card the trump may be says nothing aloud: what it holds back is said, and so looked
        at here, by the referee it belongs to.)"""
        out = []
        for announcement in said:
            if isinstance(announcement, Cut) and not self._under_a_candidate:
                cut = (self.deal, announcement.round, announcement.seat, announcement.card)
                if cut in self._cuts_told:
                    continue
                self._cuts_told.add(cut)
            out.append(Said(frame, time_s, announcement))
        return out

    def astray(self, cards: Sequence[FoundAstray], frame: int, time_s: float) -> list[Said]:
        """What to say of cards found face up in no seat's zone (``vision.session``). A Sueca
        card read surely enough to play that is not one of this deal's plays (a trick
        gathered in the middle is not astray) is asked, by name, to be moved into its
        player's zone; a card read unsurely is asked for too, without its name, where the
        cards the classifier took it for that have been played this deal hold under
        ``ASTRAY_PLAYED_SHARE`` of its odds (else it may be a played one). Nothing is
        recorded of either. Each card is asked about once where it lies: not again, read
        surelier or not, while it lies within ``ASKED_NEAR_MM`` of where it was. Every card
        between a trick dropped and the next card played is passed over: the dropped trick's
        cards never read may be gathered in the middle, and one of them read there is no
        card astray. Seeing the table outside the zones clear (``astray_clear``) ends both."""
        if self._candidates:
            return self._candidates[0].table.astray(cards, frame, time_s)
        if self.phase is Phase.DEAL_OVER or (self._last_dropped and not self.referee.plays):
            return []
        played = frozenset().union(*self._finished) | {str(p.card) for p in self.referee.plays}
        sure = self.rules.referee.min_confidence
        said: list[Said] = []
        named: set[str | None] = set()
        for found in cards:
            card = found.card
            if card not in _SUECA_OR_NOT:
                continue  # a card back, or not a card
            if any(math.dist(found.where, asked) <= ASKED_NEAR_MM for asked in self._asked_at):
                continue  # asked about already (its player may be reaching for it)
            if found.confidence >= sure:  # named, unless no play or played already
                passed = card not in _SUECA or card in played
                name: str | None = card
            else:  # unnamed, unless it may be a card played already
                passed = card in played or sum(
                    share for other, share in found.odds if other in played) \
                    >= ASTRAY_PLAYED_SHARE
                name = None
            if not passed and name not in named:
                named.add(name)
                self._asked_at.append(found.where)
                said.append(Said(frame, time_s, CardAstray(name, found.seat, found.quad,
                                                                found.corner)))
        return said

    def astray_clear(self) -> None:
        """The table outside the zones (its middle, its corners) has been seen clear, as on the
        empty table (``vision.motion``): no card of a trick dropped lies gathered there, so a
        card found there later is ``astray``'s to ask about."""
        if self._candidates:
            for candidate in self._candidates:
                candidate.table.astray_clear()
        self._last_dropped, self._asked_at = False, []

    def _note(self, gaps: dict, reads: dict, keeps: Callable[[tuple, int, Any], bool]) -> None:
        """Keep in ``gaps`` (by seat: the frame a card was first seen, what was read of it)
        what is now read of unread cards (``reads``, likewise), but not of cards seen during a
        trick that is over. Where ``keeps(before, since, read)`` says no, a card seen there
        before differs from this one: which was played? Nothing is kept of it (None)."""
        for seat, (since, read) in reads.items():
            if (seat, since) in self._spent:
                continue
            before = gaps.get(seat)
            if before is not None and not keeps(before, since, read):
                read = None
            gaps[seat] = (since, read)

    def _watch_dealer(self, unread: frozenset[Seat], empty: frozenset[Seat]) -> None:
        """Before the trump: a card seen unread in the dealer's zone (since the zone was seen
        empty this deal, or read in part since the deal began) and then gone, the zone empty
        again, was the trump, shown and taken back unread (``_trump_gone``; what was read of
        it then, ``_trump_read``)."""
        dealer = self.order.dealer
        if dealer in empty:
            shown = [seen[0] for seen in (self._gap_parts.get(dealer),
                                          self._gap_odds.get(dealer)) if seen]
            if self._dealer_look == "unread" or any(since > self._began for since in shown):
                if not self._trump_gone:
                    self._trump_read = (self._gap_parts.get(dealer), self._gap_odds.get(dealer))
                self._trump_gone = True
            self._dealer_look = "empty"
        elif dealer in unread and self._dealer_look is not None:
            self._dealer_look = "unread"

    def _trick_over(self) -> None:
        """The cards seen unread until now belong to this trick or an earlier one."""
        self._spent |= {(seat, since) for seat, (since, _) in
                        list(self._gap_parts.items()) + list(self._gap_odds.items())}
        self._gap_parts, self._gap_odds, self._gap_looked = {}, {}, {}
        self._unread_in_trick, self._stirred_in_trick = set(), set()
        self._swept_since = False

    def _landed(self, event: CardLanded, unread: frozenset[Seat]) -> list[Announcement]:
        try:
            card = Card.parse(event.card)
        except (CardError, ValueError):
            return self._face_down(event, unread)  # "back": a face-down card is no play
        if self.phase is Phase.DEAL_OVER:
            return []
        if self.phase is Phase.TRUMP_MISSED:
            return []
        said: list[Announcement] = []
        if self.phase is Phase.WAIT_TRUMP:
            if self._trump_gone and self._dealers_card_alone(event, unread):
                # the trump shown again (as the referee asks of a card it cannot read), not
                # the dealer's first play
                self._trump_gone, self._trump_read = False, None
            if event.seat != self.order.dealer or self._trump_gone:
                # play has begun (or the dealer's card is a play: the trump was shown and
                # taken back unread), so the trump was shown unread (or not at all); the
                # dealer's next card would be a play, and no trick can be judged without the
                # trump...
                shown = self._dealer_card()[0]
                if shown is None or shown[1] not in SUITS or shown[0] <= self._began:
                    # (a card first seen before this deal began is no trump of it)
                    candidates = self._trump_candidates()
                    if candidates:  # ...or at least the few cards it may be
                        return self._doubt_trump(candidates, event, unread)
                    self.phase = Phase.TRUMP_MISSED
                    return [TrumpNotRead(self.order.dealer)]
                # ...or at least its suit, which is all the tricks need
                said = self.referee.feed(TrumpSuitRevealed(Suit.parse(shown[1])))
                self._trick_over()  # what was read of the trump card is no play's
                self.phase = Phase.PLAYING
            else:
                said = self.referee.feed(TrumpRevealed(card, event.confidence,
                                                       event.looks >= 2))
                if any(isinstance(a, TrumpDeclared) for a in said):
                    self.phase = Phase.TRUMP_SHOWN
                    self._trick_over()
                return said
        if self.phase is Phase.TRUMP_SHOWN:
            if event.seat == self.order.dealer:
                return []  # the trump card lies there still (or again)
            self.phase = Phase.PLAYING
        elif self._trump_laid_again(event, card, unread):
            self.phase = Phase.TRUMP_SHOWN  # (taken back again, play goes on as before)
            return said
        if self._just_played(event.seat, card):
            # the same card seen landing again (nudged, picked up and put back, or a
            # restarted tracker): another look at it
            return said + self._landed_again(event, card)
        if self.phase is Phase.SWEEP:
            self.phase = Phase.PLAYING  # the next lead came before the sweep was seen
        return said + self._play(event, card, unread)

    def _face_down(self, event: CardLanded, unread: frozenset[Seat]) -> list[Announcement]:
        """A card back landed: where a play is due from that seat (the trump known, the deal
        not over; after a trick dropped, anybody's lead; after the seats whose turn comes
        first, where each has a card lying in its zone, read or not), its player is asked to
        turn the card over. Elsewhere it is passed over, and while a whole trick still lies
        (its winner may be gathering it up and laying it down face down), since a pile of
        tricks won is no play."""
        if event.card != BACK or self.phase not in (Phase.TRUMP_SHOWN, Phase.PLAYING) \
                or self.referee.is_over:
            return []
        due = self.referee.to_play
        if due is None:
            return [] if self.referee.plays else [FaceDown(event.seat)]
        holding = self._view[0]
        before = self.order.seats_from(due)
        before = before[:before.index(event.seat)]
        if any(seat not in unread and holding.get(seat) in (None, BACK) for seat in before):
            return []
        return [FaceDown(event.seat)]

    def _dealers_card_alone(self, event: CardLanded, unread: frozenset[Seat]) -> bool:
        """Whether ``event`` lands in the zone of a dealer who does not lead the first trick,
        while no other zone holds a card, read or not, that it could follow."""
        dealer = self.order.dealer
        if event.seat != dealer or self.order.first_leader == dealer:
            return False
        return not any(seat != dealer for seat in set(self._view[0]) | set(unread))

    def _trump_laid_again(self, event: CardLanded, card: Card, unread: frozenset[Seat]) -> bool:
        """Whether ``event`` is the dealer laying the trump card in their zone again before
        anyone has played (to show it once more, as players ask), not the dealer's first play:
        the dealer does not lead the first trick, no card has been played this deal, and no
        other zone holds one, read or not (game 16: the leader's card lay unread when the
        dealer played the trump card)."""
        return (self.phase is Phase.PLAYING and card == self.referee.trump
                and not (self.referee.plays or self.referee.tricks or self.referee.missed
                         or self._not_taken())
                and self._dealers_card_alone(event, unread))

    # -- a trump in doubt ---------------------------------------------------------------------

    def _dealer_card(self) -> tuple[tuple | None, tuple | None]:
        """What was read of the card seen unread in the dealer's zone before play began (its
        entries of ``_gap_parts`` and ``_gap_odds``): the trump as it was taken back, if it
        was; else what lies there now."""
        if self._trump_read is not None:
            return self._trump_read
        dealer = self.order.dealer
        return self._gap_parts.get(dealer), self._gap_odds.get(dealer)

    def _trump_candidates(self) -> list[tuple[Card | Suit, float]]:
        """What the trump may be, likeliest first, as the classifier read the card seen unread
        in the dealer's zone this deal (of the rank read surely, if that was): two or three
        cards of as many suits, each at least ``TRUMP_FLOOR`` of its odds, together at least
        ``TRUMP_COVER``; else, where the odds are spread over several cards of a suit, the
        suits that hold at least ``TRUMP_FLOOR`` of them and the likeliest after them, until
        at least two hold ``TRUMP_COVER`` together (else all four suits), for the play to
        tell apart.
        (Only the suit matters to the tricks; where no card is named, whether the dealer
        holds the trump card is never judged.) None where the card was never read at all
        (no odds): then nothing was seen of it but that it lay there, and the deal is not
        refereed."""
        shown, seen = self._dealer_card()
        if seen is None or seen[1] is None or seen[0] <= self._began:
            return []
        part = shown[1] if shown is not None and shown[0] > self._began else None
        cards: list[tuple[Card, float]] = []
        suits = dict.fromkeys(Suit, 0.0)
        for name, share in seen[1]:
            try:
                card = Card.parse(name)
            except (CardError, ValueError):
                continue  # a card back, or no card
            if part is not None and not part_fits(part, name):
                continue
            suits[card.suit] += share  # an eight, nine or ten read still tells the suit
            if share >= TRUMP_FLOOR and card.is_sueca:
                cards.append((card, share))
        cards.sort(key=lambda read: -read[1])
        if 2 <= len(cards) <= 3 and len({card.suit for card, _ in cards}) == len(cards) \
                and sum(share for _, share in cards) >= TRUMP_COVER:
            return cards
        ranked = sorted(suits.items(), key=lambda read: -read[1])
        held = [(suit, share) for suit, share in ranked if share >= TRUMP_FLOOR]
        # (and the likeliest suits after them, until at least two hold ``TRUMP_COVER``: a
        # suit the suit reader reads 97 % sure leaves the next under ``TRUMP_FLOOR``)
        while len(held) < len(ranked) and (
                len(held) < 2 or sum(share for _, share in held) < TRUMP_COVER):
            held.append(ranked[len(held)])
        return held

    def _doubt_trump(self, candidates: list[tuple[Card | Suit, float]], event: CardLanded,
                     unread: frozenset[Seat]) -> list[Announcement]:
        """Play began (``event``) with the trump read as one of ``candidates`` (cards, or
        suits), none surely: the deal is refereed from here on under each, by a copy of this
        referee told that suit only (so the dealer's holding the trump card is never judged
        on it). What they all say alike is said at once; the rest is held until the play
        tells which is the trump (``_under_candidates``)."""
        said: list[Announcement] = [TrumpInDoubt(self.order.dealer,
                                                 tuple(_named(card) for card, _ in candidates),
                                                 tuple(share for _, share in candidates))]
        tables = [copy.deepcopy(self) for _ in candidates]
        for (card, _), table in zip(candidates, tables):
            table._under_a_candidate = True
            table.referee.feed(TrumpSuitRevealed(card.suit if isinstance(card, Card) else card))
            table._trick_over()  # what was read of the trump card is no play's
            table.phase = Phase.PLAYING
            self._candidates.append(_Candidate(card, table, table._landed(event, unread)))
        return said + self._reconcile()

    def _under_candidates(self, events: list[TrackEvent], frame: int, time_s: float,
                          holding: dict[Seat, str], unread: frozenset[Seat],
                          empty: frozenset[Seat], parts: dict[Seat, tuple[int, str]] | None,
                          odds: dict[Seat, tuple[int, tuple[tuple[str, float], ...]]] | None,
                          looks: dict[Seat, tuple[int, int]] | None = None,
                          ) -> list[Announcement]:
        """One frame of a deal whose trump is in doubt: each card it may be referees it."""
        for candidate in self._candidates:
            said = [s.announcement for s in candidate.table.on_events(
                events, frame, time_s, holding, unread, empty, parts, odds, looks)]
            if candidate.trouble is None:
                candidate.trouble = next((a for a in said if isinstance(a, OutOfTurn)), None) \
                    or candidate.table._no_way_fits
            candidate.held += said
        return self._reconcile()

    def _reconcile(self) -> list[Announcement]:
        """What to say now of a deal whose trump is in doubt. The trump is settled as soon as
        the play rules out all the cards in doubt but one:

        - a card in doubt played, read surely, by a seat that is not the dealer's cannot be
          the trump (the trump card is the dealer's; nobody is accused of not holding it);
        - under a wrong trump a trick goes to the wrong seat, who is then expected to lead:
          a card under which somebody played out of turn is no trump either (where under
          every card left somebody did, the trump may be none of them: nothing is settled).
          (A proof of cheating is no such sign: it comes under every card alike until their
          tricks differ, and a cheat proven under the true trump alone must not rule it
          out.)

        Then the trump is announced, with what the deal under it held back, and this referee
        carries on as that deal (``_adopt``). Until then, requests to show a card again are
        said at once, and so is whatever every card in doubt says alike, up to where they
        first differ, call somebody out of turn (which under every one of them says the
        trump may be none) or end the deal. At the end of the deal (once no card's deal holds
        its end back), with the trump still in doubt, the verdict is whatever they all agree
        on (``_trump_never_settled``)."""
        first = self._candidates[0]
        now = [a for a in first.held if isinstance(a, _ASKED_AT_ONCE)]
        for candidate in self._candidates:
            candidate.held = [a for a in candidate.held if not isinstance(a, _ASKED_AT_ONCE)]
        played = {c: self._played_elsewhere(c) for c in self._candidates}
        left = [c for c in self._candidates if played[c] is None] or self._candidates
        clean = [c for c in left if c.trouble is None]
        if len(clean) == 1:
            why = "; ".join(f"{played[c]}, and the trump card is the dealer's"
                            if c not in left else
                            f"under {_named(c.card)} the play makes no sense ({c.trouble})"
                            for c in self._candidates if c is not clean[0])
            return now + self._settle_trump(clean[0], why)
        alike = 0
        while all(len(c.held) > alike and c.held[alike] == first.held[alike]
                  for c in self._candidates) \
                and not isinstance(first.held[alike], (OutOfTurn, GameOver)):
            alike += 1
        said = first.held[:alike]
        for candidate in self._candidates:
            del candidate.held[:alike]
        # (a card under which somebody played out of turn is no trump where others are left:
        # its deal, stuck on a play it cannot take, is not waited for; a deal's end held
        # back, its last trick's card perhaps picked up, is)
        if all((c.table.deal > self.deal or c.table.is_over) and c.table._held_back is None
               for c in clean or self._candidates):
            return now + said + self._trump_never_settled(clean)
        return now + said

    def _played_elsewhere(self, candidate: _Candidate) -> str | None:
        """How the play rules ``candidate`` out as the trump card (None where it does not):
        it was taken as played by a seat not the dealer's, read surely on two looks. (A suit
        in doubt names no card: only the play under it rules it out.)"""
        if not isinstance(candidate.card, Card):
            return None
        for table in (c.table for c in self._candidates):
            for landing in table.taken:
                if landing.card == str(candidate.card) and landing.seat != self.order.dealer \
                        and self._sure(landing.looks >= 2, landing.confidence):
                    first = table.referee.first_reading(candidate.card)
                    where = f" in round {first[0]}" if first is not None else ""
                    return (f"{candidate.card} was played by seat {landing.seat.number}{where}, "
                            "read surely")
        return None

    def _settle_trump(self, chosen: _Candidate, why: str) -> list[Announcement]:
        """The trump is ``chosen``'s card: say so, then what the deal under it held back."""
        others = tuple(_named(c.card) for c in self._candidates if c is not chosen)
        said = [TrumpSettled(_named(chosen.card), others, why)] + chosen.held
        self._adopt(chosen.table)
        return said

    def _trump_never_settled(self, clean: list[_Candidate]) -> list[Announcement]:
        """Every card in doubt has refereed the deal to its end and the trump is still not
        settled; ``clean``: those that the play does not rule out, under which nobody played
        out of turn. The verdict stands where they all give the same one; where they give the
        same result (the winner, or the draw, and the games for the match), none of them
        cheating, that result is the verdict (``TrumpOutcome``); otherwise, or where every
        card in doubt has somebody play out of turn (then the trump may be none of them),
        there is none (``TrumpUndecided``). This referee carries on as the likeliest card's
        deal."""
        running = clean or self._candidates
        first = running[0]
        overs = [next((a for a in c.held if isinstance(a, GameOver)), None) for c in running]
        if all(over is None for over in overs):  # said already, alike under every card
            said = first.held
            self._adopt(first.table)
            return said
        trumps = tuple(_named(c.card) for c in running)
        over = overs[0]
        # what the likeliest card's deal said after its verdict: the match tally (where the
        # verdict counted for the match), and what the next deal has said so far
        after = first.held[first.held.index(over) + 1:] if over is not None else []
        tally = after[:1] if after and isinstance(after[0], MatchScored) else []
        results = {None if o is None or isinstance(o, GameIncomplete)
                   else deal_result(o, self.match.rules) for o in overs}
        match = self.match  # as before this deal, where the deal gives nothing to the match
        self._adopt(first.table)
        if over is not None and clean and all(o == over for o in overs):
            proven = [a for a in first.held[:first.held.index(over)] if isinstance(a, Cheat)
                      and all(a in c.held for c in clean)]
            if over.cheat is None and not isinstance(over, GameIncomplete):
                over = TrumpOutcome(over.score, over.outcome, None, (over.score,), 1.0,
                                    deal_result(over, self.match.rules)[1], (), trumps)
            return proven + [over] + after
        if over is not None and clean and len(results) == 1 and None not in results:
            return [TrumpOutcome(over.score, over.outcome, None,
                                 tuple(o.score for o in overs if o is not None), 1.0,
                                 results.pop()[1], (), trumps)] + after
        self.match = match
        score = over.score if over is not None else self.referee.score
        return [TrumpUndecided(score, Outcome.from_score(score), None, (), trumps)] \
            + after[len(tally):]

    def _adopt(self, table: TableReferee) -> None:
        """Carry on as ``table`` (the deal under the card settled as the trump); what this
        referee holds back to say is its own and, after it, that deal's (``_held_back``),
        due when the later of the two is. The cuts said are this referee's: it said them
        aloud, the deal under the card only held them (``_told``)."""
        held, theirs, cuts_told = self._held_back, table._held_back, self._cuts_told
        self.__dict__.update(table.__dict__)
        self._cuts_told = cuts_told
        if held is not None and theirs is not None:
            due = None if held[0] is None or theirs[0] is None else max(held[0], theirs[0])
            self._held_back = (due, held[1] + theirs[1])
        elif held is not None:
            self._held_back = held
        self._candidates = []
        self._under_a_candidate = False

    def _just_played(self, seat: Seat, card: Card) -> bool:
        """Whether ``card`` landing in ``seat``'s zone is a card already taken there, seen
        landing again: one of the trick in play (taken, or waiting to be), or of the trick
        just over (nudged, lifted and put back, or a restarted tracker) until the whole table
        has looked empty since. Once it has, the trick was swept and the card was put down
        anew: the next card, misread as the last one, or read right where the last one was
        misread."""
        recent = self._open_plays()
        if not self._swept_since and self.referee.tricks and (
                self.phase in (Phase.SWEEP, Phase.DEAL_OVER) or not self.referee.plays):
            recent += [(p.seat, p.card) for p in self.referee.tricks[-1].plays]
        return (seat, card) in recent or self._put_back_as(seat, str(card), recent)

    def _landed_again(self, event: CardLanded, card: Card) -> list[Announcement]:
        """``card``, taken (or awaiting a second look) as ``event``'s seat's play, seen
        landing there again read as that card (``_just_played``): a separate look at it, as
        the change gate's second look at a card lying still is (``CardConfirmed``), as sure
        as the less sure of the two landings. A card picked up and put back often lands on
        one look each time, the gate's second look cut short by the hand coming for it: game
        2820 at 1280x720 with --lift, whose revoke rested on the KH, read 0.9997 as it landed
        and again as it was put back, ended "may have revoked". (Read as another card, the
        landing is no look at the card played.)"""
        pending = self._unconfirmed.get(event.seat)
        earlier = [e for e in self.taken if e.seat == event.seat and e.card == event.card
                   and e.frame > self._began] \
            + ([pending[0]] if pending is not None and pending[1] == card else [])
        if not earlier:
            return []
        looked = min(max(e.confidence for e in earlier), event.confidence)
        return self._confirmed(CardConfirmed(event.seat, event.card, looked, event.frame))

    def _put_back_as(self, seat: Seat, card: str, plays: list[tuple[Seat, Card]]) -> bool:
        """Whether ``card`` in ``seat``'s zone is the card of its play among ``plays``, picked
        up and put back (``_lifted_back``), read another way: as it was read once put back,
        or any way at all while its trick is still open and its seat has played there (a
        seat plays once a trick), which is then noted as a way it is read."""
        played = next((str(c) for s, c in plays if s == seat), None)
        seen = self._put_back.get((seat, played)) if played is not None else None
        if seen is None:
            return False
        if card in seen:
            return True
        if (seat, played) in [(s, str(c)) for s, c in self._open_plays()]:
            seen.add(card)
            return True
        return False

    def _stand_by_a_card_read_anew(self, cleared: ZoneCleared, holding: Mapping[Seat, str],
                                   empty: frozenset[Seat]) -> None:
        """Where the tracker lets go of a card played in the trick in progress only because it
        reads another card in that zone on the same frame (``cleared``, that seat's landing
        following it), while the trick's other cards still lie in their zones (held, and the
        zones not looking empty): no sweep took the trick. It is the card played read another
        way (game 3016's JC, read as the JS as a lamp dimmed, was taken for the next trick's
        lead, and every round after it was numbered one too many), or another card its player
        put down in its place; either way the card played stands, as a card put back read
        another way does (``_put_back_as``)."""
        seat = cleared.seat
        if not self._in_open_trick(seat, cleared.card) or not all(
                s not in empty and self._reads_as_played(s, str(c), holding.get(s))
                for s, c in self._open_plays() if s != seat):
            return
        played = next(str(c) for s, c in self._open_plays() if s == seat)
        self._put_back.setdefault((seat, played), set())

    def _reads_as_played(self, seat: Seat, played: str, seen: str | None) -> bool:
        """Whether ``seen``, read of the card in ``seat``'s zone, is ``played``, the seat's
        play: read so, or as that card was read once put back (``_put_back``)."""
        return seen == played or seen in self._put_back.get((seat, played), ())

    def _taken_as_put_back(self, seat: Seat) -> bool:
        """Whether the card in ``seat``'s zone is taken for the seat's play in the open trick,
        picked up and put back: nothing to ask of it, however it reads."""
        return self.phase is Phase.PLAYING and any(
            s == seat and (s, str(c)) in self._put_back for s, c in self._open_plays())

    def _play(self, event: CardLanded, card: Card,
              unread: frozenset[Seat]) -> list[Announcement]:
        to_play = self.referee.to_play
        if to_play is not None and event.seat != to_play and (
                to_play in unread or to_play in self._unconfirmed
                or to_play in self._unread_in_trick
                or self._holds_earlier_card(to_play)
                or (self._may_have_played(to_play) and self.referee.calls_out_of_turn
                    and not self._under_a_candidate)):
            # The player whose turn it is has put down a card we cannot read yet: this card
            # is not out of turn, it is early. It waits; nobody is accused on our doubt. So
            # too where a card of theirs was seen unread in this trick and is gone: asked to
            # show it again, they have picked it up to lay it down anew. So
            # where the tracker still holds their card of an earlier trick in a zone that
            # does not look as it did empty: their new card may lie there, taken for that one
            # (the zone was left out of the frames that showed the sweep), and only a zone
            # that looks empty shows that they have not played. And so, where the card would
            # be called out of turn, wherever their zone does not look empty: a card may lie
            # there that the camera has not found (game 2281 at 640x480: a lattmann KD never
            # found, and the next seat's 7H called out of turn). (Where the trick was led on
            # a guess, the engine turns such a card away quietly: it may have come down first.
            # Under a trump in doubt a call out of turn is no accusation but what tells a wrong
            # trump, said only once one is settled; waiting there too left game 2296's trump
            # never settled.)
            self._waiting.append((event, card))
            return []
        if to_play is None and self._laid_after_another(event, unread):
            # Anybody's lead (after a dropped trick), but another zone holds a card laid
            # before this one, read unsurely so far: that card led, and this one follows it.
            # It waits for the lead to be read; taken as the lead, it gave the trick to the
            # wrong seat (game 2581 of the studio's clips: seat 2's KC taken as round 3's
            # lead, seat 1's JS, laid first and read last, as its fourth card)
            self._waiting.append((event, card))
            return []
        return self._feed_play(event, card) + self._play_waiting()

    def _laid_after_another(self, event: CardLanded, unread: frozenset[Seat]) -> bool:
        """Whether, with no play of the trick taken yet, another zone holds a card not read
        surely yet (``unread``) that was first seen lying there before ``event``'s card was,
        as ``_gap_odds`` keeps it from the looks that read it whole (a look that does not
        gives no odds for a frame or two; a card never read whole says nothing of when it
        came)."""
        return (self.phase is Phase.PLAYING and not self.referee.plays
                and event.since is not None
                and any(seat != event.seat and seat in unread and since < event.since
                        for seat, (since, _) in self._gap_odds.items()))

    def _holds_earlier_card(self, seat: Seat) -> bool:
        """Whether ``seat``'s zone does not look as it did empty and the tracker holds there a
        card of an earlier trick: a new card may lie there that it takes for that one."""
        held = self._view[0].get(seat)
        return self._may_have_played(seat) and held is not None and any(
            str(p.card) == held for trick in self.referee.tricks for p in trick.plays)

    def _may_have_played(self, seat: Seat) -> bool:
        """Whether ``seat``'s zone does not look as it did on the empty table (``empty``, as
        the change gate sees it): something lies there, perhaps a card not found."""
        return seat not in self._view[1]

    def _play_waiting(self) -> list[Announcement]:
        """Plays that waited for an unread card (now read), each when it is its seat's turn,
        whatever the order they landed in (a card read unsurely at first may land after
        the next seat's). The rest wait on: for another unread card, or for the sweep (then
        the trick is dropped, see ``_abandon``)."""
        said: list[Announcement] = []
        while True:
            due = next((w for w in self._waiting if w[0].seat == self.referee.to_play), None)
            if due is None:
                return said
            self._waiting.remove(due)
            said += self._feed_play(*due)

    def _feed_play(self, event: CardLanded, card: Card, confirmed: float | None = None,
                   unproven: bool = False) -> list[Announcement]:
        """``confirmed``: the confidence of a second look, when there was one; ``unproven``:
        the trick is being swept, take the play even if it cannot prove what it would
        (``CardPlayed.unproven``)."""
        looked_twice = confirmed is not None or event.looks >= 2
        confidence = event.confidence if confirmed is None else confirmed
        sure = self._sure(looked_twice, confidence)
        misread = self._misread_in_trick(event.seat, card) if sure else None
        if misread is not None:
            self._misread_now[misread.seat] = misread
            self._unconfirmed[event.seat] = (event, card)
            self._held_sure.add(event.seat)
            return []
        if card in self._doubted:
            if not sure:
                # two readings of this card disagreed on where it lies: only a sure one
                # settles it
                self._unconfirmed[event.seat] = (event, card)
                return [CardUnclear(event.seat, card, confidence)] if looked_twice else []
            self._doubted.discard(card)
        withdrawn = self._withdraw_misread(card) if sure else []
        before = (len(self.referee.tricks), len(self.referee.plays))
        try:
            said = withdrawn + self.referee.feed(CardPlayed(
                event.seat, card, confidence, looked_twice, alone=event in self._alone,
                odds=_odds_of(event), unproven=unproven))
        except RefereeStateError:
            return withdrawn
        if confidence >= self.referee.min_confidence and card.is_sueca \
                and any(isinstance(a, CardUnclear) for a in said):
            # This play would prove cheating (or is read as a card already played), and it
            # is not proof: one look, however sure, or a reading under accuse_confidence. It
            # waits for a second look (quietly: the camera looks again by itself), and the
            # plays after it wait for it, as for a card not read: its seat played, so they
            # are not out of turn. Read twice and still unsure, it is asked for again. (A
            # card the deck lacks, read unsurely, is only asked for: it is no play.)
            self._unconfirmed[event.seat] = (event, card)
            if not looked_twice:
                return []
            # read twice as a card taken before on a reading no surer: either may be wrong
            return said + self._withdraw_misread(card, sure=False)
        if (len(self.referee.tricks), len(self.referee.plays)) != before:
            self.taken.append(event)  # taken: not turned away
        said = self._settle(said)
        for a in said:
            if isinstance(a, TrickWon):
                self.phase = Phase.SWEEP
                self._finished.append(frozenset(str(p.card) for p in a.trick.plays))
                self._last_dropped = False
                self._trick_over()
            if isinstance(a, GameOver):
                self.phase = Phase.DEAL_OVER
                if not isinstance(a, GameIncomplete):  # an unknown score counts for nobody
                    said = said + [self.match.record(a)]
        return said

    def _misread_in_trick(self, seat: Seat, card: Card) -> CardLanded | None:
        """The landing of the play of the open trick that ``card``, read surely in ``seat``'s
        zone, shows misread: another seat's play taken as that same card on a reading under
        ``accuse_confidence`` (a card is in the deck once, and a sure reading outweighs an
        unsure one). None where there is none. (Game 2250's round 8 in one frame, and a
        trick made up to match: a 4C read 4C 0.6 / 4S 0.4 and leaned to the 4S of a spade lead,
        then the 4S itself played, read surely. The trick would hold the 4S twice.) The sure
        play waits, quietly, with the plays after it, and the trick is dropped when swept,
        the misread card a gap weighed by its odds (``_cards_short``), for the deck to
        settle: it can be anything but the card it was taken for."""
        first = self.referee.first_reading(card)
        if first is None or first[0] != self.referee.round \
                or first[1] >= self.referee.accuse_confidence:
            return None
        other = next((p.seat for p in self.referee.plays if p.card == card and p.seat != seat),
                     None)
        if other is None:
            return None
        return next((e for e in reversed(self.taken)
                     if e.seat == other and e.card == str(card) and e.frame > self._began), None)

    def _sure(self, looked_twice: bool, confidence: float) -> bool:
        """Whether a reading is sure enough to accuse on: two looks, at ``accuse_confidence``."""
        return looked_twice and confidence >= self.referee.accuse_confidence

    def _withdraw_misread(self, card: Card, sure: bool = True) -> list[Announcement]:
        """``card`` is being played, read surely on two looks, and it was taken in an earlier
        round of this deal on a reading under ``accuse_confidence``: that reading was wrong
        (a card is in the deck once; a sure reading outweighs an unsure one, and nobody is
        accused on the unsure one). Its round stops counting (``Referee.withdraw``) and the
        card there becomes a gap, weighed by how the classifier read it when it landed, for
        the deck to settle at the end of the deal like a card never read.

        Not ``sure``: the card is read again no more surely than before. Either reading may be
        the wrong one, so the earlier round stops counting just the same, and the new play
        waits, unread, for a sure look (``_doubted``); should none come, it is a gap of its
        trick too (``_cards_short``)."""
        first = self.referee.first_reading(card)
        if first is None or first[0] >= self.referee.round \
                or first[1] >= self.referee.accuse_confidence:
            return []
        round_ = first[0]
        if not sure:
            self._doubted.add(card)
        landing = next((e for e in reversed(self.taken)
                        if e.card == str(card) and e.frame > self._began), None)
        said = self.referee.withdraw(card, sure)
        self._finished = [cards - {str(card)} for cards in self._finished]
        odds = ((landing.seat, landing.odds),) if landing is not None and landing.odds else ()
        trick = next((a.trick for a in said if isinstance(a, TrickWithdrawn)), None)
        if trick is not None:  # a scored trick joins the dropped ones
            order = tuple((p.seat, None if p.card == card else p.card) for p in trick.plays)
            self._dropped.append(Dropped(round_, (order,), (), odds))
            return said
        for i, dropped in enumerate(self._dropped):
            if dropped is not None and dropped.round == round_:
                self._dropped[i] = Dropped(round_, tuple(
                    tuple((seat, None if c == card else c) for seat, c in order)
                    for order in dropped.orders), dropped.parts, dropped.odds + odds)
        if landing is None:
            return said
        return said + [TrickWithdrawn(round_, landing.seat, card, None, 0, self.referee.score,
                                      sure)]

    def _confirmed(self, event: CardConfirmed) -> list[Announcement]:
        pending = self._unconfirmed.get(event.seat)
        if pending is not None and str(pending[1]) == event.card:
            del self._unconfirmed[event.seat]
            return self._feed_play(pending[0], pending[1], event.confidence) \
                + self._play_waiting()
        try:
            return self.referee.confirm(Card.parse(event.card), event.confidence)
        except (CardError, ValueError):
            return []  # a card back

    def _keeping_lifted(self, drop: Callable[[], list[Announcement]]) -> list[Announcement]:
        """``drop`` (``_abandon`` or ``_swept``), remembering how things stood before where it
        drops a trick in play (``_lifted``): a card of it gone from the table may have been
        picked up by its player, not swept with the trick."""
        plays = self._open_plays() if self.phase is Phase.PLAYING and not self._candidates \
            else []
        if not plays:
            return drop()
        earlier = self._release()  # (a trick dropped before, which can no longer come back)
        self._lifted = None
        before = copy.deepcopy(self)
        # the zones where something lay, or was seen, during the trick, but its plays'
        seats = {seat for seat, _ in plays}
        stirred = frozenset(self._stirred_in_trick - seats)
        said = drop()
        if any(isinstance(a, TrickMissed) for a in said):
            kept = frozenset((seat, str(card)) for seat, card in plays)
            laid_at = {e.seat: _laid(e) for e in before.taken
                       if e.frame > before._began and (e.seat, e.card) in kept}
            laid_at.update((e.seat, _laid(e)) for e, _ in before._not_taken())
            self._lifted = _Lifted(before, kept, [], stirred, laid_at)
            if (not stirred and len(seats) < len(SEATS) and not self._under_a_candidate) \
                    or self.phase is Phase.DEAL_OVER:
                # a card of it picked up, not the trick swept (it was not whole, and nothing
                # else lay on the table): nothing said of the trick till the card may be back.
                # (Not under a trump in doubt, where what each card in doubt says is held
                # until the play tells which is the trump, ``_reconcile``.) Nor of the deal's
                # last trick, whatever lay about, under a trump in doubt too: its end is said
                # once (the trick's card may be back a second later, and the deal go on:
                # games 2803, 2813 and 2818 at 1280x720 with --lift said "Game over" twice,
                # or a verdict twice; game 3002, its trump in doubt, "Game over" twice). The
                # trump is not settled on such a deal's end until it is said (``_reconcile``)
                self._held_back, said = (None, said), []
        return earlier + said

    def _with_held_back(self, said: list[Announcement], time_s: float) -> list[Announcement]:
        """``said``, after what is held back of a trick taken for swept (``HELD_BACK_S``)
        where it is due: its time has come, or the card picked up can no longer come back
        (``_lifted_back``). (It is held back only in what is said: the referee goes on as if
        the trick was swept, and the next deal may begin.)"""
        if self._held_back is None:
            return said
        due, held = self._held_back
        if due is None:
            due = time_s + HELD_BACK_S
            self._held_back = (due, held)
        if self._lifted is not None and time_s < due:
            return said
        return self._release() + said

    def _release(self) -> list[Announcement]:
        held, self._held_back = ([] if self._held_back is None else self._held_back[1]), None
        return held

    def due(self, time_s: float) -> bool:
        """Whether something held back is due to be said at ``time_s`` though nothing else
        happens (here, or in the deal under a card the trump may be): the session then calls
        ``on_events`` without events."""
        return (self._held_back is not None and (self._held_back[0] or 0.0) <= time_s) \
            or any(c.table.due(time_s) for c in self._candidates)

    def release(self, frame: int, time_s: float) -> list[Said]:
        """What is held back, said now whatever its time: the frames have run out. (Under a
        trump in doubt, what each card's deal held back is what it says now, and the cards
        are then reconciled as on any frame.)"""
        said = self._release()
        if self._candidates:
            for candidate in self._candidates:
                candidate.held += candidate.table._release()
            said += self._reconcile()
        return self._told(frame, time_s, said)

    def _lifted_back(self, event: CardLanded, holding: dict[Seat, str],
                     empty: frozenset[Seat], unread: frozenset[Seat]) -> list[Announcement]:
        """Where a card landing after a trick was dropped (``_keeping_lifted``) is one of its
        plays, in its player's zone again, the trick was not swept: that player picked the
        card up (to set it straight, or because asked to show another card again) and put it
        back. The trick goes on as it stood (the card is then seen landing again,
        ``_just_played``), and the cards other seats played meanwhile are taken into it
        again, in turn: nothing is scored twice, and nobody is accused of playing a card
        twice or out of turn. So too where the card put back is read as another card, if the
        rest of the trick still lies as it did (``_still_lies``): the card played stands. Until
        then, a card of another seat that may still belong to the trick (its seat had not
        played in it, and the trick has room for it and the card put back, or the card lies
        there again, unread) is only noted; any other ends the chance."""
        lifted = self._lifted
        if lifted is None:
            return []
        if (event.seat, event.card) in lifted.plays:
            return self._resume(event.seat, None, holding, empty, unread)
        if self._still_lies(event.seat, holding):
            return self._resume(event.seat, event.card, holding, empty, unread)
        played = {seat for seat, _ in lifted.plays} | {landed.seat for landed in lifted.since}
        # (room for this card and the card picked up, or for this card alone where a card
        # lies unread again in a zone a card was picked up from: game 2543's JC, put back and
        # not read before the trick's last card came down)
        back = any(seat in unread for seat, _ in lifted.plays)
        if event.seat in played or len(lifted.plays) + len(lifted.since) + (
                1 if back else 2) > len(SEATS):
            self._lifted = None
        else:
            lifted.since.append(event)
        return []

    def _put_back_unread(self, seat: Seat, holding: dict[Seat, str], empty: frozenset[Seat],
                         unread: frozenset[Seat]) -> list[Announcement]:
        """A card that cannot be read (``ZoneUnclear``), after a trick was dropped
        (``_keeping_lifted``), in the zone of a seat that played in it, while the rest of the
        trick still lies as it did (``_still_lies``): the card played, picked up and put
        back. The trick goes on as it stood (``_lifted_back``), nothing is asked of the card,
        and however it reads once read, it stands as played."""
        if not self._still_lies(seat, holding):
            return []
        return self._resume(seat, "", holding, empty, unread)

    def _still_lies(self, seat: Seat, holding: Mapping[Seat, str]) -> bool:
        """Whether the trick dropped (``_lifted``) still lies as it did but for ``seat``'s card,
        so that a card in ``seat``'s zone now is that card put back, however it reads: seat
        played in it; each of its other cards (and each card landed since that may belong to
        it) is held in its zone still; and, unless all its other cards came down before that
        card, nothing but its own cards lay or was seen in any zone while it was played
        (``_Lifted.quiet``). (A card that came down after it may be the next trick's lead,
        taken into it because the sweep was not seen: game 8 with ``--lift``.) A trick
        swept leaves none of its cards behind, and one whose other cards were never read, or
        never found, stirred their zones. (Another zone may stir now: its player, next to
        play, reaching out; game 2443's QC, put back unread as seat 3 played. Or have stirred
        before: game 2593 at 1280x720, a hand over seat 4's zone 1.5 s before seat 3's JC was
        picked up beside the trick's two other cards.)"""
        lifted = self._lifted
        if lifted is None or seat not in {s for s, _ in lifted.plays}:
            return False
        lying = {s: card for s, card in lifted.plays if s != seat}
        # (laid, not landed: game 2914 at 640x480, seat 1's 3C read only after seat 2's 2C
        # came down beside it, and 2C picked up and put back unread)
        first = lifted.laid_at.get(seat, -1)
        if not (lying and all(lifted.laid_at.get(s, math.inf) < first for s in lying)) \
                and not lifted.quiet:
            return False  # (where the trick's other cards lay there before it, that is enough)
        lying.update((landed.seat, landed.card) for landed in lifted.since)
        # (a card put back before is held as it was read then: game 2554's 7C, back as the
        # 7D, while the 5C beside it was picked up in turn)
        return all(self._reads_as_played(s, card, holding.get(s)) for s, card in lying.items())

    def _resume(self, seat: Seat, seen: str | None, holding: dict[Seat, str],
                empty: frozenset[Seat], unread: frozenset[Seat]) -> list[Announcement]:
        """The trick dropped (``_lifted``) goes on as it stood: ``seat``'s card was picked up
        and put back, ``seen`` how it reads now (``TrickResumed``)."""
        assert self._lifted is not None
        before, plays, since = self._lifted.before, self._lifted.plays, self._lifted.since
        told = self._held_back is None  # (whether the trick was said to be swept)
        cuts_told = self._cuts_told  # (what was said stays said)
        # (wholly: a field never set since the start is the class's default in both)
        self.__dict__.clear()
        self.__dict__.update(before.__dict__)
        self._cuts_told = cuts_told
        self._view = (holding, empty)
        card = next(card for s, card in plays if s == seat)
        if seen is not None:
            self._put_back.setdefault((seat, card), set()).update({seen} if seen else ())
        said: list[Announcement] = [TrickResumed(
            len(self.referee.tricks) + len(self.referee.missed) + 1, seat, card, seen, told)]
        for landed in since:
            said += self._landed(landed, unread)
        return said

    def _in_open_trick(self, seat: Seat, card: str) -> bool:
        """Whether ``card`` of ``seat`` was played in the trick still in progress (a card is only
        taken off the table mid-trick when the trick is being swept)."""
        if self.phase is not Phase.PLAYING:
            return False
        return any(s == seat and self._reads_as_played(s, str(c), card)
                   for s, c in self._open_plays())

    def _open_plays(self) -> list[tuple[Seat, Card]]:
        """The trick in play's plays by seat: those taken, and those landed but not taken
        yet (``_not_taken``)."""
        return [(p.seat, p.card) for p in self.referee.plays] \
            + [(e.seat, c) for e, c in self._not_taken()]

    def _not_taken(self) -> list[tuple[CardLanded, Card]]:
        """Plays landed but not taken yet: early ones, and ones awaiting a second look."""
        return self._waiting + list(self._unconfirmed.values())

    def _restore_known(self) -> list[Announcement]:
        """Score the dropped tricks whose cards never read are now each known by elimination
        (``Referee.only_card_left``, from the classifier's odds of them, and of what was read
        surely of their suit or rank), where the order of their plays is known: the cards are
        named (``CardKnown``) and the trick scored (``Referee.restore_trick``), so the running
        score is right again before the deal ends. The round after it, where it is not
        dropped too, must have been led, and by the trick's winner so (``Referee.leader_of``):
        else the cards are not what they seem (or, with the trump in doubt, the trump is not
        this one), and the trick stays dropped for the settlement at the deal's end."""
        if self.referee.phase is not DealPhase.PLAYING:
            return []
        said: list[Announcement] = []
        for dropped in [d for d in self._dropped if d is not None and len(d.orders) == 1]:
            order, odds = dropped.orders[0], dict(dropped.odds)
            gaps = [seat for seat, card in order if card is None]
            if not gaps or any(seat not in odds for seat in gaps) \
                    or dropped.round not in self.referee.missed:
                continue
            known = {seat: self.referee.only_card_left(odds[seat]) for seat in gaps}
            if any(card is None or not dropped.fits(seat, card) for seat, card in known.items()) \
                    or len(set(known.values())) != len(gaps):
                continue
            plays = [Play(seat, card if card is not None else known[seat]) for seat, card in order]
            following = dropped.round + 1
            if following <= ROUNDS and following not in self.referee.missed:
                after = self.referee.leader_of(following)
                assert self.referee.trump_suit is not None
                if after is None:
                    continue  # scored once the round after it is led, by its winner
                if Trick(tuple(plays)).winner(self.referee.trump_suit) != after:
                    continue  # its winner did not lead next: something was misread (or, with
                    # the trump in doubt, this is not the trump); the settlement weighs it
            self._dropped.remove(dropped)
            # (ruled out like a swept trick's cards; the last entry stays the last trick's)
            self._finished.insert(0, frozenset(str(card) for card in known.values()))
            said += [CardKnown(dropped.round, seat, str(card)) for seat, card in known.items()]
            said += cuts_named(dropped.round, [(p.seat, p.card) for p in plays], set(known),
                               self.referee.trump_suit)
            said += self.referee.restore_trick(dropped.round, plays)
        return said

    def _take_unproven(self) -> list[Announcement]:
        """The trick is being swept while plays that would prove cheating still await a
        sure look (``_unconfirmed``): each, in turn, read at ``min_confidence`` and not as a
        card in doubt, is taken as a play that proves nothing (``CardPlayed.unproven``), and
        the plays waiting behind it follow. The trick may so be scored after all."""
        said: list[Announcement] = []
        while self.phase is Phase.PLAYING and self.referee.phase is DealPhase.PLAYING:
            pending = self._unconfirmed.get(self.referee.to_play)
            if pending is None or pending[1] in self._doubted \
                    or pending[0].confidence < self.referee.min_confidence \
                    or pending[0].seat in self._held_sure:
                break
            event, card = pending
            del self._unconfirmed[event.seat]
            said += self._feed_play(event, card, unproven=True)
            if event.seat in self._unconfirmed:  # turned away all the same
                break
            said += self._play_waiting()
        return said

    def _abandon(self) -> list[Announcement]:
        """Nobody can be judged on a trick whose cards were not all read: it is dropped, the
        next card played leads, and the deal ends without a verdict on its score. The plays
        read in it still count as played (``Referee.abandon_trick``): a revoke among them is
        proven later like any other. (Plays read well enough to play, held back only because
        they would prove cheating unsurely, are taken first: ``_take_unproven``.)"""
        said = self._take_unproven()
        if self.phase is not Phase.PLAYING or not (self.referee.plays or self._not_taken()):
            return said  # the trick was scored after all
        return said + self._drop()

    def _swept(self) -> list[Announcement]:
        """The whole table looks as it did empty: a trick still open was swept. Either the
        tracker still holds one of its cards (the next card went down where it lay before
        that zone was seen empty long enough to clear: ``_abandon``), or a card lay unread in
        every zone and none was read (a trick went by unread: dropped, so that the next is
        counted as the next). From now on a card of the last trick put down again is a new
        card (``_just_played``)."""
        said: list[Announcement] = []
        if self.phase is Phase.PLAYING and (self.referee.plays or self._not_taken()):
            said = self._abandon()
        elif self.phase in (Phase.TRUMP_SHOWN, Phase.PLAYING) \
                and len(self._unread_in_trick) == len(SEATS):
            self.phase = Phase.PLAYING
            said = self._drop()
        self._swept_since = True
        return said

    def _drop(self) -> list[Announcement]:
        """The trick in progress is dropped (``_abandon``)."""
        doubts = self._doubt_waiting()
        pending = tuple(f"{e.seat.number}:{c}" for e, c in self._not_taken())
        # the plays that waited behind the card never read were played all the same
        waited = self._waiting + self._held()
        late = [CardPlayed(e.seat, c, e.confidence, e.looks >= 2, odds=_odds_of(e))
                for e, c in waited]
        unread = self._unread_on_two_looks()
        self._dropped.append(self._cards_short())
        if self._dropped[-1] is not None:
            self.courts_unread += sum(_court_share(odds) >= 0.5
                                      for _, odds in self._dropped[-1].odds)
        self._finished.append(frozenset(str(card) for _, card in self._read_in_trick()))
        self._last_dropped = True
        misread = frozenset(self._misread_now)
        self._waiting = []
        self._unconfirmed = {}
        self._misread_now, self._held_sure = {}, set()
        self._trick_over()
        said = doubts + self._settle(self.referee.abandon_trick(pending, late, unread,
                                                                misread))
        # those the referee took as played (``Referee._take_late``) are taken, like the
        # plays the trick had taken before it was dropped
        took = {id(play) for play in self.referee.late_taken}
        self.taken += [e for (e, _), play in zip(waited, late) if id(play) in took]
        for a in said:
            if isinstance(a, GameOver):
                self.phase = Phase.DEAL_OVER
                if not isinstance(a, GameIncomplete):
                    said = said + [self.match.record(a)]
        return said

    def _unread_on_two_looks(self) -> list[tuple[Seat, tuple[tuple[str, float], ...]]]:
        """The cards never read of the trick being dropped, of seats none of whose cards was
        read in it, with the last of the classifier's odds of them that rested on two fresh
        looks or more (no other card seen there since): what ``Referee.abandon_trick`` may
        learn a failure to follow from. (A play read but awaiting a second look is left out:
        it was seen once.)"""
        seen = {p.seat for p in self.referee.plays} | {e.seat for e, _ in self._not_taken()}
        out = []
        for seat, (since, odds) in self._gap_looked.items():
            last_since, last_odds = self._gap_odds.get(seat, (None, None))
            if odds is not None and seat not in seen and last_since == since \
                    and last_odds is not None:
                out.append((seat, odds))
        return out

    def _doubt_waiting(self) -> list[Announcement]:
        """Plays of the trick being dropped that waited (behind a card never read) and are
        read as a card taken in an earlier round on a reading under ``accuse_confidence``: one
        of the two readings is wrong (``_withdraw_misread``). A waiting play read surely on two
        looks keeps its card; one read no more surely becomes a gap of this trick, weighed by
        how it was read (it waits no longer: it is moved among the plays awaiting a look)."""
        said: list[Announcement] = []
        for event, card in list(self._waiting):
            sure = self._sure(event.looks >= 2, event.confidence)
            withdrawn = self._withdraw_misread(card, sure)
            if withdrawn and not sure:
                self._waiting.remove((event, card))
                self._unconfirmed[event.seat] = (event, card)
            said += withdrawn
        return said

    def _cards_short(self) -> Dropped | None:
        """The trick being dropped as a ``Dropped``: its seats in the order of play from who
        led, the cards read in the order they came down, a gap for each seat never read.
        Where who led was a guess, each seat may have led that fits the order the cards read
        came down in (``orders``; every seat, where no card of the trick was read), and the
        deal's scoring again (``_settle``) tells them apart."""
        cards_read = self._read_in_trick()
        seen = [seat for seat, _ in cards_read]
        # after a dropped trick the first card read was taken to lead, but the true lead may
        # be a card never read
        leader = self.referee.leader if self.referee.lead_known else None
        # (a trick of which no card was read is still four gaps in the order of play: from
        # the seat that led, if that is known, or else from each seat)
        orders = []
        firsts = [leader] if leader is not None else self.order.seats_from(
            seen[0] if seen else self.order.dealer)
        read = dict(cards_read)
        for first in firsts:
            plays = [(seat, read.get(seat)) for seat in self.order.seats_from(first)]
            # (with who led known, the seats' order is the play's, whatever order the cards
            # were read in: one read unsurely at first may land after the next seat's)
            if leader is not None or [seat for seat, card in plays if card is not None] == seen:
                orders.append(tuple(plays))
        if not orders:
            return None
        parts = tuple((seat, part) for seat, (_, part) in self._gap_parts.items()
                      if part is not None and seat not in seen)
        # a play awaiting a second look that never came is a card not read surely: a gap,
        # weighed by how it was read when it landed
        odds = tuple((seat, odd) for seat, (_, odd) in self._gap_odds.items()
                     if odd is not None and seat not in seen and seat not in self._unconfirmed) \
            + tuple((seat, e.odds) for seat, (e, _) in self._unconfirmed.items()
                    if e.odds and seat not in self._held_sure) \
            + tuple((seat, _odds_of(e)) for seat, e in self._misread_now.items() if e.odds)
        return Dropped(self.referee.round, tuple(orders), parts, odds)

    def _read_in_trick(self) -> list[tuple[Seat, Card]]:
        """The cards read of the trick in progress, by seat, in the order they came down: the
        plays taken (but those a sure play showed misread: gaps) and those that waited (the
        sure plays held back among them)."""
        return [(p.seat, p.card) for p in self.referee.plays if p.seat not in self._misread_now] \
            + [(e.seat, c) for e, c in self._waiting + self._held()]

    def _held(self) -> list[tuple[CardLanded, Card]]:
        """The sure plays held back because they show a play of the open trick misread
        (``_misread_in_trick``)."""
        return [self._unconfirmed[seat] for seat in self._held_sure if seat in self._unconfirmed]

    def _settle(self, said: list[Announcement]) -> list[Announcement]:
        """``said`` with the deal settled from its dropped tricks where the rest of the deal
        allows (``vision.settlement``). Where no way of putting the cards never read back in
        their places fits the play, that is noted (``_no_way_fits``): a deal refereed under a
        trump in doubt then rules that trump out, as a call out of turn under it does."""
        settlement = Settlement(self.referee, self.order, self.match.rules)
        settled = settlement.settle(said, self._dropped)
        if settlement.no_way_fits and self._no_way_fits is None:
            self._no_way_fits = (f"no way of putting back the cards never read in "
                                 f"{in_rounds(tuple(self.referee.missed))} fits the play")
        return settled

    def _count_sweeps(self, busy: bool) -> list[Announcement]:
        """In a deal whose trump was not read: a table that had cards and has none now was
        swept; after the deal's last round the deal ends, with no verdict."""
        if busy:
            self._table_busy = True
            return []
        if not self._table_busy:
            return []
        self._table_busy = False
        self._sweeps += 1
        if self._sweeps < ROUNDS:
            return []
        self.phase = Phase.DEAL_OVER
        return [GameIncomplete((0, 0), Outcome.from_score((0, 0)), None,
                               tuple(range(1, ROUNDS + 1)))]

    def leanings(self, on_table: Mapping[Seat, str] | None = None,
                 ) -> dict[Seat, dict[str, float]]:
        """How many times likelier the game makes the card each seat has put down, or will,
        to be each card (those not named: once), for the classifier to weigh into a reading
        it is unsure of: surely enough to be a play, never to accuse on
        (``CardClassifier.read``). A card that another zone holds (``on_table``: the cards
        the tracker holds, by seat) is none of the others (0). Players follow suit when they
        can (``Referee.following``):

        - a seat yet to play in the trick in progress: each card of the lead's suit not seen
          in this deal, up to the rules' ``follow_suit`` times (a black three read unsurely
          between the three of spades and of clubs on a spade lead is the three of spades);
        - a lead put down but not read, while the next seats' cards wait for it: each card of
          a suit as many times likelier as those cards would be if they followed that suit
          rather than strayed from it, each at most ``follow_suit`` (a black three led, and
          the seven and six of spades after it, is the three of spades);
        - any seat yet to play in the trick (the leader's too): what lies still in its zone is
          a card, "not a card" ``DUE_IS_A_CARD`` times less likely (a penguin ace of spades
          led, read KC 0.38, AS 0.12, "not a card" 0.08 with the kings and queen of clubs
          played, is the ace of spades at 0.76, not 0.52). (``follow_suit: 1`` weighs
          nothing, this included.)"""
        if self._candidates:
            return self._candidates[0].table.leanings(on_table)
        if self.phase is not Phase.PLAYING:
            return {}
        leanings: dict[Seat, dict[str, float]] = {}
        most = self.rules.referee.follow_suit
        for seat in SEATS:
            follows = self.referee.following(seat, STRAY) if most > 1 else None
            if follows is not None:
                cards, times = follows
                leanings[seat] = dict.fromkeys(map(str, cards), min(times, most))
        leader = self.referee.to_play
        if not self.referee.plays and leader is not None and self._waiting and most > 1:
            suits = dict.fromkeys(Suit, 1.0)
            for event, card in self._waiting:
                follows = self.referee.following(event.seat, STRAY, lead=card.suit)
                if follows is not None:
                    suits[card.suit] *= min(follows[1], most)
            if any(times != 1.0 for times in suits.values()):
                leanings[leader] = {str(card): suits[card.suit] for card in SUECA_DECK}
        if most > 1:
            played = {play.seat for play in self.referee.plays}
            for seat in SEATS:
                if seat not in played:
                    leanings.setdefault(seat, {})[NOT_A_CARD] = 1.0 / DUE_IS_A_CARD
        for seat, card in (on_table or {}).items():
            if card in _SUECA:
                for other in self.order.seats_from(seat)[1:]:
                    leanings.setdefault(other, {})[card] = 0.0
        return leanings

    def ruled_out(self, on_table: Collection[str] = ()) -> frozenset[str]:
        """The cards no card lying on the table now can be: the ranks outside the Sueca deck,
        and the cards read in this deal's tricks that were scored or dropped (the last one's
        only once the table has been seen clear of it: until then its cards may still lie
        there, unread under a hand), less any card a zone holds (``on_table``). A card read
        unsurely between one of them and another is the other (``CardClassifier.read``); one
        read surely as one of them is still read as it (a card played twice)."""
        if self._candidates:
            return self._candidates[0].table.ruled_out(on_table)
        swept = self._finished if self.phase is not Phase.SWEEP else self._finished[:-1]
        gone = frozenset().union(*swept)
        return (_NOT_SUECA | gone) - set(on_table)

    def _cleared(self, event: ZoneCleared) -> None:
        if self.phase is Phase.TRUMP_SHOWN and event.seat == self.order.dealer:
            self.phase = Phase.PLAYING  # the dealer took the trump card back

    def _next_deal(self) -> None:
        lifted = self._lifted  # (the last trick taken for swept may be a card picked up)
        self.order = self.order.next_deal()
        self.deal += 1
        self._new_deal()
        self._lifted = lifted

    @property
    def tricks_done(self) -> int:
        """Tricks of this deal that are over, scored or dropped."""
        if self._candidates:
            return self._candidates[0].table.tricks_done
        return len(self.referee.tricks) + len(self.referee.missed)

    @property
    def plays_taken(self) -> list[CardLanded]:
        """The landings taken as plays, in order (with the trump in doubt: as the likeliest
        card has them)."""
        return self._candidates[0].table.plays_taken if self._candidates else self.taken

    @property
    def is_over(self) -> bool:
        if self._candidates:
            return all(c.table.is_over for c in self._candidates)
        return self.phase is Phase.DEAL_OVER

    def state(self) -> dict[str, Any]:
        """What an overlay or a log needs to show where the game is (with the trump in
        doubt: as the likeliest card has it, the trump shown as each card it may be)."""
        if self._candidates:
            return {**self._candidates[0].table.state(),
                    "trump": " or ".join(_named(c.card) for c in self._candidates) + "?"}
        trump, suit = self.referee.trump, self.referee.trump_suit
        return {"phase": self.phase.value, "deal": self.deal, "tricks": self.tricks_done,
                "score": list(self.referee.score),
                "trick": [f"{p.seat.number}:{p.card}" for p in self.referee.plays],
                "trump": str(trump) if trump else suit.full_name if suit else None,
                "to_play": self.referee.to_play.number if self.referee.to_play else None}
