"""Player actions: one small frozen dataclass with a JSON form.

======================  =====================================================  ==========
type                    meaning                                                ``tile``
======================  =====================================================  ==========
``discard``             discard a tile (a special tile or laizi counts as a    the tile
                        kong, RULES.md §3-§4)
``tsumo``               self-drawn win (also 海底捞 in the haidi phase)        --
``ankong``              concealed kong of four held tiles                      the kind
``addkong``             蓄杠: add the fourth tile to an own peng               the kind
``special_kong``        lay one special tile aside, draw from the back         the tile
``laizi_kong``          lay one laizi aside, draw from the back                the laizi
``ron``                 win on a discard, or rob a 蓄杠                        the tile
``kong``                直杠: claim a discard with three held                  the tile
``peng``                claim a discard with a held pair                       the tile
``chi``                 claim a discard into a run (下家 only)                 lowest tile of the run
``pass``                decline (claims, robbing, haidi)                       --
======================  =====================================================  ==========

JSON: ``{"type": "chi", "tile": "3m"}``; ``tile`` is omitted when there is none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from laizi.errors import LaiziError
from laizi.tiles import Tile

__all__ = ["ACT", "ACTION_TYPES", "Action", "ActionType", "PASS", "TSUMO"]

ActionType = Literal[
    "discard", "tsumo", "ankong", "addkong", "special_kong", "laizi_kong",
    "ron", "kong", "peng", "chi", "pass",
]
ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
_NO_TILE = frozenset({"tsumo", "pass"})

# Tile strings, precomputed (hot path of event building).
TILE_STR: tuple[str, ...] = tuple(str(Tile(k)) for k in range(34))
_TILE_INDEX = {s: k for k, s in enumerate(TILE_STR)}


def tile_str(kind: int) -> str:
    return TILE_STR[kind]


def tile_from_str(text: str) -> int:
    k = _TILE_INDEX.get(text)
    if k is None:
        return Tile.parse(text).index
    return k


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat. ``tile`` is a kind 0-33 (see the module table)."""

    type: ActionType
    tile: int | None = None

    def __post_init__(self) -> None:
        if self.type not in ACTION_TYPES:
            raise LaiziError(f"unknown action type {self.type!r}")
        if self.type in _NO_TILE:
            if self.tile is not None:
                raise LaiziError(f"action {self.type!r} takes no tile")
        elif self.tile is None or not 0 <= self.tile < 34:
            raise LaiziError(f"action {self.type!r} needs a tile 0-33")

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        if self.tile is None:
            return {"type": self.type}
        return {"type": self.type, "tile": TILE_STR[self.tile]}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise LaiziError(f"bad action {data!r}: expected an object with a 'type'")
        tile = data.get("tile")
        if tile is not None:
            if isinstance(tile, int) and not isinstance(tile, bool):
                kind = tile
            elif isinstance(tile, str):
                kind = tile_from_str(tile)
            else:
                raise LaiziError(f"bad action tile {tile!r}")
        else:
            kind = None
        return cls(data["type"], kind)

    def __str__(self) -> str:
        if self.tile is None:
            return self.type
        if self.type == "chi":
            t = Tile(self.tile)
            return f"chi {t.number}{t.number + 1}{t.number + 2}{t.suit}"
        return f"{self.type} {TILE_STR[self.tile]}"

    # ---------------------------------------------------------- constructors
    @classmethod
    def discard(cls, tile: int) -> Action:
        return cls("discard", int(tile))

    @classmethod
    def chi(cls, lowest: int) -> Action:
        return cls("chi", int(lowest))


PASS = Action("pass")
TSUMO = Action("tsumo")

# Interned actions per (type, kind) for the hot path: ACT["discard"][k].
ACT: dict[str, tuple[Action, ...]] = {
    t: tuple(Action(t, k) for k in range(34))  # type: ignore[arg-type]
    for t in ACTION_TYPES if t not in _NO_TILE
}
