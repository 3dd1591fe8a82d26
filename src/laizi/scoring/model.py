"""Inputs and outputs of the scorer: melds, a seat's table, the win context, the result."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from laizi.errors import MeldParseError
from laizi.rules import RuleSet, TableSetup
from laizi.tiles import Tile, parse_tiles

__all__ = [
    "REASONS", "Meld", "MeldType", "PlayerTable",
    "ScoreResult", "WinBy", "WinContext",
]

MeldType = Literal["chi", "peng", "kong", "addkong", "ankong"]
WinBy = Literal["discard", "self_draw", "rob_kong"]

# RULES.md §6 checks 1-7, in order.
REASONS: Final[tuple[str, ...]] = (
    "not_a_win", "holds_special", "not_open", "two_laizi_small", "pair_not_258",
    "jianzi_on_discard", "below_minimum",
)

_MELD_RE: Final = re.compile(r"^\s*(chi|peng|kong|addkong|ankong)\s+(\S+)(?:\s+from\s+(\S+))?\s*$")


@dataclass(frozen=True, slots=True)
class Meld:
    """A set laid on the table. ``tile`` is the lowest tile (chi) or the kind (others).

    ``claimed``: for a chi made at the table, which of its three tiles was taken from 上家
    (the table turns that one sideways, TABLE.md); None when not known (a meld parsed from
    text). It is presentation only: melds compare, hash and print without it, so scoring,
    the notation and a state's hash do not change with it.
    """

    type: MeldType
    tile: int
    from_seat: int | None = None
    claimed: int | None = field(default=None, compare=False)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Parse ``chi 123m from 0``, ``peng 9p from 3``, ``kong 8p from 2``, ``addkong 8p from 2``, ``ankong 1z``."""
        m = _MELD_RE.match(text)
        if not m:
            raise MeldParseError(f"bad meld {text!r} (expected e.g. 'peng 9p from 3' or 'ankong 1z')")
        mtype, tiles_text, frm = m.group(1), m.group(2), m.group(3)
        try:
            tiles = parse_tiles(tiles_text)
        except ValueError as exc:
            raise MeldParseError(f"bad meld {text!r}: {exc}") from None
        from_seat: int | None = None
        if frm is not None:
            if not frm.isdigit():
                raise MeldParseError(f"bad meld {text!r}: 'from' must be a seat 0-3")
            from_seat = int(frm)
        if mtype == "ankong":
            if from_seat is not None:
                raise MeldParseError(f"bad meld {text!r}: a concealed kong has no 'from'")
        elif from_seat is None:
            raise MeldParseError(f"bad meld {text!r}: needs 'from S'")
        if mtype == "chi":
            if len(tiles) != 3:
                raise MeldParseError(f"bad meld {text!r}: a chi is three tiles like 123m")
            ks = sorted(t.index for t in tiles)
            if ks[0] >= 27 or ks[0] // 9 != ks[2] // 9 or ks != [ks[0], ks[0] + 1, ks[0] + 2]:
                raise MeldParseError(f"bad meld {text!r}: a chi must be a run in one suit")
            return cls("chi", ks[0], from_seat)
        kinds = {t.index for t in tiles}
        if len(kinds) != 1:
            raise MeldParseError(f"bad meld {text!r}: expected one tile kind")
        size = 3 if mtype == "peng" else 4
        if len(tiles) not in (1, size):
            raise MeldParseError(f"bad meld {text!r}: expected 1 or {size} tiles")
        return cls(mtype, tiles[0].index, from_seat)  # type: ignore[arg-type]

    def tiles(self) -> list[int]:
        if self.type == "chi":
            return [self.tile, self.tile + 1, self.tile + 2]
        return [self.tile] * (3 if self.type == "peng" else 4)

    @property
    def opens(self) -> bool:
        """Chi, peng and exposed kongs open the hand (开口); a concealed kong does not."""
        return self.type != "ankong"

    @property
    def is_kong(self) -> bool:
        return self.type in ("kong", "addkong", "ankong")

    def __str__(self) -> str:
        if self.type == "chi":
            t = Tile(self.tile)
            return f"chi {t.number}{t.number + 1}{t.number + 2}{t.suit} from {self.from_seat}"
        base = f"{self.type} {Tile(self.tile)}"
        return base if self.from_seat is None else f"{base} from {self.from_seat}"

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class PlayerTable:
    """One seat's part of the table at the moment of the win.

    ``hand``: concealed tiles (the winner's *without* the winning tile).
    ``special_kongs``: special or laizi tiles laid aside as kongs.
    ``special_discards``: special or laizi tiles discarded (count per RULES.md §3-§4).
    ``ready``: was ready (听牌) when it discarded the winning tile (全求人 liability).
    ``fanbao``: under the ``fanbao`` option, this seat kept tiles of the winner's
    清一色 suit after its third opening and so owes 反包.
    """

    hand: tuple[int, ...] = ()
    melds: tuple[Meld, ...] = ()
    special_kongs: tuple[int, ...] = ()
    special_discards: tuple[int, ...] = ()
    ready: bool = False
    fanbao: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))

    @property
    def opened(self) -> bool:
        return any(m.opens for m in self.melds)


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything the scorer needs about one declared win."""

    rules: RuleSet
    setup: TableSetup
    dealer: int
    winner: int
    tile: int
    by: WinBy
    players: tuple[PlayerTable, PlayerTable, PlayerTable, PlayerTable]
    from_seat: int | None = None
    after_kong: bool = False
    haidi: bool = False

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy through the constructor: the compiled build's frozen
        # (native) class cannot be restored attribute by attribute
        return (type(self), tuple([getattr(self, f.name) for f in fields(self)]))


@dataclass(slots=True)
class ScoreResult:
    """The scorer's answer (fields as in SCORE_API.md)."""

    ok: bool
    reason: str | None
    big_hands: list[str] = field(default_factory=list)
    small: bool = True
    hard: bool = False
    base: int = 0
    winner_fan: int = 0
    loser_fan: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    raw: list[float] = field(default_factory=lambda: [0, 0, 0, 0])
    payments: list[float] = field(default_factory=lambda: [0, 0, 0, 0])
    liable: int | None = None
    topped_out: bool = False
    breakdown: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (lists copied); ``dataclasses.asdict`` without the deep walk."""
        return {
            "ok": self.ok, "reason": self.reason, "big_hands": list(self.big_hands),
            "small": self.small, "hard": self.hard, "base": self.base,
            "winner_fan": self.winner_fan, "loser_fan": list(self.loser_fan),
            "raw": list(self.raw), "payments": list(self.payments), "liable": self.liable,
            "topped_out": self.topped_out, "breakdown": list(self.breakdown),
        }

    @property
    def total(self) -> float | int:
        """What the winner receives: an int when whole, like the payments themselves."""
        # (read as objects: in the compiled build a ``float`` variable would turn the
        # payments' ints into floats, and 1200 would travel as 1200.0)
        pays: list[Any] = self.payments
        out: Any = 0
        for p in pays:
            if p < 0:
                out = out - p
        return out  # type: ignore[no-any-return]
