"""``laizi play``: play in the terminal against three bots."""

from __future__ import annotations

import argparse

NAME = "play"
HELP = "play a match in the terminal (a full-screen table): you (seat 0) against three bots"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", default="kaikoufan", help="rule preset (default kaikoufan)")
    p.add_argument("--seed", default="0", help="seed of the deals and bots (default 0)")
    p.add_argument("--hands", type=int, default=4, help="hands to play (default 4)")
    p.add_argument("--bots", default="strong,strong,strong",
                   help="the three opponents, e.g. strong,greedy,random")
    p.add_argument("--lang", choices=("zh", "en"), default="zh",
                   help="words on the table: zh (中文, default) or en (English)")
    p.add_argument("--plain", action="store_true",
                   help="line mode instead of the full-screen table (automatic when "
                        "standard input or output is not a terminal)")
    p.add_argument("--delay", type=float, default=0.5,
                   help="seconds between the bots' moves on the full-screen table (default 0.5)")


def run(args: argparse.Namespace) -> int:
    from laizi.bots.registry import BOT_NAMES
    from laizi.tui import play

    if args.hands < 1:
        raise ValueError("--hands must be >= 1")
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * 3
    if len(names) != 3:
        raise ValueError("--bots needs three names (or one)")
    for n in names:
        if n not in BOT_NAMES:
            raise ValueError(f"unknown bot {n!r} (choose from {', '.join(BOT_NAMES)})")
    if not 0 <= args.delay <= 10:
        raise ValueError("--delay must be between 0 and 10 seconds")
    from laizi.cli.paths import stdin

    stdin("the moves are read from it")
    seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
    return play(preset=args.preset, seed=seed, hands=args.hands, bots=names, lang=args.lang,
                plain=True if args.plain else None, delay=args.delay)
