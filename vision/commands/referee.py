"""The ``replay`` and ``live`` commands: build the stages from the options and run a session."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.events import GameOver
from vision.commands import PROG, says_unwritable


def add_referee_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--calibration", metavar="FILE",
                         help="table calibration (default: find the markers in the picture, "
                              "and look again every few seconds); the table is followed if "
                              "the camera is knocked, by the picture around its corners")
    command.add_argument("--still-camera", action="store_true",
                         help="with --calibration: never move the table with the picture (a "
                              "camera that cannot move, over a cloth whose pattern repeats)")
    command.add_argument("--trump", metavar="CARD",
                         help="the trump card (e.g. 7D), instead of watching the dealer show it")
    command.add_argument("--events", metavar="FILE.jsonl",
                         help="log every event and announcement here, as it happens")
    command.add_argument("--resume", metavar="FILE.jsonl",
                         help="carry on the game recorded in this log (after a crash)")
    command.add_argument("--out", metavar="ANNOTATED.mp4",
                         help="write the video with zones, readings, trick, score and banners")
    command.add_argument("--show", action="store_true", help="show that view in a window")
    command.add_argument("--speak", action="store_true",
                         help="say the announcements aloud (needs espeak-ng)")
    command.add_argument("--lang", choices=["en", "pt"], default="en",
                         help="language of the spoken announcements (default en)")
    command.add_argument("--deck", metavar="DECK.npz",
                         help="the court cards of the deck in play, as shown to the referee "
                              "with 'sueca-referee deck' (reads an unfamiliar design's court "
                              "cards far better)")
    command.add_argument("--no-learn", action="store_true",
                         help="do not learn the deck in play (without --deck, once a deal ends "
                              "with every card known, its court cards are read by their "
                              "pictures in the deals after it)")
    command.add_argument("--save-deck", metavar="DECK.npz",
                         help="write the deck learnt in play here, to give as --deck later")
    command.add_argument("--models", metavar="DIR", help="model folder (default: models/)")
    command.add_argument("--config", metavar="FILE", help="config file (default: config.yaml)")


def run_referee(ns: argparse.Namespace, command: str) -> int:  # noqa: C901 - one flat recipe
    from referee.cards import Card, CardError
    from referee.config import ConfigError, load_rules_config
    from vision.classify import CardClassifier, ClassifierError
    from vision.deck import Deck, DeckError
    from vision.detect import CardDetector, DetectorError
    from vision.models import MODELS, threads_beside_reading
    from vision.game import TableReferee
    from vision.learning import DeckLearner
    from vision.layout import LayoutError, load_layout
    from vision.session import EventLog, logged_deck, resume_from, run_session
    from vision.sinks import (ConsoleSink, DeckHint, SpeechSink, TableNote, VideoSink,
                              WindowSink, clock, windows_can_open)
    from vision.sources import SourceError, SourceStats, camera_frames, open_source
    from vision.table import CalibrationError, CalibrationKeeper, load_calibration
    from vision.track import Tracker

    def say(note: str) -> None:  # (a note on stderr as it happens)
        print(f"{PROG} {command}: {note}", file=sys.stderr, flush=True)

    def fail(message: str, status: int = 1) -> int:
        say(message)
        return status

    try:
        rules = load_rules_config(ns.config)
        layout = load_layout(ns.config)
    except (ConfigError, LayoutError) as error:
        return fail(str(error), 2)
    trump = None
    if ns.trump:
        try:
            trump = Card.parse_sueca(ns.trump)
        except (CardError, ValueError) as error:
            return fail(f"--trump: '{ns.trump}' is no card of the Sueca deck "
                        f"({str(error).splitlines()[-1]}); write it as rank and suit, "
                        "such as 7D, AS or QH", 2)
    if ns.still_camera and not ns.calibration:
        return fail("--still-camera goes with --calibration FILE: without it the table is "
                    "found from its markers wherever the camera shows them", 2)
    try:
        calibration = load_calibration(ns.calibration) if ns.calibration else None
    except CalibrationError as error:
        return fail(str(error), 2)
    if calibration is not None and calibration.dealer != rules.order.dealer:
        # (the file names the dealer for reading; the order of play is the config's, and a
        # dealer edited in the file alone would be ignored without a word)
        return fail(f"'{ns.calibration}' names seat {calibration.dealer.number} as the dealer, "
                    f"but the config's table order has seat {rules.order.dealer.number}: the "
                    "referee follows the config (dealer, first leader, direction); set it "
                    "there, or write the file again with 'sueca-referee calibrate'", 2)
    deck_file = ns.deck
    if ns.resume and not deck_file:  # the deck the game was refereed with, as its log says
        try:
            deck_file = logged_deck(Path(ns.resume))
        except (OSError, ValueError):
            deck_file = None  # (resuming says why it cannot read the log, below)
        if deck_file and not Path(deck_file).is_file():
            print(f"{PROG} {command}: the log names the deck '{deck_file}', which is not there: "
                  "carrying on without it", file=sys.stderr)
            deck_file = None
        elif deck_file:
            print(f"resuming with the deck the log names: {deck_file}", file=sys.stderr)
    try:
        deck = Deck.load(deck_file) if deck_file else None
    except DeckError as error:
        return fail(str(error), 2)
    if command == "replay" and not Path(ns.clip).exists():
        return fail(f"'{ns.clip}' does not exist")
    if ns.save_deck and (deck_file or ns.no_learn):
        return fail("--save-deck writes the deck learnt in play: it cannot be given with "
                    f"{'--deck' if deck_file else '--no-learn'}", 2)
    if says_unwritable(command, (ns.events, False), (ns.out, False), (ns.save_deck, False)):
        return 2  # (said before a camera opens or a clip is played)
    truth = None
    if command == "replay" and ns.truth:  # read first: not found only after the whole clip
        from vision.studio.clip import read_truth

        try:
            truth = read_truth(Path(ns.truth))
        except OSError as error:
            return fail(f"cannot read the truth log '{ns.truth}': {error.strerror or error}", 2)
        except ValueError as error:
            return fail(f"cannot read the truth log '{ns.truth}': {error}", 2)
    keeper = CalibrationKeeper(calibration, layout, rules.order.dealer, fixed=bool(calibration),
                               say=say, follow=not ns.still_camera)
    models = Path(ns.models) if ns.models else MODELS
    # a clip is decoded ahead on a thread of its own, which needs a core; a camera is not
    threads = threads_beside_reading() if command == "replay" else None
    try:
        detector = CardDetector(models / "detector.onnx", threads=threads)
        classifier = CardClassifier(models / "cards.onnx", threads=threads, deck=deck)
    except (DetectorError, ClassifierError) as error:
        return fail(str(error))
    table = TableReferee(rules, trump=trump)
    # without a deck shown, the deck is learnt once a deal ends with every card known
    learner = None if deck is not None or ns.no_learn else DeckLearner(classifier)
    skip_until = -1
    if ns.resume:
        try:
            resumed = resume_from(Path(ns.resume), table)
        except OSError as error:
            return fail(f"cannot resume from '{ns.resume}': {error.strerror or error}")
        except ValueError as error:
            return fail(f"cannot resume from '{ns.resume}': {error}")
        if command == "replay":
            skip_until = resumed.frame
        score = table.state()["score"]
        print(f"resumed from {ns.resume}: deal {table.deal}, {table.tricks_done} tricks, score "
              f"{score[0]} | {score[1]}", file=sys.stderr)
    # (a live camera's notes, such as one lost and opened again, are said as they happen)
    stats = SourceStats(say=say if command == "live" else None)
    if command == "replay":
        frames = open_source(ns.clip, stats)
    else:
        frames = camera_frames(ns.camera, ns.width, ns.height, ns.fps, stats)
    sinks = [ConsoleSink()]
    if command == "live":  # (the camera can still be moved: say whether it is set right)
        sinks.append(TableNote(f"{PROG} {command}"))
    if deck is None:  # said once a deal ends with court cards never read surely
        sinks.append(DeckHint(f"{PROG} {command}"))
    log = None
    stopped = False  # ended by an error the game cannot go on from
    try:
        if ns.speak:
            sinks.append(SpeechSink(ns.lang))
        if ns.out:
            # (a camera's frames come when they come: the video keeps their own clock)
            sinks.append(VideoSink(Path(ns.out), paced=command == "live"))
        if ns.show and not windows_can_open():
            print(f"{PROG} {command}: --show needs a display (DISPLAY is not set); carrying on "
                  "without the window (--out annotated.mp4 keeps the same view)", file=sys.stderr)
        elif ns.show:
            sinks.append(WindowSink())
        if ns.events:
            log = EventLog(Path(ns.events), append=bool(
                ns.resume and Path(ns.resume).resolve() == Path(ns.events).resolve()))
            if log.kept is not None:
                print(f"{PROG} {command}: '{ns.events}' held an earlier log, kept as "
                      f"'{log.kept}' (to carry that game on, give --resume)", file=sys.stderr)
            log.write({"record": "session", "command": command,
                       "deck": str(Path(deck_file).resolve()) if deck_file else None})
        result = run_session(frames, detector, classifier, keeper, Tracker(), table, sinks, log,
                             skip_until, learner)
    except SourceError as error:
        return fail(str(error))
    except OSError as error:  # an output that cannot be written, or a camera's device
        where = f": '{error.filename}'" if error.filename else ""
        return fail(f"{error.strerror or error}{where}")
    except KeyboardInterrupt:
        print(f"{PROG} {command}: stopped", file=sys.stderr)
        result = None
    except CalibrationError as error:  # the frames do not fit the calibration given
        say(str(error))
        result, stopped = None, True
    finally:
        for sink in sinks:
            sink.close()
        if log is not None:
            log.close()
    if ns.save_deck and learner is not None:
        if learner.deck is None:
            print(f"{PROG} {command}: no deck was learnt (no deal ended with every card known): "
                  f"'{ns.save_deck}' not written", file=sys.stderr)
        else:
            try:
                learner.deck.save(ns.save_deck)
                print(f"deck learnt in play written to {ns.save_deck} (give it as --deck)",
                      file=sys.stderr)
            except OSError as error:
                print(f"{PROG} {command}: cannot write '{ns.save_deck}': "
                      f"{error.strerror or error}", file=sys.stderr)
    for note in stats.notes:
        print(f"{PROG} {command}: {note}", file=sys.stderr)
    if stats.unreadable:
        print(f"{PROG} {command}: {stats.unreadable} unreadable frames skipped", file=sys.stderr)
    if result is not None and result.frames and not result.calibrated_frames:
        print(f"{PROG} {command}: the table's markers were never found; give "
              "--calibration FILE (see 'sueca-referee calibrate')", file=sys.stderr)
    over = [s for s in (result.said if result else []) if isinstance(s.announcement, GameOver)]
    if over:
        print("\n".join(over[-1].announcement.message.splitlines()))
    else:
        state = table.state()
        print(f"Game not finished: {state['tricks']} tricks played, score "
              f"{state['score'][0]} | {state['score'][1]}")
    if truth is not None and result is not None:
        from vision.truthcheck import compare_with_truth

        comparison = compare_with_truth(truth, result.said, table.plays_taken)
        for line in comparison.lines():
            print(line)
    if result is not None and result.frames:
        print(f"({result.frames} frames, {clock(result.frames / 30.0)} of video)",
              file=sys.stderr)
    if stopped or stats.ended_early or (result is not None and not result.frames):
        return 1
    return 0
