"""Reading a court card's suit with a network of its own, where the classifier knows its rank
but not its suit.

The classifier reads a card's suit from its index corners and its pips. A court card gives it
less to go by: kde-penguins draws the same figure in all four suits, jolly-royal and lattmann
print small signs, and a figure the classifier has never seen leaves it unsure of the suit as
well as the rank (on the studio's crops of guyenne-classic's court cards it names the right
suit three times in four). Suit signs are drawn much alike in every design. The suit reader
(``models/suits.onnx``, trained by ``python -m vision.train suits`` on all 52 cards of the
train designs and the made-up ones) is the portrait reader's network taught the suit, at the
same 96x144 crop; on the test designs' crops it reads the suit of 96-99 % of the cards right.

Its reading shares out again, among the four suits, each rank's probability in a reading:
how the classifier shares its reading among the ranks, and what it gives a card back or "not a
card", is kept. It weighs in only where the classifier is unsure of the card (under
``LOOK_AGAIN``, 0.9) and reads it mostly as a court card (``vision.portraits.weighed``) whose
rank it is sure of (``RANK_SURE``): a card whose only doubt is its suit. Where the rank is in
doubt too, a suit made sure leaves the card as sure as its rank, and the rank of a figure the
classifier does not know, however the portrait reader weighs it, is not sure enough for that
(guyenne-classic's court cards became plays of the wrong rank, and a trick was scored
wrongly). And it only makes the classifier surer of the suit it already leans to, never
turns it to another (``share_out``). Measured in docs/recognition.md (seventy-third session).

Where the rank is in doubt too, the reader's suit goes into the card's odds alone
(``CardClassifier.read``): what it is read as is untouched, but a deal's end weighs the ways
of putting its cards never read surely back by those odds, and a revoke rests on suits alone
(seventy-fifth session).

A suit it makes surer than the referee's ``at_most`` (a play, never proof of cheating) is
mixed back with the reading it weighed until that suit is ``at_most`` sure
(``held_to_suit``): a revoke rests on a suit, and the reader is right about nearly every suit,
not surely enough to accuse anyone on.
"""

from __future__ import annotations

import numpy as np

from .cardclasses import CARD_CLASSES, CLASSES, SUITS, part_fits
from .portraits import SecondReader
from .portraits import weighed as court_rows

# the suit reader weighs in only where the classifier reads the rank at least this surely
RANK_SURE = 0.9
# (classes, suits): which classes are cards of each suit; then the classes of the cards, of
# each rank (the rows) and suit (the columns, in the order of ``SUITS``)
_SUIT_OF = np.array([[name in CARD_CLASSES and part_fits(suit, name) for suit in SUITS]
                     for name in CLASSES], np.float32)
_BY_RANK = np.array([[CLASSES.index(rank + suit) for suit in SUITS]
                     for rank in dict.fromkeys(name[:-1] for name in CARD_CLASSES)])


def weighed(probs: np.ndarray, below: float) -> np.ndarray:
    """The rows of ``probs`` the suit reader weighs in on: read under ``below``, with at least
    ``vision.portraits.COURT_AT_LEAST`` on court cards (``vision.portraits.weighed``), and
    their rank read at least ``RANK_SURE`` (its cards summed over the suits): a card whose
    only doubt is its suit."""
    rows = court_rows(probs, below)
    ranks = probs[np.ix_(rows, _BY_RANK.ravel())].reshape(len(rows), *_BY_RANK.shape)
    return rows[ranks.sum(axis=2).max(axis=1) >= RANK_SURE]


def share_out(probs: np.ndarray, rows: np.ndarray, suits: np.ndarray) -> None:
    """Multiply each card class of ``probs[rows]`` by the reader's probability of its suit
    (``suits``, (len(rows), 4)), then scale each rank's cards back to the total they had. A
    rank whose cards the reading gives nothing once weighed is left as it was, and so is a
    reading whose likeliest suit the reader does not find likeliest too: the reader makes the
    classifier surer of a suit, never of another one (it reads kde-jolly-royal's black court
    cards less well than the classifier, and turned a king of clubs the classifier read KC
    0.84 into a play of the KS)."""
    agree = suits.argmax(axis=1) == suit_totals(probs[rows]).argmax(axis=1)
    rows, suits = rows[agree], suits[agree]
    if len(rows) == 0:
        return
    cards = probs[np.ix_(rows, _BY_RANK.ravel())].reshape(len(rows), *_BY_RANK.shape)
    before = cards.sum(axis=2, keepdims=True)
    after = cards * suits[:, None, :]
    total = after.sum(axis=2, keepdims=True)
    keep = np.broadcast_to(total <= 1e-12, after.shape)
    after = np.where(keep, cards, after * (before / np.maximum(total, 1e-12)))
    probs[np.ix_(rows, _BY_RANK.ravel())] = after.reshape(len(rows), -1)


def suit_totals(probs: np.ndarray) -> np.ndarray:
    """(N, 4): each reading's probability of each suit, its cards of that suit summed."""
    return probs @ _SUIT_OF


def held_to_suit(probs: np.ndarray, before: np.ndarray, rows: np.ndarray,
                 at_most: float) -> None:
    """Mix each of ``rows`` of ``probs`` (weighed by the suit reader) back with the reading
    the reader weighed (that row of ``before``) until its likeliest suit is at most
    ``at_most`` sure, or as sure as it was before where that is surer, in place."""
    weighed_suits, own = suit_totals(probs[rows]), suit_totals(before[rows])
    best = weighed_suits.argmax(axis=1)
    top = weighed_suits[np.arange(len(rows)), best]
    was = own[np.arange(len(rows)), best]
    cap = np.maximum(at_most, was)
    over = top > cap + 1e-6
    if not over.any():
        return
    share = np.clip((cap[over] - was[over]) / (top[over] - was[over]), 0.0, 1.0)[:, None]
    mixed = rows[over]
    probs[mixed] = share * probs[mixed] + (1.0 - share) * before[mixed]


class SuitReader(SecondReader):
    """Reads a card's suit (clubs, diamonds, hearts or spades) from the whole card."""

    labels = SUITS
    what = "suits"
    weighed = staticmethod(weighed)
    share_out = staticmethod(share_out)
