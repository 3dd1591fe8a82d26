"""``laizi review LOG``: 复盘 — each decision of a seat next to the ``expert`` choice, with
the expected points it lost (:mod:`laizi.review`)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

NAME = "review"
HELP = "复盘: rate each decision of a seat in a game log against the expert bot's choice"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a game log (JSON lines: a match or hands)")
    parser.add_argument("--seat", type=int, choices=range(4), default=None,
                        help="review only this seat (default: all four)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object (every decision, the costliest with why)")
    parser.add_argument("--lang", choices=("zh", "en"), default="en",
                        help="language of the sentences (default en)")
    parser.add_argument("--no-progress", action="store_true", help="no progress on stderr")


class _Progress:
    """A line on stderr, at most every half second, for a long log."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.every = 0.5 if self.tty else 5.0  # a log file gets a line every 5 s
        self.start = self.last = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < self.every or done >= total:
            return
        self.last = now
        self.shown = True
        line = f"review: {done}/{total} events ({100 * done // max(total, 1)}%)"
        print("\r" + line if self.tty else line, end="" if self.tty else "\n",
              file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.shown:
            print(f"{chr(13) if self.tty else ''}review: done in {time.monotonic() - self.start:.1f} s",
                  file=sys.stderr)


def _fmt(x: Any) -> str:
    return "-" if x is None else f"{x:.1f}"


def run(args: argparse.Namespace) -> int:
    from laizi.cli.paths import read_log
    from laizi.review import pooled, review_events

    events = read_log(args.log)
    progress = _Progress(not args.no_progress)
    seats = None if args.seat is None else [args.seat]
    try:
        games = review_events(events, seats=seats, progress=progress)
    finally:
        progress.close()
    total = pooled(games)
    if args.json:
        print(json.dumps({"log": args.log, "games": [g.to_json() for g in games],
                          "all_games": [total[s].to_json(decisions=False) for s in sorted(total)]},
                         ensure_ascii=False))
        return 0
    lang = args.lang
    for n, g in enumerate(games, 1):
        print(f"# game {n} ({g.kind}, {g.hands} hand{'s' if g.hands != 1 else ''})")
        for s in sorted(g.seats):
            r = g.seats[s]
            print(f"  seat {s}: {len(r.decisions)} decisions · mean loss {r.mean_loss:.2f} · "
                  f"total loss {r.total_loss:.1f} · accuracy {r.accuracy:.0f}% · "
                  f"agrees with expert {r.agreement:.0f}%")
            for d in r.costliest():
                print(f"    - [{_fmt(d.loss)}] {(d.why or {}).get(lang, '')}")
    if len(games) > 1:
        print(f"# all {len(games)} games")
        for s in sorted(total):
            r = total[s]
            print(f"  seat {s}: {len(r.decisions)} decisions · mean loss {r.mean_loss:.2f} · "
                  f"accuracy {r.accuracy:.0f}% · agrees with expert {r.agreement:.0f}%")
    return 0
