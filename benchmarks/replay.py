"""Replay: how the referee keeps up with a 1280x720 clip, how soon it announces, how much
memory it needs.

    .venv/bin/python benchmarks/replay.py [--clip CLIP --truth TRUTH] [--design NAME]

Without ``--clip`` it renders game1 at 1280x720 with a test design into a temporary folder.
It then times decoding the clip alone and refereeing it (decoding included) in the same run,
and prints the ratio (goal: >= 0.5, i.e. the referee costs no more than the decoding), the
frames per second, the delay from each card coming to rest to its announcement (goal: median
<= 5 frames) and the peak memory of the process (goal: <= 400 MB).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.config import RulesConfig  # noqa: E402
from vision.classify import CardClassifier  # noqa: E402
from vision.detect import CardDetector  # noqa: E402
from vision.game import TableReferee  # noqa: E402
from vision.session import run_session  # noqa: E402
from vision.sources import video_frames  # noqa: E402
from vision.studio.clip import read_truth  # noqa: E402
from vision.table import CalibrationKeeper  # noqa: E402
from vision.track import Tracker  # noqa: E402
from vision.truthcheck import compare_with_truth  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clip")
    parser.add_argument("--truth")
    parser.add_argument("--design", default="test")
    parser.add_argument("--threads", type=int, default=2,
                        help="detector threads (the classifier uses one, as replay does)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        clip, truth = (Path(args.clip), Path(args.truth)) if args.clip else _render(
            Path(tmp), args.design)
        started = time.perf_counter()
        frames = sum(1 for _ in video_frames(clip))
        decode = time.perf_counter() - started
        table = TableReferee(RulesConfig())
        started = time.perf_counter()
        result = run_session(video_frames(clip), CardDetector(threads=args.threads),
                             CardClassifier(threads=1), CalibrationKeeper(),
                             Tracker(), table, [])
        referee = time.perf_counter() - started
        comparison = compare_with_truth(read_truth(truth), result.said, table.taken)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"clip: {clip.name}, {frames} frames")
    print(f"decoding alone: {frames / decode:.0f} frames/s; refereeing (decoding included): "
          f"{frames / referee:.0f} frames/s")
    print(f"ratio (decode time / referee time): {decode / referee:.2f}  (goal: >= 0.5); "
          f"{result.reused_frames} of {result.frames} frames were still and kept their reading")
    if comparison.delays:
        print(f"delay from rest to announcement: median {statistics.median(comparison.delays):.0f}"
              f" frames, worst {max(comparison.delays)} (goal: median <= 5)")
    print(f"peak memory: {peak_mb:.0f} MB (goal: <= 400 MB)")
    for line in comparison.lines():
        print(line)


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
