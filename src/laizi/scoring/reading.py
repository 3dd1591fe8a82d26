"""A *reading* of a winning hand: one way its tiles (laizi included) make a winning shape.

Big hands come in two kinds (RULES.md §6). *Shape* patterns look at how the tiles are
grouped (碰碰胡 needs four triplets, 七对 seven pairs, 全求人 its single tile pairing the
winning tile). *Tile* patterns (清一色; loose 风一色/将一色) look only at which kinds the
tiles are, through :func:`all_of`, so they hold on every reading of the hand, whatever
its shape: the regular decompositions, the ``jiayu`` 七对 reading and the loose shapes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final, Literal

from laizi.analysis.decompose import Decomposition
from laizi.scoring.model import PlayerTable, WinContext
from laizi.tiles import FENG_KINDS as TILE_FENG_KINDS
from laizi.tiles import JIANG_SET

Shape = Literal["regular", "luan_feng", "luan_jiang", "qidui"]

FENG_KINDS: Final = TILE_FENG_KINDS  # winds, 白, 发 (laizi.tiles owns the categories)
JIANG_KINDS: Final = JIANG_SET  # suited 2, 5, 8
SUIT_KINDS: Final[tuple[frozenset[int], ...]] = tuple(frozenset(range(9 * s, 9 * s + 9)) for s in range(3))


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of the winner's tiles.

    ``shape``: ``regular`` (4 sets + pair, ``decomposition`` set), ``qidui`` (seven pairs),
    ``luan_feng``/``luan_jiang`` (loose, any shape). ``kinds``: every kind the winner's
    tiles represent in this reading, on every shape alike: melds included, wildcards as the
    kind they complete (a wild group or pair with a natural tile), all-wild groups and pairs
    left out (they may be anything)."""

    shape: Shape
    hard: bool
    kinds: frozenset[int]
    decomposition: Decomposition | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))

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


def all_of(reading: Reading, category: frozenset[int]) -> bool:
    """Every tile of the reading (melds included, wildcards as the kinds they stand for) is
    of ``category``: the test of the tile patterns, the same on every shape."""
    return bool(reading.kinds) and reading.kinds <= category


def winner_table(ctx: WinContext) -> PlayerTable:
    return ctx.players[ctx.winner]
