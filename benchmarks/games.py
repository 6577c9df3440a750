"""Whole games end to end: render random games with the test designs, referee each clip, and
count how many the referee gets entirely right.

    .venv/bin/python benchmarks/games.py [--games 20] [--first-seed 1] [--size 960x540]
                                         [--brisk] [--astray P] [--lift P] [--face-down P]
                                         [--nudge P] [--lamp P]
                                         [--workers 2]
                                         [--keep DIR]
                                         [--models DIR] [--decks [--aces] [--wrong-deck K]]

Every fourth game has a revoke. For each game it prints whether every play, trick winner,
announcement and the verdict matched the truth log, any false accusation, and the delay from a
card coming to rest to its announcement; then the totals. Needs the test designs in the face
cache (built on first use). With ``--decks`` each game is refereed as after the players showed
the referee their deck's court cards (``sueca-referee deck``): a studio picture of that design's
court cards laid out (the first of seeds 1-10 that can be enrolled) gives the deck. With
``--learn`` each game is refereed as the second deal of a session whose first deal was the
game of the same design six seeds away in the set (another camera, table and light, so a
harder test than a real table's next deal): the deck is learnt in play where that first deal
ends with every card known (``vision.learning``), and the game is refereed with it. With
``--decks --wrong-deck K`` each game is shown another design's deck, K places on in the list
of test designs: what showing the wrong deck costs. With ``--astray P`` each card is, with
chance P, first put down in nobody's zone (in the middle of the table, or as often by a corner
beside its player's zone), then moved into its player's zone: how often the referee asks for
that, and whether it ever asks wrongly. With ``--lift P`` each card played is, with chance P,
picked up again by its player, held off the table a moment and put back where it lay: the
referee should referee the game as if it had not been. With ``--face-down P`` each card is,
with chance P, first laid face down in its player's zone, then turned over a moment later: how
often the referee asks for that, and whether it ever asks wrongly. With ``--nudge P``, after
each card played, with chance P, the camera's stand is knocked: the picture moves and turns a
little and stays so, and the referee should find the table again and referee the game as if
nothing had happened. With ``--lamp P``, after each card played, with chance P, the light
changes (brighter or darker, warmer or colder), and the referee should not notice.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.options import (add_mishap_options, at_least, mishap_chances,  # noqa: E402
                            model_folder, picture_size)
from vision.studio.clip import BRISK, Timing  # noqa: E402


def clip_of(job: tuple) -> tuple[Path, Path]:
    """The clip and truth log of a job's game (``referee_game``), rendered unless its folder
    holds them already (a --keep folder holds earlier renders)."""
    from vision.studio.clip import game_from_seed, render_clip
    from vision.studio.facesets import face_sets

    seed, revoke, (width, height), brisk, folder, mishaps = job[:6]
    designs = face_sets("test", log=lambda m: None)
    clip, truth = Path(folder) / f"game{seed}.mp4", Path(folder) / f"game{seed}.jsonl"
    if not (clip.exists() and truth.exists()):
        render_clip(game_from_seed(seed, revoke=revoke), designs[seed % len(designs)], clip,
                    truth, seed=seed, width=width, height=height,
                    timing=BRISK if brisk else Timing(), progress=False, **mishaps)
    return clip, truth


def referee_game(job: tuple) -> dict:
    from vision.classify import CardClassifier
    from vision.detect import CardDetector
    from vision.learning import DeckLearner
    from vision.studio.facesets import face_sets
    from vision.truthcheck import referee_clip

    from vision.models import MODELS

    seed, revoke, size, brisk, folder, mishaps, models, with_deck, aces, teacher = job
    models_dir = Path(models) if models else MODELS
    designs = face_sets("test", log=lambda m: None)
    faces = designs[seed % len(designs)]
    clip, truth = clip_of(job)
    detector = CardDetector(models_dir / "detector.onnx", threads=1)
    classifier = CardClassifier(models_dir / "cards.onnx", threads=1)
    if with_deck is not None:  # the deck shown: the game's own design's, or another's
        from vision.studio.images import enrolled_deck

        shown = designs[(seed + with_deck) % len(designs)]
        classifier.deck, _, _ = enrolled_deck(shown, detector, classifier, aces=aces)
    learnt = None
    if teacher is not None:  # the first deal, of the same design: the deck learnt in it
        learner = DeckLearner(classifier)
        referee_clip(*clip_of((teacher, teacher % 4 == 0, size, brisk, folder, mishaps)),
                     detector, classifier, learner=learner)
        classifier.deck, learnt = learner.deck, learner.deck is not None
    _, comparison = referee_clip(clip, truth, detector, classifier)
    return {"seed": seed, "revoke": revoke, "design": faces.name, "right": comparison.all_right,
            "learnt": learnt, "teacher": teacher,
            "false": comparison.false_accusations, "wrong": comparison.statements_wrong,
            "delays": comparison.delays,
            "verdict": comparison.verdict_right, "winner": comparison.winner_only,
            "verdict_wrong": comparison.verdict_wrong,
            "if_honest": comparison.if_honest_right,
            "ends_said": comparison.ends_said,
            "said_again": comparison.said_again,
            "cheats": (comparison.accusations_made, comparison.accusations_expected),
            "plays": (comparison.plays_right, comparison.plays_expected, comparison.plays_extra),
            "tricks": (comparison.tricks_right, comparison.tricks_expected),
            "astray": (comparison.astray_said, comparison.astray_expected,
                       comparison.astray_wrong),
            "face_down": (comparison.face_down_said, comparison.face_down_expected,
                          comparison.face_down_wrong),
            "lines": comparison.lines()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=at_least(1), default=20,
                        help="how many games (default: 20; every fourth has a revoke)")
    parser.add_argument("--first-seed", type=at_least(0), default=1,
                        help="the first game's seed; the others follow (default: 1)")
    parser.add_argument("--size", type=picture_size, default=(960, 540), metavar="WxH",
                        help="the clips' size (default: 960x540)")
    parser.add_argument("--brisk", action="store_true", help="few frames per movement")
    add_mishap_options(parser, "; clips rendered with it differ: keep them in a folder of "
                       "their own")
    parser.add_argument("--workers", type=at_least(1), default=2,
                        help="games rendered and refereed at once (default: 2)")
    parser.add_argument("--keep", help="keep the clips and truth logs in this folder (clips "
                        "already there are refereed again, not rendered again)")
    parser.add_argument("--models", metavar="DIR", type=model_folder,
                        help="model folder (default: models/)")
    parser.add_argument("--decks", action="store_true",
                        help="referee each game with its design's court cards shown first")
    parser.add_argument("--aces", action="store_true",
                        help="with --decks: the aces shown too, in a picture of their own")
    parser.add_argument("--wrong-deck", type=at_least(1), metavar="K",
                        help="with --decks: show each game the deck of the test design K places "
                        "on in the list (1-5), as players who show the referee another deck")
    parser.add_argument("--learn", action="store_true",
                        help="referee each game as a second deal, with the deck learnt in play "
                        "from the game of its design six seeds away (needs --games 7 or more)")
    args = parser.parse_args()
    if args.learn and (args.decks or args.games < 7):
        parser.error("--learn needs at least 7 games (a second game of each design) and no "
                     "--decks")
    if args.wrong_deck is not None and not args.decks:
        parser.error("--wrong-deck goes with --decks")
    width, height = args.size
    from vision.studio.facesets import face_sets

    face_sets("test")  # build the test designs once, before the workers need them
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        Path(folder).mkdir(parents=True, exist_ok=True)
        seeds = range(args.first_seed, args.first_seed + args.games)
        jobs = [(seed, seed % 4 == 0, (width, height), args.brisk, folder,
                 mishap_chances(args),
                 args.models, (args.wrong_deck or 0) if args.decks else None, args.aces,
                 None if not args.learn else seed - 6 if seed - 6 in seeds else seed + 6)
                for seed in seeds]
        started = time.monotonic()
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            if args.learn:  # every clip first: each is another game's first deal too
                list(pool.imap(clip_of, jobs))
            results = []
            for r in pool.imap(referee_game, jobs):
                results.append(r)
                verdict = "right" if r["right"] else "WRONG"
                learnt = "" if r["learnt"] is None else \
                    f", deck {'learnt' if r['learnt'] else 'not learnt'} from game {r['teacher']}"
                print(f"game {r['seed']:3d} ({r['design']}, revoke {r['revoke']}{learnt}): "
                      f"{verdict}; "
                      f"plays {r['plays'][0]}/{r['plays'][1]} right, {r['plays'][2]} misread; "
                      f"tricks {r['tricks'][0]}/{r['tricks'][1]}; false accusations "
                      f"{r['false']}; said wrongly {r['wrong']}", flush=True)
                if not r["right"]:
                    for line in r["lines"][:6]:
                        print("    " + line)
    delays = [d for r in results for d in r["delays"]]
    plays = [sum(r["plays"][i] for r in results) for i in range(3)]
    tricks = [sum(r["tricks"][i] for r in results) for i in range(2)]
    print(f"plays taken right: {plays[0]} of {plays[1]} ({100 * plays[0] / max(plays[1], 1):.1f} %)"
          f", misread: {plays[2]}; tricks with the right winner and points: {tricks[0]} of "
          f"{tricks[1]}")
    print(f"{sum(r['right'] for r in results)} of {len(results)} games refereed entirely right"
          f" ({sum(r['revoke'] for r in results)} with a revoke); false accusations: "
          f"{sum(r['false'] for r in results)}; trumps, cuts, tricks and cards outside the "
          f"deck said wrongly: {sum(r['wrong'] for r in results)}; "
          f"{time.monotonic() - started:.0f} s")
    cheats = [sum(r["cheats"][i] for r in results) for i in range(2)]
    print(f"verdicts right: {sum(r['verdict'] for r in results)} of {len(results)} (and "
          f"{sum(r['winner'] for r in results)} more with the winner and the games right, the "
          f"score not known for sure), given wrongly: "
          f"{sum(r['verdict_wrong'] for r in results)}; cheating announced: {cheats[0]} of "
          f"{cheats[1]}")
    print(f"deals whose end was said more than once: "
          f"{sum(r['ends_said'] > 1 for r in results)}; trumps, cuts and tricks said again "
          f"(not taken back in between): {sum(r['said_again'] for r in results)}")
    honest = [r["if_honest"] for r in results if r["if_honest"] is not None]
    print(f"deals with no verdict that end saying the result if nobody revoked with the cards "
          f"never read surely: {len(honest)}, the truth's result: {sum(honest)}")
    if args.astray:
        astray = [sum(r["astray"][i] for r in results) for i in range(3)]
        print(f"cards put down in nobody's zone first: {astray[1]}; asked into their "
              f"zone: {astray[0]}; asked wrongly: {astray[2]}")
    if args.face_down:
        face_down = [sum(r["face_down"][i] for r in results) for i in range(3)]
        print(f"cards laid face down first: {face_down[1]}; asked to be turned over: "
              f"{face_down[0]}; asked wrongly: {face_down[2]}")
    if args.learn:
        learnt = [r for r in results if r["learnt"]]
        print(f"decks learnt in the first deal: {len(learnt)} of {len(results)}; of the games "
              f"refereed with one, {sum(r['right'] for r in learnt)} refereed entirely right")
    if delays:
        print(f"delay from rest to announcement: median {statistics.median(delays):.0f} frames, "
              f"worst {max(delays)}")


if __name__ == "__main__":
    main()
