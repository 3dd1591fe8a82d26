"""Helpers for the server tests: WebSocket wrapper with timeouts, room set-up."""

from __future__ import annotations

import contextlib
import json
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
from starlette.testclient import TestClient

from laizi.server.common.delta import Mirror
from laizi.server.common.protocol import PROTOCOL

_MIRRORS: weakref.WeakKeyDictionary[Any, Mirror] = weakref.WeakKeyDictionary()


def viewed(sock: Any, m: Any) -> Any:
    """``m`` (a frame received on ``sock``) with its whole ``view``: an update's patch applied
    to the view the socket's earlier frames built (one :class:`Mirror` per socket)."""
    if not isinstance(m, dict) or m.get("type") not in ("update", "snapshot", "welcome", "joined", "room"):
        return m  # (a welcome: the frames' tables; a room: a patch — when the hello asked for them)
    mirror = _MIRRORS.get(sock)
    if mirror is None:
        mirror = _MIRRORS[sock] = Mirror()
    return mirror.take(m)


def hello_msg(**fields: Any) -> dict[str, Any]:
    """A ``hello`` speaking today's protocol."""
    return {"type": "hello", "proto": PROTOCOL, **fields}


FAST = {"bot_delay": 0.0, "hand_pause": 0.0, "disconnect_grace": 30.0,
        "rate_exempt": ("testclient",)}  # rate limits have their own tests


class WS:
    """A TestClient WebSocket with timeouts and a record of every frame received (a game
    frame with its whole ``view``: an update's patch applied by a :class:`Mirror`)."""

    def __init__(self, session: Any) -> None:
        self.s = session
        self.mirror = Mirror()
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.seq = 0

    def send(self, **msg: Any) -> None:
        self.s.send_json(msg)

    def send_raw(self, text: str) -> None:
        self.s.send_text(text)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        async def _r() -> Any:
            with anyio.fail_after(timeout):
                return await self.s._send_rx.receive()

        msg = self.s.portal.call(_r)
        if msg["type"] == "websocket.close":
            raise ConnectionError(f"closed: {msg}")
        text = msg["text"]
        self.raw.append(text)
        data = self.mirror.take(json.loads(text))
        self.frames.append(data)
        return data

    def until(self, pred: Callable[[dict[str, Any]], bool] | str, timeout: float = 10.0) -> dict[str, Any]:
        if isinstance(pred, str):
            want = pred
            pred = lambda m: m.get("type") == want  # noqa: E731
        for _ in range(100000):
            m = self.recv(timeout)
            if pred(m):
                return m
        raise AssertionError("no such frame")

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.until("error", timeout)

    def act(self, action: dict[str, Any], version: int | None = None, seq: int | None = None) -> int:
        if seq is None:
            self.seq += 1
            seq = self.seq
        msg: dict[str, Any] = {"type": "action", "seq": seq, "action": action}
        if version is not None:
            msg["version"] = version
        self.send(**msg)
        return seq


OPEN: list[Any] = []  # WebSocket sessions to close when the test ends


def bot_step(g: Any, bots: Any) -> int | None:
    """One step of a server ``GameSession`` played by in-process bots (``bots[seat]``, e.g.
    :class:`laizi.server.tables.seats.SeatBot`): the next hand dealt when one ended, else the
    seat to act plays its bot's choice. Returns the seat that acted (None: a hand was dealt)."""
    if g.hand_over:
        g.next_hand()
        return None
    seat: int = g.to_act()[0]
    g.act(seat, bots[seat].choose(g, seat))
    return seat


def close_all() -> None:
    while OPEN:
        cm = OPEN.pop()
        with contextlib.suppress(Exception):  # already closed
            cm.__exit__(None, None, None)


def connect(client: TestClient, nickname: str | None = "tester", token: str | None = None) -> tuple[WS, Any]:
    cm = client.websocket_connect("/ws")
    ws = WS(cm.__enter__())
    OPEN.append(cm)
    hello = hello_msg()
    if nickname:
        hello["nickname"] = nickname
    if token:
        hello["token"] = token
    ws.send(**hello)
    ws.until("welcome")
    return ws, cm


def new_room(ws: WS, **settings: Any) -> str:
    ws.send(type="create", settings=settings)
    joined = ws.until("joined")
    return joined["room"]["code"]


def room_state(ws: WS, pred: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] == "room" and pred(m["room"]))["room"]


def game_frame(ws: WS, pred: Callable[[dict[str, Any]], bool] = lambda m: True,
               timeout: float = 10.0) -> dict[str, Any]:
    return ws.until(lambda m: m["type"] in ("update", "snapshot") and pred(m), timeout)


# ------------------------------------------------------------------ a real server process
def four_players(client: Any, **settings: Any) -> tuple[list[WS], str]:
    """Four human clients seated 0-3 in a started room."""
    settings.setdefault("max_hands", 1)
    settings.setdefault("turn_seconds", 300)
    settings.setdefault("claim_seconds", 120)
    owner, _ = connect(client, "p0")
    code = new_room(owner, **settings)
    owner.send(type="sit", seat=0)
    room_state(owner, lambda r: r["seats"][0]["player_id"] is not None)
    wss = [owner]
    for i in (1, 2, 3):
        ws, _ = connect(client, f"p{i}")
        ws.send(type="join", room=code)
        ws.until("joined")
        ws.send(type="sit", seat=i)
        room_state(ws, lambda r, i=i: r["seats"][i]["player_id"] is not None)
        ws.send(type="ready")  # 准备 (the host's start counts as the host's)
        room_state(ws, lambda r, i=i: r["seats"][i]["ready"])
        wss.append(ws)
    owner.send(type="start")
    for ws in wss:
        game_frame(ws, lambda m: m["type"] == "snapshot")
    return wss, code


def _ephemeral() -> tuple[int, int]:
    """The kernel's range for the local ports of outgoing connections."""
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        lo, hi = (int(x) for x in text.split())
        return lo, hi
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A loopback port free now, outside the kernel's ephemeral range. A port the kernel
    handed out (bind to 0) was free only until the server bound it: meanwhile any outgoing
    connection of the suite (clients, PostgreSQL, Redis) could take it as its local port —
    "Address already in use" (a worker of ``laizi serve --workers 2``, stop 51, beside
    stress-ng). Outgoing connections never take a port below that range."""
    import random
    import socket

    lo, hi = _ephemeral()
    # (from 10100: Chromium refuses port 10080, the last of its restricted ports)
    span = (10100, lo - 1) if lo > 12000 else (hi + 1, 65535)
    rng = random.SystemRandom()
    for _ in range(200):
        port = rng.randint(*span)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:  # (a crowded range: what the kernel gives)
        s.bind(("127.0.0.1", 0))
        got: int = s.getsockname()[1]
        return got


_SERVE = """
import json, sys
import uvicorn
from laizi.server.net.app import create_app
db, port, cfg = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
uvicorn.run(create_app(db_url=db, **cfg), host="127.0.0.1", port=port, log_level="warning",
            ws="websockets-sansio", ws_max_size=64 * 1024, lifespan="on")
"""


class LiveServer:
    """``laizi serve`` in a subprocess — the one way the tests start a real server (``cfg``:
    :class:`ServerConfig` fields, passed to ``create_app`` under uvicorn exactly as ``laizi
    serve`` does; none: the CLI itself, with ``args``). Loopback is exempt from the per-address
    rate limits unless ``rate_limited``; bots move at once; ``laizi check`` audits the database
    at :meth:`stop`. :meth:`plain` is ``laizi serve`` as shipped (none of the three).
    stdout and stderr go to ``self.log``."""

    def __init__(self, db_url: str, tmp: Any, port: int | None = None, *, rate_limited: bool = False,
                 args: list[str] | None = None, env: dict[str, str] | None = None,
                 **cfg: Any) -> None:
        self.rate_limited = rate_limited
        self.db_url = db_url
        self.port = port or free_port()
        self.cfg = cfg
        self.args = list(args or [])
        self.env = dict(env or {})
        self.shipped = False  # laizi serve's own bot delay and no audit at stop (plain())
        self.log = tmp / f"server-{self.port}.log"
        self.proc: Any = None

    @classmethod
    def plain(cls, tmp: Any, db_url: str | None = None, *, port: int | None = None,
              env: dict[str, str] | None = None, args: list[str] | None = None) -> LiveServer:
        """``laizi serve --db DB ARGS`` as shipped: rate limits on, the bots' own delay, no
        audit (``DB``: ``tmp/live.db`` unless given)."""
        srv = cls(db_url or str(tmp / "live.db"), tmp, port, rate_limited=True, args=args, env=env)
        srv.shipped = True
        return srv

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    base = url

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> LiveServer:
        import os
        import subprocess
        import sys
        import time
        import urllib.request

        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if not self.rate_limited:
            env["LAIZI_RATE_EXEMPT"] = "127.0.0.1"
        env.update(self.env)
        if self.cfg:
            assert not self.args, "args go to the CLI: no cfg with them"
            cmd = [sys.executable, "-c", _SERVE, self.db_url, str(self.port), json.dumps(self.cfg)]
        else:
            cmd = [sys.executable, "-m", "laizi", "serve", "--host", "127.0.0.1", "--port",
                   str(self.port), "--db", self.db_url,
                   *([] if self.shipped else ["--bot-delay", "0"]), *self.args]
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text()[-2000:])

    def kill(self) -> None:
        import signal

        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        import subprocess

        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        if not self.shipped:
            audit_database(self.db_url)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_text(self) -> str:
        try:
            return str(self.log.read_text(errors="replace"))
        except FileNotFoundError:
            return ""

    def rss_kb(self) -> int:
        from pathlib import Path

        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError("no VmRSS")

    def get(self, path: str, token: str | None = None, timeout: float = 10) -> tuple[int, Any]:
        return http(self.url + path, token=token, timeout=timeout)

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        return http(self.url + path, body)

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None,
                timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        """(status, lower-cased headers, body bytes) of any request."""
        import urllib.error
        import urllib.request

        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read()

    def json(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
             ) -> tuple[int, dict[str, str], Any]:
        status, headers, content = self.request(method, path, body, raw)
        return status, headers, json.loads(content) if content else None


@contextlib.contextmanager
def live_server(tmp: Any, **kw: Any) -> Iterator[LiveServer]:
    """:meth:`LiveServer.plain`, started, stopped at the end."""
    srv = LiveServer.plain(tmp, **kw).start()
    try:
        yield srv
    finally:
        srv.stop()


def tracebacks(text: str) -> int:
    return text.count("Traceback (most recent call last)")


# Problems ``laizi check`` found in the databases of the servers the tests stopped (reported
# at the end of the session, which then fails: tests/server/conftest.py).
AUDIT_PROBLEMS: list[str] = []


def audit_database(url: str) -> None:
    """Run the integrity audit (:mod:`laizi.server.tables.audit`, ``laizi check``) on a stopped
    server's database; what it finds is kept in :data:`AUDIT_PROBLEMS`."""
    import os

    if not url.startswith(("postgresql", "postgres")) and not os.path.exists(url.split("///")[-1]):
        return
    from laizi.server.tables.audit import check_url

    try:
        problems = check_url(url)
    except Exception as exc:  # noqa: BLE001 - a database the audit cannot read is a finding too
        problems = [f"the audit could not read it: {type(exc).__name__}: {str(exc)[:200]}"]
    AUDIT_PROBLEMS.extend(f"{url}: {p}" for p in problems)


def http(url: str, body: Any = None, token: str | None = None, *,
         timeout: float = 10) -> tuple[int, Any]:
    """(status, parsed JSON) of a GET (or a POST of ``body``), as ``token``'s holder."""
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def http_ok(base: str, path: str, token: str | None = None, body: Any = None) -> Any:
    """The parsed JSON of a GET (or a POST of ``body``) that must succeed (an assertion
    naming the path and the refusal otherwise)."""
    status, out = http(base + path, body, token, timeout=20)
    assert 200 <= status < 300, f"{path}: {status} {str(out)[:300]}"
    return out


class Client:
    """A real WebSocket client (``websockets``) of a :class:`LiveServer`."""

    def __init__(self, port: int, nickname: str | None = None, token: str | None = None,
                 hello: bool = True) -> None:
        from websockets.sync.client import connect as ws_connect

        # Entered as a context manager (websockets >= 17.1 deprecates a bare connect()).
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            ws_connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22))
        self.last: dict[str, Any] | None = None
        self.mirror = Mirror()
        self.seq = 0
        self.token = ""
        self.pid = ""
        self.frames: list[dict[str, Any]] = []
        if hello:
            self.hello(nickname, token)

    def hello(self, nickname: str | None = None, token: str | None = None) -> dict[str, Any]:
        msg = hello_msg()
        if nickname:
            msg["nickname"] = nickname
        if token:
            msg["token"] = token
        self.send(msg)
        w = self.until(lambda m: m["type"] in ("welcome", "error"))
        if w["type"] == "welcome":
            self.token = w["token"]
            self.pid = w["player_id"]
        return w

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def bot_table(self, level: str = "random", **settings: Any) -> str:
        """Create a room with ``settings`` and a ``level`` bot on each of its four seats
        (not started); its code."""
        self.send({"type": "create", "settings": settings})
        code: str = self.until("joined")["room"]["code"]
        for s in range(4):
            self.send({"type": "bot", "seat": s, "level": level})
        self.until(lambda m: m["type"] == "room" and all(x["bot"] for x in m["room"]["seats"]))
        return code

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        m: dict[str, Any] = self.mirror.take(json.loads(self.ws.recv(timeout=timeout)))
        self.frames.append(m)
        if m["type"] in ("update", "snapshot"):
            self.last = m
        return m

    def until(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        import time

        end = time.monotonic() + timeout
        while True:
            m = self.recv(max(0.01, end - time.monotonic()))
            if pred(m) if callable(pred) else m.get("type") == pred:
                return m

    def request(self, msg: dict[str, Any], want: str = "", timeout: float = 10) -> dict[str, Any]:
        """Send ``msg``; the next frame of type ``want`` or an ``error``."""
        self.send(msg)
        return self.until(lambda m: m["type"] in (want, "error"), timeout)

    def drain(self, wait: float = 0.02) -> None:
        try:
            while True:
                self.recv(wait)
        except TimeoutError:
            pass

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for kind in ("tsumo", "ron", "pass"):
        for a in legal:
            if a["type"] == kind:
                return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


def step(clients: list[Client]) -> bool:
    """One round of reading and acting; False when the match is over."""
    import time

    for c in clients:
        c.drain()
    acted = False
    for c in clients:
        if c.last and c.last["view"].get("match_over"):
            return False
        view = (c.last or {}).get("view", {})
        # 继续 after the settlement, once a hand: keyed by the match too, since a rematch's
        # hands count from 1 again (by hand_no alone, a rematch's first settlement waited the
        # whole continue_seconds, 15 s, for the timer)
        hand = ((c.last or {}).get("match_id"), view.get("hand_no"))
        if view.get("phase") == "over" and getattr(c, "continued", None) != hand:
            c.continued = hand  # type: ignore[attr-defined]
            c.send({"type": "continue"})
        legal = (c.last or {}).get("view", {}).get("legal") or []
        if legal and c.last is not None and getattr(c, "acted_v", None) != c.last["v"]:
            c.acted_v = c.last["v"]  # type: ignore[attr-defined]
            c.seq += 1
            c.send({"type": "action", "seq": c.seq, "action": choose(legal), "version": c.last["v"]})
            acted = True
    if not acted:
        time.sleep(0.01)
    return True


def caught_up(clients: list[Client], timeout: float = 30) -> None:
    """Wait until the server has handled every command these clients sent and each of them
    has read every frame those commands caused — a condition, where a fixed sleep guessed
    how fast a (busy) server answers. A socket's commands are handled in order and its frames
    queued in order, so: a ``ping`` from each, its ``pong`` awaited (every earlier command of
    that client is answered), then a second round, sent once every first pong is in (its
    ``pong`` comes behind whatever another client's command queued for it). For tables that
    only the clients move (no bots, no timer due)."""
    for rnd in (-2.0, -3.0):
        for c in clients:
            c.send({"type": "ping", "t": rnd})
        for c in clients:
            c.until(lambda m, rnd=rnd: m["type"] == "pong" and m.get("t") == rnd, timeout)


def seated_room(port: int, n_players: int = 4, bots: str = "random", *,
                tokens: list[str] | None = None, **settings: Any) -> tuple[list[Client], str]:
    """A started room: ``n_players`` real clients on seats 0.. (with ``tokens``: those
    identities, e.g. accounts), bots on the rest."""
    clients = ([Client(port, token=t) for t in tokens[:n_players]] if tokens
               else [Client(port, f"p{i}") for i in range(n_players)])
    c0 = clients[0]
    c0.send({"type": "create", "settings": settings})
    code = c0.until("joined")["room"]["code"]
    for i, c in enumerate(clients):
        if i:
            c.send({"type": "join", "room": code})
            c.until("joined")
        c.send({"type": "sit", "seat": i})
        c.until(lambda m, i=i, pid=c.pid: m["type"] == "room"
                and m["room"]["seats"][i]["player_id"] == pid)
        c.send({"type": "ready"})
        c.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["ready"])
    for s in range(n_players, 4):
        c0.send({"type": "bot", "seat": s, "level": bots})
        c0.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"])
    c0.send({"type": "start"})
    for c in clients:
        c.until("snapshot")
    return clients, code


def eventually(fn: Callable[[], Any], timeout: float = 30.0, what: str = "the condition") -> Any:
    """Call ``fn`` until it returns something truthy (returned) or ``timeout`` seconds pass
    (AssertionError): for what a server stores a moment after it tells (a busy machine)."""
    import time

    end = time.monotonic() + timeout
    while True:
        out = fn()
        if out:
            return out
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.05)
