"""The fixed action space of :mod:`laizi.env` (147 discrete actions).

=========  =======================================================
index      action
=========  =======================================================
0-33       discard kind k (a special tile or laizi counts as a kong)
34-67      暗杠 concealed kong of kind k
68-101     蓄杠 added kong of kind k
102-135    special kong of kind k (中, 发, pizi)
136        laizi kong
137        自摸 self-drawn win (also 海底捞)
138        胡 win on a discard / rob a kong
139        直杠 kong on a discard
140        碰 peng
141-143    吃 chi with the claimed tile lowest / middle / highest in the run
144        pass
145        after a kong, draw the replacement (``kong_draw_choice``)
146        after a kong, do not draw it (不补)
=========  =======================================================
"""

from __future__ import annotations

from laizi.game.actions import Action
from laizi.tiles import NUM_KINDS

__all__ = ["ACTION_SIZE", "action_to_index", "index_to_action"]

DISCARD, ANKONG, ADDKONG, SPECIAL = 0, NUM_KINDS, 2 * NUM_KINDS, 3 * NUM_KINDS
LAIZI_KONG, TSUMO, RON, KONG, PENG, CHI, PASS = 136, 137, 138, 139, 140, 141, 144
DRAW, NODRAW = 145, 146
ACTION_SIZE = 147


def action_to_index(a: Action, *, pending: int | None = None) -> int:
    """Index of an engine action (``pending``: the claimed tile, for chi)."""
    t = a.type
    k = a.tile
    if t == "discard":
        return DISCARD + (k or 0)
    if t == "ankong":
        return ANKONG + (k or 0)
    if t == "addkong":
        return ADDKONG + (k or 0)
    if t == "special_kong":
        return SPECIAL + (k or 0)
    if t == "laizi_kong":
        return LAIZI_KONG
    if t == "tsumo":
        return TSUMO
    if t == "ron":
        return RON
    if t == "kong":
        return KONG
    if t == "peng":
        return PENG
    if t == "chi":
        if pending is None or k is None:
            raise ValueError("a chi index needs the claimed tile")
        return CHI + (pending - k)
    if t == "draw":
        return DRAW
    if t == "nodraw":
        return NODRAW
    return PASS


def index_to_action(i: int, legal: list[Action], *, pending: int | None = None) -> Action:
    """The legal action with index ``i``; raises ``ValueError`` if none."""
    for a in legal:
        if action_to_index(a, pending=pending) == i:
            return a
    raise ValueError(f"action index {i} is not legal now")
