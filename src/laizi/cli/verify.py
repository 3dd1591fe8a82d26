"""``laizi verify LOG``: check every hand's wall against its seed and commitment."""

from __future__ import annotations

import argparse

from laizi.cli.paths import read_log
from laizi.game.errors import GameError
from laizi.game.replay import replay_all
from laizi.game.verify import verify_events

NAME = "verify"
HELP = "verify a game log: every wall re-derives from its revealed seed and matches its commitment, deals and draws"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a game log (JSON lines)")
    parser.add_argument("--replay", action="store_true",
                        help="also replay every game through the engine and compare every event")


def run(args: argparse.Namespace) -> int:
    events = read_log(args.log)
    report = verify_events(events)
    if not report.ok:
        print(f"FAILED: {report.summary()}")
        return 1
    if report.checked == 0:
        print("FAILED: no finished hand in the log")
        return 1
    if args.replay:
        try:
            games = replay_all(events)
        except GameError as exc:
            print(f"FAILED: replay: {exc}")
            return 1
        print(f"OK: {report.summary()}; {len(games)} game(s) replayed identically")
        return 0
    print(f"OK: {report.summary()}")
    return 0
