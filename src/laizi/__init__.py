"""laizi — Wuhan Mahjong (武汉麻将 · 红中赖子杠 · 开口翻 / 口口翻 / 七皮四赖).

Layers, each depending only on those before it::

    tiles → rules → analysis → scoring → game → views → bots → adapters (cli, tui, sim, env, server + web)

Importing ``laizi`` is cheap: lookup tables are built on first use.
"""

from laizi.errors import IllegalHandError, LaiziError, RuleError, TileParseError
from laizi.rules import RuleSet
from laizi.tiles import Tile, parse_tiles, tiles_to_str


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("laizi")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        return "0+unknown"


__version__ = _version()

__all__ = [
    "IllegalHandError", "LaiziError", "RuleError", "RuleSet", "Tile", "TileParseError",
    "__version__", "parse_tiles", "tiles_to_str",
]
