"""Tiles and notation.

The 34 kinds are indexed like the riichi ``mahjong`` package::

    0-8   1m-9m  万 characters
    9-17  1p-9p  筒 dots
    18-26 1s-9s  条 bamboo
    27-33 1z-7z  东 南 西 北 白 发 中

Every notation has a parser and a writer: ``Tile.parse("7z")`` / ``str(tile)``,
``parse_tiles("123m77z")`` / ``tiles_to_str(...)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from laizi.errors import TileParseError

__all__ = [
    "NUM_KINDS",
    "SUITS",
    "TILE_STR",
    "Tile",
    "counts_from_str",
    "counts_to_str",
    "parse_tile",
    "parse_tiles",
    "tile_from_str",
    "tiles_to_str",
    "to_counts",
    "from_counts",
    "EAST", "SOUTH", "WEST", "NORTH", "WHITE", "GREEN", "RED",
    "RED_DRAGON", "GREEN_DRAGON", "WHITE_DRAGON", "HONOR_KINDS", "JIANG_KINDS", "JIANG_SET",
    "FENG_KINDS", "is_honor", "is_jiang", "is_terminal",
]

NUM_KINDS = 34
SUITS = "mpsz"
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, NUM_KINDS)

# ---------------------------------------------------------------- tile categories
# The one home of the kinds' categories; rules, scoring, bots and hints import them.
RED_DRAGON = RED  #: 红中 (7z), always a special tile
GREEN_DRAGON = GREEN  #: 发财 (6z), special under ``special_tiles="zhong_fa"``
WHITE_DRAGON = WHITE  #: 白板 (5z)
HONOR_KINDS: frozenset[int] = frozenset(range(EAST, NUM_KINDS))
"""The seven honours (winds and dragons), 27-33."""
JIANG_KINDS: tuple[int, ...] = tuple(k for k in range(27) if k % 9 in (1, 4, 7))
"""The suited 2, 5 and 8 (ascending): the kinds of a small hand's pair and of 将一色."""
JIANG_SET: frozenset[int] = frozenset(JIANG_KINDS)
""":data:`JIANG_KINDS` as a set (membership tests)."""
FENG_KINDS: frozenset[int] = HONOR_KINDS - {RED_DRAGON}
"""The kinds of 风一色: the winds, 白 and 发 (红中 is always a special tile)."""


def is_honor(k: int) -> bool:
    """An honour (wind or dragon)."""
    return k >= EAST


def is_jiang(k: int) -> bool:
    """A suited 2, 5 or 8 (将)."""
    return k < EAST and k % 9 in (1, 4, 7)


def is_terminal(k: int) -> bool:
    """A suited 1 or 9."""
    return k < EAST and k % 9 in (0, 8)


_SUIT_CN = {"m": "万", "p": "筒", "s": "条"}
_NUM_CN = "一二三四五六七八九"
_HONOR_CN = "东南西北白发中"
# the English glossary (docs/design: one consistent set of words; the web client's twin is
# tileName in src/laizi/web/js/i18n.js)
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_SUIT_EN_ONE = {"m": "Character", "p": "Dot", "s": "Bamboo"}  # "1 Character", not "1 Characters"
_HONOR_EN = ("East", "South", "West", "North", "White Dragon", "Green Dragon", "Red Dragon")  # the web glossary
_HONOR_TABLE_CN = ("东", "南", "西", "北", "白板", "发财", "红中")  # as the table says them
_HONOR_LETTERS = "ESWNPFC"
# Unicode Mahjong block: winds/dragons then man, sou, pin.
_UNICODE_HONORS = ["\U0001F000", "\U0001F001", "\U0001F002", "\U0001F003",
                   "\U0001F006", "\U0001F005", "\U0001F004"]


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One of the 34 tile kinds (a kind, not a physical copy)."""

    index: int

    ALL: ClassVar[tuple[Tile, ...]]

    def __post_init__(self) -> None:
        if not 0 <= self.index < NUM_KINDS:
            raise ValueError(f"tile index out of range 0-33: {self.index}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse one tile in any accepted notation (``5m``, ``五万``, ``中``, ``C``)."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileParseError(text, 0, f"expected exactly one tile, got {len(tiles)}")
        return tiles[0]

    @property
    def suit(self) -> str:
        return SUITS[self.index // 9]

    @property
    def number(self) -> int:
        """1-9 for suited tiles, 1-7 for honours (``z`` notation)."""
        return self.index % 9 + 1

    @property
    def is_honor(self) -> bool:
        return self.index >= 27

    @property
    def is_suited(self) -> bool:
        return self.index < 27

    @property
    def is_258(self) -> bool:
        return self.index < 27 and self.index % 9 in (1, 4, 7)

    @property
    def chinese(self) -> str:
        if self.is_honor:
            return _HONOR_CN[self.index - 27]
        return _NUM_CN[self.index % 9] + _SUIT_CN[self.suit]

    @property
    def chinese_name(self) -> str:
        """The tile's name as the table says it: ``五万``, ``红中`` (:attr:`chinese` is the
        one-character notation: ``中``)."""
        return _HONOR_TABLE_CN[self.index - 27] if self.is_honor else self.chinese

    @property
    def english(self) -> str:
        """The tile's name in English words: ``5 Characters``, ``1 Dot``, ``Red Dragon``."""
        if self.is_honor:
            return _HONOR_EN[self.index - 27]
        n = self.index % 9 + 1
        return f"{n} {(_SUIT_EN_ONE if n == 1 else _SUIT_EN)[self.suit]}"

    def run_english(self) -> str:
        """The run of three this suited tile starts, in English words: ``5-6-7 Bamboo``."""
        n = self.index % 9 + 1
        return f"{n}-{n + 1}-{n + 2} {_SUIT_EN[self.suit]}"

    @property
    def unicode(self) -> str:
        if self.is_honor:
            return _UNICODE_HONORS[self.index - 27]
        base = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}[self.suit]
        return chr(base + self.index % 9)

    def __str__(self) -> str:
        return f"{self.number}{self.suit}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def __int__(self) -> int:
        return self.index

    def __index__(self) -> int:
        return self.index


Tile.ALL = tuple(Tile(i) for i in range(NUM_KINDS))

#: The mpsz name of each kind (``TILE_STR[4] == "5m"``), precomputed for hot paths.
TILE_STR: tuple[str, ...] = tuple(str(t) for t in Tile.ALL)
_TILE_INDEX = {s: k for k, s in enumerate(TILE_STR)}


def tile_from_str(text: str) -> int:
    """The kind of one tile in any notation (``"5m"`` fast, else :meth:`Tile.parse`)."""
    k = _TILE_INDEX.get(text)
    if k is None:
        return Tile.parse(text).index
    return k


def _cn_tables() -> dict[str, int]:
    table: dict[str, int] = {}
    for i, ch in enumerate(_HONOR_CN):
        table[ch] = 27 + i
    table["红中"] = 33
    table["發"] = 32
    table["发财"] = 32
    table["白板"] = 31
    table["東"] = 27
    table["東风"] = 27
    for name, off in (("东风", 27), ("南风", 28), ("西风", 29), ("北风", 30)):
        table[name] = off
    for suit_letter, cn in _SUIT_CN.items():
        base = SUITS.index(suit_letter) * 9
        names = [cn]
        if suit_letter == "m":
            names.append("萬")
        if suit_letter == "p":
            names.append("饼")
        if suit_letter == "s":
            names.append("索")
        for n, num in enumerate(_NUM_CN):
            for suffix in names:
                table[num + suffix] = base + n
    return table


_CN = _cn_tables()
_CN_MAXLEN = max(len(k) for k in _CN)


def parse_tiles(text: str) -> list[Tile]:
    """Parse a tile string: mpsz (``123m456p77z``), Chinese names, honour letters ESWNPFC.

    Notations may be mixed and separated by spaces or commas. Raises
    :class:`TileParseError` naming the problem and its position.
    """
    out: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch in ",，、":
            if pending:
                raise TileParseError(text, pending[0][1], "digits without a suit letter (m, p, s or z)")
            i += 1
            continue
        if ch.isascii() and ch.isdigit():
            pending.append((int(ch), i))
            i += 1
            continue
        if ch in "mpsz":
            if not pending:
                raise TileParseError(text, i, f"suit letter {ch!r} without digits")
            for d, pos in pending:
                if ch == "z":
                    if not 1 <= d <= 7:
                        raise TileParseError(text, pos, f"honour number must be 1-7, got {d}")
                    out.append(Tile(27 + d - 1))
                else:
                    if d == 0:
                        # 0 = red five in some notations; this game has no red fives.
                        raise TileParseError(text, pos, "tile number 0 is not used (no red fives)")
                    out.append(Tile(SUITS.index(ch) * 9 + d - 1))
            pending = []
            i += 1
            continue
        if pending:
            raise TileParseError(text, i, f"expected a suit letter (m, p, s or z) after digits, got {ch!r}")
        if ch in _HONOR_LETTERS:
            out.append(Tile(27 + _HONOR_LETTERS.index(ch)))
            i += 1
            continue
        # Chinese names: longest match first.
        for length in range(min(_CN_MAXLEN, n - i), 0, -1):
            kind = _CN.get(text[i:i + length])
            if kind is not None:
                out.append(Tile(kind))
                i += length
                break
        else:
            raise TileParseError(text, i, f"unknown tile character {ch!r}")
    if pending:
        raise TileParseError(text, pending[0][1], "digits without a suit letter (m, p, s or z)")
    return out


def parse_tile(text: str) -> Tile:
    return Tile.parse(text)


def tiles_to_str(tiles: Iterable[Tile | int]) -> str:
    """Write tiles in compact mpsz notation, sorted by kind: ``123m456p77z``."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[int(t)] += 1
    return counts_to_str(counts)


def tiles_to_str_ordered(tiles: Iterable[Tile | int]) -> str:
    """Write tiles in mpsz notation keeping their order (``3z`` per tile, grouped runs)."""
    parts: list[str] = []
    digits = ""
    suit = ""
    for t in tiles:
        tile = t if isinstance(t, Tile) else Tile(t)
        if tile.suit != suit and digits:
            parts.append(digits + suit)
            digits = ""
        suit = tile.suit
        digits += str(tile.number)
    if digits:
        parts.append(digits + suit)
    return "".join(parts)


def counts_to_str(counts: Sequence[int]) -> str:
    parts = []
    for s, letter in enumerate(SUITS):
        size = 7 if letter == "z" else 9
        digits = "".join(str(n + 1) * counts[s * 9 + n] for n in range(size))
        if digits:
            parts.append(digits + letter)
    return "".join(parts)


def to_counts(tiles: Iterable[Tile | int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[int(t)] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[Tile]:
    return [Tile(k) for k in range(NUM_KINDS) for _ in range(counts[k])]


def counts_from_str(text: str) -> list[int]:
    """34 counts from notation: ``counts_from_str("123m77z")``."""
    return to_counts(parse_tiles(text))


def to_unicode(tiles: Iterable[Tile | int]) -> str:
    return "".join((t if isinstance(t, Tile) else Tile(t)).unicode for t in tiles)


def to_chinese(tiles: Iterable[Tile | int]) -> str:
    return " ".join((t if isinstance(t, Tile) else Tile(t)).chinese for t in tiles)
