"""``sueca-referee``: the main program and its subcommands.

The entry point is thin: it reads the configuration once and hands it to the subcommand.
``score`` keeps the coursework scorer's own argument handling and wording, so its arguments are
passed to it untouched.
"""

from __future__ import annotations

import argparse
import os
import sys

from typing import TYPE_CHECKING

from referee import __version__
from referee import scorer
from vision.options import at_least, cannot_write, picture_size, share

if TYPE_CHECKING:
    from vision.layout import TableLayout

PROG = "sueca-referee"
# frames a camera gives before its pictures are worth looking at (the first of many are dark)
WARM_UP_FRAMES = 5


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
    sheet.add_argument("folder", metavar="DIR", help="the image set")
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

    from vision.refereeing import add_referee_options, run_referee

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


def _add_render_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--designs", default="test", metavar="WHICH",
                         help="card designs: a split (train, val, test, all), 'tiny' (faces "
                              "drawn by the program, no download), or design names separated "
                              "by commas; default test")
    command.add_argument("--size", type=picture_size, default=(1280, 720), metavar="WxH",
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


def _says_unwritable(command: str, *outputs: tuple[str | None, bool]) -> bool:
    """Whether one of ``outputs`` ((path or None, is a picture)) cannot be written; if so,
    says why, for ``command``."""
    for out, picture in outputs:
        problem = out and cannot_write(out, picture)
        if problem:
            print(f"{PROG} {command}: {problem}", file=sys.stderr)
            return True
    return False


def run_studio_sheet(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from vision.studio.sheet import contact_sheet

    labels = Path(ns.folder) / "labels.csv"
    problem = cannot_write(ns.out, picture=True)
    if problem:
        print(f"{PROG} studio sheet: {problem}", file=sys.stderr)
        return 2
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


def run_markers(ns: argparse.Namespace) -> int:
    import cv2

    from vision.table import marker_sheet

    layout = _layout(ns, "markers")
    if layout is None:
        return 2
    problem = cannot_write(ns.out, picture=True)
    if problem:
        print(f"{PROG} markers: {problem}", file=sys.stderr)
        return 2
    page = marker_sheet(layout, ns.dpi)
    if not cv2.imwrite(ns.out, page):
        print(f"{PROG} markers: cannot write '{ns.out}'", file=sys.stderr)
        return 1
    print(f"{ns.out}: four markers of {layout.marker_mm:.0f} mm on an A4 page at {ns.dpi} dpi")
    return 0


def _picture(ns: argparse.Namespace):  # -> np.ndarray | str (why there is none)
    """The picture ``--image`` names, or a frame from ``--camera``."""
    return _grab_frame(ns.camera) if ns.image is None else _read_picture(ns.image)


def _read_picture(path: str):  # -> np.ndarray | str (why there is none)
    from pathlib import Path

    import cv2

    if Path(path).is_dir():
        return f"'{path}' is a folder: give one picture"
    if not Path(path).is_file():  # (before OpenCV, which would warn of it too)
        return f"'{path}' does not exist"
    image = cv2.imread(path)
    return f"cannot read the picture '{path}'" if image is None else image


def _grab_frame(device: str):  # -> np.ndarray | str (the reason it failed)
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)  # we say it in one line
    capture = cv2.VideoCapture(int(device) if device.isdigit() else device)
    try:
        if not capture.isOpened():
            return f"cannot open camera '{device}'"
        frame = None
        for _ in range(WARM_UP_FRAMES):  # the first frames of many webcams are dark
            ok, image = capture.read()
            if ok:
                frame = image
        return frame if frame is not None else f"camera '{device}' gives no pictures"
    finally:
        capture.release()


def _click_corners(image):  # -> np.ndarray | None

    import cv2
    import numpy as np

    from vision.sinks import windows_can_open

    if not windows_can_open():
        return None
    clicks: list[tuple[int, int]] = []
    title = "click the play area's corners: top-left, top-right, bottom-right, bottom-left"

    def on_mouse(event, x, y, *_):  # noqa: ANN001
        if event == cv2.EVENT_LBUTTONDOWN and len(clicks) < 4:
            clicks.append((x, y))

    try:
        cv2.namedWindow(title)
        cv2.setMouseCallback(title, on_mouse)
        while len(clicks) < 4:
            shown = image.copy()
            for point in clicks:
                cv2.circle(shown, point, 6, (0, 0, 255), -1)
            cv2.imshow(title, shown)
            if cv2.waitKey(30) in (27, ord("q")):
                return None
        cv2.destroyWindow(title)
    except cv2.error:
        return None
    return np.array(clicks, float)


def run_calibrate(ns: argparse.Namespace) -> int:
    from pathlib import Path

    from referee.config import ConfigError, load_rules_config
    from vision.table import CalibrationError, from_corners, from_markers, parse_corners

    command = "calibrate"
    layout = _layout(ns, command)
    if layout is None:
        return 2
    try:
        dealer = load_rules_config(ns.config).order.dealer
    except ConfigError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 2
    image = _picture(ns)
    if isinstance(image, str):
        print(f"{PROG} {command}: {image}", file=sys.stderr)
        return 1
    size = (image.shape[1], image.shape[0])
    try:
        if ns.corners:
            calibration = from_corners(parse_corners(ns.corners), size, layout, dealer, ns.name)
        else:
            try:
                calibration = from_markers(image, layout, dealer, ns.name)
            except CalibrationError as missing:
                corners = _click_corners(image)
                if corners is None:
                    raise CalibrationError(f"{missing}; with no window to click in, give the "
                                           "play area's corners with --corners") from None
                calibration = from_corners(corners, size, layout, dealer, ns.name)
    except CalibrationError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    out = Path(ns.out) if ns.out else Path("calibration") / f"{ns.name}.yaml"
    try:
        calibration.save(out)
    except OSError as error:
        print(f"{PROG} {command}: cannot write '{out}': {error.strerror}", file=sys.stderr)
        return 1
    print(f"{out}: table calibrated from {calibration.source} "
          f"({len(calibration.image_points)} points), dealer seat {dealer.number}")
    return 0


def run_deck(ns: argparse.Namespace) -> int:
    from pathlib import Path

    import cv2
    import numpy as np

    from vision.classify import CardClassifier, ClassifierError
    from vision.deck import LAYOUT, SHOWN, DeckError, NothingToKeep, enrol
    from vision.detect import CardDetector, DetectorError
    from vision.models import MODELS

    command = "deck"
    if len(ns.image or []) > 2:
        print(f"{PROG} {command}: give at most two pictures: the court cards', then the aces'",
              file=sys.stderr)
        return 2
    if ns.aces and ns.image:
        print(f"{PROG} {command}: --aces goes with --camera; with --image give the aces' "
              "picture after the court cards'", file=sys.stderr)
        return 2
    pictures = []
    for path in ns.image or []:
        image = _read_picture(path)
        if isinstance(image, str):
            print(f"{PROG} {command}: {image}", file=sys.stderr)
            return 1
        pictures.append((path, image))
    if _says_unwritable(command, (ns.out, False), (ns.sheet, True)):
        return 2
    models = Path(ns.models) if ns.models else MODELS
    notes = []
    try:
        detector = CardDetector(models / "detector.onnx")
        classifier = CardClassifier(models / "cards.onnx")
        if ns.image is None:
            deck = _enrol_from_camera(ns.camera, ns.wait, detector, classifier, "court cards")
            if ns.aces:
                print("court cards taken; now lay the four aces in a row, clubs, diamonds, "
                      "hearts, spades from left to right", file=sys.stderr, flush=True)
                try:
                    deck = deck.joined(_enrol_from_camera(ns.camera, ns.wait, detector,
                                                          classifier, "aces"))
                except NothingToKeep as nothing:
                    notes.append(str(nothing))
        else:
            decks = []
            for path, image in pictures:
                try:
                    decks.append(enrol(image, detector, classifier, source=path))
                except NothingToKeep as nothing:
                    notes.append(f"{path}: {nothing}")
            if not decks or not set(SHOWN) <= {c for d in decks for c in d.cards}:
                raise DeckError(f"no picture shows the court cards: {LAYOUT}")
            deck = decks[0] if len(decks) == 1 else decks[0].joined(decks[1])
    except (DetectorError, ClassifierError, DeckError) as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    try:
        deck.save(ns.out)
        if ns.sheet and not cv2.imwrite(ns.sheet, np.hstack(list(deck.crops))):
            raise OSError(f"cannot write '{ns.sheet}'")
    except OSError as error:
        print(f"{PROG} {command}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"deck written to {ns.out}: {', '.join(deck.cards)}")
    for note in notes:
        print(note)
    return 0


def _enrol_from_camera(device: str, wait_s: float, detector, classifier,  # noqa: ANN001
                       wanted: str):  # noqa: ANN202
    """The deck shown to the camera ``device`` (an index, a device, or a video file or a folder
    of pictures standing in for one): its pictures are looked at one after another, the newest
    each time, until one can be enrolled or ``wait_s`` seconds have gone by; meanwhile each new
    reason a picture is refused is said on stderr, so the players can set the cards right.
    ``wanted``: "court cards" (the court cards laid out) or "aces" (the four aces in a row;
    ``NothingToKeep`` where they all read surely as they are). Raises
    ``DeckError`` with the last reason when none could be."""
    import time

    from vision.deck import ACES, DeckError, NothingToKeep, enrol
    from vision.sources import SourceError, SourceStats, open_source

    stats = SourceStats()
    started = time.monotonic()
    said = why = None
    try:
        for frame in open_source(device, stats):
            if frame.index < WARM_UP_FRAMES:  # the first frames of many webcams are dark
                continue
            try:
                deck = enrol(frame.image, detector, classifier, source=f"camera {device}")
                aces = set(deck.cards) <= set(ACES)
                if aces == (wanted == "aces"):
                    return deck
                why = ("the court cards are still in view: lay the four aces in a row in their "
                       "place" if wanted == "aces" else "those are the aces: first the court "
                       "cards")
            except NothingToKeep:
                if wanted == "aces":
                    raise
                why = "those are the aces: first the court cards"
            except DeckError as error:
                why = str(error)
            if why != said:
                print(f"not yet: {why}", file=sys.stderr, flush=True)
                said = why
            if time.monotonic() - started > wait_s:
                raise DeckError(f"no picture from camera '{device}' could be taken in "
                                f"{wait_s:g} s: {why}")
    except SourceError as error:
        raise DeckError(str(error)) from None
    if why is None:
        raise DeckError(f"camera '{device}' gave no pictures")
    raise DeckError(f"camera '{device}' gave no more pictures before one could be taken: {why}")


def run_studio_deck(ns: argparse.Namespace) -> int:
    import cv2

    from vision.studio.faces import StudioError
    from vision.studio.facesets import face_sets
    from vision.studio.images import deck_picture

    command = "studio deck"
    if _says_unwritable(command, (ns.out, True)):
        return 2
    try:
        faces = face_sets(ns.design)
    except StudioError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    if len(faces) != 1:
        print(f"{PROG} {command}: --design takes one design's name", file=sys.stderr)
        return 2
    picture, _ = deck_picture(faces[0], ns.seed, ns.difficulty, aces=ns.aces)
    if not cv2.imwrite(ns.out, picture):
        print(f"{PROG} {command}: cannot write '{ns.out}'", file=sys.stderr)
        return 1
    print(f"{faces[0].name}'s {'aces' if ns.aces else 'court cards'} laid out: {ns.out}")
    return 0


def run_check(ns: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from vision.check import (
        IMAGE_SUFFIXES,
        ImageTask,
        LabelsError,
        errors_sheet,
        images_in,
        read_labels,
        report,
        run_check,
    )
    from vision.classify import ClassifierError
    from vision.deck import DeckError
    from vision.detect import DetectorError

    command = "check"
    target = Path(ns.labels)
    listing = False
    if target.is_dir():
        if (target / "labels.csv").is_file():
            target = target / "labels.csv"
        else:
            listing = True
    elif not target.exists():
        print(f"{PROG} {command}: '{target}' does not exist", file=sys.stderr)
        return 2
    elif target.suffix.lower() in IMAGE_SUFFIXES:  # one picture: its detections listed
        listing = True
    try:
        if listing:
            tasks = (images_in(target) if target.is_dir()
                     else [ImageTask(str(target), target.name)])
            positioned = False
            if not tasks:
                print(f"{PROG} {command}: no images in '{target}'", file=sys.stderr)
                return 1
        else:
            tasks, positioned = read_labels(target)
    except LabelsError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    if _says_unwritable(command, (ns.report, False), (ns.errors, True)):
        return 2
    workers = ns.workers or os.cpu_count() or 1

    def show(task, result):  # noqa: ANN001, ANN202
        if not listing:
            return
        if "skipped" in result:
            print(f"{task.name}: skipped ({result['skipped']})")
            return
        cards = [f"{f['card'] or 'unread'}"
                 + (f" {f['confidence']:.2f}" if f["card"] else " (partly hidden)")
                 + (f" seat {f['seat']}" if f.get("seat") else "")
                 for f in result["found"]]
        print(f"{task.name}: {', '.join(cards) if cards else 'no cards'}")

    try:
        tally = run_check(tasks, positioned, ns.crops, workers, ns.models, not ns.quiet, show,
                          ns.deck)
    except (ClassifierError, DetectorError, DeckError) as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 1
    summary = report(tally, str(target), ns.crops)
    if not listing:
        _print_check(summary)
    elif tally.skipped:
        print(f"{len(tally.skipped)} image{'s' if len(tally.skipped) != 1 else ''} skipped")
    written = True
    for out, write in ((ns.report, lambda path: path.write_text(json.dumps(summary, indent=1)
                                                                + "\n")),
                       (ns.errors, lambda path: errors_sheet(tally, path))):
        if not out:
            continue
        try:  # each on its own: one that fails does not lose the other
            write(Path(out))
        except OSError as error:
            print(f"{PROG} {command}: cannot write '{out}': {error.strerror or error}",
                  file=sys.stderr)
            written = False
    if not written:
        return 1
    readable = summary["images"] - len(summary["skipped_images"])
    return 0 if readable > 0 else 1


def _print_check(summary: dict) -> None:  # type: ignore[type-arg]
    def pct(value: float | None) -> str:
        return "n/a" if value is None else f"{100 * value:.2f}%"

    print(f"images: {summary['images']} ({len(summary['skipped_images'])} skipped), "
          f"labelled cards: {summary['cards']}")
    print(f"card accuracy: {pct(summary['card_accuracy'])}  detection recall: "
          f"{pct(summary['detection_recall'])}  precision: {pct(summary['detection_precision'])}"
          + (f"  seats: {pct(summary['seat_accuracy'])}" if summary["seat_accuracy"] is not None
             else ""))
    print(f"read right and sure enough to be taken as a play (>= {summary['sure_threshold']}): "
          f"{pct(summary['sure_accuracy'])}")
    wrong = summary["wrong_at_or_above"]
    print(f"read wrongly with confidence >= 0.9: {wrong['0.9']}, >= 0.98: {wrong['0.98']}")
    for item in summary.get("wrong_confident", [])[:10]:
        print(f"  {item['image']}: {item['truth']} read as {item['read']} "
              f"({item['confidence']:.3f})")
    if summary["confusions"]:
        print("most frequent confusions: " + ", ".join(
            f"{c['truth']}->{c['read']} x{c['count']}" for c in summary["confusions"][:8]))
    weak = sorted(((v["recall"] or 0, k) for k, v in summary["per_class"].items()
                   if v["labelled"]))[:5]
    if weak and weak[0][0] < 1:
        print("lowest recall: " + ", ".join(f"{k} {100 * r:.1f}%" for r, k in weak))
    for item in summary["worst_images"][:5]:
        print(f"  {item['image']}: {'; '.join(item['problems'][:4])}")
    for item in summary["skipped_images"][:10]:
        print(f"  skipped {item['image']}: {item['reason']}")


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
