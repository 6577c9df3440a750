"""Showing the referee the deck's court cards (vision.deck): enrolment from a picture of them
laid out, the deck file, and how a deck weighs the classifier's readings."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.helpers import ROOT, console_script, networks_read, run_command
from vision.cardclasses import BACK, CLASSES
from vision.classify import CardClassifier, as_crop
from vision.deck import (LIKELIER, PLAINLY_ONE_OF, REFERENCE, SHOWN, TOWARDS, UNSETTLE, Deck,
                         DeckError, NothingToKeep, enrol, laid_out, side_contrast, upright)
from vision.detect import CardDetector
from vision.geometry import rectify
from vision.studio.facesets import RandomFaces, TinyFaces
from vision.studio.images import deck_picture, enrolled_deck

LAID_OUT = SHOWN[:4] + [BACK] + SHOWN[4:]  # the order 'enrol' keeps them in


@pytest.fixture(scope="module")
def models():
    return CardDetector(), CardClassifier()


def _face_crop(faces: TinyFaces, card: str) -> np.ndarray:
    face = faces.face(card).astype(np.float32)
    alpha = face[..., 3:] / 255
    return as_crop((face[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8))


def test_cards_laid_out_are_taken_row_by_row_from_the_left():
    # three rows of four, a little askew, given in no order; the second row sags to the right
    centres = np.array([(100 + 120 * c + 3 * r, 100 + 160 * r + 12 * c)
                        for r in range(3) for c in range(4)], float)
    shuffled = np.random.default_rng(1).permutation(len(centres))
    rows = laid_out(centres[shuffled], card_height=140)
    assert [[int(shuffled[i]) for i in row] for row in rows] == [
        [0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_a_studio_picture_of_the_court_cards_is_enrolled_in_order(models):
    detector, classifier = models
    faces = TinyFaces(1)
    deck, seed, refused = enrolled_deck(faces, detector, classifier)
    assert deck.cards == LAID_OUT
    # each card's clean face is most like the crop kept of its own card, or of one that only
    # its suit sign tells from it (these faces draw the same panel for both red jacks)
    # (the back's fine lattice shimmers when cut small: left out)
    clean = np.stack([_face_crop(faces, card) for card in SHOWN])
    best = [deck.cards[i] for i in deck.similarity(clean).argmax(axis=1)]

    def look(card: str) -> str:
        return card[0] + ("red" if card[-1] in "DH" else "black")

    assert [look(c) for c in best] == [look(c) for c in SHOWN]
    assert sum(b == c for b, c in zip(best, SHOWN)) >= 8


def test_an_outline_cut_across_a_card_shows_a_weak_side():
    # a light card on a dark table: its own outline is sharp all round; one shifted down by
    # half a card runs across the card above and along the bare table below
    image = np.full((300, 300, 3), 40, np.uint8)
    image[50:250, 100:240] = 220
    card = np.array([(100, 50), (240, 50), (240, 250), (100, 250)], float)
    shifted = card + (0, 100)
    contrast = side_contrast(image, np.stack([card, shifted]))
    assert contrast[0].min() > 150
    assert contrast[1].min() < 20  # (its top across the card, its bottom on the table)


def test_a_card_far_down_the_table_is_cut_out_upright_along_its_row():
    # seen from far off a card lying upright can look wider than long: by its row (running
    # left to right) its top is the long side on the picture, not a short one
    quad = np.array([(300, 100), (310, 160), (200, 165), (190, 105)], float)  # any order
    top_left, top_right = upright(quad, np.array([1.0, 0.0]))[:2]
    assert tuple(top_left) == (190, 105) and tuple(top_right) == (300, 100)
    # and a card seen square keeps its short side on top
    quad = np.array([(100, 100), (160, 100), (160, 190), (100, 190)], float)
    assert [tuple(c) for c in upright(quad, np.array([1.0, 0.02]))] == [
        (100, 100), (160, 100), (160, 190), (100, 190)]


@pytest.mark.parametrize("design, seed, turn", [
    ("kde-penguins", 10, None), ("simplistic", 2, None),
    ("kde-penguins", 10, "a quarter"), ("simplistic", 2, "upside down")])
def test_each_court_card_kept_is_cut_along_its_own_outline(models, design, seed, turn):
    # pictures the first enrolment kept askew: penguins' jacks, far down the table, cut out a
    # quarter turned; simplistic's queen of diamonds cut across its big letter. And the same
    # pictures taken from another side of the table (which it refused): each card still in
    # its place
    import cv2

    from vision.studio.facesets import face_sets

    detector, classifier = models
    faces = face_sets(design, log=lambda message: None)[0]
    picture, labels = deck_picture(faces, seed)
    turned = {None: picture, "a quarter": cv2.rotate(picture, cv2.ROTATE_90_CLOCKWISE),
              "upside down": cv2.rotate(picture, cv2.ROTATE_180)}[turn]
    deck = enrol(turned, detector, classifier)
    assert deck.cards == LAID_OUT
    truth = Deck([str(label.card) for label in labels],
                 np.stack([rectify(picture, label.corners, classifier.size, ordered=True)
                           for label in labels]))
    alike = truth.similarity(deck.crops)
    own = [alike[k, truth.cards.index(card)] for k, card in enumerate(deck.cards)
           if card != BACK]
    assert min(own) >= 0.8, dict(zip(deck.cards, np.round(own, 2)))


def test_a_layout_done_wrong_is_refused(models):
    detector, classifier = models
    wrong = SHOWN + [BACK]  # deck_picture's places: the court cards row by row, then the back
    wrong[0], wrong[1] = wrong[1], wrong[0]  # the jack of diamonds where clubs' should be
    reasons = []
    for seed in range(1, 6):  # (some pictures are refused before: a card not seen whole)
        picture, _ = deck_picture(TinyFaces(1), seed, order=wrong)
        with pytest.raises(DeckError) as refused:
            enrol(picture, detector, classifier)
        reasons.append(str(refused.value))
    assert any("should be JC but reads as JD" in reason for reason in reasons), reasons


def test_a_deck_makes_its_court_cards_surer_and_leaves_number_cards_be(models):
    _, classifier = models
    faces = RandomFaces(5019)  # a made-up design whose court cards are all unlike
    deck = Deck(SHOWN, np.stack([_face_crop(faces, card) for card in SHOWN]))
    numbers = ["7H", "3C", "AS", "5D"]
    crops = np.stack([_face_crop(faces, card) for card in SHOWN + numbers])
    before = classifier.probabilities(crops)
    after = before.copy()
    deck.weigh(crops, after)
    courts = np.arange(len(SHOWN))
    truth = np.array([CLASSES.index(card) for card in SHOWN])
    assert (after[courts].argmax(axis=1) == truth).all()
    assert after[courts, truth].mean() > before[courts, truth].mean() + 0.03
    assert (after[courts, truth] >= 0.99).sum() >= 9 > (before[courts, truth] >= 0.99).sum()
    # a number card correlates with no court card: its reading stays as it was
    np.testing.assert_allclose(after[len(SHOWN):], before[len(SHOWN):], atol=0.02)
    np.testing.assert_allclose(after.sum(axis=1), 1.0, rtol=1e-5)


def _reading(**odds: float) -> np.ndarray:
    probs = np.full((1, len(CLASSES)), (1 - sum(odds.values())) / (len(CLASSES) - len(odds)),
                    np.float32)
    for card, p in odds.items():
        probs[0, CLASSES.index(card)] = p
    return probs


def test_look_alike_court_cards_are_not_told_apart_by_the_deck():
    faces = TinyFaces(0)
    picture = _face_crop(faces, "QH")
    deck = Deck(["QH", "QD"], np.stack([picture, picture]))  # one picture on both cards
    # the classifier unsure of which, the crop plainly that picture: the deck rules out every
    # card but the two, and leaves the classifier's odds between them as they were
    unsure = _reading(QD=0.6, QH=0.3)
    weighed = unsure.copy()
    deck.weigh(picture[None], weighed)
    qd, qh = weighed[0, CLASSES.index("QD")], weighed[0, CLASSES.index("QH")]
    assert qd + qh > 0.999 and qd / qh == pytest.approx(0.6 / 0.3, rel=1e-3)
    # a crop only somewhat like that picture (an ace, a card cut out poorly) and the classifier
    # unsure: the deck says nothing
    blend = (0.2 * picture.astype(np.float32) + 0.8 * _face_crop(faces, "3S")).astype(np.uint8)
    assert REFERENCE < deck.similarity(blend[None]).max() < PLAINLY_ONE_OF
    weighed = unsure.copy()
    deck.weigh(blend[None], weighed)
    np.testing.assert_allclose(weighed, unsure, rtol=1e-5)
    # the classifier sure of one of them: both are weighed alike, so it stays that one
    sure = _reading(QD=0.92, QH=0.04)
    weighed = sure.copy()
    deck.weigh(picture[None], weighed)
    qd, qh = weighed[0, CLASSES.index("QD")], weighed[0, CLASSES.index("QH")]
    assert qd > 0.95 and qd / qh == pytest.approx(0.92 / 0.04, rel=1e-3)


def test_look_alike_court_cards_are_told_apart_where_they_differ():
    # one picture on two court cards, each with its own small sign in the corner
    picture = _face_crop(TinyFaces(0), "QH")
    hearts, diamonds = picture.copy(), picture.copy()
    cv2.circle(hearts, (11, 22), 4, (30, 30, 200), -1)
    cv2.rectangle(diamonds, (7, 18), (15, 26), (40, 40, 40), -1)
    deck = Deck(["QH", "QD"], np.stack([hearts, diamonds]))
    assert deck.similarity(hearts[None])[0, 1] >= PLAINLY_ONE_OF  # look-alikes
    # the queen of diamonds seen a pixel off its outline, in a dimmer, bluer light
    seen = np.clip(np.roll(diamonds, (1, 1), axis=(0, 1)) * 0.8 + (30, 0, 0), 0, 255)
    seen = seen.astype(np.uint8)
    assert deck.tell_apart(seen, 1, 0) >= TOWARDS and deck.tell_apart(seen, 0, 1) <= -TOWARDS
    # the classifier reads it as the queen of hearts: the deck turns it round, LIKELIER-fold
    # at a lean of TOWARDS, more the plainer the lean
    unsure = _reading(QH=0.6, QD=0.3)
    weighed = unsure.copy()
    deck.weigh(seen[None], weighed)
    qd, qh = weighed[0, CLASSES.index("QD")], weighed[0, CLASSES.index("QH")]
    fold = LIKELIER ** (-deck.tell_apart(seen, 0, 1) / TOWARDS)
    assert fold >= LIKELIER and qd / qh == pytest.approx(fold * 0.3 / 0.6, rel=1e-3)
    # seen smaller than in the deck's picture, its sign only faintly the diamonds' (under a
    # fifth of the way from halfway between the two, once blurred): as plainly the queen of
    # diamonds, and so as likely to be it as the sharp one
    faint = cv2.GaussianBlur((0.3 * hearts.astype(np.float32) + 0.7 * diamonds), (5, 5), 0.8)
    faint = np.clip(faint * 0.9 + 12, 0, 255).astype(np.uint8)
    assert deck.tell_apart(faint, 1, 0) >= TOWARDS and deck.tell_apart(faint, 0, 1) <= -TOWARDS
    weighed = unsure.copy()
    deck.weigh(faint[None], weighed)
    qd, qh = weighed[0, CLASSES.index("QD")], weighed[0, CLASSES.index("QH")]
    fold = LIKELIER ** (-deck.tell_apart(faint, 0, 1) / TOWARDS)
    assert qd / qh == pytest.approx(fold * 0.3 / 0.6, rel=1e-3)
    # a crop as like one as the other (the two signs run together) does not tell: the
    # classifier's odds stand
    between = ((hearts.astype(np.float32) + diamonds) / 2).astype(np.uint8)
    assert abs(deck.tell_apart(between, 1, 0)) < TOWARDS
    weighed = unsure.copy()
    deck.weigh(between[None], weighed)
    qd, qh = weighed[0, CLASSES.index("QD")], weighed[0, CLASSES.index("QH")]
    assert qd / qh == pytest.approx(0.3 / 0.6, rel=1e-3)


def test_the_deck_confirms_a_sure_reading_and_unsettles_it_only_on_plain_evidence():
    faces = TinyFaces(0)
    ks, jd = _face_crop(faces, "KS"), _face_crop(faces, "JD")
    deck = Deck(["KS", "JD"], np.stack([ks, jd]))
    # the classifier sure of JD, the crop a little more like the KS kept than the JD (a crop
    # kept askew, a card seen poorly): the classifier's reading stands as it was
    blend = (0.52 * ks.astype(np.float32) + 0.48 * jd).astype(np.uint8)[None]
    like_ks, like_jd = deck.similarity(blend)[0]
    assert 0 < like_ks - like_jd < UNSETTLE
    sure = _reading(JD=0.95, KS=0.01)
    weighed = sure.copy()
    deck.weigh(blend, weighed)
    np.testing.assert_array_equal(weighed, sure)
    # the same reading of a crop that is plainly the JD kept: surer
    deck.weigh(jd[None], weighed)
    assert weighed[0, CLASSES.index("JD")] > 0.999
    # and of a crop that is plainly the KS kept: the deck settles it
    weighed = sure.copy()
    deck.weigh(ks[None], weighed)
    assert CLASSES[int(weighed.argmax())] == "KS"
    # a sure reading of a card the deck does not keep stands, whatever the crop looks like
    sure = _reading(**{"7S": 0.95, "KS": 0.01})
    weighed = sure.copy()
    deck.weigh(ks[None], weighed)
    np.testing.assert_array_equal(weighed, sure)
    # a deck learnt in play (its crops cut along the camera's outlines, one maybe askew)
    # never unsettles a sure reading, however plainly the crop looks like another kept card;
    # an unsure one it weighs as any deck
    learnt = Deck(["KS", "JD"], np.stack([ks, jd]), learnt=True)
    sure = _reading(JD=0.95, KS=0.01)
    weighed = sure.copy()
    learnt.weigh(ks[None], weighed)
    np.testing.assert_array_equal(weighed, sure)
    unsure = _reading(JD=0.6, KS=0.3)
    weighed = unsure.copy()
    learnt.weigh(ks[None], weighed)
    assert CLASSES[int(weighed.argmax())] == "KS"


def test_a_deck_file_round_trip_and_bad_files(tmp_path):
    faces = TinyFaces(0)
    deck = Deck(SHOWN, np.stack([_face_crop(faces, card) for card in SHOWN]), "test")
    deck.save(tmp_path / "deck.npz")
    again = Deck.load(tmp_path / "deck.npz")
    assert again.cards == deck.cards and again.source == "test" and not again.learnt
    Deck(deck.cards, deck.crops, "in play", learnt=True).save(tmp_path / "learnt.npz")
    assert Deck.load(tmp_path / "learnt.npz").learnt  # a deck learnt in play stays so
    np.testing.assert_array_equal(again.crops, deck.crops)
    with pytest.raises(DeckError, match="no deck file"):
        Deck.load(tmp_path / "missing.npz")
    (tmp_path / "bad.npz").write_bytes(b"not a deck")
    np.save(tmp_path / "array.npy", deck.crops)
    np.savez(tmp_path / "other.npz", pictures=deck.crops)
    whole = (tmp_path / "deck.npz").read_bytes()
    (tmp_path / "cut.npz").write_bytes(whole[:len(whole) // 2])  # a copy cut short
    for wrong in ("bad.npz", "array.npy", "other.npz", "cut.npz"):
        with pytest.raises(DeckError, match="cannot read the deck file .*: not a deck file"):
            Deck.load(tmp_path / wrong)
    (tmp_path / "folder.npz").mkdir()
    with pytest.raises(DeckError, match="cannot read the deck file"):
        Deck.load(tmp_path / "folder.npz")
    with pytest.raises(DeckError):
        Deck(["XX"], deck.crops[:1])


def test_the_commands_say_in_one_line_what_is_wrong_with_a_deck(tmp_path):
    program = console_script("sueca-referee")
    missing = str(tmp_path / "missing.npz")
    for args, status in ((["deck", "--image", str(tmp_path / "none.jpg"), "--out", missing], 1),
                         (["replay", str(ROOT / "samples" / "clips" / "game1.mp4"), "--deck",
                           missing], 2),
                         (["check", str(ROOT / "samples" / "images"), "--deck", missing], 1)):
        done = run_command([program, *args])
        assert done.returncode == status, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr
        assert lines[0].startswith(f"sueca-referee {args[0]}:")


def test_a_deck_that_cannot_be_written_is_named_in_one_line(tmp_path, monkeypatch, capsys):
    """The deck is enrolled before it is written: where the file then cannot be written (a
    disk full, a folder taken away), the line names the file, not only the system's reason."""
    from vision import cli

    def refuse(self, path):  # noqa: ANN001, ANN202
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Deck, "save", refuse)
    out = tmp_path / "deck.npz"
    picture = str(ROOT / "samples" / "decks" / "lattmann.jpg")
    assert cli.main(["deck", "--image", picture, "--out", str(out)]) == 1
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [f"sueca-referee deck: cannot write '{out}': Permission denied"]


def _video(path, pictures) -> str:
    import cv2

    height, width = pictures[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 10, (width, height))
    for picture in pictures:
        writer.write(picture)
    writer.release()
    return str(path)


def test_from_a_camera_the_deck_command_waits_for_the_cards_to_be_laid_out_right(tmp_path):
    # a video stands in for the camera: first the layout done wrong (two jacks swapped), then
    # done right; the command says what is wrong and then takes the deck
    program = console_script("sueca-referee")
    wrong = SHOWN + [BACK]
    wrong[0], wrong[1] = wrong[1], wrong[0]
    faces = TinyFaces(1)
    swapped = deck_picture(faces, 1, order=wrong)[0]
    right = deck_picture(faces, 1)[0]
    camera = _video(tmp_path / "camera.mp4", [swapped] * 8 + [right] * 3)
    done = run_command([program, "deck", "--camera", camera, "--out", str(tmp_path / "d.npz")])
    assert done.returncode == 0, done.stderr
    assert "not yet: the card at place 1 (counting along the rows) should be JC" in done.stderr
    assert Deck.load(tmp_path / "d.npz").cards == LAID_OUT
    # never laid out right: one line more, with the last reason, and no deck file
    camera = _video(tmp_path / "wrong.mp4", [swapped] * 8)
    done = run_command([program, "deck", "--camera", camera, "--out", str(tmp_path / "e.npz")])
    assert done.returncode == 1 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("sueca-referee deck: camera") and "JC" in last
    assert "before one could be taken" in last
    # nor in the time given
    camera = _video(tmp_path / "long.mp4", [swapped] * 40)
    done = run_command([program, "deck", "--camera", camera, "--out", str(tmp_path / "e.npz"),
                        "--wait", "0.1"])
    assert done.returncode == 1
    assert "could be taken in 0.1 s" in done.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "e.npz").exists()


def test_aces_drawn_their_own_way_join_the_deck_and_plain_ones_do_not(models):
    from vision.studio.facesets import face_sets

    detector, classifier = models
    penguins = face_sets("kde-penguins", log=lambda message: None)[0]
    # kde-penguins' ace of spades is a penguin; its other aces are plain pips
    aces = enrol(deck_picture(penguins, 1, aces=True)[0], detector, classifier)
    assert aces.cards == ["AS"]
    court, _, _ = enrolled_deck(penguins, detector, classifier, aces=True)
    assert court.cards == LAID_OUT + ["AS"]
    with pytest.raises(NothingToKeep):  # the drawn faces' aces are all plain
        enrol(deck_picture(TinyFaces(1), 1, aces=True)[0], detector, classifier)
    with pytest.raises(DeckError, match="both pictures show AS"):
        aces.joined(aces)
    # aces out of order are refused as court cards out of place are
    swapped = deck_picture(penguins, 1, aces=True, order=["AS", "AD", "AH", "AC"])[0]
    with pytest.raises(DeckError, match="should be AS but reads as AC"):
        enrol(swapped, detector, classifier)


def test_the_deck_command_takes_the_aces_in_a_second_picture_or_from_the_camera(tmp_path):
    import cv2

    from vision.studio.facesets import face_sets

    program = console_script("sueca-referee")
    penguins = face_sets("kde-penguins", log=lambda message: None)[0]
    court, aces = deck_picture(penguins, 1)[0], deck_picture(penguins, 1, aces=True)[0]
    cv2.imwrite(str(tmp_path / "court.png"), court)
    cv2.imwrite(str(tmp_path / "aces.png"), aces)
    done = run_command([program, "deck", "--image", str(tmp_path / "court.png"),
                        str(tmp_path / "aces.png"), "--out", str(tmp_path / "a.npz")])
    assert done.returncode == 0, done.stderr
    assert Deck.load(tmp_path / "a.npz").cards == LAID_OUT + ["AS"]
    # and it says why the plain aces were left out
    assert "AC, AD, AH: read surely as they are, so not kept" in done.stdout, done.stdout
    # the aces alone are no deck; nor are three pictures, or --aces with pictures, asked for
    done = run_command([program, "deck", "--image", str(tmp_path / "aces.png"),
                        "--out", str(tmp_path / "b.npz")])
    assert done.returncode == 1 and "no picture shows the court cards" in done.stderr
    for wrong in (["--image", "a.png", "b.png", "c.png"], ["--image", "a.png", "--aces"]):
        done = run_command([program, "deck", *wrong, "--out", str(tmp_path / "b.npz")])
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    # from a camera: the court cards, then (told to) the aces in their place
    camera = _video(tmp_path / "camera.mp4", [court] * 7 + [aces] * 3)
    done = run_command([program, "deck", "--camera", camera, "--aces",
                        "--out", str(tmp_path / "c.npz")])
    assert done.returncode == 0, done.stderr
    assert "now lay the four aces in a row" in done.stderr
    assert "not yet: the court cards are still in view" in done.stderr
    assert Deck.load(tmp_path / "c.npz").cards == LAID_OUT + ["AS"]


def test_a_game_resumed_from_its_log_is_refereed_with_the_deck_it_was_shown(tmp_path):
    import json
    import shutil

    program = console_script("sueca-referee")
    clip = str(ROOT / "samples" / "clips" / "game2.mp4")
    deck = tmp_path / "lattmann.npz"
    shutil.copy(ROOT / "samples" / "decks" / "lattmann.npz", deck)
    log = tmp_path / "events.jsonl"
    done = run_command([program, "replay", clip, "--deck", str(deck), "--events", str(log)])
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    assert json.loads(lines[0]) == {"record": "session", "command": "replay",
                                    "deck": str(deck.resolve())}
    # a crash a third of the way in; resumed without --deck, the log's deck is taken again
    # (game2 reaches its draw only with it: lattmann's court cards)
    log.write_text("\n".join(lines[:len(lines) // 3]) + "\n")
    done = run_command([program, "replay", clip, "--resume", str(log), "--events", str(log)])
    assert done.returncode == 0, done.stderr
    assert f"resuming with the deck the log names: {deck.resolve()}" in done.stderr
    assert "The game resulted in a draw." in done.stdout
    # the deck file gone: said in a line, and the game carries on without it
    log.write_text("\n".join(lines[:len(lines) // 3]) + "\n")
    deck.unlink()
    done = run_command([program, "replay", clip, "--resume", str(log)])
    assert done.returncode == 0 and "which is not there: carrying on without it" in done.stderr
    assert "The game resulted in a draw." not in done.stdout


class _TurningDeck:
    """A deck that makes every crop the card ``to``, as sure as ``sure`` (as a kept card a
    crop looks much like would)."""

    learnt = False  # shown, not learnt in play

    def __init__(self, to: str, sure: float) -> None:
        self.to, self.sure = to, sure

    def weigh(self, crops: np.ndarray, probs: np.ndarray) -> None:
        probs *= (1 - self.sure) / probs.sum(axis=1, keepdims=True)
        probs[:, CLASSES.index(self.to)] += self.sure


def test_a_card_the_deck_turns_into_another_is_a_play_but_never_proof(models, monkeypatch):
    """Bellot's wreathed ace of clubs, read 0.8 as itself, looks much like a plain ace of
    spades kept in the deck, which made it the ace of spades at 0.999: a card the deck turns
    into another may be played on, but in play (``at_most``, the referee's accuse_confidence
    less 0.01) it is never sure enough, nor is its suit, to accuse anyone on."""
    _, classifier = models
    crops = np.zeros((1, 96, 64, 3), np.uint8)
    alone = _reading(AC=0.8, AS=0.19)
    networks_read(monkeypatch, classifier, lambda c: alone.copy())
    monkeypatch.setattr(classifier, "deck", _TurningDeck("AS", 0.999))
    # measured by 'check' (no referee: no ceiling), the deck's reading stands
    names, confidence = classifier.classify(crops)
    assert names == ["AS"] and confidence[0] > 0.998
    # in play it is a play, at most 0.97 sure, and no more surely a spade
    names, confidence = classifier.classify(crops, at_most=0.97)
    assert names == ["AS"] and 0.9 <= confidence[0] <= 0.97 + 1e-6
    probs = alone.copy()
    classifier._weigh_by_deck(crops, probs, 0.97)
    spades = [CLASSES.index(c) for c in CLASSES if c.endswith("S")]
    assert probs[0, spades].sum() < 0.98
    # a reading the deck makes surer without turning it stays as sure as the deck makes it
    networks_read(monkeypatch, classifier, lambda c: _reading(AS=0.8, AC=0.19))
    names, confidence = classifier.classify(crops, at_most=0.97)
    assert names == ["AS"] and confidence[0] > 0.998
    # but not where the deck was learnt in play (game 3202's JC, read likeliest as the JS
    # and made the JS at 0.98 or more by a deck learnt from the camera's own crops): a play,
    # never proof
    monkeypatch.setattr(classifier.deck, "learnt", True)
    names, confidence = classifier.classify(crops, at_most=0.97)
    assert names == ["AS"] and 0.9 <= confidence[0] <= 0.97 + 1e-6
    # a reading the classifier alone was that sure of stays as sure
    networks_read(monkeypatch, classifier, lambda c: _reading(AS=0.99, AC=0.005))
    names, confidence = classifier.classify(crops, at_most=0.97)
    assert names == ["AS"] and confidence[0] > 0.99
