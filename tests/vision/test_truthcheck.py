"""Comparing a refereeing run with a studio truth log."""

from __future__ import annotations

from referee.seats import Seat
from vision.track import CardLanded
from vision.truthcheck import compare_with_truth

PLAYS = [(1, "AH"), (2, "2D"), (3, "5H"), (4, "2H"), (2, "AC"), (3, "3C"), (4, "4C"), (1, "KC")]


def truth_log() -> list[dict]:
    log = [{"event": "card_rest", "frame": 10 * n, "round": 1 + n // 4, "seat": seat,
            "card": card} for n, (seat, card) in enumerate(PLAYS)]
    log += [{"event": "announce", "kind": "trick_won", "round": 1, "seat": 2, "points": 11,
             "message": "r1"},
            {"event": "announce", "kind": "trick_won", "round": 2, "seat": 2, "points": 15,
             "message": "r2"}]
    return log


def landing(n: int, card: str | None = None) -> CardLanded:
    seat, truth_card = PLAYS[n]
    return CardLanded(Seat(seat), card or truth_card, 0.99, 10 * n + 4, ())


def test_one_missed_play_does_not_make_the_later_ones_wrong():
    taken = [landing(n) for n in range(len(PLAYS)) if n != 1]
    comparison = compare_with_truth(truth_log(), [], taken)
    assert (comparison.plays_right, comparison.plays_missing, comparison.plays_extra) == \
        (7, 1, 0)
    assert comparison.delays == [4] * 7 and not comparison.all_right


def test_a_misread_play_counts_as_misread_and_its_true_card_as_missed():
    taken = [landing(n, "3H" if n == 2 else None) for n in range(len(PLAYS))]
    comparison = compare_with_truth(truth_log(), [], taken)
    assert (comparison.plays_right, comparison.plays_missing, comparison.plays_extra) == \
        (7, 1, 1)
    assert any("3:3H" in p and "never played" in p for p in comparison.problems)


def _said(kind: str, message: str):
    from types import SimpleNamespace

    from vision.announcements import Said

    announcement = SimpleNamespace(kind=kind, message=message,
                                   to_dict=lambda: {"kind": kind, "message": message})
    return Said(40, 1.3, announcement)


def test_cheating_announced_word_for_word_counts_and_any_other_is_a_false_accusation():
    log = truth_log() + [{"event": "announce", "kind": "revoke", "message": "P4 revoked"}]
    taken = [landing(n) for n in range(len(PLAYS))]
    missed = compare_with_truth(log, [], taken)
    assert (missed.accusations_expected, missed.accusations_made) == (1, 0)
    said = [_said("revoke", "P4 revoked"), _said("revoke", "P2 revoked")]
    both = compare_with_truth(log, said, taken)
    assert (both.accusations_made, both.false_accusations) == (1, 1)
    assert any("cheating announced 1/1" in line for line in both.lines())


def test_a_revoke_whose_card_was_never_read_counts_by_seat_round_and_lead_suit():
    from referee import Card, RevokeProven, Suit
    from vision.announcements import Said

    truth = {"event": "announce", "kind": "revoke", "seat": 3, "card": "2C", "round": 3,
             "lead_suit": "D", "proof": "3D", "proof_round": 5,
             "message": "Player 3 played illegal card 2C in round 3 with respect to lead suit "
                        "Diamonds"}
    taken = [landing(n) for n in range(len(PLAYS))]

    def said(seat: int, round_: int, suit: str, card: str | None = None) -> list[Said]:
        return [Said(40, 1.3, RevokeProven(Seat(seat), card and Card.parse(card), round_,
                                           Suit.parse(suit), Card.parse("3D"), 5))]

    right = compare_with_truth(truth_log() + [truth], said(3, 3, "D"), taken)
    assert (right.accusations_made, right.false_accusations) == (1, 0), right.problems
    for wrong in (said(1, 3, "D"), said(3, 2, "D"), said(3, 3, "H"), said(3, 3, "D", "2S")):
        comparison = compare_with_truth(truth_log() + [truth], wrong, taken)
        assert (comparison.accusations_made, comparison.false_accusations) == (0, 1)


def test_a_card_called_out_of_turn_in_a_game_played_in_turn_is_a_false_accusation():
    taken = [landing(n) for n in range(len(PLAYS))]
    said = [_said("out_of_turn", "Player 4 played 2H out of turn in round 1")]
    comparison = compare_with_truth(truth_log(), said, taken)
    assert comparison.false_accusations == 1 and not comparison.all_right


def test_a_trick_or_cut_said_wrongly_counts_though_a_running_score_may_differ():
    from referee import Card, Cut, TrickWon
    from referee.cards import Suit
    from referee.tricks import Play, Trick
    from vision.announcements import Said

    log = truth_log() + [{"event": "announce", "kind": "cut", "round": 1, "seat": 2,
                          "card": "2D", "lead_suit": "H", "message": "c1"}]
    taken = [landing(n) for n in range(len(PLAYS))]
    trick = Trick(tuple(Play(Seat(s), Card.parse(c)) for s, c in PLAYS[:4]))
    right = [Said(40, 1.3, Cut(1, Seat(2), Card.parse("2D"), Suit.HEARTS)),
             Said(40, 1.3, TrickWon(1, Seat(2), 11, (0, 99), trick))]  # another running score
    assert compare_with_truth(log, right, taken).statements_wrong == 0
    wrong = [Said(40, 1.3, Cut(1, Seat(2), Card.parse("2D"), Suit.CLUBS)),  # not that lead
             Said(40, 1.3, TrickWon(1, Seat(2), 10, (0, 10), trick))]  # not those points
    comparison = compare_with_truth(log, wrong, taken)
    assert comparison.statements_wrong == 2 and not comparison.all_right
    assert any("(2 said wrongly)" in line for line in comparison.lines())


def test_a_trump_in_doubt_settled_on_the_wrong_card_is_said_wrongly():
    from vision.announcements import Said, TrumpSettled

    log = truth_log() + [{"event": "announce", "kind": "trump", "card": "7D", "dealer": 2,
                          "message": "Trump: 7D | Diamonds"}]
    taken = [landing(n) for n in range(len(PLAYS))]
    for card, wrong in (("7D", 0), ("7H", 1)):
        said = [Said(40, 1.3, TrumpSettled(card, ("7H" if card == "7D" else "7D",), "why"))]
        assert compare_with_truth(log, said, taken).statements_wrong == wrong, card
    # where only the suit was in doubt, the suit settled is checked against the trump card's
    for suit, wrong in (("Diamonds", 0), ("Hearts", 1)):
        said = [Said(40, 1.3, TrumpSettled(suit, ("Spades",), "why"))]
        comparison = compare_with_truth(log, said, taken)
        assert comparison.statements_wrong == wrong, suit
        assert any("The trump is Hearts" in p for p in comparison.problems) == bool(wrong)


def test_a_verdict_is_given_wrongly_only_where_one_is_given_that_is_not_the_truth_s():
    from vision.truthcheck import Comparison

    truth = ["Pair A won the given sueca game.", "Score: 120 | 0"]

    def verdict(said: list[str], kind: str = "game_over") -> Comparison:
        return Comparison(verdict_expected=truth, verdict_said=said, verdict_kind=kind)

    assert not verdict(truth).verdict_wrong
    assert verdict(["Pair A won the given sueca game.", "Score: 68 | 52"]).verdict_wrong
    assert verdict(["The game resulted in a draw.", "Score: 60 | 60"]).verdict_wrong
    # no verdict is not a wrong one
    assert not verdict(["Game over, but round 3 could not be scored: no verdict."]).verdict_wrong
    assert not verdict([]).verdict_wrong
    # the winner alone, where the score was not known: wrong only if the winner is
    assert not verdict(["Pair A won the given sueca game.", "Score: 70 | 50 (or ...)"],
                       "outcome_settled").verdict_wrong
    assert verdict(["Pair B won the given sueca game.", "Score: 50 | 70 (or ...)"],
                   "outcome_settled").verdict_wrong


def test_cards_asked_into_their_zone_count_against_those_the_truth_put_in_the_middle():
    from vision.announcements import CardAstray, Said

    log = truth_log() + [{"event": "card_astray", "frame": 3, "seat": 2, "card": "2D"},
                         {"event": "card_astray", "frame": 33, "seat": 1, "card": "KC"}]
    taken = [landing(n) for n in range(len(PLAYS))]
    asked = [Said(5, 0.2, CardAstray("2D"))]
    one = compare_with_truth(log, asked, taken)
    assert (one.astray_expected, one.astray_said, one.astray_wrong) == (2, 1, 0)
    assert "asked into their zone 1" in " ".join(one.lines())
    wrong = compare_with_truth(log, asked + [Said(9, 0.3, CardAstray("5H", Seat(3)))], taken)
    assert (wrong.astray_said, wrong.astray_wrong) == (1, 1) and not wrong.all_right
    assert any("5H lies astray" in p for p in wrong.problems)
    # a card asked about without its name stands for one put there and not named
    unnamed = compare_with_truth(log, asked + [Said(9, 0.3, CardAstray(None))], taken)
    assert (unnamed.astray_said, unnamed.astray_wrong) == (2, 0)
    twice = compare_with_truth(log, asked + [Said(9, 0.3, CardAstray(None))] * 2, taken)
    assert (twice.astray_said, twice.astray_wrong) == (2, 1)


def test_requests_to_turn_a_card_over_count_against_the_cards_the_truth_laid_face_down():
    """A request counts for a card laid face down when it names the card's seat between the
    frame the card lay face down and the frame it came to rest face up; a card unclear said
    to lie face down, perhaps, counts too. Any other request is made wrongly."""
    from vision.announcements import FaceDown, Said, ShowAgain

    log = truth_log()
    log.insert(5, {"event": "card_face_down", "frame": 45, "seat": 3, "card": "3C"})
    log.insert(1, {"event": "card_face_down", "frame": 5, "seat": 2, "card": "2D"})
    taken = [landing(n) for n in range(len(PLAYS))]
    right = compare_with_truth(log, [Said(7, 0.2, FaceDown(Seat(2))),
                                     Said(47, 1.5, ShowAgain(Seat(3), face_down=True)),
                                     Said(48, 1.6, ShowAgain(Seat(3)))], taken)
    assert (right.face_down_expected, right.face_down_said, right.face_down_wrong) == (2, 2, 0)
    assert "asked to be turned over 2; asked wrongly 0" in " ".join(right.lines())
    assert not [p for p in right.problems if "face down" in p]
    for wrong in (Said(7, 0.2, FaceDown(Seat(3))),  # another seat
                  Said(12, 0.4, FaceDown(Seat(2))),  # after seat 2's card rested face up
                  Said(47, 1.5, ShowAgain(Seat(4), face_down=True))):
        comparison = compare_with_truth(log, [wrong], taken)
        assert (comparison.face_down_said, comparison.face_down_wrong) == (0, 1), wrong
        assert [p for p in comparison.problems if p.startswith("said wrongly (frame")] == [
            f"said wrongly (frame {wrong.frame}): {wrong.announcement.message}"]


def test_a_result_said_if_nobody_revoked_is_checked_against_the_truth_s_winner_and_games():
    from referee.seats import Pair
    from vision.announcements import ResultIfHonest, Said

    def checked(score: tuple[int, int], winner: Pair | None, games: int) -> bool | None:
        truth = truth_log() + [{"event": "verdict", "score": list(score), "lines": [
            "Pair A won the given sueca game." if score[0] > score[1] else
            "Pair B won the given sueca game.", f"Score: {score[0]} | {score[1]}"]}]
        said = [Said(40, 1.3, ResultIfHonest((2,), winner, games, ((64, 56),), 1.0))]
        return compare_with_truth(truth, said, []).if_honest_right

    assert checked((64, 56), Pair.A, 1) is True
    assert checked((95, 25), Pair.A, 1) is False  # the deal was worth 2 games
    assert checked((0, 120), Pair.A, 1) is False  # pair A revoked: the truth's 120 | 0
    assert compare_with_truth(truth_log(), [], []).if_honest_right is None


def test_a_deal_s_end_said_more_than_once_is_not_all_right():
    from referee.events import GameIncomplete, GameOver
    from referee.judge import Outcome
    from vision.announcements import Said

    log = [r for r in truth_log() if r["event"] == "card_rest"]
    log.append({"event": "verdict", "lines": ["Pair B won the given sueca game.",
                                              "Score: 0 | 26"]})
    taken = [landing(n) for n in range(len(PLAYS))]
    end = Said(80, 2.7, GameOver((0, 26), Outcome.from_score((0, 26))))
    once = compare_with_truth(log, [end], taken)
    assert once.ends_said == 1 and once.verdict_right and once.all_right, once.lines()
    # "Game over ... no verdict" first, a card of the last trick put back, then the verdict
    early = Said(70, 2.3, GameIncomplete((0, 11), Outcome.from_score((0, 11)), None, (2,)))
    twice = compare_with_truth(log, [early, end], taken)
    assert twice.ends_said == 2 and twice.verdict_right and not twice.all_right
    assert any("said 2 times" in p for p in twice.problems), twice.problems


def test_a_cut_or_trick_said_again_without_being_taken_back_counts():
    from referee import Card, Cut, TrickWon
    from referee.cards import Suit
    from referee.events import GameOver, TrickWithdrawn
    from referee.judge import Outcome
    from referee.tricks import Play, Trick
    from vision.announcements import Said

    log = [r for r in truth_log() if r["event"] == "card_rest"]
    log += [{"event": "announce", "kind": "cut", "round": 1, "seat": 2, "card": "2D",
             "lead_suit": "H", "message": "Cut! Player 2 trumps the Hearts lead with 2D in "
                                          "round 1"},
            {"event": "verdict", "lines": ["Pair B won the given sueca game.",
                                           "Score: 0 | 26"]}]
    taken = [landing(n) for n in range(len(PLAYS))]
    trick = Trick(tuple(Play(Seat(s), Card.parse(c)) for s, c in PLAYS[:4]))
    cut = Cut(1, Seat(2), Card.parse("2D"), Suit.HEARTS)
    won = TrickWon(1, Seat(2), 11, (0, 11), trick)
    end = Said(80, 2.7, GameOver((0, 26), Outcome.from_score((0, 26))))
    once = compare_with_truth(log, [Said(40, 1.3, cut), end], taken)
    assert once.said_again == 0 and once.all_right, once.lines()
    # the cut said as the trick was dropped, and again as it went on (game 3016's 7C)
    twice = compare_with_truth(log, [Said(40, 1.3, cut), Said(60, 2.0, cut), end], taken)
    assert twice.said_again == 1 and twice.statements_wrong == 0 and not twice.all_right
    assert any(p.startswith("said again: Cut!") for p in twice.problems), twice.problems
    # a trick taken back (a card of it misread) and said anew is not said again
    withdrawn = TrickWithdrawn(1, Seat(2), Card.parse("2D"), Seat(2), 11, (0, 0), False)
    anew = compare_with_truth(log, [Said(42, 1.4, won), Said(50, 1.7, withdrawn),
                                    Said(52, 1.8, won)], taken)
    assert anew.said_again == 0, anew.problems
    again = compare_with_truth(log, [Said(42, 1.4, won), Said(52, 1.8, won)], taken)
    assert again.said_again == 1


def test_a_card_said_to_lie_outside_the_deck_where_the_truth_put_none_is_said_wrongly():
    from referee import Card, NotASuecaCard
    from vision.announcements import Said

    taken = [landing(n) for n in range(len(PLAYS))]
    said = [Said(30, 1.0, NotASuecaCard(Seat(2), Card.parse("10D")))]
    wrong = compare_with_truth(truth_log(), said, taken)
    assert wrong.statements_wrong == 1 and not wrong.all_right
    assert any("10D is not a Sueca card" in p for p in wrong.problems), wrong.problems
    # a ten the truth did put down (a player with the wrong deck) is said rightly
    log = truth_log() + [{"event": "card_rest", "frame": 30, "round": 1, "seat": 2,
                          "card": "10D"}]
    assert compare_with_truth(log, said, taken).statements_wrong == 0
