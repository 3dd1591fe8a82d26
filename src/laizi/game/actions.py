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
``draw``                after a kong, draw the replacement from the back       --
                        (``kong_draw_choice``: phase ``replace``)
``nodraw``              after a kong, decline the replacement (不补): no       --
                        discard, the next seat draws (``kong_draw_choice``)
======================  =====================================================  ==========

JSON: ``{"type": "chi", "tile": "3m"}``; ``tile`` is omitted when there is none.
Text: ``Action.parse("chi 345m")`` / ``str(action)``.
"""

from __future__ import annotations

import contextlib
import operator
from dataclasses import dataclass
from typing import Any, Literal, get_args

from laizi.errors import ActionError, ActionParseError, TileParseError
from laizi.tiles import NUM_KINDS, TILE_STR, Tile, parse_tiles, tile_from_str

__all__ = ["ACT", "ACTION_TYPES", "DRAW", "NODRAW", "TILE_STR", "Action", "ActionType", "PASS",
           "TSUMO", "tile_from_str"]

ActionType = Literal[
    "discard", "tsumo", "ankong", "addkong", "special_kong", "laizi_kong",
    "ron", "kong", "peng", "chi", "pass", "draw", "nodraw",
]
ACTION_TYPES: tuple[str, ...] = get_args(ActionType)
_NO_TILE = frozenset({"tsumo", "pass", "draw", "nodraw"})


def _is_run_start(kind: int) -> bool:
    """A suited tile 1-7: the lowest tile of a run."""
    return kind < 27 and kind % 9 <= 6


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat. ``tile`` is a kind 0-33 (see the module table).

    Text form: ``str(action)`` (``"discard 5m"``, ``"chi 345m"``, ``"pass"``) and
    :meth:`parse` are inverses; ``repr`` is pasteable (``Action.parse('peng 7z')``).
    """

    type: ActionType
    tile: int | None = None

    def __post_init__(self) -> None:
        if self.type not in ACTION_TYPES:
            raise ActionError(f"unknown action type {self.type!r} (one of {', '.join(ACTION_TYPES)})")
        tile = self.tile
        if self.type in _NO_TILE:
            if tile is not None:
                raise ActionError(f"action {self.type!r} takes no tile")
            return
        if type(tile) is not int and tile is not None and not isinstance(tile, bool):
            with contextlib.suppress(TypeError):  # another integer type (numpy): as an int
                object.__setattr__(self, "tile", operator.index(tile))
            tile = self.tile
        if type(tile) is not int or not 0 <= tile < NUM_KINDS:
            raise ActionError(f"action {self.type!r} needs a tile kind 0-{NUM_KINDS - 1}")

    # ------------------------------------------------------------------ text
    @classmethod
    def parse(cls, text: str) -> Action:
        """An action from its text form: ``"discard 5m"``, ``"peng 中"``, ``"chi 345m"``
        (or the run's lowest tile, ``"chi 3m"``), ``"tsumo"``, ``"pass"``, ``"draw"``, ``"nodraw"``.
        Raises :class:`~laizi.errors.ActionParseError`."""
        if not isinstance(text, str):
            raise ActionParseError(text, "expected a string such as 'discard 5m'")
        parts = text.split()
        if not parts:
            raise ActionParseError(text, "empty")
        kind = parts[0].lower()
        if kind not in ACTION_TYPES:
            raise ActionParseError(text, f"unknown action type {parts[0]!r} "
                                         f"(one of {', '.join(ACTION_TYPES)})")
        if kind in _NO_TILE:
            if len(parts) > 1:
                raise ActionParseError(text, f"{kind!r} takes no tile")
            return _BARE[kind]
        if len(parts) != 2:
            raise ActionParseError(text, f"{kind!r} needs one tile, e.g. '{kind} 5m'")
        try:
            tiles = [t.index for t in parse_tiles(parts[1])]
        except TileParseError as exc:
            raise ActionParseError(text, exc.message) from None
        if kind == "chi":
            return cls("chi", _run_start(text, tiles))
        if len(tiles) != 1:
            raise ActionParseError(text, f"{kind!r} needs exactly one tile, got {len(tiles)}")
        return cls(kind, tiles[0])  # type: ignore[arg-type]

    def __str__(self) -> str:
        if self.tile is None:
            return self.type
        if self.type == "chi" and _is_run_start(self.tile):
            t = Tile(self.tile)
            return f"chi {t.number}{t.number + 1}{t.number + 2}{t.suit}"
        return f"{self.type} {TILE_STR[self.tile]}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        if self.tile is None:
            return {"type": self.type}
        return {"type": self.type, "tile": TILE_STR[self.tile]}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """An action from its JSON form; raises :class:`~laizi.errors.ActionParseError`."""
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise ActionParseError(data, "expected an object with a 'type'")
        tile = data.get("tile")
        if tile is not None:
            if isinstance(tile, int) and not isinstance(tile, bool):
                kind = tile
            elif isinstance(tile, str):
                try:
                    kind = tile_from_str(tile)
                except TileParseError as exc:
                    raise ActionParseError(data, exc.message) from None
            else:
                raise ActionParseError(data, f"bad tile {tile!r}")
        else:
            kind = None
        try:
            return cls(data["type"], kind)
        except ActionError as exc:
            raise ActionParseError(data, str(exc)) from None

    # ---------------------------------------------------------- constructors
    @classmethod
    def discard(cls, tile: int) -> Action:
        return cls("discard", int(tile))

    @classmethod
    def chi(cls, lowest: int) -> Action:
        return cls("chi", int(lowest))


def _run_start(text: str, tiles: list[int]) -> int:
    """The lowest tile of a chi written as a run (``345m``) or as its lowest tile."""
    if len(tiles) == 1:
        return tiles[0]
    ordered = sorted(tiles)
    if len(tiles) != 3 or ordered != list(range(ordered[0], ordered[0] + 3)) \
            or not _is_run_start(ordered[0]):
        raise ActionParseError(text, "a chi is a run of three suited tiles, e.g. 'chi 345m'")
    return ordered[0]


PASS = Action("pass")
TSUMO = Action("tsumo")
DRAW = Action("draw")
NODRAW = Action("nodraw")
_BARE = {"tsumo": TSUMO, "pass": PASS, "draw": DRAW, "nodraw": NODRAW}

# Interned actions per (type, kind) for the hot path: ACT["discard"][k].
ACT: dict[str, tuple[Action, ...]] = {
    t: tuple(Action(t, k) for k in range(NUM_KINDS))  # type: ignore[arg-type]
    for t in ACTION_TYPES if t not in _NO_TILE
}
