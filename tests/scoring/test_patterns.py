"""Each big-hand pattern module carries its own id, name and order (RULES.md §6)."""

from __future__ import annotations

import pkgutil

import laizi.scoring.patterns as patterns_pkg
from laizi.scoring import BIG_HAND_IDS, BIG_HAND_NAMES
from laizi.scoring.patterns import PATTERNS


def test_every_pattern_module_is_listed_with_its_id_name_and_order() -> None:
    modules = {m.name for m in pkgutil.iter_modules(patterns_pkg.__path__)}
    assert {p.__name__.rsplit(".", 1)[1] for p in PATTERNS} == modules
    for p in PATTERNS:
        assert p.__name__.rsplit(".", 1)[1] == p.ID
        assert isinstance(p.NAME, str) and p.NAME
        assert callable(p.detect)
    assert [p.ORDER for p in PATTERNS] == list(range(1, len(PATTERNS) + 1))


def test_the_order_and_names_of_rules_md() -> None:
    assert BIG_HAND_IDS == (
        "pengpeng", "qingyise", "fengyise", "jiangyise", "quanqiuren",
        "gangkai", "qianggang", "haidi", "menqing", "qidui",
    )
    assert BIG_HAND_NAMES == {
        "pengpeng": "碰碰胡", "qingyise": "清一色", "fengyise": "风一色", "jiangyise": "将一色",
        "quanqiuren": "全求人", "gangkai": "杠上开花", "qianggang": "抢杠", "haidi": "海底捞",
        "menqing": "门前清", "qidui": "七对",
    }
