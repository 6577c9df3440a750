"""Compare a refereed clip with the studio's truth log (``replay --truth``).

Plays are matched in order: the n-th card the referee took against the n-th ``card_rest`` of
the truth log (seat and card), with the delay from the card coming to rest to its landing.
Tricks are compared by winner, announcements by kind and message, and the verdict by its lines.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cards import Card, Suit
from referee.events import GameOver
from referee.match import MatchRules

from .announcements import ResultIfHonest, Said
from .settlement import score_result
from .track import CardLanded

if TYPE_CHECKING:
    from .session import SessionResult


@dataclass
class Comparison:
    plays_expected: int = 0
    plays_right: int = 0
    plays_missing: int = 0
    plays_extra: int = 0
    tricks_expected: int = 0
    tricks_right: int = 0
    verdict_expected: list[str] = field(default_factory=list)
    verdict_said: list[str] = field(default_factory=list)
    verdict_kind: str = ""  # the kind of the last verdict said (``GameOver`` or a subclass)
    announcements_expected: int = 0
    announcements_matched: int = 0
    false_accusations: int = 0
    # a trump, cut or trick won said that the truth log does not say, or a card said to lie
    # outside the Sueca deck where the truth put none down
    statements_wrong: int = 0
    accusations_expected: int = 0  # cheating the truth log announces (revokes and the like)
    accusations_made: int = 0  # of those, announced by the referee word for word
    # cards the truth log puts down in nobody's zone first, those the referee asked into
    # their zone, and cards it asked about that the truth never put there
    astray_expected: int = 0
    astray_said: int = 0
    astray_wrong: int = 0
    # cards the truth log lays face down first, those the referee asked to be turned over
    # while they lay so, and requests made where no card lay face down
    face_down_expected: int = 0
    face_down_said: int = 0
    face_down_wrong: int = 0
    delays: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # where a deal with no verdict ends saying what its result would be if nobody revoked
    # with the cards never read surely (``ResultIfHonest``): whether that is the truth's
    # result, the winner (or the draw) and the games; None where nothing is said so
    if_honest_right: bool | None = None
    # how many times the deal's end was said (a clip holds one deal): more than once, it was
    # said too early (a card of the last trick put back) or said again
    ends_said: int = 0
    # trumps, cuts and tricks won said again though never taken back in between (a trick
    # said again after ``TrickWithdrawn`` is said anew): the same words twice, to the table
    said_again: int = 0

    @property
    def verdict_right(self) -> bool:
        return bool(self.verdict_expected) and self.verdict_said == self.verdict_expected

    @property
    def winner_only(self) -> bool:
        """Whether the verdict said is the result alone (``OutcomeSettled``: the winner and
        the games the deal is worth, the score not known for sure), and right."""
        return self.verdict_kind == "outcome_settled" and bool(self.verdict_expected) \
            and self.verdict_said[:1] == self.verdict_expected[:1]

    @property
    def verdict_wrong(self) -> bool:
        """Whether a verdict was given (a winner or a draw, not "no verdict") that is not the
        truth's, nor its winner where only the result was settled: what the referee must
        never do."""
        said = self.verdict_said[:1]
        return bool(said) and said[0].startswith(("Pair", "The game resulted")) \
            and not self.verdict_right and not self.winner_only

    @property
    def all_right(self) -> bool:
        return (self.plays_right == self.plays_expected and not self.plays_extra
                and self.tricks_right == self.tricks_expected and self.verdict_right
                and not self.false_accusations and not self.statements_wrong
                and self.announcements_matched == self.announcements_expected
                and not self.astray_wrong and not self.face_down_wrong
                and self.ends_said <= 1 and not self.said_again)

    def lines(self) -> list[str]:
        delay = (f", delay from rest to announcement: median {statistics.median(self.delays):.0f}"
                 f" frames, worst {max(self.delays)}") if self.delays else ""
        out = [f"truth: plays {self.plays_right}/{self.plays_expected} right"
               f" ({self.plays_missing} missed, {self.plays_extra} misread){delay}",
               f"truth: tricks {self.tricks_right}/{self.tricks_expected} with the right winner;"
               f" announcements {self.announcements_matched}/{self.announcements_expected}"
               f" ({self.statements_wrong} said wrongly);"
               f" cheating announced {self.accusations_made}/{self.accusations_expected},"
               f" false accusations {self.false_accusations}",
               "truth: verdict " + ("matches" if self.verdict_right else
                                    ("matches in its result, the score not known for sure: "
                                     if self.winner_only else "differs: ")
                                    + f"expected {' / '.join(self.verdict_expected)}, "
                                    f"said {' / '.join(self.verdict_said) or 'nothing'}")]
        if self.if_honest_right is not None:
            out.append("truth: the result said if nobody revoked is "
                       + ("the truth's" if self.if_honest_right else "NOT the truth's"))
        if self.astray_expected or self.astray_wrong:
            out.append(f"truth: cards put down in nobody's zone first {self.astray_expected}, "
                       f"asked into their zone {self.astray_said}; asked wrongly "
                       f"{self.astray_wrong}")
        if self.face_down_expected or self.face_down_wrong:
            out.append(f"truth: cards laid face down first {self.face_down_expected}, asked "
                       f"to be turned over {self.face_down_said}; asked wrongly "
                       f"{self.face_down_wrong}")
        return out + [f"  {p}" for p in self.problems[:10]]


# what the referee holds against a player: the cheating it proves, and a card called out of
# turn (the truth's games are played in turn, so such a call is false unless the log has it)
ACCUSATIONS = {"revoke", "dealer_lacks_trump", "card_already_played", "out_of_turn"}
# what the referee states as fact about the play (the truth log says each that is true)
STATEMENTS = {"trump", "cut", "trick_won"}
# the truth log's events that put a card down on the table
PUT_DOWN = {"card_rest", "card_face_down", "card_astray"}


def _fact(announcement: dict[str, Any]) -> tuple:
    """What a trump, cut or trick won says of the play, without the running score."""
    return tuple(announcement.get(k) for k in ("kind", "round", "seat", "card", "lead_suit", "points"))


def _says(said: dict[str, Any], truth: dict[str, Any]) -> bool:
    """Whether an announcement made (``Announcement.to_dict``) says what the truth log's
    announcement does: the same words; or, for a revoke whose off-suit card was never read
    (``card`` None), the same seat, round and lead suit."""
    if said["kind"] != truth["kind"]:
        return False
    if said["kind"] == "revoke" and "card" in said and said["card"] is None:
        return all(said.get(k) == truth.get(k) for k in ("seat", "round", "lead_suit"))
    return said["message"] == truth["message"]


def compare_with_truth(truth: list[dict[str, Any]], said: list[Said],
                       taken: list[CardLanded]) -> Comparison:
    """``taken``: the landings the referee took as plays, in order."""
    result = Comparison()
    rests = [r for r in truth if r.get("event") == "card_rest"]
    result.plays_expected = len(rests)
    # Each play taken is matched with the truth's play of the same seat and card (one missed
    # play must not make every later one count as wrong); what is left over on either side
    # was misread or never seen.
    unmatched = list(range(len(rests)))
    for landing in taken:
        match = next((i for i in unmatched if rests[i]["seat"] == landing.seat.number
                      and rests[i]["card"] == landing.card), None)
        if match is None:
            result.plays_extra += 1
            result.problems.append(f"took {landing.seat.number}:{landing.card} (frame "
                                   f"{landing.frame}), which was never played")
            continue
        unmatched.remove(match)
        result.plays_right += 1
        result.delays.append(landing.frame - int(rests[match]["frame"]))
    result.plays_missing = len(unmatched)
    for i in unmatched:
        result.problems.append(f"round {rests[i]['round']}: {rests[i]['seat']}:"
                               f"{rests[i]['card']} (frame {rests[i]['frame']}) never taken")
    expected_wins = {r["round"]: r for r in truth if r.get("event") == "announce"
                     and r.get("kind") == "trick_won"}
    # a trick taken back later (a card of it misread, ``TrickWithdrawn``) is not a trick right
    withdrawn = {s.announcement.round for s in said if s.announcement.kind == "trick_withdrawn"}
    said_wins = {a["round"]: a for a in (s.announcement.to_dict() for s in said)
                 if a["kind"] == "trick_won" and a["round"] not in withdrawn}
    result.tricks_expected = len(expected_wins)
    result.tricks_right = sum(1 for n, a in expected_wins.items() if n in said_wins
                              and said_wins[n]["seat"] == a["seat"]
                              and said_wins[n]["points"] == a["points"])
    expected = [r for r in truth if r.get("event") == "announce"]
    got = [s.announcement.to_dict() for s in said]
    result.announcements_expected = len(expected)
    result.accusations_expected = sum(1 for r in expected if r["kind"] in ACCUSATIONS)
    remaining = list(got)
    for item in expected:
        match = next((a for a in remaining if _says(a, item)), None)
        if match is not None:
            remaining.remove(match)
            result.announcements_matched += 1
            result.accusations_made += item["kind"] in ACCUSATIONS
        else:
            result.problems.append(f"not announced: {item['message'].splitlines()[0]}")
    # a trump, cut or trick won must be true in what it says of the play (a running score
    # may differ from the truth's after a trick that could not be scored)
    true_facts = [_fact(r) for r in truth if r.get("event") == "announce"
                  and r.get("kind") in STATEMENTS]
    true_suits = {Card.parse(r["card"]).suit.full_name for r in truth
                  if r.get("event") == "announce" and r.get("kind") == "trump" and r.get("card")}
    for item in said:
        fact = item.announcement.to_dict()
        if fact["kind"] == "trump_settled":  # a trump in doubt settled states the trump card,
            if Suit.from_full_name(fact["card"]):  # or only its suit where no card was named
                if true_suits and fact["card"] not in true_suits:
                    result.statements_wrong += 1
                    result.problems.append(f"said wrongly: {item.announcement.message}")
                continue
            fact = {"kind": "trump", "card": fact["card"]}
        if fact["kind"] in STATEMENTS and _fact(fact) not in true_facts:
            result.statements_wrong += 1
            later = " (taken back later)" if fact.get("round") in withdrawn \
                and fact["kind"] == "trick_won" else ""
            result.problems.append(f"said wrongly{later}: {item.announcement.message}")
    # a card outside the Sueca deck is said so only where the truth put one down
    put_down = {r.get("card") for r in truth if r.get("event") in PUT_DOWN}
    for item in said:
        if item.announcement.kind == "not_a_sueca_card" \
                and str(item.announcement.card) not in put_down:
            result.statements_wrong += 1
            result.problems.insert(0, f"said wrongly (frame {item.frame}): "
                                      f"{item.announcement.message}")
    for announcement in got:
        if announcement["kind"] in ACCUSATIONS and not any(
                _says(announcement, r) for r in expected if r["kind"] in ACCUSATIONS):
            result.false_accusations += 1
            result.problems.append(f"false accusation: {announcement['message']}")
    # (a card not read surely is asked about without its name: such a request stands for
    # any card put there that was not asked about by name, one request a card)
    put = [r["card"] for r in truth if r.get("event") == "card_astray"]
    asked = [s.announcement.card for s in said if s.announcement.kind == "card_astray"]
    named = [card for card in asked if card is not None]
    result.astray_expected = len(put)
    by_name = sum(card in named for card in put)
    unnamed = len(asked) - len(named)
    result.astray_said = by_name + min(unnamed, len(put) - by_name)
    for card in named:
        if card not in put:
            result.astray_wrong += 1
            result.problems.append(f"said wrongly: {card} lies astray")
    if unnamed > len(put) - by_name:
        result.astray_wrong += unnamed - (len(put) - by_name)
        result.problems.append(f"said wrongly: a card lies astray ({unnamed} times, for "
                               f"{len(put) - by_name} cards not asked about by name)")
    _count_face_down(truth, said, result)
    verdict = next((r for r in truth if r.get("event") == "verdict"), None)
    if verdict is not None:
        result.verdict_expected = [line for line in verdict.get("lines", [])
                                   if line.startswith(("Pair", "The game resulted", "Score"))]
    _count_said_again(said, result)
    over = [s for s in said if isinstance(s.announcement, GameOver)]
    result.ends_said = len(over)
    if len(over) > 1:
        result.problems.insert(0, f"the deal's end was said {len(over)} times (frames "
                                  f"{', '.join(str(s.frame) for s in over)})")
    if over:
        result.verdict_said = over[-1].announcement.message.splitlines()
        result.verdict_kind = over[-1].announcement.kind
    honest = [s.announcement for s in said if isinstance(s.announcement, ResultIfHonest)]
    if honest and verdict is not None and verdict.get("score"):
        a, b = verdict["score"]
        result.if_honest_right = score_result((a, b), MatchRules()) == (
            honest[-1].winner, honest[-1].games)
    return result


def _count_said_again(said: list[Said], result: Comparison) -> None:
    """Count in ``result`` the trumps, cuts and tricks won said again: a cut said as a trick
    is dropped, and again as it goes on after a card of it was put back, tells the table
    nothing new. A trick won said again after it was taken back (``TrickWithdrawn``) is not
    counted."""
    told: set[tuple] = set()
    for item in said:
        fact = item.announcement.to_dict()
        if fact["kind"] == "trick_withdrawn":
            told = {f for f in told if f[0] != "trick_won" or f[1] != fact["round"]}
        if fact["kind"] not in STATEMENTS:
            continue
        if _fact(fact) in told:
            result.said_again += 1
            result.problems.insert(0, f"said again: {item.announcement.message} (frame "
                                      f"{item.frame})")
        told.add(_fact(fact))


def _count_face_down(truth: list[dict[str, Any]], said: list[Said],
                     result: Comparison) -> None:
    """Requests to turn a card over (``card_face_down``, or a card unclear said to lie face
    down, perhaps), against the cards the truth log lays face down: each card is asked about
    rightly by a request for its seat made from the frame it lay still until the frame its
    player's card lies face up (``card_rest``); any other request is made wrongly."""
    laid = []  # (seat, first frame, last frame) of each card laid face down
    for n, record in enumerate(truth):
        if record.get("event") == "card_face_down":
            rest = next((r for r in truth[n + 1:] if r.get("event") == "card_rest"
                         and r.get("seat") == record["seat"]), None)
            laid.append((record["seat"], record["frame"],
                         rest["frame"] if rest else float("inf")))
    result.face_down_expected = len(laid)
    asked = set()
    for item in said:
        if not (item.announcement.kind == "card_face_down"
                or getattr(item.announcement, "face_down", False)):
            continue
        seat = item.announcement.seat.number
        match = next((k for k, (s, first, last) in enumerate(laid)
                      if s == seat and first <= item.frame <= last and k not in asked), None)
        if match is None:
            result.face_down_wrong += 1
            result.problems.append(f"said wrongly (frame {item.frame}): "
                                   f"{item.announcement.message}")
        else:
            asked.add(match)
    result.face_down_said = len(asked)


def referee_clip(clip: Path, truth: Path, detector, classifier,  # noqa: ANN001
                 log: Path | None = None, learner=None,  # noqa: ANN001
                 ) -> tuple[SessionResult, Comparison]:
    """Referee a studio clip from its first frame, quietly, with the default rules and
    tracker, and compare what was said with the clip's truth log: what the end-to-end tests
    and the games benchmark measure. ``log``: write the event log there too (``--events``);
    ``learner``: learn the deck in play (``vision.learning.DeckLearner``)."""
    from referee.config import RulesConfig

    from .game import TableReferee
    from .session import EventLog, run_session
    from .sources import video_frames
    from .studio.clip import read_truth
    from .table import CalibrationKeeper
    from .track import Tracker

    table = TableReferee(RulesConfig())
    events = EventLog(log, keep_earlier=False) if log is not None else None
    try:
        result = run_session(video_frames(clip), detector, classifier, CalibrationKeeper(),
                             Tracker(), table, [], events, learner=learner)
    finally:
        if events is not None:
            events.close()
    return result, compare_with_truth(read_truth(truth), result.said, table.plays_taken)
