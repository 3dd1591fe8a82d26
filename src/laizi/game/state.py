"""The hand state machine (RULES.md §2-§5, §8): deal, turns, claims, kongs, haidi, settlement.

A :class:`HandState` is driven by :meth:`HandState.apply`; at every decision point
:meth:`HandState.to_act` lists the seats that must answer and
:meth:`HandState.legal_actions` what each may do. Every change is appended to the
event log (:mod:`laizi.game.events`), from which :func:`laizi.game.replay.replay`
rebuilds the exact state.

The hand is built in layers, one module per concept: :mod:`laizi.game.table` (the
tiles, draws, haidi, endings, inspection), :mod:`laizi.game.claims` (claim and rob
windows), :mod:`laizi.game.wincheck` (win checks, returning a
:class:`~laizi.game.wincheck.WinCheck`), and this module (dealing, each seat's legal
actions, applying them).

Phases (:class:`~laizi.game.enums.Phase`, a string enum):

``turn``   seat ``turn`` acts on its own turn (after a draw or a chi/peng claim).
``claim``  seat ``turn`` discarded ``pending``; the seats with a legal claim answer
           (claim or pass); resolved by priority win > kong/peng > chi once all answered.
``rob``    seat ``turn`` declared a 蓄杠 of ``pending``; seats that can win on it answer.
``haidi``  the haidi phase: seat ``turn`` drew a haidi tile and may only win or pass.
           (Seats that cannot win are passed automatically.)
``replace`` (``kong_draw_choice`` only) seat ``turn`` declared a kong (after any robbing
           window) and chooses ``draw`` (the replacement from the back) or ``nodraw``
           (不补: no draw, no discard; the next seat draws from the front).
``over``   the hand ended: ``result`` holds the win (or ``None`` for a drawn hand),
           ``payments`` the per-seat deltas.

Readings of RULES.md chosen here (where the rules are silent):

- A win is offered only when :func:`laizi.scoring.score` says ``ok`` (legal and at
  least the minimum); a cheap prefilter (no special tile held, opened unless
  ``jiayu_hands``, :func:`laizi.analysis.can_win` with the laizi as wilds, or the
  loose 风一色/将一色 or 七对 shapes) avoids calling the scorer for hopeless hands.
- The dealer's first turn may win by self-draw (``jiayu`` 门前清); its "winning
  tile" is the 14th tile dealt to it.
- After a chi or peng the claimer may kong (and so win on the replacement) but may
  not declare a self-drawn win with the tiles it holds.
- Discarding a special tile or a laizi is a discard, so it stays allowed when 14 or
  fewer tiles remain (no replacement is drawn). A laizi kong (laying one aside) is
  allowed under ``laizi_discard="forbidden"`` too: that option forbids discarding.
- A seat is asked only when it has a choice: claim windows ask the seats with a
  legal claim; in the haidi phase a seat that cannot win passes automatically.
- ``guoshou`` (过手): a seat that was offered a win on a discard and did not take
  it may not win, until its next draw (any draw), on a discard of the same suit and
  line (147/258/369; an honour: the same kind) unless the new win pays the winner
  more than the passed one. Passes below the minimum are never offered, so never
  lock. Robbing a kong is not affected.
- ``ready`` (全求人 liability) is computed for the discarder only when the winner
  has four exposed melds; ``fanbao`` (反包) is tracked per seat by :meth:`_track_fanbao`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

from laizi.game.actions import ACT, DRAW, NODRAW, PASS, TSUMO, Action
from laizi.game.claims import ClaimWindow, guoshou_key
from laizi.game.enums import Phase
from laizi.game.errors import GameError, IllegalActionError, MatchOverError
from laizi.game.events import Event
from laizi.game.table import HAIDI_WALL, KONG_MIN_WALL, ordered_str
from laizi.game.wall import (
    DEAD_START,
    INDICATOR_POS,
    LIVE_START,
    check_wall,
    commitment,
    deal_slices,
    derive_wall,
    new_seed,
    wall_to_str,
)
from laizi.game.wincheck import WinCheck, WinChecker
from laizi.rules import RuleSet
from laizi.scoring import Meld, ScoreResult
from laizi.tiles import NUM_KINDS, TILE_STR

__all__ = ["HAIDI_WALL", "KONG_MIN_WALL", "HandState", "Phase", "WinCheck", "guoshou_key"]

# enum members as module constants (member lookup is slow on the hot path)
_CLAIM: Final = Phase.CLAIM
_HAIDI: Final = Phase.HAIDI
_OVER: Final = Phase.OVER
_REPLACE: Final = Phase.REPLACE
_ROB: Final = Phase.ROB
_TURN: Final = Phase.TURN

_DISCARD: Final = ACT["discard"]
_HAIDI_ACTIONS: Final = (TSUMO, PASS)
_REPLACE_ACTIONS: Final = (DRAW, NODRAW)


@functools.lru_cache(maxsize=64)
def _rules_dump(rules: RuleSet) -> dict[str, Any]:
    """``rules.model_dump(mode="json")``, once per rule set (callers copy it)."""
    return rules.model_dump(mode="json")


class HandState(ClaimWindow):
    """One hand of Wuhan Mahjong. Create with :meth:`new`."""

    __slots__ = ()

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        rules: RuleSet,
        dealer: int = 0,
        *,
        seed: bytes | None = None,
        wall: Sequence[int] | None = None,
        hand_no: int = 1,
        log: list[Event] | None = None,
        context: dict[str, Any] | None = None,
    ) -> HandState:
        """Deal a new hand.

        ``seed``: the wall is derived from it (:mod:`laizi.game.wall`); a fresh random
        seed when neither ``seed`` nor ``wall`` is given. ``wall``: a hand-built wall
        (136 kinds, e.g. from :func:`laizi.game.wall.arrange_wall`; with a ``seed``
        too, they must agree). ``log``: the event list to append to (a match's log).
        ``context``: extra public fields for the ``start_hand`` event (a match passes
        its round and scores; a stand-alone hand records its rules instead).
        """
        if not 0 <= dealer < 4:
            raise GameError("the dealer must be a seat 0-3")
        if wall is None:
            if seed is None:
                seed = new_seed()
            wall_t = derive_wall(seed)
        else:
            wall_t = tuple(int(k) for k in wall)
            check_wall(wall_t)
            if seed is not None and derive_wall(seed) != wall_t:
                raise GameError("the wall does not derive from the seed")
        self = cls()  # a bare state (no __init__; a compiled class has no usable __new__)
        self.rules = rules
        self.dealer = dealer
        self.hand_no = hand_no
        self.seed = seed
        self.wall = wall_t
        self.commitment = commitment(seed, wall_t)
        indicator = wall_t[INDICATOR_POS]
        self.setup = rules.setup(indicator=indicator)
        self._special = tuple(sorted(self.setup.special))
        self.front = LIVE_START
        self.back = DEAD_START
        self.hands = [[0] * NUM_KINDS for _ in range(4)]
        self.melds = [[], [], [], []]
        self.rivers = [[], [], [], []]
        self.special_kongs = [[], [], [], []]
        self.special_discards = [[], [], [], []]
        self.phase = _TURN
        self.turn = dealer
        self.after_claim = False
        self.after_kong = False
        self.haidi_n = 0
        self.pending = None
        self.options = {}
        self.responses = {}
        self.guoshou = [[], [], [], []]
        self.result = None
        self.payments = None
        self.log = [] if log is None else log
        self.log_start = len(self.log)
        self._turn_cache = None
        self._tsumo = None
        self._ron_results = {}
        self.fanbao = [None, None, None, None]
        self._checker = WinChecker(rules, self.setup)

        start: Event = {"type": "start_hand", "hand": hand_no, "dealer": dealer}
        if context is None:
            start["rules"] = dict(_rules_dump(rules))
        else:
            start.update(context)
        start.update({
            "commitment": self.commitment,
            "indicator": TILE_STR[indicator],
            "laizi": TILE_STR[self.setup.laizi],
            "special": [TILE_STR[k] for k in self._special],
            "pizi": [TILE_STR[k] for k in sorted(self.setup.pizi)],
            "wall_size": self.wall_remaining_after_deal(),
        })
        self._emit(start)
        self._emit({
            "type": "secret", "hand": hand_no, "seed": None if seed is None else seed.hex(),
            "wall": wall_to_str(wall_t), "vis": "server",
        })
        slices = deal_slices(dealer)
        for i in range(4):
            seat = (dealer + i) % 4
            a, b = slices[seat]
            h = self.hands[seat]
            for k in wall_t[a:b]:
                h[k] += 1
            self._emit({
                "type": "deal", "seat": seat, "tiles": ordered_str(wall_t[a:b]),
                "count": b - a, "vis": seat,
            })
        self.last_draw = wall_t[slices[dealer][1] - 1]
        return self

    @staticmethod
    def wall_remaining_after_deal() -> int:
        return DEAD_START - LIVE_START + 1

    @property
    def checker(self) -> WinChecker:
        """The win checks of this hand (its rules and laizi)."""
        return self._checker

    # ------------------------------------------------------------ who / what
    def to_act(self) -> list[int]:
        """Seats that must act now (empty once the hand is over)."""
        ph = self.phase
        if ph in (_TURN, _HAIDI, _REPLACE):
            return [self.turn]
        if ph == _OVER:
            return []
        return [s for s in sorted(self.options) if s not in self.responses]

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now (empty if it has nothing to decide)."""
        return list(self._legal(seat))

    def _legal(self, seat: int) -> Sequence[Action]:
        """:meth:`legal_actions` without the copy (do not mutate)."""
        ph = self.phase
        if ph == _TURN:
            if seat != self.turn:
                return ()
            if self._turn_cache is None:
                self._turn_cache = self._turn_actions()
            return self._turn_cache
        if ph in (_CLAIM, _ROB):
            if seat in self.responses:
                return ()
            return self.options.get(seat, ())
        if ph == _HAIDI:
            return self._haidi_actions() if seat == self.turn else ()
        if ph == _REPLACE:
            return _REPLACE_ACTIONS if seat == self.turn else ()
        return ()

    def _turn_actions(self) -> list[Action]:
        s = self.turn
        h = self.hands[s]
        acts: list[Action] = []
        if not self.after_claim and self.tsumo_check().ok:
            acts.append(TSUMO)
        lz = self.setup.laizi
        allow_laizi_discard = self.rules.laizi_discardable
        for k in range(NUM_KINDS):
            if h[k] and (k != lz or allow_laizi_discard):
                acts.append(_DISCARD[k])
        if self.kong_allowed():
            acts.extend(self.kong_actions(s))
        return acts

    def _haidi_actions(self) -> Sequence[Action]:
        """In the haidi phase: 自摸 when it wins, pass, and (``haidi_kongs``) kongs."""
        if not self.rules.haidi_kongs:
            return _HAIDI_ACTIONS
        if self._turn_cache is None:
            acts = [TSUMO] if self.tsumo_check().ok else []
            self._turn_cache = [*acts, PASS, *self.kong_actions(self.turn)]
        return self._turn_cache

    def tsumo_refusal(self) -> str | None:
        """Why the seat on turn may not declare 自摸 with a complete hand: the scorer's
        reason (``below_minimum``, ``pair_not_258``, ``two_laizi_small`` …), or None when
        it may, or when the hand is not a complete, opened, special-free shape after a
        draw (nothing to refuse). For statistics; no state changes."""
        if self.phase != _TURN or self.after_claim or self.last_draw is None:
            return None
        seat = self.turn
        if not self.opened(seat):
            return None
        h = self.hands[seat]
        for k in self._special:
            if h[k]:
                return None
        check = self.tsumo_check()
        if check.ok:
            return None
        # the win check got past its special/opened tests, so it has tested the
        # regular shape (laizi as wilds) and says whether it is complete
        if not check.shape:
            return None
        res = check.refused
        if res is None:  # rejected before scoring: ask the scorer for its reason
            without = list(h)
            without[self.last_draw] -= 1
            res = self._checker.score(self, seat, self.last_draw, "self_draw", None, without,
                                      after_kong=self.after_kong)
        return None if res.ok else (res.reason or "not_a_win")

    # -------------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action. Raises :class:`IllegalActionError` (state unchanged)."""
        if self.phase == _OVER:
            raise MatchOverError("the hand is over")
        if not isinstance(action, Action):
            raise IllegalActionError(seat, action, f"not an Action: {action!r}")
        legal = self._legal(seat)
        for a in legal:  # bots hand back one of the offered objects: identity first
            if a is action:
                break
        else:
            if action in legal:
                pass
            elif not legal:
                raise IllegalActionError(seat, action, f"it is not this seat's decision ({self.phase})")
            else:
                options = ", ".join(str(a) for a in legal)
                raise IllegalActionError(seat, action, f"{action} is not legal now (legal: {options})")
        ph = self.phase
        tsumo = self._tsumo.result if self._tsumo is not None else None
        self._turn_cache = None
        self._tsumo = None
        if ph == _TURN:
            self._apply_turn(seat, action, tsumo)
        elif ph == _CLAIM:
            self._respond(seat, action)
            if len(self.responses) == len(self.options):
                self._resolve_claims()
        elif ph == _ROB:
            self._respond(seat, action)
            if len(self.responses) == len(self.options):
                self._resolve_rob()
        elif ph == _REPLACE:
            self._replace_choice(seat, action.type == "draw")
        elif action.type != "tsumo" and action.type != "pass":  # a haidi kong (haidi_kongs)
            self._apply_turn(seat, action, None)
        else:  # haidi
            self._respond(seat, action)
            self.responses = {}
            if action.type == "tsumo":
                assert tsumo is not None and self.last_draw is not None
                self._win(seat, self.last_draw, "self_draw", None, tsumo, haidi=True)
            else:
                self._haidi_from((seat + 1) % 4)

    def _respond(self, seat: int, action: Action) -> None:
        self.responses[seat] = action
        self._emit({"type": "response", "seat": seat, "action": action.to_json(), "vis": seat})

    def _apply_turn(self, s: int, a: Action, tsumo: ScoreResult | None) -> None:
        t = a.type
        if t == "tsumo":
            self._emit({"type": "tsumo", "seat": s})
            if tsumo is None:
                tsumo = self.tsumo_check().result
            assert tsumo is not None and self.last_draw is not None
            self._win(s, self.last_draw, "self_draw", None, tsumo, after_kong=self.after_kong)
            return
        k = a.tile
        assert k is not None
        h = self.hands[s]
        if t == "discard":
            h[k] -= 1
            if k == self.setup.laizi or k in self.setup.special:
                self.special_discards[s].append(k)
                kind = "laizi" if k == self.setup.laizi else "special"
                self._emit({"type": "discard", "seat": s, "tile": TILE_STR[k], "as": kind})
                self._draw_front((s + 1) % 4)
            else:
                self.rivers[s].append(k)
                if self.rules.fanbao:
                    self._track_fanbao(s, k)
                self._emit({"type": "discard", "seat": s, "tile": TILE_STR[k]})
                self._open_claims(s, k)
        elif t == "ankong":
            h[k] -= 4
            self.melds[s].append(Meld("ankong", k))
            self._emit({"type": "ankong", "seat": s, "tile": TILE_STR[k]})
            self._replacement(s)
        elif t == "special_kong" or t == "laizi_kong":
            h[k] -= 1
            self.special_kongs[s].append(k)
            self._emit({"type": t, "seat": s, "tile": TILE_STR[k]})
            self._replacement(s)
        elif t == "addkong":
            h[k] -= 1
            self._emit({"type": "addkong", "seat": s, "tile": TILE_STR[k]})
            self._open_rob(s, k)
        else:  # pragma: no cover - legal_actions never offers anything else
            raise IllegalActionError(s, a, f"unexpected action {a}")

    def _track_fanbao(self, s: int, k: int) -> None:
        """反包 (option ``fanbao``, S0): once a seat has three openings in one suit, any other
        seat (but the 正包 feeder) that discards outside that suit while holding it and not
        ready (下小雨) owes the 清一色; the latest such seat is the one liable."""
        for x in range(4):
            if x == s:
                continue
            openings = [m for m in self.melds[x] if m.opens]
            if len(openings) < 3 or openings[2].from_seat == s:
                continue
            suits = {m.tile // 9 for m in openings}
            if len(suits) != 1:
                continue
            suit = suits.pop()
            if suit >= 3 or k // 9 == suit:
                continue
            if any(self.hands[s][suit * 9 + i] for i in range(9)) and not self.is_ready(s):
                self.fanbao[x] = s

    def clone(self) -> HandState:
        """An independent copy (with its own copy of the log)."""
        c = HandState()  # bare, filled by _copy_into
        self._copy_into(c)
        return c
