"""Table 番: the fan a seat shows on the table (RULES.md §7.2), the one home of that rule.

A seat's table fan is what its own public table adds to every payment it takes part
in — as the winner, and as a loser, since a loser's fan doubles what it pays:

- the opening (开口): +1 once (``opening_fan="once"``), +1 per opening chi / peng /
  exposed kong (``"per_opening"``, 口口翻), nothing (``"none"``);
- each exposed kong (明杠, claimed or added) +1, each concealed kong (暗杠) +2;
- each special tile laid aside (红中杠, 发财杠, 皮子杠) +1 — as a kong or as a discard;
- each laizi laid aside as a kong (赖子杠) +2; each discarded laizi by
  ``laizi_discard``: +2 (``"kong"``: it counts as a laizi kong), +1 (``"half"``),
  nothing (``"forbidden"``: it cannot be discarded).

The inputs are a seat's public facts as :class:`laizi.views.SeatView` exposes them
(``view.melds[s]``, ``view.special_kongs[s]``, ``view.special_discards[s]``) and as
:class:`~laizi.scoring.model.PlayerTable` holds them::

    table_fan(view.rules, view.laizi, view.melds[s], view.special_kongs[s],
              view.special_discards[s])

The scorer (:func:`laizi.scoring.score.seat_fan`) multiplies by exactly these items;
the bots' estimates call the same function.
"""

from __future__ import annotations

from collections.abc import Iterable

from laizi.rules import RuleSet
from laizi.scoring.model import Meld
from laizi.tiles import GREEN, RED, TILE_STR

__all__ = ["table_fan", "table_fan_items"]


def _tally(
    rules: RuleSet, laizi: int, melds: Iterable[Meld], special_kongs: Iterable[int],
    special_discards: Iterable[int], opening: bool,
) -> tuple[int, int, int, int, list[int], int, int]:
    """(openings, opening fan, exposed kongs, concealed kongs, laid-aside special tiles,
    laizi kongs, half laizi discards): the facts both functions below count."""
    openings = exposed = concealed = 0
    for m in melds:
        mt = m.type
        if mt == "ankong":
            concealed += 1
        else:
            openings += 1
            if mt == "kong" or mt == "addkong":
                exposed += 1
    opening_fan = 0
    if opening and openings:
        if rules.opening_fan == "once":
            opening_fan = 1
        elif rules.opening_fan == "per_opening":
            opening_fan = openings
    special: list[int] = []
    laizi_kongs = half = 0
    for t in special_kongs:
        if t == laizi:
            laizi_kongs += 1
        else:
            special.append(t)
    for t in special_discards:
        if t == laizi:
            if rules.laizi_discard == "kong":
                laizi_kongs += 1
            elif rules.laizi_discard == "half":
                half += 1
        else:
            special.append(t)
    return openings, opening_fan, exposed, concealed, special, laizi_kongs, half


def table_fan_items(
    rules: RuleSet,
    laizi: int,
    melds: Iterable[Meld],
    special_kongs: Iterable[int] = (),
    special_discards: Iterable[int] = (),
    *,
    opening: bool = True,
) -> list[tuple[str, int]]:
    """The items of a seat's table fan, as the scorer's breakdown names them.

    ``melds``: the seat's melds; ``special_kongs``: special or laizi tiles it laid
    aside as kongs; ``special_discards``: special or laizi tiles it discarded;
    ``laizi``: the hand's laizi kind. ``opening=False`` leaves the opening (开口) item
    out (the fan of kongs and laid-aside tiles alone). Items worth 0 are left out.
    """
    openings, opening_fan, exposed, concealed, special, laizi_kongs, half = _tally(
        rules, laizi, melds, special_kongs, special_discards, opening)
    items: list[tuple[str, int]] = []
    if opening_fan:
        if rules.opening_fan == "once":
            items.append(("开口 opened", 1))
        else:
            items.append((f"口口翻 openings ×{openings}", openings))
    if exposed:
        items.append((f"明杠 exposed kong ×{exposed}", exposed))
    if concealed:
        items.append((f"暗杠 concealed kong ×{concealed}", 2 * concealed))
    for t in sorted(set(special)):
        n = special.count(t)
        name = "红中杠" if t == RED else ("发财杠" if t == GREEN else "皮子杠")
        items.append((f"{name} {TILE_STR[t]} kong ×{n}", n))
    if laizi_kongs:
        items.append((f"赖子杠 laizi kong ×{laizi_kongs}", 2 * laizi_kongs))
    if half:
        items.append((f"打赖子 laizi discard (half) ×{half}", half))
    return items


def table_fan(
    rules: RuleSet,
    laizi: int,
    melds: Iterable[Meld],
    special_kongs: Iterable[int] = (),
    special_discards: Iterable[int] = (),
    *,
    opening: bool = True,
) -> int:
    """A seat's table fan (番): the sum of :func:`table_fan_items` (same arguments),
    counted without building the items' names (the bots call it per decision).

    >>> from laizi.rules import RuleSet
    >>> from laizi.scoring.model import Meld
    >>> table_fan(RuleSet.preset("kaikoufan"), 5, [Meld("peng", 9, 1), Meld("ankong", 0)], [33])
    4
    """
    _o, opening_fan, exposed, concealed, special, laizi_kongs, half = _tally(
        rules, laizi, melds, special_kongs, special_discards, opening)
    return opening_fan + exposed + 2 * concealed + len(special) + 2 * laizi_kongs + half
