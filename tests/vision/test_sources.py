"""Frame sources: videos (whole, truncated, not videos), folders, missing cameras, reading
ahead on a thread."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import cv2
import numpy as np
import pytest

from vision.models import threads_beside_reading
from vision.sources import (Frame, SourceError, SourceStats, camera_frames, folder_frames,
                            open_source, read_ahead, video_frames)


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


def test_reading_ahead_gives_the_same_frames_and_stats(tmp_path):
    write_video(tmp_path / "v.mp4", 40)
    plain, ahead = SourceStats(), SourceStats()
    expected = list(video_frames(tmp_path / "v.mp4", plain))
    got = list(open_source(str(tmp_path / "v.mp4"), ahead))
    assert [f.index for f in got] == [f.index for f in expected]
    assert all(np.array_equal(a.image, b.image) for a, b in zip(got, expected))
    assert ahead == plain


@pytest.mark.parametrize("cores, threads", [(None, 1), (1, 1), (2, 1), (3, 2), (16, 2)])
def test_the_models_leave_a_clips_decoding_a_core(monkeypatch, cores, threads):
    """``replay`` decodes a clip ahead on a thread of its own (with one decoder thread, above:
    the same frames): on two cores the models then take one thread each, not two."""
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert threads_beside_reading() == threads


def test_reading_ahead_raises_what_the_source_raises_after_its_frames():
    def source():
        for n in range(3):
            yield Frame(np.zeros((2, 2, 3), np.uint8), n, n / 30)
        raise SourceError("the file ends in a mess")

    seen = []
    with pytest.raises(SourceError, match="ends in a mess"):
        for frame in read_ahead(source(), budget_mb=0):
            seen.append(frame.index)
    assert seen == [0, 1, 2]


def test_stopping_early_closes_the_source_and_its_thread():
    closed = threading.Event()

    def source():
        try:
            for n in range(10_000):
                yield Frame(np.zeros((2, 2, 3), np.uint8), n, n / 30)
        finally:
            closed.set()

    frames = read_ahead(source(), budget_mb=0)
    assert next(frames).index == 0
    frames.close()
    assert closed.is_set()
    assert not any(t.name == "read-ahead" for t in threading.enumerate())


def test_reading_ahead_holds_no_more_pictures_than_its_budget():
    """Frames are decoded ahead up to a budget of memory, whatever their size: a 1 MB
    picture with a 3 MB budget is decoded at most three frames ahead (and the one the
    caller holds, and the one being decoded)."""
    made = []

    def source():
        for n in range(50):
            made.append(n)
            yield Frame(np.zeros((1024, 1024), np.uint8), n, n / 30)

    frames = read_ahead(source(), budget_mb=3)
    assert next(frames).index == 0
    time.sleep(0.3)  # time enough to decode all 50 were there no budget
    assert 3 <= len(made) <= 5
    assert [f.index for f in frames] == list(range(1, 50))


def test_reading_ahead_takes_a_picture_bigger_than_its_budget():
    pictures = (Frame(np.zeros((2048, 1024), np.uint8), n, n / 30) for n in range(3))
    assert [f.index for f in read_ahead(pictures, budget_mb=1)] == [0, 1, 2]


def test_a_damaged_video_does_not_make_ffmpeg_chatter(tmp_path):
    write_video(tmp_path / "v.mp4", 120)
    data = bytearray((tmp_path / "v.mp4").read_bytes())
    rng = np.random.default_rng(3)
    for at in rng.integers(2000, len(data) - 2000, 300):
        data[at] = int(rng.integers(256))
    (tmp_path / "bad.mp4").write_bytes(bytes(data))
    script = ("import sys; from vision.sources import SourceStats, open_source; "
              "s = SourceStats(); n = sum(1 for _ in open_source(sys.argv[1], s)); print(n)")
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path / "bad.mp4")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and int(run.stdout) > 0
    assert run.stderr == ""


@pytest.mark.parametrize("option", ["--events", "--out"])
def test_an_output_that_cannot_be_written_is_named_before_the_clip_is_played(tmp_path, option):
    from tests.helpers import console_script, run_command

    clip = tmp_path / "clip.mp4"
    write_video(clip, frames=3)
    out = tmp_path / "nowhere" / ("events.jsonl" if option == "--events" else "out.mp4")
    done = run_command([console_script("sueca-referee"), "replay", str(clip), option, str(out)])
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert (f"replay: cannot write '{out}': its folder '{tmp_path / 'nowhere'}' does not exist"
            in done.stderr)
    done = run_command([console_script("sueca-referee"), "replay", str(clip), option,
                        str(tmp_path)])
    assert done.returncode == 2 and f"cannot write '{tmp_path}': it is a folder" in done.stderr


@pytest.mark.parametrize("trump, says", [("10D", "Invalid rank symbol: 10"),
                                          ("7X", "Invalid suit symbol: X")])
def test_a_trump_that_is_no_sueca_card_is_refused_saying_how_to_write_one(tmp_path, trump,
                                                                            says):
    from tests.helpers import console_script, run_command

    clip = tmp_path / "clip.mp4"
    write_video(clip, frames=3)
    done = run_command([console_script("sueca-referee"), "replay", str(clip), "--trump",
                        trump])
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert (f"--trump: '{trump}' is no card of the Sueca deck ({says}); write it as rank and "
            "suit, such as 7D, AS or QH") in done.stderr


def test_an_event_log_already_there_is_kept_not_written_over(tmp_path):
    """A game recorded earlier (say, a crashed game run again without --resume) is moved
    aside, numbered, and said so; a log resumed into is carried on."""
    from tests.helpers import console_script, run_command

    from vision.session import EventLog

    clip = tmp_path / "clip.mp4"
    write_video(clip, frames=3)
    log = tmp_path / "game.jsonl"
    log.write_text('{"record": "session", "command": "live", "deck": null}\n')
    done = run_command([console_script("sueca-referee"), "replay", str(clip), "--events",
                        str(log)])
    kept = tmp_path / "game.1.jsonl"
    assert f"'{log}' held an earlier log, kept as '{kept}'" in done.stderr
    assert kept.read_text() == '{"record": "session", "command": "live", "deck": null}\n'
    assert '"command": "replay"' in log.read_text()
    # the next one is numbered on; an empty file, or one appended to, stays where it is
    EventLog(log).close()
    assert (tmp_path / "game.2.jsonl").is_file() and log.read_text() == ""
    EventLog(log).close()
    assert not (tmp_path / "game.3.jsonl").exists()
    log.write_text("x\n")
    EventLog(log, append=True).close()
    assert log.read_text() == "x\n" and not (tmp_path / "game.3.jsonl").exists()


@pytest.mark.parametrize("content, says", [
    (None, "No such file or directory"),
    ('{"frame": 1}\nnot json\n', "line 2 is not JSON"),
    ("[1, 2]\n", "line 1 is not a JSON object"),
    (b"\xff\xfe\x00binary", "it is not a truth log (not even text)"),
])
def test_a_truth_log_that_cannot_be_read_is_refused_before_the_clip_is_refereed(
        tmp_path, content, says):
    from tests.helpers import console_script, run_command

    clip = tmp_path / "clip.mp4"
    write_video(clip, frames=3)
    truth = tmp_path / "truth.jsonl"
    if isinstance(content, bytes):
        truth.write_bytes(content)
    elif content is not None:
        truth.write_text(content)
    done = run_command([console_script("sueca-referee"), "replay", str(clip), "--truth",
                        str(truth)])
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert f"cannot read the truth log '{truth}': {says}" in done.stderr


@pytest.mark.parametrize("content, says", [
    (b"\xff\xfe\x00binary", "it is not an event log (not even text)"),
    (b'{"record": "session", "command": "replay", "deck": null}\nnot json\n{"frame": 3}\n',
     "line 2 is not JSON"),
    # a file that is nothing like a log, though its only line could be a last line cut short
    (b"x", "it is not an event log"),
    (b'[1, 2]\n{"record": "session"}\n', "line 1 is not a record (a JSON object)"),
    (b'{"record": "track", "frame": 3, "time": 0.1, "holding": {}}\n',
     "line 1: a tracker record without its 'events'"),
    (b'{"record": "track", "frame": 3, "time": 0.1, "events": [], "holding": [1]}\n{}\n',
     "line 1: a broken tracker record"),
    (None, "No such file or directory"),
])
def test_a_log_that_cannot_be_resumed_from_is_named_in_one_line(tmp_path, content, says):
    from tests.helpers import console_script, run_command

    clip = tmp_path / "clip.mp4"
    write_video(clip, frames=3)
    log = tmp_path / "events.jsonl"
    if content is not None:
        log.write_bytes(content)
    done = run_command([console_script("sueca-referee"), "replay", str(clip), "--resume",
                        str(log)])
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"cannot resume from '{log}': {says}" in done.stderr, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    # the log is left as it was
    assert log.read_bytes() == content if content is not None else not log.exists()


def test_show_without_a_display_says_so_and_referees_on(tmp_path):
    """OpenCV's Qt build aborts the whole process when it cannot reach a display, so --show
    must not try to open a window there."""
    from tests.helpers import console_script

    clip = tmp_path / "clip.mp4"
    write_video(clip, frames=3)
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    done = subprocess.run([console_script("sueca-referee"), "replay", str(clip), "--show"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert "--show needs a display (DISPLAY is not set); carrying on" in done.stderr
    assert "(3 frames" in done.stderr and "Game not finished" in done.stdout


class _FakeCamera:
    """Stands in for cv2.VideoCapture: the first one opened gives ``frames`` pictures of
    ``size`` and is then lost; none opens after it."""

    opened = 0

    def __init__(self, target, size=(160, 90), frames=5) -> None:
        _FakeCamera.opened += 1
        self.ok = _FakeCamera.opened == 1
        self.left, self.size = frames, size

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.ok

    def set(self, prop, value) -> bool:
        return True  # (asked for; this camera gives its own size all the same)

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.zeros((self.size[1], self.size[0], 3), np.uint8)

    def release(self) -> None:
        pass


def test_a_camera_says_at_once_what_a_user_must_know_and_keeps_it_otherwise(monkeypatch):
    """A camera that gives another picture size than the one asked for, or is lost, is said
    at once where the stats have somewhere to say it (live), else kept for the end."""
    import vision.sources as sources

    monkeypatch.setattr(sources.cv2, "VideoCapture", _FakeCamera)
    monkeypatch.setattr(sources.time, "sleep", lambda s: None)
    _FakeCamera.opened = 0
    heard: list[str] = []
    stats = SourceStats(say=heard.append)
    frames = list(camera_frames("0", 320, 180, stats=stats, give_up_s=0.05))
    assert len(frames) == 5
    assert heard[0] == "camera '0' gives 160x90 pictures, not the 320x180 asked for"
    assert heard[1] == "camera '0' was lost: opening it again (for up to 0 s)"
    assert heard[2] == "camera '0' was lost and did not come back"
    assert not stats.notes  # all said already
    _FakeCamera.opened = 0
    kept = SourceStats()
    list(camera_frames("0", 160, 90, stats=kept, give_up_s=0.05))
    assert kept.notes == ["camera '0' was lost and did not come back"]  # the size asked for
