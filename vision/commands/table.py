"""``sueca-referee markers``, ``calibrate`` and ``deck``: setting up a table before a game (the
markers to print, the table's calibration, the deck's court cards shown to the referee).
"""

from __future__ import annotations

import argparse
import sys

from vision.commands import PROG, WARM_UP_FRAMES, says_unwritable, table_layout


def run_markers(ns: argparse.Namespace) -> int:
    import cv2

    from vision.table import marker_sheet

    layout = table_layout(ns, "markers")
    if layout is None:
        return 2
    if says_unwritable("markers", (ns.out, True)):
        return 2
    page = marker_sheet(layout, ns.dpi)
    if not cv2.imwrite(ns.out, page):
        print(f"{PROG} markers: cannot write '{ns.out}'", file=sys.stderr)
        return 1
    print(f"{ns.out}: four markers of {layout.marker_mm:.0f} mm on an A4 page at {ns.dpi} dpi")
    return 0


def _picture(ns: argparse.Namespace):  # -> np.ndarray | str (why there is none)
    """The picture ``--image`` names, or a frame from ``--camera`` (at ``--width`` x
    ``--height``, where given)."""
    if ns.image is None:
        return _grab_frame(ns.camera, ns.width, ns.height)
    return _read_picture(ns.image)


def _size_without_camera(ns: argparse.Namespace, command: str) -> bool:
    """Whether ``--width`` or ``--height`` was given with pictures rather than a camera (said,
    as the usage error it is)."""
    if ns.image is not None and (ns.width or ns.height):
        print(f"{PROG} {command}: --width and --height set a camera's capture size: give them "
              "with --camera", file=sys.stderr)
        return True
    return False


def _read_picture(path: str):  # -> np.ndarray | str (why there is none)
    from pathlib import Path

    import cv2

    if Path(path).is_dir():
        return f"'{path}' is a folder: give one picture"
    if not Path(path).is_file():  # (before OpenCV, which would warn of it too)
        return f"'{path}' does not exist"
    image = cv2.imread(path)
    return f"cannot read the picture '{path}'" if image is None else image


def _grab_frame(device: str, width: int | None = None, height: int | None = None):
    """A frame from the camera ``device`` (asked for ``width`` x ``height`` where given, as
    ``live`` asks: ``vision.sources.camera_frames``), or the reason there is none."""
    from vision.sources import SourceError, camera_frames

    frame = None
    frames = camera_frames(device, width, height, give_up_s=0.0)  # (a picture, not a session)
    try:
        for got in frames:
            frame = got.image
            if got.index + 1 >= WARM_UP_FRAMES:  # the first frames of many webcams are dark
                break
    except SourceError as error:
        return str(error)
    finally:
        frames.close()
    return frame if frame is not None else f"camera '{device}' gives no pictures"


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
    from vision.table import (MARKERS_CHANGED, PLAIN_CORNERS_NOTE, CalibrationError,
                              card_size_advice, corners_to_follow_by, from_corners,
                              from_markers, parse_corners)

    command = "calibrate"
    layout = table_layout(ns, command)
    if layout is None:
        return 2
    try:
        dealer = load_rules_config(ns.config).order.dealer
    except ConfigError as error:
        print(f"{PROG} {command}: {error}", file=sys.stderr)
        return 2
    if _size_without_camera(ns, command):
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
    print(card_size_advice(calibration.card_sizes_px()))
    if calibration.source == "corners" and corners_to_follow_by(image, calibration) \
            < MARKERS_CHANGED:
        print(PLAIN_CORNERS_NOTE[0].upper() + PLAIN_CORNERS_NOTE[1:])
    return 0


def run_deck(ns: argparse.Namespace) -> int:
    from pathlib import Path

    import cv2
    import numpy as np

    from vision.classify import CardClassifier, ClassifierError
    from vision.deck import ACES, LAYOUT, SHOWN, DeckError, NothingToKeep, enrol
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
    if _size_without_camera(ns, command):
        return 2
    pictures = []
    for path in ns.image or []:
        image = _read_picture(path)
        if isinstance(image, str):
            print(f"{PROG} {command}: {image}", file=sys.stderr)
            return 1
        pictures.append((path, image))
    if says_unwritable(command, (ns.out, False), (ns.sheet, True)):
        return 2
    models = Path(ns.models) if ns.models else MODELS
    notes = []
    try:
        detector = CardDetector(models / "detector.onnx")
        classifier = CardClassifier(models / "cards.onnx")
        if ns.image is None:
            size = (ns.width, ns.height)
            deck = _enrol_from_camera(ns.camera, ns.wait, detector, classifier, "court cards",
                                      size)
            if ns.aces:
                print("court cards taken; now lay the four aces in a row, clubs, diamonds, "
                      "hearts, spades from left to right", file=sys.stderr, flush=True)
                try:
                    deck = deck.joined(_enrol_from_camera(ns.camera, ns.wait, detector,
                                                          classifier, "aces", size))
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
    except OSError as error:
        print(f"{PROG} {command}: cannot write '{ns.out}': {error.strerror or error}",
              file=sys.stderr)
        return 1
    if ns.sheet and not cv2.imwrite(ns.sheet, np.hstack(list(deck.crops))):
        print(f"{PROG} {command}: cannot write '{ns.sheet}' (the deck itself is written to "
              f"{ns.out})", file=sys.stderr)
        return 1
    print(f"deck written to {ns.out}: {', '.join(deck.cards)}")
    plain = [ace for ace in ACES if ace not in deck.cards]
    if len(plain) < len(ACES):  # the aces were shown, and some kept
        notes.append(f"{', '.join(plain)}: read surely as they are, so not kept (only aces "
                     "drawn their own way need showing)")
    for note in notes:
        print(note)
    return 0


def _enrol_from_camera(device: str, wait_s: float, detector, classifier,  # noqa: ANN001
                       wanted: str,
                       size: tuple[int | None, int | None] = (None, None)):  # noqa: ANN202
    """The deck shown to the camera ``device`` (an index, a device, or a video file or a folder
    of pictures standing in for one): its pictures are looked at one after another, the newest
    each time, until one can be enrolled or ``wait_s`` seconds have gone by; meanwhile each new
    reason a picture is refused is said on stderr, so the players can set the cards right.
    ``wanted``: "court cards" (the court cards laid out) or "aces" (the four aces in a row;
    ``NothingToKeep`` where they all read surely as they are). ``size``: the picture size
    (width, height) to ask a camera for, where given. Raises ``DeckError`` with the last reason
    when none could be."""
    import time

    from vision.deck import ACES, DeckError, NothingToKeep, enrol
    from vision.sources import SourceError, SourceStats, open_source

    stats = SourceStats()
    started = time.monotonic()
    said = why = None
    try:
        for frame in open_source(device, stats, *size):
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
