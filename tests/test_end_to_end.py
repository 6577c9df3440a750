"""Whole games, end to end: the studio renders a random game as a clip, the referee watches it,
and every play, trick, announcement and verdict is checked against the truth log.

Twenty random games (every fourth with a revoke: five in all), drawn with the *test* designs
(which neither model ever trained on) under each game's own random studio settings: table,
light, camera. The clips are 960x540 and brisk (few frames per movement) to keep the suite
quick. The test designs are fetched from Debian into the face cache the first time (as
``make samples`` does); where that is impossible the games are skipped, saying why.

Each game is refereed once; the tests read the result:
- nobody is ever accused of cheating they did not do, nothing false is said of the play, and
  no verdict is wrong (must hold for every game);
- the whole game is refereed exactly as the truth says. The games refereed whole today must
  stay so; the others are expected to fail until issue 4's readers are good enough (not
  strictly: one that starts passing shows as XPASS);
- what some games show today must stay so: the revokes proven, the deals the deck settles,
  the trump read by its suit.
"""

from __future__ import annotations

import os
import pickle
from functools import cache
from pathlib import Path

import pytest

from vision.classify import CardClassifier
from vision.detect import CardDetector
from vision.locking import held
from vision.studio.clip import BRISK, game_from_seed, render_clip
from vision.studio.faces import StudioError
from vision.studio.facesets import face_sets
from vision.studio.images import enrolled_deck
from vision.truthcheck import referee_clip

SIZE = (960, 540)
GAMES = [(seed, seed % 4 == 0) for seed in range(1, 21)]  # 5 with a revoke


@cache
def _test_designs():
    try:
        return face_sets("test", log=lambda m: None)
    except StudioError as error:
        return str(error)


@cache
def _stages(readers: bool = True):
    return CardDetector(threads=1), CardClassifier(threads=1, portraits=readers, suits=readers)


@cache
def _deck(design: str):
    """The design's court cards as the players would show them (``sueca-referee deck``): the
    first studio picture of them laid out that can be enrolled, and one of the aces (those the
    classifier reads unsurely join the deck: kde-penguins' ace of spades, bellot's of clubs)."""
    faces = next(f for f in _test_designs() if f.name == design)
    detector, classifier = _stages()
    return enrolled_deck(faces, detector, classifier, aces=True)[0]


@cache
def refereed(seed: int, revoke: bool, folder: str, with_deck: bool = False,
             readers: bool = True):
    """Render game ``seed`` (once) and referee it, with its design's court cards shown first
    or not: (session result, comparison with the truth). The clip and the result are kept in
    ``folder``, which the suite's workers share: whichever asks first renders and referees the
    game, holding a lock, and the others read what it kept. ``readers``: with the second
    readers (the portrait reader, ``vision.portraits``, and the suit reader, ``vision.suits``);
    without them, the cards they read stay unread, as they were before they came, for the
    tests of how the referee does without them."""
    designs = _test_designs()
    if isinstance(designs, str):
        pytest.skip(f"the test designs are not available: {designs}")
    faces = designs[seed % len(designs)]
    clip, truth_path = Path(folder) / f"game{seed}.mp4", Path(folder) / f"game{seed}.jsonl"
    kept = Path(folder) / (f"game{seed}-{'deck' if with_deck else 'alone'}"
                           f"{'' if readers else '-no-readers'}.pickle")
    with held(kept.with_suffix(".lock")):
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        with held(clip.with_suffix(".lock")):
            if not (clip.exists() and truth_path.exists()):
                render_clip(game_from_seed(seed, revoke=revoke), faces, clip, truth_path,
                            seed=seed, width=SIZE[0], height=SIZE[1], timing=BRISK,
                            progress=False)
        detector, classifier = _stages(readers)
        if with_deck:
            classifier = CardClassifier(threads=1, deck=_deck(faces.name), portraits=readers,
                                        suits=readers)
        outcome = referee_clip(clip, truth_path, detector, classifier)
        kept.write_bytes(pickle.dumps(outcome))
    return outcome


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """One folder for the games, shared by pytest-xdist's workers where there are several
    (their own temporary folders lie side by side in one made for this run)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    games = shared / "games"
    games.mkdir(exist_ok=True)
    return str(games)


def named(games):
    """The games as parameters named ``clipN``: the suite's workers share them out a game at a
    time (see tests/conftest.py)."""
    return [pytest.param(seed, revoke, id=f"clip{seed}") for seed, revoke in games]


@pytest.mark.parametrize("with_deck", [False, True], ids=["alone", "deck shown"])
@pytest.mark.parametrize("seed,revoke", named(GAMES))
def test_nobody_is_falsely_accused(folder, seed, revoke, with_deck):
    """Whatever the readers get wrong, nobody is accused of cheating they did not do, nothing
    false is said of the play, and no verdict is given that is not the truth's; whether or
    not the players showed the referee their deck's court cards first."""
    result, comparison = refereed(seed, revoke, folder, with_deck)
    assert result.frames > 300 and result.calibrated_frames == result.frames
    assert comparison.false_accusations == 0, comparison.lines()
    # and every trump, cut and trick won said is true (who, which card, how many points)
    assert comparison.statements_wrong == 0, comparison.lines()
    # nor is a game ever given a wrong verdict: the truth's, or none ("no verdict"), or the
    # truth's winner where the score is not known for sure
    assert not comparison.verdict_wrong, comparison.lines()
    # and nobody is asked to move a card into their zone: the clips play every card into one
    assert not [s.announcement.message for s in result.said
                if s.announcement.kind == "card_astray"]


# the games refereed whole today (the three simplistic ones and bellot's 6; bellot's 18 since
# a card read unsurely leans to the suit its seat is led to, 12 since a lead never read
# surely, its wreathed ace of clubs, leans to the suit the cards after it follow, 1 since a
# card is read as none of those that other zones hold, kde-jolly-royal's 4 and 10 since
# "not a card" weighs like a card of another suit in that lean, and kde-penguins' 17 since
# what lies still where a play is due is taken for a card, its penguin ace of spades in
# round 9 being read in part as "not a card"); since the forty-first session's classifier,
# trained with the PySolFC cardsets, lattmann's 7 and 13 and kde-jolly-royal's 16 (its revoke
# proven), while bellot's 6 lost its queen of clubs in round 2, read unsurely and worked out
# at the end of the deal; since the sixty-ninth session's portrait reader, bellot's 6 again
# (its queen of clubs read surely), while lattmann's 13 lost its jack of clubs in round 4, the
# portrait leaning to the queen: they must stay so
WHOLE_TODAY = {1, 3, 4, 6, 7, 9, 10, 12, 15, 16, 17, 18}
# and those refereed whole once the players have shown the referee their deck's court cards
# and aces: lattmann's and guyenne-classic's court cards, which the classifier reads unsurely
# or not at all, are then read (game 19 since the deck settles a queen of diamonds the
# classifier read surely as the jack), bellot's ace of clubs (game 12), and game 18 since a still
# card found only in part is looked at again more widely; games 4 and 11 since a card that
# plainly looks like a group of look-alike court cards is taken to be one of them (game 4's
# kde-jolly-royal jack of clubs; game 11's kde-penguins queen and king of spades, once the
# cards outside the court cards and the clubs already played are ruled out); game 16 since a
# card read unsurely is known by elimination once the card it may otherwise be has been played
# and read surely (its kde-jolly-royal 2S, read 0.95 once the 2C played in round 1 is ruled
# out, proves seat 4's revoke); game 5 since kde-penguins' queen and jack of spades, told from
# the clubs only by their suit signs, are told apart by how plainly the crop's signs lean that
# way (thirty-sixth session); games 10 and 17 since a card read unsurely leans to the suit its
# seat is led to (game 10's kde-jolly-royal 3S, read 0.88 against the 3C on a spade lead;
# game 17's kde-penguins JC, halfway between the jacks of clubs and spades to the deck, on a
# club lead): every game, then
WHOLE_WITH_DECK = set(range(1, 21))
NOT_YET = pytest.mark.xfail(strict=False, reason="issue 4 is open: a card read unsurely or "
                            "missed leaves a trick unscored, so not every game is refereed whole")


@pytest.mark.parametrize("with_deck", [False, True], ids=["alone", "deck shown"])
@pytest.mark.parametrize("seed,revoke", named(GAMES))
def test_the_game_is_refereed_as_the_truth_says(folder, seed, revoke, with_deck, request):
    if seed not in (WHOLE_WITH_DECK if with_deck else WHOLE_TODAY):
        request.applymarker(NOT_YET)
    result, comparison = refereed(seed, revoke, folder, with_deck)
    assert comparison.all_right, comparison.lines()
    if revoke:
        assert any(s.announcement.kind == "revoke" for s in result.said)


def test_shown_the_decks_the_referee_announces_every_revoke_and_more_verdicts(folder):
    alone = [refereed(seed, revoke, folder)[1] for seed, revoke in GAMES]
    shown = [refereed(seed, revoke, folder, True)[1] for seed, revoke in GAMES]
    assert sum(c.accusations_made for c in shown) == 5 == sum(
        c.accusations_expected for c in shown)
    assert sum(c.verdict_right for c in shown) == len(GAMES) > sum(
        c.verdict_right for c in alone)
    assert sum(c.plays_right for c in shown) > sum(c.plays_right for c in alone) + 50


@pytest.mark.parametrize("seed", [12, 4])
def test_a_revoke_read_surely_is_announced_and_decides_the_verdict(folder, seed):
    """Games 12 (bellot) and 4 (kde-jolly-royal) miss a few plays, but every card their revoke
    rests on is read surely on two separate looks: the revoke is announced and the verdict is
    the truth's 120 | 0. Game 4's revoke comes after a dropped trick: it is provable because
    the next lead came down with every other zone empty, so who leads is known again.
    (Before the change gate gave each sure reading a second look, no revoke was ever proven
    from a clip: one look, however sure, is no evidence.)"""
    result, comparison = refereed(seed, True, folder)
    assert comparison.accusations_expected == 1
    assert comparison.accusations_made == 1, comparison.lines()
    assert comparison.verdict_right, comparison.lines()


@pytest.mark.parametrize("seed,readers", [(5, True), (6, False), (11, True)])
def test_the_deck_settles_a_deal_whose_unread_cards_fit_one_score(folder, seed, readers):
    """These games each drop tricks holding cards never read surely, but every other card of
    the deck was read, and every way of putting the unread ones back that the play allows
    (and their suits or ranks, where those were read surely) gives one score and no
    cheating: the verdict is the truth's. Game 6's queen of clubs, read unsurely in round 2, is
    known once the cards it looked like have been played; games 5 and 11 leave several ways,
    which all give the one score. (Game 6 was here until the eighteenth session, when reading
    unsure cards again along their outlines turned had it refereed whole, and again since the
    forty-first; games 18, 1 and 10 until the thirty-seventh, when cards read unsurely leaned
    to the suit led and were read as none of the cards other zones hold; games 7 and 13 until
    the forty-first, whose classifier reads them whole. Since the sixty-ninth session the
    portrait reader reads game 6's queen of clubs: it is refereed here without it, and so
    without the suit reader either.)"""
    result, comparison = refereed(seed, seed % 4 == 0, folder, readers=readers)
    kinds = {s.announcement.kind for s in result.said}
    # (a card known by elimination during the deal has its trick scored then: "card_known")
    assert kinds & {"card_deduced", "card_known", "score_settled"}, comparison.lines()
    assert comparison.verdict_right, comparison.lines()


def test_a_trump_read_only_by_its_suit_still_lets_the_deal_be_refereed(folder):
    """Game 19's trump, lattmann's jack of spades, is never read surely by the classifier
    alone, but its suit is: the deal is refereed with spades as trump rather than abandoned.
    (With the portrait reader, since the sixty-ninth session, the jack is read surely: refereed
    here without the second readers.)"""
    result, comparison = refereed(19, False, folder, readers=False)
    said = [s.announcement for s in result.said]
    assert said[0].kind == "trump_suit" and said[0].suit.symbol == "S", said[:2]
    assert comparison.plays_right >= 20 and comparison.plays_extra == 0, comparison.lines()


@pytest.mark.parametrize("seed", [19])
def test_the_deck_settles_the_winner_where_it_cannot_settle_the_score(folder, seed):
    """Game 19 (lattmann) drops tricks holding cards never read surely; the ways of putting
    them back differ in score, but those that give one winner, taking one game for the match,
    hold over 99 % of the weight of the classifier's readings, and none shows cheating. The
    verdict names that winner (the truth's), lists the scores, and counts for the match. (It
    also withdraws a round: its JD read in round 7 and again in round 9, neither surely.
    Game 11 was here too until the eighteenth session, when its score was settled as well;
    with the portrait reader, since the sixty-ninth session, game 19's is settled too, so it
    is refereed here without the second readers.)"""
    result, comparison = refereed(seed, False, folder, readers=False)
    verdicts = [s.announcement for s in result.said if s.announcement.kind == "outcome_settled"]
    assert len(verdicts) == 1 and verdicts[0].games == 1, comparison.lines()
    assert comparison.winner_only, comparison.lines()
    tally = [s.announcement for s in result.said if s.announcement.kind == "match_tally"]
    assert len(tally) == 1 and tally[0].pair == verdicts[0].outcome.winner


def test_a_trump_read_as_one_of_several_suits_is_settled_by_the_play(folder):
    """Game 1013 (kde-penguins, one of the fresh games kept apart from these tests) has the
    dealer's trump, the jack of clubs, read as a club (80 %) or a spade, never surely: the
    deal is refereed under each suit until the play rules out all but clubs (under diamonds
    seat 2's lead of round 7 is out of turn; under spades and hearts no way of putting back
    the card never read in round 8, the penguin ace of spades, fits the play). The verdict is
    the truth's; nothing said under the other suits is ever said. (Game 306, bellot's ace of
    clubs read as AC or AS, was here until the forty-first session's classifier read it
    surely. Since the seventy-third session the suit reader reads this jack surely, as the
    next test shows: it is refereed here without the second readers.)"""
    result, comparison = refereed(1013, False, folder, readers=False)
    said = [s.announcement for s in result.said]
    kinds = [a.kind for a in said]
    assert kinds[0] == "trump_in_doubt", kinds[:3]
    settled = [a for a in said if a.kind == "trump_settled"]
    assert len(settled) == 1 and settled[0].card == "Clubs", kinds
    assert "out_of_turn" not in kinds and comparison.statements_wrong == 0, comparison.lines()
    assert comparison.verdict_right, comparison.lines()


def test_the_suit_reader_reads_a_court_trump_whose_rank_alone_the_classifier_knows(folder):
    """Game 1013's trump, kde-penguins' jack of clubs, is one figure drawn in all four suits:
    the classifier reads it a jack surely, a club at 80 %. The suit reader (``vision.suits``)
    makes it surely the club, and the deal is refereed under clubs from the start, with the
    truth's verdict and nothing said wrongly."""
    result, comparison = refereed(1013, False, folder)
    said = [s.announcement for s in result.said]
    assert said[0].kind == "trump" and str(said[0].card) == "JC", said[:2]
    assert "trump_in_doubt" not in [a.kind for a in said]
    assert comparison.statements_wrong == 0 and comparison.false_accusations == 0, (
        comparison.lines())
    assert comparison.verdict_right, comparison.lines()


@pytest.mark.parametrize("teacher, seed", [(5, 11), (10, 4)])
def test_a_deck_learnt_in_one_deal_reads_the_next_whole(folder, teacher, seed):
    """The deck learnt in play: game 5 (kde-penguins) ends with every card known, its queen
    and ace of spades worked out from the deck, and its court cards' crops read game 11 (the
    same design on another table, under another camera and light) whole, as a second deal
    would be; game 10 (kde-jolly-royal) teaches game 4, whose revoke is then proven. Nothing
    read wrongly either way. (Alone, games 11 and 4 lose plays to unsure court cards.)"""
    from vision.learning import DeckLearner

    refereed(teacher, teacher % 4 == 0, folder)  # renders the clips, if need be
    refereed(seed, seed % 4 == 0, folder)
    detector, _ = _stages()
    classifier = CardClassifier(threads=1)
    learner = DeckLearner(classifier)
    first, _ = referee_clip(Path(folder) / f"game{teacher}.mp4",
                            Path(folder) / f"game{teacher}.jsonl", detector, classifier,
                            learner=learner)
    learnt = [s.announcement for s in first.said if s.announcement.kind == "deck_learned"]
    assert len(learnt) == 1 and learner.deck is not None and learner.deck.learnt
    assert set(learnt[0].cards) >= {f"{r}{s}" for r in "JQK" for s in "CDHS"}
    classifier.deck = learner.deck
    _, comparison = referee_clip(Path(folder) / f"game{seed}.mp4",
                                 Path(folder) / f"game{seed}.jsonl", detector, classifier)
    assert comparison.all_right, comparison.lines()


def _session_over(stage, shots, rng, rules, keeper=None):  # noqa: ANN001, ANN202
    """A session (the real models) over the studio's pictures of ``shots`` (scene, how many
    frames it lasts, and optionally the stage it is seen on instead of ``stage``), 30 frames
    a second."""
    from vision.game import TableReferee
    from vision.session import run_session
    from vision.sources import Frame
    from vision.studio.scene import render
    from vision.table import CalibrationKeeper
    from vision.track import Tracker

    def frames():
        index = 0
        for scene, count, *seen_on in shots:
            picture, _ = render(seen_on[0] if seen_on else stage, scene, rng, labelled=False)
            for _ in range(count):
                yield Frame(picture, index, index / 30)
                index += 1

    detector, classifier = _stages()
    return run_session(frames(), detector, classifier, keeper or CalibrationKeeper(),
                       Tracker(), TableReferee(rules), [])


def _clip_table(design: str = "simplistic"):  # noqa: ANN202
    """What the rendered sessions below play on: ``design``'s faces (the test skipped where
    the test designs are not available), the default layout and rules, the camera, table
    and light of clip seed 21, and the random numbers its pictures are drawn with."""
    import numpy as np

    from referee.config import RulesConfig
    from vision.layout import TableLayout
    from vision.studio.clip import clip_stage

    designs = _test_designs()
    if isinstance(designs, str):
        pytest.skip(f"the test designs are not available: {designs}")
    faces = next(f for f in designs if f.name == design)
    layout = TableLayout()
    return faces, layout, RulesConfig(), clip_stage(layout, 21, *SIZE), \
        np.random.default_rng(21)


def _a_lead_knocked(move_mm: tuple[float, float], turn_degrees: float,  # noqa: ANN202
                    lead_frames: int):
    """The table of ``_clip_table``: the dealer shows the trump (7D), seat 1 leads the AH,
    which lies ``lead_frames`` frames; then the camera's stand is knocked (moved ``move_mm``
    along the table, turned ``turn_degrees``) and, a second later, seat 2 plays the 3H. What
    ``_session_over`` needs, and the play the truth makes of it."""
    from dataclasses import replace

    from referee import Card
    from vision.studio.scene import CardOnTable, Scene

    faces, layout, rules, stage, rng = _clip_table()
    knocked = replace(stage, camera=stage.camera.moved(move_mm, turn_degrees, layout.centre),
                      _backdrop=None)
    trump, lead, second = Card.parse("7D"), Card.parse("AH"), Card.parse("3H")
    leader = rules.order.first_leader
    follower = rules.order.next_seat(leader)
    led = CardOnTable(lead, faces.face(lead), layout.zone(leader).centre, 10.0)
    followed = CardOnTable(second, faces.face(second), layout.zone(follower).centre, 100.0)
    shots = [(Scene(), 6),
             (Scene(cards=[CardOnTable(trump, faces.face(trump),
                                       layout.zone(rules.order.dealer).centre, 80.0)]), 14),
             (Scene(), 14),
             (Scene(cards=[led]), lead_frames),
             (Scene(cards=[led]), 30, knocked),
             (Scene(cards=[led, followed]), 20, knocked)]
    played = [(rules.order.dealer, "7D"), (leader, "AH"), (follower, "3H")]
    return layout, rules, stage, rng, shots, played


def test_a_camera_knocked_mid_trick_is_followed_at_once_and_the_trick_goes_on():
    """The camera's stand is knocked (15 mm, 1.5 degrees) while the lead lies: the table is
    found again on the first still frame, long before the next recheck is due (3 s), the
    lead is not played again, and the next card played, a second later, lands in its seat.
    Rendered by the studio (simplistic, a clip's camera and light) and refereed by the real
    detector and classifier."""
    from vision.table import CalibrationKeeper

    # (the lead lies until 3.2 s, past the recheck at 3 s; the frames end at 4.4 s, before 6 s)
    layout, rules, stage, rng, shots, played = _a_lead_knocked((12.0, -9.0), 1.5, 62)
    keeper = CalibrationKeeper(layout=layout, dealer=rules.order.dealer)
    result = _session_over(stage, shots, rng, rules, keeper)
    assert keeper.moves == 1
    assert [(e.seat, e.card) for e in result.landings] == played, result.landings
    said = [s.announcement for s in result.said]
    assert [a.kind for a in said] == ["trump"], [a.message for a in said]


@pytest.mark.parametrize("follow", [True, False], ids=["followed", "not followed"])
def test_a_camera_knocked_hard_with_a_calibration_from_a_file(follow):
    """As above, with the table calibrated from a file (the play area's corners; no markers
    looked for) and a hard knock (the stand moved 108 mm, the camera turned 5 degrees; the play
    area's corners 68-129 px in a 960x540 picture): the picture itself is lined up again on
    the first still frame, the lead is not played again and the next card lands in its seat.
    Not followed (``follow=False``, as before the sixty-eighth session), the zones stay where
    the table was: the lead no longer shows in its zone, and its trick is taken for swept
    before all its cards were read."""
    import numpy as np

    from vision.table import CalibrationKeeper, from_corners

    layout, rules, stage, rng, shots, played = _a_lead_knocked((-90.0, 60.0), 5.0, 30)
    a = layout.area_mm
    corners = stage.camera.project(np.array([(0, 0), (a, 0), (a, a), (0, a)], float))
    calibration = from_corners(corners, (stage.camera.width, stage.camera.height), layout,
                               rules.order.dealer)
    keeper = CalibrationKeeper(calibration, layout, rules.order.dealer, fixed=True,
                               follow=follow)
    result = _session_over(stage, shots, rng, rules, keeper)
    said = [s.announcement for s in result.said]
    if follow:
        assert keeper.moves == 1
        assert [(e.seat, e.card) for e in result.landings] == played, result.landings
        assert [a.kind for a in said] == ["trump"], [a.message for a in said]
    else:
        assert keeper.moves == 0
        assert "trick_missed" in [a.kind for a in said], [a.message for a in said]


@pytest.mark.parametrize("after_s", [1.0, 7.0], ids=["frames end first", "time runs out"])
def test_a_session_says_what_it_held_back_for_a_card_picked_up(after_s):
    """The session's part in holding back what is said of a trick taken for swept while its
    card may come back (``vision.game.HELD_BACK_S``, 5 s): the first lead picked up and never
    put back, rendered by the studio and read by the real models. Where nothing changes for
    7 s, the trick missed is said 5 s after it was dropped (the session calls the referee when
    it is due); where the frames end 1 s after, it is said as they end (``release``)."""
    from referee import Card
    from vision.game import HELD_BACK_S
    from vision.studio.scene import CardOnTable, Scene

    faces, layout, rules, stage, rng = _clip_table()
    trump, lead = Card.parse("7D"), Card.parse("AH")
    shots = [(Scene(), 6),
             (Scene(cards=[CardOnTable(trump, faces.face(trump),
                                       layout.zone(rules.order.dealer).centre, 80.0)]), 14),
             (Scene(), 14),
             (Scene(cards=[CardOnTable(lead, faces.face(lead),
                                       layout.zone(rules.order.first_leader).centre, 10.0)]),
              14),
             (Scene(), round(after_s * 30))]

    result = _session_over(stage, shots, rng, rules)
    said = result.said
    assert [s.announcement.kind for s in said] == ["trump", "trick_missed"], [
        s.announcement.message for s in said]
    last = sum(count for _, count in shots) - 1
    gone = sum(count for _, count in shots[:-1]) / 30  # the lead picked up
    if after_s < HELD_BACK_S:
        assert said[-1].frame == last
    else:  # (dropped once the table has looked empty a few frames)
        assert gone + HELD_BACK_S < said[-1].time_s < gone + HELD_BACK_S + 1, said[-1]
        assert said[-1].frame < last


@pytest.mark.parametrize("place", ["middle", "corner"])
def test_a_card_put_down_in_nobodys_zone_is_asked_into_its_zone(place):
    """A dealer who shows the trump in no seat's zone, in the middle of the table or tossed
    wide by the corner beside their zone, is asked to move it into their zone (the zone is
    what tells whose card it is); once it lies there it is the trump. Rendered by the studio
    (simplistic, a clip's camera and light) and refereed by the real detector and
    classifier."""
    import numpy as np

    from referee import Card
    from vision.studio.scene import CardOnTable, Scene

    faces, layout, rules, stage, rng = _clip_table()
    dealer = rules.order.dealer
    trump = Card.parse("7D")
    cx, cy = layout.centre
    zone = layout.zone(dealer).centre
    # in the middle, nearer seat 4's zone (55 mm) than seat 3's (85 mm): still the middle,
    # which says nothing of whose card it is; or by a corner, 50 mm beside the dealer's zone
    # and 90 mm from the neighbour's, which names the dealer's as the nearest
    out = np.array(layout.outward(dealer))
    spot = (cx + 35, cy - 5) if place == "middle" else tuple(
        np.array(layout.centre) + out * 180 + np.array([-out[1], out[0]]) * 140)
    shots = [(Scene(), 6),
             (Scene(cards=[CardOnTable(trump, faces.face(trump), spot, 25.0)]), 10),
             (Scene(cards=[CardOnTable(trump, faces.face(trump), zone, 80.0)]), 14),
             (Scene(), 10)]

    result = _session_over(stage, shots, rng, rules)
    said = [s.announcement for s in result.said]
    assert [a.kind for a in said] == ["card_astray", "trump"], [a.message for a in said]
    if place == "middle":
        assert (said[0].card, said[0].seat) == ("7D", None)
        assert said[0].message.startswith("7D lies in the middle of the table")
    else:
        assert (said[0].card, said[0].seat) == ("7D", dealer), said[0].message
        assert said[0].message.startswith(f"7D lies outside every zone, nearest seat "
                                          f"{dealer.number}'s")
    assert str(said[1].card) == "7D"


# simplistic's back is read surely; lattmann's, a back the classifier never saw, likeliest as a
# back but unsurely
@pytest.mark.parametrize("design,sure", [("simplistic", True), ("lattmann", False)])
def test_a_card_laid_face_down_is_asked_to_be_turned_over_then_played(design, sure):
    """The first leader lays their card face down: the referee asks for it to be turned
    over (where the design's back is read surely; else its card is unclear and may lie face
    down), records nothing until it is, and takes the card once it lies face up.
    Rendered by the studio (a clip's camera and light) and read by the real models."""
    from referee import Card
    from vision.studio.faces import BACK
    from vision.studio.scene import CardOnTable, Scene

    faces, layout, rules, stage, rng = _clip_table(design)
    trump, lead = Card.parse("7D"), Card.parse("AH")
    where = layout.zone(rules.order.first_leader).centre
    shots = [(Scene(), 6),
             (Scene(cards=[CardOnTable(trump, faces.face(trump),
                                       layout.zone(rules.order.dealer).centre, 80.0)]), 14),
             (Scene(), 14),
             (Scene(cards=[CardOnTable(BACK, faces.face(BACK), where, 10.0)]), 30),
             (Scene(cards=[CardOnTable(lead, faces.face(lead), where, 10.0)]), 14)]

    result = _session_over(stage, shots, rng, rules)
    said = [s.announcement for s in result.said]
    assert [a.kind for a in said][:1] == ["trump"], [a.message for a in said]
    asked = said[1:]
    assert len(asked) == 1 and asked[0].seat == rules.order.first_leader, [
        a.message for a in said]
    if sure:
        assert asked[0].kind == "card_face_down", asked[0].message
    else:
        assert asked[0].kind == "card_unclear" and asked[0].face_down, asked[0].message
    assert [(e.seat, e.card) for e in result.landings][-1] == (rules.order.first_leader, "AH")


def test_a_card_the_zones_own_look_misses_is_found_on_the_whole_table():
    """Game 2610 of the studio's 960x540 clips (bellot on a striped cloth): seat 3's QS lay
    still and plain to see for 20 frames, but the detector, shown seat 3's zone with 40 or
    100 mm of the table around it, found only a scrap of it, and the trick was swept unread.
    On the whole table, as the network was trained to see it, it is whole. A still zone
    whose card was missed or found only in part is looked at again with a wider margin and,
    where that fails too, on the whole table (its cards alone kept). This picture (that clip's camera, a striped cloth drawn with seed 8,
    a made-up design's queen where seat 3's lay) shows the same: seat 3's own look finds no
    card at all."""
    import numpy as np

    from referee.cards import Card
    from referee.config import RulesConfig
    from referee.seats import Seat
    from vision.layout import TableLayout
    from vision.studio.camera import Camera
    from vision.studio.facesets import TinyFaces
    from vision.studio.scene import CardOnTable, Look, Scene, Stage, render
    from vision.table import from_markers

    camera = Camera(960, 540, 709.57, np.array([[0.997212, 0.074617, 0.0],
                                                [-0.06579, 0.879249, 0.471798],
                                                [0.035204, -0.470483, 0.881707]]),
                    np.array([228.7, 650.2, -767.4]), -0.035, 0.0022)
    layout = TableLayout()
    stage = Stage(camera, layout, "patterned cloth", True, Look(noise=2.0), 8)
    queen = Card.parse("QS")
    lying = Scene([CardOnTable(queen, TinyFaces(0).face(queen), (208.2, 85.4), 17.4)])
    picture, _ = render(stage, lying, np.random.default_rng(8))
    detector, _ = _stages()
    calibration = from_markers(picture, layout)
    # as in the clip (a detector that finds it from the zone alone needs another picture here)
    assert not any(detector.detect(picture, calibration, [Seat(3)]).whole)
    on_the_table = detector.detect(picture, calibration, [Seat(3)], None)
    assert list(on_the_table.whole) == [True] and on_the_table.seats == [Seat(3)]

    result = _session_over(stage, [(Scene(), 20), (lying, 40)], np.random.default_rng(8),
                           RulesConfig())
    assert [(e.seat, e.card) for e in result.landings] == [(Seat(3), "QS")], result.said
