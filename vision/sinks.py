"""Where announcements go: the console, the speaker, an annotated video, a window.

Each sink is called on every frame with that frame's detections and the announcements it
brought (usually none) and returns False to stop the session (the window's q key).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from referee.cards import Suit
from referee.events import Cheat, Cut, GameIncomplete, GameOver

from .announcements import CardAstray, ResultIfHonest, Said
from .detections import CardDetections
from .game import TableReferee
from .sources import Frame
from .table import Calibration, card_size_advice, card_size_verdict


def clock(seconds: float) -> str:
    minutes, rest = divmod(max(seconds, 0.0), 60)
    return f"{int(minutes):02d}:{rest:04.1f}"


class ConsoleSink:
    """Prints each announcement with the video time, as it happens."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out or sys.stdout

    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        self.end(said)
        return True

    def end(self, said: list[Said]) -> None:
        """Print ``said`` (called on its own with what was said once the frames ran out)."""
        for item in said:
            for n, line in enumerate(item.announcement.message.splitlines()):
                stamp = f"[{clock(item.time_s)}] " if n == 0 else " " * 10
                print(stamp + line, file=self.out, flush=True)

    def close(self) -> None:
        pass


class TableNote:
    """For a live table: says on ``err`` whether the camera is set right. Once the table is
    found: how big a card will show and whether that is big enough to be read well
    (``vision.table.card_size_advice``), and again whenever the table is found somewhere else
    with another verdict (the camera moved closer or farther). While no table has been found
    for ``patience_s`` seconds: that the markers are not in view (said once)."""

    def __init__(self, prefix: str, err: TextIO | None = None, patience_s: float = 3.0) -> None:
        self.prefix = prefix
        self.err = err or sys.stderr
        self.patience_s = patience_s
        self.noted: Calibration | None = None
        self.verdict: tuple | None = None
        self.since: float | None = None  # the first frame's time
        self.said_missing = False

    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        if calibration is None:
            self.since = frame.time_s if self.since is None else self.since
            if (self.noted is None and not self.said_missing
                    and frame.time_s - self.since >= self.patience_s):
                self.said_missing = True
                self._say("no table in view yet: the four markers (printed by 'sueca-referee "
                          "markers') must show at the play area's corners, or give "
                          "--calibration FILE; still looking")
            return True
        if calibration is self.noted:
            return True
        self.noted = calibration
        sizes = calibration.card_sizes_px()
        verdict = card_size_verdict(sizes)
        if verdict != self.verdict:
            self.verdict = verdict
            self._say(f"table found; {card_size_advice(sizes)}")
        return True

    def _say(self, line: str) -> None:
        print(f"{self.prefix}: {line}", file=self.err, flush=True)

    def end(self, said: list[Said]) -> None:
        pass

    def close(self) -> None:
        pass


class DeckHint:
    """Says once, on ``err``, that showing the referee the deck would read the court cards it
    could not: when a deal ends (or the session does) with at least ``least`` court cards
    never read surely (``TableReferee.courts_unread``). Only for a session shown no deck."""

    def __init__(self, prefix: str, least: int = 2, err: TextIO | None = None) -> None:
        self.prefix = prefix
        self.least = least
        self.err = err or sys.stderr
        self.table: TableReferee | None = None
        self.said = False
        self.learnt = False  # the deck was learnt in play (``vision.learning``)

    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        self.table = table
        self._heard(said)
        if any(isinstance(item.announcement, GameOver) for item in said):
            self._say()
        return True

    def end(self, said: list[Said]) -> None:
        self._heard(said)
        self._say()

    def _heard(self, said: list[Said]) -> None:
        self.learnt |= any(item.announcement.kind == "deck_learned" for item in said)

    def close(self) -> None:
        self._say()

    def _say(self) -> None:
        if self.said or self.table is None or self.table.courts_unread < self.least:
            return
        self.said = True
        how = ("the deck was learnt in play, and the deals after this one read them by their "
               "pictures (--save-deck DECK.npz keeps it for a later session)") if self.learnt \
            else ("an unfamiliar design's court cards are read once the players show the "
                  "referee their deck first ('sueca-referee deck', then --deck DECK.npz)")
        print(f"{self.prefix}: {self.table.courts_unread} court cards were never read surely; "
              f"{how}", file=self.err, flush=True)


# -- speech ------------------------------------------------------------------------------------

_SUITS_PT = {"C": "paus", "D": "ouros", "H": "copas", "S": "espadas"}
_RANKS_PT = {"A": "ás", "K": "rei", "Q": "dama", "J": "valete", "2": "dois", "3": "três",
             "4": "quatro", "5": "cinco", "6": "seis", "7": "sete", "8": "oito", "9": "nove",
             "10": "dez"}
_SUITS_EN = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_RANKS_EN = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


def spoken_card(card: str, lang: str) -> str:
    rank, suit = card[:-1], card[-1]
    if lang == "pt":
        return f"{_RANKS_PT.get(rank, rank)} de {_SUITS_PT[suit]}"
    return f"{_RANKS_EN.get(rank, rank)} of {_SUITS_EN[suit]}"


# What is said aloud for each kind of announcement, with its fields (``{card}`` spoken in words)
_PHRASES = {
    "en": {"trump": "Trump is the {card}", "cut": "Cut by player {seat}",
           "trick_won": "Player {seat} wins {points} points"},
    "pt": {"trump": "Trunfo: {card}", "cut": "Corte do jogador {seat}",
           "trick_won": "O jogador {seat} ganha {points} pontos",
           "card_unclear": "Carta pouco clara no lugar {seat}: mostre-a outra vez",
           "card_unclear_face_down": "Carta pouco clara no lugar {seat}: pode estar virada "
                                     "para baixo; mostre-a virada para cima",
           "card_astray": "Há uma carta fora das zonas dos jogadores: só conta na zona de "
                          "quem a jogou; ponha-a lá",
           "card_face_down": "Há uma carta virada para baixo na zona do lugar {seat}: só "
                             "conta virada para cima; vire-a",
           "revoke": "Renúncia! O jogador {seat} não assistiu ao naipe",
           "game_incomplete": "Fim do jogo, mas houve vazas que não foram lidas: sem veredicto",
           "deck_learned": "Já conheço as figuras deste baralho: passo a lê-las também pelos "
                           "desenhos",
           "revoke_in_doubt": "Fim do jogo, mas o jogador {seat} pode ter renunciado, e as "
                              "cartas não foram lidas com segurança: sem veredicto",
           "revoke_settled": "Todas as cartas do baralho foram jogadas uma vez como se leram: "
                             "a renúncia do jogador {seat} fica provada",
           "trick_missed": "A vaza {round} foi recolhida sem ser toda lida: não conta",
           "trick_resumed": "A carta voltou à zona do lugar {seat}: a vaza {round} continua",
           "trick_withdrawn": "Vaza {round}: a carta do lugar {seat} foi mal lida; a vaza "
                              "deixa de contar",
           "out_of_turn": "O jogador {seat} jogou fora de vez",
           "trump_suit": "Trunfo: {suit_pt}; a carta do trunfo não foi lida",
           "trump_unclear": "O trunfo não foi lido antes de começar o jogo: esta mão não pode "
                            "ser arbitrada",
           "trump_in_doubt": "O trunfo não foi bem lido: o que dele depende fica para quando "
                             "o jogo o mostrar",
           "trump_settled": "O trunfo é {card_pt}",
           "trump_undecided": "Fim do jogo, mas o trunfo nunca ficou claro: sem veredicto",
           "card_deduced": "Vaza {round}: a carta do lugar {seat} não foi lida, mas só pode "
                           "ser a que falta",
           "card_known": "Vaza {round}: a carta do lugar {seat} não foi bem lida, mas as "
                         "outras que podia ser já foram jogadas: a vaza conta",
           "score_settled": "As cartas que não foram lidas só podem ser as que faltam: seja "
                            "qual for o lugar de cada uma, a pontuação é a mesma",
           "result_if_honest": "Se ninguém renunciou com as cartas que não foram bem lidas, "
                               "ganhou a dupla {winner}; mas uma renúncia com elas não se pode "
                               "provar nem excluir: sem veredicto",
           "result_if_honest_draw": "Se ninguém renunciou com as cartas que não foram bem "
                                    "lidas, houve empate; mas uma renúncia com elas não se "
                                    "pode provar nem excluir: sem veredicto",
           "score_likely": "As cartas que não foram bem lidas só podem ser as que faltam, e "
                           "pelo que delas se leu a pontuação é quase certa",
           "dealer_lacks_trump": "Batota! O jogador {dealer}, que deu as cartas, não tinha o "
                                 "trunfo, {trump_pt}",
           "card_already_played": "Batota! A carta {card_pt}, na vaza {round}, já tinha sido "
                                  "jogada na vaza {first_round}",
           "not_a_sueca_card": "A carta {card_pt} não é da sueca: o jogador {seat} tem de a "
                               "retirar"},
}
# the fields of an announcement that name a card, and the field that says it in Portuguese
_CARDS_PT = {"card": "card_pt", "trump": "trump_pt"}


def _match_pt(data: dict) -> str:  # type: ignore[type-arg]
    """The match's tally after a deal, in Portuguese."""
    games = data["games_won"]
    head = (f"A dupla {data['pair']} ganha {games} jogo{'s' if games != 1 else ''}"
            if data["pair"] and games else "Nenhuma dupla ganha jogos")
    text = f"Mão {data['deal']}: {head}. Partida: {data['tally'][0]} a {data['tally'][1]}"
    if data["match_winner"]:
        text += f". A dupla {data['match_winner']} ganhou a partida"
    return text


def spoken(item: Said, lang: str) -> str | None:
    """What to say aloud for an announcement (None: nothing)."""
    a = item.announcement
    data = a.to_dict()
    lang = "pt" if lang == "pt" else "en"
    variant = "_face_down" if data.get("face_down") else \
        "_draw" if a.kind == "result_if_honest" and data["winner"] is None else ""
    phrase = _PHRASES[lang].get(a.kind + variant)
    if phrase is not None:
        if a.kind == "trump":
            data["card"] = spoken_card(data["card"], lang)
        if a.kind == "trump_suit":
            data["suit_pt"] = _SUITS_PT[data["suit"]]
        for name, spoken_name in _CARDS_PT.items():
            value = data.get(name)
            if isinstance(value, str) and len(value) in (2, 3) and value[-1] in _SUITS_PT:
                data[spoken_name] = spoken_card(value, "pt")
        if a.kind == "trump_settled" and "card_pt" not in data:  # a suit (``Diamonds``),
            suit = Suit.from_full_name(data["card"])  # where no card was named
            data["card_pt"] = _SUITS_PT[suit.symbol] if suit else data["card"]
        return phrase.format(**data)
    if a.kind == "match_tally" and lang == "pt":
        return _match_pt(data)
    if lang == "en":
        return ". ".join(line.rstrip(".") for line in a.message.replace("|", "to").splitlines())
    if isinstance(a, Cheat):
        return "Batota!"
    if isinstance(a, GameIncomplete):  # (each kind has its phrase; never a verdict)
        return "Fim do jogo: sem veredicto"
    if isinstance(a, GameOver):
        score = data["score"]
        winner = a.outcome.winner
        head = "Empate" if winner is None else f"A dupla {winner.value} ganhou"
        if a.kind == "outcome_settled":  # the score is not known for sure
            return f"{head}; a pontuação não é certa"
        return f"{head}. {score[0]} a {score[1]}"
    return None


class SpeechSink:
    """Says announcements aloud through espeak-ng, one at a time without blocking the video.
    Without espeak-ng it warns once and stays quiet."""

    def __init__(self, lang: str = "en", err: TextIO | None = None) -> None:
        self.lang = lang
        self.voice = "pt" if lang == "pt" else "en"
        self.program = shutil.which("espeak-ng") or shutil.which("espeak")
        self.process: subprocess.Popen[bytes] | None = None
        self.queue: list[str] = []
        if self.program is None:
            print("speech: espeak-ng is not installed (apt-get install espeak-ng); "
                  "carrying on without it", file=err or sys.stderr)

    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        self.end(said)
        return True

    def end(self, said: list[Said]) -> None:
        """Queue ``said`` and start on the queue if nothing is being said (called on its own
        with what was said once the frames ran out; ``close`` says what is left)."""
        if self.program is None:
            return
        self.queue += [text for text in (spoken(s, self.lang) for s in said) if text]
        if self.queue and (self.process is None or self.process.poll() is not None):
            try:
                self.process = subprocess.Popen([self.program, "-v", self.voice,
                                                 self.queue.pop(0)],
                                                stdout=subprocess.DEVNULL,
                                                stderr=subprocess.DEVNULL)
            except OSError:
                self.program = None

    def close(self) -> None:
        """Let the announcement being said finish, and say those still queued (the verdict
        among them), each given five seconds at most."""
        while True:
            if self.process is not None and self.process.poll() is None:
                try:
                    self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.process.kill()
            if not self.queue or self.program is None:
                return
            self.end([])


# -- the overlay -------------------------------------------------------------------------------

SEAT_COLOURS = {1: (60, 180, 255), 2: (255, 160, 60), 3: (80, 220, 120), 4: (220, 90, 220)}
# said under the status lines while no table is in view (BGR orange)
NO_TABLE = "no table in view: the four markers must show (or give --calibration)"
NO_TABLE_COLOUR = (0, 140, 255)
ASTRAY_COLOUR = (0, 0, 255)  # (BGR red) a card lying in no seat's zone, asked to be moved in


class Overlay:
    """Draws zones, card outlines with readings, the trick, the score and banners."""

    def __init__(self, banner_s: float = 2.5) -> None:
        self.banner_s = banner_s
        self.banner: tuple[str, float, tuple[int, int, int]] | None = None
        # the banner's sentence broken into lines, for a picture width (``_wrapped``): worked
        # out once, not on every frame it shows
        self.banner_lines: tuple[tuple[str, int], list[str]] = (("", 0), [])
        # the deal just over, the verdict's score (a cheat's 120 | 0 is not the points the
        # tricks made), the deal's trump and when the verdict was said
        self.verdict: tuple[int, tuple[int, int], str | None, float] | None = None
        # the game's state on the frame drawn last (``TableReferee.state``)
        self.shown: dict | None = None
        # the outline of the card last asked to be moved into a zone, and when it was asked
        self.astray: tuple[np.ndarray, float] | None = None
        # what the deal ending gives if nobody revoked, said just before its "no verdict",
        # whose banner gives it too
        self.if_honest: ResultIfHonest | None = None

    def draw(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
             table: TableReferee, said: list[Said]) -> np.ndarray:
        image = frame.image.copy()
        h, w = image.shape[:2]
        scale = max(w / 1280, 0.5)
        if calibration is not None:
            for zone in calibration.layout.zones():
                pts = calibration.to_image(np.array(zone.corners)).astype(np.int32)
                cv2.polylines(image, [pts], True, SEAT_COLOURS[zone.seat.number],
                              max(1, int(2 * scale)), cv2.LINE_AA)
                x, y = pts.min(axis=0)
                cv2.putText(image, f"seat {zone.seat.number}", (int(x) + 4, int(y) + int(18 * scale)),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.55 * scale,
                            SEAT_COLOURS[zone.seat.number], max(1, int(scale * 1.5)),
                            cv2.LINE_AA)
        for i in range(len(detections)):
            quad = detections.quads[i].astype(np.int32)
            read = detections.cards[i]
            good = read is not None and detections.confidence[i] >= 0.9
            colour = (0, 220, 0) if good else (0, 200, 255)
            cv2.polylines(image, [quad], True, colour, max(1, int(2 * scale)), cv2.LINE_AA)
            text = f"{read} {detections.confidence[i]:.2f}" if read else "?"
            x, y = quad.min(axis=0)
            _label(image, text, (int(x), int(y) - 4), 0.6 * scale, colour)
        state = table.state()
        for item in said:
            a = item.announcement
            if isinstance(a, ResultIfHonest):
                self.if_honest = a
            if isinstance(a, GameOver):
                # the deal it ends: the table's, or where sweeping the last trick has already
                # begun the next deal, the one on the frame before
                ended = state if state["phase"] == "deal over" else self.shown or state
                self.verdict = (ended["deal"], tuple(a.score), ended["trump"], frame.time_s)
            if isinstance(a, (Cut, Cheat, GameOver)) or a.kind in (
                    "card_unclear", "card_astray", "card_face_down", "out_of_turn",
                    "trump_unclear", "trump_suit", "trump_in_doubt", "trump_settled"):
                colour = (0, 0, 200) if isinstance(a, Cheat) else (0, 140, 255) \
                    if not isinstance(a, GameOver) else (40, 120, 0)
                lines = a.message.split("\n")
                if isinstance(a, GameOver):
                    if isinstance(a, GameIncomplete) and self.if_honest is not None:
                        lines.insert(1, f"If nobody revoked, {self.if_honest.result}.")
                    self.if_honest = None
                self.banner = ("  ".join(lines), frame.time_s, colour)
            if isinstance(a, CardAstray) and len(a.quad) == 4:
                self.astray = (np.array(a.quad, np.float32), frame.time_s)
        if self.astray and frame.time_s - self.astray[1] <= self.banner_s:
            quad = self.astray[0].astype(np.int32)  # the card to move, while the banner says so
            cv2.polylines(image, [quad], True, ASTRAY_COLOUR, max(2, int(3 * scale)),
                          cv2.LINE_AA)
            x, y = quad.min(axis=0)
            _label(image, "move into a zone", (int(x), int(y) - 4), 0.6 * scale, ASTRAY_COLOUR)
        lines = self.status(frame.time_s, state)
        self.shown = state
        for n, line in enumerate(lines):
            _label(image, line, (int(10 * scale), int((26 + 26 * n) * scale)), 0.65 * scale,
                   (255, 255, 255))
        if calibration is None:  # nothing can be read until the table is found
            _label(image, NO_TABLE, (int(10 * scale), int((26 + 26 * len(lines)) * scale)),
                   0.65 * scale, NO_TABLE_COLOUR)
        if self.banner and frame.time_s - self.banner[1] <= self.banner_s:
            text, _, colour = self.banner
            size, thick, margin = 0.7 * scale, max(1, int(2 * scale)), int(12 * scale)
            if self.banner_lines[0] != (text, w):
                self.banner_lines = ((text, w), _wrapped(text, w - 2 * margin, size, thick))
            lines = self.banner_lines[1]
            step = int(28 * scale)
            band = int(44 * scale) + step * (len(lines) - 1)
            cv2.rectangle(image, (0, h - band), (w, h), colour, -1)
            for n, line in enumerate(lines):
                cv2.putText(image, line, (margin, h - band + int(30 * scale) + step * n),
                            cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), thick,
                            cv2.LINE_AA)
        return image

    def status(self, time_s: float, state: dict) -> list[str]:
        """The overlay's two lines of text: the time, deal, trick and trump; the score and the
        cards of the trick. Once the deal is over the score is its verdict's (a cheat's
        120 | 0, not the points its tricks made). Where sweeping the last trick has begun
        the next deal, the deal over is shown until its verdict's banner is gone or the next
        deal's trump or first card is shown."""
        over = state["phase"] == "deal over"
        deal, score, trump = state["deal"], state["score"], state["trump"]
        if self.verdict is not None:
            ended, verdict, ended_trump, said_s = self.verdict
            if over and ended == deal:
                score = verdict
            elif (ended < deal and time_s - said_s <= self.banner_s and not state["tricks"]
                  and not state["trick"] and not state["trump"]):
                over, deal, score, trump = True, ended, verdict, ended_trump
        at = "deal over" if over else f"trick {min(state['tricks'] + 1, 10)}"
        return [f"{clock(time_s)}  deal {deal}  {at}  trump {trump or '?'}",
                f"score {score[0]} | {score[1]}   "
                f"on the table: {' '.join(state['trick']) or '-'}"]


# the most lines a banner takes at the foot of the picture; a longer sentence ends in "..."
BANNER_LINES = 3


def _wrapped(text: str, width: int, size: float, thick: int) -> list[str]:
    """``text`` broken between words into lines that fit ``width`` pixels in the overlay's
    font (a word longer than the width has a line of its own), at most ``BANNER_LINES`` of
    them; where the sentence runs on, the last ends in "..."."""
    def fits(line: str) -> bool:
        return cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, size, thick)[0][0] <= width

    lines: list[str] = []
    for word in text.split():
        if lines and fits(f"{lines[-1]} {word}"):
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > BANNER_LINES:
        last = lines[BANNER_LINES - 1]
        while last and not fits(f"{last} ..."):
            last = last.rsplit(" ", 1)[0] if " " in last else ""
        lines = lines[:BANNER_LINES - 1] + [f"{last} ...".strip()]
    return lines or [""]


def _label(image: np.ndarray, text: str, at: tuple[int, int], size: float,
           colour: tuple[int, int, int]) -> None:
    thick = max(1, int(round(size * 2.5)))
    # the dark edge is the same text moved a pixel each way: drawn thicker, Hershey text runs
    # wider, and its tail would show past the coloured text as a ghost
    x, y = at
    for dx, dy in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        cv2.putText(image, text, (x + dx, y + dy), cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0),
                    thick, cv2.LINE_AA)
    cv2.putText(image, text, at, cv2.FONT_HERSHEY_SIMPLEX, size, colour, thick, cv2.LINE_AA)


class VideoSink:
    """``--out annotated.mp4``: the video with the overlay. The video does not stop on the
    last frame while a banner is up (the verdict, said as the last trick lands, or once the
    frames have run out): the last frame is held until the banner has been shown its time,
    with what was said at the end drawn on it. ``paced`` (a live camera, whose frames come
    when they come): each frame is written as many times as keeps the video's clock with the
    frames' own (``Frame.time_s``), none where frames come faster than ``fps``, so that the
    video plays in real time; a clip's frames are written once each, at its own rate."""

    def __init__(self, path: Path, fps: float = 30.0, paced: bool = False) -> None:
        self.path, self.fps, self.paced = path, fps, paced
        self.written = 0  # frames written to the video
        self.writer: cv2.VideoWriter | None = None
        self.overlay = Overlay()
        # the last frame and what it was drawn with, to hold it at the end
        self.last: tuple[Frame, CardDetections, Calibration | None, TableReferee] | None = None
        self.said_at_end: list[Said] = []

    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        image = self.overlay.draw(frame, detections, calibration, table, said)
        times = 1
        if self.paced:  # as many as bring the video's clock up to the frame's time (a banner
            # drawn on a frame not written still shows on the next ones)
            times = max(int(frame.time_s * self.fps) + 1 - self.written, 0)
        for _ in range(times):
            self._write(image)
        self.last = (frame, detections, calibration, table)
        return True

    def end(self, said: list[Said]) -> None:
        """What was said once the frames ran out: drawn on the last frame, held (``close``)."""
        self.said_at_end += said

    def _write(self, image: np.ndarray) -> None:
        if self.writer is None:
            h, w = image.shape[:2]
            self.writer = cv2.VideoWriter(str(self.path), cv2.VideoWriter_fourcc(*"mp4v"),
                                          self.fps, (w, h))
            if not self.writer.isOpened():
                raise OSError(f"cannot write video '{self.path}'")
        self.writer.write(image)
        self.written += 1

    def _hold(self) -> None:
        """The last frame again, with what was said at the end, for as long as the banner
        still has to show."""
        if self.last is None:
            return
        frame, detections, calibration, table = self.last
        said, self.said_at_end = self.said_at_end, []
        time_s, step = frame.time_s, 1.0 / self.fps
        while True:
            time_s += step
            banner = self.overlay.banner
            if not said and (banner is None or time_s - banner[1] > self.overlay.banner_s):
                return
            still = Frame(frame.image, frame.index, time_s)
            self._write(self.overlay.draw(still, detections, calibration, table, said))
            said = []

    def close(self) -> None:
        if self.writer is not None or self.said_at_end:
            self._hold()
        if self.writer is not None:
            self.writer.release()


def windows_can_open() -> bool:
    """Whether OpenCV can open a window here: on Linux its Qt build needs an X display, and
    without one it aborts the whole process (no exception to catch), so it must not try."""
    return bool(os.environ.get("DISPLAY")) or not sys.platform.startswith("linux")


class WindowSink:
    """``--show``: the overlay in a window; q or Esc stops."""

    def __init__(self, title: str = "sueca-referee") -> None:
        self.title = title
        self.overlay = Overlay()

    def frame(self, frame: Frame, detections: CardDetections, calibration: Calibration | None,
              table: TableReferee, said: list[Said]) -> bool:
        cv2.imshow(self.title, self.overlay.draw(frame, detections, calibration, table, said))
        return cv2.waitKey(1) not in (27, ord("q"))

    def close(self) -> None:
        try:
            cv2.destroyWindow(self.title)
        except cv2.error:
            pass
