"""``laizi arena``: duplicate evaluation of bots (every deal once per seat rotation)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

NAME = "arena"
HELP = ("duplicate evaluation: every deal played once per seat rotation, mean points per "
        "hand with 95 % confidence intervals (reproducible from --seed)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bots", default="strong,greedy,greedy,greedy",
                   help="the line-up: four bot names (default strong,greedy,greedy,greedy)")
    p.add_argument("--deals", type=int, default=200,
                   help="number of deals; each is played 4 times (default 200)")
    p.add_argument("--preset", default="kaikoufan", help="rule preset (default kaikoufan)")
    p.add_argument("--seed", default="0", help="arena seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="spread the deals over Ray (a cluster ADDRESS, or a local instance "
                        "when none is given; needs pip install 'laizi[ray]')")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw points per hand with 95 %% intervals")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def parse_lineup(text: str) -> list[str]:
    from laizi.bots.registry import ALL_BOT_NAMES

    names = [b.strip() for b in text.split(",") if b.strip()]
    if len(names) != 4:
        raise ValueError(f"--bots needs four names, got {len(names)}")
    for n in names:
        if n not in ALL_BOT_NAMES:
            raise ValueError(f"unknown bot {n!r} (choose from {', '.join(ALL_BOT_NAMES)})")
    return names


def run(args: argparse.Namespace) -> int:
    from laizi.arena import arena
    from laizi.rules import RuleSet

    if args.deals < 1:
        raise ValueError("--deals must be >= 1 (each deal is played four times)")
    if args.workers < 1:
        raise ValueError("--workers must be >= 1")
    lineup = parse_lineup(args.bots)
    rules = RuleSet.preset(args.preset)
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("laizi arena: error: --plot needs matplotlib (pip install 'laizi[plot]')",
                  file=sys.stderr)
            return 2
        from laizi.cli.paths import check_plot

        check_plot(args.plot, "--plot")  # before the work, not after it
    use_ray = args.ray is not None
    if use_ray:
        from laizi.distributed import require_ray

        require_ray()  # a one-line error (exit 2) without the optional extra
    kwargs: dict[str, Any] = dict(lineup=lineup, preset=args.preset, rules=rules,
                                  seed=_seed(args.seed), workers=args.workers, ray=use_ray,
                                  ray_address=args.ray or None)
    if not args.no_progress and args.deals > 0:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        with Progress(TextColumn("[bold]arena deals"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as prog:
            task = prog.add_task("deals", total=args.deals)
            res = arena(args.deals, progress=lambda k, n: prog.update(task, completed=k),
                        **kwargs)
    else:
        res = arena(args.deals, **kwargs)
    data = res.to_json()
    if args.plot:
        plot(data, args.plot)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print_table(data)
        if args.plot:
            print(f"plot written to {args.plot}")
    return 0


def print_table(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console = Console(width=140)
    console.print(
        f"[bold]{data['deals']}[/] deals × 4 rotations = {data['hands']} hands of "
        f"[bold]{data['preset']}[/] in {data['seconds']} s ({data['hands_per_second']} hands/s, "
        f"{data['backend']}, {data['workers']} worker(s)), seed {data['seed']}")
    t = Table(title="per bot (duplicate: every bot played every seat of every deal)")
    for col in ("bot", "hands", "points/hand", "95% interval", "win%", "self-draw%",
                "big%", "deal-in%", "decision p50 ms", "p99 ms"):
        t.add_column(col, justify="right", no_wrap=True)
    for b in data["bots"]:
        pp = b["points_per_hand"]
        t.add_row(b["bot"], str(b["hands"]), f"{pp['mean']:+.2f}",
                  f"[{pp['ci95'][0]:+.2f}, {pp['ci95'][1]:+.2f}]",
                  f"{100 * b['win_rate']:.1f}", f"{100 * b['self_draw_rate']:.1f}",
                  f"{100 * b['big_hand_rate']:.1f}", f"{100 * b['deal_in_rate']:.1f}",
                  str(b["decision_ms"]["p50"]), str(b["decision_ms"]["p99"]))
    console.print(t)
    for m in data["margins"]:
        lo, hi = m["ci95"]
        verdict = ("ahead" if lo > 0 else "behind" if hi < 0 else "not separated")
        console.print(f"{m['a']} − {m['b']}: {m['mean']:+.2f} points/hand, 95% [{lo:+.2f}, "
                      f"{hi:+.2f}] → {m['a']} {verdict}")
    console.print(f"zero-sum: {'yes' if data['zero_sum'] else '[red]NO[/]'}")


def plot(data: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = data["bots"]
    names = [b["bot"] for b in bots]
    means = [b["points_per_hand"]["mean"] for b in bots]
    errs = [b["points_per_hand"]["half_width"] for b in bots]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.bar(names, means, yerr=errs, capsize=6, color="#2e8b57")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("points per hand (95% interval)")
    ax.set_title(f"{data['deals']} deals × 4 rotations, {data['preset']}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
