"""The match tally and the configuration file."""

from __future__ import annotations

import re

import pytest

from referee import GameOver, Match, MatchRules, Outcome, Seat
from referee.config import ConfigError, RulesConfig, load_rules_config
from tests.helpers import ROOT


@pytest.mark.parametrize("points, games", [
    (60, 0), (61, 1), (90, 1), (91, 2), (119, 2), (120, 4),
])
def test_games_for_points(points, games):
    assert MatchRules().games_for(points) == games


def over(a: int, b: int) -> GameOver:
    return GameOver((a, b), Outcome.from_score((a, b)))


def test_a_match_goes_to_four_games_and_the_deal_moves_on():
    match = Match()
    first = match.record(over(76, 44))
    assert (first.games_won, first.tally, first.match_winner) == (1, (1, 0), None)
    assert match.order.dealer == Seat(3)
    draw = match.record(over(60, 60))
    assert (draw.games_won, draw.pair, draw.tally) == (0, None, (1, 0))
    assert draw.message == "Deal 2: no games awarded. Match: 1 | 0 games"
    match.record(over(20, 100))
    last = match.record(over(0, 120))
    assert last.tally == (1, 6) and last.match_winner is not None
    assert last.message.endswith("Pair B won the match.")
    with pytest.raises(RuntimeError):
        match.record(over(70, 50))


@pytest.mark.parametrize("bad", [
    {"game_points": ((91, 2), (61, 1))},
    {"game_points": ((50, 1),)},
    {"games_to_win": 0},
])
def test_match_rules_are_checked(bad):
    with pytest.raises(ValueError):
        MatchRules(**bad)


def test_project_config_is_the_coursework_table():
    config = load_rules_config(ROOT / "config.yaml")
    defaults = RulesConfig()
    assert (config.order, config.match, config.referee) == (
        defaults.order, defaults.match, defaults.referee)


@pytest.mark.parametrize("text, message", [
    ("table: {dealer: 7}", "'table.dealer' must be a seat, 1 to 4, not 7"),
    ("table: {first_leader: 0}", "'table.first_leader' must be a seat, 1 to 4, not 0"),
    ("table: {dealer: 2.5}", "'table.dealer' must be a whole number, not 2.5"),
    ("table: {dealer: 1, first_leader: 1}", "the dealer does not lead the first trick"),
    ("table: {direction: sideways}",
     "'table.direction' must be one of clockwise, anticlockwise, not 'sideways'"),
    ("match: {games_to_win: lots}", "'match.games_to_win' must be a whole number, not 'lots'"),
    ("match: {game_points: [{from: 61}]}", "'match.game_points' must be a list of"),
    ("match: {game_points: [{from: 61, games: x}]}",
     "'match.game_points.games' must be a whole number, not 'x'"),
    ("referee: {min_confidence: yes}", "'referee.min_confidence' must be a number, not True"),
    ("referee: {accuse_confidence: [1]}",
     "'referee.accuse_confidence' must be a number, not [1]"),
    ("referee: {min_confidence: 0.99, accuse_confidence: 0.5}", "min_confidence"),
    ("referee: {follow_suit: 0.5}",
     "'referee.follow_suit' must be at least 1 (1 weighs nothing), not 0.5"),
    ("table: [1, 2]", "'table' must be a mapping"),
    ("- just\n- a list", "must hold a mapping"),
    ("table: {dealer: [", "not valid YAML"),
    ("match: {extra: 1}", "unknown key 'match.extra'"),
    # a section misspelt would otherwise leave every setting in it at its default
    ("referree: {accuse_confidence: 0.99}",
     "unknown section 'referree' (did you mean 'referee'?)"),
    ("colour: blue\nmatch: {games_to_win: 4}",
     "unknown section 'colour' (the sections are table, match, referee, layout)"),
])
def test_bad_config_files(tmp_path, text, message):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_rules_config(path)


def test_missing_config_file(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_rules_config(tmp_path / "nope.yaml")
