"""The bundled samples are what the README says they are."""

from __future__ import annotations

import csv

import cv2
import pytest

from tests.helpers import ROOT, SAMPLE_GAMES, score_in_process
from vision.studio.clip import read_truth

CLIPS = ROOT / "samples" / "clips"
IMAGES = ROOT / "samples" / "images"


@pytest.mark.parametrize("name,verdict", [
    ("game1", ["Pair A won the given sueca game.", "Score: 76 | 44"]),
    ("game1c", ["Pair A won the given sueca game.", "Score: 120 | 0"]),
    ("game2", ["The game resulted in a draw.", "Score: 60 | 60"]),
])
def test_bundled_clip_matches_its_game_and_stays_small(name, verdict):
    video = CLIPS / f"{name}.mp4"
    assert video.stat().st_size <= 5 * 1024 * 1024
    truth = read_truth(CLIPS / f"{name}.jsonl")
    _, out, _ = score_in_process(str(SAMPLE_GAMES / f"{name}.sueca"))
    end = truth[-1]
    final = next(r for r in truth if r["event"] == "verdict")
    assert final["lines"] == out.splitlines()
    assert final["lines"][-2:] == verdict
    capture = cv2.VideoCapture(str(video))
    assert capture.isOpened()
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == end["frames"]
    assert capture.get(cv2.CAP_PROP_FPS) == pytest.approx(30, abs=0.5)
    rests = [r for r in truth if r["event"] == "card_rest"]
    assert len(rests) == 40


def test_game1c_clip_logs_the_revoke_of_seat_2_in_round_3():
    truth = read_truth(CLIPS / "game1c.jsonl")
    revokes = [r for r in truth if r.get("kind") == "revoke"]
    assert [(r["seat"], r["round"]) for r in revokes] == [(2, 3)]


def test_bundled_images_are_labelled_and_the_samples_fit_the_budget():
    with (IMAGES / "labels.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    pictures = sorted((IMAGES / "images").glob("*.jpg"))
    assert 180 <= len(pictures) <= 220
    assert {r["image"] for r in rows} <= {f"images/{p.name}" for p in pictures}
    assert len(rows) > len(pictures)  # most pictures show several cards
    total = sum(p.stat().st_size for p in (ROOT / "samples").rglob("*") if p.is_file())
    assert total < 40 * 1024 * 1024
