"""Frame sources: videos (whole, truncated, not videos), folders, missing cameras."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.sources import SourceError, SourceStats, camera_frames, folder_frames, video_frames


def write_video(path, frames: int = 30, size=(160, 90)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30, size)
    for n in range(frames):
        image = np.full((size[1], size[0], 3), (n * 7) % 255, np.uint8)
        cv2.putText(image, str(n), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (0, 0, 255), 3)
        writer.write(image)
    writer.release()


def test_a_video_gives_every_frame_with_its_time(tmp_path):
    write_video(tmp_path / "v.mp4", 45)
    stats = SourceStats()
    frames = list(video_frames(tmp_path / "v.mp4", stats))
    assert len(frames) == 45 and stats.frames == 45 and not stats.ended_early
    assert frames[30].time_s == pytest.approx(1.0)
    assert [f.index for f in frames] == list(range(45))


def test_a_truncated_video_ends_early_and_says_so(tmp_path):
    write_video(tmp_path / "v.mp4", 300)
    data = (tmp_path / "v.mp4").read_bytes()
    (tmp_path / "cut.mp4").write_bytes(data[: len(data) // 2])
    stats = SourceStats()
    try:
        frames = list(video_frames(tmp_path / "cut.mp4", stats))
    except SourceError as error:  # some containers cannot be opened at all once cut
        assert "cannot open" in str(error) or "no readable frames" in str(error)
        return
    assert len(frames) < 300
    assert stats.ended_early and "truncated" in stats.notes[0]


@pytest.mark.parametrize("content,message", [
    (b"this is not a video", "cannot open"),
    (None, "does not exist"),
])
def test_not_a_video_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "x.mp4"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SourceError, match=message):
        list(video_frames(path))


def test_a_folder_skips_and_counts_unreadable_pictures(tmp_path):
    for n in range(3):
        cv2.imwrite(str(tmp_path / f"{n:02d}.png"), np.zeros((20, 30, 3), np.uint8))
    (tmp_path / "01b.jpg").write_bytes(b"\xff\xd8 broken")
    stats = SourceStats()
    frames = list(folder_frames(tmp_path, 10.0, stats))
    assert len(frames) == 3 and stats.unreadable == 1
    assert frames[-1].time_s == pytest.approx(0.3)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(SourceError, match="no pictures"):
        list(folder_frames(empty))


def test_a_missing_camera_is_a_clear_error():
    with pytest.raises(SourceError, match="cannot open camera '/dev/video99'"):
        next(camera_frames("/dev/video99"))
