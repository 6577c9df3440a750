"""Whole games, end to end: the studio renders a random game as a clip, the referee watches it,
and every play, trick, announcement and verdict is checked against the truth log.

The clips are small (640x360) and brisk (few frames per movement) to keep the suite quick, and
drawn with the procedural faces so that no download is needed. Five of the games have a revoke;
none may end with a false accusation.
"""

from __future__ import annotations

import pytest

from referee.config import RulesConfig
from vision.classify import CardClassifier
from vision.detect import CardDetector
from vision.game import TableReferee
from vision.session import run_session
from vision.sources import video_frames
from vision.studio.clip import Timing, game_from_seed, read_truth, render_clip
from vision.studio.facesets import TinyFaces
from vision.table import CalibrationKeeper
from vision.track import Tracker
from vision.truthcheck import compare_with_truth

BRISK = Timing(carry=4, withdraw=3, between=2, trump_shown=8, before_sweep=4, gather=3,
               pull=5, tail=4)
GAMES = [(seed, seed % 4 == 0) for seed in range(1, 21)]  # 5 with a revoke


@pytest.fixture(scope="module")
def stages():
    return CardDetector(threads=1), CardClassifier(threads=1)


def referee_clip(tmp_path, stages, seed: int, revoke: bool):
    game = game_from_seed(seed, revoke=revoke)
    clip, truth_path = tmp_path / "game.mp4", tmp_path / "game.jsonl"
    render_clip(game, TinyFaces(seed % 3), clip, truth_path, seed=seed, width=640, height=360,
                timing=BRISK, progress=False)
    detector, classifier = stages
    table = TableReferee(RulesConfig())
    result = run_session(video_frames(clip), detector, classifier, CalibrationKeeper(),
                         Tracker(), table, [])
    comparison = compare_with_truth(read_truth(truth_path), result.said, table.taken)
    return result, comparison


@pytest.mark.parametrize("seed,revoke", [(2, False), (4, True)])
def test_the_referee_never_accuses_on_a_doubtful_reading(tmp_path, stages, seed, revoke):
    """Whatever the readers get wrong, nobody is accused of cheating they did not do."""
    result, comparison = referee_clip(tmp_path, stages, seed, revoke)
    assert result.frames > 300 and result.calibrated_frames == result.frames
    assert comparison.false_accusations == 0, comparison.lines()


@pytest.mark.xfail(run=False, reason="issues 4 and 5 are open: the first detector and "
                   "classifier miss and misread too many cards to referee whole games")
@pytest.mark.parametrize("seed,revoke", GAMES)
def test_a_random_game_is_refereed_as_the_truth_says(tmp_path, stages, seed, revoke):
    result, comparison = referee_clip(tmp_path, stages, seed, revoke)
    assert comparison.false_accusations == 0, comparison.lines()
    assert comparison.all_right, comparison.lines()
    if revoke:
        assert any(s.announcement.kind == "revoke" for s in result.said)
