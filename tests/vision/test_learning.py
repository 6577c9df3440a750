"""Learning the deck in play (``vision.learning``), fed a scripted deal."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import SUECA_DECK, Card
from referee.events import GameOver, Outcome, TrickMissed, TrickWon
from referee.seats import Seat
from referee.tricks import Play, Trick
from vision.announcements import CardDeduced, Said
from vision.cardclasses import CLASSES
from vision.deck import SHOWN
from vision.detections import CardDetections
from vision.learning import DeckLearner
from vision.track import CardLanded

SIZE = (64, 96)
QUAD = ((0.0, 0.0), (64.0, 0.0), (64.0, 96.0), (0.0, 96.0))  # the whole picture
# the forty cards dealt into ten tricks, seat 1 leading each (who wins does not matter here)
DEAL = [[str(c) for c in SUECA_DECK[4 * r:4 * r + 4]] for r in range(10)]
# where the queen of spades lies in it: (round, seat)
QS = next((r + 1, cards.index("QS") + 1) for r, cards in enumerate(DEAL) if "QS" in cards)


class Reader:
    """A stand-in for the classifier: its crop size, and no opinion of any crop."""

    size = SIZE

    @staticmethod
    def probabilities(crops: np.ndarray) -> np.ndarray:
        return np.full((len(crops), len(CLASSES)), 1.0 / len(CLASSES), np.float32)


def picture(card: str) -> np.ndarray:
    """A picture of its own for each card, the same each time it is seen."""
    return np.random.default_rng(CLASSES.index(card)).integers(
        0, 255, (SIZE[1], SIZE[0], 3), dtype=np.uint8)


def _one(seat: int, card: str) -> CardDetections:
    return CardDetections(np.array([QUAD], np.float32), np.ones(1, np.float32),
                          np.ones(1, bool), [Seat(seat)], [card], np.array([0.95], np.float32))


def deal(learner: DeckLearner, sure: float = 0.95, gap: tuple[int, int] | None = None,
         deduce: bool = True, astray: tuple[str, str] | None = None,
         hear=None, gap_seen: np.ndarray | None = None,
         gap_then: np.ndarray | None = None) -> list[Said]:  # noqa: ANN001
    """Play ``DEAL`` to ``learner``: each card lands (court cards and aces read ``sure``, the
    others 0.999) and is looked at once more, its zone read each time; each trick is won.
    ``gap``: (round, seat) whose card is never read; its trick is swept unread (and, with
    ``deduce``, its card worked out at the end of the deal). ``astray``: (card, other): that
    card's second look shows the other card's picture (an outline cut across two cards, say).
    ``hear``: what the referee's announcements are given to (default: the learner's
    ``heard``). ``gap_seen``: what the last look at the card never read showed (default: its
    picture). ``gap_then``: a picture after that look, on a frame that reads other zones
    only (the card never read still outlined as it was last read)."""
    hear = hear or learner.heard
    said: list[Said] = []
    frame = 0
    for number, cards in enumerate(DEAL, start=1):
        plays = []
        for seat, card in enumerate(cards, start=1):
            frame += 10
            if gap == (number, seat):
                empty = CardDetections(np.array([QUAD], np.float32), np.ones(1, np.float32),
                                       np.ones(1, bool), [Seat(seat)], [None],
                                       np.zeros(1, np.float32))
                learner.look(picture(card) if gap_seen is None else gap_seen, frame, empty,
                             {Seat(seat)}, [], {Seat(seat)})
                if gap_then is not None:
                    learner.look(gap_then, frame + 1, empty, {Seat(seat)}, [], set())
                continue
            read = sure if card[0] in "JQKA" else 0.999
            learner.look(picture(card), frame, _one(seat, card), set(),
                         [CardLanded(Seat(seat), card, read, frame, QUAD)], {Seat(seat)})
            second = astray[1] if astray and astray[0] == card else card
            learner.look(picture(second), frame + 1, _one(seat, card), set(), [], {Seat(seat)})
            plays.append(Play(Seat(seat), Card.parse(card)))
        frame += 10
        if gap is not None and gap[0] == number:
            seen = tuple(f"{p.seat.number}:{p.card}" for p in plays)
            said += hear([Said(frame, 0.0, TrickMissed(number, seen))])
        else:
            said += hear([Said(frame, 0.0, TrickWon(number, Seat(1), 0, (0, 0),
                                                             Trick(tuple(plays))))])
    end = []
    if gap is not None and deduce:
        end.append(Said(frame, 0.0, CardDeduced(gap[0], Seat(gap[1]),
                                                DEAL[gap[0] - 1][gap[1] - 1])))
    end.append(Said(frame, 0.0, GameOver((60, 60), Outcome.from_score((60, 60)))))
    return said + hear(end)


def test_a_deal_whose_every_card_is_known_teaches_its_court_cards_and_unsure_aces():
    learner = DeckLearner(Reader())
    said = deal(learner)
    learnt = [s.announcement for s in said if s.announcement.kind == "deck_learned"]
    assert len(learnt) == 1 and learnt[0].deal == 1
    aces = [f"A{s}" for s in "CDHS"]
    assert learner.deck is not None and learner.deck.learnt
    assert learner.deck.cards == list(SHOWN) + aces  # the aces were read unsurely (0.95)
    # each kept crop is its card's own
    for card, crop in zip(learner.deck.cards, learner.deck.crops):
        assert np.array_equal(crop, picture(card))
    assert learnt[0].message == ("Deck learnt from deal 1: its court cards (and AC, AD, AH, AS) "
                                 "are now read by their pictures too")


def test_a_card_never_read_but_worked_out_from_the_deck_is_learnt_from_its_last_look():
    learner = DeckLearner(Reader())
    said = deal(learner, gap=QS)
    assert [s.announcement.kind for s in said].count("deck_learned") == 1
    assert np.array_equal(learner.deck.crops[learner.deck.cards.index("QS")], picture("QS"))


def test_a_card_never_read_is_learnt_from_its_last_look_on_a_frame_that_read_its_zone():
    """A zone not read on a frame keeps its last outline, but its card may have gone since (the
    trick being swept, as in game 3205): that frame's picture along the old outline is no look
    at the card, and the deal still teaches its deck."""
    learner = DeckLearner(TableReader())
    bare = np.full((SIZE[1], SIZE[0], 3), 8, np.uint8)  # the bare table
    said = deal(learner, gap=QS, gap_then=bare)
    assert [s.announcement.kind for s in said].count("deck_learned") == 1
    assert np.array_equal(learner.deck.crops[learner.deck.cards.index("QS")], picture("QS"))


class TableReader(Reader):
    """A stand-in classifier that reads a dark crop (the bare table) as no card at all."""

    @staticmethod
    def probabilities(crops: np.ndarray) -> np.ndarray:
        probs = Reader.probabilities(crops)
        dark = crops.reshape(len(crops), -1).mean(axis=1) < 20
        probs[dark] = 0.001
        probs[dark, CLASSES.index("none")] = 0.95
        return probs


@pytest.mark.parametrize("why", ["a card never known", "court cards all read surely",
                                 "a card taken twice", "a look the deck reads as another",
                                 "a card never read last seen gone"])
def test_nothing_is_learnt_from_a_deal_not_wholly_known_nor_from_one_read_surely(why):
    learner = DeckLearner(TableReader())
    if why == "a card never known":
        said = deal(learner, gap=QS, deduce=False)
    elif why == "a card never read last seen gone":
        # its last look caught the bare table (game 409: a blank crop kept as the QC taught
        # game 403 to read the trump QC as the QS, and a false accusation followed)
        said = deal(learner, gap=QS, gap_seen=np.full((SIZE[1], SIZE[0], 3), 8, np.uint8))
    elif why == "court cards all read surely":
        said = deal(learner, sure=0.99)
    elif why == "a look the deck reads as another":
        said = deal(learner, astray=("QS", "JS"))
    else:
        DEAL[9][3], kept = DEAL[9][2], DEAL[9][3]  # round 10: seat 4 "plays" seat 3's card
        try:
            said = deal(learner)
        finally:
            DEAL[9][3] = kept
    assert learner.deck is None and not any(s.announcement.kind == "deck_learned" for s in said)


def test_a_deck_is_learnt_once_and_each_deal_starts_afresh():
    learner = DeckLearner(Reader())
    deal(learner, gap=QS, deduce=False)  # deal 1: a card never known
    said = deal(learner)  # deal 2, whole
    learnt = [s.announcement for s in said if s.announcement.kind == "deck_learned"]
    assert len(learnt) == 1 and learnt[0].deal == 2
    first = learner.deck
    assert not deal(learner) and learner.deck is first  # deal 3 teaches nothing more



def test_the_session_reads_the_deals_after_with_the_deck_learnt(tmp_path):
    """``run_session``'s part: what the learner says at the end of a deal is said and
    logged, and the classifier reads the deals after with the deck learnt."""
    import json
    from types import SimpleNamespace

    from vision.session import EventLog, SessionResult, _learnt

    learner = DeckLearner(Reader())
    classifier = SimpleNamespace(deck=None)
    result = SessionResult()
    log = EventLog(tmp_path / "log.jsonl")
    said = deal(learner, hear=lambda heard: _learnt(learner, heard, classifier, log, result))
    log.close()
    assert classifier.deck is learner.deck is not None
    assert [s.announcement.kind for s in result.said] == ["deck_learned"] == [
        s.announcement.kind for s in said]
    records = [json.loads(line) for line in (tmp_path / "log.jsonl").read_text().splitlines()]
    assert [r["kind"] for r in records] == ["deck_learned"]
