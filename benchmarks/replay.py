"""Replay: how the referee keeps up with a 1280x720 clip, how soon it announces, how much
memory it needs.

    .venv/bin/python benchmarks/replay.py [--clip CLIP --truth TRUTH] [--design NAME]

Without ``--clip`` it renders game1 at 1280x720 with a test design into a temporary folder.
It then times decoding the clip alone and refereeing it (decoding included) in the same run,
three times each in turn, and prints the ratio of the median times (goal: >= 0.5, i.e. the
referee costs no more than the decoding), the frames per second, the delay from each card
coming to rest to its announcement (goal: median <= 5 frames) and the peak memory of
``sueca-referee replay`` on the clip, run on its own (goal: <= 400 MB). It also prints the
time and the CPU time a frame costs either way, and how long the referee waited for decoded
frames: the decoding thread and the referee share the cores, and each runs slower beside the
other than alone.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.config import RulesConfig  # noqa: E402
from vision.classify import CardClassifier  # noqa: E402
from vision.detect import CardDetector  # noqa: E402
from vision.game import TableReferee  # noqa: E402
from vision.models import threads_beside_reading  # noqa: E402
from vision.options import at_least  # noqa: E402
from vision.learning import DeckLearner  # noqa: E402
from vision.session import run_session  # noqa: E402
from vision.sources import Frame, SourceStats, open_source, video_frames  # noqa: E402
from vision.studio.clip import read_truth  # noqa: E402
from vision.table import CalibrationKeeper  # noqa: E402
from vision.track import Tracker  # noqa: E402
from vision.truthcheck import compare_with_truth  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clip", help="a clip to time (default: game1 rendered at 1280x720)")
    parser.add_argument("--truth", help="with --clip: its truth log, which times the delays")
    parser.add_argument("--design", default="test",
                        help="with no --clip: the design game1 is rendered with, or a split "
                             "(its first design; default: test)")
    parser.add_argument("--threads", type=at_least(1), default=threads_beside_reading(),
                        help="onnxruntime threads for the detector and the classifier each "
                             "(default: replay's, %(default)s here: up to two, leaving the "
                             "decoding a core)")
    parser.add_argument("--repeat", type=at_least(1), default=3,
                        help="time decoding and refereeing this many times each, in turn, and "
                             "take the medians (the machine's noise is large)")
    args = parser.parse_args()
    if bool(args.clip) != bool(args.truth):
        parser.error("give --clip and --truth together (the clip's truth log times the delays)")
    for given in (args.clip, args.truth):
        if given and not Path(given).is_file():
            parser.error(f"'{given}' does not exist")
    with tempfile.TemporaryDirectory() as tmp:
        clip, truth = (Path(args.clip), Path(args.truth)) if args.clip else _render(
            Path(tmp), args.design)
        decodes, referees = [], []
        cpu = {"decoding": [], "refereeing": []}  # CPU seconds of the whole process, each run
        waits = []  # seconds the referee spent waiting for its next decoded frame, each run
        for _ in range(args.repeat):
            started, used = time.perf_counter(), time.process_time()
            frames = sum(1 for _ in video_frames(clip))
            decodes.append(time.perf_counter() - started)
            cpu["decoding"].append(time.process_time() - used)
            table = TableReferee(RulesConfig())
            detector = CardDetector(threads=args.threads)
            classifier = CardClassifier(threads=args.threads)
            waited = [0.0]
            started, used = time.perf_counter(), time.process_time()
            # as 'sueca-referee replay' reads it: decoded ahead on a thread of its own
            # (and, as it does without --deck, learning the deck in play)
            result = run_session(_timed(open_source(str(clip), SourceStats()), waited),
                                 detector, classifier, CalibrationKeeper(), Tracker(), table, [],
                                 learner=DeckLearner(classifier))
            referees.append(time.perf_counter() - started)
            cpu["refereeing"].append(time.process_time() - used)
            waits.append(waited[0])
        comparison = compare_with_truth(read_truth(truth), result.said, table.taken)
        # memory: 'sueca-referee replay' on its own, in a process of its own
        peak_mb = _replay_peak_mb(clip)
    decode, referee = statistics.median(decodes), statistics.median(referees)
    print(f"clip: {clip.name}, {frames} frames")
    print(f"decoding alone: {frames / decode:.0f} frames/s; refereeing (decoding included): "
          f"{frames / referee:.0f} frames/s")
    print(f"ratio (decode time / referee time): {decode / referee:.2f}  (goal: >= 0.5; "
          f"medians of {len(decodes)} runs each; the runs' own ratios: "
          + ", ".join(f"{d / r:.2f}" for d, r in zip(decodes, referees)) + ")")
    # where the time goes: both threads share two cores (and their caches), so each runs
    # slower beside the other than alone; the wait says how often decoding was the one behind
    ms = 1000 / frames
    cpu_decoding, cpu_refereeing = (statistics.median(cpu[k]) * ms for k in cpu)
    print(f"a frame: decoding alone {decode * ms:.2f} ms (CPU {cpu_decoding:.2f} ms); refereeing "
          f"{referee * ms:.2f} ms (CPU {cpu_refereeing:.2f} ms), of which "
          f"{statistics.median(waits) * ms:.2f} ms waiting for the next decoded frame")
    print(f"{result.reused_frames} of {result.frames} frames were still and kept their reading")
    if comparison.delays:
        print(f"delay from rest to announcement: median {statistics.median(comparison.delays):.0f}"
              f" frames, worst {max(comparison.delays)} (goal: median <= 5)")
    print(f"peak memory of 'sueca-referee replay' on this clip: {peak_mb:.0f} MB "
          "(goal: <= 400 MB)")
    for line in comparison.lines():
        print(line)


def _timed(frames: Iterator[Frame], waited: list[float]) -> Iterator[Frame]:
    """``frames``, adding to ``waited[0]`` the time spent waiting for each."""
    try:
        while True:
            started = time.perf_counter()
            frame = next(frames, None)
            waited[0] += time.perf_counter() - started
            if frame is None:
                return
            yield frame
    finally:
        getattr(frames, "close", lambda: None)()


def _replay_peak_mb(clip: Path) -> float:
    """The peak memory of 'sueca-referee replay CLIP' in a process of its own, as the kernel
    counts it for that program (VmHWM): the rusage of a child would also count the pages it
    shared with this, larger, process before it started the program."""
    code = ("import sys; from vision.cli import main; code = main(sys.argv[1:]); "
            "print(*[line for line in open('/proc/self/status') if line.startswith('VmHWM')], "
            "file=sys.stderr); sys.exit(code)")
    replay = subprocess.run([sys.executable, "-c", code, "replay", str(clip)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if replay.returncode != 0:
        sys.exit(f"sueca-referee replay {clip} failed: {replay.stderr.strip()[-300:]}")
    found = [line.split() for line in replay.stderr.splitlines() if line.startswith("VmHWM")]
    return float(found[-1][1]) / 1024 if found else float("nan")


def _render(folder: Path, design: str) -> tuple[Path, Path]:
    from vision.studio.clip import game_from_file, render_clip
    from vision.studio.facesets import face_sets

    faces = face_sets(design)[0]
    clip, truth = folder / "game1.mp4", folder / "game1.jsonl"
    render_clip(game_from_file(ROOT / "samples" / "games" / "game1.sueca"), faces, clip, truth,
                seed=7, progress=False)
    return clip, truth


if __name__ == "__main__":
    main()
