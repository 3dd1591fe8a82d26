"""A *reading* of a winning hand: one way its tiles (laizi included) make a winning shape."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from laizi.analysis.decompose import Decomposition
from laizi.scoring.model import PlayerTable, WinContext

Shape = Literal["regular", "luan_feng", "luan_jiang", "qidui"]

FENG_KINDS = frozenset({27, 28, 29, 30, 31, 32})  # winds, 白, 发
JIANG_KINDS = frozenset(k for k in range(27) if k % 9 in (1, 4, 7))


@dataclass(frozen=True, slots=True)
class Reading:
    """``kinds``: every kind the winner's tiles represent (melds included, wild groups with
    a fixed kind included, all-wild groups left out: they may be anything)."""

    shape: Shape
    hard: bool
    kinds: frozenset[int]
    decomposition: Decomposition | None = None

    def pair_258_natural(self) -> bool:
        """Check 5's pair: a suited 2/5/8 holding at least one natural tile."""
        if self.decomposition is None:
            return False
        pair = self.decomposition.pair
        return pair.kind is not None and pair.kind in JIANG_KINDS and pair.wilds < 2

    def pairs_win_tile_with_wild(self, tile: int) -> bool:
        if self.decomposition is None:
            return self.shape in ("luan_feng", "luan_jiang")
        pair = self.decomposition.pair
        return pair.kind == tile and pair.wilds == 1


def winner_table(ctx: WinContext) -> PlayerTable:
    return ctx.players[ctx.winner]
