"""Frame sources: a video file, a camera, or a folder of pictures, each a generator of frames.

Every source yields ``Frame(image, index, time_s)`` and keeps a ``SourceStats`` telling how it
went: frames given, unreadable frames skipped, whether a video ended before its length (a
truncated or corrupt file), how often a camera had to be opened again. Sources raise
``SourceError`` (with a one-line reason) only when they cannot start at all.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
# FFmpeg writes its complaints about damaged files straight to the terminal; we say what went
# wrong in one line of our own instead. OpenCV reads this when it first opens a video.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET
# pictures decoded ahead of the referee when replaying (46 frames of 1280x720, 20 of 1920x1080):
# 16 frames of 1280x720 left the referee waiting for frames after each stretch of quiet ones,
# which it gets through faster than one core decodes them (ratio to decoding alone 0.39-0.45
# on a 2-core machine; with this budget 0.47-0.49, peak memory 186 -> 227-272 MB)
READ_AHEAD_MB = 128
PREVIEW_STEP = 8  # the grey preview's pixels are every 8th of the picture's, each way


class SourceError(RuntimeError):
    """A source that cannot be opened; the message says which and why."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    index: int
    time_s: float
    # the picture's grey preview (``preview``), when worked out beside the decoding (by
    # ``read_ahead``), so that the change gate (``vision.motion``) need not on the main thread
    preview: np.ndarray | None = None


def preview(image: np.ndarray, step: int = PREVIEW_STEP) -> np.ndarray:
    """Every ``step``-th pixel of ``image`` each way (from ``step // 2``), grey: what the
    change gate compares from frame to frame."""
    h, w = image.shape[:2]
    if h >= step and w >= step:  # image[step // 2::step, step // 2::step], in C
        small = cv2.resize(image[:h - h % step, :w - w % step], (w // step, h // step),
                           interpolation=cv2.INTER_NEAREST_EXACT)
    else:
        small = np.ascontiguousarray(image[step // 2::step, step // 2::step])
    if small.ndim == 2:
        return small
    if small.size == 0:  # a picture smaller than a step
        return np.zeros(small.shape[:2], np.uint8)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)


@dataclass
class SourceStats:
    frames: int = 0
    unreadable: int = 0
    ended_early: bool = False
    expected: int | None = None
    reopened: int = 0
    notes: list[str] = field(default_factory=list)
    # where a note is said as it happens (a live camera's user wants to know now, not at the
    # end); without it notes are kept for the end
    say: Callable[[str], None] | None = None

    def note(self, text: str) -> None:
        """A note for the user: said now through ``say`` if set, else kept in ``notes``."""
        if self.say is not None:
            self.say(text)
        else:
            self.notes.append(text)


def _quiet() -> None:
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def video_frames(path: str | Path, stats: SourceStats | None = None,
                 threads: int = 0) -> Iterator[Frame]:
    """The frames of a video file. A file that stops decoding before its stated length is
    reported in ``stats`` (``ended_early``), not raised: what was read stays usable.
    ``threads``: how many threads the decoder may use (0: as many as it likes)."""
    _quiet()
    stats = stats if stats is not None else SourceStats()
    path = Path(path)
    if not path.exists():
        raise SourceError(f"video '{path}' does not exist")
    if path.is_dir():
        raise SourceError(f"'{path}' is a folder, not a video (use a folder source)")
    capture = cv2.VideoCapture(str(path), cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, threads]) \
        if threads else cv2.VideoCapture(str(path))
    if not capture.isOpened():
        raise SourceError(f"cannot open '{path}': not a video, or a damaged one")
    fps = capture.get(cv2.CAP_PROP_FPS) or 30.0
    if not 1 <= fps <= 1000:
        fps = 30.0
    count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
    stats.expected = count or None
    index = 0
    failures = 0
    try:
        while True:
            ok, image = capture.read()
            if not ok or image is None:
                failures += 1
                if count and index < count - 1 and failures <= 3:
                    capture.grab()  # try to step over a damaged frame
                    stats.unreadable += 1
                    index += 1
                    continue
                break
            failures = 0
            stats.frames += 1
            yield Frame(image, index, index / fps)
            index += 1
    finally:
        capture.release()
    if count and index < count - 2:
        stats.ended_early = True
        stats.note(f"the video ends at frame {index} of {count}: truncated or damaged")
    if index == 0:
        raise SourceError(f"'{path}' holds no readable frames")


def cannot_open(device: str | int) -> str:
    """What to say of a camera that will not open."""
    return f"cannot open camera '{device}' (is it plugged in, and free?)"


def camera_frames(device: str | int, width: int | None = None, height: int | None = None,
                  fps: float | None = None, stats: SourceStats | None = None,
                  give_up_s: float = 30.0) -> Iterator[Frame]:
    """Live frames from a camera (an index or a device path), with a capture buffer of one
    frame so that each frame is the newest. A camera that stops giving frames is opened again
    every second for up to ``give_up_s`` seconds before the source ends."""
    _quiet()
    stats = stats if stats is not None else SourceStats()
    target = int(device) if isinstance(device, int) or str(device).isdigit() else str(device)

    def open_camera() -> cv2.VideoCapture | None:
        capture = cv2.VideoCapture(target)
        if not capture.isOpened():
            capture.release()
            return None
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if width:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            capture.set(cv2.CAP_PROP_FPS, fps)
        return capture

    capture = open_camera()
    if capture is None:
        raise SourceError(cannot_open(device))
    started = time.monotonic()
    index = 0
    try:
        while True:
            ok, image = capture.read()
            if ok and image is not None:
                if index == 0:  # (the size asked for, where not given, is the one it gives)
                    got = (image.shape[1], image.shape[0])
                    if (width or got[0], height or got[1]) != got:
                        stats.note(f"camera '{device}' gives {got[0]}x{got[1]} pictures, not "
                                   f"the {width or '?'}x{height or '?'} asked for")
                stats.frames += 1
                yield Frame(image, index, time.monotonic() - started)
                index += 1
                continue
            capture.release()
            lost_at = time.monotonic()
            capture = None
            if stats.say is not None:  # (kept notes say it all at the end)
                stats.say(f"camera '{device}' was lost: opening it again (for up to "
                          f"{give_up_s:.0f} s)")
            while capture is None and time.monotonic() - lost_at < give_up_s:
                time.sleep(1.0)
                capture = open_camera()
            if capture is None:
                stats.note(f"camera '{device}' was lost and did not come back")
                return
            stats.reopened += 1
            stats.note(f"camera '{device}' was lost and opened again")
    finally:
        if capture is not None:
            capture.release()


def folder_frames(folder: str | Path, fps: float = 30.0,
                  stats: SourceStats | None = None) -> Iterator[Frame]:
    """The pictures of a folder in name order, as frames ``1 / fps`` apart; unreadable ones are
    skipped and counted."""
    stats = stats if stats is not None else SourceStats()
    folder = Path(folder)
    if not folder.is_dir():
        raise SourceError(f"'{folder}' is not a folder")
    paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not paths:
        raise SourceError(f"no pictures in '{folder}'")
    for index, path in enumerate(paths):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            stats.unreadable += 1
            stats.note(f"skipped unreadable picture {path.name}")
            continue
        stats.frames += 1
        yield Frame(image, index, index / fps)


def read_ahead(frames: Iterator[Frame], budget_mb: float = READ_AHEAD_MB) -> Iterator[Frame]:
    """``frames``, decoded on a thread of their own up to ``budget_mb`` of pictures ahead
    (always at least one frame), so that decoding the next frames (OpenCV lets go of the
    interpreter meanwhile) overlaps with the work on this one, and frames that cost little
    (nothing moved) are taken from the queue while frames that cost much (read by the models)
    let it fill. Each frame's ``preview`` is worked out there
    too. Not for a camera: there the newest frame is wanted, not a queue.

    What the source raises is raised here, in order; the source is closed when the caller
    stops early."""
    budget = budget_mb * 2**20
    waiting: deque = deque()
    held = [0]  # bytes of the pictures waiting
    turn = threading.Condition()
    stop = threading.Event()
    end = object()

    def size(item: object) -> int:
        return item.image.nbytes if isinstance(item, Frame) else 0

    def full(need: int) -> bool:
        return bool(waiting) and held[0] + need > budget

    def give(item: object) -> bool:
        need = size(item)
        with turn:
            while full(need) and not stop.is_set():
                turn.wait(0.1)
            if stop.is_set():
                return False
            waiting.append(item)
            held[0] += need
            turn.notify_all()
        return True

    def pump() -> None:
        try:
            for frame in frames:
                if frame.preview is None:
                    frame = replace(frame, preview=preview(frame.image))
                if not give(frame):
                    break
            else:
                give(end)
        except BaseException as error:  # handed to the caller, raised there
            give(error)
        finally:
            getattr(frames, "close", lambda: None)()

    worker = threading.Thread(target=pump, name="read-ahead", daemon=True)
    worker.start()
    try:
        while True:
            with turn:
                while not waiting:
                    turn.wait()
                item = waiting.popleft()
                held[0] -= size(item)
                turn.notify_all()
            if item is end:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        worker.join()


def open_source(spec: str, stats: SourceStats, width: int | None = None,
                height: int | None = None, fps: float | None = None) -> Iterator[Frame]:
    """A camera for a number or /dev/video*, a folder source for a folder, else a video. Files
    are read ahead on a thread of their own."""
    path = Path(spec)
    if spec.isdigit() or spec.startswith("/dev/video"):
        return camera_frames(spec, width, height, fps, stats)
    if path.is_dir():
        return read_ahead(folder_frames(path, fps or 30.0, stats))
    # one decoding thread: read ahead, it already overlaps the refereeing, and more threads
    # would only take the cores the models run on (a 1280x720 clip still decodes at more than
    # 1,000 frames a second on one core)
    return read_ahead(video_frames(path, stats, threads=1))
