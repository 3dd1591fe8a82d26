"""``laizi serve``: the game server and web client (Starlette on uvicorn).

Alone it is one process on SQLite. With ``--redis`` (and a PostgreSQL ``--db``) it is a
node of a cluster (:mod:`laizi.server.cluster`): ``--node NAME`` on each machine, or
``--workers N`` node processes on this one sharing the port.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import signal
import socket
from typing import Any

NAME = "serve"
HELP = "run the game server and web client (lobby, tables, replays, score calculator)"

MAX_WORKERS = 64


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default="laizi.db",
                   help="database: a SQLite file path or URL (default ./laizi.db), "
                        "or postgresql://user:pass@host/db")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="redis://host:port/db: run as a node of a cluster sharing this Redis and "
                        "the --db PostgreSQL (rooms are leased, relayed and taken over; "
                        "docs/cluster.md)")
    p.add_argument("--cluster-key-file", default=None, metavar="PATH",
                   help="a file holding the cluster key that signs every bus message (else "
                        "LAIZI_CLUSTER_KEY; --workers makes one for its workers when neither "
                        "is set). Redis's password goes in the URL (redis://:PASSWORD@host:port) "
                        "or LAIZI_REDIS_PASSWORD (docs/cluster.md)")
    p.add_argument("--node", default=None, metavar="NAME",
                   help="this node's name, unique in the cluster (default: host name and port)")
    p.add_argument("--workers", type=int, default=1,
                   help="node processes on this machine, sharing the port (needs --redis and a "
                        "PostgreSQL --db; default 1)")
    p.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    # affinity hook (laizi.server.cluster.affinity): direct addresses for owner hints
    p.add_argument("--worker-ports", type=int, default=None, metavar="FIRST",
                   help="with --workers N: worker i also listens on port FIRST+i and clients "
                        "joining a room through another worker are told to reconnect there")
    p.add_argument("--advertise", default=None, metavar="HOST:PORT",
                   help="this node's direct address, given to clients joining its rooms "
                        "through another node (docs/cluster.md, owner affinity)")
    p.add_argument("--direct-port", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--bot-delay", type=float, default=None,
                   help="seconds a bot waits before it acts (default 0.6)")
    p.add_argument("--hand-pause", type=float, default=None,
                   help="seconds between a hand's end and the next deal (default 4)")
    p.add_argument("--msg-rate", type=float, default=None,
                   help="WebSocket frames per second one connection may send (burst twice "
                        "that) before it is throttled (default 40)")
    p.add_argument("--max-connections", type=int, default=None, metavar="N",
                   help="WebSockets open at once, in all (a cluster's: across its nodes); "
                        "more are refused (default 3000)")
    p.add_argument("--ws-deflate", action="store_true",
                   help="compress WebSocket frames (permessage-deflate; off by default: "
                        "frames are small and compression costs more CPU than it saves)")
    p.add_argument("--ws", default="websockets-sansio",
                   choices=["websockets-sansio", "websockets", "wsproto", "auto"],
                   help="uvicorn WebSocket implementation (default websockets-sansio: the least "
                        "server CPU under benchmarks/bench_server.py; wsproto needs the "
                        "wsproto package)")
    p.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRS",
                   help="comma-separated addresses or networks (CIDR) of the reverse proxies in "
                        "front: only a connection from one of them may give the client's address "
                        "in X-Forwarded-For (default: FORWARDED_ALLOW_IPS, else none: every "
                        "client's address is its connection's; docs/deploy.md)")
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")


def _cluster_error(args: argparse.Namespace) -> str | None:
    """Why these cluster options cannot run (None: they can, or there are none)."""
    if not 1 <= args.workers <= MAX_WORKERS:
        return f"--workers must be from 1 to {MAX_WORKERS}"
    if args.node is not None and not (0 < len(args.node) <= 40 and args.node.replace("-", "").replace(
            "_", "").replace(".", "").isalnum()):
        return "--node must be 1-40 letters, digits, '-', '_' or '.'"
    if args.redis is None and args.node is None and args.workers == 1:
        return None
    if args.redis is None:
        return "--workers and --node need --redis redis://host:port (and a PostgreSQL --db)"
    if not args.redis.startswith(("redis://", "rediss://", "unix://")):
        return "--redis must be a redis://, rediss:// or unix:// URL"
    if not args.db.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        return "a cluster (--redis, --workers, --node) needs a PostgreSQL --db postgresql://…"
    try:
        import redis  # noqa: F401
    except ModuleNotFoundError:
        return "missing dependency 'redis'; install the cluster extra: pip install 'laizi[cluster]'"
    return _cluster_key_error(args)


def _cluster_key_error(args: argparse.Namespace) -> str | None:
    """Load the cluster key (a file's into ``LAIZI_CLUSTER_KEY``); why not (None: it is there).
    ``--workers`` without one makes a random key for its own workers."""
    import os
    import secrets

    from laizi.server.cluster.bus import KEY_ENV, ClusterKeyError, cluster_key

    if args.cluster_key_file:
        try:
            with open(args.cluster_key_file, encoding="utf-8") as fh:
                os.environ[KEY_ENV] = fh.read().strip()
        except OSError as exc:
            return f"cannot read --cluster-key-file: {exc.strerror or exc}"
    elif not os.environ.get(KEY_ENV) and args.workers > 1 and args.node is None:
        os.environ[KEY_ENV] = secrets.token_hex(32)  # the workers' own: inherited, never shown
    try:
        cluster_key()
    except ClusterKeyError as exc:
        return str(exc)
    return None


def _redis_error(args: argparse.Namespace) -> str | None:
    """Redis answers with these credentials (None), or one line saying why not: a wrong
    password stops the node here, not later in a traceback."""
    from laizi.server.guard.redisconn import check_redis

    return check_redis(args.redis)


def _config(args: argparse.Namespace) -> dict[str, float] | str:
    kwargs: dict[str, float] = {}
    for name, value, top in (("--bot-delay", args.bot_delay, 10.0),
                             ("--hand-pause", args.hand_pause, 60.0)):
        if value is not None and not 0 <= value <= top:  # also refuses nan
            return f"{name} must be from 0 to {top:g} seconds"
    if args.bot_delay is not None:
        kwargs["bot_delay"] = args.bot_delay
    if args.hand_pause is not None:
        kwargs["hand_pause"] = args.hand_pause
    if args.msg_rate is not None:
        if not 0 < args.msg_rate <= 100_000:
            return "--msg-rate must be more than 0 and at most 100000 (messages a second)"
        kwargs["msg_rate"] = args.msg_rate
    if not 1 <= args.port <= 65535:
        return "--port must be from 1 to 65535"
    if args.worker_ports is not None and not 1 <= args.worker_ports <= 65536 - max(1, args.workers):
        return f"--worker-ports must be from 1 to {65536 - max(1, args.workers)} (one port a worker)"
    if args.max_connections is not None:
        if not 1 <= args.max_connections <= 1_000_000:
            return "--max-connections must be from 1 to 1000000"
        kwargs["max_connections"] = args.max_connections
    return kwargs


FORWARDED_ENV = "FORWARDED_ALLOW_IPS"


def forwarded_allow_ips(args: argparse.Namespace) -> list[str] | str:
    """The trusted proxies (``--forwarded-allow-ips``, else ``FORWARDED_ALLOW_IPS``, else
    none), or why they cannot be used. ``*`` is refused: any client could then choose its
    own address and slip every per-address limit."""
    import ipaddress
    import os

    raw = args.forwarded_allow_ips
    name = "--forwarded-allow-ips"
    if raw is None:
        raw, name = os.environ.get(FORWARDED_ENV, ""), FORWARDED_ENV
    out: list[str] = []
    for item in (a.strip() for a in raw.split(",")):
        if not item:
            continue
        if item == "*":
            return (f"{name} must list the proxies' addresses, not '*' (any client could "
                    "then claim any address)")
        try:
            out.append(str(ipaddress.ip_network(item, strict=False)) if "/" in item
                       else str(ipaddress.ip_address(item)))
        except ValueError:
            return f"{name}: {item[:60]!r} is not an IP address or network"
    return out


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from laizi.server.net.app import create_app
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the install
        print(f"laizi serve: error: missing dependency {exc.name!r}; "
              "install the server extra: pip install 'laizi[server]'")
        return 2
    kwargs = _config(args)
    proxies = forwarded_allow_ips(args)
    problem = kwargs if isinstance(kwargs, str) else proxies if isinstance(proxies, str) else (
        _cluster_error(args))
    if problem is None:
        from laizi.server.cluster.affinity import option_error  # affinity hook

        problem = option_error(args)
    if problem is None and args.redis is not None:
        problem = _redis_error(args)  # the options are checked before Redis is asked
    if problem is None:  # then the database (a node's Redis said first what is wrong with it)
        from laizi.server.persistence.db import check_database

        problem = check_database(args.db)
    if problem is not None:
        print(f"laizi serve: error: {problem}")
        return 2
    assert not isinstance(kwargs, str) and not isinstance(proxies, str)
    base = args.node or f"{socket.gethostname()}-{args.port}"
    if args.workers > 1:
        from laizi.server.cluster.supervisor import supervise, worker_commands

        print(f"laizi serve: starting {args.workers} workers (nodes {base}-w0…); each says "
              "when it accepts connections", flush=True)
        from laizi.server.cluster.affinity import worker_args  # affinity hook

        return supervise([c + worker_args(args, i)
                          for i, c in enumerate(worker_commands(args, base))])
    node = base if args.redis else None
    if hasattr(signal, "SIGUSR1"):  # `kill -USR1 PID`: every thread's stack to stderr (a hang)
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    app = create_app(db_url=args.db, redis_url=args.redis, node=node, **kwargs)
    affinity = getattr(app.state.hub.directory, "affinity", None)  # a cluster node's
    if affinity is not None:  # affinity hook: this node's direct address
        affinity.addr = args.advertise
    where = f"database: {app.state.hub.db_label}" + (f", node {node}" if node else "")
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                            ws=args.ws, ws_max_size=64 * 1024,
                            ws_per_message_deflate=args.ws_deflate, lifespan="on",
                            timeout_graceful_shutdown=10 if node else None,
                            # X-Forwarded-For is read only from the listed proxies (none: never)
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None)
    server = _DrainingServer(config)
    # said once the socket accepts connections (the database opened, rooms resumed)
    server.announce = f"laizi serve: http://{args.host}:{args.port}/  ({where})"
    sockets = [_reuse_port_socket(args.host, args.port)] if args.reuse_port else None
    if sockets is not None and args.direct_port:  # affinity hook: a worker's own port too
        from laizi.server.cluster.affinity import listen

        sockets.append(listen(args.host, args.direct_port))
    server.run(sockets=sockets)
    return 0


def _reuse_port_socket(host: str, port: int) -> socket.socket:
    """A listening socket other workers bind too (SO_REUSEPORT: the kernel spreads the
    connections)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _dump_tasks() -> None:
    """Every asyncio task's stack, to stderr (a node that does not stop: where it waits)."""
    import sys

    tasks = asyncio.all_tasks()
    print(f"laizi serve: {len(tasks)} tasks", file=sys.stderr, flush=True)
    for t in tasks:
        t.print_stack(limit=12, file=sys.stderr)
    sys.stderr.flush()


def _draining_server() -> Any:
    import uvicorn

    class DrainingServer(uvicorn.Server):
        """A node hands its rooms over (drain) before its sockets close on SIGTERM; its
        address is printed (``announce``) only once it accepts connections."""

        announce = ""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            if hasattr(signal, "SIGUSR2"):  # `kill -USR2 PID`: every task's stack to stderr
                asyncio.get_running_loop().add_signal_handler(signal.SIGUSR2, _dump_tasks)
            await super().startup(sockets=sockets)
            if self.started and self.announce:
                print(self.announce, flush=True)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            app: Any = self.config.app
            hub = getattr(getattr(app, "state", None), "hub", None)
            if hub is not None:  # a cluster node's directory closes the listeners, drains
                def stop_listening() -> None:  # no new connections: the proxy sends them on
                    for server in self.servers:
                        server.close()

                with contextlib.suppress(Exception):
                    await hub.directory.drain(stop_listening)
            await super().shutdown(sockets=sockets)

    return DrainingServer


def _DrainingServer(config: Any) -> Any:  # noqa: N802 - a class built on demand
    return _draining_server()(config)
