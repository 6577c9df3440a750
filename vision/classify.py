"""Read cards: the ONNX classifier run by onnxruntime on the CPU.

``CardClassifier.read(frame, detections)`` cuts every whole card out of the frame along its
outline, warps it upright to the model's input size and fills in ``cards`` and ``confidence``.
Its confidences are calibrated (the model's softmax carries a temperature fitted on the
validation designs), so a threshold such as the referee's 0.98 means what it says.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from referee.seats import Seat

from .cardclasses import BACK, CLASSES, CROP_SIZE, NOT_A_CARD, SUITS, part_fits
from .corners import back_likeness
from .deck import Deck
from .detections import CardDetections
from .geometry import rectify, runs_off
from .models import MODELS, crops_as_input, load_session
from .pips import PIP_WEIGHT, count_pips
from .portraits import PortraitReader, ReaderError, SecondReader
from .portraits import weighed as court_rows
from .suits import SuitReader, held_to_suit, share_out
from .suits import weighed as suit_rows


# how sure a reading of a pile's top card, whose sides did not all show, must be that it is a
# card back for the card to count as seen whole
BACK_SURE = 0.9
# how sure the classifier must be of a card's suit (its probabilities summed over the suit's
# cards), or of its rank, for that part of the card to count as read, whether or not the card
# itself is read surely
PART_SURE = 0.95
# A card read less surely than LOOK_AGAIN is read again from its outline turned a little either
# way about its middle (TURNS, degrees), and the three readings are pooled (geometric mean,
# renormalised): where the network latched onto an accident of one crop (its outline a pixel
# out, the sampling of a fine index) that counts for less. Cards read surely are read once,
# so a frame of clear cards costs no more. Chosen on 400 hard pictures of the *validation*
# designs (studio seed 3031): card accuracy 80.5 -> 81.3 %, read right at 0.9 62.8 ->
# 65.0 %, none more read wrongly at 0.9; eight outlines (bigger, smaller, shifted each way,
# turned) gained little more (81.5 %, 65.6 %) at four times the cost.
LOOK_AGAIN = 0.9
# A card seen slantwise on a photograph is read along both pairs of its sides, since the
# picture cannot tell which is the long one (``_turn_slanted``). Where both readings are at
# least TORN_SURE and name different cards (an eight of spades read sideways as the four of
# clubs at 0.95, and the right way up at 0.94), neither is trusted: the two are pooled, and
# the card is read unsurely. Chosen on the hard pictures of the test designs and the
# close-ups: cards read wrongly at 0.9, 1 -> 0 and 3 -> 2, none read right lost; at 0.7 or
# 0.5 more are caught, but right readings are lost too.
TORN_SURE = 0.9
TURNS = (4.0, -4.0)
# A card read less surely than LOOK_AGAIN whose four corners look alike (``vision.corners``:
# a back prints no index) is made BACK_WEIGHT times likelier a card back where its corner score
# reaches LIKE_A_BACK, unless it is read likeliest as "not a card" (a hand, a patch of table:
# anything plain has corners alike), and no surer of the back than BACK_AT_MOST (or than the
# classifier was): the corners may make a reading a back, never a sure one, since a face whose
# index does not show (a card in the dark) has corners alike too. Chosen on 400 hard pictures
# of the *validation* designs (studio seed 3031): cards read right 88.51 -> 88.90 %, backs
# 56 -> 61 of 93, nothing else changed; LIKE_A_BACK -3.4 to -3.2 and weights 5 to 30 (one
# weight, or a second above -2.8) read alike, -3.0 a card fewer. Without the cap a real
# webcam photograph's dark two of hearts was read as a back at 0.96; without the exception
# hands and table became backs there and in the close-ups. (Cut along their labelled
# outlines, 42 % of those 93 backs score -2.5 or more and one of 1,186 faces, a seven.)
LIKE_A_BACK = -3.2
BACK_WEIGHT = 10.0
BACK_AT_MOST = 0.85
# the class indices of the cards of each suit, then of each rank
_CARDS = [(i, c) for i, c in enumerate(CLASSES) if c not in (BACK, NOT_A_CARD)]
# what a reading keeps of the classifier's odds (``CardDetections.odds``): its likeliest cards,
# at most this many, each at least this likely
ODDS_KEPT, ODDS_LEAST = 6, 0.001
_CLASS_INDEX = {name: i for i, name in enumerate(CLASSES)}
_CARD_INDEX = np.array([i for i, _ in _CARDS])
_CARD_SET = frozenset(_CARD_INDEX.tolist())
_CARD_OR_BACK = np.array([i for i, c in enumerate(CLASSES) if c != NOT_A_CARD])
_CARD_OR_NONE = np.array([i for i, c in enumerate(CLASSES) if c != BACK])
_NONE = CLASSES.index(NOT_A_CARD)
_BACK = CLASSES.index(BACK)
_CARD_NAMES = [c for _, c in _CARDS]
_PART_CLASSES = {part: np.array([i for i, c in _CARDS if part_fits(part, c)])
                 for part in SUITS + tuple(dict.fromkeys(c[:-1] for _, c in _CARDS))}
# (classes, ranks): which classes are cards of each rank
_RANKS = np.stack([np.isin(np.arange(len(CLASSES)), _PART_CLASSES[rank])
                   for rank in dict.fromkeys(c[:-1] for _, c in _CARDS)], axis=1).astype(np.float32)


class ClassifierError(RuntimeError):
    """The classifier model is missing or broken."""


class CardClassifier:
    def __init__(self, model: Path | str = MODELS / "cards.onnx",
                 threads: int | None = None, deck: Deck | None = None,
                 portraits: bool = True, suits: bool = True) -> None:
        """``threads``: onnxruntime threads (default: up to two, which bring four cards read
        both ways from about 7.7 to 4.5 ms on a 2-core machine; give 1 when several processes
        share the cores). ``deck``: the court cards of the deck in play, as shown to the
        referee (``vision.deck``); every reading is weighed by how alike they look.
        ``portraits``: weigh the portrait reader (``vision.portraits``) into unsure readings
        of court cards, where its model lies beside the classifier's (``portraits.onnx``; a
        models folder without one is read without it). ``suits``: weigh the suit reader
        (``vision.suits``, ``suits.onnx`` beside the classifier's) into unsure readings of
        court cards whose rank is read surely, in the same way."""
        self.deck = deck
        path = Path(model)
        self.session = load_session(path, threads, "classifier", ClassifierError)
        self.portraits = _reader_beside(path, PortraitReader, threads) if portraits else None
        self.suits = _reader_beside(path, SuitReader, threads) if suits else None
        # the models this project exports read each crop both ways themselves (sharing the
        # work on the index corners); an older model is given each crop twice here
        meta = self.session.get_modelmeta().custom_metadata_map
        self.turn_here = meta.get("both_ways") != "1"
        model_input = self.session.get_inputs()[0]
        self.input_name = model_input.name
        height, width = model_input.shape[2:]
        # the crop size is the model's own, so a model trained at another size still works
        self.size = (int(width), int(height)) if isinstance(width, int) else CROP_SIZE
        outputs = self.session.get_outputs()[0].shape
        if len(outputs) != 2 or outputs[-1] != len(CLASSES):
            raise ClassifierError(f"classifier model '{path}' gives {outputs}, expected a "
                                  f"probability for each of the {len(CLASSES)} classes")
        # OpenCV builds its tables for Lab colour on the first conversion (about 90 ms here):
        # built now, so that the first card read unsurely (its pips counted in Lab,
        # vision.pips) does not stall a live frame or a replay
        cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(N, classes) probabilities for (N, H, W, 3) BGR uint8 crops of ``self.size``.

        A card reads the same either way up, so each crop is also read turned half round, and
        the two readings are averaged: where the two views disagree (the network has latched
        onto something that is not the card's identity) the average is unsure, and the referee
        asks for the card again instead of trusting one confident view."""
        if len(crops) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        if self.turn_here:
            crops = np.concatenate([crops, crops[:, ::-1, ::-1]])
        probs = self.session.run(None, {self.input_name: crops_as_input(crops)})[0]
        if self.turn_here:
            n = len(probs) // 2
            probs = (probs[:n] + probs[n:]) / 2
        return probs

    def classify(self, crops: np.ndarray, ruled_out: Collection[str] = (), below: float = 1.0,
                 at_most: float = 1.0) -> tuple[list[str], np.ndarray]:
        """The best reading of each crop and its confidence. ``ruled_out``: cards that cannot
        lie there (the game's deck lacks them, or they were played and swept away). A reading
        under ``below`` is taken again among the other classes, the model's probabilities
        shared out over them, and is then at most ``at_most`` sure: sure enough to be a play,
        never to prove cheating on. A reading at or above ``below`` stands as it is, so a card
        played twice is still read as itself."""
        probs = self.probabilities(crops)
        self._weigh_by_deck(crops, probs, at_most)
        return self._classify(probs, ruled_out, below, at_most)

    def _weigh_by_deck(self, crops: np.ndarray, probs: np.ndarray, at_most: float) -> None:
        """Weigh ``probs`` in place by the deck shown, if any (``Deck.weigh``). Where that makes
        a crop another card than the classifier read it as, the deck's reading is mixed back
        with the classifier's until it is at most ``at_most`` sure: enough to be a play, never
        to prove cheating on. A crop can look much like a kept card it is not (a wreathed
        ace of clubs like a plain ace of spades kept, whose own ace is not), and on two looks
        alike the deck would be as sure both times: one classifier's fine-tune read bellot's
        ace of clubs 0.76-0.84 as itself, the deck made it the ace of spades at 0.999, and
        four false accusations followed in one game.

        A deck learnt in play (``Deck.learnt``) makes no reading surer than ``at_most`` at all,
        though it be the classifier's own likeliest: its crops are the camera's, cut out in
        play, and a card never read among them only as it last lay still. Look-alike court
        cards it tells apart by their suit signs on those crops (kde-jolly-royal's one
        picture on all four jacks): game 3202, read with the deck learnt from game 3208,
        took seat 1's JC, read likeliest as the JS, as the JS at 0.98 or more on two looks,
        and the true JS played in round 10 was called a card played twice."""
        if self.deck is None:
            return
        alone = probs.copy()
        self.deck.weigh(crops, probs)
        best = probs.argmax(axis=1)
        raised = probs.max(axis=1) > at_most
        held = raised & (best != alone.argmax(axis=1))
        if self.deck.learnt:
            held |= raised & (alone[np.arange(len(best)), best] < at_most)
        _held_to(probs, alone, np.flatnonzero(held), at_most)

    def _weigh_by_readers(self, frame: np.ndarray, quads: np.ndarray, probs: np.ndarray,
                          at_most: float) -> tuple[np.ndarray, np.ndarray] | None:
        """Weigh ``probs`` in place by the second readers' readings of the cards outlined by
        ``quads`` where the classifier is unsure of a court card (``vision.portraits.weighed``),
        each card cut out once for both: the portrait reader's, and the suit reader's where
        the classifier reads the rank surely (``vision.suits.weighed``). A reading they make
        surer than ``at_most`` is mixed back with the classifier's own until it is ``at_most``
        sure, and so is a suit: enough to be a play, never to prove cheating on (the portrait
        reader is right about a guyenne-classic court card two times in three, not 99 in
        100).

        Returns the suit reader's reading (rows, (rows, 4)) of the court cards whose rank is
        in doubt too: it goes into their odds (``read``), not into what they are read as (a
        suit made sure leaves such a card as sure as its rank, and a play of the wrong rank
        was taken); None where there are none."""
        if self.portraits is None and self.suits is None:
            return None
        court = court_rows(probs, LOOK_AGAIN)
        if not len(court):
            return None
        crops = SecondReader.crops(frame, quads, court)
        alone = probs.copy()
        if self.portraits is not None:
            self.portraits.weigh(crops, probs, court)
        suits = doubt = None
        if self.suits is not None:
            suits = self.suits.read(crops)
            doubt = ~np.isin(court, suit_rows(alone, LOOK_AGAIN))  # its rank in doubt too
            if not doubt.all():
                rows = court[~doubt]
                # (only what the suit reader did to a suit is held back: the portrait's work
                # stays)
                weighed = probs.copy()
                share_out(probs, rows, suits[~doubt])
                held_to_suit(probs, weighed, rows, at_most)
        _held_to(probs, alone, court[probs[court].max(axis=1) > at_most], at_most)
        if suits is None or doubt is None or not doubt.any():
            return None
        return court[doubt], suits[doubt]

    @staticmethod
    def _classify(probs: np.ndarray, ruled_out: Collection[str], below: float,
                  at_most: float, leaning: np.ndarray | None = None,
                  ) -> tuple[list[str], np.ndarray]:
        """``leaning``: (N, classes) how much likelier the game makes each card of each
        reading (``CardClassifier.read``; 0: it lies elsewhere), weighed in, as
        ``ruled_out``, only where the reading is under ``below``."""
        best = probs.argmax(axis=1)
        confidence = probs[np.arange(len(best)), best]
        unsure = np.flatnonzero(confidence < below)
        leans = leaning is not None and bool((leaning[unsure] != 1).any())
        if (ruled_out or leans) and len(unsure):
            allowed = np.array([c not in ruled_out for c in CLASSES], np.float32)
            again = probs[unsure] * allowed
            if leans:
                lean = leaning[unsure]
                again *= lean > 0  # a card that lies in another zone is not this one
                # the game tells a card's suit, never its rank: only a reading whose rank is
                # sure among the cards it may be (once those ruled out are left out) leans
                # to cards. What it says of "not a card" (a play is due: what lies there is a
                # card) weighs in everywhere, since it favours no card over another. A card
                # back's share stays as it was (a face-down card is no play of any suit)
                share = again[:, _CARD_INDEX].sum(axis=1)
                rank_sure = (again @ _RANKS).max(axis=1) >= below * np.maximum(share, 1e-12)
                weights = np.ones_like(lean)
                weights[:, _NONE] = lean[:, _NONE]
                weights[rank_sure] = lean[rank_sure]
                cards = again[:, _CARD_OR_NONE]
                leaned = cards * weights[:, _CARD_OR_NONE]
                again[:, _CARD_OR_NONE] = leaned * (
                    cards.sum(axis=1, keepdims=True)
                    / np.maximum(leaned.sum(axis=1, keepdims=True), 1e-12))
            again /= np.maximum(again.sum(axis=1, keepdims=True), 1e-12)
            best[unsure] = again.argmax(axis=1)
            confidence[unsure] = np.minimum(again.max(axis=1), at_most)
        return [CLASSES[i] for i in best], confidence

    def read(self, frame: np.ndarray, detections: CardDetections,
             ruled_out: Collection[str] = (), below: float = 1.0,
             at_most: float = 1.0,
             leaning: Mapping[Seat, Mapping[str, float]] | None = None,
             ) -> CardDetections:
        """Fill in what each whole card is; cards that are not whole stay unread. A card read as
        "not a card" keeps ``cards`` None and its confidence is that of "not a card". A card
        on top of a pile whose sides did not all show (``back_on_top``) is read too, and
        becomes whole only if it is surely a card back (at least ``BACK_SURE``). A ``slanted``
        card is also read along its other pair of sides (``_turn_slanted``), and a card read
        unsurely has its pips counted (``vision.pips``). A court card whose rank is in doubt
        has the suit reader's reading in its ``odds`` only (``_weigh_by_readers``).
        ``ruled_out``, ``below``, ``at_most``: as for ``classify``. ``leaning``: for a seat,
        how many times likelier the card in its zone is each card (those not named: once; 0:
        it is not that card, which lies in another zone), as the game expects
        (``TableReferee.leanings``); weighed in only where the reading is under ``below``
        (the cards it is not, always; the likelier ones where its rank is sure), and then it
        is at most ``at_most`` sure. Given a ``leaning`` (in a game, where a card is in the
        deck once), a card read at least ``below`` surely in one seat's zone is none of the
        cards read unsurely in the others (``_sure_elsewhere``)."""
        whole = np.flatnonzero(detections.whole | detections.back_on_top)
        if len(whole) == 0:
            return detections
        crops = np.stack([rectify(frame, detections.quads[i], self.size, ordered=True)
                          for i in whole])
        probs = self.probabilities(crops)
        self._turn_slanted(frame, detections, whole, crops, probs)
        self._fill_turned(frame, detections.quads[whole], probs)
        self._look_again(frame, detections.quads[whole], probs)
        suit_odds = self._weigh_by_readers(frame, detections.quads[whole], probs, at_most)
        self._weigh_by_deck(crops, probs, at_most)
        unsure = probs.max(axis=1) < LOOK_AGAIN
        weigh_by_pips(probs, [count_pips(crop) if doubt else None
                              for crop, doubt in zip(crops, unsure)])
        weigh_by_corners(probs, [back_likeness(crop) if doubt else None
                                 for crop, doubt in zip(crops, unsure)])
        odds_of = probs
        if suit_odds is not None:  # court cards whose rank is in doubt: their odds only
            odds_of = probs.copy()
            share_out(odds_of, *suit_odds)
        parts, odds = sure_parts(probs), card_odds(odds_of)
        weights = _leaning_weights(detections, whole, leaning)
        if leaning is not None:  # in a game, where a card is in the deck once
            weights = _sure_elsewhere(probs, [detections.seats[i] for i in whole], below,
                                      weights)
        names, confidence = self._classify(probs, ruled_out, below, at_most, weights)
        for i, name, conf, part, odd in zip(whole, names, confidence, parts, odds):
            if detections.back_on_top[i]:  # the mark, not ``whole``: read again, still so
                if name != BACK or conf < BACK_SURE:
                    continue  # unread, as any card not seen whole
                detections.whole[i] = True
            detections.cards[i] = None if name == NOT_A_CARD else name
            detections.confidence[i] = float(conf)
            detections.parts[i] = part
            detections.odds[i] = odd
        return detections

    def _turn_slanted(self, frame: np.ndarray, detections: CardDetections, whole: np.ndarray,
                      crops: np.ndarray, probs: np.ndarray) -> None:
        """Read each ``slanted`` card of ``whole`` (its indices in ``detections``) again along
        its outline turned a quarter round (its other pair of sides taken as the long one), and
        where that reading is the surer that it is a card (or a card back), keep it, in place:
        its outline in ``detections``, its crop in ``crops``, its reading in ``probs``. Where
        both readings are sure (``TORN_SURE``) but of different cards, the two are pooled."""
        turn = np.flatnonzero(detections.slanted[whole])
        if len(turn) == 0:
            return
        quads = np.roll(detections.quads[whole[turn]], -1, axis=1)
        turned = np.stack([rectify(frame, quad, self.size, ordered=True) for quad in quads])
        again = self.probabilities(turned)
        first = probs[turn]
        better = again[:, _CARD_OR_BACK].max(axis=1) > first[:, _CARD_OR_BACK].max(axis=1)
        # read surely as two cards, one each way: neither can be trusted (``TORN_SURE``)
        torn = ((first.argmax(axis=1) != again.argmax(axis=1))
                & (np.minimum(first.max(axis=1), again.max(axis=1)) >= TORN_SURE))
        for j in np.flatnonzero(better):
            detections.quads[whole[turn[j]]] = quads[j]
            crops[turn[j]], probs[turn[j]] = turned[j], again[j]
        if torn.any():
            probs[turn[torn]] = _pooled(np.stack([first[torn], again[torn]], axis=1))

    def _fill_turned(self, frame: np.ndarray, quads: np.ndarray, probs: np.ndarray) -> None:
        """Pool, in place, each reading of ``probs`` whose outline (of ``quads``) runs off the
        picture with the reading of the same card cut out with what runs off filled from the
        card turned half round (``rectify``'s ``turned_fill``). Only cards of a photograph
        that the picture's edge cuts, read along a guessed outline, run off it."""
        off = np.flatnonzero(runs_off(quads, frame.shape[1], frame.shape[0]))
        if len(off) == 0:
            return
        crops = np.stack([rectify(frame, quads[i], self.size, ordered=True, turned_fill=True)
                          for i in off])
        probs[off] = _pooled(np.stack([probs[off], self.probabilities(crops)], axis=1))

    def _look_again(self, frame: np.ndarray, quads: np.ndarray, probs: np.ndarray) -> None:
        """Pool, in place, each reading of ``probs`` under ``LOOK_AGAIN`` with the readings of
        the same card cut out along its outline (of ``quads``) turned by each of ``TURNS``."""
        unsure = np.flatnonzero(probs.max(axis=1) < LOOK_AGAIN)
        if len(unsure) == 0:
            return
        crops = np.stack([rectify(frame, look, self.size, ordered=True)
                          for i in unsure for look in _turned(quads[i])])
        more = self.probabilities(crops).reshape(len(unsure), len(TURNS), -1)
        probs[unsure] = _pooled(np.concatenate([probs[unsure, None], more], axis=1))


def _reader_beside(model: Path, kind: type[SecondReader], threads: int | None,
                   ) -> SecondReader | None:
    """The second reader of ``kind`` whose model lies beside the classifier's ``model``
    (``portraits.onnx``, ``suits.onnx``), or None where there is none."""
    beside = model.with_name(f"{kind.what}.onnx")
    if not beside.is_file():
        return None
    try:
        return kind(beside, threads)
    except ReaderError as error:
        raise ClassifierError(str(error)) from None


def _held_to(probs: np.ndarray, alone: np.ndarray, rows: np.ndarray, at_most: float) -> None:
    """Mix each of ``rows`` of ``probs`` (a reading that other evidence made surer than
    ``at_most``) back with the classifier's own reading of it (that row of ``alone``) until
    its likeliest card is ``at_most`` sure, in place."""
    best = probs[rows].argmax(axis=1)
    top = probs[rows, best]
    was = alone[rows, best]  # under ``at_most``: the classifier did not read it so surely
    # the share of the weighed reading kept, so that the card is ``at_most`` sure
    share = np.clip((at_most - was) / (top - was), 0.0, 1.0)[:, None]
    probs[rows] = share * probs[rows] + (1.0 - share) * alone[rows]


def _leaning_weights(detections: CardDetections, rows: np.ndarray,
                     leaning: Mapping[Seat, Mapping[str, float]] | None,
                     ) -> np.ndarray | None:
    """(len(rows), classes): for each card ``rows`` of ``detections``, how much likelier
    ``leaning`` makes each class by the card's seat zone (1 where it says nothing)."""
    if not leaning:
        return None
    weights = np.ones((len(rows), len(CLASSES)), np.float32)
    for k, i in enumerate(rows):
        for card, times in leaning.get(detections.seats[i], {}).items():
            weights[k, _CLASS_INDEX[card]] = times
    return weights


def _sure_elsewhere(probs: np.ndarray, seats: Sequence[Seat | None], below: float,
                    weights: np.ndarray | None) -> np.ndarray | None:
    """``weights`` (as ``_leaning_weights``'s, None: all 1) with, for each reading of
    ``probs`` in a seat's zone, a 0 for every card read at least ``below`` surely in another
    seat's zone in the same picture: a card is in the deck once, and a card that lies surely
    elsewhere is not this one (``_classify`` weighs that in where this reading is unsure, as it
    does a card another zone holds). Game 2250 of the studio's 640x480 clips: seat 3's 4C, read
    4C 0.6 / 4S 0.4 on a spade lead, leaned to the 4S and was played as it in the frame that
    seat 1's 4S, read 1.00 beside it, was: one trick held the 4S twice and was said won by
    the wrong seat. Readings outside every zone (a photograph, a pile) rule nothing out."""
    best = probs.argmax(axis=1)
    sure = {}  # card class -> the seats whose zones show it surely
    for k, (seat, card) in enumerate(zip(seats, best)):
        if seat is not None and card in _CARD_SET and probs[k, card] >= below:
            sure.setdefault(int(card), set()).add(seat)
    if not sure:
        return weights
    out = np.ones((len(seats), len(CLASSES)), np.float32) if weights is None \
        else weights.copy()
    for k, seat in enumerate(seats):
        if seat is None:
            continue
        for card, where in sure.items():
            if where - {seat}:
                out[k, card] = 0.0
    return out


def weigh_by_pips(probs: np.ndarray, counts: list[int | None]) -> None:
    """Make, in place, each reading of ``probs`` (N, classes) whose card's pips were counted
    (``counts``, ``vision.pips``) ``PIP_WEIGHT`` times likelier to be a card of that rank,
    and renormalise."""
    for row, count in zip(probs, counts):
        if count is not None:
            row[_PART_CLASSES[str(count)]] *= PIP_WEIGHT
            row /= row.sum()


def weigh_by_corners(probs: np.ndarray, likeness: list[float | None]) -> None:
    """Make, in place, each reading of ``probs`` (N, classes) whose card's corners look
    alike enough for a back (``likeness``, ``vision.corners``: None where not looked at) and
    that is not read likeliest as "not a card" ``BACK_WEIGHT`` times likelier to be a card
    back, renormalised, but no surer of the back than ``BACK_AT_MOST`` (or than it was)."""
    for row, score in zip(probs, likeness):
        if score is None or score < LIKE_A_BACK or row.argmax() == _NONE:
            continue
        was = row[_BACK]
        row[_BACK] *= BACK_WEIGHT
        row /= row.sum()
        cap = max(was, BACK_AT_MOST)
        if row[_BACK] > cap:
            row *= (1.0 - cap) / max(1.0 - row[_BACK], 1e-12)
            row[_BACK] = cap


def _pooled(readings: np.ndarray) -> np.ndarray:
    """The readings (N, K, classes) of each of N cards pooled: their geometric mean,
    renormalised, so what one reading alone saw counts for less."""
    logs = np.log(np.maximum(readings, 1e-9)).mean(axis=1)
    pooled = np.exp(logs - logs.max(axis=1, keepdims=True))
    return pooled / pooled.sum(axis=1, keepdims=True)


# the turns of TURNS as 2x2 matrices (transposed, to turn row vectors), worked out once
_TURNINGS = [cv2.getRotationMatrix2D((0.0, 0.0), degrees, 1.0)[:, :2].T for degrees in TURNS]


def _turned(quad: np.ndarray) -> list[np.ndarray]:
    """``quad`` (4x2) turned about its middle by each of ``TURNS`` degrees."""
    quad = np.asarray(quad, np.float64)
    middle = quad.mean(axis=0)
    return [(middle + (quad - middle) @ turning).astype(np.float32) for turning in _TURNINGS]


def card_odds(probs: np.ndarray) -> list[tuple[tuple[str, float], ...]]:
    """The likeliest cards of each reading (``probs``: the classifier's probabilities) with
    their probabilities, surest first: at most ``ODDS_KEPT``, none under ``ODDS_LEAST``. Of a
    card that is never read surely they still tell which of the cards it can be it looks most
    like (``vision.game``, at the end of a deal)."""
    cards = probs[:, _CARD_INDEX]
    order = np.argsort(-cards, axis=1)[:, :ODDS_KEPT]
    return [tuple((_CARD_NAMES[j], round(float(row[j]), 4)) for j in best
                  if row[j] >= ODDS_LEAST)
            for row, best in zip(cards, order)]


def sure_parts(probs: np.ndarray, sure: float = PART_SURE) -> list[str | None]:
    """What part of each card is read surely (``probs``: the classifier's probabilities): its
    suit (``S``), where the probabilities of that suit's cards add up to at least ``sure``,
    else its rank (``7``), where those of that rank's cards do; None where neither does. A
    court card whose rank the classifier cannot tell often shows its suit plainly, and a pip
    card whose black suit it cannot tell its rank."""
    names = list(_PART_CLASSES)
    sums = np.stack([probs[:, idx].sum(axis=1) for idx in _PART_CLASSES.values()], axis=1)
    suits, ranks = sums[:, :len(SUITS)], sums[:, len(SUITS):]
    out: list[str | None] = []
    for suit, rank in zip(suits, ranks):
        if suit.max() >= sure:
            out.append(names[int(suit.argmax())])
        elif rank.max() >= sure:
            out.append(names[len(SUITS) + int(rank.argmax())])
        else:
            out.append(None)
    return out


def as_crop(image: np.ndarray, size: tuple[int, int] = CROP_SIZE) -> np.ndarray:
    """A picture that is already one rectified card (the card fills it), as a classifier crop:
    turned upright if it is landscape, and resized to ``size`` (width, height)."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = image.shape[:2]
    if w > h:
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    width, height = size
    shrinking = image.shape[1] > width
    return cv2.resize(image, (width, height),
                      interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
