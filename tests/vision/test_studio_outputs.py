"""What the studio writes: labelled image sets and game clips with truth logs.

Drawn with the procedural faces at small sizes, so the suite needs no download and stays quick.
"""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.gamefile import parse_game, read_game_text
from referee.judge import judge_game
from referee.seats import Seat, TableOrder
from tests.helpers import SAMPLE_GAMES, console_script, run_command, score_in_process
from vision.detect import SEAT_REACH_MM
from vision.layout import TableLayout
from vision.studio.clip import (
    LAMP_BRIGHTER,
    LAMP_DARKER,
    LAMP_FRAMES,
    LAMP_TINT,
    NUDGE_FRAMES,
    NUDGE_MM,
    NUDGE_TURN_DEG,
    Choreographer,
    Timing,
    clip_stage,
    game_from_file,
    game_from_seed,
    read_truth,
    render_clip,
)
from vision.studio.facesets import TinyFaces
from vision.studio.images import HEADER, ImageSetSettings, write_image_set
from vision.table import from_markers

SMALL = dict(designs="tiny", width=320, height=180)


def digest(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "studio.json"}


def test_same_seed_same_set_whatever_the_workers(tmp_path):
    settings = ImageSetSettings(6, seed=7, difficulty="hard", kind="mixed", **SMALL)
    write_image_set(tmp_path / "one", settings, workers=1, progress=False, log=lambda m: None)
    write_image_set(tmp_path / "two", settings, workers=2, progress=False, log=lambda m: None)
    assert digest(tmp_path / "one") == digest(tmp_path / "two")
    other = ImageSetSettings(6, seed=8, difficulty="hard", kind="mixed", **SMALL)
    write_image_set(tmp_path / "three", other, workers=1, progress=False, log=lambda m: None)
    assert digest(tmp_path / "three") != digest(tmp_path / "one")


def test_labels_file_lists_every_image_and_reads_back(tmp_path):
    settings = ImageSetSettings(8, seed=3, difficulty="normal", **SMALL)
    labels = write_image_set(tmp_path, settings, workers=1, progress=False, log=lambda m: None)
    with labels.open() as handle:
        rows = list(csv.reader(handle))
    assert rows[0] == HEADER
    images = sorted((tmp_path / "images").glob("*.jpg"))
    assert len(images) == 8
    named = {row[0] for row in rows[1:]}
    assert named <= {f"images/{p.name}" for p in images}
    for row in rows[1:]:
        assert row[1] == "back" or row[1][:-1] in {"A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                   "10", "J", "Q", "K"}
        assert row[2] in {"", "1", "2", "3", "4"}
        corners = np.array([float(v) for v in row[3:11]]).reshape(4, 2)
        assert np.isfinite(corners).all()
        assert 0 < float(row[11]) <= 1
        picture = cv2.imread(str(tmp_path / row[0]))
        assert picture.shape == (180, 320, 3)


def test_studio_images_command_and_its_errors(tmp_path):
    exe = console_script("sueca-referee")
    done = run_command([exe, "studio", "images", "--designs", "tiny", "--count", "3",
                        "--size", "320x180", "--out", str(tmp_path / "set"), "--seed", "7",
                        "--quiet"])
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "set" / "labels.csv").exists()
    assert (tmp_path / "set" / "studio.json").exists()
    bad = run_command([exe, "studio", "images", "--designs", "tiny", "--size", "big",
                       "--out", str(tmp_path / "x")])
    assert bad.returncode == 2 and "1280x720" in bad.stderr
    unknown = run_command([exe, "studio", "images", "--designs", "nosuchdeck", "--count", "1",
                           "--out", str(tmp_path / "y"), "--quiet"])
    assert unknown.returncode == 1 and "unknown design 'nosuchdeck'" in unknown.stderr
    certain = run_command([exe, "studio", "images", "--designs", "tiny", "--markers", "2",
                           "--out", str(tmp_path / "z")])
    assert certain.returncode == 2 and "must lie between 0 and 1, not 2" in certain.stderr
    assert not (tmp_path / "z").exists()
    assert "Traceback" not in bad.stderr + unknown.stderr + certain.stderr


def frames_of(game, seed: int = 1):
    director = Choreographer(game, TinyFaces(0), TableLayout(), np.random.default_rng(seed))
    truth = []
    scenes = 0
    for number, frame in enumerate(director.frames()):
        truth += [{"frame": number, **record} for record in frame.truth]
        scenes += 1
    return truth, scenes


@pytest.mark.parametrize("name", ["game1.sueca", "game1c.sueca", "game2.sueca"])
def test_clip_choreography_agrees_with_the_rules_engine(name):
    path = SAMPLE_GAMES / name
    game = game_from_file(path)
    judgement = judge_game(parse_game(read_game_text(path)), str(path), TableOrder())
    truth, frames = frames_of(game)
    rests = [r for r in truth if r["event"] == "card_rest"]
    assert [(r["seat"], r["card"]) for r in rests] == [
        (p.seat.number, str(p.card)) for t in judgement.tricks for p in t.plays]
    assert all(a["frame"] < b["frame"] for a, b in zip(rests, rests[1:]))
    cleared = [r for r in truth if r["event"] == "trick_cleared"]
    trump = judgement.trump.suit
    assert [r["winner"] for r in cleared] == [t.winner(trump).number for t in judgement.tricks]
    assert [r["points"] for r in cleared] == [t.points for t in judgement.tricks]
    # every trick is cleared after its fourth card and before the next trick's first
    for n, clear in enumerate(cleared):
        assert rests[4 * n + 3]["frame"] < clear["frame"]
        if n < 9:
            assert clear["frame"] < rests[4 * n + 4]["frame"]
    shown = next(r for r in truth if r["event"] == "trump_shown")
    assert shown["card"] == str(judgement.trump) and shown["seat"] == 2
    assert shown["frame"] < next(r for r in truth if r["event"] == "trump_taken")["frame"] \
        < rests[0]["frame"]
    # the announcements end with the scorer's own verdict
    status, out, _ = score_in_process("-g", str(path))
    scorer_verdict = [line for line in out.splitlines()
                      if line.startswith(("Pair", "Score", "The game resulted"))][:2]
    over = [r for r in truth if r["event"] == "announce" and r["kind"] == "game_over"]
    assert len(over) == 1 and over[0]["message"].splitlines() == scorer_verdict
    assert game.verdict[-2:] == scorer_verdict


def _choreographed(game, **chances) -> tuple[list[dict], dict[str, dict[int, tuple]]]:
    """The truth records of ``game`` choreographed with ``chances`` (``astray``, ``lift``),
    each with its frame, and where each card lay on the table (not lifted), frame by frame.
    Checks that the plays, their order and the announcements stay the game's."""
    director = Choreographer(game, TinyFaces(0), TableLayout(), np.random.default_rng(3),
                             **chances)
    truth, where = [], {}
    for number, frame in enumerate(director.frames()):
        truth += [{"frame": number, **record} for record in frame.truth]
        for card in frame.scene.cards:
            if not card.lift:
                where.setdefault(str(card.card), {})[number] = card.centre
    plain, _ = frames_of(game)
    assert [(r["seat"], r["card"]) for r in truth if r["event"] == "card_rest"] == [
        (r["seat"], r["card"]) for r in plain if r["event"] == "card_rest"]
    assert [r["message"] for r in truth if r["event"] == "announce"] == [
        r["message"] for r in plain if r["event"] == "announce"]
    return truth, where


def test_a_card_put_down_in_nobodys_zone_first_is_then_slid_into_its_zone():
    """``astray``: some cards lie a while in nobody's zone, before their player moves them
    into their zone: in the middle of the table, or tossed wide by a corner beside the
    player's zone (nearest it, but beyond the detector's reach); the truth log says which
    card and where. The plays, their order and the announcements stay the game's."""
    layout = TableLayout()
    truth, where = _choreographed(game_from_file(SAMPLE_GAMES / "game1.sueca"), astray=0.25)
    astray = [r for r in truth if r["event"] == "card_astray"]
    assert 4 <= len(astray) <= 20, len(astray)
    rests = [r for r in truth if r["event"] == "card_rest"]
    for put in astray:
        rest = next(r for r in rests if r["card"] == put["card"])
        assert rest["seat"] == put["seat"] and put["frame"] < rest["frame"]
        # it lay in nobody's zone when put down, in its player's zone when it came to rest
        seen = where[put["card"]]
        astray_at = seen[put["frame"]]
        assert layout.seat_at(*astray_at, reach=SEAT_REACH_MM) is None
        assert layout.seat_at(*seen[rest["frame"]]).number == put["seat"]
        if put["where"] == "middle":
            assert layout.in_middle(*astray_at)
        else:  # beside its player's zone, clearly nearer it than the neighbour's
            assert not layout.in_middle(*astray_at)
            assert layout.nearest_seat(*astray_at).number == put["seat"]
    assert {put["where"] for put in astray} == {"middle", "corner"}


def test_a_card_played_may_be_picked_up_and_put_back_where_it_lay():
    """``lift``: some players pick their played card up again, hold it off the table a
    moment and put it back where it lay; the truth log says when (``card_lifted``). The plays,
    their order and the announcements stay the game's."""
    truth, where = _choreographed(game_from_file(SAMPLE_GAMES / "game1.sueca"), lift=0.25)
    lifted = [r for r in truth if r["event"] == "card_lifted"]
    assert 4 <= len(lifted) <= 20, len(lifted)
    rests = [r for r in truth if r["event"] == "card_rest"]
    for up in lifted:
        rest = next(r for r in rests if r["card"] == up["card"])
        frames = where[up["card"]]
        assert up["frame"] not in frames  # off the table...
        back = min(n for n in frames if n > up["frame"])
        assert frames[back] == pytest.approx(frames[rest["frame"]])  # ...and back where it lay


def test_a_card_may_be_laid_face_down_and_turned_over_where_it_lies():
    """``face_down``: some players lay their card face down in their zone and turn it over a
    moment later where it lies; the truth log says when it lay face down
    (``card_face_down``). The plays, their order and the announcements stay the game's."""
    layout = TableLayout()
    truth, where = _choreographed(game_from_file(SAMPLE_GAMES / "game1.sueca"), face_down=0.25)
    laid = [r for r in truth if r["event"] == "card_face_down"]
    assert 4 <= len(laid) <= 20, len(laid)
    rests = [r for r in truth if r["event"] == "card_rest"]
    backs = where["back"]
    for down in laid:
        rest = next(r for r in rests if r["card"] == down["card"])
        assert rest["seat"] == down["seat"] and down["frame"] < rest["frame"]
        # a back lay in the player's zone, where the card lies face up once it rests, and
        # no back lies there then
        assert layout.seat_at(*backs[down["frame"]]).number == down["seat"]
        assert where[down["card"]][rest["frame"]] == pytest.approx(backs[down["frame"]])
        assert rest["frame"] not in backs


def _scenes(game, **chances) -> list[tuple]:
    """Frame by frame, what ``game`` choreographed with ``chances`` shows: each card (name,
    place, turn, height), each hand's fingertips, where the camera is and how it is lit."""
    director = Choreographer(game, TinyFaces(0), TableLayout(), np.random.default_rng(3),
                             **chances)
    return [(tuple((str(c.card), c.centre, c.angle, c.lift) for c in f.scene.cards),
             tuple(h.tip for h in f.scene.hands), director.bump, director.lighting)
            for f in director.frames()]


def test_a_knocked_camera_sees_the_table_moved_and_turned_with_it():
    """``Camera.moved``: a point of the table moved and turned with the camera is seen where
    the point was before, and nothing else changes (height, tilt, lens)."""
    layout = TableLayout()
    camera = clip_stage(layout, seed=4, width=640, height=360).camera
    pivot = layout.centre
    points = np.array([(100.0, 120.0), (400.0, 380.0), (650.0, 90.0)])
    assert np.allclose(camera.moved((0.0, 0.0), 0.0, pivot).project(points),
                       camera.project(points))
    a = np.radians(1.5)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    carried = (points - pivot) @ turn.T + pivot + (12.0, -7.0)
    knocked = camera.moved((12.0, -7.0), 1.5, pivot)
    assert np.allclose(knocked.project(carried), camera.project(points), atol=1e-6)
    assert not np.allclose(knocked.project(points), camera.project(points), atol=2.0)
    assert knocked.centre[2] == pytest.approx(camera.centre[2])


def test_the_camera_may_be_knocked_and_stays_where_it_comes_to_rest():
    """``nudge``: after some plays the camera's stand is knocked; the picture moves over a few
    frames to where the camera comes to rest, between 8 and 25 mm from where it first stood,
    and stays there until the next knock. The truth log says where (``camera_nudged``). The
    plays, their order and the announcements stay the game's; the clip is the clip not
    knocked, but for the knocks' frames (the knocks have random numbers of their own); and
    with no knocks it is the clip rendered before knocks were added, frame for frame."""
    game = game_from_file(SAMPLE_GAMES / "game1.sueca")
    truth, _ = _choreographed(game, nudge=0.25)
    knocks = [r for r in truth if r["event"] == "camera_nudged"]
    assert 4 <= len(knocks) <= 20, len(knocks)
    director = Choreographer(game, TinyFaces(0), TableLayout(), np.random.default_rng(3),
                             nudge=0.25)
    seen = [director.bump for _ in director.frames()]
    assert seen[0] == (0.0, 0.0, 0.0)
    moves = [n for n in range(1, len(seen)) if seen[n] != seen[n - 1]]
    ends = [k["frame"] for k in knocks]
    assert set(ends) <= set(moves) and len(moves) == NUDGE_FRAMES * len(knocks)
    for knock in knocks:  # where it says, and still till the next knock moves it
        at = seen[knock["frame"]]
        assert knock["shift_mm"] == pytest.approx(at[:2], abs=0.06)
        assert knock["turn_deg"] == pytest.approx(at[2], abs=0.006)
        assert NUDGE_MM[0] - 0.1 <= np.hypot(*at[:2]) <= NUDGE_MM[1] + 0.1
        assert abs(at[2]) <= NUDGE_TURN_DEG
        after = [n for n in moves if n > knock["frame"]]
        assert all(seen[n] == at for n in range(knock["frame"], after[0] if after else len(seen)))
    def shown(**chances) -> list[tuple]:  # the cards and hands, and where the camera is
        return [(cards, hands, bump) for cards, hands, bump, _ in _scenes(game, lift=0.25,
                                                                          **chances)]

    plain, knocked = shown(), shown(nudge=0.25)
    assert shown(nudge=0.0) == plain
    # knocked, it is the same clip, card for card and hand for hand, with the knocks' frames
    # put in
    moving = {n for n in range(1, len(knocked)) if knocked[n][2] != knocked[n - 1][2]}
    assert len(moving) >= 4 * NUDGE_FRAMES and len(knocked) == len(plain) + len(moving)
    assert [f[:2] for n, f in enumerate(knocked) if n not in moving] == [f[:2] for f in plain]


def test_a_clip_seen_from_a_knocked_camera_shows_the_table_where_it_moved(tmp_path):
    """The rendered clip is drawn from the knocked camera from the knock on: its markers
    are found where that camera sees them, and a card's corners in the truth log are where
    the camera of that moment sees it."""
    game = game_from_file(SAMPLE_GAMES / "game2.sueca")
    fast = Timing(carry=3, withdraw=2, between=1, trump_shown=3, before_sweep=2, gather=2,
                  pull=2, tail=2)
    out, truth_path = tmp_path / "k.mp4", tmp_path / "k.jsonl"
    layout = TableLayout()
    render_clip(game, TinyFaces(1), out, truth_path, seed=5, width=960, height=540,
                timing=fast, progress=False, nudge=0.2)
    truth = read_truth(truth_path)
    knocks = [r for r in truth if r["event"] == "camera_nudged"]
    assert knocks
    first = clip_stage(layout, 5, 960, 540).camera
    last = knocks[-1]
    knocked = first.moved(tuple(last["shift_mm"]), last["turn_deg"], layout.centre)
    capture = cv2.VideoCapture(str(out))
    capture.set(cv2.CAP_PROP_POS_FRAMES, truth[-1]["frames"] - 1)
    ok, picture = capture.read()
    capture.release()
    assert ok
    found = from_markers(picture, layout, Seat(2))
    corners = np.array([(0.0, 0.0), (layout.area_mm, 0.0), (layout.area_mm, layout.area_mm)])
    assert np.abs(found.to_image(corners) - knocked.project(corners)).max() < 3.0
    assert np.abs(found.to_image(corners) - first.project(corners)).max() > 5.0
    rest = next(r for r in truth if r["event"] == "card_rest" and r["frame"] > last["frame"])
    assert np.allclose(rest["corners"], knocked.project(np.array(rest["corners_mm"])),
                       atol=0.06)


def test_the_light_may_change_and_stays_as_it_settles():
    """``lamp``: after some plays the light changes over a few frames, darker or brighter
    against the clip's first and a little warmer or colder, and stays so until the next
    change; the truth log says how (``light_changed``). Else the clip is the clip with a
    steady light, card for card and hand for hand."""
    game = game_from_file(SAMPLE_GAMES / "game1.sueca")
    truth, _ = _choreographed(game, lamp=0.25)
    changes = [r for r in truth if r["event"] == "light_changed"]
    assert 4 <= len(changes) <= 20, len(changes)
    assert any(c["exposure"] < 1 for c in changes) and any(c["exposure"] > 1 for c in changes)

    def shown(**chances) -> list[tuple]:  # the cards and hands, and how the light is
        return [(cards, hands, light) for cards, hands, _, light in _scenes(game, **chances)]

    plain, lit = shown(), shown(lamp=0.25)
    changing = {n for n in range(1, len(lit)) if lit[n][2] != lit[n - 1][2]}
    assert len(changing) == LAMP_FRAMES * len(changes) and len(lit) == len(plain) + len(changing)
    assert [f[:2] for n, f in enumerate(lit) if n not in changing] == [f[:2] for f in plain]
    for change in changes:
        gain, tint = lit[change["frame"]][2]
        assert change["exposure"] == pytest.approx(gain, abs=0.001)
        assert change["tint"] == pytest.approx(tint, abs=0.001)
        assert LAMP_DARKER[0] <= gain <= LAMP_DARKER[1] or LAMP_BRIGHTER[0] <= gain <= \
            LAMP_BRIGHTER[1]
        assert all(abs(t - 1) <= LAMP_TINT for t in tint)


def test_a_clip_under_a_changed_light_is_drawn_brighter_or_darker_by_as_much(tmp_path):
    """The rendered picture follows the light: the same still table before a change and after
    it differs in brightness by the exposures' ratio."""
    game = game_from_file(SAMPLE_GAMES / "game2.sueca")
    fast = Timing(carry=3, withdraw=2, between=1, trump_shown=3, before_sweep=2, gather=2,
                  pull=2, tail=2)
    out, truth_path = tmp_path / "l.mp4", tmp_path / "l.jsonl"
    render_clip(game, TinyFaces(1), out, truth_path, seed=5, width=320, height=180,
                timing=fast, progress=False, lamp=0.2)
    changes = [r for r in read_truth(truth_path) if r["event"] == "light_changed"]
    assert len(changes) >= 2
    pictures = []
    capture = cv2.VideoCapture(str(out))
    ok, picture = capture.read()
    while ok:
        pictures.append(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float64))
        ok, picture = capture.read()
    capture.release()
    level = 1.0
    for change in changes:
        before, after = pictures[change["frame"] - LAMP_FRAMES], pictures[change["frame"]]
        fair = (before > 20) & (before < 200) & (after < 250)  # (not lost to black or white)
        ratio = float(np.median(after[fair] / before[fair]))
        assert ratio == pytest.approx(change["exposure"] / level, rel=0.08), change
        level = change["exposure"]


def test_a_revoke_clip_announces_the_revoke_once():
    truth, _ = frames_of(game_from_file(SAMPLE_GAMES / "game1c.sueca"))
    revokes = [r for r in truth if r["event"] == "announce" and r["kind"] == "revoke"]
    assert [(r["seat"], r["round"]) for r in revokes] == [(2, 3)]


def test_random_games_render_as_dealt():
    game = game_from_seed(11, revoke=True)
    truth, _ = frames_of(game, seed=4)
    assert len([r for r in truth if r["event"] == "card_rest"]) == 40
    assert any(r["event"] == "announce" and r["kind"] == "revoke" for r in truth)


def test_rendered_clip_has_the_frames_its_truth_log_counts(tmp_path):
    game = game_from_file(SAMPLE_GAMES / "game2.sueca")
    fast = Timing(carry=3, withdraw=2, between=1, trump_shown=3, before_sweep=2, gather=2,
                  pull=2, tail=2)
    out, truth_path = tmp_path / "g2.mp4", tmp_path / "g2.jsonl"
    frames = render_clip(game, TinyFaces(1), out, truth_path, seed=5, width=320, height=180,
                         timing=fast, progress=False)
    truth = read_truth(truth_path)
    assert truth[0]["event"] == "clip" and truth[-1] == {"event": "end", "frames": frames}
    capture = cv2.VideoCapture(str(out))
    count = 0
    while capture.read()[0]:
        count += 1
    assert count == frames
    assert capture.get(cv2.CAP_PROP_FPS) == pytest.approx(30, abs=0.5)
    verdict = next(r for r in truth if r["event"] == "verdict")
    assert verdict["score"] == [60, 60] and verdict["lines"][0] == "The game resulted in a draw."
    # the corners of a resting card are on the picture
    rest = next(r for r in truth if r["event"] == "card_rest")
    corners = np.array(rest["corners"])
    assert ((corners >= 0) & (corners < [320, 180])).all()


def test_studio_clip_command_refuses_bad_input(tmp_path):
    exe = console_script("sueca-referee")
    neither = run_command([exe, "studio", "clip", "--out", str(tmp_path / "a.mp4")])
    assert neither.returncode == 2 and "GAME_FILE or --random" in neither.stderr
    missing = run_command([exe, "studio", "clip", str(tmp_path / "nope.sueca"),
                           "--out", str(tmp_path / "a.mp4"), "--designs", "tiny"])
    assert missing.returncode == 1 and "could not find the game file" in missing.stderr
    bad = tmp_path / "bad.sueca"
    bad.write_text("Trump Card: 7D\nAH 2D\n")
    broken = run_command([exe, "studio", "clip", str(bad), "--out", str(tmp_path / "a.mp4"),
                          "--designs", "tiny"])
    assert broken.returncode == 1 and "invalid" in broken.stderr
    # a bad card: the scorer's two lines (the fault, then what a card must be) said as one
    card = tmp_path / "card.sueca"
    card.write_text("x\n")
    miscard = run_command([exe, "studio", "clip", str(card), "--out", str(tmp_path / "a.mp4"),
                           "--designs", "tiny"])
    assert miscard.returncode == 1 and len(miscard.stderr.strip().splitlines()) == 1
    assert "is invalid: Card 'x' is invalid! A card string" in miscard.stderr, miscard.stderr
    astray = run_command([exe, "studio", "clip", "--random", "3", "--astray", "1.5",
                          "--out", str(tmp_path / "b.mp4"), "--designs", "tiny"])
    assert astray.returncode == 2 and "must lie between 0 and 1" in astray.stderr
    assert not (tmp_path / "b.mp4").exists()
    for done in (neither, missing, broken, miscard, astray):
        assert "Traceback" not in done.stderr


def test_contact_sheet_of_a_set(tmp_path):
    from vision.studio.sheet import contact_sheet

    settings = ImageSetSettings(5, seed=2, **SMALL)
    labels = write_image_set(tmp_path / "set", settings, workers=1, progress=False,
                             log=lambda m: None)
    n = contact_sheet(labels, tmp_path / "sheet.jpg", count=4, columns=2, tile_width=100,
                      outlines=True)
    sheet = cv2.imread(str(tmp_path / "sheet.jpg"))
    assert n == 4 and sheet.shape[:2] == (2 * 56, 200)
    exe = console_script("sueca-referee")
    done = run_command([exe, "studio", "sheet", str(tmp_path / "none"), "--out",
                        str(tmp_path / "s.jpg")])
    assert done.returncode == 2 and f"'{tmp_path / 'none'}' does not exist" in done.stderr
    assert "Traceback" not in done.stderr
    # the set's labels.csv named itself, as 'check' takes it; a PNG sheet (which takes no
    # JPEG quality: OpenCV warned of it)
    done = run_command([exe, "studio", "sheet", str(labels), "--count", "1", "--out",
                        str(tmp_path / "one.png")])
    assert done.returncode == 0 and "one.png: 1 picture\n" in done.stdout
    assert "unsupported key" not in done.stderr and (tmp_path / "one.png").is_file()
    # a folder that is there, but holds no set
    (tmp_path / "empty").mkdir()
    done = run_command([exe, "studio", "sheet", str(tmp_path / "empty"), "--out",
                        str(tmp_path / "s.jpg")])
    assert done.returncode == 2 and f"no labels.csv in '{tmp_path / 'empty'}'" in done.stderr
    assert not (tmp_path / "s.jpg").exists()


def test_same_seed_same_clip(tmp_path):
    game = game_from_seed(3)
    fast = Timing(carry=2, withdraw=1, between=1, trump_shown=2, before_sweep=1, gather=1,
                  pull=2, tail=1)
    made = []
    for run in ("a", "b", "c"):
        seed = 5 if run != "c" else 6
        render_clip(game, TinyFaces(2), tmp_path / f"{run}.mp4", tmp_path / f"{run}.jsonl",
                    seed=seed, width=256, height=144, timing=fast, progress=False)
        made.append(((tmp_path / f"{run}.mp4").read_bytes(),
                     (tmp_path / f"{run}.jsonl").read_text()))
    assert made[0] == made[1]
    assert made[0][0] != made[2][0] and made[0][1] != made[2][1]


def test_a_clip_frame_that_shows_the_table_as_before_is_drawn_once_and_alike(tmp_path,
                                                                              monkeypatch):
    """A clip draws a frame whose cards lie as in the frame before (no hand, no prop) once:
    the clip is the very same, byte for byte, as one drawn frame by frame, with fewer
    pictures drawn."""
    from vision.studio import clip as clip_module

    game = game_from_seed(3)
    fast = Timing(carry=2, withdraw=1, between=2, trump_shown=3, before_sweep=2, gather=1,
                  pull=2, tail=2)
    drawn = []
    real_render = clip_module.render

    def counted(*args, **kwargs):
        drawn.append(1)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(clip_module, "render", counted)
    made = []
    for run in ("once", "each"):
        if run == "each":
            monkeypatch.setattr(clip_module, "still_key", lambda scene: None)
        drawn.clear()
        frames = render_clip(game, TinyFaces(2), tmp_path / f"{run}.mp4",
                             tmp_path / f"{run}.jsonl", seed=5, width=256, height=144,
                             timing=fast, progress=False)
        made.append(((tmp_path / f"{run}.mp4").read_bytes(), len(drawn), frames))
    (once, drawn_once, frames), (each, drawn_each, _) = made
    assert once == each
    assert drawn_each == frames and drawn_once < 0.9 * frames


def test_studio_clip_passes_its_mishaps_chances_to_the_renderer(tmp_path, monkeypatch):
    """``studio clip --astray P --lift P --face-down P --nudge P --lamp P`` renders with those chances (the
    renderer is stood in for: rendering a whole game takes seconds)."""
    from vision import cli
    from vision.studio import clip as clip_module

    asked = {}

    def render(*args, **kwargs):  # noqa: ANN002, ANN003
        asked.update(kwargs)
        return 30

    monkeypatch.setattr(clip_module, "render_clip", render)
    out = str(tmp_path / "c.mp4")
    assert cli.main(["studio", "clip", "--random", "3", "--astray", "0.25", "--lift", "0.1",
                     "--face-down", "0.2", "--nudge", "0.05", "--lamp", "0.15", "--out", out,
                     "--designs", "tiny", "--quiet"]) == 0
    chances = ("astray", "lift", "face_down", "nudge", "lamp")
    assert tuple(asked[k] for k in chances) == (0.25, 0.1, 0.2, 0.05, 0.15)
    assert cli.main(["studio", "clip", "--random", "3", "--out", out, "--designs", "tiny",
                     "--quiet"]) == 0
    assert tuple(asked[k] for k in chances) == (0.0,) * 5
