"""The hints' reasoning in words, Chinese and English, from their numbers.

Each function returns ``{"zh": ..., "en": ...}`` for one hint entry, e.g.
``一向听，进张 12 张（还剩 9 张），胡牌率 31%，期望 +18 分；此牌危险度低`` /
``1 from ready, 12 improving tiles (9 unseen), 31% to win, +18 expected; low danger``
(English in the web table's glossary: src/laizi/web/README.md, "The English glossary").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["claim_reason", "discard_reason", "hand_reason", "kong_reason", "pass_reason",
           "shanten_words", "win_reason"]

_ZH_NUM = ("", "一", "二", "三", "四", "五", "六", "七", "八")
_LEVEL_ZH = {"low": "低", "medium": "中", "high": "高"}
_CLAIM_ZH = {"peng": "碰", "chi": "吃", "kong": "杠"}
_CLAIM_EN = {"peng": "pung", "chi": "chow", "kong": "kong"}  # the English glossary


def shanten_words(sh: int) -> dict[str, str]:
    """``听牌`` / ``ready``, ``一向听`` / ``1 from ready`` … (the table's words: i18n.js ``shanten``)."""
    if sh <= 0:
        return {"zh": "听牌", "en": "ready"}
    zh = f"{_ZH_NUM[sh]}向听" if sh < len(_ZH_NUM) else f"{sh}向听"
    return {"zh": zh, "en": f"{sh} from ready"}


def _pct(p: float) -> str:
    return f"{round(100 * p)}%"


def _pts(x: float) -> str:
    return f"{round(x):+d}"


def _tiles(o: Mapping[str, Any]) -> dict[str, str]:
    """The improving (or winning) tiles: ``进张 12 张（还剩 9 张）``."""
    total, unseen = int(o["improving_tiles"]), int(o["improving_unseen"])
    if o["shanten_258"] <= 0:
        return {"zh": f"胡牌张 {total} 张（还剩 {unseen} 张）",
                "en": f"{total} winning tiles ({unseen} unseen)"}
    return {"zh": f"进张 {total} 张（还剩 {unseen} 张）",
            "en": f"{total} improving tiles ({unseen} unseen)"}


def _hand(o: Mapping[str, Any]) -> dict[str, str]:
    sw = shanten_words(int(o["shanten_258"]))
    t = _tiles(o)
    return {
        "zh": f"{sw['zh']}，{t['zh']}，胡牌率 {_pct(o['win_prob'])}，期望 {_pts(o['expected_points'])} 分",
        "en": f"{sw['en']}, {t['en']}, {_pct(o['win_prob'])} to win, "
              f"{_pts(o['expected_points'])} expected",
    }


def _danger(d: Mapping[str, Any]) -> dict[str, str]:
    level = str(d["level"])
    if level == "low":
        return {"zh": "此牌危险度低", "en": "low danger"}
    loss = round(float(d["cost"]))
    return {
        "zh": f"此牌危险度{_LEVEL_ZH[level]}（放冲率 {_pct(d['feed_prob'])}，放冲约 −{loss} 分）",
        "en": f"{level} danger ({_pct(d['feed_prob'])} to deal in, about −{loss} if it does)",
    }


def discard_reason(entry: Mapping[str, Any]) -> dict[str, str]:
    """A discard: the hand it leaves and the tile's danger; a laizi or special tile
    (``counts_as_kong``) with the fan it adds (``kong_fan``)."""
    h = _hand(entry)
    d = _danger(entry["danger"])
    kong = {"zh": "", "en": ""}
    if entry.get("counts_as_kong"):
        fan = int(entry["kong_fan"])  # the rules' number (scoring.table_fan), not one of ours
        zh = {1: "一", 2: "两"}.get(fan, str(fan))
        kong = {"zh": f"（算作杠，加{zh}番）", "en": f" (counts as a kong: +{fan} fan)"}
    return {"zh": f"{h['zh']}；{d['zh']}{kong['zh']}", "en": f"{h['en']}; {d['en']}{kong['en']}"}


def kong_reason(entry: Mapping[str, Any]) -> dict[str, str]:
    """A kong on the own turn: the hand after it (before the replacement draw)."""
    h = _hand(entry)
    return {"zh": f"杠后{h['zh']}", "en": f"after the kong: {h['en']}"}


def claim_reason(entry: Mapping[str, Any], passing: Mapping[str, Any] | None) -> dict[str, str]:
    """A claim (peng/chi/kong): its outlook next to passing."""
    kind = str(entry["action"]["type"])
    zh_name = _CLAIM_ZH.get(kind, kind)
    en_name = _CLAIM_EN.get(kind, kind)
    sw = shanten_words(int(entry["shanten_258"]))
    p, x = entry["win_prob"], entry["expected_points"]
    if passing is None:
        return {"zh": f"{zh_name}后{sw['zh']}，胡牌率 {_pct(p)}，期望 {_pts(x)} 分",
                "en": f"after {en_name}: {sw['en']}, {_pct(p)} to win, {_pts(x)} expected"}
    pp, px = passing["win_prob"], passing["expected_points"]
    return {
        "zh": f"{zh_name}后{sw['zh']}，胡牌率 {_pct(p)}（不{zh_name} {_pct(pp)}），"
              f"期望 {_pts(x)} 分（不{zh_name} {_pts(px)} 分）",
        "en": f"after {en_name}: {sw['en']}, {_pct(p)} to win (pass: {_pct(pp)}), "
              f"{_pts(x)} expected (pass: {_pts(px)})",
    }


def hand_reason(entry: Mapping[str, Any]) -> dict[str, str]:
    """A 3n+1 hand as it stands (before its draw)."""
    return _hand(entry)


def pass_reason(entry: Mapping[str, Any]) -> dict[str, str]:
    """Passing in a claim window: the hand as it stands."""
    h = _hand(entry)
    return {"zh": f"过：{h['zh']}", "en": f"pass: {h['en']}"}


def win_reason(total: float | None) -> dict[str, str]:
    """Winning now (with what it pays when known)."""
    if total is None:
        return {"zh": "胡牌", "en": "win now"}
    return {"zh": f"胡牌，得 {_pts(total)} 分", "en": f"win now: {_pts(total)}"}
