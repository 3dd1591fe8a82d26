"""A match (RULES.md §9): hands in sequence, dealer rotation, rounds, scores, escapes.

- **Dealer**: the dealer deals again (连庄) when it wins or the hand is drawn;
  when another seat wins, the dealer's 下家 deals next. The first dealer is seat 0
  (东) unless given — or, under ``rules.seating_ceremony`` (摸牌定东), the seat of 东
  after the ceremony (:mod:`laizi.game.seating`, drawn from the match seed and logged
  in ``start_match`` as ``seating``; the driver moves each player to its new seat).
- **Rounds and winds**: each time the deal passes to the next seat counts one step; a
  round (圈) is four steps, a wind (风) ``rules.rounds_per_wind`` rounds, and the match
  ends after ``rules.match_rounds`` rounds (``winds`` × ``rounds_per_wind``, else
  ``rounds``) — or after ``max_hands`` hands, a cap meant for simulations and tests.
- **Scores**: cumulative, zero-sum; kept as exact fractions (an escape penalty of
  400 split three ways is 400/3 each).
- **Escape** (逃跑): :meth:`Match.escape` charges the leaving seat
  ``rules.escape_penalty`` at once, **split equally among the other three seats**
  (so the scores stay zero-sum), marks the seat escaped and auto-played, and the
  match goes on: the driver (server, simulator) plays auto seats with a bot
  (:func:`laizi.game.play.auto_action` is a minimal fallback). A seat escapes at
  most once.
- **Auto flag**: :meth:`Match.set_auto` marks a seat as played by a bot (e.g. a
  disconnected player) without penalty; it is logged.

Hands start automatically when the previous one ends (``auto_next=True``); with
``auto_next=False`` the driver calls :meth:`Match.start_next_hand` itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from laizi.game.actions import Action
from laizi.game.enums import EndReason
from laizi.game.errors import GameError, IllegalActionError, MatchOverError
from laizi.game.events import Event
from laizi.game.seating import Seating, draw_ceremony, parse_seating
from laizi.game.state import HandState
from laizi.game.wall import hand_seed, new_seed
from laizi.rules import RuleSet

__all__ = ["DealSource", "Match", "score_value"]

# hand number -> (seed, hand-built wall or None)
DealSource = Callable[[int], tuple[bytes | None, Sequence[int] | None]]


def score_value(x: Fraction) -> int | float:
    """A score for JSON: an int when whole, else a float."""
    if x.denominator == 1:
        return int(x)
    return float(x)


def _frac(p: float | int) -> Fraction:
    return Fraction(str(p)) if isinstance(p, float) else Fraction(p)


class Match:
    """A match of hands. ``seed``: a match seed from which every hand's seed is derived
    (:func:`laizi.game.wall.hand_seed`; reproducible simulations) — without it each
    hand gets a fresh random seed. ``deal_source``: a function ``hand_no -> (seed, wall)``
    overriding both (replay, scenario tests). ``fixed_dealers``: hand *n* is dealt by seat
    ``(first_dealer + n - 1) % 4`` whoever won before (no 连庄) — a duplicate tournament's
    round, where every table must deal each wall with the same dealer.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        seed: bytes | None = None,
        first_dealer: int = 0,
        max_hands: int | None = None,
        auto_next: bool = True,
        deal_source: DealSource | None = None,
        log: list[Event] | None = None,
        fixed_dealers: bool = False,
        seating: dict[str, Any] | None = None,
    ) -> None:
        if not 0 <= first_dealer < 4:
            raise GameError("first_dealer must be a seat 0-3")
        if max_hands is not None and max_hands < 1:
            raise GameError("max_hands must be >= 1")
        self.rules = rules
        self.seating: Seating | None = None
        if rules.seating_ceremony:
            self.seating = (parse_seating(seating) if seating is not None
                            else draw_ceremony(seed if seed is not None else new_seed()))
            first_dealer = self.seating.east
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.fixed_dealers = fixed_dealers
        self.max_hands = max_hands
        self.auto_next = auto_next
        self.hand_no = 0
        self.deal_passes = 0
        self.scores: list[Fraction] = [Fraction(0)] * 4
        self.auto = [False] * 4
        self.escaped = [False] * 4
        self.over = False
        self.end_reason: EndReason | None = None  # why the match ended (once over)
        self.log: list[Event] = [] if log is None else log
        self.hand: HandState | None = None
        self.history: list[dict[str, Any]] = []  # per finished hand: winner, deltas, dealer
        self._seed = seed
        self._deal_source = deal_source
        start: dict[str, Any] = {
            "type": "start_match", "rules": rules.model_dump(mode="json"),
            "first_dealer": first_dealer, "max_hands": max_hands, "auto_next": auto_next,
        }
        if fixed_dealers:  # only then: the logs of every other match stay as they were
            start["fixed_dealers"] = True
        if self.seating is not None:
            start["seating"] = self.seating.to_json()
        self._emit(start)
        self.start_next_hand()

    # ------------------------------------------------------------ properties
    @property
    def round(self) -> int:
        """The current round (圈), from 1."""
        return min(self.deal_passes // 4, self.rules.match_rounds - 1) + 1

    @property
    def wind(self) -> int:
        """The current wind (风), from 1 (with ``rules.winds``; else always 1)."""
        return (self.round - 1) // self.rules.rounds_per_wind + 1 if self.rules.winds else 1

    @property
    def hand_over(self) -> bool:
        return self.hand is None or self.hand.over

    def score_values(self) -> list[int | float]:
        return [score_value(x) for x in self.scores]

    # ------------------------------------------------------------ hands
    def start_next_hand(self) -> HandState:
        """Deal the next hand (automatic unless ``auto_next=False``)."""
        if self.over:
            raise MatchOverError("the match is over")
        if self.hand is not None and not self.hand.over:
            raise GameError("the current hand is not over")
        self.hand_no += 1
        if self._deal_source is not None:
            seed, wall = self._deal_source(self.hand_no)
        else:
            seed = hand_seed(self._seed, self.hand_no) if self._seed is not None else new_seed()
            wall = None
        context = {"round": self.round, "scores": self.score_values()}
        self.hand = HandState.new(
            self.rules, self.dealer, seed=seed, wall=wall, hand_no=self.hand_no,
            log=self.log, context=context,
        )
        return self.hand

    def to_act(self) -> list[int]:
        if self.over or self.hand is None:
            return []
        return self.hand.to_act()

    def legal_actions(self, seat: int) -> list[Action]:
        if self.over or self.hand is None:
            return []
        return self.hand.legal_actions(seat)

    def apply(self, seat: int, action: Action) -> None:
        """Apply an action to the current hand; settles it (and deals the next) when it ends."""
        if self.over:
            raise MatchOverError("the match is over")
        hand = self.hand
        if hand is None or hand.over:
            raise IllegalActionError(seat, action, "no hand in play (call start_next_hand)")
        hand.apply(seat, action)
        if hand.over:
            self._settle(hand)

    def _settle(self, hand: HandState, *, final: bool = False) -> None:
        deltas = hand.payments or [0.0] * 4
        for s in range(4):
            self.scores[s] += _frac(deltas[s])
        winner = None if hand.result is None else int(hand.result["winner"])
        dealer = self.dealer
        if self.fixed_dealers:
            self.dealer = (self.first_dealer + hand.hand_no) % 4
            self.deal_passes += 1
        elif winner is not None and winner != dealer:
            self.dealer = (dealer + 1) % 4
            self.deal_passes += 1
        self.history.append({"hand": hand.hand_no, "dealer": dealer, "winner": winner,
                             "deltas": list(deltas)})
        self._emit({
            "type": "scores", "hand": hand.hand_no, "deltas": list(deltas),
            "scores": self.score_values(), "next_dealer": self.dealer,
            "deal_passes": self.deal_passes,
        })
        if final:
            return
        reason: EndReason | None = None
        if self.deal_passes >= 4 * self.rules.match_rounds:
            reason = EndReason.ROUNDS
        elif self.max_hands is not None and self.hand_no >= self.max_hands:
            reason = EndReason.MAX_HANDS
        if reason is not None:
            self._end(reason)
        elif self.auto_next:
            self.start_next_hand()

    def dissolve(self) -> None:
        """解散: the players agreed to end the match now. A hand in play ends as a draw with no
        payments (``ryukyoku`` reason ``dissolved``), settled like any hand; the scores so far
        stand; the match ends (``end_match`` reason ``dissolved``)."""
        if self.over:
            raise MatchOverError("the match is over")
        hand = self.hand
        if hand is not None and not hand.over:
            hand.dissolve()
            self._settle(hand, final=True)
        self._end(EndReason.DISSOLVED)

    def _end(self, reason: EndReason) -> None:
        self.over = True
        self.end_reason = reason
        self._emit({"type": "end_match", "reason": reason.value, "scores": self.score_values(),
                    "hands": self.hand_no})

    # ------------------------------------------------------------ seats
    def escape(self, seat: int) -> None:
        """Seat ``seat`` leaves: it pays ``escape_penalty``, split equally among the others,
        and is auto-played from now on."""
        if self.over:
            raise MatchOverError("the match is over")
        if not 0 <= seat < 4:
            raise GameError("seat must be 0-3")
        if self.escaped[seat]:
            raise GameError(f"seat {seat} has already escaped")
        penalty = Fraction(self.rules.escape_penalty)
        deltas = [penalty / 3] * 4
        deltas[seat] = -penalty
        for s in range(4):
            self.scores[s] += deltas[s]
        self.escaped[seat] = True
        self.auto[seat] = True
        self._emit({"type": "escape", "seat": seat, "penalty": self.rules.escape_penalty,
                    "deltas": [score_value(d) for d in deltas], "scores": self.score_values()})

    def set_auto(self, seat: int, on: bool = True) -> None:
        """Mark a seat as bot-played (no penalty). An escaped seat stays auto."""
        if not 0 <= seat < 4:
            raise GameError("seat must be 0-3")
        if self.escaped[seat] and not on:
            raise GameError(f"seat {seat} has escaped and stays auto-played")
        if self.auto[seat] == on:
            return
        self.auto[seat] = on
        self._emit({"type": "auto", "seat": seat, "on": on})

    # ------------------------------------------------------------ log / hash
    def _emit(self, event: Event) -> None:
        event["v"] = len(self.log) + 1
        event.setdefault("vis", "public")
        self.log.append(event)

    def to_dict(self) -> dict[str, Any]:
        out = self._state_dict()
        if self.seating is not None:  # only then: every other match hashes as before
            out["seating"] = self.seating.to_json()
        return out

    def _state_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.model_dump(mode="json"),
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "max_hands": self.max_hands,
            "hand_no": self.hand_no,
            "deal_passes": self.deal_passes,
            "scores": [str(x) for x in self.scores],
            "auto": list(self.auto),
            "escaped": list(self.escaped),
            "over": self.over,
            "events": len(self.log),
            "hand": None if self.hand is None else self.hand.to_dict(),
        }

    def hash(self) -> str:
        data = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(data.encode()).hexdigest()

    def __repr__(self) -> str:
        return (f"Match(hand={self.hand_no}, round={self.round}, dealer={self.dealer}, "
                f"scores={self.score_values()}, over={self.over})")
