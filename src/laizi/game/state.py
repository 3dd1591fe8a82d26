"""The hand state machine (RULES.md §2-§5, §8): deal, turns, claims, kongs, haidi, settlement.

A :class:`HandState` is driven by :meth:`HandState.apply`; at every decision point
:meth:`HandState.to_act` lists the seats that must answer and
:meth:`HandState.legal_actions` what each may do. Every change is appended to the
event log (:mod:`laizi.game.events`), from which :func:`laizi.game.replay.replay`
rebuilds the exact state.

Phases:

``turn``   seat ``turn`` acts on its own turn (after a draw or a chi/peng claim).
``claim``  seat ``turn`` discarded ``pending``; the seats with a legal claim answer
           (claim or pass); resolved by priority win > kong/peng > chi once all answered.
``rob``    seat ``turn`` declared a 蓄杠 of ``pending``; seats that can win on it answer.
``haidi``  the haidi phase: seat ``turn`` drew a haidi tile and may only win or pass.
           (Seats that cannot win are passed automatically.)
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
import hashlib
import json
from collections.abc import Sequence
from typing import Any, Literal

from laizi.analysis.decompose import seven_pairs_wilds
from laizi.analysis.fast import can_win, waits  # unchecked hot path
from laizi.game.actions import ACT, PASS, TILE_STR, TSUMO, Action
from laizi.game.errors import GameError, IllegalActionError, MatchOverError
from laizi.game.events import Event
from laizi.game.wall import (
    DEAD_START,
    INDICATOR_POS,
    LIVE_START,
    WALL_SIZE,
    check_wall,
    commitment,
    deal_slices,
    derive_wall,
    new_seed,
    wall_to_str,
)
from laizi.rules import RuleSet, TableSetup
from laizi.scoring import Meld, PlayerTable, ScoreResult, WinContext, score
from laizi.scoring.model import WinBy
from laizi.scoring.reading import FENG_KINDS, JIANG_KINDS
from laizi.tiles import counts_to_str

__all__ = ["HandState", "Phase", "KONG_MIN_WALL", "HAIDI_WALL"]

Phase = Literal["turn", "claim", "rob", "haidi", "over"]
HAIDI_WALL = 14  # the haidi phase starts when a normal draw is due with this many left
KONG_MIN_WALL = 15  # a kong needs at least this many tiles in the wall (RULES.md §8)

_FENG = FENG_KINDS
_JIANG = JIANG_KINDS
_NOT_FENG = tuple(k for k in range(34) if k not in _FENG)
_NOT_JIANG = tuple(k for k in range(34) if k not in _JIANG)
_DISCARD = ACT["discard"]
_ANKONG = ACT["ankong"]
_ADDKONG = ACT["addkong"]
_SPECIAL_KONG = ACT["special_kong"]
_LAIZI_KONG = ACT["laizi_kong"]
_RON = ACT["ron"]
_KONG = ACT["kong"]
_PENG = ACT["peng"]
_CHI = ACT["chi"]


_TRIPLET_COST = (0, 2, 1, 0, 2)  # wilds to make only triplets of c copies
_PAIR_COST = (2, 1, 0, 2, 1)  # wilds to make triplets plus the pair from c copies


def _pengpeng_possible(nat: Sequence[int], wild: int) -> bool:
    """Can the concealed tiles (laizi as ``wild``) be all triplets plus one pair?"""
    base = 0
    for c in nat:
        if c:
            base += _TRIPLET_COST[c]
    if base > wild + 2:
        return False
    best = base + 2  # a pair of two wilds
    for c in nat:
        if c:
            cost = base - _TRIPLET_COST[c] + _PAIR_COST[c]
            if cost < best:
                best = cost
    return best <= wild


_HAIDI_ACTIONS = (TSUMO, PASS)


@functools.lru_cache(maxsize=64)
def _rules_dump(rules: RuleSet) -> dict[str, Any]:
    """``rules.model_dump(mode="json")``, once per rule set (callers copy it)."""
    return rules.model_dump(mode="json")


def _expand(counts: Sequence[int]) -> tuple[int, ...]:
    out: list[int] = []
    for k, c in enumerate(counts):
        if c:
            out.extend([k] * c)
    return tuple(out)


def _ordered_str(tiles: Sequence[int]) -> str:
    return "".join(TILE_STR[k] for k in tiles)


def _meld_json(m: Meld) -> dict[str, Any]:
    d: dict[str, Any] = {"type": m.type, "tile": TILE_STR[m.tile]}
    if m.from_seat is not None:
        d["from"] = m.from_seat
    return d


def _guoshou_key(tile: int) -> int:
    """Suit and line (147/258/369); honours: their own kind."""
    if tile < 27:
        return (tile // 9) * 3 + (tile % 9) % 3
    return tile


class HandState:
    """One hand of Wuhan Mahjong. Create with :meth:`new`."""

    __slots__ = (
        "rules", "setup", "dealer", "hand_no", "seed", "wall", "commitment", "front", "back",
        "hands", "melds", "rivers", "special_kongs", "special_discards",
        "phase", "turn", "last_draw", "after_claim", "after_kong", "haidi_n", "pending",
        "options", "responses", "guoshou", "result", "payments", "log", "log_start",
        "_special", "_turn_cache", "_tsumo_cache", "_ron_results", "fanbao", "_waits_memo",
        "_last_fail", "_last_shape",
    )

    rules: RuleSet
    setup: TableSetup
    dealer: int
    hand_no: int
    seed: bytes | None
    wall: tuple[int, ...]
    commitment: str
    front: int
    back: int
    hands: list[list[int]]
    melds: list[list[Meld]]
    rivers: list[list[int]]
    special_kongs: list[list[int]]
    special_discards: list[list[int]]
    phase: Phase
    turn: int
    last_draw: int | None
    after_claim: bool
    after_kong: bool
    haidi_n: int
    pending: int | None
    options: dict[int, tuple[Action, ...]]
    responses: dict[int, Action]
    guoshou: list[list[tuple[int, float]]]
    result: dict[str, Any] | None
    payments: list[float] | None
    log: list[Event]
    log_start: int
    _special: tuple[int, ...]
    _turn_cache: list[Action] | None
    # (legal win, refused score, regular shape complete) of the seat on turn
    _tsumo_cache: tuple[ScoreResult | None, ScoreResult | None, bool] | None
    _last_fail: ScoreResult | None
    _last_shape: bool
    _ron_results: dict[int, ScoreResult]
    fanbao: list[int | None]
    _waits_memo: dict[bytes, tuple[frozenset[int], bool, bool]]

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
        self = cls.__new__(cls)
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
        self.hands = [[0] * 34 for _ in range(4)]
        self.melds = [[], [], [], []]
        self.rivers = [[], [], [], []]
        self.special_kongs = [[], [], [], []]
        self.special_discards = [[], [], [], []]
        self.phase = "turn"
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
        self._tsumo_cache = None
        self._last_fail = None
        self._last_shape = False
        self._ron_results = {}
        self.fanbao = [None, None, None, None]
        self._waits_memo = {}

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
                "type": "deal", "seat": seat, "tiles": _ordered_str(wall_t[a:b]),
                "count": b - a, "vis": seat,
            })
        self.last_draw = wall_t[slices[dealer][1] - 1]
        return self

    @staticmethod
    def wall_remaining_after_deal() -> int:
        return DEAD_START - LIVE_START + 1

    # --------------------------------------------------------------- properties
    @property
    def wall_remaining(self) -> int:
        """Tiles left to draw (front and back together)."""
        return self.back - self.front + 1

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def laizi(self) -> int:
        return self.setup.laizi

    @property
    def indicator(self) -> int:
        return self.wall[INDICATOR_POS]

    @property
    def events(self) -> list[Event]:
        """This hand's events (a slice of the shared log)."""
        return self.log[self.log_start:]

    def concealed_count(self, seat: int) -> int:
        return sum(self.hands[seat])

    def opened(self, seat: int) -> bool:
        return any(m.type != "ankong" for m in self.melds[seat])

    # ------------------------------------------------------------ who / what
    def to_act(self) -> list[int]:
        """Seats that must act now (empty once the hand is over)."""
        ph = self.phase
        if ph == "turn" or ph == "haidi":
            return [self.turn]
        if ph == "over":
            return []
        return [s for s in sorted(self.options) if s not in self.responses]

    def legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of ``seat`` now (empty if it has nothing to decide)."""
        return list(self._legal(seat))

    def _legal(self, seat: int) -> Sequence[Action]:
        """:meth:`legal_actions` without the copy (do not mutate)."""
        ph = self.phase
        if ph == "turn":
            if seat != self.turn:
                return ()
            if self._turn_cache is None:
                self._turn_cache = self._turn_actions()
            return self._turn_cache
        if ph == "claim" or ph == "rob":
            if seat in self.responses:
                return ()
            return self.options.get(seat, ())
        if ph == "haidi":
            return _HAIDI_ACTIONS if seat == self.turn else ()
        return ()

    def _turn_actions(self) -> list[Action]:
        s = self.turn
        h = self.hands[s]
        acts: list[Action] = []
        if not self.after_claim and self._tsumo_result() is not None:
            acts.append(TSUMO)
        kong_ok = self.wall_remaining >= KONG_MIN_WALL
        lz = self.setup.laizi
        special = self._special
        allow_laizi_discard = self.rules.laizi_discard != "forbidden"
        discards: list[Action] = []
        kongs: list[Action] = []
        for k in range(34):
            c = h[k]
            if not c:
                continue
            if k == lz:
                if allow_laizi_discard:
                    discards.append(_DISCARD[k])
                if kong_ok:
                    kongs.append(_LAIZI_KONG[k])
            elif k in special:
                discards.append(_DISCARD[k])
                if kong_ok:
                    kongs.append(_SPECIAL_KONG[k])
            else:
                discards.append(_DISCARD[k])
                if kong_ok and c == 4:
                    kongs.append(_ANKONG[k])
        if kong_ok:
            for m in self.melds[s]:
                if m.type == "peng" and h[m.tile]:
                    kongs.append(_ADDKONG[m.tile])
        acts.extend(discards)
        acts.extend(kongs)
        return acts

    # --------------------------------------------------------------- win checks
    def _prefilter(self, seat: int, counts: list[int]) -> bool:
        """Cheap necessary conditions for a win (counts include the winning tile)."""
        for k in self._special:
            if counts[k]:
                return False
        rules = self.rules
        melds = self.melds[seat]
        if not rules.jiayu_hands and not any(m.type != "ankong" for m in melds):
            return False
        lz = self.setup.laizi
        wild = counts[lz]
        nat = list(counts)
        nat[lz] = 0
        shape = self._last_shape = can_win(nat, wild)
        # Check 5: without a 258 pair only 碰碰胡/清一色/风一色/将一色 (七对) can win.
        if shape and (
            can_win(nat, wild, pair258=True)
            or (wild >= 2 and lz in _JIANG)  # a 2/5/8 pair of laizi, one natural at least
            or (not any(m.type == "chi" for m in melds) and _pengpeng_possible(nat, wild))
            or self._one_suit(nat, melds)  # 清一色 possible
        ):
            return True
        if rules.luan_feng_jiang:
            for category, outside in ((_FENG, _NOT_FENG), (_JIANG, _NOT_JIANG)):
                if any(nat[k] for k in outside):
                    continue
                if all(x in category for m in melds for x in m.tiles()):
                    return True
        return bool(rules.jiayu_hands and not melds and seven_pairs_wilds(nat, wild))

    @staticmethod
    def _one_suit(nat: list[int], melds: list[Meld]) -> bool:
        suits = {m.tile // 9 for m in melds}
        for k in range(34):
            if nat[k]:
                suits.add(k // 9)
                if len(suits) > 1:
                    return False
        return len(suits) == 1 and min(suits) < 3

    def _score(
        self, winner: int, tile: int, by: WinBy, from_seat: int | None,
        hand: list[int], *, after_kong: bool = False, haidi: bool = False,
    ) -> ScoreResult:
        """Score a candidate win; ``hand`` is the winner's concealed counts without ``tile``."""
        ready = False
        if by == "discard" and from_seat is not None:
            wm = self.melds[winner]
            if len(wm) == 4 and all(m.type != "ankong" for m in wm):
                ready = self.is_ready(from_seat)
        players = tuple(
            PlayerTable(
                # the scorer reads only the winner's concealed tiles
                hand=_expand(hand) if s == winner else (),
                melds=tuple(self.melds[s]),
                special_kongs=tuple(self.special_kongs[s]),
                special_discards=tuple(self.special_discards[s]),
                ready=ready and s == from_seat,
                fanbao=self.fanbao[winner] == s,
            )
            for s in range(4)
        )
        ctx = WinContext(
            rules=self.rules, setup=self.setup, dealer=self.dealer, winner=winner, tile=tile,
            by=by, players=players, from_seat=from_seat,  # type: ignore[arg-type]
            after_kong=after_kong, haidi=haidi,
        )
        return score(ctx)

    def is_ready(self, seat: int) -> bool:
        """听牌: the seat's concealed hand (laizi as wilds) waits on some tile."""
        h = self.hands[seat]
        lz = self.setup.laizi
        nat = list(h)
        nat[lz] = 0
        return bool(waits(nat, h[lz]))

    def _may_win_on(self, seat: int, tile: int) -> bool:
        """Fast necessary condition for winning on another seat's tile: the regular shape
        (laizi as wilds) waits on it, or a loose 风一色/将一色 or 七对 shape is possible.
        Memoised per concealed hand: (regular waits, all-风 hand, all-将 hand)."""
        rules = self.rules
        if rules.jiayu_hands:
            return True
        h = self.hands[seat]
        key = bytes(h)
        got = self._waits_memo.get(key)
        if got is None:
            lz = self.setup.laizi
            nat = list(h)
            nat[lz] = 0
            got = (frozenset(waits(nat, h[lz])),
                   not any(nat[k] for k in _NOT_FENG), not any(nat[k] for k in _NOT_JIANG))
            self._waits_memo[key] = got
        if tile in got[0]:
            return True
        if rules.luan_feng_jiang:
            return (got[1] and tile in _FENG) or (got[2] and tile in _JIANG)
        return False

    def _win_check(
        self, seat: int, tile: int, by: WinBy, from_seat: int | None,
        *, after_kong: bool = False, haidi: bool = False, in_hand: bool = False,
    ) -> ScoreResult | None:
        """The score of a legal win (ok) or None. ``in_hand``: ``tile`` is already in the hand."""
        h = self.hands[seat]
        if not in_hand and not self._may_win_on(seat, tile):
            return None
        counts = list(h)
        if not in_hand:
            counts[tile] += 1
        if not self._prefilter(seat, counts):
            return None
        without = list(counts)
        without[tile] -= 1
        res = self._score(seat, tile, by, from_seat, without, after_kong=after_kong, haidi=haidi)
        if res.ok:
            return res
        self._last_fail = res
        return None

    def _tsumo_result(self) -> ScoreResult | None:
        if self._tsumo_cache is None:
            res: ScoreResult | None = None
            self._last_fail = None
            self._last_shape = False
            if self.last_draw is not None:
                res = self._win_check(
                    self.turn, self.last_draw, "self_draw", None,
                    after_kong=self.after_kong, haidi=self.phase == "haidi", in_hand=True,
                )
            self._tsumo_cache = (res, self._last_fail, self._last_shape)
            self._last_fail = None
        return self._tsumo_cache[0]

    def tsumo_refusal(self) -> str | None:
        """Why the seat on turn may not declare 自摸 with a complete hand: the scorer's
        reason (``below_minimum``, ``pair_not_258``, ``two_laizi_small`` …), or None when
        it may, or when the hand is not a complete, opened, special-free shape after a
        draw (nothing to refuse). For statistics; no state changes."""
        if self.phase != "turn" or self.after_claim or self.last_draw is None:
            return None
        seat = self.turn
        if not self.opened(seat):
            return None
        h = self.hands[seat]
        for k in self._special:
            if h[k]:
                return None
        if self._tsumo_result() is not None:
            return None
        assert self._tsumo_cache is not None
        # the win check's pre-check got past its special/opened tests, so it has
        # tested the regular shape (laizi as wilds) and kept the answer
        _, res, shape = self._tsumo_cache
        if not shape:
            return None
        if res is None:  # rejected before scoring: ask the scorer for its reason
            without = list(h)
            without[self.last_draw] -= 1
            res = self._score(seat, self.last_draw, "self_draw", None, without,
                              after_kong=self.after_kong)
        return None if res.ok else (res.reason or "not_a_win")

    # -------------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> None:
        """Apply one seat's action. Raises :class:`IllegalActionError` (state unchanged)."""
        if self.phase == "over":
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
        tsumo = self._tsumo_cache[0] if self._tsumo_cache is not None else None
        self._turn_cache = None
        self._tsumo_cache = None
        if ph == "turn":
            self._apply_turn(seat, action, tsumo)
        elif ph == "claim":
            self._respond(seat, action)
            if len(self.responses) == len(self.options):
                self._resolve_claims()
        elif ph == "rob":
            self._respond(seat, action)
            if len(self.responses) == len(self.options):
                self._resolve_rob()
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
                tsumo = self._tsumo_result()
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
            self._draw_back(s)
        elif t == "special_kong" or t == "laizi_kong":
            h[k] -= 1
            self.special_kongs[s].append(k)
            self._emit({"type": t, "seat": s, "tile": TILE_STR[k]})
            self._draw_back(s)
        elif t == "addkong":
            h[k] -= 1
            self._emit({"type": "addkong", "seat": s, "tile": TILE_STR[k]})
            opts: dict[int, tuple[Action, ...]] = {}
            self._ron_results = {}
            for i in (1, 2, 3):
                o = (s + i) % 4
                res = self._win_check(o, k, "rob_kong", s)
                if res is not None:
                    self._ron_results[o] = res
                    opts[o] = (_RON[k], PASS)
            if opts:
                self.phase = "rob"
                self.pending = k
                self.options = opts
                self.responses = {}
            else:
                self._complete_addkong(s, k)
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

    def _complete_addkong(self, s: int, k: int) -> None:
        melds = self.melds[s]
        for i, m in enumerate(melds):
            if m.type == "peng" and m.tile == k:
                melds[i] = Meld("addkong", k, m.from_seat)
                break
        self._draw_back(s)

    # ------------------------------------------------------------------- claims
    def _claim_options(self, s: int, d: int, t: int) -> tuple[Action, ...]:
        h = self.hands[s]
        opts: list[Action] = []
        res = self._win_check(s, t, "discard", d)
        if res is not None and self.rules.guoshou and self.guoshou[s]:
            key = _guoshou_key(t)
            for gk, total in self.guoshou[s]:
                if gk == key and res.total <= total:
                    res = None
                    break
        if res is not None:
            self._ron_results[s] = res
            opts.append(_RON[t])
        c = h[t]
        if c >= 3 and self.wall_remaining >= KONG_MIN_WALL:
            opts.append(_KONG[t])
        if c >= 2:
            opts.append(_PENG[t])
        if s == (d + 1) % 4 and t < 27:
            lz = self.setup.laizi
            special = self.setup.special
            n = t % 9
            for base in (t - 2, t - 1, t):
                bn = n - (t - base)
                if bn < 0 or bn > 6:
                    continue
                ok = True
                for x in (base, base + 1, base + 2):
                    if x == t:
                        continue
                    if not h[x] or x == lz or x in special:
                        ok = False
                        break
                if ok:
                    opts.append(_CHI[base])
        if opts:
            opts.append(PASS)
        return tuple(opts)

    def _open_claims(self, d: int, t: int) -> None:
        self._ron_results = {}
        opts: dict[int, tuple[Action, ...]] = {}
        for i in (1, 2, 3):
            s = (d + i) % 4
            o = self._claim_options(s, d, t)
            if o:
                opts[s] = o
        if not opts:
            self._draw_front((d + 1) % 4)
            return
        self.phase = "claim"
        self.turn = d
        self.pending = t
        self.options = opts
        self.responses = {}

    def _pick_winner(self, seats: list[int], source: int) -> int:
        start = self.dealer if self.rules.win_priority == "dealer" else (source + 1) % 4
        for i in range(4):
            s = (start + i) % 4
            if s in seats:
                return s
        raise AssertionError("no winner")  # pragma: no cover

    def _close_window(self) -> tuple[int, int, dict[int, Action]]:
        d = self.turn
        t = self.pending
        assert t is not None
        responses = self.responses
        self.options = {}
        self.responses = {}
        self.pending = None
        return d, t, responses

    def _resolve_claims(self) -> None:
        if self.rules.guoshou:
            for s, res in self._ron_results.items():
                if self.responses[s].type != "ron":
                    assert self.pending is not None
                    self.guoshou[s].append((_guoshou_key(self.pending), res.total))
        d, t, responses = self._close_window()
        rons = [s for s, a in responses.items() if a.type == "ron"]
        if rons:
            w = self._pick_winner(rons, d)
            self._win(w, t, "discard", d, self._ron_results[w])
            return
        self._ron_results = {}
        for s, a in responses.items():
            if a.type == "kong":
                self.rivers[d].pop()
                self.hands[s][t] -= 3
                self.melds[s].append(Meld("kong", t, d))
                self._emit({"type": "kong", "seat": s, "tile": TILE_STR[t], "from": d})
                self._draw_back(s)
                return
        for s, a in responses.items():
            if a.type == "peng":
                self.rivers[d].pop()
                self.hands[s][t] -= 2
                self.melds[s].append(Meld("peng", t, d))
                self._emit({"type": "peng", "seat": s, "tile": TILE_STR[t], "from": d})
                self._claimed_turn(s)
                return
        for s, a in responses.items():
            if a.type == "chi":
                assert a.tile is not None
                base = a.tile
                self.rivers[d].pop()
                h = self.hands[s]
                for x in (base, base + 1, base + 2):
                    if x != t:
                        h[x] -= 1
                self.melds[s].append(Meld("chi", base, d))
                self._emit({
                    "type": "chi", "seat": s, "tile": TILE_STR[t], "from": d,
                    "run": TILE_STR[base],
                })
                self._claimed_turn(s)
                return
        self._draw_front((d + 1) % 4)

    def _claimed_turn(self, s: int) -> None:
        self.phase = "turn"
        self.turn = s
        self.after_claim = True
        self.after_kong = False
        self.last_draw = None

    def _resolve_rob(self) -> None:
        k, t, responses = self._close_window()
        rons = [s for s, a in responses.items() if a.type == "ron"]
        if rons:
            w = self._pick_winner(rons, k)
            self._win(w, t, "rob_kong", k, self._ron_results[w])
            return
        self._ron_results = {}
        self._complete_addkong(k, t)

    # -------------------------------------------------------------------- draws
    def _give(self, s: int, t: int, src: str, after_kong: bool) -> None:
        self.hands[s][t] += 1
        self.last_draw = t
        self.after_kong = after_kong
        self.after_claim = False
        self.phase = "turn"
        self.turn = s
        if self.guoshou[s]:
            self.guoshou[s] = []
        self._emit({"type": "draw", "seat": s, "tile": TILE_STR[t], "src": src, "vis": s})

    def _draw_front(self, s: int) -> None:
        if self.wall_remaining <= HAIDI_WALL:
            self.haidi_n = 0
            self._haidi_from(s)
            return
        t = self.wall[self.front]
        self.front += 1
        self._give(s, t, "front", False)

    def _draw_back(self, s: int) -> None:
        t = self.wall[self.back]
        self.back -= 1
        self._give(s, t, "back", True)

    def _haidi_from(self, s: int) -> None:
        while self.haidi_n < 4:
            t = self.wall[self.front]
            self.front += 1
            self.haidi_n += 1
            self._give(s, t, "haidi", False)
            self.phase = "haidi"
            self._tsumo_cache = None
            if self._tsumo_result() is not None:
                return
            s = (s + 1) % 4
        self._tsumo_cache = None
        self._drawn()

    # -------------------------------------------------------------------- endings
    def _win(
        self, w: int, tile: int, by: WinBy, from_seat: int | None, res: ScoreResult,
        *, after_kong: bool = False, haidi: bool = False,
    ) -> None:
        if by == "discard":
            assert from_seat is not None
            self.rivers[from_seat].pop()
        if by != "self_draw":
            self.hands[w][tile] += 1
        self.phase = "over"
        self.turn = w
        self._ron_results = {}
        self.payments = [float(p) for p in res.payments]
        self.result = {
            "winner": w, "by": by, "from": from_seat, "tile": TILE_STR[tile],
            "after_kong": after_kong, "haidi": haidi, "score": res.to_dict(),
        }
        self._emit({
            "type": "win", "seat": w, "by": by, "from": from_seat, "tile": TILE_STR[tile],
            "after_kong": after_kong, "haidi": haidi,
            "hand": counts_to_str(self.hands[w]),
            "melds": [_meld_json(m) for m in self.melds[w]],
            "score": res.to_dict(),
        })
        self._end_hand()

    def _drawn(self) -> None:
        self.phase = "over"
        self.payments = [0.0, 0.0, 0.0, 0.0]
        self.result = None
        self._emit({"type": "ryukyoku", "reason": "exhausted"})
        self._end_hand()

    def _end_hand(self) -> None:
        self._emit({
            "type": "end_hand", "hand": self.hand_no,
            "seed": None if self.seed is None else self.seed.hex(),
            "wall": wall_to_str(self.wall),
            "hands": [counts_to_str(h) for h in self.hands],
            "deltas": list(self.payments or [0.0] * 4),
            "winner": None if self.result is None else self.result["winner"],
        })

    def _emit(self, event: Event) -> None:
        event["v"] = len(self.log) + 1
        if "vis" not in event:
            event["vis"] = "public"
        self.log.append(event)

    # ------------------------------------------------------------ inspection
    def tile_total(self) -> list[int]:
        """How many tiles of each kind are accounted for (136 = 4 of each, always)."""
        c = [0] * 34
        for k in self.wall[self.front:self.back + 1]:
            c[k] += 1
        c[self.indicator] += 1
        for s in range(4):
            h = self.hands[s]
            for k in range(34):
                c[k] += h[k]
            for m in self.melds[s]:
                for k in m.tiles():
                    c[k] += 1
            for lst in (self.rivers[s], self.special_kongs[s], self.special_discards[s]):
                for k in lst:
                    c[k] += 1
        if self.phase == "rob" and self.pending is not None:
            c[self.pending] += 1  # the 蓄杠 tile being robbed or not
        return c

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-able data (hidden parts included: for hashing and saving)."""
        return {
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "rules": self.rules.model_dump(mode="json"),
            "seed": None if self.seed is None else self.seed.hex(),
            "wall": list(self.wall),
            "front": self.front,
            "back": self.back,
            "hands": [list(h) for h in self.hands],
            "melds": [[str(m) for m in ms] for ms in self.melds],
            "rivers": [list(r) for r in self.rivers],
            "special_kongs": [list(x) for x in self.special_kongs],
            "special_discards": [list(x) for x in self.special_discards],
            "phase": self.phase,
            "turn": self.turn,
            "last_draw": self.last_draw,
            "after_claim": self.after_claim,
            "after_kong": self.after_kong,
            "haidi_n": self.haidi_n,
            "pending": self.pending,
            "options": {str(s): [a.to_json() for a in o] for s, o in sorted(self.options.items())},
            "responses": {str(s): a.to_json() for s, a in sorted(self.responses.items())},
            "guoshou": [list(map(list, g)) for g in self.guoshou],
            "fanbao": list(self.fanbao),
            "result": self.result,
            "payments": self.payments,
            "events": len(self.log) - self.log_start,
        }

    def hash(self) -> str:
        """SHA-256 of the canonical JSON of :meth:`to_dict`."""
        data = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(data.encode()).hexdigest()

    def clone(self) -> HandState:
        """An independent copy (with its own copy of the log)."""
        c = HandState.__new__(HandState)
        for name in HandState.__slots__:
            setattr(c, name, getattr(self, name))
        c.hands = [list(h) for h in self.hands]
        c.melds = [list(m) for m in self.melds]
        c.rivers = [list(r) for r in self.rivers]
        c.special_kongs = [list(x) for x in self.special_kongs]
        c.special_discards = [list(x) for x in self.special_discards]
        c.options = dict(self.options)
        c.responses = dict(self.responses)
        c.guoshou = [list(g) for g in self.guoshou]
        c.log = [dict(e) for e in self.log]
        c._ron_results = dict(self._ron_results)
        c.fanbao = list(self.fanbao)
        c._waits_memo = {}
        return c

    def __repr__(self) -> str:
        return (f"HandState(hand={self.hand_no}, dealer={self.dealer}, phase={self.phase}, "
                f"turn={self.turn}, wall={self.wall_remaining})")


assert WALL_SIZE == 136
