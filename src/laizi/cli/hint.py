"""``laizi hint``: 智能提示 for a hand given in notation."""

from __future__ import annotations

import argparse
import json
from typing import Any

NAME = "hint"
HELP = "rate every discard of a hand (waits, unseen copies, minimum score, value)"


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
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    from laizi.hints import hand_hints

    for name in ("seat", "dealer"):
        if not 0 <= getattr(args, name) <= 3:
            raise ValueError(f"--{name} must be a seat 0-3")
    melds: list[str] = []
    for m in args.melds:
        melds.extend(x.strip() for x in m.split(";") if x.strip())
    out = hand_hints(args.hand, laizi=args.laizi, indicator=args.indicator, melds=melds,
                     preset=args.preset, seat=args.seat, dealer=args.dealer, visible=args.visible)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return 0
    _print(out)
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


def _print(out: dict[str, Any]) -> None:
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
        return
    t = Table()
    for col in ("", "action", "shanten", "waits (unseen, payment)", "min", "value"):
        t.add_column(col)
    for h in out["hints"]:
        mark = "★" if h.get("recommended") else ""
        waits = _waits_text(h.get("waits", [])) if h.get("waits") else ""
        reach = h.get("reaches_minimum")
        t.add_row(mark, h["label"], str(h.get("shanten", "")), waits,
                  "" if reach is None else ("yes" if reach else "no"), _value(h.get('value', 0)))
    console.print(t)


def _value(v: float) -> str:
    """The bot's estimate; '—' for a move it would never make, 'win' for a win."""
    if v <= -1e8:
        return "—"
    if v >= 1e5:
        return "win"
    return f"{v:.2f}"
