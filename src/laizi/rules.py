"""Rule sets: every option of RULES.md in one immutable, validated object, and the five presets.

>>> rules = RuleSet.preset("kaikoufan", min_points=32)
>>> rules.cap
300
>>> setup = rules.setup(indicator=Tile.parse("4z"))  # 北 turned up
>>> str(Tile(setup.laizi))
'6z'
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from laizi.errors import RuleError
from laizi.tiles import GREEN, NORTH, RED, Tile

__all__ = ["OPTION_RANGES", "OPTION_SETS", "PRESETS", "RuleSet", "TableSetup", "preset_names"]

MAX_POINTS = 100_000  # any point option (minimum, caps, escape penalty)
MAX_CLAIM_SECONDS = 600.0
MAX_FAN = 10
MAX_ROUNDS = 1_000_000  # long matches capped by max_hands (simulations, tests)
MAX_WINDS = 100_000

# Honour cycle for indicator → laizi: 东 南 西 北 中 发 白 (then 东 again).
_HONOR_CYCLE = (27, 28, 29, 30, 33, 32, 31)

SpecialTiles = Literal["zhong", "zhong_fa", "zhong_pizi"]


# Numeric options and their ranges (RuleError beyond them; NaN and infinities are rejected).
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]


class RuleSet(BaseModel):
    """Every rule option (RULES.md). Build with :meth:`preset`; options are keyword-only.

    Values are checked strictly: each option has its type (no ``"16"`` for 16, no ``1``
    for ``True``), numbers their range (``OPTION_RANGES``) and must be finite.
    ``repr`` is pasteable and short: the preset and the options that differ from it.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True, strict=True,
                              allow_inf_nan=False)

    preset_name: str = "kaikoufan"
    # §3 special tiles
    special_tiles: SpecialTiles = "zhong"
    # §4 laizi
    laizi_discard: Literal["kong", "half", "forbidden"] = "kong"
    laizi_may_be_fifth: bool = False
    # §5 claims
    win_priority: Literal["dealer", "discarder"] = "dealer"
    guoshou: bool = False
    claim_seconds: Annotated[float, Field(gt=0, le=MAX_CLAIM_SECONDS)] = 8.0
    # §6 winning
    jianzi_hu: bool = True
    luan_feng_jiang: bool = True
    jiayu_hands: bool = False  # 门前清 and 七对 are big hands and may win unopened
    # §7 scoring
    big_stack: Literal["double", "add"] = "double"
    big_factor: Literal["multiply", "fan"] = "multiply"  # ×1.5 (default) or +1 fan (jiayu)
    small_hand_fan: Annotated[int, Field(ge=0, le=MAX_FAN)] = 0  # jiayu: +1 fan of its own
    opening_fan: Literal["once", "per_opening", "none"] = "once"
    kong_avoids_sunshine: bool = False
    selfdraw_bonus_on_gangkai_haidi: bool = False
    min_points: Points = 16
    min_rule: Literal["each", "any", "two_sum"] = "each"
    cap: Points = 300
    golden: Points = 400
    sunshine: Points = 500
    ha: Points = 600
    sunshine_double: bool = False
    fanbao: bool = False
    quanqiuren_liability: Literal["unless_ready", "always", "none"] = "unless_ready"
    liable_pays: Literal["sum", "golden"] = "sum"
    # §7.5 house rules of the sources (all off by default)
    kuangfeng_baoyu: bool = False  # 狂风暴雨: 清一色 + 全求人 split between two liable seats
    xiaoyu_258: bool = False  # 下小雨: a discarder holding only natural 2/5/8 is not liable
    qianggang_fixed: Points = 0  # 抢杠: the robbed seat pays this fixed amount (0: scored)
    fengyise_golden: bool = False  # 风一色 counts as reaching the cap (金顶)
    pay_min_fan: Annotated[int, Field(ge=0, le=MAX_FAN)] = 0  # a loser under 2^n pays nothing
    # §8 end of the wall
    haidi_start: Literal["seven_stacks", "five_stacks"] = "seven_stacks"
    haidi_kongs: bool = False  # S0: kongs stay legal near and in the haidi, without replacement
    kong_draw_choice: bool = False  # S0: after a kong the seat may decline the replacement (不补)
    # §2, §9 match
    escape_penalty: Points = 400
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] = 1  # match length in rounds (圈)
    winds: Annotated[int, Field(ge=0, le=MAX_WINDS)] = 0  # match length in winds (风); 0: rounds
    rounds_per_wind: Annotated[int, Field(ge=4, le=5)] = 4  # 小风 4 圈, 大风 5 圈
    seating_ceremony: bool = False  # 摸牌定东: the first 东 (and dealer) by drawn tiles and dice

    @model_validator(mode="after")
    def _one_match_length(self) -> RuleSet:
        if self.winds and self.rounds != 1:
            raise ValueError("set the match length in rounds or in winds, not both "
                             f"(rounds={self.rounds}, winds={self.winds})")
        return self

    @property
    def match_rounds(self) -> int:
        """The match length in rounds (圈): ``winds`` × ``rounds_per_wind``, else ``rounds``."""
        return self.winds * self.rounds_per_wind if self.winds else self.rounds

    @property
    def laizi_discardable(self) -> bool:
        """Whether a seat may discard its laizi (RULES.md §4: not under
        ``laizi_discard="forbidden"``) — the engine's legal moves, the scorer's checks and
        the hints all ask here."""
        return self.laizi_discard != "forbidden"

    @property
    def haidi_wall(self) -> int:
        """Tiles left in the wall when the haidi phase starts (RULES.md §8): 14 (7 stacks,
        S1-S4) or 10 (S0: the haidi is the first two of the last 5 stacks)."""
        return 14 if self.haidi_start == "seven_stacks" else 10

    def __repr__(self) -> str:
        ref = _reference(self.preset_name)
        diffs = [f"{name}={getattr(self, name)!r}" for name in type(self).model_fields
                 if name != "preset_name" and getattr(self, name) != getattr(ref, name)]
        if self.preset_name in PRESETS:
            return f"RuleSet.preset({', '.join([repr(self.preset_name), *diffs])})"
        return f"RuleSet({', '.join([f'preset_name={self.preset_name!r}', *diffs])})"

    __str__ = __repr__

    # ----------------------------------------------------------------- building
    @classmethod
    def preset(cls, name: str = "kaikoufan", /, **overrides: Any) -> RuleSet:
        """A preset (RULES.md §7.6) with optional per-option overrides."""
        if name not in PRESETS:
            raise RuleError(f"unknown preset {name!r} (choose from {', '.join(PRESETS)})", "preset_name")
        return cls._build({**PRESETS[name], "preset_name": name, **overrides})

    def replace(self, **overrides: Any) -> RuleSet:
        """A copy with some options changed (validated)."""
        return self._build({**self.model_dump(), **overrides})

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """A rule set from its saved form (``model_dump``, the ``rules`` of a log or a
        room; removed options with their old value are accepted). Raises
        :class:`RuleError` with a one-line message."""
        if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
            raise RuleError("rules must be an object of options")
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise _rule_error(exc) from None

    @classmethod
    def _build(cls, values: dict[str, Any]) -> RuleSet:
        unknown = [k for k in values if k not in cls.model_fields]
        if unknown:
            raise RuleError(f"unknown rule option {unknown[0]!r}", unknown[0])
        try:
            return cls(**values)
        except ValidationError as exc:
            raise _rule_error(exc) from None

    # ------------------------------------------------------------ derivation
    def base_special_kinds(self) -> frozenset[int]:
        if self.special_tiles == "zhong_fa":
            return frozenset({RED, GREEN})
        return frozenset({RED})

    def succ(self, kind: int) -> int:
        """Next kind in the indicator cycle, skipping the fixed special tiles."""
        skip = self.base_special_kinds()
        k = kind
        while True:
            k = _step(k, +1)
            if k not in skip:
                return k

    def pred(self, kind: int) -> int:
        skip = self.base_special_kinds()
        k = kind
        while True:
            k = _step(k, -1)
            if k not in skip:
                return k

    def setup(self, *, indicator: Tile | int | None = None, laizi: Tile | int | None = None) -> TableSetup:
        """Laizi, special kinds and pizi from the indicator (or from the laizi alone)."""
        if indicator is None and laizi is None:
            raise RuleError("need an indicator or a laizi")
        ind = None if indicator is None else int(indicator)
        if ind is not None:
            read = NORTH if (ind == RED and self.special_tiles == "zhong_pizi") else ind
            lz = self.succ(read)
            if laizi is not None and int(laizi) != lz:
                raise RuleError(f"laizi {Tile(int(laizi))} does not follow indicator {Tile(ind)}")
        else:
            assert laizi is not None
            lz = int(laizi)
            if lz in self.base_special_kinds():
                raise RuleError(f"a special tile ({Tile(lz)}) cannot be the laizi")
            read = self.pred(lz)
        special = set(self.base_special_kinds())
        pizi: frozenset[int] = frozenset()
        if self.special_tiles == "zhong_pizi":
            pizi = frozenset({self.pred(read), read})
            special |= pizi
        return TableSetup(laizi=lz, special=frozenset(special), pizi=pizi, indicator=ind)


def _rule_error(exc: ValidationError) -> RuleError:
    """The first problem of a validation error, in one line."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "rules"
    if err["type"] == "extra_forbidden":
        return RuleError(f"unknown rule option {field!r}", field)
    msg = str(err["msg"]).removeprefix("Value error, ")
    if not err["loc"]:  # a check across options (winds and rounds)
        return RuleError(f"bad rule options: {msg}", "winds" if "winds" in msg else None)
    return RuleError(f"bad value for rule option {field!r}: {msg}", field)


def _step(kind: int, direction: int) -> int:
    if kind < 27:
        suit, n = divmod(kind, 9)
        return suit * 9 + (n + direction) % 9
    pos = _HONOR_CYCLE.index(kind)
    return _HONOR_CYCLE[(pos + direction) % 7]


@dataclass(frozen=True, slots=True)
class TableSetup:
    """What the indicator decides for one hand: the laizi kind, the special kinds, the pizi."""

    laizi: int
    special: frozenset[int]
    pizi: frozenset[int]
    indicator: int | None = None

    def __repr__(self) -> str:
        sp = "".join(str(Tile(k)) for k in sorted(self.special))
        ind = None if self.indicator is None else str(Tile(self.indicator))
        return f"TableSetup(laizi={Tile(self.laizi)}, special={sp}, indicator={ind})"


PRESETS: dict[str, dict[str, Any]] = {
    "kaikoufan": {},
    "kaikoufan_fa": {"special_tiles": "zhong_fa"},
    "qipisilai": {"special_tiles": "zhong_pizi", "min_points": 32},
    "koukoufan": {
        "opening_fan": "per_opening", "min_points": 64, "cap": 300, "golden": 500,
        "sunshine": 600, "ha": 700, "escape_penalty": 500,
    },
    "jiayu": {
        "jiayu_hands": True, "laizi_discard": "forbidden", "big_stack": "add",
        "opening_fan": "none", "small_hand_fan": 1, "big_factor": "fan",
        "min_points": 20, "min_rule": "two_sum", "liable_pays": "golden",
        "cap": 160, "golden": 200, "sunshine": 200, "ha": 200, "escape_penalty": 300,
    },
}


# Documented alternative option sets (RULES.md §7.6): apply with ``RuleSet.preset(name, **OPTION_SETS[k])``.
OPTION_SETS: dict[str, dict[str, Any]] = {
    # S2's 口口翻 caps: 1000 cap, 金顶 +500, 阳光顶 +1500, 哈顶 +4500.
    "s2_koukoufan_caps": {"cap": 1000, "golden": 1500, "sunshine": 2500, "ha": 5500},
    # S0's 对罚 and strict 风一色/将一色 shape.
    "s0_strict": {"sunshine_double": True, "luan_feng_jiang": False, "guoshou": True,
                  "win_priority": "discarder"},
}


def preset_names() -> list[str]:
    return list(PRESETS)


@functools.lru_cache(maxsize=16)
def _reference(name: str) -> RuleSet:
    """What a rule set's repr is relative to: its preset, else the defaults."""
    return RuleSet.preset(name) if name in PRESETS else RuleSet()


#: The numeric options: name -> (lowest, highest, lowest excluded). Every one must be finite.
OPTION_RANGES: dict[str, tuple[float, float, bool]] = {
    "claim_seconds": (0.0, MAX_CLAIM_SECONDS, True),
    "small_hand_fan": (0, MAX_FAN, False),
    "min_points": (0, MAX_POINTS, False),
    "cap": (0, MAX_POINTS, False),
    "golden": (0, MAX_POINTS, False),
    "sunshine": (0, MAX_POINTS, False),
    "ha": (0, MAX_POINTS, False),
    "escape_penalty": (0, MAX_POINTS, False),
    "rounds": (1, MAX_ROUNDS, False),
    "qianggang_fixed": (0, MAX_POINTS, False),
    "pay_min_fan": (0, MAX_FAN, False),
    "winds": (0, MAX_WINDS, False),
    "rounds_per_wind": (4, 5, False),
}
