"""``laizi serve``: the game server and web client (Starlette on uvicorn)."""

from __future__ import annotations

import argparse

NAME = "serve"
HELP = "run the game server and web client (lobby, tables, replays, score calculator)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="laizi.db",
                   help="database: a SQLite file path or URL (default ./laizi.db), "
                        "or postgresql://user:pass@host/db")
    p.add_argument("--bot-delay", type=float, default=None,
                   help="seconds a bot waits before it acts (default 0.6)")
    p.add_argument("--hand-pause", type=float, default=None,
                   help="seconds between a hand's end and the next deal (default 4)")
    p.add_argument("--msg-rate", type=float, default=None,
                   help="WebSocket frames per second one connection may send (burst twice "
                        "that) before it is throttled (default 40)")
    p.add_argument("--ws-deflate", action="store_true",
                   help="compress WebSocket frames (permessage-deflate; off by default: "
                        "frames are small and compression costs more CPU than it saves)")
    p.add_argument("--ws", default="websockets-sansio",
                   choices=["websockets-sansio", "websockets", "wsproto", "auto"],
                   help="uvicorn WebSocket implementation (default websockets-sansio: the least "
                        "server CPU under benchmarks/bench_server.py; wsproto needs the "
                        "wsproto package)")
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from laizi.server.app import create_app
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the install
        print(f"laizi serve: error: missing dependency {exc.name!r}; "
              "install the server extra: pip install 'laizi[server]'")
        return 2
    kwargs: dict[str, float] = {}
    for name, value, top in (("--bot-delay", args.bot_delay, 10.0),
                             ("--hand-pause", args.hand_pause, 60.0)):
        if value is not None and not 0 <= value <= top:  # also refuses nan
            print(f"laizi serve: error: {name} must be from 0 to {top:g} seconds")
            return 2
    if args.bot_delay is not None:
        kwargs["bot_delay"] = args.bot_delay
    if args.hand_pause is not None:
        kwargs["hand_pause"] = args.hand_pause
    if args.msg_rate is not None:
        if not 0 < args.msg_rate <= 100_000:
            print("laizi serve: error: --msg-rate must be from 0 to 100000")
            return 2
        kwargs["msg_rate"] = args.msg_rate
    app = create_app(db_url=args.db, **kwargs)
    print(f"laizi serve: http://{args.host}:{args.port}/  (database: {app.state.hub.db_label})",
          flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level,
                ws=args.ws, ws_max_size=64 * 1024, ws_per_message_deflate=args.ws_deflate,
                lifespan="on")
    return 0
