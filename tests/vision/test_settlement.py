"""What a deal's verdict is worth to the match (``vision.settlement.deal_result``); settling a
deal from its dropped tricks is tested through the table referee in ``test_track.py``."""

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
