"""Win checks: may a seat win with a tile, and what does the scorer say?

A win is offered only when :func:`laizi.scoring.score` says ``ok`` (legal and at least
the minimum). Scoring is slow, so a cheap prefilter rejects hopeless hands first: a
special tile held, not opened (unless ``jiayu_hands``), neither the regular shape
(:func:`laizi.analysis.can_win` with the laizi as wilds, with a 2/5/8 pair or a hand
that can do without one) nor a loose 风一色/将一色 or 七对 shape.

:meth:`WinChecker.check` returns a :class:`WinCheck` saying what it found: the legal
win's score, the scorer's refusal, whether the regular shape was complete. Nothing is
kept on the side; the caller decides what to cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

from laizi.analysis.decompose import seven_pairs_wilds
from laizi.analysis.fast import can_win, waits  # unchecked hot path
from laizi.rules import RuleSet, TableSetup
from laizi.scoring import Meld, PlayerTable, ScoreResult, WinContext, score
from laizi.scoring.model import WinBy
from laizi.tiles import FENG_KINDS, JIANG_SET, NUM_KINDS

__all__ = ["NO_WIN", "Table", "WinCheck", "WinChecker"]

_FENG: Final = FENG_KINDS
_JIANG: Final = JIANG_SET
_NOT_FENG: Final = tuple(k for k in range(NUM_KINDS) if k not in _FENG)
_NOT_JIANG: Final = tuple(k for k in range(NUM_KINDS) if k not in _JIANG)

_TRIPLET_COST: Final = (0, 2, 1, 0, 2)  # wilds to make only triplets of c copies
_PAIR_COST: Final = (2, 1, 0, 2, 1)  # wilds to make triplets plus the pair from c copies


class Table(Protocol):
    """What a win check reads of the table (a :class:`~laizi.game.state.HandState`)."""

    dealer: int
    hands: list[list[int]]
    melds: list[list[Meld]]
    special_kongs: list[list[int]]
    special_discards: list[list[int]]
    fanbao: list[int | None]


@dataclass(frozen=True, slots=True)
class WinCheck:
    """What one win check found.

    ``result``: the score of a legal win (``ok``), else ``None``. ``refused``: the
    scorer's answer when it was asked and refused (``ok`` false, with its ``reason``).
    ``shape``: the regular shape (laizi as wilds) is complete; tested only once the
    seat holds no special tile and has opened (or may win unopened), else ``False``.
    """

    result: ScoreResult | None = None
    refused: ScoreResult | None = None
    shape: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))

    @property
    def ok(self) -> bool:
        """A legal win (its score is :attr:`result`)."""
        return self.result is not None


NO_WIN: Final = WinCheck()
_SHAPE_ONLY: Final = WinCheck(shape=True)  # complete shape, rejected before scoring


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


def _one_suit(nat: list[int], melds: list[Meld]) -> bool:
    suits = {m.tile // 9 for m in melds}
    for k in range(NUM_KINDS):
        if nat[k]:
            suits.add(k // 9)
            if len(suits) > 1:
                return False
    return len(suits) == 1 and min(suits) < 3


def _expand(counts: Sequence[int]) -> tuple[int, ...]:
    out: list[int] = []
    for k, c in enumerate(counts):
        if c:
            out.extend([k] * c)
    return tuple(out)


@mypyc_attr(serializable=True)  # pickled with a HandState: restored without __init__
class WinChecker:
    """The win checks of one hand (its rules and laizi), with a per-hand memo of waits."""

    __slots__ = ("rules", "setup", "special", "_waits_memo")

    def __init__(self, rules: RuleSet, setup: TableSetup) -> None:
        self.rules = rules
        self.setup = setup
        self.special = tuple(sorted(setup.special))
        # concealed counts -> (regular waits, all-风 hand, all-将 hand)
        self._waits_memo: dict[bytes, tuple[frozenset[int], bool, bool]] = {}

    def fresh(self) -> WinChecker:
        """A checker for the same hand with an empty memo (for a cloned state)."""
        return WinChecker(self.rules, self.setup)

    # ------------------------------------------------------------ the check
    def check(
        self, table: Table, seat: int, tile: int, by: WinBy, from_seat: int | None,
        *, after_kong: bool = False, haidi: bool = False, in_hand: bool = False,
    ) -> WinCheck:
        """May ``seat`` win with ``tile`` (``in_hand``: already in its hand, a self-draw)?"""
        h = table.hands[seat]
        if not in_hand and not self.may_win_on(table, seat, tile):
            return NO_WIN
        counts = list(h)
        if not in_hand:
            counts[tile] += 1
        passed, shape = self.prefilter(table.melds[seat], counts)
        if not passed:
            return _SHAPE_ONLY if shape else NO_WIN
        without = list(counts)
        without[tile] -= 1
        res = self.score(table, seat, tile, by, from_seat, without, after_kong=after_kong, haidi=haidi)
        if res.ok:
            return WinCheck(result=res, shape=shape)
        return WinCheck(refused=res, shape=shape)

    def prefilter(self, melds: list[Meld], counts: list[int]) -> tuple[bool, bool]:
        """Cheap necessary conditions for a win (``counts`` include the winning tile):
        (may be a win, the regular shape is complete — ``False`` if not tested)."""
        for k in self.special:
            if counts[k]:
                return False, False
        rules = self.rules
        if not rules.jiayu_hands and not any(m.type != "ankong" for m in melds):
            return False, False
        lz = self.setup.laizi
        wild = counts[lz]
        nat = list(counts)
        nat[lz] = 0
        shape = can_win(nat, wild)
        # Check 5: without a 258 pair only 碰碰胡/清一色/风一色/将一色 (七对) can win.
        if shape and (
            can_win(nat, wild, pair258=True)
            or (wild >= 2 and lz in _JIANG)  # a 2/5/8 pair of laizi, one natural at least
            or (not any(m.type == "chi" for m in melds) and _pengpeng_possible(nat, wild))
            or _one_suit(nat, melds)  # 清一色 possible
        ):
            return True, shape
        if rules.luan_feng_jiang:
            for category, outside in ((_FENG, _NOT_FENG), (_JIANG, _NOT_JIANG)):
                if any(nat[k] for k in outside):
                    continue
                if all(x in category for m in melds for x in m.tiles()):
                    return True, shape
        return bool(rules.jiayu_hands and not melds and seven_pairs_wilds(nat, wild)), shape

    def may_win_on(self, table: Table, seat: int, tile: int) -> bool:
        """Fast necessary condition for winning on another seat's tile: the regular shape
        (laizi as wilds) waits on it, or a loose 风一色/将一色 or 七对 shape is possible."""
        rules = self.rules
        if rules.jiayu_hands:
            return True
        h = table.hands[seat]
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

    def is_ready(self, table: Table, seat: int) -> bool:
        """听牌 (听胡, as 下小雨 and 反包 read it): some tile would let the seat win by
        self-draw now — every check of RULES §6 but the minimum, which depends on the price,
        not on the tiles: the shape with a 258 pair or a big hand that waives it, the laizi
        count, no special tile held, opened (docs/rules-choices.md). A hand whose only wait
        is a pair of 3s in a small hand, or that still holds a 红中, is not ready."""
        h = table.hands[seat]
        lz = self.setup.laizi
        nat = list(h)
        nat[lz] = 0
        if not waits(nat, h[lz]) and not self.rules.luan_feng_jiang and not self.rules.jiayu_hands:
            return False  # no shape at all (the cheap common case)
        melds = table.melds[seat]
        for t in range(NUM_KINDS):
            if t in self.special:
                continue
            counts = list(h)
            counts[t] += 1
            if not self.prefilter(melds, counts)[0]:
                continue
            res = self.score(table, seat, t, "self_draw", None, list(h))
            if res.ok or res.reason == "below_minimum":
                return True
        return False

    def score(
        self, table: Table, winner: int, tile: int, by: WinBy, from_seat: int | None,
        hand: list[int], *, after_kong: bool = False, haidi: bool = False,
    ) -> ScoreResult:
        """Score a candidate win; ``hand`` is the winner's concealed counts without ``tile``."""
        ready = False
        if by == "discard" and from_seat is not None:
            wm = table.melds[winner]
            if len(wm) == 4 and all(m.type != "ankong" for m in wm):
                ready = self.is_ready(table, from_seat)
        players = tuple(
            PlayerTable(
                # the scorer reads the winner's concealed tiles (and, for 下小雨's
                # all-258 exemption, the discarder's)
                hand=_expand(hand) if s == winner else (
                    _expand(table.hands[s]) if s == from_seat and self.rules.xiaoyu_258 else ()),
                melds=tuple(table.melds[s]),
                special_kongs=tuple(table.special_kongs[s]),
                special_discards=tuple(table.special_discards[s]),
                ready=ready and s == from_seat,
                fanbao=table.fanbao[winner] == s,
            )
            for s in range(4)
        )
        p4: tuple[PlayerTable, PlayerTable, PlayerTable, PlayerTable] = (
            players[0], players[1], players[2], players[3])
        ctx = WinContext(
            rules=self.rules, setup=self.setup, dealer=table.dealer, winner=winner, tile=tile,
            by=by, players=p4, from_seat=from_seat, after_kong=after_kong, haidi=haidi,
        )
        return score(ctx)
