"""What the referee says aloud."""

from __future__ import annotations

from referee.events import GameOver, Outcome
from vision.game import Said
from vision.sinks import spoken


def verdict(score: tuple[int, int], lang: str) -> str | None:
    return spoken(Said(0, 0.0, GameOver(score, Outcome.from_score(score))), lang)


def test_the_verdict_in_portuguese_names_the_winning_pair_or_the_draw():
    assert verdict((76, 44), "pt") == "A dupla A ganhou. 76 a 44"
    assert verdict((60, 60), "pt") == "Empate. 60 a 60"


def test_the_verdict_in_english_is_the_scorers_sentence():
    assert verdict((60, 60), "en") == "The game resulted in a draw. Score: 60 to 60"
