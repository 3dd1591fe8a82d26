"""摸牌定东, the seating ceremony (RULES.md §2; option ``seating_ceremony``, S0).

S0: "游戏开始前4位玩家每人随机摸一张牌翻开，按序数牌 >风牌>箭牌且若序数牌数字一样则按
筒>条>万的顺序确定上下家关系最大的为东，依次是南、西、北 … 打点（掷色子）确定东第一局该坐的
位置 … 2、6、10点则东换到现在的下手方向坐定，如果是3、7、11点则坐到对面若是4、8、12点就换到
上手方向，若是5、9点则不动其他玩家按刚才摸牌判断的顺序依次落坐。"

- Each player, at the seat where it sat down (its *place* 0-3), turns up one tile.
- Ranking, highest first: suited tiles above winds above dragons; suited tiles by number
  (9 highest), equal numbers 筒 > 条 > 万; winds 东 > 南 > 西 > 北; dragons 中 > 发 > 白.
  Two players with the same kind: the one at the lower place ranks higher (laizi's
  choice; the source is silent). The highest is 东, then 南, 西, 北.
- Two dice; their sum moves 东 from its place: 2, 6, 10 to its 下家 (+1); 3, 7, 11
  opposite (+2); 4, 8, 12 to its 上家 (+3); 5, 9 stays — a move of (sum − 1) mod 4.
- 东 sits there and deals first; 南 sits at 东 + 1 (its 下家), 西 at + 2, 北 at + 3.

>>> s = ceremony([Tile.parse("3m").index, Tile.parse("9p").index,
...               Tile.parse("1z").index, Tile.parse("3p").index], (2, 4))
>>> s.winds, s.east, s.seats
([2, 0, 3, 1], 2, [0, 2, 1, 3])
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from laizi.game.errors import GameError
from laizi.game.wall import derive_wall
from laizi.tiles import TILE_STR, Tile

__all__ = ["Seating", "ceremony", "draw_ceremony", "parse_seating", "tile_rank"]

_DICE_DOMAIN = b"laizi-seating-dice-v1"


def tile_rank(kind: int) -> tuple[int, int, int]:
    """Sort key of a ceremony tile, larger is higher (module docstring)."""
    if kind < 27:
        suit, n = divmod(kind, 9)  # kinds: 0-8 万 m, 9-17 筒 p, 18-26 条 s (laizi.tiles)
        by_suit = {0: 0, 1: 2, 2: 1}[suit]  # 筒 > 条 > 万
        return (2, n, by_suit)
    if kind <= 30:
        return (1, 30 - kind, 0)  # 东 27 > 南 > 西 > 北 30
    return (0, kind, 0)  # 白 31 < 发 32 < 中 33


@dataclass(frozen=True)
class Seating:
    """The result: ``tiles[p]`` turned up at place p, ``dice``, ``winds[p]`` (0 东 … 3 北)
    of the player at place p, ``east`` the seat of 东 (the first dealer) and
    ``seats[p]`` the seat the player at place p moves to."""

    tiles: tuple[int, int, int, int]
    dice: tuple[int, int]
    winds: list[int]
    east: int
    seats: list[int]

    def to_json(self) -> dict[str, Any]:
        return {"tiles": [TILE_STR[t] for t in self.tiles], "dice": list(self.dice),
                "winds": list(self.winds), "east": self.east, "seats": list(self.seats)}


def ceremony(tiles: Sequence[int], dice: Sequence[int]) -> Seating:
    """Seat four players from the tiles they turned up and the dice."""
    if len(tiles) != 4 or any(not 0 <= t < 34 for t in tiles):
        raise GameError("the seating ceremony needs four tiles, one per place")
    if len(dice) != 2 or any(isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise GameError("the seating ceremony needs two dice of 1-6")
    order = sorted(range(4), key=lambda p: (tile_rank(tiles[p]), -p), reverse=True)
    winds = [0] * 4
    for w, p in enumerate(order):
        winds[p] = w
    east = (order[0] + (sum(dice) - 1) % 4) % 4
    seats = [(east + winds[p]) % 4 for p in range(4)]
    return Seating((tiles[0], tiles[1], tiles[2], tiles[3]), (dice[0], dice[1]), winds, east, seats)


def draw_ceremony(seed: bytes) -> Seating:
    """The ceremony of a match seed, reproducible: the first four tiles of the wall of
    ``HMAC-SHA256(seed, b"seating")`` (laizi.game.wall's shuffle), and two dice read from
    ``HMAC-SHA256(seed, domain)`` bytes below 252, each ``1 + b % 6`` (no modulo bias)."""
    own = hmac.digest(seed, b"seating", "sha256")
    wall = derive_wall(own)
    dice = [1 + b % 6 for b in hmac.digest(seed, _DICE_DOMAIN, "sha256") if b < 252][:2]
    return ceremony(wall[:4], dice)


def parse_seating(data: Any) -> Seating:
    """A ceremony from its logged form (``to_json``), re-derived and checked."""
    try:
        tiles = [Tile.parse(t).index for t in data["tiles"]]
        got = ceremony(tiles, [int(d) for d in data["dice"]])
    except (KeyError, TypeError, ValueError) as exc:
        raise GameError(f"bad seating ceremony: {exc}") from None
    if got.to_json() != data:
        raise GameError("the logged seating does not follow from its tiles and dice")
    return got
