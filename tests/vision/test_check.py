"""Batch checking: reading labels files, comparing readings with labels, and the command."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.helpers import console_script, run_command
from vision.check import (
    MATCH_IOU,
    ImageTask,
    Label,
    SURE,
    LabelsError,
    Tally,
    _quad_iou,
    compare,
    match_outlines,
    misses_by,
    read_labels,
    report,
    sheet_order,
)
from vision.geometry import portrait_order, rectify

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "images"
QUAD = [[10, 10], [70, 10], [70, 100], [10, 100]]


def test_labels_with_positions_and_without(tmp_path):
    full = tmp_path / "full.csv"
    full.write_text("image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4,visible\n"
                    "a.jpg,as,1,10,10,70,10,70,100,10,100,1.00\n"
                    "a.jpg,back,,100,10,160,10,160,100,100,100,0.40\n"
                    "b.jpg,10H,3,1,1,5,1,5,9,1,9,1\n")
    tasks, positioned = read_labels(full)
    assert positioned and [t.name for t in tasks] == ["a.jpg", "b.jpg"]
    assert [lab.card for lab in tasks[0].labels] == ["AS", "back"]
    assert tasks[0].labels[0].seat == 1 and tasks[0].labels[1].seat is None
    assert not tasks[0].labels[1].counted
    cards = tmp_path / "cards.csv"
    cards.write_text("image,card\nx.jpg,QH\nx.jpg,QH\ny.jpg,7D\n")
    tasks, positioned = read_labels(cards)
    assert not positioned and [lab.card for lab in tasks[0].labels] == ["QH", "QH"]


@pytest.mark.parametrize("text,message", [
    ("", "is empty"),
    ("image,card\n\n", r"lists no images \(only its header\)"),
    ("file,name\na.jpg,AS\n", "must start with the columns image,card"),
    ("image,card\na.jpg,1X\n", "line 2: '1X' is not a card"),
    ("image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4\na.jpg,AS,1,2\n", "line 2: 4 values for 11"),
    ("image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4\na.jpg,AS,1,a,b,c,d,e,f,g,h\n", "not a number"),
    ("image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4\na.jpg,AS,1,1,2,3,nan,5,6,7,8\n",
     "line 2: a position is not a number"),
    ("image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4\na.jpg,AS,9,1,2,3,4,5,6,7,8\n",
     "line 2: seat 9 is not a seat"),
    ("image,card,seat,x1,y1,x2,y2,x3,y3,x4,y4,visible\na.jpg,AS,1,1,2,3,4,5,6,7,8,1.5\n",
     "line 2: visible must be a share between 0 and 1"),
])
def test_malformed_labels_say_where(tmp_path, text, message):
    path = tmp_path / "labels.csv"
    path.write_text(text)
    with pytest.raises(LabelsError, match=message):
        read_labels(path)


def test_labels_that_are_not_text_say_so(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    with pytest.raises(LabelsError, match="labels.csv': it is not text"):
        read_labels(path)


def found(card, quad=QUAD, confidence=0.99, whole=True, seat=None):
    return {"card": card, "confidence": confidence, "quad": quad, "whole": whole, "seat": seat}


def test_position_matching_counts_right_wrong_missed_and_false():
    task = ImageTask("p", "p.jpg", [Label("AS", 1, np.array(QUAD, float)),
                                    Label("KH", None, np.array(QUAD, float) + [200, 0]),
                                    Label("2C", None, np.array(QUAD, float) + [400, 0], 0.3)])
    result = {"found": [found("AS", seat=1), found("QH", (np.array(QUAD) + [202, 1]).tolist(),
                                                   0.99), found("7D", (np.array(QUAD) + [0, 300])
                                                                .tolist(), 0.95)],
              "calibrated": True}
    tally = Tally()
    compare(task, result, True, tally)
    assert (tally.cards, tally.found, tally.right) == (2, 2, 1)  # 2C is half hidden: not counted
    assert tally.confusions[("KH", "QH")] == 1
    assert tally.wrong_confident == {0.9: 1, 0.98: 1}
    assert (tally.detections, tally.true_detections) == (3, 2)
    assert tally.false_sure == 1  # the 7D, where no card lies, read at 0.95
    assert tally.seat_checked == 1 and tally.seat_right == 1
    summary = report(tally, "x", False)
    for key in ("images", "cards", "card_accuracy", "detection_recall",
                "detection_precision", "skipped_images"):
        assert key in summary
    assert summary["card_accuracy"] == 0.5
    assert summary["detection_precision"] == pytest.approx(2 / 3, abs=1e-4)
    # the card the referee would have taken wrongly is named (the false 7D is no labelled card,
    # and is counted apart)
    assert summary["wrong_confident"] == [{"image": "p.jpg", "truth": "KH", "read": "QH",
                                           "confidence": 0.99}]
    assert summary["false_cards_sure"] == 1


def test_misses_are_told_by_group_and_kind_of_card():
    """What the benchmark prints per design: each group's counted cards, and its cards not
    found whole and read wrongly, by backs, court cards and pip cards (false cards left out)."""
    def at(dx):
        return np.array(QUAD, float) + [dx, 0]

    first = ImageTask("a", "a.jpg", [Label("KH", None, at(0)), Label("back", None, at(200)),
                                     Label("5S", None, at(400)), Label("2C", None, at(600), 0.3)])
    second = ImageTask("b", "b.jpg", [Label("AS", None, at(0)), Label("QD", None, at(200))])
    tally = Tally()
    compare(first, {"found": [found("QH", at(0).tolist(), 0.5), found("5S", at(400).tolist()),
                              found("7D", at(800).tolist())], "calibrated": True}, True, tally)
    compare(second, {"found": [found("AS", at(0).tolist()), found("JD", at(200).tolist(), 0.4)],
                     "calibrated": True}, True, tally)
    groups = misses_by([first, second], tally.mistakes,
                       lambda name: "bellot" if name.startswith("a") else "lattmann")
    assert groups == {
        "bellot": {"cards": 3, "missed": {"back": 1}, "misread": {"court": 1}},
        "lattmann": {"cards": 2, "missed": {}, "misread": {"court": 1}},
    }


def test_the_top_card_of_a_pile_gets_its_own_detection_whatever_the_label_order():
    # a pile of backs: two cards under the top one, each shifted a little and mostly hidden,
    # are listed first; each overlaps the top card's detection by more than MATCH_IOU
    top = np.array(QUAD, float)
    under = [top + [12, 6], top + [-10, 8]]
    labels = [Label("back", None, q, 0.1) for q in under] + [Label("back", None, top, 0.98)]
    detection = (top + [1, 0]).tolist()
    assert all(_quad_iou(q, np.array(detection)) >= MATCH_IOU for q in under)
    tally = Tally()
    compare(ImageTask("p", "p.jpg", labels), {"found": [found("back", detection)]}, True,
            tally)
    assert (tally.cards, tally.found, tally.right) == (1, 1, 1)
    assert (tally.detections, tally.true_detections) == (1, 1)


def test_outlines_pair_by_best_overlap():
    a = np.array(QUAD, float)
    b = a + [30, 0]  # overlaps a by more than half
    # the detection near b is b's even though a is listed first and overlaps it too
    assert match_outlines([a, b], [(b + 1).tolist()]) == {1: 0}
    assert match_outlines([a, b], [(b + 1).tolist(), (a - 1).tolist()]) == {1: 0, 0: 1}
    assert match_outlines([a, None], [None, (a + [500, 0]).tolist()]) == {}


def test_a_detection_goes_to_the_card_that_shows_before_a_hidden_one_it_fits_better():
    # a pile: the detection follows the outline of the card under the top one more closely
    # (the pile's outline), yet overlaps the top card enough: it is the top card's
    top = np.array(QUAD, float)
    under = top + [14, 8]
    detection = (under + [-2, -1]).tolist()
    assert _quad_iou(under, np.array(detection)) > _quad_iou(top, np.array(detection)) \
        >= MATCH_IOU
    assert match_outlines([under, top], [detection]) == {0: 0}  # nothing ignored: best fit
    assert match_outlines([under, top], [detection], [True, False]) == {1: 0}
    labels = [Label("back", None, under, 0.2), Label("back", None, top, 0.97)]
    tally = Tally()
    compare(ImageTask("p", "p.jpg", labels), {"found": [found("back", detection)]}, True,
            tally)
    assert (tally.cards, tally.found, tally.right) == (1, 1, 1)
    # and a detection left over on a hidden card only is no false card
    tally = Tally()
    compare(ImageTask("p", "p.jpg", labels), {"found": [found("back", detection),
                                                        found("back", (top + 1).tolist())]},
            True, tally)
    assert (tally.cards, tally.found, tally.detections, tally.true_detections) == (1, 1, 2, 2)


def test_multiset_matching_ignores_position():
    task = ImageTask("p", "p.jpg", [Label("QH"), Label("QH"), Label("7D")])
    tally = Tally()
    compare(task, {"found": [found("QH", None), found("7D", None), found("7S", None, 0.5)]},
            False, tally)
    assert (tally.cards, tally.right) == (3, 2)
    assert tally.confusions[("QH", "7S")] == 1
    assert tally.wrong_confident == {0.9: 0, 0.98: 0}
    # a card more than the labels hold, read surely, is a false card read surely; the surest
    # card over is taken for the misread one, the rest are false cards
    tally = Tally()
    compare(task, {"found": [found("QH", None), found("QH", None), found("7D", None),
                             found("5C", None, 0.93), found("AH", None, 0.4)]}, False, tally)
    assert (tally.right, tally.false_sure) == (3, 1)
    tally = Tally()
    compare(task, {"found": [found("QH", None), found("7D", None), found("5C", None, 0.93),
                             found("AH", None, 0.4)]}, False, tally)
    assert tally.confusions[("QH", "5C")] == 1 and tally.false_sure == 0


def test_sure_accuracy_counts_only_cards_read_right_surely_enough_to_be_played():
    """A card read right under the referee's threshold would be asked for again, not played."""
    quads = [(np.array(QUAD) + [200 * k, 0]).tolist() for k in range(3)]
    task = ImageTask("p", "p.jpg", [Label(c, None, np.array(q, float))
                                    for c, q in zip(["AS", "KH", "2C"], quads)])
    tally = Tally()
    compare(task, {"found": [found("AS", quads[0], SURE), found("KH", quads[1], SURE - 0.01),
                             found("2D", quads[2], 0.99)]}, True, tally)
    assert (tally.right, tally.sure) == (2, 1)
    summary = report(tally, "x", False)
    assert summary["sure_accuracy"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["sure_threshold"] == SURE == 0.9
    # without positions: two queens of hearts found, one of them surely
    task = ImageTask("p", "p.jpg", [Label("QH"), Label("QH"), Label("7D")])
    tally = Tally()
    compare(task, {"found": [found("QH", None, 0.95), found("QH", None, 0.5),
                             found("7D", None, 0.89)]}, False, tally)
    assert (tally.right, tally.sure) == (3, 1)


def test_multiset_matching_excuses_half_hidden_cards():
    """Without positions, a half-hidden card (``visible`` under 0.9) read right is no error,
    and the card that was missed is missed, not misread."""
    task = ImageTask("p", "p.jpg", [Label("7S"), Label("4S", visible=0.77),
                                    Label("10D", visible=0.6)])
    tally = Tally()
    compare(task, {"found": [found("4S", None, 1.0)]}, False, tally)
    assert (tally.cards, tally.found, tally.right) == (1, 0, 0)
    assert not tally.confusions and tally.wrong_confident == {0.9: 0, 0.98: 0}
    assert (tally.detections, tally.true_detections) == (1, 1)
    assert [m["read"] for m in tally.mistakes] == ["missed"]
    # a half-hidden card read as something else is still a false card
    tally = Tally()
    compare(task, {"found": [found("7S", None), found("4C", None, 0.99)]}, False, tally)
    assert (tally.cards, tally.right, tally.detections, tally.true_detections) == (1, 1, 2, 1)


def test_skipped_images_are_listed():
    tally = Tally()
    compare(ImageTask("p", "bad.jpg", [Label("AS")]), {"name": "bad.jpg", "skipped": "corrupt"},
            False, tally)
    assert report(tally, "x", False)["skipped_images"] == [{"image": "bad.jpg",
                                                            "reason": "corrupt"}]


def test_portrait_order_and_rectify():
    image = np.zeros((200, 300, 3), np.uint8)
    card = np.array([(120, 40), (180, 60), (150, 150), (90, 130)], float)
    cv2.fillConvexPoly(image, card.astype(np.int32), (0, 0, 255))
    ordered = portrait_order(card[::-1])
    sides = [np.linalg.norm(ordered[(i + 1) % 4] - ordered[i]) for i in range(4)]
    assert sides[0] + sides[2] < sides[1] + sides[3]  # first edge is a short one
    crop = rectify(image, ordered, (64, 96), ordered=True)
    assert crop.shape == (96, 64, 3)
    assert (crop[8:-8, 8:-8, 2] > 200).mean() > 0.95


def test_what_runs_off_the_picture_is_filled_from_the_card_turned_half_round():
    """A card whose pattern looks the same turned half round, its lower third off the bottom
    of the picture: filled from the turned crop, the cut-out matches the whole card's; drawn
    out from the picture's last row (the default), it does not."""
    from vision.geometry import runs_off

    whole = np.zeros((400, 300, 3), np.uint8)
    card = np.array([(100, 100), (190, 100), (190, 226), (100, 226)], float)
    cv2.fillConvexPoly(whole, card.astype(np.int32), (230, 230, 230))
    for x, y in ((110, 110), (172, 110), (110, 208), (172, 208)):  # an index in each corner
        cv2.rectangle(whole, (x, y), (x + 8, y + 8), (0, 0, 200), -1)
    cv2.circle(whole, (145, 163), 12, (0, 0, 200), -1)
    truth = rectify(whole, card, (64, 96), ordered=True)
    cut = np.ascontiguousarray(whole[:190])  # the picture ends 36 px before the card does
    assert runs_off(card[None], 300, 190).tolist() == [True]
    assert runs_off(card[None], 300, 400).tolist() == [False]
    drawn = rectify(cut, card, (64, 96), ordered=True)
    filled = rectify(cut, card, (64, 96), ordered=True, turned_fill=True)
    gap = np.abs(filled.astype(int) - truth).mean(axis=2)
    assert (gap < 40).mean() > 0.97
    # the index in the lower corners, off the picture: there when filled, not when drawn out
    low_corners = (slice(83, 88), np.r_[8:13, 52:57])
    assert (truth[low_corners][..., 1] < 100).all()
    assert (filled[low_corners][..., 1] < 100).all()
    assert (drawn[low_corners][..., 1] < 100).mean() == 0
    # a cut-out inside the picture is the same either way
    assert np.array_equal(rectify(whole, card, (64, 96), ordered=True, turned_fill=True), truth)


def test_check_command_on_crops_and_bad_input(tmp_path):
    exe = console_script("sueca-referee")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "labels.csv").write_text("image,card\nx.png,ZZ\n")
    done = run_command([exe, "check", str(bad)])
    assert done.returncode == 1 and "line 2: 'ZZ' is not a card" in done.stderr
    assert "Traceback" not in done.stderr
    missing = run_command([exe, "check", str(tmp_path / "nowhere.csv")])
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    crops = tmp_path / "crops"
    crops.mkdir()
    (crops / "broken.png").write_bytes(b"not a picture at all")
    cv2.imwrite(str(crops / "plain.png"), np.full((96, 64, 3), 90, np.uint8))
    (crops / "labels.csv").write_text("image,card\nbroken.png,AS\nplain.png,AS\n")
    out = tmp_path / "report.json"
    done = run_command([exe, "check", str(crops), "--crops", "--report", str(out),
                        "--errors", str(tmp_path / "errors.png"), "--workers", "1"])
    assert done.returncode == 0, done.stderr
    summary = json.loads(out.read_text())
    assert summary["images"] == 2 and summary["skipped_images"][0]["image"] == "broken.png"
    assert summary["cards"] == 1 and summary["card_accuracy"] == 0.0  # a grey square is no AS
    assert cv2.imread(str(tmp_path / "errors.png")) is not None


def test_check_on_one_picture_lists_what_it_finds(tmp_path):
    exe = console_script("sueca-referee")
    first = sorted(SAMPLES.glob("images/*.jpg"))[0]
    done = run_command([exe, "check", str(first), "--quiet"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{first.name}: ") and "seat" in done.stdout
    (tmp_path / "broken.png").write_bytes(b"not a picture at all")
    done = run_command([exe, "check", str(tmp_path / "broken.png"), "--quiet"])
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "broken.png: skipped (unreadable or not an image)" in done.stdout
    assert "1 image skipped" in done.stdout


@pytest.mark.parametrize("out, says", [
    ("sheet.foo", "cannot write a picture as '{out}' ('.foo'): name it .png or .jpg"),
    ("sheet", "cannot write a picture as '{out}' (a name without an extension)"),
    ("nowhere/sheet.png", "cannot write '{out}': its folder '{tmp}/nowhere' does not exist"),
    (".", "cannot write '{out}': it is a folder"),
])
def test_a_picture_that_cannot_be_written_is_refused_before_any_work(tmp_path, out, says):
    """``check --errors``, ``markers --out`` and ``studio sheet --out`` write pictures: a name
    OpenCV has no writer for (which raised deep inside it), or a folder that is not there,
    is a one-line error at once, not at the end of a long check that then loses its work."""
    exe = console_script("sueca-referee")
    target = str(tmp_path / out) if out != "." else str(tmp_path)
    said = says.format(out=target, tmp=tmp_path)
    for command in (["check", str(SAMPLES), "--errors", target],
                    ["markers", "--out", target],
                    ["studio", "sheet", str(SAMPLES), "--out", target]):
        done = run_command([exe, *command])
        assert done.returncode == 2, (command, done.stderr)
        assert said in done.stderr and "Traceback" not in done.stderr, (command, done.stderr)
        assert done.stdout == ""  # nothing was checked, drawn or written
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_check_report_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    exe = console_script("sueca-referee")
    done = run_command([exe, "check", str(SAMPLES), "--report", str(tmp_path / "no" / "r.json")])
    assert done.returncode == 2 and done.stdout == ""
    assert f"its folder '{tmp_path / 'no'}' does not exist" in done.stderr


class _ReadsWholeCardsOnly:
    """A stand-in classifier: reads 7H surely along an outline as long as the card (140 px),
    and unsurely along anything shorter, as the network does with a card's two ends."""

    def read(self, image, found):
        for i, quad in enumerate(found.quads):
            long = np.linalg.norm(quad[2] - quad[1])
            found.cards[i] = "7H"
            found.confidence[i] = 0.99 if long > 120 else 0.4
        return found


def _ends_and_a_card(own_reading=("7H", 0.4)):
    from vision.detections import CardDetections

    quads = np.array([[(100, 100), (200, 100), (200, 150), (100, 150)],  # top end
                      [(300, 100), (400, 100), (400, 240), (300, 240)],  # a card of its own
                      [(100, 190), (200, 190), (200, 240), (100, 240)]],  # bottom end
                     np.float32)
    found = CardDetections(quads, np.ones(3, np.float32), np.ones(3, bool), [None] * 3,
                           ["7H", "KS", own_reading[0]],
                           np.array([0.4, 0.97, own_reading[1]], np.float32))
    return found, np.array([True, False, True])


def test_a_card_with_a_hand_across_it_is_read_along_its_two_ends_joined():
    from vision.check import _read_other_outlines

    found, partial = _ends_and_a_card()
    _read_other_outlines(np.zeros((360, 640, 3), np.uint8), found, partial,
                         _ReadsWholeCardsOnly())
    assert found.cards == ["7H", "KS", None]  # one card: the second end's reading goes
    assert found.confidence[0] == pytest.approx(0.99) and found.confidence[2] == 0
    assert np.allclose(np.sort(found.quads[0], axis=0),
                       [(100, 100), (100, 100), (200, 240), (200, 240)], atol=1.0)
    assert partial.tolist() == [True, False, True]  # still counted only when read surely
    assert found.cards[1] == "KS" and np.allclose(found.quads[1][0], (300, 100))


def test_an_end_read_surely_on_its_own_keeps_its_reading():
    from vision.check import _read_other_outlines

    found, partial = _ends_and_a_card(own_reading=("7H", 0.995))
    _read_other_outlines(np.zeros((360, 640, 3), np.uint8), found, partial,
                         _ReadsWholeCardsOnly())
    assert found.cards == ["7H", "KS", "7H"]
    assert found.confidence.tolist() == pytest.approx([0.4, 0.97, 0.995])


class _FinerDetector:
    """A stand-in detector whose finer look finds three whole cards: two that lay over each
    other in the first look's one region, and one in the middle of a card read surely."""

    def __init__(self):
        self.asked = []

    def detect(self, image, calibration=None, long_side=None):
        from vision.detections import CardDetections

        self.asked.append(long_side)
        quads = np.array([[(100, 100), (160, 100), (160, 190), (100, 190)],  # in the region
                          [(150, 130), (210, 130), (210, 220), (150, 220)],  # in it too
                          [(320, 120), (380, 120), (380, 210), (320, 210)]],  # in the sure card
                         np.float32)
        return CardDetections(quads, np.ones(3, np.float32), np.ones(3, bool), [None] * 3,
                              [None] * 3, np.zeros(3, np.float32))


class _ReadsByPlace:
    """A stand-in classifier reading each card by where its middle lies."""

    def __init__(self, readings):
        self.readings = readings  # [(x below which, card, confidence)], in order of x

    def read(self, image, found):
        for i, quad in enumerate(found.quads):
            x = quad[:, 0].mean()
            card, confidence = next((c, p) for limit, c, p in self.readings if x < limit)
            found.cards[i], found.confidence[i] = card, confidence
        return found


def _a_region_and_a_card():
    from vision.detections import CardDetections

    quads = np.array([[(95, 95), (215, 95), (215, 225), (95, 225)],  # two cards run together
                      [(300, 100), (400, 100), (400, 240), (300, 240)]],  # a card read surely
                     np.float32)
    found = CardDetections(quads, np.ones(2, np.float32), np.ones(2, bool), [None] * 2,
                           [None, "KS"], np.array([0.3, 0.97], np.float32))
    return found, np.array([True, False])


@pytest.mark.parametrize("second, kept", [(("QD", 0.95), ["7H", "KS", "QD"]),
                                          (("QD", 0.6), ["7H", "KS"]),
                                          (("7H", 0.99), ["7H", "KS"])])
def test_cards_run_together_in_a_photo_are_looked_at_again_more_finely(second, kept):
    """A region of a photograph not read surely is looked at again at a finer scale: each
    card found whole there and read surely takes the region's place or joins it, as partly
    shown (counted only when read surely); a card read unsurely, or one already read (no
    card is on the table twice), does not. A card found again inside a card read surely
    does not replace it."""
    from vision.check import FINER_LONG_SIDE, _read_finer

    found, partial = _a_region_and_a_card()
    detector = _FinerDetector()
    classifier = _ReadsByPlace([(140, "7H", 0.99), (250, *second), (1000, "AS", 0.99)])
    found, partial = _read_finer(np.zeros((360, 640, 3), np.uint8), found, partial,
                                 classifier, detector)
    assert detector.asked == [FINER_LONG_SIDE] and FINER_LONG_SIDE > 480
    assert found.cards == kept
    assert np.allclose(found.quads[0][0], (100, 100))  # the first card's own outline
    assert partial.tolist() == [True, False] + [True] * (len(kept) - 2)
    assert found.confidence[1] == pytest.approx(0.97)  # the sure card is left as it was


def test_a_photo_read_surely_everywhere_is_not_looked_at_again():
    from vision.check import _read_finer

    found, partial = _a_region_and_a_card()
    found.cards[0], found.confidence[0], partial[0] = "2C", 0.99, False
    detector = _FinerDetector()
    _read_finer(np.zeros((360, 640, 3), np.uint8), found, partial, _ReadsByPlace([]), detector)
    assert detector.asked == []


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_missing_model_is_a_one_line_error_with_any_number_of_workers(tmp_path, workers):
    """With several workers the models were first loaded in the workers, whose failing start
    the pool repeated for ever: the check hung, printing tracebacks."""
    exe = console_script("sueca-referee")
    done = run_command([exe, "check", str(SAMPLES), "--models", str(tmp_path),
                        "--workers", workers])
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"model '{tmp_path}" in done.stderr and "is missing" in done.stderr


def test_a_models_folder_with_the_wrong_model_in_it_is_a_one_line_error(tmp_path):
    import shutil

    from vision.models import MODELS

    for name in ("cards.onnx", "cards.yaml", "detector.yaml"):
        shutil.copy(MODELS / name, tmp_path / name)
    shutil.copy(MODELS / "cards.onnx", tmp_path / "detector.onnx")
    done = run_command([console_script("sueca-referee"), "check", str(SAMPLES), "--models",
                        str(tmp_path), "--workers", "1"])
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "detector.onnx' is no card detector" in done.stderr


def test_the_contact_sheet_shows_the_surest_misreadings_first():
    """On a big set the sheet's 48 tiles are the mistakes that matter most: cards read as
    other cards, surest first (the referee's threshold reached: it would have taken them),
    then cards missed, then false cards; each kind in the order of the images."""
    mistakes = [{"image": "a", "truth": "no card", "read": "7H", "confidence": 0.95},
                {"image": "b", "truth": "KS", "read": "missed"},
                {"image": "c", "truth": "QH", "read": "JH", "confidence": 0.4},
                {"image": "d", "truth": "AS", "read": "AC", "confidence": 0.93},
                {"image": "e", "truth": "2C", "read": "missed"},
                {"image": "f", "truth": "no card", "read": "back", "confidence": 0.5}]
    assert [m["image"] for m in sheet_order(mistakes)] == ["d", "c", "b", "e", "a", "f"]


class _CardAndAPartOfIt:
    """A stand-in detector finding a whole card and, inside it, a part of it as a card."""

    def detect(self, image, calibration=None, long_side=None):
        from vision.detections import CardDetections

        quads = np.array([[(100, 100), (226, 100), (226, 276), (100, 276)],  # the card
                          [(150, 180), (220, 180), (220, 270), (150, 270)],  # a part of it
                          [(300, 100), (426, 100), (426, 276), (300, 276)]],  # another card
                         np.float32)
        return CardDetections(quads, np.ones(3, np.float32), np.ones(3, bool), [None] * 3,
                              [None] * 3, np.zeros(3, np.float32))


def test_a_part_of_a_card_read_surely_as_another_card_is_not_counted_in_a_photo(tmp_path):
    """(The close-ups' eight of diamonds whose lower half was found as a card too and read as
    the four at 0.91.) An outline lying inside a larger one is no card, however surely read."""
    import cv2

    import vision.check as check

    picture = tmp_path / "photo.png"
    cv2.imwrite(str(picture), np.zeros((360, 640, 3), np.uint8))
    check._state.update(detector=_CardAndAPartOfIt(), crops=False,
                        classifier=_ReadsByPlace([(170, "8D", 0.99), (200, "4D", 0.99),
                                                  (1000, "KS", 0.99)]))
    try:
        result = check._process(check.ImageTask(str(picture), "photo.png"))
    finally:
        check._state.clear()
    assert [f["card"] for f in result["found"]] == ["8D", None, "KS"]
    assert [f["whole"] for f in result["found"]] == [True, False, True]
