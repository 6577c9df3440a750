"""Learning the deck in play: after a deal whose every card is known, its court cards (and the
aces the classifier was unsure of) are kept as if the players had shown them
(``vision.deck``), and the deals after it are read with them.

The classifier reads an unfamiliar design's court cards unsurely (their portraits are new to
it), and the referee then asks for them again, or drops their tricks. Shown the deck first,
it reads them by their pictures. A deal refereed to its end shows the deck too: every card of
it is played once, forty cards in all. Where each of the forty is known at the end, taken as a
play or worked out from the deck (``CardDeduced``), and none twice, a card misread would have
to be the card misread as it in turn, so the deal's cards are what they were taken for: their
crops, cut out as they came to rest (or, for a card never read, as it last lay still), are a
deck. Court cards and aces only, as the deck a player shows holds: number cards are alike in
every design, and one seven correlates with the six about as well as with another seven.

Nothing is learnt from a deal with a card unaccounted for (a score settled several ways, a
trick dropped and not settled, a card seen twice), and a deck shown (``--deck``) is never
replaced. The learnt deck can be saved (``--save-deck``) and shown in a later session.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from referee.cards import SUECA_DECK
from referee.events import Announcement, GameOver, TrickMissed, TrickWithdrawn, TrickWon
from referee.seats import SEATS, Seat

from .announcements import CardDeduced, Said
from .cardclasses import BACK, CLASSES, NOT_A_CARD
from .deck import ACES, PLAIN_ACE, SHOWN, Deck
from .detections import CardDetections
from .geometry import rectify
from .track import CardLanded

_DECK = frozenset(str(card) for card in SUECA_DECK)
# crops kept of each card read: the surest is learnt, the others check what was learnt
KEPT = 2
# a kept crop the classifier reads as no card (or a back) this surely is no picture of a card:
# the bare table a card never read was last seen on (game 409's blank queen of clubs read as
# no card at 0.97)
NO_CARD = 0.9


@dataclass(frozen=True)
class DeckLearned(Announcement):
    """The deck's court cards (``cards``: those kept, with any aces read unsurely) were learnt
    from deal ``deal``, every card of which was known: from now on they are read by their
    pictures too, as if the players had shown them."""

    kind: ClassVar[str] = "deck_learned"
    deal: int
    cards: tuple[str, ...]

    @property
    def message(self) -> str:
        aces = [card for card in self.cards if card.startswith("A")]
        also = f" (and {', '.join(aces)})" if aces else ""
        return (f"Deck learnt from deal {self.deal}: its court cards{also} are now read by "
                "their pictures too")


class DeckLearner:
    """Keeps, over a deal, crops of each card as it lay read (``look``: the surest few) and of
    each card never read as it last lay still, and makes a ``Deck`` of them once a deal ends
    with all forty cards known (``heard``). ``classifier``: the ``CardClassifier`` whose crops
    these are, which checks the deck before it is kept (see ``_learn``)."""

    def __init__(self, classifier) -> None:  # noqa: ANN001
        self.classifier = classifier
        self.deck: Deck | None = None
        self._deal = 1
        self._new_deal()

    def _new_deal(self) -> None:
        # (seat, card) -> its crops as read on its surest looks: (confidence, crop), surest first
        self._read: dict[tuple[Seat, str], list[tuple[float, np.ndarray]]] = {}
        self._landed: set[tuple[Seat, str]] = set()  # the cards that came to rest
        self._unread: dict[Seat, tuple[int, np.ndarray]] = {}  # the last crop of each
        self._gaps: dict[tuple[int, Seat], np.ndarray] = {}  # (round, seat) never read
        self._rounds: dict[int, list[tuple[Seat, str | None]]] = {}
        self._deduced: dict[tuple[int, Seat], str] = {}
        self._trick_began = -1  # the frame the trick in progress began after

    def look(self, image: np.ndarray, frame: int, detections: CardDetections,
             unread: Iterable[Seat], events: Iterable[object],
             read: Collection[Seat]) -> None:
        """One frame: the crops of the cards that came to rest on it (``events``), and of the
        cards lying in the zones read afresh on it (``read``; ``unread``: those whose card is
        not read), as ``detections`` outline them. The other zones' detections were kept from
        an earlier frame, and their card may have gone since: game 3205's queen of diamonds,
        never read, was cut out along its old outline as the trick was swept (its zone not
        read on that frame), and the bare table was kept as its last look. Once a deck is
        learnt nothing more is kept (it is learnt once)."""
        if self.deck is not None:
            return
        landed = set()
        for event in events:
            if isinstance(event, CardLanded) and len(event.quad) == 4:
                self._landed.add((event.seat, event.card))
                self._keep((event.seat, event.card), event.confidence,
                           self._crop(image, np.array(event.quad, np.float32)))
                landed.add(event.seat)
        unread = set(unread)
        for i in range(len(detections)):
            seat, card = detections.seats[i], detections.cards[i]
            if seat not in read or seat in landed or not detections.whole[i]:
                continue  # (a card that came to rest on this frame is kept once)
            if seat in unread:
                self._unread[seat] = (frame, self._crop(image, detections.quads[i]))
            elif card is not None and (len(self._read.get((seat, card), [])) < KEPT or
                                       detections.confidence[i] > self._read[(seat, card)][-1][0]):
                self._keep((seat, card), float(detections.confidence[i]),
                           self._crop(image, detections.quads[i]))

    def _crop(self, image: np.ndarray, quad: np.ndarray) -> np.ndarray:
        """The card with outline ``quad`` cut out as the classifier reads it."""
        return rectify(image, quad, self.classifier.size, ordered=True)

    def _keep(self, key: tuple[Seat, str], confidence: float, crop: np.ndarray) -> None:
        """Keep ``crop`` among ``KEPT`` crops of card ``key``, surest first."""
        crops = self._read.setdefault(key, [])
        crops.append((confidence, crop))
        crops.sort(key=lambda item: -item[0])
        del crops[KEPT:]

    def heard(self, said: list[Said]) -> list[Said]:
        """Take in what the referee said on a frame; at the end of a deal, a ``DeckLearned``
        if its cards made a deck (none where a deck was shown or learnt already)."""
        out: list[Said] = []
        for item in said:
            a = item.announcement
            if isinstance(a, TrickMissed):
                seen = dict(entry.split(":") for entry in a.seen)
                for seat in SEATS:
                    last = self._unread.get(seat)
                    if str(seat.number) not in seen and last and last[0] > self._trick_began:
                        self._gaps[(a.round, seat)] = last[1]
                self._rounds[a.round] = [(Seat(int(n)), card) for n, card in seen.items()]
                self._trick_began = item.frame
            elif isinstance(a, CardDeduced):  # (and ``CardKnown``, its trick scored next)
                self._deduced[(a.round, a.seat)] = a.card
                last = self._unread.get(a.seat)
                if (a.round, a.seat) not in self._gaps and last:
                    self._gaps[(a.round, a.seat)] = last[1]
            elif isinstance(a, TrickWon):
                self._rounds[a.round] = [(p.seat, str(p.card)) for p in a.trick.plays]
                self._trick_began = item.frame
            elif isinstance(a, TrickWithdrawn):
                self._rounds.pop(a.round, None)
            elif isinstance(a, GameOver):
                learnt = self._learn(item) if self.deck is None else None
                if learnt is not None:
                    out.append(learnt)
                self._deal += 1
                self._new_deal()
        return out

    def _learn(self, over: Said) -> Said | None:
        """The deck the deal's cards make, as a ``DeckLearned``; None where some card of the
        deal is not known, or known twice, or a court card's crop is missing."""
        cards: dict[str, list[tuple[float, np.ndarray]]] = {}
        for round_ in range(1, 11):
            plays = self._rounds.get(round_)
            if plays is None:
                return None
            seats = {seat for seat, _ in plays}
            plays = plays + [(seat, card) for (r, seat), card in self._deduced.items()
                             if r == round_ and seat not in seats]
            if len(plays) != 4:
                return None
            for seat, card in plays:
                if card is None or card in cards:
                    return None
                gap = self._gaps.get((round_, seat))
                cards[card] = self._read.get((seat, card)) if (seat, card) in self._landed \
                    else [(0.0, gap)] if gap is not None else []
        if set(cards) != _DECK or not all(cards[card] for card in SHOWN):
            return None
        if all(cards[card][0][0] >= PLAIN_ACE for card in SHOWN):
            return None  # the classifier reads this design's court cards surely: no need
        kept = list(SHOWN) + [ace for ace in ACES if cards[ace] and cards[ace][0][0] < PLAIN_ACE]
        crops = np.stack([cards[card][0][1] for card in kept])
        # a card never read is kept as it last lay still, and that look may have missed it
        # (the zone's last crop taken once the card had gone): a crop the classifier reads
        # surely as no card, or as a card's back, is no picture of the card, and nothing is
        # learnt. (Unsurely is not enough: kde-penguins' penguin ace of spades, a card drawn
        # its own way that the deck is there to keep, reads as "not a card" at 0.35.)
        probs = self.classifier.probabilities(crops)
        if (probs[:, [CLASSES.index(NOT_A_CARD), CLASSES.index(BACK)]] >= NO_CARD).any():
            return None
        deck = Deck(kept, crops, f"learnt in play from deal {self._deal}", learnt=True)
        # the deck must never read a card's other look (its next surest) as another card it
        # keeps: a crop kept askew, or look-alike cards it cannot tell apart, and nothing is
        # learnt. (A poor look, a hand over it, that the deck leaves to the classifier, which
        # takes it for a number card or none, says nothing of the deck.)
        others = [(card, crop) for card in kept for _, crop in cards[card][1:]]
        if others:
            crops = np.stack([crop for _, crop in others])
            probs = self.classifier.probabilities(crops)
            deck.weigh(crops, probs)
            read = [CLASSES[int(i)] for i in probs.argmax(axis=1)]
            if any(name != card and name in kept for (card, _), name in zip(others, read)):
                return None
        self.deck = deck
        return Said(over.frame, over.time_s, DeckLearned(self._deal, tuple(kept)))
