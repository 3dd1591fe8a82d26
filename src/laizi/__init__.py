"""laizi — Wuhan Mahjong (武汉麻将 · 红中赖子杠 · 开口翻 / 口口翻 / 七皮四赖).

Layers, each depending only on those before it::

    tiles → rules → analysis → scoring → game → views → adapters (cli, tui, server, env, bots)

Importing ``laizi`` is cheap: lookup tables are built on first use.
"""

from laizi.errors import IllegalHandError, LaiziError, RuleError, TileParseError
from laizi.rules import RuleSet
from laizi.tiles import Tile, parse_tiles, tiles_to_str

__version__ = "0.1.0"

__all__ = [
    "IllegalHandError", "LaiziError", "RuleError", "RuleSet", "Tile", "TileParseError",
    "__version__", "parse_tiles", "tiles_to_str",
]
