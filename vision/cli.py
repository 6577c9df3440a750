"""``sueca-referee``: the main program and its subcommands.

The entry point is thin: it reads the configuration once and hands it to the subcommand.
``score`` keeps the coursework scorer's own argument handling and wording, so its arguments are
passed to it untouched.
"""

from __future__ import annotations

import argparse
import sys

from typing import TYPE_CHECKING

from referee import __version__
from referee import scorer

if TYPE_CHECKING:
    from vision.layout import TableLayout

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

    images = studio_commands.add_parser(
        "images", help="render labelled still pictures of card tables",
        description="Render random pictures of a card table (or close-ups of a few cards) with "
                    "a labels.csv giving every visible card's name, seat and corners. The same "
                    "seed gives the same set.")
    images.add_argument("--out", required=True, metavar="DIR", help="folder to write")
    images.add_argument("--count", type=_positive_int, default=500, help="pictures (default 500)")
    images.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _add_render_options(images)
    images.add_argument("--kind", choices=["table", "closeup", "mixed"], default="table",
                        help="whole table as the referee sees it, close-ups of one to three "
                             "cards, or a mix (one in four a close-up); default table")
    images.add_argument("--difficulty", choices=["easy", "normal", "hard"], default="normal",
                        help="how far tilt, light, blur, noise and clutter may go "
                             "(hard: the studio's hardest settings); default normal")
    images.add_argument("--markers", type=float, default=0.5, metavar="P",
                        help="chance that a table picture shows the ArUco markers (default 0.5)")
    images.add_argument("--workers", type=_positive_int, default=None,
                        help="processes (default: one per core)")
    images.add_argument("--config", metavar="FILE", help="config file (default: config.yaml)")
    images.set_defaults(run=run_studio_images)

    clip = studio_commands.add_parser(
        "clip", help="render a whole game as a video clip with a truth log",
        description="Render a game as a 30 fps video of the table: the dealer shows the trump, "
                    "each card is carried in by its player's hand, the winner sweeps each trick "
                    "away. The truth log (JSONL) gives the frame each card comes to rest, each "
                    "trick is cleared, what the rules engine announces, and the verdict. Games "
                    "with cheating are rendered as written.")
    clip.add_argument("game_file", nargs="?", metavar="GAME_FILE",
                      help="a game file as sueca-scorer reads it (or use --random)")
    clip.add_argument("--random", type=int, metavar="SEED",
                      help="render a random legal game dealt from SEED instead of a file")
    clip.add_argument("--revoke", action="store_true",
                      help="with --random: one player fails to follow suit once")
    clip.add_argument("--out", required=True, metavar="CLIP.mp4", help="video to write")
    clip.add_argument("--truth", metavar="TRUTH.jsonl",
                      help="truth log to write (default: next to the video, .jsonl)")
    clip.add_argument("--seed", type=int, default=1,
                      help="seed for camera, table, light and movements (default 1)")
    _add_render_options(clip)
    clip.add_argument("--config", metavar="FILE", help="config file (default: config.yaml)")
    clip.set_defaults(run=run_studio_clip)

    sheet = studio_commands.add_parser(
        "sheet", help="a contact sheet of a labelled image set",
        description="Put the first pictures of a labelled set (a folder with labels.csv and "
                    "images/) side by side in one image, optionally with every label drawn.")
    sheet.add_argument("folder", metavar="DIR", help="the image set")
    sheet.add_argument("--out", required=True, metavar="SHEET.jpg", help="image to write")
    sheet.add_argument("--count", type=_positive_int, default=12, help="pictures (default 12)")
    sheet.add_argument("--columns", type=_positive_int, default=4, help="per row (default 4)")
    sheet.add_argument("--outlines", action="store_true", help="draw each label's outline")
    sheet.set_defaults(run=run_studio_sheet)
    return parser


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not '{text}'") from None
    if not (64 <= w <= 7680 and 64 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (64x64 to 7680x4320)")
    return w, h


def _add_render_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--designs", default="test", metavar="WHICH",
                         help="card designs: a split (train, val, test, all), 'tiny' (faces "
                              "drawn by the program, no download), or design names separated "
                              "by commas; default test")
    command.add_argument("--size", type=_size, default=(1280, 720), metavar="WxH",
                         help="picture size (default 1280x720)")
    command.add_argument("--quiet", action="store_true", help="no progress line")


def _layout(ns: argparse.Namespace, command: str) -> TableLayout | None:
    from referee.config import ConfigError
    from vision.layout import LayoutError, load_layout

    try:
        return load_layout(ns.config)
    except (ConfigError, LayoutError) as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return None


def run_studio_images(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.studio.faces import StudioError
    from vision.studio.images import ImageSetSettings, write_image_set

    layout = _layout(ns, "studio images")
    if layout is None:
        return 2
    settings = ImageSetSettings(ns.count, ns.seed, ns.designs, ns.difficulty, ns.kind,
                                ns.size[0], ns.size[1], ns.markers)
    try:
        labels = write_image_set(Path(ns.out), settings, layout, workers=ns.workers,
                                 progress=not ns.quiet,
                                 log=lambda m: print(m, file=sys.stderr))
    except StudioError as error:
        print(f"{PROG} studio images: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{PROG} studio images: cannot write '{ns.out}': {error.strerror or error}",
              file=sys.stderr)
        return 1
    print(f"{ns.count} pictures and {labels}")
    return 0


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


def run_studio_clip(ns: argparse.Namespace) -> int:
    from pathlib import Path

    import numpy as np

    from referee.config import ConfigError, load_rules_config
    from vision.studio.clip import game_from_file, game_from_seed, render_clip
    from vision.studio.faces import StudioError
    from vision.studio.facesets import face_sets

    command = "studio clip"
    if (ns.game_file is None) == (ns.random is None):
        print(f"{PROG} {command}: give either a GAME_FILE or --random SEED", file=sys.stderr)
        return 2
    if ns.revoke and ns.random is None:
        print(f"{PROG} {command}: --revoke goes with --random", file=sys.stderr)
        return 2
    layout = _layout(ns, command)
    if layout is None:
        return 2
    try:
        order = load_rules_config(ns.config).order
    except ConfigError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 2
    out = Path(ns.out)
    truth = Path(ns.truth) if ns.truth else out.with_suffix(".jsonl")
    try:
        game = (game_from_file(ns.game_file, order) if ns.game_file is not None
                else game_from_seed(ns.random, order, ns.revoke))
        designs = face_sets(ns.designs, log=lambda m: print(m, file=sys.stderr))
        faces = designs[int(np.random.default_rng([ns.seed, 5]).integers(len(designs)))]
        frames = render_clip(game, faces, out, truth, ns.seed, layout, ns.size[0], ns.size[1],
                             progress=not ns.quiet, log=lambda m: print(m, file=sys.stderr))
    except StudioError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{PROG} {command}: {error.strerror or error}"
              f"{' (' + error.filename + ')' if getattr(error, 'filename', None) else ''}",
              file=sys.stderr)
        return 1
    seconds = frames / 30
    print(f"{out}: {frames} frames ({seconds:.1f} s, design {faces.name}); truth log {truth}")
    print("\n".join(game.verdict))
    return 0


def run_studio_sheet(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.studio.sheet import contact_sheet

    labels = Path(ns.folder) / "labels.csv"
    try:
        n = contact_sheet(labels, Path(ns.out), ns.count, ns.columns, outlines=ns.outlines)
    except OSError as error:
        where = f": '{error.filename}'" if error.filename else ""
        print(f"{PROG} studio sheet: {error.strerror or error}{where}", file=sys.stderr)
        return 1
    except (KeyError, ValueError) as error:
        print(f"{PROG} studio sheet: '{labels}' is not a labels file ({error})", file=sys.stderr)
        return 1
    print(f"{ns.out}: {n} pictures")
    return 0


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
