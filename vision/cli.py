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
    studio = commands.add_parser("studio", help="the table studio: card faces, images, clips")
    studio_commands = studio.add_subparsers(dest="studio_command", metavar="STUDIO_COMMAND",
                                            required=True)
    faces = studio_commands.add_parser(
        "faces", help="fetch the Debian card designs and render the face cache",
        description="Fetch the card designs (Debian packages gnome-cards-data and "
                    "kdegames-card-data-kf5, unpacked with dpkg -x; nothing is installed) and "
                    "render every card of every usable design into the face cache "
                    "($SUECA_CACHE or ./cache). Designs already in the cache are kept.")
    faces.add_argument("--split", default="all", choices=["all", "train", "val", "test"],
                       help="which designs to build (default: all)")
    faces.add_argument("--force", action="store_true", help="render designs again")
    faces.add_argument("--workers", type=int, default=None,
                       help="rsvg-convert processes at once (default: one per core)")
    faces.set_defaults(run=run_studio_faces)
    return parser


def run_studio_faces(ns: argparse.Namespace) -> int:
    from vision.studio.faces import StudioError, build_faces, designs_in

    try:
        folder = build_faces(ns.split, force=ns.force, workers=ns.workers)
    except StudioError as error:
        print(f"{PROG} studio faces: {error}", file=sys.stderr)
        return 1
    built = [d.name for d in designs_in(ns.split) if (folder / d.name / "design.json").exists()]
    print(f"{len(built)} designs in {folder}")
    return 0 if built else 1


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "score":
        return scorer.run(args[1:], prog=f"{PROG} score")
    parser = build_parser()
    ns = parser.parse_args(args)
    if ns.command is None:
        parser.print_help()
        return 2
    try:
        return ns.run(ns)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def entry_point() -> None:
    sys.exit(main())
