"""What the referee says aloud."""

from __future__ import annotations

from referee.events import GameOver, Outcome
from vision.announcements import Said
from vision.sinks import spoken


def verdict(score: tuple[int, int], lang: str) -> str | None:
    return spoken(Said(0, 0.0, GameOver(score, Outcome.from_score(score))), lang)


def test_the_verdict_in_portuguese_names_the_winning_pair_or_the_draw():
    assert verdict((76, 44), "pt") == "A dupla A ganhou. 76 a 44"
    assert verdict((60, 60), "pt") == "Empate. 60 a 60"


def test_a_verdict_whose_score_is_not_sure_never_says_one_score_in_portuguese():
    from vision.announcements import OutcomeSettled

    settled = OutcomeSettled((62, 58), Outcome.PAIR_A, None, ((62, 58), (61, 59)), 0.995, 1,
                             (1, 6))
    assert spoken(Said(0, 0.0, settled), "pt") == "A dupla A ganhou; a pontuação não é certa"
    assert "62 to 58 or 61 to 59" in spoken(Said(0, 0.0, settled), "en")


def test_a_trump_in_doubt_and_its_settling_are_spoken_in_portuguese():
    from referee.seats import Seat
    from vision.announcements import TrumpInDoubt, TrumpOutcome, TrumpSettled

    doubt = TrumpInDoubt(Seat(2), ("AC", "AS"), (0.7, 0.3))
    assert "AC (70 %) or AS (30 %)" in doubt.message
    # a suit still in doubt is not said to be "0 %" likely (game 2732's spades, at 0.3 %)
    spread = TrumpInDoubt(Seat(2), ("Hearts", "Diamonds", "Spades"), (0.8, 0.05, 0.003))
    assert "Hearts (80 %) or Diamonds (5 %) or Spades (under 1 %)" in spread.message
    assert spoken(Said(0, 0.0, doubt), "pt").startswith("O trunfo não foi bem lido")
    settled = TrumpSettled("AC", ("AS",), "AS was played by seat 4 in round 9, read surely")
    assert spoken(Said(0, 0.0, settled), "pt") == "O trunfo é ás de paus"
    suit = TrumpSettled("Hearts", ("Diamonds", "Clubs"), "under Diamonds the play makes no sense")
    assert spoken(Said(0, 0.0, suit), "pt") == "O trunfo é copas"
    # a verdict under a trump never settled names no single score where the two differ
    outcome = TrumpOutcome((62, 58), Outcome.PAIR_A, None, ((62, 58), (61, 59)), 1.0, 1, (),
                           ("AC", "AS"))
    assert spoken(Said(0, 0.0, outcome), "pt") == "A dupla A ganhou; a pontuação não é certa"
    assert "62 | 58 if the trump was AC or 61 | 59 if the trump was AS" in outcome.message


def test_the_verdict_in_english_is_the_scorers_sentence():
    assert verdict((60, 60), "en") == "The game resulted in a draw. Score: 60 to 60"


def test_what_is_said_after_the_last_frame_is_printed_and_spoken(tmp_path):
    import io
    import os

    from vision.sinks import ConsoleSink, SpeechSink

    said = [Said(1500, 50.0, GameOver((76, 44), Outcome.from_score((76, 44))))]
    out = io.StringIO()
    ConsoleSink(out).end(said)
    assert out.getvalue() == "[00:50.0] Pair A won the given sueca game.\n          Score: 76 | 44\n"
    # a stand-in for espeak-ng that notes each thing it is asked to say
    heard = tmp_path / "heard.txt"
    program = tmp_path / "say"
    program.write_text(f"#!/bin/sh\necho \"$3\" >> {heard}\n")
    os.chmod(program, 0o755)
    sink = SpeechSink("en", err=io.StringIO())
    sink.program = str(program)
    sink.frame(None, None, None, None, [Said(0, 0.0, GameOver((60, 60),  # type: ignore[arg-type]
                                                              Outcome.from_score((60, 60))))])
    sink.end(said)
    sink.close()  # the verdict queued behind the first is still said
    assert heard.read_text().splitlines() == ["The game resulted in a draw. Score: 60 to 60",
                                              "Pair A won the given sueca game. Score: 76 to 44"]


def test_the_overlay_gives_the_verdicts_score_once_the_deal_is_over():
    import numpy as np

    from referee.config import RulesConfig
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import Overlay
    from vision.sources import Frame

    overlay = Overlay()
    over = {"phase": "deal over", "deal": 1, "tricks": 10, "score": [53, 34], "trick": [],
            "trump": "7D"}
    # no verdict seen: the points the tricks made, and no eleventh trick
    assert overlay.status(48.8, over) == ["00:48.8  deal 1  deal over  trump 7D",
                                          "score 53 | 34   on the table: -"]
    # a cheat's verdict, said as a frame is drawn: its score, not the tricks' points
    none = CardDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32),
                          np.zeros(0, bool), [], [], np.zeros(0, np.float32))
    cheat = GameOver((120, 0), Outcome.PAIR_A, None)
    image = overlay.draw(Frame(np.zeros((360, 640, 3), np.uint8), 0, 48.8), none, None,
                         TableReferee(RulesConfig()), [Said(0, 48.8, cheat)])
    assert image.shape == (360, 640, 3) and image[-5:].any()  # the verdict's banner
    assert overlay.status(48.8, over)[1] == "score 120 | 0   on the table: -"
    # the next deal: its own score, and the trick it is at
    playing = {**over, "phase": "playing", "deal": 2, "tricks": 3, "score": [10, 4],
               "trick": ["1:AS"]}
    assert overlay.status(50.0, playing) == ["00:50.0  deal 2  trick 4  trump 7D",
                                             "score 10 | 4   on the table: 1:AS"]


def test_the_overlay_shows_the_deal_over_while_its_verdict_shows_though_the_sweep_began_the_next():
    """Sweeping the last trick ends the deal and begins the next in the same frame: the
    overlay goes on showing the deal over, with its trump and the verdict's score, while the
    verdict's banner shows and no card of the next deal has been shown (before, it showed "deal 2
    trick 1 trump ?" and "score 0 | 0" under "Score: 76 | 44")."""
    import numpy as np

    from vision.detections import CardDetections
    from vision.sinks import Overlay
    from vision.sources import Frame

    class Table:  # as much of a TableReferee as the overlay asks for
        def __init__(self, state: dict) -> None:
            self.now = state

        def state(self) -> dict:
            return self.now

    last = {"phase": "trick complete", "deal": 1, "tricks": 10, "score": [76, 44],
            "trick": ["1:AS", "2:AH", "3:7S", "4:2S"], "trump": "5H"}
    table, overlay, none = Table(last), Overlay(), CardDetections()
    blank = np.zeros((360, 640, 3), np.uint8)
    overlay.draw(Frame(blank, 0, 40.0), none, None, table, [])  # type: ignore[arg-type]
    table.now = {"phase": "waiting for the trump", "deal": 2, "tricks": 0, "score": [0, 0],
                 "trick": [], "trump": None}
    verdict = GameOver((76, 44), Outcome.PAIR_A, None)
    overlay.draw(Frame(blank, 1, 40.5), none, None, table,  # type: ignore[arg-type]
                 [Said(1, 40.5, verdict)])
    shown = ["00:42.0  deal 1  deal over  trump 5H", "score 76 | 44   on the table: -"]
    assert overlay.status(42.0, table.now) == shown
    # the banner gone: the next deal
    assert overlay.status(43.1, table.now) == ["00:43.1  deal 2  trick 1  trump ?",
                                               "score 0 | 0   on the table: -"]
    # the next deal's trump or first card shown, though the banner still shows: the next deal
    assert overlay.status(42.0, {**table.now, "trump": "7D"})[0] == \
        "00:42.0  deal 2  trick 1  trump 7D"
    assert overlay.status(42.0, {**table.now, "trick": ["1:KD"]})[1] == \
        "score 0 | 0   on the table: 1:KD"


def test_the_annotated_video_holds_its_last_frame_while_the_verdict_shows(tmp_path):
    """The verdict, said as the last trick lands (or once the frames have run out, after the
    last frame was written), stays on the video for the banner's time: the last frame is
    held with it, not cut off with the clip."""
    import cv2
    import numpy as np

    from referee.config import RulesConfig
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import VideoSink
    from vision.sources import Frame

    none = CardDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32),
                          np.zeros(0, bool), [], [], np.zeros(0, np.float32))
    table = TableReferee(RulesConfig())
    verdict = Said(2, 0.2, GameOver((76, 44), Outcome.PAIR_A, None))

    def frames_of(path) -> list[np.ndarray]:
        capture, images = cv2.VideoCapture(str(path)), []
        while True:
            ok, image = capture.read()
            if not ok:
                return images
            images.append(image)

    for at_end in (False, True):
        path = tmp_path / f"annotated-{at_end}.mp4"
        sink = VideoSink(path, fps=10.0)
        for n in range(3):
            said = [verdict] if n == 2 and not at_end else []
            sink.frame(Frame(np.zeros((120, 160, 3), np.uint8), n, n / 10), none, None, table,
                       said)
        if at_end:
            sink.end([verdict])
        sink.close()
        images = frames_of(path)
        # the three frames, then the last held about 2.5 s (the banner's time) at 10 a second
        assert 26 <= len(images) <= 29, (at_end, len(images))
        assert images[-1][-5:].any() and images[-1][-5:].mean() > images[0][-5:].mean()
    # with nothing to show at the end, the video is its frames
    path = tmp_path / "plain.mp4"
    sink = VideoSink(path, fps=10.0)
    for n in range(3):
        sink.frame(Frame(np.zeros((120, 160, 3), np.uint8), n, n / 10), none, None, table, [])
    sink.close()
    assert len(frames_of(path)) == 3


def test_cheating_a_card_out_of_the_deck_and_the_match_are_spoken_in_portuguese():
    """Each says what happened, with the cards in words: cheating is not just "Batota!", and
    the match's tally after a deal is said too (it was said only in English)."""
    from referee.cards import Card
    from referee.events import CardAlreadyPlayed, DealerLacksTrump, NotASuecaCard
    from referee.match import MatchScored
    from referee.seats import Pair, Seat

    def pt(announcement):
        return spoken(Said(0, 0.0, announcement), "pt")

    assert pt(DealerLacksTrump(Seat(2), Card.parse("7D"), Seat(3), 4)) == (
        "Batota! O jogador 2, que deu as cartas, não tinha o trunfo, sete de ouros")
    assert pt(CardAlreadyPlayed(Seat(1), Card.parse("AS"), 5, 2)) == (
        "Batota! A carta ás de espadas, na vaza 5, já tinha sido jogada na vaza 2")
    assert pt(NotASuecaCard(Seat(4), Card.parse("9H"))) == (
        "A carta nove de copas não é da sueca: o jogador 4 tem de a retirar")
    assert pt(MatchScored(1, 2, Pair.A, (2, 0), None)) == (
        "Mão 1: A dupla A ganha 2 jogos. Partida: 2 a 0")
    assert pt(MatchScored(3, 0, None, (2, 2), None)) == (
        "Mão 3: Nenhuma dupla ganha jogos. Partida: 2 a 2")
    assert pt(MatchScored(4, 1, Pair.B, (2, 4), Pair.B)) == (
        "Mão 4: A dupla B ganha 1 jogo. Partida: 2 a 4. A dupla B ganhou a partida")
    # English says the message itself
    assert spoken(Said(0, 0.0, MatchScored(1, 2, Pair.A, (2, 0), None)), "en") == (
        "Deal 1: Pair A takes 2 games. Match: 2 to 0 games")


def test_the_deck_hint_is_said_once_when_a_deal_ends_with_court_cards_unread():
    import io

    import numpy as np

    from referee.config import RulesConfig
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import DeckHint
    from vision.sources import Frame

    frame = Frame(np.zeros((8, 8, 3), np.uint8), 0, 0.0)
    none = CardDetections()
    over = [Said(0, 0.0, GameOver((60, 60), Outcome.DRAW))]
    table = TableReferee(RulesConfig())
    err = io.StringIO()
    hint = DeckHint("sueca-referee live", err=err)
    table.courts_unread = 1  # one is not enough to say anything
    hint.frame(frame, none, None, table, over)
    assert err.getvalue() == ""
    table.courts_unread = 3
    hint.frame(frame, none, None, table, [])  # said when a deal ends, not before
    assert err.getvalue() == ""
    hint.frame(frame, none, None, table, over)
    hint.frame(frame, none, None, table, over)
    hint.close()
    assert err.getvalue().count("\n") == 1
    assert err.getvalue().startswith("sueca-referee live: 3 court cards were never read surely")
    # a session stopped mid-deal says it as it closes
    late = DeckHint("sueca-referee live", err=err)
    late.frame(frame, none, None, table, [])
    late.close()
    assert err.getvalue().count("\n") == 2


def test_a_revoke_in_doubt_is_spoken_as_no_verdict():
    """Every round scored but a revoke never proven: said aloud as no verdict in either
    language, never as the score's winner."""
    from referee.cards import Card, Suit
    from referee.events import RevokeInDoubt
    from referee.seats import Seat

    doubt = RevokeInDoubt((76, 44), Outcome.PAIR_A, None, (), Seat(2), Card.parse("6D"), 3,
                          Suit.SPADES, Card.parse("3S"), 4)
    assert spoken(Said(0, 0.0, doubt), "pt") == (
        "Fim do jogo, mas o jogador 2 pode ter renunciado, e as cartas não foram lidas com "
        "segurança: sem veredicto")
    english = spoken(Said(0, 0.0, doubt), "en")
    assert english.startswith("Game over, but Player 2 may have revoked") and "won" not in english


def test_the_overlay_says_when_no_table_is_in_view():
    """Until the table is found nothing can be read: the window (--show) says why, in orange
    under the status lines, and says nothing of it once the table is there."""
    import numpy as np

    from referee.config import RulesConfig
    from tests.vision.test_table import _top_down
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import NO_TABLE_COLOUR, Overlay
    from vision.sources import Frame

    none = CardDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32),
                          np.zeros(0, bool), [], [], np.zeros(0, np.float32))
    table = TableReferee(RulesConfig())
    frame = Frame(np.zeros((720, 1280, 3), np.uint8), 0, 0.0)
    # the third line's band of the picture, left of where the zones of a table could lie
    band = (slice(60, 90), slice(0, 600))
    missing = Overlay().draw(frame, none, None, table, [])[band]
    found = Overlay().draw(frame, none, _top_down(600), table, [])[band]
    orange = np.all(missing == NO_TABLE_COLOUR, axis=2).sum()
    assert orange > 200, orange
    assert not np.all(found == NO_TABLE_COLOUR, axis=2).any()


def test_a_live_video_keeps_the_cameras_clock(tmp_path):
    """A camera's frames come when they come (here 10 a second, then 60): the annotated video
    (30 fps) writes each as often as keeps the video's time with the frames' own, so a minute
    of play is a minute of video; a clip's frames are written once each."""
    import cv2
    import numpy as np

    from referee.config import RulesConfig
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import VideoSink
    from vision.sources import Frame

    none = CardDetections(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32),
                          np.zeros(0, bool), [], [], np.zeros(0, np.float32))
    table = TableReferee(RulesConfig())
    times = [n / 10 for n in range(20)] + [2 + n / 60 for n in range(1, 121)]  # 2 s, then 2 s
    for paced, expected in ((True, range(118, 124)), (False, range(140, 141))):
        path = tmp_path / f"{paced}.mp4"
        sink = VideoSink(path, paced=paced)
        for n, t in enumerate(times):
            sink.frame(Frame(np.zeros((90, 160, 3), np.uint8), n, t), none, None, table, [])
        sink.close()
        count = int(cv2.VideoCapture(str(path)).get(cv2.CAP_PROP_FRAME_COUNT))
        assert count in expected, (paced, count)  # paced: 4 s of video at 30 fps


def test_a_card_lying_astray_is_spoken_in_portuguese_and_english():
    from referee.seats import Seat
    from vision.announcements import CardAstray

    astray = Said(0, 0.0, CardAstray("7D", Seat(3)))
    assert spoken(astray, "pt") == ("Há uma carta fora das zonas dos jogadores: só conta na "
                                    "zona de quem a jogou; ponha-a lá")
    assert spoken(astray, "en") == ("7D lies outside every zone, nearest seat 3's: a card counts "
                                    "once it lies in its player's zone; please move it there")


def test_the_overlay_outlines_a_card_asked_into_its_zone_while_the_banner_shows():
    import numpy as np

    from referee.config import RulesConfig
    from vision.announcements import CardAstray
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import ASTRAY_COLOUR, Overlay
    from vision.sources import Frame

    overlay, table, none = Overlay(), TableReferee(RulesConfig()), CardDetections()
    quad = ((300.0, 150.0), (360.0, 150.0), (360.0, 240.0), (300.0, 240.0))
    said = [Said(0, 10.0, CardAstray(None, None, quad))]
    blank = np.zeros((360, 640, 3), np.uint8)
    image = overlay.draw(Frame(blank, 0, 10.0), none, None, table, said)
    assert tuple(int(v) for v in image[195, 300]) == ASTRAY_COLOUR  # its left side
    assert image[-5:].any()  # and the banner
    later = overlay.draw(Frame(blank, 1, 11.0), none, None, table, [])
    assert tuple(int(v) for v in later[195, 300]) == ASTRAY_COLOUR  # still, a second on
    gone = overlay.draw(Frame(blank, 2, 10.0 + overlay.banner_s + 0.1), none, None, table, [])
    assert not gone[195, 300].any() and not gone[-5:].any()


def test_a_long_banner_is_shown_whole_in_lines_that_fit_the_picture():
    """A sentence is shown whole (before, a banner showed its first 110 characters: a card
    astray by a corner lost "please move it there"), broken between words into lines where
    it is wider than the picture (a small picture, whose text is not made smaller than half
    size); past three lines it ends in "..."."""
    import cv2
    import numpy as np

    from referee.config import RulesConfig
    from vision.announcements import CardAstray
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import BANNER_LINES, Overlay, _wrapped
    from vision.sources import Frame

    astray = CardAstray(None, None, corner=True)  # "A card lies outside every zone, in a..."
    assert len(astray.message) > 110

    def banner(width: int, height: int) -> tuple[int, np.ndarray]:
        """The banner's height and where its white text lies, on a blank picture."""
        image = Overlay().draw(Frame(np.zeros((height, width, 3), np.uint8), 0, 1.0),
                               CardDetections(), None, TableReferee(RulesConfig()),
                               [Said(0, 1.0, astray)])
        top = int(np.argmax(image[:, 0].any(axis=1)))
        return height - top, np.argwhere((image[top:] > 240).all(axis=2))

    # at 960x540 on one line, to its last word
    size = 0.7 * 960 / 1280
    whole = cv2.getTextSize(astray.message, cv2.FONT_HERSHEY_SIMPLEX, size, 1)[0][0]
    high, white = banner(960, 540)
    assert high == int(44 * 0.75) and white[:, 1].max() > 9 + whole - 10
    # at 480x270, in lines that all fit
    high, white = banner(480, 270)
    assert high > 44 * 0.5 + 10 and white[:, 1].max() < 480 - 4
    lines = _wrapped(astray.message, 460, 0.35, 1)
    assert " ".join(lines) == astray.message and len(lines) == 2
    assert all(cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, 0.35, 1)[0][0] <= 460
               for line in lines)
    assert _wrapped("Score: 76 | 44", 460, 0.35, 1) == ["Score: 76 | 44"]
    long = _wrapped(astray.message * 4, 460, 0.35, 1)
    assert len(long) == BANNER_LINES and long[-1].endswith(" ...")


def test_a_card_face_down_is_spoken_in_portuguese_and_english():
    from referee.seats import Seat
    from vision.announcements import FaceDown, ShowAgain

    face_down = Said(0, 0.0, FaceDown(Seat(2)))
    assert spoken(face_down, "pt") == ("Há uma carta virada para baixo na zona do lugar 2: só "
                                       "conta virada para cima; vire-a")
    assert spoken(face_down, "en") == ("A card lies face down in seat 2's zone: a card counts "
                                       "once it lies face up; please turn it over")
    perhaps = Said(0, 0.0, ShowAgain(Seat(3), face_down=True))
    assert spoken(perhaps, "pt") == ("Carta pouco clara no lugar 3: pode estar virada para "
                                     "baixo; mostre-a virada para cima")
    assert spoken(Said(0, 0.0, ShowAgain(Seat(3))), "pt") == ("Carta pouco clara no lugar 3: "
                                                              "mostre-a outra vez")


def test_a_card_unclear_said_to_lie_face_down_survives_the_event_log():
    """``--resume`` reads the tracker's events back from the log: an unclear card read as a
    back keeps that (and a log written before the field existed still reads)."""
    from referee.seats import Seat
    from vision.session import track_event_from_dict, track_event_to_dict
    from vision.track import ZoneUnclear

    for event in (ZoneUnclear(Seat(4), 12, True), ZoneUnclear(Seat(1), 3)):
        assert track_event_from_dict(track_event_to_dict(event)) == event
    assert track_event_from_dict({"type": "unclear", "seat": 2, "frame": 5}) == ZoneUnclear(
        Seat(2), 5)


def test_a_revoke_proven_by_the_whole_deck_is_spoken_as_proven():
    """A revoke in doubt that the whole deck, played once as read, proves at the deal's end
    (``vision.settlement``) is said to be proven, in Portuguese too."""
    from referee.seats import Seat
    from vision.announcements import RevokeSettled

    settled = Said(0, 0.0, RevokeSettled(Seat(2), 7, 0.9914))
    assert spoken(settled, "pt") == ("Todas as cartas do baralho foram jogadas uma vez como se "
                                     "leram: a renúncia do jogador 2 fica provada")
    assert spoken(settled, "en").endswith("the plays show Player 2's revoke in round 7 "
                                          "(99.1 % of the odds)")


def test_a_result_if_nobody_revoked_is_spoken_with_its_winner_or_the_draw_and_no_verdict():
    from referee.seats import Pair
    from vision.announcements import ResultIfHonest

    won = Said(0, 0.0, ResultIfHonest((1, 2), Pair.B, 2, ((29, 91), (30, 90)), 0.995))
    assert spoken(won, "pt") == ("Se ninguém renunciou com as cartas que não foram bem lidas, "
                                 "ganhou a dupla B; mas uma renúncia com elas não se pode "
                                 "provar nem excluir: sem veredicto")
    assert spoken(won, "en").startswith("If nobody revoked with the cards never read surely "
                                        "in rounds 1, 2, Pair B won (2 games): score 29 to 91 "
                                        "or 30 to 90, as they may lie (99.5 % of the odds")
    draw = Said(0, 0.0, ResultIfHonest((4,), None, 0, ((60, 60),), 1.0))
    assert "houve empate" in spoken(draw, "pt")
    assert "it is a draw: score 60 to 60, as they may lie (every way" in spoken(draw, "en")


def test_the_no_verdict_banner_ends_with_the_result_if_nobody_revoked_where_it_was_said():
    """The overlay's banner at a deal's end is its last sentence, the "no verdict"; where the
    result if nobody revoked was said just before it, the banner gives that result after the
    "no verdict", which is what the players want to see. A later deal's "no verdict" does not
    carry it on."""
    import numpy as np

    from referee.config import RulesConfig
    from referee.events import GameIncomplete, Outcome
    from referee.seats import Pair
    from vision.announcements import ResultIfHonest
    from vision.detections import CardDetections
    from vision.game import TableReferee
    from vision.sinks import Overlay
    from vision.sources import Frame

    overlay, table, none = Overlay(), TableReferee(RulesConfig()), CardDetections()
    blank = np.zeros((360, 640, 3), np.uint8)
    missed = (1, 2, 3)
    incomplete = GameIncomplete((20, 10), Outcome.from_score((20, 10)), missed=missed)
    honest = ResultIfHonest(missed, Pair.A, 1, ((64, 56), (63, 57)), 0.995)
    overlay.draw(Frame(blank, 0, 5.0), none, None, table,
                 [Said(0, 5.0, honest), Said(0, 5.0, incomplete)])
    assert overlay.banner is not None
    text = overlay.banner[0]
    assert text == ("Game over, but rounds 1, 2, 3 could not be scored: no verdict.  If nobody "
                    "revoked, Pair A won (1 game).  Score of the rounds read: 20 | 10"), text
    assert overlay.verdict is not None and overlay.verdict[:2] == (1, (20, 10))
    overlay.draw(Frame(blank, 1, 9.0), none, None, table, [Said(0, 9.0, incomplete)])
    assert "nobody revoked" not in overlay.banner[0]
    draw = ResultIfHonest(missed, None, 0, ((60, 60),), 1.0)
    overlay.draw(Frame(blank, 2, 12.0), none, None, table,
                 [Said(0, 12.0, draw), Said(0, 12.0, incomplete)])
    assert "no verdict.  If nobody revoked, it is a draw.  Score" in overlay.banner[0]
