"""The text scorer: ``sueca-scorer [-c | -g] <game_file>``, worded as the coursework scorer.

Exit status: 0 for a valid game, 1 for an invalid game, 2 for usage and file errors.
Results go to standard output; usage and file errors to standard error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn, TextIO

from .config import ConfigError, RulesConfig, load_rules_config
from .gamefile import GameFileError, GameFileUnreadable, parse_game, read_game_text
from .judge import Judgement, judge_game
from .seats import SEATS

EXIT_VALID, EXIT_INVALID, EXIT_USAGE = 0, 1, 2

HELP = """\
Score a Sueca game written as a text file, as the coursework scorer does.

options:
  -c             also list the cards each player played
  -g             also list the trump and the tricks in play order
  --config FILE  read the table order (dealer, first leader, direction) from FILE
  -h, --help     show this help

The game file's first line names the trump card ('Trump Card: 7D'); then one trick per line,
four cards in the order played ('AH 2D 5H 2H'); optionally a final 'Score: 76 - 44' line.
Exit status: 0 valid game, 1 invalid game, 2 usage or file error."""


class UsageError(Exception):
    """Bad command-line arguments; the message is printed before the usage line."""


@dataclass(frozen=True, slots=True)
class ScorerArgs:
    game_file: str
    show_cards: bool = False
    show_game: bool = False
    config: str | None = None


def parse_args(argv: list[str]) -> ScorerArgs | None:
    """Read the scorer's arguments; None means help was asked for. Raises ``UsageError``."""
    files: list[str] = []
    show_cards = show_game = False
    config = None
    args = iter(argv)
    for arg in args:
        if arg in ("-h", "--help"):
            return None
        if arg == "--config":
            config = next(args, None)
            if config is None:
                raise UsageError("Option --config needs a file name")
        elif arg.startswith("--config="):
            config = arg.split("=", 1)[1]
        elif arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            if arg.startswith("--") or not set(letters) <= {"c", "g"}:
                raise UsageError(f"Invalid option {arg}")
            show_cards |= "c" in letters
            show_game |= "g" in letters
        else:
            files.append(arg)
    if not files:
        raise UsageError("A game file is missing")
    if len(files) > 1:
        raise UsageError("Only one game file can be scored at a time; got "
                         + ", ".join(f"'{f}'" for f in files))
    return ScorerArgs(files[0], show_cards, show_game, config)


def report_lines(judgement: Judgement, show_cards: bool, show_game: bool) -> list[str]:
    """The scorer's output for a judged game, line by line."""
    lines: list[str] = []
    if judgement.fault is not None:
        lines += ["The game is invalid", judgement.fault.message]
    if not judgement.has_verdict:
        return lines
    score = judgement.score
    lines += [judgement.outcome.verdict, f"Score: {score[0]} | {score[1]}"]
    if show_cards:
        lines.append("Player's cards in the sueca game")
        for seat in SEATS:
            cards = ", ".join(str(c) for c in judgement.cards_of(seat))
            lines.append(f"Player {seat.number}: {cards}")
    if show_game:
        trump = judgement.trump
        lines.append(f"Trump: {trump} | {trump.suit.full_name}")
        lines += [f"{n}: {trick}" for n, trick in enumerate(judgement.tricks, start=1)]
    return lines


def score_file(args: ScorerArgs, rules: RulesConfig, out: TextIO, err: TextIO,
               usage: str) -> int:
    try:
        text = read_game_text(args.game_file)
    except FileNotFoundError:
        print(f"Could not find the game file '{args.game_file}'", file=err)
        print(usage, file=err)
        return EXIT_USAGE
    except GameFileUnreadable as error:
        print(f"Could not read the game file: {error}", file=err)
        return EXIT_USAGE
    try:
        record = parse_game(text)
    except GameFileError as error:
        print("The game is invalid", file=out)
        print(str(error), file=out)
        return EXIT_INVALID
    judgement = judge_game(record, args.game_file, rules.order)
    for line in report_lines(judgement, args.show_cards, args.show_game):
        print(line, file=out)
    status = EXIT_VALID if judgement.is_valid else EXIT_INVALID
    declared = record.declared_score
    if judgement.has_verdict and declared is not None and declared != judgement.score:
        print(f"The score line says {declared[0]} | {declared[1]} but the tricks give "
              f"{judgement.score[0]} | {judgement.score[1]} (line {record.score_line} of game "
              f"file)", file=out)
        status = EXIT_INVALID
    return status


def run(argv: list[str], prog: str = "sueca-scorer", out: TextIO | None = None,
        err: TextIO | None = None) -> int:
    """Run the scorer on ``argv`` (without the program name); return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    usage = f"Usage: {prog} [-c | -g] <game_file>"
    try:
        args = parse_args(argv)
    except UsageError as error:
        print(error, file=err)
        print(usage, file=err)
        return EXIT_USAGE
    if args is None:
        print(usage, file=out)
        print(HELP, file=out)
        return EXIT_VALID
    try:
        rules = load_rules_config(args.config)
    except ConfigError as error:
        print(f"Could not use the configuration: {error}", file=err)
        return EXIT_USAGE
    return score_file(args, rules, out, err, usage)


def exit_with(command: Callable[[], int]) -> NoReturn:
    """Run a console command and exit with its status. When whoever reads its output goes
    away first (``| head``), it stops quietly with status 1, as other command-line tools do,
    rather than with a traceback."""
    try:
        code = command()
        sys.stdout.flush()
    except BrokenPipeError:
        # later writes (and the flush at exit) must not fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    sys.exit(code)


def main() -> None:
    """Console entry point of ``sueca-scorer``."""
    exit_with(lambda: run(sys.argv[1:]))
