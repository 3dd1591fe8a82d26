"""Steps of the tournament tests over a live server: HTTP calls, registered accounts, a player
thread that plays its tables, waiting for a tournament's state, SQL on its database."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from support.srvhelpers import Client, LiveServer, choose

PASSWORD = "tourney-pass-9"


def call(srv: LiveServer, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(srv.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def account(srv: LiveServer, name: str) -> str:
    st, out = call(srv, "POST", "/api/account/register", {"username": name, "password": PASSWORD})
    assert st == 200, out
    return str(out["token"])


class Player(threading.Thread):
    """One entrant on a WebSocket: finds its table on the tournament page's JSON, joins it,
    plays (first winning or passing action, else a discard) and presses 继续; reconnects
    when the server goes away."""

    def __init__(self, srv: LiveServer, tid: int, token: str, leave_at: int = 0) -> None:
        super().__init__(daemon=True)
        self.srv, self.tid, self.token = srv, tid, token
        self.leave_at = leave_at  # leaves (离开) its n-th table after its first move there
        self.left = False
        self.stop = threading.Event()
        self.rooms: list[str] = []
        self.actions = 0
        self.errors: list[str] = []
        self.trace: list[tuple[float, str]] = []

    def run(self) -> None:
        client: Client | None = None
        room: str | None = None
        done: set[str] = set()
        while not self.stop.is_set():
            try:
                if client is None:
                    client = Client(self.srv.port, token=self.token)
                    room = None
                st, d = call(self.srv, "GET", f"/api/tournaments/{self.tid}", token=self.token)
                if st != 200 or d["status"] in ("finished", "cancelled"):
                    if st == 200:
                        return
                    time.sleep(0.2)
                    continue
                tab = (d.get("me") or {}).get("table")
                if not self.trace or self.trace[-1][1] != f"table {tab}":
                    self.trace.append((time.monotonic(), f"table {tab}"))
                if tab is None or tab["room"] in done:
                    time.sleep(0.1)
                    continue
                if tab["room"] != room:
                    client.send({"type": "join", "room": tab["room"]})
                    self.trace.append((time.monotonic(), "join"))
                    joined = client.until(lambda m: m["type"] in ("joined", "error"))
                    self.trace.append((time.monotonic(), f"{joined['type']} {joined.get('seat')}"))
                    if joined["type"] == "error":  # not expected: the page names open tables only
                        raise AssertionError(f"join {tab['room']}: {joined}")
                    assert joined["seat"] == tab["seat"], (joined["seat"], tab)
                    room = tab["room"]
                    if room not in self.rooms:
                        self.rooms.append(room)
                played = self.play(client)
                self.trace.append((time.monotonic(), f"played {played}"))
                if played:
                    done.add(room)
            except (OSError, ConnectionError, TimeoutError, AssertionError, KeyError) as exc:
                self.trace.append((time.monotonic(), repr(exc)[:100]))
                self.errors.append(repr(exc)[:200])
                if client is not None:
                    client.close()
                client = None
                time.sleep(0.3)
            except Exception as exc:  # noqa: BLE001 - websockets' ConnectionClosed and the like
                self.errors.append(repr(exc)[:200])
                if client is not None:
                    client.close()
                client = None
                time.sleep(0.3)
        if client is not None:
            client.close()

    def play(self, c: Client) -> bool:
        """Play until the match is over (True) or a few seconds pass without frames."""
        idle = 0
        while not self.stop.is_set():
            try:
                c.recv(0.5)
                idle = 0
            except TimeoutError:
                idle += 1
                if idle > 6:
                    return False
            c.drain(0.01)
            view = (c.last or {}).get("view") or {}
            if view.get("match_over"):
                return True
            hand = ((c.last or {}).get("match_id"), view.get("hand_no"))  # a match's hands count from 1
            if view.get("phase") == "over" and getattr(c, "continued", None) != hand:
                c.continued = hand  # type: ignore[attr-defined]
                c.send({"type": "continue"})
            legal = view.get("legal") or []
            if legal and c.last is not None and getattr(c, "acted_v", None) != c.last["v"]:
                c.acted_v = c.last["v"]  # type: ignore[attr-defined]
                c.seq = max(c.seq, int(c.last.get("last_seq") or 0)) + 1
                c.send({"type": "action", "seq": c.seq, "action": choose(legal), "version": c.last["v"]})
                self.actions += 1
                if self.leave_at and len(self.rooms) == self.leave_at and not self.left:
                    c.send({"type": "leave"})
                    c.until("left")
                    self.left = True
                    return True
        return False


def wait_for(srv: LiveServer, tid: int, pred: Any, timeout: float) -> dict[str, Any]:
    end = time.monotonic() + timeout
    d: dict[str, Any] = {}
    while time.monotonic() < end:
        st, d = call(srv, "GET", f"/api/tournaments/{tid}")
        if st == 200 and pred(d):
            return d
        time.sleep(0.2)
    raise AssertionError(f"timed out; last state: status={d.get('status')} round={d.get('current_round')}")


def query(db_url: str, sql: str, **params: Any) -> list[Any]:
    """Rows straight from the server's database (SQLite file or PostgreSQL)."""
    from sqlalchemy import text

    from laizi.server.persistence.db import make_engine

    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(text(sql), params))
    finally:
        engine.dispose()
