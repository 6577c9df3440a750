"""Reading game files: formats accepted, errors with line numbers."""

from __future__ import annotations

import pytest

from referee import Card, GameFileError, parse_game
from tests.helpers import SAMPLE_GAMES

GAME1 = (SAMPLE_GAMES / "game1.sueca").read_text()
TRICKS = GAME1.splitlines()[1:]


def test_sample_game1():
    record = parse_game(GAME1)
    assert record.trump == Card.parse("7D")
    assert [" ".join(map(str, t.cards)) for t in record.tricks][:2] == [
        "AH 2D 5H 2H", "AC 3D 4C KC"]
    assert [t.line for t in record.tricks] == list(range(2, 12))
    assert record.declared_score is None


def test_lowercase_crlf_blank_lines_comments_and_bare_trump():
    text = "# a friendly game\r\n7d\r\n\r\n" + "\r\n\r\n".join(t.lower() for t in TRICKS) + "\r\n"
    record = parse_game(text)
    assert record.trump == Card.parse("7D") and len(record.tricks) == 10
    assert record.tricks[0].line == 4  # the comment and the blank line still count as lines


@pytest.mark.parametrize("line, score", [
    ("Score: 76 - 44", (76, 44)), ("score: 76|44", (76, 44)), ("Score: 76 \u2013 44", (76, 44)),
])
def test_score_line(line, score):
    record = parse_game(GAME1 + line + "\n")
    assert record.declared_score == score and record.score_line == 12


@pytest.mark.parametrize("text, message, line", [
    ("", "The game file is empty: it needs a trump card line and 10 tricks", None),
    ("\n\n  \n", "The game file is empty: it needs a trump card line and 10 tricks", None),
    ("Trump Card: 8D\n" + "\n".join(TRICKS), "Card '8D' is invalid!\nInvalid rank symbol: 8", 1),
    ("AH 2D 5H 2H\n", "The first line must name the trump card, e.g. 'Trump Card: 7D'; "
                      "found: AH 2D 5H 2H", 1),
    ("Trump Card:\n", "The first line must name the trump card, e.g. 'Trump Card: 7D'; "
                      "found: Trump Card:", 1),
    ("Trump Card: 7D\nAH 2D 5H\n", "A trick string must comprise four cards only; "
                                   "the given trick is: AH 2D 5H", 2),
    ("Trump Card: 7D\nAH 2D 5H 2H\nhello\n", "A trick string must comprise four cards only; "
                                             "the given trick is: hello", 3),
    ("Trump Card: 7D\n\nAH 2D 5Z 2H\n", "Card '5Z' is invalid!\nInvalid suit symbol: Z", 3),
    ("Trump Card: 7D\nTrump Card: 5S\n", "The trump card is given twice", 2),
    ("Trump Card: 7D\nScore: 1 - 2\nAH 2D 5H 2H\n",
     "Nothing may follow the score line; found: AH 2D 5H 2H", 3),
    ("Trump Card: 7D\nScore: lots\n", "A score line reads like 'Score: 76 - 44'; "
                                      "found: Score: lots", 2),
])
def test_errors_name_the_line(text, message, line):
    with pytest.raises(GameFileError) as caught:
        parse_game(text)
    error = caught.value
    assert (error.message, error.line) == (message, line)
    expected = message if line is None else f"{message} (line {line} of game file)"
    assert str(error) == expected
