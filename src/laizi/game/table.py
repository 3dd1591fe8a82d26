"""The tiles of one hand and how they move: wall, hands, melds, rivers; draws, the
haidi phase, the endings, the event log, and inspection (conservation, hash, clone).

:class:`HandTable` is the base of :class:`laizi.game.state.HandState`; the claim
window (:mod:`laizi.game.claims`) and the decisions (:mod:`laizi.game.state`) build
on it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Final

from laizi.game.actions import ACT, Action
from laizi.game.enums import DrawReason, Phase
from laizi.game.errors import GameError
from laizi.game.events import Event
from laizi.game.wall import INDICATOR_POS, wall_to_str
from laizi.game.wincheck import NO_WIN, WinCheck, WinChecker
from laizi.rules import RuleSet, TableSetup
from laizi.scoring import Meld, ScoreResult
from laizi.scoring.model import WinBy
from laizi.tiles import NUM_KINDS, SUITS, TILE_STR

__all__ = ["HAIDI_WALL", "KONG_MIN_WALL", "HandTable"]

# enum members as module constants (member lookup is slow on the hot path)
_HAIDI: Final = Phase.HAIDI
_OVER: Final = Phase.OVER
_REPLACE: Final = Phase.REPLACE
_ROB: Final = Phase.ROB
_TURN: Final = Phase.TURN

_ANKONG: Final = ACT["ankong"]
_ADDKONG: Final = ACT["addkong"]
_SPECIAL_KONG: Final = ACT["special_kong"]
_LAIZI_KONG: Final = ACT["laizi_kong"]

HAIDI_WALL: Final = 14  # the haidi phase starts when a normal draw is due with this many left
KONG_MIN_WALL: Final = 15  # a kong needs at least this many tiles in the wall (RULES.md §8)
# (the defaults; ``rules.haidi_start="five_stacks"`` moves both down by 4: 10 and 11)


def ordered_str(tiles: Sequence[int]) -> str:
    """Tiles in mpsz notation, one name per tile, in their order."""
    return "".join(TILE_STR[k] for k in tiles)


_DIGIT: Final = tuple(str(n + 1) for n in range(9))


def hand_str(counts: Sequence[int]) -> str:
    """``laizi.tiles.counts_to_str(counts)`` (the same string: digits ascending, one per
    copy, each suit's letter after its digits), here so that the compiled build
    writes the end-of-hand events without calling into the pure ``tiles`` module."""
    parts: list[str] = []
    for s in range(4):
        base = 9 * s
        digits = "".join([_DIGIT[n] * counts[base + n] for n in range(7 if s == 3 else 9)])
        if digits:
            parts.append(digits + SUITS[s])
    return "".join(parts)


def meld_json(m: Meld) -> dict[str, Any]:
    d: dict[str, Any] = {"type": m.type, "tile": TILE_STR[m.tile]}
    if m.from_seat is not None:
        d["from"] = m.from_seat
    return d


# every attribute of a hand: HandTable.__slots__, and what _copy_into copies (a module
# constant, since a compiled HandTable is a native class without a __slots__ attribute)
_FIELDS: Final = (
    "rules", "setup", "dealer", "hand_no", "seed", "wall", "commitment", "front", "back",
    "hands", "melds", "rivers", "special_kongs", "special_discards",
    "phase", "turn", "last_draw", "after_claim", "after_kong", "haidi_n", "pending",
    "options", "responses", "guoshou", "result", "payments", "log", "log_start",
    "_special", "_turn_cache", "_tsumo", "_ron_results", "fanbao", "_checker",
)


class HandTable:
    """The state of one hand's table (see :class:`laizi.game.state.HandState`)."""

    __slots__ = _FIELDS

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
    _tsumo: WinCheck | None  # the self-draw check of the seat on turn (None: not made yet)
    _ron_results: dict[int, ScoreResult]  # the wins offered in the open claim/rob window
    fanbao: list[int | None]
    _checker: WinChecker

    # --------------------------------------------------------------- properties
    @property
    def wall_remaining(self) -> int:
        """Tiles left to draw (front and back together)."""
        return self.back - self.front + 1

    @property
    def over(self) -> bool:
        return self.phase == _OVER

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

    def is_ready(self, seat: int) -> bool:
        """听牌: some tile would let the seat win by self-draw now (minimum aside; :meth:`WinChecker.is_ready`)."""
        return self._checker.is_ready(self, seat)

    def forget_caches(self) -> None:
        """Drop every cached answer (turn actions, win checks, waits): for code that
        rewrote the table's tiles directly (:func:`laizi.game.position.position`)."""
        self._turn_cache = None
        self._tsumo = None
        self._ron_results = {}
        self._checker = self._checker.fresh()

    # --------------------------------------------------------------- self-draw
    def tsumo_check(self) -> WinCheck:
        """The self-draw win check of the seat on turn (cached until the next action)."""
        got = self._tsumo
        if got is None:
            if self.last_draw is None:
                got = NO_WIN
            else:
                got = self._checker.check(
                    self, self.turn, self.last_draw, "self_draw", None,
                    after_kong=self.after_kong, haidi=self.phase == _HAIDI, in_hand=True,
                )
            self._tsumo = got
        return got

    # -------------------------------------------------------------------- draws
    def _give(self, s: int, t: int, src: str, after_kong: bool) -> None:
        self.hands[s][t] += 1
        self.last_draw = t
        self.after_kong = after_kong
        self.after_claim = False
        self.phase = _TURN
        self.turn = s
        if self.guoshou[s]:
            self.guoshou[s] = []
        self._emit({"type": "draw", "seat": s, "tile": TILE_STR[t], "src": src, "vis": s})

    def kong_allowed(self) -> bool:
        """May a kong be declared now (RULES.md §8): while the wall holds more than the
        haidi, or always under ``haidi_kongs`` (then without a replacement draw)."""
        return self.wall_remaining > self.rules.haidi_wall or self.rules.haidi_kongs

    def kong_actions(self, s: int) -> list[Action]:
        """Seat ``s``'s own-turn kongs (concealed, special, laizi, added) its tiles allow,
        whether or not the wall allows a kong now (:meth:`kong_allowed`)."""
        h = self.hands[s]
        lz = self.setup.laizi
        special = self.setup.special
        out: list[Action] = []
        for k in range(NUM_KINDS):
            c = h[k]
            if not c:
                continue
            if k == lz:
                out.append(_LAIZI_KONG[k])
            elif k in special:
                out.append(_SPECIAL_KONG[k])
            elif c == 4:
                out.append(_ANKONG[k])
        for m in self.melds[s]:
            if m.type == "peng" and h[m.tile]:
                out.append(_ADDKONG[m.tile])
        return out

    def _replacement(self, s: int) -> None:
        """After seat ``s``'s kong: the replacement draw from the back — or, under
        ``kong_draw_choice`` (S0 "杠牌后可以选择不从牌堆后面起牌"), the ``replace`` phase where
        the seat chooses (:meth:`_replace_choice`); once the wall is down to the haidi
        (``haidi_kongs``, S0 "不能从牌堆后面起牌") no draw and no discard: the next seat
        draws (or takes its haidi tile)."""
        if self.wall_remaining > self.rules.haidi_wall:
            if self.rules.kong_draw_choice:
                self.phase = _REPLACE
                self.turn = s
                self.last_draw = None
                self.after_claim = False
                self.after_kong = False
                return
            self._draw_back(s)
        elif self.phase == _HAIDI or self.haidi_n:
            self._haidi_from((s + 1) % 4)
        else:
            self._draw_front((s + 1) % 4)

    def _replace_choice(self, s: int, draw: bool) -> None:
        """Seat ``s``'s answer in the ``replace`` phase (public): draw the replacement
        from the back (补, as without the option), or not (不补): no draw and no
        discard — the kong stands in for the turn's discard — and the next seat draws."""
        self._emit({"type": "replace", "seat": s, "draw": draw})
        if draw:
            self._draw_back(s)
        else:
            self._draw_front((s + 1) % 4)

    def _draw_front(self, s: int) -> None:
        if self.wall_remaining <= self.rules.haidi_wall:
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
            self.phase = _HAIDI
            self._tsumo = None
            if self.tsumo_check().ok or (self.rules.haidi_kongs and bool(self.kong_actions(s))):
                return
            s = (s + 1) % 4
        self._tsumo = None
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
        self.phase = _OVER
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
            "hand": hand_str(self.hands[w]),
            "melds": [meld_json(m) for m in self.melds[w]],
            "score": res.to_dict(),
        })
        self._end_hand()

    def _drawn(self, reason: DrawReason = DrawReason.EXHAUSTED) -> None:
        self.phase = _OVER
        self.payments = [0.0, 0.0, 0.0, 0.0]
        self.result = None
        self._emit({"type": "ryukyoku", "reason": reason.value})
        self._end_hand()

    def dissolve(self) -> None:
        """The players end the match by vote (解散) during this hand: it ends as a draw with
        no payments (``ryukyoku`` reason ``dissolved``); every tile stays where it is."""
        if self.phase == _OVER:
            raise GameError("the hand is over")
        self._drawn(DrawReason.DISSOLVED)

    def _end_hand(self) -> None:
        self._emit({
            "type": "end_hand", "hand": self.hand_no,
            "seed": None if self.seed is None else self.seed.hex(),
            "wall": wall_to_str(self.wall),
            "hands": [hand_str(h) for h in self.hands],
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
        c = [0] * NUM_KINDS
        for k in self.wall[self.front:self.back + 1]:
            c[k] += 1
        c[self.indicator] += 1
        for s in range(4):
            h = self.hands[s]
            for k in range(NUM_KINDS):
                c[k] += h[k]
            for m in self.melds[s]:
                for k in m.tiles():
                    c[k] += 1
            for lst in (self.rivers[s], self.special_kongs[s], self.special_discards[s]):
                for k in lst:
                    c[k] += 1
        if self.phase == _ROB and self.pending is not None:
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
            "phase": str(self.phase),
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

    def _copy_into(self, c: HandTable) -> None:
        """Make ``c`` (a bare instance) an independent copy of this state."""
        for name in _FIELDS:
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
        c._checker = self._checker.fresh()

    def __repr__(self) -> str:
        return (f"HandState(hand={self.hand_no}, dealer={self.dealer}, phase={self.phase}, "
                f"turn={self.turn}, wall={self.wall_remaining})")
