"""``laizi hint``: 智能提示 for a hand given in notation.

For every discard (14 tiles) or for the hand itself (13 tiles): shanten, the improving
tiles and how many are still unseen, the chance to win before the wall runs out, the
expected points, the discard's danger, and the reasoning in words (``--lang``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

NAME = "hint"
HELP = ("rate every discard of a hand (shanten, improving tiles, win chance, expected "
        "points, danger)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hand", required=True,
                   help="concealed tiles, e.g. 123m456p55s777s7z (14 with no melds: rate the "
                        "discards; 13: list the waits)")
    p.add_argument("--laizi", help="the laizi, e.g. 6m")
    p.add_argument("--indicator", help="or the indicator (翻牌) the laizi follows")
    p.add_argument("--melds", action="append", default=[], metavar="MELD",
                   help="an exposed/concealed set, e.g. 'peng 9p from 3' (repeatable; "
                        "several may be separated by ';')")
    p.add_argument("--preset", default="kaikoufan", help="rule preset (default kaikoufan)")
    p.add_argument("--seat", type=int, default=0, help="own seat 0-3 (default 0)")
    p.add_argument("--dealer", type=int, default=0, help="dealer seat 0-3 (default 0)")
    p.add_argument("--visible", default="", help="tiles already seen elsewhere (rivers, melds)")
    p.add_argument("--wall", type=int, default=60, help="tiles left in the wall (default 60)")
    p.add_argument("--other-meld", action="append", default=[], metavar="SEAT:MELD",
                   help="another seat's meld, e.g. '1:peng 5z from 2' (repeatable): opened "
                        "seats can win, which makes discards dangerous")
    p.add_argument("--lang", choices=("zh", "en"), default="zh",
                   help="language of the reasoning (default zh)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    from laizi.hints import hand_hints

    for name in ("seat", "dealer"):
        if not 0 <= getattr(args, name) <= 3:
            raise ValueError(f"--{name} must be a seat 0-3")
    melds: list[str] = []
    for m in args.melds:
        melds.extend(x.strip() for x in m.split(";") if x.strip())
    others: dict[int, list[str]] = {}
    for text in args.other_meld:
        seat, sep, meld = text.partition(":")
        if not sep or not seat.strip().isdigit():
            raise ValueError(f"--other-meld takes SEAT:MELD, e.g. '1:peng 5z from 2', not {text!r}")
        others.setdefault(int(seat), []).append(meld.strip())
    out = hand_hints(args.hand, laizi=args.laizi, indicator=args.indicator, melds=melds,
                     preset=args.preset, seat=args.seat, dealer=args.dealer, visible=args.visible,
                     wall=args.wall, others=others)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    _print(out, args.lang)
    return 0


def _waits_text(waits: list[dict[str, Any]]) -> str:
    parts = []
    for w in waits:
        sd = w.get("self_draw", {})
        dc = w.get("discard", {})
        pay = []
        if sd.get("ok"):
            pay.append(f"自摸 {sd['total']}")
        if dc.get("ok"):
            pay.append(f"点炮 {dc['total']}")
        flag = ", ".join(pay) if pay else (sd.get("reason") or "no win")
        parts.append(f"{w['tile']}×{w['unseen']} ({flag})")
    return "; ".join(parts)


_HEAD = {
    "zh": ("", "动作", "向听", "进张（剩余）", "胡牌率", "期望", "危险", "起胡", "理由"),
    "en": ("", "action", "shanten", "improving (unseen)", "win", "expected", "danger", "min",
           "reasoning"),
}
_LEVEL = {"zh": {"low": "低", "medium": "中", "high": "高"},
          "en": {"low": "low", "medium": "medium", "high": "high"}}


def _improving_text(h: dict[str, Any]) -> str:
    if "improving" not in h:
        return ""
    tiles = " ".join(f"{x['tile']}×{x['unseen']}" for x in h["improving"])
    return f"{h['improving_tiles']} ({h['improving_unseen']}) {tiles}".strip()


def _danger_text(h: dict[str, Any], lang: str) -> str:
    d = h.get("danger")
    if not d:
        return ""
    return f"{_LEVEL[lang][d['level']]} {round(100 * d['feed_prob'])}%"


def _print(out: dict[str, Any], lang: str = "zh") -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=160)
    console.print(f"hand [bold]{out['hand']}[/]  laizi [bold]{out['laizi']}[/]  "
                  f"special {''.join(out['special'])}  melds {', '.join(out['melds']) or '-'}")
    if "hints" not in out:
        sh = out["shanten"]
        if sh <= 0:
            console.print(f"ready (听牌): {_waits_text(out['waits'])}")
            reach = out["reaches_minimum"]
            console.print(f"reaches the minimum: {'yes' if reach else 'no'}; "
                          f"expected payment {out['expected_payment']}")
        else:
            console.print(f"shanten {sh} (tiles to draw before ready)")
        console.print(out["reason"][lang], markup=False)
        return
    t = Table()
    for col in _HEAD[lang]:
        t.add_column(col)
    yes_no = ("是", "否") if lang == "zh" else ("yes", "no")
    for h in out["hints"]:
        h = {**h, "label": _label(h, lang)}
        mark = "★" if h.get("recommended") else ""
        reach = h.get("reaches_minimum")
        win = f"{round(100 * h['win_prob'])}%" if "win_prob" in h else ""
        ev = f"{round(h['expected_points']):+d}" if "expected_points" in h else ""
        t.add_row(mark, h["label"], str(h.get("shanten_258", h.get("shanten", ""))),
                  _improving_text(h), win, ev, _danger_text(h, lang),
                  "" if reach is None else yes_no[0 if reach else 1],
                  h.get("reason", {}).get(lang, ""))
    console.print(t)
    best = out["hints"][0]
    if "reason" in best:
        console.print(f"★ {_label(best, lang)}: {best['reason'][lang]}", markup=False)


def _label(h: dict[str, Any], lang: str) -> str:
    """The move in the chosen language's words, its notation after it: 打出 红中 (7z)."""
    from laizi.game import Action
    from laizi.tiles import TILE_STR
    from laizi.tui.words import action_label

    a = Action.from_json(h["action"])
    words = action_label(a, "zh" if lang == "zh" else "en")
    return f"{words} ({TILE_STR[a.tile]})" if a.tile is not None and a.type == "discard" else words


def _value(v: float) -> str:
    """The bot's estimate; '—' for a move it would never make, 'win' for a win."""
    if v <= -1e8:
        return "—"
    if v >= 1e5:
        return "win"
    return f"{v:.2f}"
