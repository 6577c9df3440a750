"""Sueca rules: value types, the streaming referee, game files and the coursework scorer.

Pure Python: nothing here imports OpenCV, onnxruntime or touches a camera.
"""

from .cards import FULL_DECK, SUECA_DECK, Card, CardError, Rank, Suit
from .engine import Phase, Referee, RefereeStateError
from .events import (
    Announcement,
    CardAlreadyPlayed,
    CardPlayed,
    CardUnclear,
    Cheat,
    Cut,
    DealerLacksTrump,
    GameOver,
    NotASuecaCard,
    Outcome,
    OutOfTurn,
    RevokeProven,
    TrickWon,
    TrumpDeclared,
    TrumpRevealed,
    TrumpSuitDeclared,
    TrumpSuitRevealed,
)
from .gamefile import GameFileError, GameRecord, parse_game
from .judge import Judgement, judge_game
from .match import Match, MatchRules, MatchScored
from .seats import SEATS, Direction, Pair, Seat, TableOrder
from .tricks import Play, Trick, TrickError

__version__ = "0.1.0"

__all__ = [
    "FULL_DECK", "SUECA_DECK", "Card", "CardError", "Rank", "Suit",
    "Phase", "Referee", "RefereeStateError",
    "Announcement", "CardAlreadyPlayed", "CardPlayed", "CardUnclear", "Cheat", "Cut",
    "DealerLacksTrump", "GameOver", "NotASuecaCard", "Outcome", "OutOfTurn", "RevokeProven",
    "TrickWon", "TrumpDeclared", "TrumpRevealed", "TrumpSuitDeclared", "TrumpSuitRevealed",
    "GameFileError", "GameRecord", "parse_game", "Judgement", "judge_game",
    "Match", "MatchRules", "MatchScored",
    "SEATS", "Direction", "Pair", "Seat", "TableOrder",
    "Play", "Trick", "TrickError",
]
