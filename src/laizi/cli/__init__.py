"""The ``laizi`` command line. Each subcommand lives in its own module of this package.

A subcommand module defines ``NAME``, ``HELP`` (plain text: a ``%`` is a per cent sign),
``add_arguments(parser)`` and ``run(args) -> int``. Errors a user can cause are reported in one line (exit 2),
never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

# Order shown in --help.
SUBCOMMANDS = ("score", "rules", "play", "sim", "arena", "hint", "replay", "review", "verify", "serve",
               "check")


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"laizi.cli.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"laizi.cli.{name}":
            return None
        raise


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="laizi",
        description="Wuhan Mahjong (武汉麻将 · 红中赖子杠): score calculator, play, simulator, server.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    for name in SUBCOMMANDS:
        mod = _load(name)
        if mod is None:
            continue
        # argparse %-formats a help string (not a description): its % are doubled there only
        p = sub.add_parser(name, help=mod.HELP.replace("%", "%%"), description=mod.HELP)
        mod.add_arguments(p)
        modules[name] = mod
    return parser, modules


def _version() -> str:
    from laizi import __version__
    from laizi.compiled import describe

    return f"laizi {__version__} ({describe()})"


def main(argv: Sequence[str] | None = None) -> int:
    try:  # (the subcommands' modules load here: a Ctrl-C meanwhile is no traceback either)
        parser, modules = build_parser()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 0
    try:
        return int(modules[args.command].run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except ValueError as exc:  # every laizi input error is a ValueError subclass
        print(f"laizi {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - never show users a traceback
        if os.environ.get("LAIZI_DEBUG"):
            raise
        print(f"laizi {args.command}: internal error: {exc!r} (set LAIZI_DEBUG=1 for details)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
