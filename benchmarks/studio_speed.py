"""How fast the studio renders: labelled stills and a full ten-trick clip, at 1280x720.

    .venv/bin/python benchmarks/studio_speed.py [--images 1000] [--designs test] [--workers N]

Prints pictures per second, the time for the image set, and the time, frame count and size of
the clip of samples/games/game1.sueca. The goals (issue 3): 1,000 pictures in under five
minutes and a ten-trick clip in under a minute, on two cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.studio.clip import game_from_file, render_clip  # noqa: E402
from vision.studio.facesets import face_sets  # noqa: E402
from vision.studio.images import ImageSetSettings, write_image_set  # noqa: E402
from vision.options import at_least  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--images", type=at_least(1), default=1000,
                        help="labelled pictures to render (default: 1000)")
    parser.add_argument("--designs", default="test",
                        help="a split or design names, as for 'studio images' (default: test)")
    parser.add_argument("--difficulty", default="hard",
                        help="as for 'studio images' (default: hard)")
    parser.add_argument("--workers", type=at_least(1), default=None,
                        help="rendering processes (default: one a core)")
    args = parser.parse_args()
    faces = face_sets(args.designs)
    print(f"cores: {os.cpu_count()}, designs: {args.designs} ({len(faces)})")
    with tempfile.TemporaryDirectory() as tmp:
        settings = ImageSetSettings(args.images, seed=1, designs=args.designs,
                                    difficulty=args.difficulty, kind="mixed")
        started = time.perf_counter()
        write_image_set(Path(tmp) / "set", settings, workers=args.workers, progress=False)
        took = time.perf_counter() - started
        print(f"images: {args.images} at 1280x720 ({args.difficulty}, mixed) in {took:.1f} s "
              f"= {args.images / took:.1f} pictures/s (goal: 1000 in < 300 s)")
        game = game_from_file(ROOT / "samples" / "games" / "game1.sueca")
        started = time.perf_counter()
        out = Path(tmp) / "clip.mp4"
        frames = render_clip(game, faces[0], out, Path(tmp) / "clip.jsonl", seed=1,
                             progress=False)
        took = time.perf_counter() - started
        print(f"clip: game1, {frames} frames at 1280x720 in {took:.1f} s = "
              f"{frames / took:.1f} frames/s, {out.stat().st_size / 1e6:.1f} MB "
              f"(goal: < 60 s)")


if __name__ == "__main__":
    main()
