"""``sueca-referee``: the main program and its subcommands.

The entry point is thin: it reads the configuration once and hands it to the subcommand.
``score`` keeps the coursework scorer's own argument handling and wording, so its arguments are
passed to it untouched.
"""

from __future__ import annotations

import argparse
import sys

from referee import __version__
from referee import scorer

PROG = "sueca-referee"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="A computer-vision referee for Sueca, the Portuguese trick-taking game.",
        epilog=f"Run '{PROG} COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "score", add_help=False,
        help="score a game written as a text file (as the coursework scorer: [-c | -g] FILE)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "score":
        return scorer.run(args[1:], prog=f"{PROG} score")
    parser = build_parser()
    ns = parser.parse_args(args)
    if ns.command is None:
        parser.print_help()
        return 2
    parser.error(f"unknown command {ns.command}")  # pragma: no cover - argparse rejects first
    return 2


def entry_point() -> None:
    sys.exit(main())
