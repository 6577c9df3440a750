"""What a deal's verdict is worth to the match (``vision.settlement.deal_result``), and a revoke
in doubt weighed over the whole deck at the deal's end; settling a deal from its dropped tricks
is tested through the table referee in ``test_track.py``."""

from __future__ import annotations

import pytest

from referee.cards import Card, Suit
from referee.events import GameOver, Outcome, RevokeProven
from referee.match import MatchRules
from referee.seats import Pair, Seat
from vision.settlement import deal_result


@pytest.mark.parametrize("score, result", [
    ((76, 44), (Pair.A, 1)),
    ((30, 90), (Pair.B, 1)),
    ((29, 91), (Pair.B, 2)),
    ((120, 0), (Pair.A, 4)),
    ((60, 60), (None, 0)),
])
def test_a_verdict_is_worth_its_winner_and_games(score, result):
    assert deal_result(GameOver(score, Outcome.from_score(score)), MatchRules()) == result


def test_a_verdict_decided_by_cheating_is_worth_nothing_to_settle_on():
    revoke = RevokeProven(Seat(2), Card.parse("6D"), 3, Suit.from_full_name("Spades"),
                          Card.parse("2S"), 5)
    over = GameOver((120, 0), Outcome.from_score((120, 0)), revoke)
    assert deal_result(over, MatchRules()) is None


def _game1c_read(readings: dict[str, tuple[float, bool, tuple[tuple[str, float], ...]]]):
    """game1c (seat 2 plays the 6D on the AS lead of round 3 and shows a spade in round 4) as
    a camera's referee reads it: the plays of ``readings`` (card -> confidence, on two looks
    or not, odds), the rest surely. The referee and what it said."""
    from dataclasses import replace

    from referee.engine import Referee
    from referee.events import CardPlayed
    from tests.referee.test_engine import feed_all, sample_events

    def read(event):  # noqa: ANN001, ANN202
        if not isinstance(event, CardPlayed) or str(event.card) not in readings:
            return event
        confidence, confirmed, odds = readings[str(event.card)]
        return replace(event, confidence=confidence, confirmed=confirmed, odds=odds)

    events = [read(e) for e in sample_events("game1c")]
    referee = Referee(min_confidence=0.9, accuse_confidence=0.98)
    return referee, feed_all(referee, events)


@pytest.mark.parametrize("readings, proven", [
    # the lead, read on two looks with 5 % of its odds on no card at all: the forty cards
    # played are the deck's, so it can only be the AS
    ({"AS": (0.95, True, (("AS", 0.95),))}, True),
    # the lead and the AH of round 1 each read with 3 % on the other (and 4 % on no card):
    # the two swapped would show no such revoke, but weigh about 1 in 900
    ({"AS": (0.93, True, (("AS", 0.93), ("AH", 0.03))),
      "AH": (0.93, True, (("AH", 0.93), ("AS", 0.03)))}, True),
    # the same with 15 % each on the other: about 1 in 28, too much to accuse on
    ({"AS": (0.9, True, (("AS", 0.8), ("AH", 0.15))),
      "AH": (0.9, True, (("AH", 0.8), ("AS", 0.15)))}, False),
    # read on one look only: no evidence, however it is weighed
    ({"AS": (0.95, False, (("AS", 0.95),))}, False),
])
def test_a_revoke_in_doubt_is_proven_where_the_whole_deck_was_played_as_read(readings, proven):
    from referee.events import RevokeInDoubt
    from vision.settlement import Settlement

    referee, said = _game1c_read(readings)
    assert isinstance(said[-1], RevokeInDoubt) and referee.cheat is None, said[-1]
    settled = Settlement(referee, referee.order, MatchRules()).settle(said, [])
    if not proven:
        assert settled == said
        return
    assert [a.kind for a in settled[-3:]] == ["revoke_settled", "revoke", "game_over"]
    assert not any(isinstance(a, RevokeInDoubt) for a in settled)
    revoke, over = settled[-2], settled[-1]
    assert (revoke.seat, str(revoke.card), revoke.round, revoke.lead_suit) == (
        Seat(2), "6D", 3, Suit.SPADES)
    assert over.cheat == revoke and over.score == (120, 0)
    assert settled[-3].share >= 0.99 and settled[-3].message.startswith(
        "Every card of the deck was played once as read")
