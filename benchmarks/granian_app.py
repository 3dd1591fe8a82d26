"""``laizi serve``'s app for granian (a Rust HTTP/WebSocket server), for the experiment of
docs/deploy.md "Another network layer: granian": ``benchmarks/granian_python.sh`` runs
granian with this factory where ``bench_server.py --server-python`` would run ``laizi
serve``. The options are ``laizi serve``'s, passed as JSON in ``GRANIAN_LAIZI_ARGS`` (one
process, no cluster)."""

from __future__ import annotations

import argparse
import json
import os

from starlette.applications import Starlette

from laizi.cli.serve import _config, add_arguments
from laizi.server.net.app import create_app


def app() -> Starlette:
    p = argparse.ArgumentParser()
    add_arguments(p)
    args = p.parse_args(json.loads(os.environ["GRANIAN_LAIZI_ARGS"]))
    kw = _config(args)
    if isinstance(kw, str):
        raise SystemExit(f"granian_app: {kw}")
    return create_app(db_url=args.db, redis_url=None, node=None, **kw)
