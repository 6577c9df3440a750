"""Reading game files.

A game file is plain text::

    Trump Card: 7D          <- line 1: the trump card (a bare ``7D`` is accepted too)
    AH 2D 5H 2H             <- one trick per line, cards in the order they were played
    AC 3D 4C KC
    ...
    Score: 76 - 44          <- optional; checked against the computed score

Blank lines and lines starting with ``#`` are ignored; cards may be lowercase; CRLF line
endings are fine. Errors quote the line number (the trump line is line 1).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .cards import Card, CardError
from .tricks import TrickError, parse_trick_cards

MAX_GAME_FILE_BYTES = 64 * 1024
"""A ten-trick game is a few hundred bytes; anything this big is not a game file."""

_TRUMP_LINE = re.compile(r"^\s*(?:trump(?:\s+card)?\s*:)?\s*(.*?)\s*$", re.IGNORECASE)
_TRUMP_PREFIX = re.compile(r"^\s*trump(?:\s+card)?\s*:", re.IGNORECASE)
_SCORE_LINE = re.compile(r"^\s*score\s*:\s*(.*?)\s*$", re.IGNORECASE)
_SCORE_VALUE = re.compile(r"^(\d{1,3})\s*[-|\u2013\u2014]\s*(\d{1,3})$")


class GameFileError(ValueError):
    """A game file whose text is not a game. ``line`` is the 1-based line number, if any."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(message if line is None else f"{message} (line {line} of game file)")


class GameFileUnreadable(OSError):
    """The file could not be read as text at all (missing, a folder, binary, too big)."""


@dataclass(frozen=True, slots=True)
class TrickLine:
    line: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A parsed game file: the trump card, the tricks with their line numbers, and the
    declared score with its line number, if the file had one."""

    trump: Card
    tricks: tuple[TrickLine, ...]
    declared_score: tuple[int, int] | None = None
    score_line: int | None = None


def read_game_text(path: str | os.PathLike[str]) -> str:
    """Read a game file's text, refusing what cannot be a game file.

    Raises ``FileNotFoundError`` when there is no such file and ``GameFileUnreadable`` (an
    ``OSError``) with a one-line reason for folders, unreadable, binary, non-UTF-8 or
    oversized files.
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(str(path))
    if p.is_dir():
        raise GameFileUnreadable(f"'{path}' is a folder, not a game file")
    try:
        with p.open("rb") as f:
            data = f.read(MAX_GAME_FILE_BYTES + 1)
    except OSError as error:
        raise GameFileUnreadable(f"cannot read '{path}': {error.strerror or error}") from None
    if len(data) > MAX_GAME_FILE_BYTES:
        size = max(p.stat().st_size, len(data))  # devices and pipes report no size
        raise GameFileUnreadable(
            f"'{path}' is too large to be a game file ({'at least ' if size == len(data) else ''}"
            f"{_human_size(size)}; "
            f"a game file is a few hundred bytes)"
        )
    if b"\x00" in data:
        raise GameFileUnreadable(f"'{path}' is a binary file, not a game file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise GameFileUnreadable(
            f"'{path}' is not UTF-8 text (bad byte at offset {error.start})"
        ) from None


def _human_size(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    scaled = float(size)
    for unit in ("KB", "MB", "GB"):
        scaled /= 1024
        if scaled < 1024 or unit == "GB":
            break
    return f"{scaled:.1f} {unit}"


def parse_game(text: str) -> GameRecord:
    """Parse a game file's text. Raises ``GameFileError`` at the first line that is not
    a trump line, a trick of four Sueca cards, or a final score line."""
    numbered = [
        (n, line) for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not numbered:
        raise GameFileError("The game file is empty: it needs a trump card line and 10 tricks")
    trump_no, trump_text = numbered[0]
    trump = _parse_trump(trump_no, trump_text)
    tricks: list[TrickLine] = []
    declared: tuple[int, int] | None = None
    score_no: int | None = None
    for n, line in numbered[1:]:
        if score_no is not None:
            raise GameFileError(f"Nothing may follow the score line; found: {line.strip()}", n)
        score_match = _SCORE_LINE.match(line)
        if score_match:
            declared, score_no = _parse_score(n, score_match.group(1)), n
            continue
        if _TRUMP_PREFIX.match(line):
            raise GameFileError("The trump card is given twice", n)
        tricks.append(TrickLine(n, _parse_trick(n, line)))
    return GameRecord(trump, tuple(tricks), declared, score_no)


def _parse_trump(n: int, line: str) -> Card:
    match = _TRUMP_LINE.match(line)
    value = match.group(1) if match else ""
    tokens = value.split()
    if len(tokens) != 1:
        raise GameFileError(
            f"The first line must name the trump card, e.g. 'Trump Card: 7D'; found: "
            f"{line.strip()}", n)
    try:
        return Card.parse_sueca(tokens[0])
    except CardError as error:
        raise GameFileError(str(error), n) from None


def _parse_trick(n: int, line: str) -> tuple[Card, ...]:
    try:
        return parse_trick_cards(line)
    except (TrickError, CardError) as error:
        raise GameFileError(str(error), n) from None


def _parse_score(n: int, value: str) -> tuple[int, int]:
    match = _SCORE_VALUE.match(value)
    if not match:
        raise GameFileError(f"A score line reads like 'Score: 76 - 44'; found: Score: {value}", n)
    return int(match.group(1)), int(match.group(2))
