"""Whole games as video: ``sueca-referee studio clip``.

A clip is choreographed as a list of frames. The dealer's hand brings the trump card into the
dealer's zone, leaves it there for a second and takes it back. Then every card of every trick is
carried in by its player's hand from that player's side, comes to rest in the player's zone, and
the hand goes away; after the fourth card the trick's winner reaches in, gathers the four cards
and pulls them off the table. The camera, table and light stay put (a ``Stage``); only the
``Scene`` changes from frame to frame (but for a camera knocked on its stand, ``nudge``, and
a light that changes, ``lamp``).

Next to the video, a truth log (JSONL, one object a line) says what happened and when:

- ``clip``: settings (fps, size, design, seed, layout, camera, the game);
- ``trump_shown`` / ``trump_taken``: the frame the trump card comes to rest and is taken back;
- ``card_rest``: the frame each card comes to rest, with round, seat, card and picture corners;
- ``announce``: what the rules engine says after that card (trump, cut, trick won, cheating);
- ``card_lifted`` (with ``lift``): the frame a played card, picked up again, has left the table
  (it is put back where it lay);
- ``camera_nudged`` (with ``nudge``): the frame a knocked camera has come to rest at its new
  place, with how far it moved along the table (``shift_mm``, from where it first stood) and
  how far it turned (``turn_deg``);
- ``light_changed`` (with ``lamp``): the frame the light has settled at its new level, with
  the exposure and the colour of the light against the clip's first (``exposure``, ``tint``:
  blue, green and red gains);
- ``trick_cleared``: the frame the swept trick has left the table, with winner and points;
- ``verdict``: the final score and verdict, as ``sueca-scorer`` gives them for the game;
- ``end``: the number of frames.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

import cv2
import numpy as np

from referee.cards import Card
from referee.engine import Referee
from referee.events import CardPlayed, TrumpRevealed
from referee.seats import Seat, TableOrder
from referee.tricks import Trick

from ..layout import TableLayout
from ..progress import Progress
from .camera import Camera
from .faces import BACK, StudioError
from .facesets import FaceSet
from .objects import SKIN_TONES, Hand
from .randomize import SIDE_ANGLE, random_look
from .scene import CardOnTable, Scene, Stage, render

FPS = 30


@dataclass(frozen=True)
class GameToRender:
    """What a clip shows: the trump, the tricks with seats, and what the scorer says."""

    trump: Card
    tricks: tuple[Trick, ...]
    order: TableOrder
    score: tuple[int, int] | None
    verdict: list[str]  # the scorer's output lines for the game
    fault: str | None = None
    name: str = ""


@dataclass(frozen=True)
class Timing:
    """Frames each movement takes."""

    carry: int = 12  # a hand brings a card from the table's edge to its place
    withdraw: int = 7
    between: int = 5  # nothing moves between two plays
    trump_shown: int = 24
    before_sweep: int = 10
    gather: int = 7
    pull: int = 10
    tail: int = 15


# few frames per movement: whole games that the tests and the games benchmark render quickly
BRISK = Timing(carry=4, withdraw=3, between=2, trump_shown=8, before_sweep=4, gather=3,
               pull=5, tail=4)


def _eased(start: np.ndarray, end: np.ndarray, frames: int) -> Iterator[tuple[int, np.ndarray]]:
    """Frame by frame (1 to ``frames``), the way from ``start`` to ``end`` (``_ease_out``)."""
    for k in range(1, frames + 1):
        yield k, start + (end - start) * _ease_out(k / frames)


def _ease_out(t: float) -> float:
    return 1 - (1 - t) ** 3


def _ease_in(t: float) -> float:
    return t ** 2


@dataclass
class Frame:
    scene: Scene
    truth: list[dict[str, Any]]


class Choreographer:
    """Turns a game into frames (scenes plus truth records)."""

    def __init__(self, game: GameToRender, faces: FaceSet, layout: TableLayout,
                 rng: np.random.Generator, timing: Timing = Timing(), astray: float = 0.0,
                 lift: float = 0.0, face_down: float = 0.0, nudge: float = 0.0,
                 lamp: float = 0.0) -> None:
        """``astray``: the chance that a player first puts their card down in nobody's zone
        (in the middle of the table, or as often by a corner beside their zone), and moves it
        into their zone a moment later (0: the clips of earlier sessions, frame for frame).
        ``lift``: the chance that a player, their card played, picks it up again, holds it a
        while off the table and puts it back where it lay (0: never). ``face_down``: the chance
        that a player lays their card face down in their zone, and turns it over a moment later
        (never a card first put down astray; 0: never). ``nudge``: the chance that, a card
        played, somebody knocks the camera's stand, which comes to rest a little way off and
        turned a little (0: never); the frames are then seen from ``bump``. ``lamp``: the
        chance that, a card played, the light changes (a lamp switched on or off, a cloud,
        the camera's exposure): brighter or darker and a little warmer or colder, the frames
        then lit as ``lighting`` says."""
        self.game, self.faces, self.layout, self.rng, self.timing = game, faces, layout, rng, timing
        self.astray, self.lift, self.face_down, self.nudge = astray, lift, face_down, nudge
        # where the camera is, as each frame is yielded: moved (x, y mm along the table) and
        # turned (degrees) from where it first stood
        self.bump = (0.0, 0.0, 0.0)
        # the knocks are drawn apart from the rest (a stream spawned from ``rng``, which
        # leaves ``rng`` as it was), so a game knocked is choreographed as the game not
        # knocked, card for card and hand for hand (a clip's pictures of hands, drawn from
        # ``rng`` too, draw as many numbers as a hand covers pixels, which the knocked view
        # changes: the rendered clip's later cards then rest elsewhere)
        self.knocks = rng.spawn(1)[0] if nudge else None
        # the light's exposure and colour (blue, green, red gains) against the clip's first,
        # as each frame is yielded; its changes draw from a stream of their own too
        self.lamp = lamp
        self.lighting = (1.0, (1.0, 1.0, 1.0))
        self.lamps = rng.spawn(1)[0] if lamp else None
        self.skins = {s: SKIN_TONES[int(rng.integers(len(SKIN_TONES)))] for s in range(1, 5)}
        self.resting: list[CardOnTable] = []  # cards lying still on the table
        self.referee = Referee(game.order)

    # -- geometry --------------------------------------------------------------------------

    def _rest_pose(self, seat: Seat) -> tuple[np.ndarray, float]:
        zone = self.layout.zone(seat)
        out = np.array(self.layout.outward(seat))
        across = np.array([-out[1], out[0]])
        centre = np.array(zone.centre) + out * self.rng.normal(-10, 15) \
            + across * self.rng.normal(0, 22)
        angle = SIDE_ANGLE[self.layout.side_of(seat)] + float(self.rng.normal(0, 12))
        return centre, angle

    def _off_table(self, seat: Seat, point: np.ndarray) -> np.ndarray:
        out = np.array(self.layout.outward(seat))
        return point + out * (self.layout.area_mm / 2 + 320)

    def _hand(self, seat: Seat, tip: np.ndarray, lift: float) -> Hand:
        out = np.array(self.layout.outward(seat))
        return Hand((float(tip[0]), float(tip[1])), (float(out[0]), float(out[1])),
                    self.skins[seat.number], size=1.0, lift=lift, spread=0.12, curl=0.2,
                    thumb_side=1 if seat.number % 2 else -1)

    def _scene(self, extra_cards: list[CardOnTable] = (), hands: list[Hand] = ()) -> Scene:
        return Scene(cards=list(self.resting) + list(extra_cards), hands=list(hands))

    # -- movements -------------------------------------------------------------------------

    def _bring(self, seat: Seat, card: Card,
               start_pose: tuple[np.ndarray, float] | None = None,
               rest_pose: tuple[np.ndarray, float] | None = None) -> Iterator[Frame]:
        """A hand carries ``card`` in (from ``start_pose``, where the card lies on the table:
        slid from there) to its player's zone (or to ``rest_pose``, held as it will lie);
        yields frames up to the one where it lies still."""
        if rest_pose is None:
            rest, angle = self._rest_pose(seat)
            start = self._off_table(seat, rest)
            start_angle = angle + float(self.rng.normal(0, 20))
        else:
            rest, angle = rest_pose
            start, start_angle = self._off_table(seat, rest), angle
        if start_pose is not None:
            start, start_angle = start_pose
        out = np.array(self.layout.outward(seat))
        face = self.faces.face(card)
        grip = CARD_GRIP_MM
        n = self.timing.carry
        for k in range(1, n + 1):
            t = _ease_out(k / n)
            pos = start + (rest - start) * t
            lift = 25 * (1 - t) if start_pose is None else 3 * (1 - t)
            moving = CardOnTable(card, face, (float(pos[0]), float(pos[1])),
                                 start_angle + (angle - start_angle) * t, lift)
            tip = pos + out * grip
            yield Frame(self._scene([moving], [self._hand(seat, tip, lift + 10)]), [])
        self.resting.append(CardOnTable(card, face, (float(rest[0]), float(rest[1])),
                                              angle))

    def _put_astray(self, seat: Seat, card: Card) -> Generator[Frame, None,
                                                               tuple[np.ndarray, float]]:
        """The player puts ``card`` down in nobody's zone, lets go, and after a while reaches
        for it again (to slide it into their zone: ``_bring`` from the pose it returns): in the
        middle of the table, or (``ASTRAY_CORNER``) tossed wide, by the corner beside their
        zone on one side or the other, nearer their zone than their neighbour's by at least
        20 mm but farther from it than the detector's reach. The first frame it lies still
        says so in the truth log."""
        centre = np.array(self.layout.centre)
        corner = bool(self.rng.random() < ASTRAY_CORNER)
        if corner:
            out = np.array(self.layout.outward(seat))
            across = np.array([-out[1], out[0]]) * (1 if self.rng.random() < 0.5 else -1)
            spot = centre + out * self.rng.uniform(170, 200) + across * self.rng.uniform(135, 155)
        else:
            spot = centre + self.rng.normal(0, 12, 2)
        angle = SIDE_ANGLE[self.layout.side_of(seat)] + float(self.rng.normal(0, 25))
        yield from self._bring(seat, card, rest_pose=(spot, angle))
        placed = self.resting[-1]
        yield Frame(self._scene(), [{"event": "card_astray", "seat": seat.number,
                                     "card": str(card),
                                     "where": "corner" if corner else "middle"}])
        yield from self._withdraw(seat, placed)
        yield from self._still(ASTRAY_STILL)
        yield from self._reach_for(seat, placed, raised=0.0)
        self.resting.remove(placed)
        return spot, angle

    def _lay_face_down(self, seat: Seat, card: Card) -> Iterator[Frame]:
        """The player lays ``card`` face down in their zone and lets go (the first frame it
        lies still says so in the truth log: ``card_face_down``); after a while they reach for
        it again and turn it over where it lies, the hand over it: the face-up card then lies
        last in ``resting``, as ``_bring`` leaves it."""
        yield from self._bring(seat, BACK)
        placed = self.resting[-1]
        yield Frame(self._scene(), [{"event": "card_face_down", "seat": seat.number,
                                     "card": str(card)}])
        yield from self._withdraw(seat, placed)
        yield from self._still(FACE_DOWN_STILL)
        yield from self._reach_for(seat, placed, raised=0.0)
        self.resting.remove(placed)
        out = np.array(self.layout.outward(seat))
        face = self.faces.face(card)
        n = self.timing.carry
        for k in range(1, n + 1):  # lifted a little, turned, and laid down again
            t = k / n
            showing = (BACK, placed.face) if t <= 0.5 else (card, face)
            turning = CardOnTable(showing[0], showing[1], placed.centre, placed.angle,
                                  30 * math.sin(math.pi * t))
            tip = np.array(placed.centre) + out * CARD_GRIP_MM
            yield Frame(self._scene([turning], [self._hand(seat, tip, 10 + 30 * math.sin(
                math.pi * t))]), [])
        self.resting.append(CardOnTable(card, face, placed.centre, placed.angle))

    def _reach_for(self, seat: Seat, card: CardOnTable, raised: float) -> Iterator[Frame]:
        """The player's hand comes back over the table to ``card``, held ``raised`` mm higher
        at first than at the end (10 mm above the table)."""
        out = np.array(self.layout.outward(seat))
        tip0 = np.array(card.centre) + out * CARD_GRIP_MM
        for k in range(1, self.timing.carry + 1):
            t = _ease_out(k / self.timing.carry)
            tip = tip0 + out * 380 * (1 - t)
            yield Frame(self._scene([], [self._hand(seat, tip, 10 + raised * (1 - t))]), [])

    def _take_away(self, seat: Seat, card: CardOnTable,
                   truth: dict[str, Any]) -> Iterator[Frame]:
        """The player's hand, come back to ``card``, lifts it and takes it off the table
        towards the player; the last frame's truth is ``truth``."""
        out = np.array(self.layout.outward(seat))
        self.resting.remove(card)
        for k in range(1, self.timing.carry + 1):
            t = _ease_in(k / self.timing.carry)
            pos = np.array(card.centre) + out * 420 * t
            moving = CardOnTable(card.card, card.face, (float(pos[0]), float(pos[1])),
                                 card.angle, 20 * t)
            yield Frame(self._scene([moving], [self._hand(seat, pos + out * CARD_GRIP_MM,
                                                          10 + 20 * t)]),
                        [truth] if k == self.timing.carry else [])

    def _pick_up_and_put_back(self, seat: Seat, placed: CardOnTable) -> Iterator[Frame]:
        """The player reaches for their card lying played, takes it off the table, holds it
        ``LIFTED_AWAY`` frames and lays it down again where it lay (the truth log says when
        it was taken: ``card_lifted``)."""
        yield from self._reach_for(seat, placed, raised=0.0)
        yield from self._take_away(seat, placed, {"event": "card_lifted", "seat": seat.number,
                                                  "card": str(placed.card)})
        yield from self._still(LIFTED_AWAY)
        yield from self._bring(seat, placed.card,
                               rest_pose=(np.array(placed.centre), placed.angle))
        yield Frame(self._scene(), [])
        yield from self._withdraw(seat, self.resting[-1])

    def _withdraw(self, seat: Seat, from_card: CardOnTable) -> Iterator[Frame]:
        out = np.array(self.layout.outward(seat))
        tip0 = np.array(from_card.centre) + out * CARD_GRIP_MM
        n = self.timing.withdraw
        for k in range(1, n + 1):
            tip = tip0 + out * 380 * _ease_in(k / n)
            yield Frame(self._scene([], [self._hand(seat, tip, 10 + 30 * k / n)]), [])

    def _knock_camera(self) -> Iterator[Frame]:
        """Somebody knocks the camera's stand: over ``NUDGE_FRAMES`` frames the picture slides
        and turns to where the camera comes to rest, ``NUDGE_MM`` from where it first stood
        (not from where it was: a stand knocked about stays near its place) and turned up to
        ``NUDGE_TURN_DEG``. The last frame says so in the truth log (``camera_nudged``)."""
        heading = self.knocks.uniform(0, 2 * math.pi)
        far = self.knocks.uniform(*NUDGE_MM)
        end = np.array([far * math.cos(heading), far * math.sin(heading),
                        self.knocks.uniform(-NUDGE_TURN_DEG, NUDGE_TURN_DEG)])
        for k, at in _eased(np.array(self.bump), end, NUDGE_FRAMES):
            self.bump = (float(at[0]), float(at[1]), float(at[2]))
            truth = [] if k < NUDGE_FRAMES else [{
                "event": "camera_nudged", "shift_mm": [round(self.bump[0], 1),
                                                       round(self.bump[1], 1)],
                "turn_deg": round(self.bump[2], 2)}]
            yield Frame(self._scene(), truth)

    def _change_light(self) -> Iterator[Frame]:
        """The light changes: over ``LAMP_FRAMES`` frames the picture grows brighter or darker
        (an exposure of ``LAMP_DARKER`` or ``LAMP_BRIGHTER`` of the clip's first, not of the
        light before) and its colour shifts by up to ``LAMP_TINT`` a channel; the last frame
        says so in the truth log (``light_changed``)."""
        low, high = LAMP_DARKER if self.lamps.random() < 0.5 else LAMP_BRIGHTER
        end = np.array([self.lamps.uniform(low, high)]
                       + list(1 + self.lamps.uniform(-LAMP_TINT, LAMP_TINT, 3)))
        for k, at in _eased(np.array([self.lighting[0], *self.lighting[1]]), end, LAMP_FRAMES):
            self.lighting = (float(at[0]), (float(at[1]), float(at[2]), float(at[3])))
            truth = [] if k < LAMP_FRAMES else [{
                "event": "light_changed", "exposure": round(self.lighting[0], 3),
                "tint": [round(v, 3) for v in self.lighting[1]]}]
            yield Frame(self._scene(), truth)

    def _still(self, n: int) -> Iterator[Frame]:
        for _ in range(n):
            yield Frame(self._scene(), [])

    def frames(self) -> Iterator[Frame]:
        game, timing = self.game, self.timing
        dealer = game.order.dealer
        # The trump: shown by the dealer, then taken back.
        yield from self._bring(dealer, game.trump)
        shown = self.resting[-1]
        truth = [{"event": "trump_shown", "seat": dealer.number, "card": str(game.trump)}]
        truth += self._announce(TrumpRevealed(game.trump))
        yield Frame(self._scene(), truth)
        yield from self._withdraw(dealer, shown)
        yield from self._still(timing.trump_shown)
        yield from self._reach_for(dealer, shown, raised=20.0)  # the hand comes back for it...
        yield from self._take_away(dealer, shown, {"event": "trump_taken"})  # ...and takes it
        yield from self._still(timing.between * 2)

        for rnd, trick in enumerate(game.tricks, start=1):
            for play in trick.plays:
                start = None
                if self.astray and self.rng.random() < self.astray:
                    start = yield from self._put_astray(play.seat, play.card)
                if start is None and self.face_down and self.rng.random() < self.face_down:
                    yield from self._lay_face_down(play.seat, play.card)
                else:
                    yield from self._bring(play.seat, play.card, start)
                placed = self.resting[-1]
                truth = [{"event": "card_rest", "round": rnd, "seat": play.seat.number,
                          "card": str(play.card), "corners_mm": _rounded(placed.corners_mm())}]
                truth += self._announce(CardPlayed(play.seat, play.card))
                yield Frame(self._scene(), truth)
                yield from self._withdraw(play.seat, placed)
                if self.lift and self.rng.random() < self.lift:
                    yield from self._pick_up_and_put_back(play.seat, placed)
                if self.nudge and self.knocks.random() < self.nudge:
                    yield from self._knock_camera()
                if self.lamp and self.lamps.random() < self.lamp:
                    yield from self._change_light()
                yield from self._still(timing.between)
            yield from self._still(timing.before_sweep)
            yield from self._sweep(rnd, trick)
        yield from self._still(timing.tail)

    def _sweep(self, rnd: int, trick: Trick) -> Iterator[Frame]:
        timing = self.timing
        winner = trick.winner(self.game.trump.suit)
        out = np.array(self.layout.outward(winner))
        cards = list(self.resting[-4:])
        del self.resting[-4:]
        middle = np.array(self.layout.centre) + out * 40
        for k in range(1, timing.carry + 1):  # the winner reaches in
            t = _ease_out(k / timing.carry)
            tip = middle + out * 420 * (1 - t)
            yield Frame(Scene(cards=list(self.resting) + cards,
                              hands=[self._hand(winner, tip - out * 50, 15)]), [])
        starts = [np.array(c.centre) for c in cards]
        for k in range(1, timing.gather + 1):  # gathers the cards together
            t = _ease_out(k / timing.gather)
            moved = [_moved(c, s + (middle - s) * t) for c, s in zip(cards, starts)]
            yield Frame(Scene(cards=list(self.resting) + moved,
                              hands=[self._hand(winner, middle - out * 50, 12)]), [])
        for k in range(1, timing.pull + 1):  # and pulls them away
            t = _ease_in(k / timing.pull)
            shift = out * (self.layout.area_mm / 2 + 450) * t
            moved = [_moved(c, middle + shift + (s - middle) * 0.05) for c, s in
                     zip(cards, starts)]
            truth = []
            if k == timing.pull:
                truth = [{"event": "trick_cleared", "round": rnd, "winner": winner.number,
                          "points": trick.points}]
            yield Frame(Scene(cards=list(self.resting) + moved,
                              hands=[self._hand(winner, middle + shift - out * 50, 12)]), truth)

    def _announce(self, event: TrumpRevealed | CardPlayed) -> list[dict[str, Any]]:
        if self.referee.is_over:  # a proven cheat ended the game; the clip plays on as written
            return []
        return [{"event": "announce", **a.to_dict()} for a in self.referee.feed(event)]


CARD_GRIP_MM = 30.0  # how far from the card's centre the fingertips hold it
# frames a card put down in nobody's zone lies there, the hand gone, before its player reaches
# for it again (about a second at the clips' 30 frames a second)
ASTRAY_STILL = 30
# the share of the cards put down astray that are tossed wide, by a corner, not in the middle
ASTRAY_CORNER = 0.5
# frames a played card picked up again is held off the table before it is put back
LIFTED_AWAY = 20
# frames a card laid face down lies there, the hand gone, before its player turns it over
# (long enough for the referee to land it and ask for that: about a second at 30 frames a
# second)
FACE_DOWN_STILL = 30
# a knocked camera: the frames it takes to come to rest, how far from where it first stood it
# comes to rest (mm along the table, least and most) and how far it turns at most (degrees)
NUDGE_FRAMES = 4
NUDGE_MM = (8.0, 25.0)
NUDGE_TURN_DEG = 2.0
# a light that changes: the frames it takes, the exposure it settles at against the clip's
# first (darker or brighter, as often), and how far each colour channel's gain moves at most
LAMP_FRAMES = 6
LAMP_DARKER = (0.6, 0.8)
LAMP_BRIGHTER = (1.2, 1.45)
LAMP_TINT = 0.06


def _moved(card: CardOnTable, centre: np.ndarray) -> CardOnTable:
    return CardOnTable(card.card, card.face, (float(centre[0]), float(centre[1])), card.angle,
                       2.0)


def _rounded(points: np.ndarray) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]


def clip_stage(layout: TableLayout, seed: int, width: int = 1280, height: int = 720) -> Stage:
    """The camera, table and light of a clip: markers on, seat 1 at the bottom of the picture,
    a tripod or lamp camera at up to 35 degrees of tilt, calm light."""
    rng = np.random.default_rng([seed, 99])
    look = random_look(rng, "normal")
    look.motion = 0.0
    look.noise = min(look.noise, 2.5)
    look.jpeg_quality = 95
    cx, cy = layout.centre
    tilt = float(rng.uniform(0, 35))
    field_of_view = math.radians(rng.uniform(55, 75))
    focal = width / 2 / math.tan(field_of_view / 2)
    camera = Camera.looking_at((cx + rng.normal(0, 10), cy + rng.normal(0, 10)), tilt, 700.0,
                               float(rng.normal(0, 4)), width, height, focal,
                               float(rng.uniform(-0.12, 0.03)), float(rng.uniform(0, 0.02)))
    a, margin = layout.area_mm, 10.0
    frame = np.array([(-margin, -margin), (a + margin, -margin), (a + margin, a + margin),
                      (-margin, a + margin)])
    camera = camera.framing(frame, float(rng.uniform(0.85, 0.95)))
    surface = str(rng.choice(["green felt", "green felt", "blue felt", "wood", "plain cloth",
                              "patterned cloth", "red felt"]))
    return Stage(camera, layout, surface, True, look, seed=int(rng.integers(2 ** 31)),
                 steady_noise=True)


class VideoOut:
    """An MP4 writer (MPEG-4 part 2) as a context manager; raises OSError when it cannot."""

    def __init__(self, path: Path, size: tuple[int, int], fps: int = FPS) -> None:
        self.path = path
        self.writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
        if not self.writer.isOpened():
            raise OSError(f"cannot write video '{path}'")

    def write(self, image: np.ndarray) -> None:
        self.writer.write(image)

    def __enter__(self) -> VideoOut:
        return self

    def __exit__(self, *exc: object) -> None:
        self.writer.release()


def render_clip(game: GameToRender, faces: FaceSet, out: Path, truth_path: Path, seed: int,
                layout: TableLayout = TableLayout(), width: int = 1280, height: int = 720,
                timing: Timing = Timing(), progress: bool = True,
                log: Callable[[str], None] = print, astray: float = 0.0,
                lift: float = 0.0, face_down: float = 0.0, nudge: float = 0.0,
                lamp: float = 0.0) -> int:
    """Render ``game`` to ``out`` with its truth log; returns the number of frames.
    ``astray``: the chance that a card is first put down in nobody's zone; ``lift``: that a
    card played is picked up and put back; ``face_down``: that a card is laid face down, then
    turned over; ``nudge``: that the camera is knocked after a card is played; ``lamp``: that
    the light changes after a card is played (``Choreographer``)."""
    first = stage = clip_stage(layout, seed, width, height)
    rng = np.random.default_rng([seed, 7])
    director = Choreographer(game, faces, layout, rng, timing, astray, lift, face_down, nudge,
                             lamp)
    expected = _expected_frames(game, timing)
    frame_no = 0
    with VideoOut(out, (width, height)) as video, truth_path.open("w") as truth, \
            Progress("frames", expected, enabled=progress) as bar:
        _log(truth, {"event": "clip", "fps": FPS, "size": [width, height], "seed": seed,
                     "game": game.name, "design": faces.name, "surface": stage.surface_kind,
                     "markers": stage.markers, "layout": layout.to_dict(),
                     "camera": stage.camera.to_dict(), "dealer": game.order.dealer.number,
                     "first_leader": game.order.first_leader.number,
                     "direction": game.order.direction.value, "trump": str(game.trump)})
        drawn, picture, seen = None, None, (director.bump, director.lighting)
        for frame in director.frames():
            if (director.bump, director.lighting) != seen:  # the camera knocked, the light
                seen = (director.bump, director.lighting)
                stage = _seen_as(first, *seen)
            key = still_key(frame.scene) if stage.steady_noise else None
            if key is not None:
                key = (seen, key)
            if key is None or key != drawn:  # else the table is as in the frame before
                picture, _ = render(stage, frame.scene, rng, labelled=False)
            drawn = key
            video.write(picture)
            for record in frame.truth:
                if "corners_mm" in record:
                    record["corners"] = _rounded(stage.camera.project(
                        np.array(record["corners_mm"])))
                _log(truth, {"frame": frame_no, "time": round(frame_no / FPS, 3), **record})
            frame_no += 1
            bar.advance()
        _log(truth, {"event": "verdict", "frame": frame_no - 1,
                     "score": list(game.score) if game.score else None,
                     "fault": game.fault, "lines": game.verdict})
        _log(truth, {"event": "end", "frames": frame_no})
    return frame_no


def _seen_as(first: Stage, bump: tuple[float, float, float],
             lighting: tuple[float, tuple[float, float, float]]) -> Stage:
    """The stage seen from a camera moved and turned by ``bump`` from ``first``'s place (the
    table drawn again; the light's pattern and the sensor's noise belong to the picture and
    stay), under a light of ``lighting`` (exposure, colour gains) against ``first``'s."""
    stage = first
    if bump != (0.0, 0.0, 0.0):
        camera = first.camera.moved((bump[0], bump[1]), bump[2], first.layout.centre)
        stage = replace(stage, camera=camera, _backdrop=None)
    gain, tint = lighting
    if (gain, tint) != (1.0, (1.0, 1.0, 1.0)):
        look = first.look
        look = replace(look, exposure=look.exposure * gain, white_balance=tuple(
            w * t for w, t in zip(look.white_balance, tint)))
        stage = replace(stage, look=look, _light=None, _glare=None)
    return stage


def still_key(scene: Scene) -> tuple | None:
    """What a clip's frame shows, as a value that is equal for two frames that look alike;
    None where the frame has a hand or a prop in it (a hand is drawn with the random number
    generator, so it is drawn anew each time). A clip's sensor noise is the same in every
    frame (``Stage.steady_noise``): a frame whose cards lie as in the frame before is that
    frame's picture again, drawn once."""
    if scene.hands or scene.props:
        return None
    return tuple((id(card.face), str(card.card), card.centre, card.angle, card.lift)
                 for card in scene.cards)


def _log(handle: TextIO, record: dict[str, Any]) -> None:
    handle.write(json.dumps(record) + "\n")


def _expected_frames(game: GameToRender, t: Timing) -> int:
    per_card = t.carry + 1 + t.withdraw + t.between
    trump = t.carry + 1 + t.withdraw + t.trump_shown + 2 * t.carry + 2 * t.between
    per_trick = 4 * per_card + t.before_sweep + t.carry + t.gather + t.pull
    return trump + len(game.tricks) * per_trick + t.tail


def game_from_file(path: str | Path, order: TableOrder = TableOrder()) -> GameToRender:
    """The game in a game file, judged as ``sueca-scorer`` judges it. Raises ``StudioError``
    when the file cannot be read or its tricks cannot be laid out (bad cards, wrong number of
    tricks); a game with cheating in it is rendered as written."""
    from referee.gamefile import GameFileError, GameFileUnreadable, parse_game, read_game_text
    from referee.judge import judge_game
    from referee.scorer import report_lines

    try:
        record = parse_game(read_game_text(path))
    except FileNotFoundError:
        raise StudioError(f"could not find the game file '{path}'") from None
    except GameFileUnreadable as error:
        raise StudioError(f"could not read the game file: {error}") from None
    except GameFileError as error:
        # (the scorer's message runs to two lines: the fault, then where it lies)
        said = " ".join(line.strip() for line in str(error).splitlines() if line.strip())
        raise StudioError(f"the game file '{path}' is invalid: {said}") from None
    judgement = judge_game(record, str(path), order)
    if not judgement.tricks:
        raise StudioError(f"the game file '{path}' cannot be rendered: "
                          f"{judgement.fault.message if judgement.fault else 'no tricks'}")
    return GameToRender(judgement.trump, judgement.tricks, order,
                        judgement.score if judgement.has_verdict else None,
                        report_lines(judgement, False, False),
                        judgement.fault.message if judgement.fault else None, Path(path).name)


def game_from_seed(seed: int, order: TableOrder = TableOrder(),
                   revoke: bool = False) -> GameToRender:
    """A random legal game (or one with a single revoke) from ``seed``, judged."""
    from referee.dealing import random_game

    game = random_game(seed, order, revoke=revoke)
    return game_from_text(game.to_text(), f"random game {seed}", order)


def game_from_text(text: str, name: str, order: TableOrder) -> GameToRender:
    from referee.gamefile import parse_game
    from referee.judge import judge_game
    from referee.scorer import report_lines

    judgement = judge_game(parse_game(text), name, order)
    return GameToRender(judgement.trump, judgement.tricks, order,
                        judgement.score if judgement.has_verdict else None,
                        report_lines(judgement, False, False),
                        judgement.fault.message if judgement.fault else None, name)


def read_truth(path: Path) -> list[dict[str, Any]]:
    """The records of a truth log. Raises ValueError naming the line that is not a JSON
    object."""
    records = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise ValueError("it is not a truth log (not even text)") from None
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise ValueError(f"line {n} is not JSON") from None
        if not isinstance(record, dict):
            raise ValueError(f"line {n} is not a JSON object")
        records.append(record)
    return records
