"""``laizi score FILE|-``: the score calculator (SCORE_API.md)."""

from __future__ import annotations

import argparse
import json
import sys

from laizi.errors import IllegalHandError

NAME = "score"
HELP = "score a winning hand: one JSON object in (file or - for stdin), one JSON object out"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="JSON request (SCORE_API.md), or - for standard input")
    p.add_argument("--text", action="store_true", help="print a readable breakdown instead of JSON")


def run(args: argparse.Namespace) -> int:
    from laizi.scoring.request import score_json
    from laizi.server.common.inputs import JSONInputError, loads_strict

    try:
        if args.file == "-":
            from laizi.cli.paths import stdin

            text = stdin("the request is read from it with -").read()
        else:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"laizi score: error: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"laizi score: error: input: {args.file} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        data = loads_strict(text)
    except JSONInputError as exc:
        print(f"laizi score: error: input: {exc}", file=sys.stderr)
        return 2
    try:
        out = score_json(data)
    except IllegalHandError as exc:
        print(f"laizi score: error: {exc}", file=sys.stderr)
        return 2
    if args.text:
        status = "WIN" if out["ok"] else f"NOT A WIN ({out['reason']})"
        print(status)
        for line in out["breakdown"]:
            print("  " + line)
        print("payments: " + "  ".join(f"seat {i}: {p:+}" for i, p in enumerate(out["payments"])))
    else:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    return 0
