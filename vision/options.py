"""Argparse types shared by the program's commands, the training scripts and the benchmarks:
a wrong count, rate, share or picture size is a one-line usage error naming the option, never
a traceback later; and ``cannot_write``, the check every command makes of an output path
before it starts its work."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least(least: int) -> Callable[[str], int]:
    """A whole number no smaller than ``least`` (a count: pictures, epochs, workers)."""
    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return whole_number


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None


def above_zero(text: str) -> float:
    """A number greater than 0 (a learning rate)."""
    if not _number(text) > 0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be greater than 0, not {text}")
    return float(text)


def share(text: str) -> float:
    """A share or chance from 0 to 1."""
    if not 0 <= _number(text) <= 1:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, not {text}")
    return float(text)


# The studio's players' mishaps (``vision.studio.clip.Choreographer``): each option, the
# keyword its chance goes to, and what it does.
MISHAPS = (
    ("--astray", "astray", "the chance that a player first puts their card down in nobody's "
     "zone (the middle of the table, or as often a corner beside their zone), then slides it "
     "into their zone"),
    ("--lift", "lift", "the chance that a player picks their played card up again, holds it a "
     "moment off the table and puts it back where it lay"),
    ("--face-down", "face_down", "the chance that a player lays their card face down in their "
     "zone and turns it over a moment later"),
    ("--nudge", "nudge", "the chance that, a card played, somebody knocks the camera's stand: "
     "the picture slides and turns a little and stays so"),
    ("--lamp", "lamp", "the chance that, a card played, the light changes (a lamp switched on "
     "or off, a cloud): brighter or darker, warmer or colder"),
)


def add_mishap_options(parser: argparse.ArgumentParser, after: str) -> None:
    """The chances of the studio's players' mishaps (``MISHAPS``), for ``studio clip`` and
    the games benchmark alike; ``after`` ends each help text."""
    for flag, _, what in MISHAPS:
        parser.add_argument(flag, type=share, default=0.0, metavar="P",
                            help=f"{what} (default 0{after})")


def mishap_chances(ns: argparse.Namespace) -> dict[str, float]:
    """The mishaps' chances parsed by ``add_mishap_options``, as ``render_clip`` takes them."""
    return {name: getattr(ns, name) for _, name, _ in MISHAPS}


def picture_size(text: str) -> tuple[int, int]:
    """A picture size written WIDTHxHEIGHT, from 64x64 to 7680x4320."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 1280x720, not '{text}'") from None
    if not (64 <= w <= 7680 and 64 <= h <= 4320):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (64x64 to 7680x4320)")
    return w, h


def model_folder(text: str) -> str:
    """A folder holding both models, ``detector.onnx`` and ``cards.onnx``, each loading as a
    model of its kind (a benchmark would otherwise stop with a traceback in its first
    worker)."""
    from pathlib import Path

    from .classify import CardClassifier, ClassifierError
    from .detect import CardDetector, DetectorError

    missing = [name for name in ("detector.onnx", "cards.onnx")
               if not (Path(text) / name).is_file()]
    if missing:
        raise argparse.ArgumentTypeError(f"'{text}' holds no {' and no '.join(missing)}")
    try:
        CardDetector(Path(text) / "detector.onnx", threads=1)
        CardClassifier(Path(text) / "cards.onnx", threads=1)
    except (DetectorError, ClassifierError) as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def cannot_write(path: str, picture: bool = False) -> str | None:
    """Why ``path`` could not be written, found before any work is done (so a long run does
    not end by losing what it made), or None. ``picture``: the file is a picture OpenCV
    writes, and its name must say a kind it can write."""
    from pathlib import Path

    out = Path(path)
    if out.is_dir():
        return f"cannot write '{path}': it is a folder"
    if not out.parent.is_dir():
        return f"cannot write '{path}': its folder '{out.parent}' does not exist"
    if picture:
        import cv2

        if not cv2.haveImageWriter(str(out)):
            kind = f"'{out.suffix}'" if out.suffix else "a name without an extension"
            return f"cannot write a picture as '{path}' ({kind}): name it .png or .jpg"
    return None
