"""``sueca-referee``: the main program, its arguments and the dispatch to its subcommands.

The entry point is thin: it reads the configuration once and hands it to the subcommand, whose
``run_*`` lives in ``vision.commands`` (``replay`` and ``live``: its ``referee``).
``score`` keeps the coursework scorer's own argument handling and wording, so its arguments are
passed to it untouched.
"""

from __future__ import annotations

import argparse
import sys

from referee import __version__
from referee import scorer
from vision.commands import PROG
from vision.commands.check import run_check
from vision.commands.studio import (run_studio_clip, run_studio_deck, run_studio_faces,
                                    run_studio_images, run_studio_sheet)
from vision.commands.table import run_calibrate, run_deck, run_markers
from vision.options import add_mishap_options, at_least, picture_size, share


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
        description="Fetch the card designs (Debian packages gnome-cards-data, "
                    "kdegames-card-data-kf5, racket-common, pokerth-data and "
                    "pysolfc-cardsets, unpacked with dpkg -x; nothing is installed) and "
                    "render every card of every usable design into the face cache "
                    "($SUECA_CACHE or ./cache). Designs already in the cache are kept.")
    faces.add_argument("--split", default="all", choices=["all", "train", "val", "test"],
                       help="which designs to build (default: all)")
    faces.add_argument("--force", action="store_true", help="render designs again")
    faces.add_argument("--workers", type=int, default=None,
                       help="rsvg-convert processes at once (default: one per core)")
    carried = faces.add_mutually_exclusive_group()
    carried.add_argument("--pack", metavar="FILE",
                         help="also write the split's faces, shrunk, to this face pack (about "
                              "17 MB for all designs): what a machine that cannot fetch the "
                              "designs trains from")
    carried.add_argument("--from-pack", metavar="FILE",
                         help="fill the face cache from this face pack instead of fetching and "
                              "rendering the designs (designs already in the cache are kept)")
    faces.set_defaults(run=run_studio_faces)

    images = studio_commands.add_parser(
        "images", help="render labelled still pictures of card tables",
        description="Render random pictures of a card table (or close-ups of a few cards) with "
                    "a labels.csv giving every visible card's name, seat and corners. The same "
                    "seed gives the same set.")
    images.add_argument("--out", required=True, metavar="DIR", help="folder to write")
    images.add_argument("--count", type=at_least(1), default=500, help="pictures (default 500)")
    images.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    _add_render_options(images)
    images.add_argument("--kind", choices=["table", "closeup", "mixed"], default="table",
                        help="whole table as the referee sees it, close-ups of one to three "
                             "cards, or a mix (one in four a close-up); default table")
    images.add_argument("--difficulty", choices=["easy", "normal", "hard"], default="normal",
                        help="how far tilt, light, blur, noise and clutter may go "
                             "(hard: the studio's hardest settings); default normal")
    images.add_argument("--markers", type=share, default=0.5, metavar="P",
                        help="chance that a table picture shows the ArUco markers (default 0.5)")
    images.add_argument("--workers", type=at_least(1), default=None,
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
    add_mishap_options(clip, "; the truth log marks each such card")
    _add_render_options(clip)
    clip.add_argument("--config", metavar="FILE", help="config file (default: config.yaml)")
    clip.set_defaults(run=run_studio_clip)

    deck_picture = studio_commands.add_parser(
        "deck", help="render a picture of a design's court cards laid out for 'sueca-referee "
                     "deck'",
        description="Render the twelve court cards and the back of one design laid out as "
                    "'sueca-referee deck' wants them, on a random table under a random light.")
    deck_picture.add_argument("--design", required=True, metavar="NAME", help="a design's name")
    deck_picture.add_argument("--out", required=True, metavar="PICTURE.jpg",
                              help="picture to write")
    deck_picture.add_argument("--seed", type=int, default=1, help="(default 1)")
    deck_picture.add_argument("--difficulty", choices=["easy", "normal", "hard"],
                              default="normal", help="(default normal)")
    deck_picture.add_argument("--aces", action="store_true",
                              help="the four aces in a row instead (the second picture)")
    deck_picture.set_defaults(run=run_studio_deck)

    sheet = studio_commands.add_parser(
        "sheet", help="a contact sheet of a labelled image set",
        description="Put the first pictures of a labelled set (a folder with labels.csv and "
                    "images/) side by side in one image, optionally with every label drawn.")
    sheet.add_argument("folder", metavar="DIR",
                       help="the image set (its folder, or its labels.csv)")
    sheet.add_argument("--out", required=True, metavar="SHEET.jpg", help="image to write")
    sheet.add_argument("--count", type=at_least(1), default=12, help="pictures (default 12)")
    sheet.add_argument("--columns", type=at_least(1), default=4, help="per row (default 4)")
    sheet.add_argument("--outlines", action="store_true", help="draw each label's outline")
    sheet.set_defaults(run=run_studio_sheet)

    markers = commands.add_parser(
        "markers", help="write a printable sheet of the four table markers",
        description="Write an A4 page (PNG, 300 dpi) with the four ArUco markers (4x4_50, ids "
                    "0-3) at the size config.yaml gives them, to lay inside the corners of the "
                    "play area.")
    markers.add_argument("--out", required=True, metavar="markers.png", help="image to write")
    markers.add_argument("--dpi", type=at_least(1), default=300, help="(default 300)")
    markers.add_argument("--config", metavar="FILE", help="config file (default: config.yaml)")
    markers.set_defaults(run=run_markers)

    calibrate = commands.add_parser(
        "calibrate", help="find the table in a picture and write a calibration file",
        description="Find the table's markers in a picture (or a camera frame) and write "
                    "calibration/NAME.yaml: the homography between picture and table, the "
                    "table's size, the seats, the dealer and the seat zones. Without markers, "
                    "click the play area's four corners in a window (clockwise from the "
                    "top-left, seat 1's side at the bottom), or give them with --corners.")
    _add_picture_source(calibrate, "a picture of the table")
    _add_capture_size(calibrate, "calibrate at the size 'live' will use")
    calibrate.add_argument("--corners", metavar="X1,Y1,...,X4,Y4",
                           help="the play area's corners in the picture, clockwise from the "
                                "top-left (instead of markers or clicking)")
    calibrate.add_argument("--name", default="table", help="calibration name (default table)")
    calibrate.add_argument("--out", metavar="FILE",
                           help="file to write (default calibration/NAME.yaml)")
    calibrate.add_argument("--config", metavar="FILE", help="config file (default: config.yaml)")
    calibrate.set_defaults(run=run_calibrate)

    deck = commands.add_parser(
        "deck", help="show the referee the court cards of your deck",
        description="Lay the deck's twelve court cards out face up in three rows (jacks, "
                    "queens, kings from the top; each row clubs, diamonds, hearts, spades from "
                    "left to right; a card back may end the first row), apart from one another "
                    "on a plain table, and take one picture of them from above. Their crops "
                    "are written to a deck file; with --deck, 'check', 'replay' and 'live' "
                    "then read that deck's court cards by their likeness too, which an "
                    "unfamiliar design's court cards need. If the deck's aces are drawn its "
                    "own way, take a second picture of the four aces in a row, clubs to "
                    "spades: those the classifier does not read surely as they are join the "
                    "deck.")
    source = deck.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", nargs="+", metavar="FILE",
                        help="a picture of the laid-out court cards; and, if you like, a second "
                             "of the four aces in a row, clubs to spades (a deck's aces drawn "
                             "its own way are then read by their likeness too)")
    source.add_argument("--camera", metavar="INDEX|DEVICE", help="take it from a camera")
    _add_capture_size(deck, "court cards shown bigger are cut out sharper")
    deck.add_argument("--aces", action="store_true",
                      help="with --camera: once the court cards are taken, wait for the four "
                           "aces laid in a row too")
    deck.add_argument("--out", required=True, metavar="DECK.npz", help="deck file to write")
    deck.add_argument("--sheet", metavar="SHEET.png",
                      help="also write the crops kept, side by side, to check them by eye")
    deck.add_argument("--wait", type=float, default=30.0, metavar="SECONDS",
                      help="with --camera: keep looking at the camera's pictures until one "
                           "shows the cards laid out as they should be, for up to this long "
                           "(default 30), saying what is wrong meanwhile")
    deck.add_argument("--models", metavar="DIR", help="model folder (default: models/)")
    deck.set_defaults(run=run_deck)

    check = commands.add_parser(
        "check", help="measure detection and reading on a labelled image set",
        description="Run detection and classification on every image of a labelled set and "
                    "compare with its labels: card accuracy, detection recall and precision, "
                    "per-class precision and recall, the most frequent confusions and the worst "
                    "images. Labels with positions (image,card,seat,x1..y4) are matched by "
                    "position; labels with only image,card are compared per image as a "
                    "multiset. A folder without labels.csv, or one image, just gets its "
                    "detections listed.")
    check.add_argument("labels", metavar="LABELS",
                       help="a labels CSV, a folder holding labels.csv (or just images), or "
                            "one image")
    check.add_argument("--crops", action="store_true",
                       help="the images are single cards already cut out and upright")
    check.add_argument("--report", metavar="REPORT.json", help="write the full report as JSON")
    check.add_argument("--errors", metavar="SHEET.png",
                       help="write a contact sheet of the mistakes")
    check.add_argument("--workers", type=at_least(1), default=None,
                       help="processes (default: one per core)")
    check.add_argument("--deck", metavar="DECK.npz",
                       help="the court cards of the deck pictured, as shown with "
                            "'sueca-referee deck' (every image must show that deck)")
    check.add_argument("--models", metavar="DIR", help="model folder (default: models/)")
    check.add_argument("--quiet", action="store_true", help="no progress line")
    check.set_defaults(run=run_check)

    from vision.commands.referee import add_referee_options, run_referee

    replay = commands.add_parser(
        "replay", help="referee a recorded clip (or a folder of frames)",
        description="Referee a recorded game: print each announcement with the video time, "
                    "and the verdict at the end. With --truth, compare with a studio truth log.")
    replay.add_argument("clip", metavar="CLIP", help="a video file, or a folder of pictures")
    replay.add_argument("--truth", metavar="TRUTH.jsonl",
                        help="a studio truth log to compare the plays, tricks and verdict with")
    add_referee_options(replay)
    replay.set_defaults(run=lambda ns: run_referee(ns, "replay"))

    live = commands.add_parser(
        "live", help="referee a real table through a camera",
        description="Referee a real table live. The table is found from its markers (looked "
                    "for again every few seconds) or given with --calibration.")
    live.add_argument("--camera", default="0", metavar="INDEX|DEVICE",
                      help="camera index or device path (default 0)")
    live.add_argument("--width", type=at_least(1), help="capture width")
    live.add_argument("--height", type=at_least(1), help="capture height")
    live.add_argument("--fps", type=at_least(1), help="capture frame rate")
    add_referee_options(live)
    live.set_defaults(run=lambda ns: run_referee(ns, "live"))
    return parser


def _add_picture_source(command: argparse.ArgumentParser, what: str) -> None:
    """``--image FILE`` or ``--camera INDEX|DEVICE``, one of them (``_picture`` reads it)."""
    source = command.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", metavar="FILE", help=what)
    source.add_argument("--camera", metavar="INDEX|DEVICE", help="take a frame from a camera")


def _add_capture_size(command: argparse.ArgumentParser, why: str) -> None:
    """``--width`` and ``--height``: the picture size to ask the camera for, with
    ``--camera`` (``why``: said in the width's help)."""
    command.add_argument("--width", type=at_least(1),
                         help=f"with --camera: capture width ({why})")
    command.add_argument("--height", type=at_least(1), help="with --camera: capture height")


def _add_render_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--designs", default="test", metavar="WHICH",
                         help="card designs: a split (train, val, test, all), 'tiny' (faces "
                              "drawn by the program, no download), or design names separated "
                              "by commas; default test")
    command.add_argument("--size", type=picture_size, default=(1280, 720), metavar="WxH",
                         help="picture size (default 1280x720)")
    command.add_argument("--quiet", action="store_true", help="no progress line")


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
    scorer.exit_with(main)


if __name__ == "__main__":  # python -m vision.cli, where the package is not installed
    entry_point()
