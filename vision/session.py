"""A refereeing session: frames in, announcements out, through every stage in order.

    frames -> CalibrationKeeper (table) -> CardDetector -> CardClassifier -> Tracker
           -> TableReferee (rules) -> sinks (console, JSONL log, speech, video, window)

``run_session`` drives one source to its end (or until a sink asks to stop) and returns what
happened, so ``replay`` can compare it with a truth log and ``live`` can report on the camera.
Only frames where something has changed and come to rest are read (``vision.motion``); frames
with no card in any zone skip the classifier entirely.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .detect import ZONE_CONTEXT_MM
from .detections import CardDetections
from .announcements import Said
from .game import FoundAstray, TableReferee
from .learning import DeckLearner
from .motion import Action, ChangeGate
from .sources import Frame
from .table import Calibration, CalibrationKeeper
from .track import CardConfirmed, CardLanded, TrackEvent, Tracker, ZoneCleared, ZoneUnclear


class Sink(Protocol):
    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        """Called on every frame; return False to stop the session."""
        ...

    def close(self) -> None: ...

    # A sink may also have ``end(said: list[Said]) -> None``: what was said once the frames
    # ran out (a trick swept just before the end, see ``Tracker.flush``), with no frame to
    # draw it on. The console prints it and speech says it; a video has nothing to add.


@dataclass
class SessionResult:
    frames: int = 0
    said: list[Said] = field(default_factory=list)
    landings: list[CardLanded] = field(default_factory=list)
    calibrated_frames: int = 0
    reused_frames: int = 0  # frames that kept the last reading (see ``vision.motion``)
    stopped: bool = False


def track_event_to_dict(event: TrackEvent) -> dict[str, Any]:
    if isinstance(event, CardLanded):
        return {"type": "landed", "seat": event.seat.number, "card": event.card,
                "confidence": round(event.confidence, 4), "frame": event.frame,
                "quad": [[round(x, 1), round(y, 1)] for x, y in event.quad],
                "looks": event.looks, "odds": [list(o) for o in event.odds],
                **({} if event.since is None else {"since": event.since})}
    if isinstance(event, CardConfirmed):
        return {"type": "confirmed", "seat": event.seat.number, "card": event.card,
                "confidence": round(event.confidence, 4), "frame": event.frame}
    if isinstance(event, ZoneCleared):
        return {"type": "cleared", "seat": event.seat.number, "card": event.card,
                "frame": event.frame}
    out = {"type": "unclear", "seat": event.seat.number, "frame": event.frame}
    return {**out, "face_down": True} if event.face_down else out


def track_event_from_dict(data: dict[str, Any]) -> TrackEvent:
    from referee.seats import Seat

    seat = Seat(int(data["seat"]))
    if data["type"] == "landed":
        return CardLanded(seat, str(data["card"]), float(data["confidence"]),
                          int(data["frame"]), tuple(tuple(p) for p in data.get("quad", [])),
                          int(data.get("looks", 1)),
                          tuple((str(c), float(p)) for c, p in data.get("odds", [])),
                          None if data.get("since") is None else int(data["since"]))
    if data["type"] == "confirmed":
        return CardConfirmed(seat, str(data["card"]), float(data["confidence"]),
                             int(data["frame"]))
    if data["type"] == "cleared":
        return ZoneCleared(seat, str(data["card"]), int(data["frame"]))
    if data["type"] == "unclear":
        return ZoneUnclear(seat, int(data["frame"]), bool(data.get("face_down", False)))
    raise ValueError(f"unknown event type '{data['type']}'")


class EventLog:
    """``--events FILE.jsonl``: every tracker event and announcement, a JSON object a line,
    flushed as it happens, so a crash loses nothing. Each frame with tracker events also
    records what the zones held, which is all ``resume`` needs to rebuild the game; a
    ``session`` record first says what the session was given that the game rests on (the
    deck file shown, ``logged_deck``)."""

    def __init__(self, path: Path, append: bool = False, keep_earlier: bool = True) -> None:
        self.kept: Path | None = None  # where an earlier log at ``path`` was moved to
        if keep_earlier and not append and path.is_file() and path.stat().st_size > 0:
            # never write over a game recorded earlier (one not resumed by mistake, say):
            # it is kept beside, as NAME.1.jsonl (or the next number free)
            numbered = (path.with_name(f"{path.stem}.{n}{path.suffix}")
                        for n in itertools.count(1))
            self.kept = next(name for name in numbered if not name.exists())
            path.rename(self.kept)
        self.handle = path.open("a" if append else "w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self.handle.write(json.dumps(record) + "\n")
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()


@dataclass
class Resumed:
    frame: int  # the last frame the log saw
    said: list[Said]  # what the referee said again, rebuilding the game

    @property
    def announcements(self) -> int:
        return len(self.said)


def logged_deck(path: Path) -> str | None:
    """The deck file (``--deck``) the session that wrote the log ``path`` was shown, as its
    last ``session`` record names it; None where it was shown none (or the log says not).
    Raises ``OSError`` where the log cannot be read, ``ValueError`` where it is not text."""
    deck = None
    for line in _log_lines(path):
        if '"session"' not in line:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("record") == "session":
            deck = record.get("deck") if isinstance(record.get("deck"), str) else None
    return deck


def _log_lines(path: Path) -> list[str]:
    """The lines of the event log ``path``. Raises ``OSError``, or ``ValueError`` where it is
    not text (so not a log)."""
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise ValueError("it is not an event log (not even text)") from None


def resume_from(path: Path, table: TableReferee) -> Resumed:
    """Feed the tracker events of an earlier session's log into ``table``, rebuilding the game
    as it stood. Raises ``ValueError`` naming the line of a broken record (a last line cut
    short by a crash is ignored), or saying the file is no event log at all."""
    from referee.seats import Seat

    lines = _log_lines(path)
    last_frame, said_all, records = -1, [], 0
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            # the write a crash interrupted, if it began as every record does (the only
            # line of a file that is nothing like a log is not one)
            if n == len(lines) and (records or line.startswith('{"record"')):
                break
            raise ValueError(f"line {n} is not JSON" if records or n > 1
                             else "it is not an event log") from None
        if not isinstance(record, dict):
            raise ValueError(f"line {n} is not a record (a JSON object)")
        records += 1
        if record.get("record") != "track":
            continue
        try:
            events = [track_event_from_dict(e) for e in record["events"]]
            holding = {Seat(int(k)): v for k, v in record["holding"].items()}
            unread = frozenset(Seat(int(n)) for n in record.get("unread", []))
            empty = frozenset(Seat(int(n)) for n in record.get("empty", []))
            parts = {Seat(int(k)): (int(since), str(part))
                     for k, (since, part) in record.get("parts", {}).items()}
            odds = {Seat(int(k)): (int(since), tuple((str(c), float(p)) for c, p in odd))
                    for k, (since, odd) in record.get("odds", {}).items()}
            looks = {Seat(int(k)): (int(since), int(n))
                     for k, (since, n) in record.get("looks", {}).items()}
            said = table.on_events(events, int(record["frame"]), float(record["time"]), holding,
                                   unread, empty, parts, odds, looks)
        except KeyError as error:
            raise ValueError(f"line {n}: a tracker record without its {error}") from None
        except (AttributeError, TypeError, ValueError) as error:
            raise ValueError(f"line {n}: a broken tracker record ({error})") from None
        said_all += said
        last_frame = int(record["frame"])
    return Resumed(last_frame, said_all)


def run_session(frames: Iterable[Frame], detector, classifier,  # noqa: ANN001
                keeper: CalibrationKeeper, tracker: Tracker, table: TableReferee,
                sinks: list[Sink], log: EventLog | None = None,
                skip_until: int = -1, learner: DeckLearner | None = None) -> SessionResult:
    """``learner``: learn the deck in play (``vision.learning``): once a deal ends with every
    card known, the classifier reads the deals after it with the deck its cards make."""
    result = SessionResult()
    gate = ChangeGate(sure=tracker.settings.min_confidence)
    # how sure a card read by ruling others out may be: enough to play, never to accuse on
    settings = table.rules.referee
    play_only = max(settings.min_confidence, settings.accuse_confidence - 0.01)
    last_watched: tuple = (({}, {}), frozenset())
    leanings: dict = {}  # what the game expected of each seat's card on the last frame
    last: Frame | None = None
    seen_on, moves = None, keeper.moves  # the calibration of the frame before, and its moves
    said_now = table.start()
    for said in said_now:
        _log_said(log, said)
    result.said += said_now
    for frame in frames:
        result.frames += 1
        calibration = keeper.update(frame.image, frame.time_s)
        if keeper.moves != moves:  # the table found elsewhere: a camera knocked
            moves = keeper.moves
            if seen_on is not None and calibration is not None \
                    and seen_on.image_size == calibration.image_size:
                tracker.view_moved(_carried_over(seen_on, calibration))
        if calibration is not None:
            result.calibrated_frames += 1
            seen_on = calibration
        plan = gate.plan(frame.image, calibration, frame.preview)
        if plan.action is Action.READ:
            # only the zones where something has come to rest are read afresh (looked at more
            # widely where a zone's own look found a still card in part, or none where one lies)
            detections = detector.detect_widely(frame.image, calibration, plan.read) \
                if plan.wide else detector.detect(frame.image, calibration, plan.read,
                                                  ZONE_CONTEXT_MM)
            if len(detections):
                # a card read unsurely is read again among the cards it can still be
                classifier.read(frame.image, detections,
                                table.ruled_out(tracker.holding().values()),
                                tracker.settings.min_confidence, play_only,
                                table.leanings(tracker.holding()))
            detections = gate.remember(detections, plan.read)
        else:
            detections = gate.detections  # nothing new has come to rest: the reading stands
            result.reused_frames += 1
        empty = gate.empty_zones()  # (the zones that look as on the empty table)
        events = tracker.update(detections, frame.index, plan.seats, fresh=plan.read,
                                empty=empty)
        if learner is not None and (events or plan.action is Action.READ):
            learner.look(frame.image, frame.index, detections, tracker.unread(), events,
                         plan.read)
        said_now = []
        # the suits and ranks read of cards that cannot be read (the trump's among them) count
        # even on frames without events, so the referee hears of them when they change
        # (and which zones look empty: a card the dealer showed unread and took back is the
        # trump, and the dealer's next card a play)
        reads = _unread_reads(tracker)
        watched = (reads, empty)
        if frame.index > skip_until and (events or watched != last_watched
                                         or table.due(frame.time_s)):
            last_watched = watched
            said_now = _referee(events, reads, watched[1], frame, tracker, gate, table, log,
                                result)
            said_now += _learnt(learner, said_now, classifier, log, result)
            # a card not read surely whose seat the game now expects something else of (a
            # lead not read was followed) is looked at again
            before, leanings = leanings, table.leanings(tracker.holding())
            gate.look_again({seat for seat in tracker.unread()
                             if leanings.get(seat) != before.get(seat)})
        if gate.stray_due() and frame.index > skip_until:
            # something has come to rest outside the zones (the middle of the table, a corner),
            # which the zones' reading never looks at: a card put down in no seat's zone is
            # asked to be moved into one
            astray = table.astray(_astray(frame, calibration, detector, classifier),
                                  frame.index, frame.time_s)
            for said in astray:
                _log_said(log, said)
            result.said += astray
            said_now = said_now + astray
        elif gate.astray_clear:
            table.astray_clear()  # (a dropped trick's cards are not gathered there)
        keep_going = True
        for sink in sinks:
            keep_going &= sink.frame(frame, detections, calibration, table, said_now)
        if not keep_going:
            result.stopped = True
            break
        last = frame
    if not result.stopped and last is not None and last.index > skip_until:
        # the frames ran out: a trick swept just before the end was still swept
        events = tracker.flush(last.index)
        said_now = []
        if events:
            said_now = _referee(events, _unread_reads(tracker), gate.empty_zones(), last,
                                tracker, gate, table, log, result)
            said_now += _learnt(learner, said_now, classifier, log, result)
        held = table.release(last.index, last.time_s)  # (what the referee held back)
        for said in held:
            _log_said(log, said)
        result.said += held
        said_now += held
        if events or held:
            for sink in sinks:
                if hasattr(sink, "end"):
                    sink.end(said_now)
    return result


def _carried_over(before: Calibration, now: Calibration):  # noqa: ANN202
    """Picture points (Nx2) of ``before``'s view of the table, where ``now``'s shows them."""
    return lambda points: now.to_image(before.to_table(points))


def _astray(frame: Frame, calibration: Calibration, detector,  # noqa: ANN001
            classifier) -> list[FoundAstray]:  # noqa: ANN001
    """The cards lying whole on the table in ``frame`` but in no seat's zone (not even by the
    detector's reach), as read; cards read as nothing are left out. One look at the whole
    table, made only when a part of it outside the zones has changed and come to rest
    (``ChangeGate.stray_due``)."""
    found = detector.detect(frame.image, calibration)
    found = found[np.array([seat is None for seat in found.seats], bool) & found.whole]
    if not len(found):
        return []
    classifier.read(frame.image, found)
    layout, area = calibration.layout, calibration.layout.area_mm
    middles = calibration.to_table(found.quads.mean(axis=1))
    out = []
    for quad, card, confidence, odds, (x, y) in zip(found.quads, found.cards, found.confidence,
                                                    found.odds, middles):
        if card is not None and 0 <= x <= area and 0 <= y <= area:
            outline = tuple((round(float(px), 1), round(float(py), 1)) for px, py in quad)
            # (a card in the middle is said to lie there: any player may have put it down,
            # and one a little nearer one zone is not that player's any the more)
            middle = layout.in_middle(x, y)
            nearest = None if middle else layout.nearest_seat(x, y)
            out.append(FoundAstray(card, float(confidence), nearest, odds or (),
                                   (float(x), float(y)), outline, corner=not middle))
    return out


def _learnt(learner: DeckLearner | None, said: list[Said], classifier,  # noqa: ANN001
            log: EventLog | None, result: SessionResult) -> list[Said]:
    """What ``learner`` makes of what was said: at the end of a deal whose every card is
    known, the deck its cards make, which the classifier reads with from then on (and its
    announcement, logged and added to ``result``)."""
    if learner is None or not said:
        return []
    learnt = learner.heard(said)
    if learnt:
        classifier.deck = learner.deck
        for item in learnt:
            _log_said(log, item)
        result.said += learnt
    return learnt


def _unread_reads(tracker: Tracker) -> tuple[dict, dict, dict]:
    """What was read of the cards not read surely: ``Tracker.unread_parts``,
    ``Tracker.unread_odds`` and ``Tracker.unread_looks``."""
    return tracker.unread_parts(), tracker.unread_odds(), tracker.unread_looks()


def _referee(events: list[TrackEvent], reads: tuple[dict, dict, dict], empty: frozenset,
             frame: Frame, tracker: Tracker, gate: ChangeGate, table: TableReferee,
             log: EventLog | None, result: SessionResult) -> list[Said]:
    """Give one frame's tracker events (and ``reads``: what was read of the cards not read
    surely, ``_unread_reads``; ``empty``, the zones that
    look empty, ``ChangeGate.empty_zones``) to the referee, log them and what it says, and add
    both to ``result``."""
    parts, odds, looks = reads
    # a zone where the detector found nothing though something lies there is as unread as
    # one whose card was read unsurely: a play after it is not out of turn
    holding, unread = tracker.holding(), tracker.unread() | gate.missed_zones()
    said_now = table.on_events(events, frame.index, frame.time_s, holding, unread, empty,
                               parts, odds, looks)
    if log is not None:
        log.write(track_record(events, frame.index, frame.time_s, holding, unread, empty,
                               parts, odds, looks))
    for said in said_now:
        _log_said(log, said)
    result.landings += [e for e in events if isinstance(e, CardLanded)]
    result.said += said_now
    return said_now


def track_record(events: list[TrackEvent], frame: int, time_s: float, holding: dict,
                 unread: frozenset, empty: frozenset, parts: dict, odds: dict,
                 looks: dict) -> dict[str, Any]:
    """One frame's record of the event log: what ``TableReferee.on_events`` was given, as
    ``resume_from`` reads it back."""
    return {"record": "track", "frame": frame, "time": round(time_s, 3),
            "events": [track_event_to_dict(e) for e in events],
            "holding": {str(s.number): c for s, c in holding.items()},
            "unread": sorted(s.number for s in unread),
            "empty": sorted(s.number for s in empty),
            "parts": {str(s.number): list(v) for s, v in parts.items()},
            "odds": {str(s.number): [since, [list(o) for o in odd]]
                     for s, (since, odd) in odds.items()},
            "looks": {str(s.number): list(v) for s, v in looks.items()}}


def _log_said(log: EventLog | None, said: Said) -> None:
    if log is not None:
        log.write({"record": "announcement", **said.to_dict()})


def frames_after(frames: Iterable[Frame], first: int) -> Iterator[Frame]:
    for frame in frames:
        if frame.index >= first:
            yield frame
