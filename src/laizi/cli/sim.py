"""``laizi sim``: bot-vs-bot simulation with statistics."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

NAME = "sim"
HELP = "simulate hands between bots and print statistics (reproducible from --seed)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hands", type=int, default=1000, help="number of hands (default 1000)")
    p.add_argument("--preset", default="kaikoufan", help="rule preset (default kaikoufan)")
    p.add_argument("--bots", default="strong,greedy,greedy,random",
                   help="four bots for seats 0-3: random, greedy or strong (default "
                        "strong,greedy,greedy,random); one name means all four")
    p.add_argument("--seed", default="0", help="simulation seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                   help="spread the hands over Ray (a cluster ADDRESS, or a local instance "
                        "when none is given; needs pip install 'laizi[ray]'); same results "
                        "as --workers")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", metavar="FILE.png", help="draw payments and big hands (needs matplotlib)")
    p.add_argument("--log", metavar="FILE", help="write every hand's event log (JSON lines)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _seed(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def run(args: argparse.Namespace) -> int:
    from laizi.bots.registry import ALL_BOT_NAMES
    from laizi.rules import RuleSet
    from laizi.sim import simulate

    if args.hands < 0:
        raise ValueError("--hands must be >= 0")
    if args.workers < 1:
        raise ValueError("--workers must be >= 1")
    names = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise ValueError(f"--bots needs four names (or one), got {len(names)}")
    for n in names:
        if n not in ALL_BOT_NAMES:
            raise ValueError(f"unknown bot {n!r} (choose from {', '.join(ALL_BOT_NAMES)})")
    rules = RuleSet.preset(args.preset)
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("laizi sim: error: --plot needs matplotlib (pip install 'laizi[plot]')",
                  file=sys.stderr)
            return 2
        from laizi.cli.paths import check_plot

        check_plot(args.plot, "--plot")  # before the work, not after it
    ray_kw: dict[str, Any] = {}
    if args.ray is not None:
        from laizi.distributed import require_ray

        require_ray()  # a one-line error (exit 2) without the optional extra
        ray_kw = {"ray": True, "ray_address": args.ray or None}
    log_fh = None
    if args.log:
        try:
            log_fh = open(args.log, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            print(f"laizi sim: error: cannot write {args.log}: {exc.strerror}", file=sys.stderr)
            return 2

    def write(lines: list[str]) -> None:
        assert log_fh is not None
        log_fh.write("\n".join(lines) + "\n")

    show = not args.no_progress and args.hands > 0
    try:
        if show:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            console = Console(stderr=True)
            with Progress(TextColumn("[bold]sim"), BarColumn(), MofNCompleteColumn(),
                          TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                          transient=True) as prog:
                task = prog.add_task("hands", total=args.hands)
                res = simulate(args.hands, rules=rules, bots=names, seed=_seed(args.seed),
                               workers=args.workers,
                               log_writer=write if log_fh else None,
                               progress=lambda k: prog.advance(task, k), **ray_kw)
        else:
            res = simulate(args.hands, rules=rules, bots=names, seed=_seed(args.seed),
                           workers=args.workers, log_writer=write if log_fh else None,
                           **ray_kw)
    finally:
        if log_fh is not None:
            log_fh.close()
    data = res.to_json()
    if args.plot:
        plot(res.winner_totals(), data, args.plot)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print_table(data)
        if args.plot:
            print(f"plot written to {args.plot}")
        if args.log:
            print(f"event log written to {args.log}")
    return 0


def print_table(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    from laizi.scoring.patterns import BIG_HAND_NAMES

    console = Console()
    if not console.is_terminal:
        console = Console(width=140)
    console.print(
        f"[bold]{data['hands']}[/] hands of [bold]{data['preset']}[/] in {data['seconds']} s "
        f"({data['hands_per_second']} hands/s, {data['workers']} worker(s)), seed {data['seed']}")
    t = Table(title="per seat")
    for col in ("seat", "bot", "wins", "win%", "tsumo", "ron", "big", "fed", "liable",
                "refused", "points", "/hand", "best", "worst"):
        t.add_column(col, justify="right", no_wrap=True)
    for s in data["seats"]:
        t.add_row(str(s["seat"]), s["bot"], str(s["wins"]), f"{100 * s['win_rate']:.1f}",
                  str(s["self_draw_wins"]), str(s["discard_wins"]), str(s["big_hand_wins"]),
                  str(s["dealt_in"]), str(s["liable"]), str(s["refusals"]), str(s["points"]),
                  f"{s['points_per_hand']:.2f}", str(s["max_win"]), str(s["max_loss"]))
    console.print(t)
    console.print(
        f"wins {100 * data['win_rate']:.1f}%  draws {100 * data['draw_rate']:.1f}%  "
        f"self-draw {data['self_draw_wins']}  discard {data['discard_wins']}  "
        f"robbed kong {data['rob_kong_wins']}  small hands {data['small_hands']}")
    big = ", ".join(f"{BIG_HAND_NAMES.get(k, k)} {k} {v}" for k, v in data["big_hands"].items())
    console.print(f"big hands: {big or 'none'}")
    console.print(
        f"payment to the winner: avg {data['payment_avg']:.1f}, min {data['payment_min']}, "
        f"max {data['payment_max']}; capped {data['capped']}, topped out {data['topped_out']}; "
        f"liability {data['liability_events']} {data['liability'] or ''}; "
        f"complete hands refused {data['refusals']} {data['refusal_reasons'] or ''}")
    console.print(f"zero-sum: {'yes' if data['zero_sum'] else '[red]NO[/]'}")


def plot(totals: list[float], data: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    if totals:
        a1.hist(totals, bins=40, color="#b22222")
    a1.set_title("payment to the winner")
    a1.set_xlabel("points")
    a1.set_ylabel("hands")
    big = data["big_hands"]
    labels = list(big) + ["small"]
    values = list(big.values()) + [data["small_hands"]]
    a2.bar(labels, values, color="#2e8b57")
    a2.set_title("hands won, by big hand")
    a2.tick_params(axis="x", rotation=45)
    fig.suptitle(f"{data['hands']} hands, {data['preset']}, bots {','.join(data['bots'])}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
