"""番 on the table: each seat's public table fan and its 阳光/金顶 standing, from a snapshot.

Everything here is public — every seat (and a spectator) sees the same: a seat's melds,
special and laizi kongs, and laid-aside tiles. The fan is counted by the scorer's own rule
(:func:`laizi.scoring.tablefan.table_fan_items`, RULES.md §7.2); whether a seat still counts
as unopened for 阳光 (RULES.md §7.3, option ``kong_avoids_sunshine``) by the scorer's
:func:`~laizi.scoring.score.is_open_for_sunshine`. Nothing is estimated here.

>>> from laizi.rules import RuleSet
>>> from laizi.scoring import Meld
>>> seat_fan(RuleSet.preset("kaikoufan"), 5, [Meld("peng", 9, 1)], [33], [])
{'fan': 2, 'items': [['开口 opened', 1], ['红中杠 7z kong ×1', 1]], 'standing': 'golden'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from laizi.rules import RuleSet
from laizi.scoring import Meld, PlayerTable
from laizi.scoring.score import is_open_for_sunshine
from laizi.scoring.tablefan import table_fan_items
from laizi.views.snapshot import SeatView

__all__ = ["seat_fan", "table_fans"]


def seat_fan(rules: RuleSet, laizi: int, melds: Sequence[Meld], special_kongs: Sequence[int],
             special_discards: Sequence[int]) -> dict[str, Any]:
    """One seat's table 番: ``fan`` (the sum), ``items`` (``[name, fan]`` as the scorer's
    breakdown names them) and ``standing``: ``"sunshine"`` (阳光: unopened, pays 阳光顶 —
    and double with 对罚 — if it loses) or ``"golden"`` (opened: pays 金顶 when a hand tops
    out)."""
    items = table_fan_items(rules, laizi, melds, special_kongs, special_discards)
    table = PlayerTable(hand=(), melds=tuple(melds), special_kongs=tuple(special_kongs),
                        special_discards=tuple(special_discards))
    opened = is_open_for_sunshine(table, rules.kong_avoids_sunshine)
    return {"fan": sum(n for _, n in items), "items": [[name, n] for name, n in items],
            "standing": "golden" if opened else "sunshine"}


def table_fans(view: SeatView) -> list[dict[str, Any]]:
    """Every seat's :func:`seat_fan` from a snapshot (the public part of any seat's view)."""
    return [seat_fan(view.rules, view.setup.laizi, view.melds[s], view.special_kongs[s],
                     view.special_discards[s]) for s in range(4)]
