"""The match tally, as played in Portugal: deals are worth games, and a match goes to four.

A deal won with 61-90 points is worth 1 game, 91-119 is 2 games, all 120 is 4 games; a 60-60
draw is worth nothing. A deal decided by cheating counts as 120-0. The thresholds and the games
needed to win the match come from ``config.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from .events import Announcement, GameOver
from .seats import Pair, TableOrder


@dataclass(frozen=True, slots=True)
class MatchRules:
    """``game_points``: (least points, games it is worth), ascending. ``games_to_win``: games
    that win the match."""

    game_points: tuple[tuple[int, int], ...] = ((61, 1), (91, 2), (120, 4))
    games_to_win: int = 4

    def __post_init__(self) -> None:
        thresholds = [p for p, _ in self.game_points]
        if not self.game_points or thresholds != sorted(set(thresholds)):
            raise ValueError("match game_points must be strictly ascending point thresholds")
        if any(not 61 <= p <= 120 or g < 1 for p, g in self.game_points):
            raise ValueError("match game_points thresholds lie in 61..120 and award >= 1 game")
        if self.games_to_win < 1:
            raise ValueError("games_to_win must be at least 1")

    def games_for(self, points: int) -> int:
        """Games won by a pair that took ``points`` of the 120 in a deal."""
        games = 0
        for least, worth in self.game_points:
            if points >= least:
                games = worth
        return games


@dataclass(frozen=True, slots=True)
class MatchScored(Announcement):
    kind: ClassVar[str] = "match_tally"
    deal: int
    games_won: int
    pair: Pair | None
    tally: tuple[int, int]
    match_winner: Pair | None

    @property
    def message(self) -> str:
        head = (f"Deal {self.deal}: {self.pair} takes {self.games_won} "
                f"game{'s' if self.games_won != 1 else ''}" if self.pair and self.games_won
                else f"Deal {self.deal}: no games awarded")
        text = f"{head}. Match: {self.tally[0]} | {self.tally[1]} games"
        if self.match_winner:
            text += f". {self.match_winner} won the match."
        return text


@dataclass
class Match:
    """Carries the games tally from deal to deal and moves the deal round the table."""

    rules: MatchRules = field(default_factory=MatchRules)
    order: TableOrder = field(default_factory=TableOrder)
    games: dict[Pair, int] = field(default_factory=lambda: {Pair.A: 0, Pair.B: 0})
    deals: int = 0

    @property
    def winner(self) -> Pair | None:
        for pair, games in self.games.items():
            if games >= self.rules.games_to_win:
                return pair
        return None

    def record(self, game: GameOver) -> MatchScored:
        """Count a finished deal; the next deal's order moves on one seat."""
        if self.winner is not None:
            raise RuntimeError("the match is already won; start a new Match")
        self.deals += 1
        pair = game.outcome.winner
        won = self.rules.games_for(max(game.score)) if pair else 0
        if pair:
            self.games[pair] += won
        self.order = self.order.next_deal()
        return MatchScored(self.deals, won, pair, (self.games[Pair.A], self.games[Pair.B]),
                           self.winner)
