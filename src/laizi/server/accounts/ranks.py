"""Named ranks (段位) derived from the rating: the player's rating ordinal (``mu - 3 sigma``,
:mod:`laizi.server.accounts.ratings`) placed on :data:`RANKS`, lowest first.

| index | zh | en | from ordinal |
|---|---|---|---|
| 0 | 新手 | Novice | (no rating, or below 5) |
| 1–3 | 雀士一–三 | Adept I–III | 5, 8, 11 |
| 4–6 | 雀杰一–三 | Expert I–III | 14, 17, 20 |
| 7–9 | 雀豪一–三 | Master I–III | 23, 26, 29 |
| 10 | 雀圣 | Saint | 32 |

A new player's ordinal is 0 (μ 25, σ 25/3): 新手. The index orders the ranks; a room may
admit only players from ``settings.rank_min`` to ``settings.rank_max`` (indexes) to its seats
(refused: ``rank_out_of_range``; anyone may watch).

Quick match waits per rank band (:func:`band_of`, :data:`BANDS`): 新手; 雀士; 雀杰; 雀豪 and
雀圣 — a line of its own per band, the neighbouring bands joining only when the first in a
line has waited its wait out (``laizi.server.competitions.quickmatch``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from laizi.server.common.protocol import RANK_INDEX_MAX
from laizi.server.persistence.db import Base

__all__ = ["BANDS", "RANKS", "RANK_MAX", "Rank", "band_of", "rank_json", "rank_of", "rank_of_player"]


@dataclass(frozen=True)
class Rank:
    index: int
    key: str       # tier: novice adept expert master saint
    level: int     # 1-3 within a tier (0: a tier of one)
    zh: str
    en: str
    floor: float   # the lowest ordinal of this rank


def _ranks() -> tuple[Rank, ...]:
    out = [Rank(0, "novice", 0, "新手", "Novice", float("-inf"))]
    tiers = (("adept", "雀士", "Adept"), ("expert", "雀杰", "Expert"), ("master", "雀豪", "Master"))
    floor = 5.0
    for key, zh, en in tiers:
        for lv, (zn, rn) in enumerate((("一", "I"), ("二", "II"), ("三", "III")), start=1):
            out.append(Rank(len(out), key, lv, zh + zn, f"{en} {rn}", floor))
            floor += 3.0
    out.append(Rank(len(out), "saint", 0, "雀圣", "Saint", floor))
    return tuple(out)


RANKS: tuple[Rank, ...] = _ranks()
RANK_MAX = len(RANKS) - 1
assert RANK_MAX == RANK_INDEX_MAX, "the room settings' bound of rank_min / rank_max"


BANDS = 4  # quick match's rank bands: 新手 (0), 雀士 (1-3), 雀杰 (4-6), 雀豪 and 雀圣 (7-10)


def band_of(r: Rank) -> int:
    """The quick-match band (0 to :data:`BANDS` - 1) of rank ``r``."""
    return min(BANDS - 1, (r.index + 2) // 3)


def rank_of(ordinal: float | None) -> Rank:
    """The rank of a rating ordinal (None: no rating yet)."""
    if ordinal is None:
        return RANKS[0]
    best = RANKS[0]
    for r in RANKS:
        if ordinal >= r.floor:
            best = r
    return best


def rank_json(r: Rank) -> dict[str, Any]:
    return {"index": r.index, "key": r.key, "level": r.level, "zh": r.zh, "en": r.en}


def rank_of_player(conn: Connection, pid: str) -> Rank:
    ratings = Base.metadata.tables["ratings"]
    o = conn.execute(select(ratings.c.ordinal).where(ratings.c.player_id == pid)).scalar()
    return rank_of(None if o is None else float(o))
