"""Persistence: a server killed mid-hand (SIGKILL) and restarted resumes every match at the
same event with the same scores, on SQLite and on PostgreSQL (``LAIZI_TEST_PG_URL``)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = pytest.mark.timeout(240)

PG_URL = os.environ.get("LAIZI_TEST_PG_URL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, db_url: str, port: int, tmp: Path) -> None:
        self.db_url = db_url
        self.port = port
        self.log = tmp / f"server-{port}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "laizi", "serve", "--host", "127.0.0.1", "--port", str(self.port),
                 "--db", self.db_url, "--bot-delay", "0"],
                stdout=fh, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.log.read_text()[-2000:])

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


class Client:
    def __init__(self, port: int, nickname: str | None = None, token: str | None = None) -> None:
        # Entered as a context manager (websockets >= 17.1 deprecates a bare connect()).
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            websockets_sync.connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22))
        hello: dict[str, Any] = {"type": "hello"}
        if nickname:
            hello["nickname"] = nickname
        if token:
            hello["token"] = token
        self.send(hello)
        w = self.until(lambda m: m["type"] == "welcome")
        self.token = w["token"]
        self.pid = w["player_id"]
        self.last: dict[str, Any] | None = None
        self.seq = 0

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        m = json.loads(self.ws.recv(timeout=timeout))
        if m["type"] in ("update", "snapshot"):
            self.last = m
        return m

    def until(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        while True:
            m = self.recv(timeout)
            if pred(m):
                return m

    def drain(self) -> None:
        try:
            while True:
                self.recv(0.02)
        except TimeoutError:
            pass

    def close(self) -> None:
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
    for c in clients:
        c.drain()
    acted = False
    for c in clients:
        if c.last and c.last["view"].get("match_over"):
            return False
        legal = (c.last or {}).get("view", {}).get("legal") or []
        if legal and getattr(c, "acted_v", None) != c.last["v"]:  # type: ignore[index]
            c.acted_v = c.last["v"]  # type: ignore[index,attr-defined]
            c.seq += 1
            c.send({"type": "action", "seq": c.seq, "action": choose(legal), "version": c.last["v"]})  # type: ignore[index]
            acted = True
    if not acted:
        time.sleep(0.01)
    return True


def run_restart(db_url: str, tmp: Path) -> None:
    port = free_port()
    server = Server(db_url, port, tmp)
    server.start()
    clients: list[Client] = []
    try:
        clients = [Client(port, f"p{i}") for i in range(4)]
        c0 = clients[0]
        c0.send({"type": "create", "settings": {"max_hands": 2, "turn_seconds": 600,
                                                "claim_seconds": 120, "seed": "restart"}})
        code = c0.until(lambda m: m["type"] == "joined")["room"]["code"]
        for i, c in enumerate(clients):
            if i:
                c.send({"type": "join", "room": code})
                c.until(lambda m: m["type"] == "joined")
            c.send({"type": "sit", "seat": i})
            c.until(lambda m, i=i, pid=c.pid: m["type"] == "room"
                    and m["room"]["seats"][i]["player_id"] == pid)
        c0.send({"type": "start"})
        for c in clients:
            c.until(lambda m: m["type"] == "snapshot")
        # Play into the second hand, a few moves deep.
        for _ in range(20000):
            step(clients)
            v = c0.last["view"]  # type: ignore[index]
            if v["hand_no"] == 2 and v.get("phase") not in (None, "over") and v["wall_remaining"] < 70:
                break
        else:
            raise AssertionError("did not reach hand 2")
        time.sleep(0.3)  # let any in-flight action settle
        for c in clients:
            c.drain()
        before = [c.last for c in clients]
        tokens = [c.token for c in clients]
        seqs = [c.seq for c in clients]
        server.kill()
        for c in clients:
            c.close()
        server.start()
        clients = [Client(port, token=t) for t in tokens]
        for i, c in enumerate(clients):
            c.send({"type": "join", "room": code})
            joined = c.until(lambda m: m["type"] == "joined")
            assert joined["seat"] == i
            snap = c.until(lambda m: m["type"] == "snapshot")
            b = before[i]
            assert b is not None
            # Same event, same table, same scores.
            assert snap["v"] == b["v"], (snap["v"], b["v"])
            assert snap["view"]["hand"] == b["view"]["hand"]
            assert snap["view"]["scores"] == b["view"]["scores"]
            assert snap["view"]["legal"] == b["view"]["legal"]
            assert snap["view"]["players"] == b["view"]["players"]
            assert snap["last_seq"] == seqs[i]
            c.seq = snap["last_seq"]
        # A duplicate of the last applied action is still recognised after the restart.
        c = next(c for c in clients if c.seq > 0)
        c.send({"type": "action", "seq": c.seq, "action": {"type": "pass"}})
        ack = c.until(lambda m: m["type"] in ("ack", "error"))
        assert ack["type"] == "ack" and ack["duplicate"] is True
        for _ in range(20000):
            if not step(clients):
                break
        if not clients[0].last["view"].get("match_over"):  # type: ignore[index]
            clients[0].until(lambda m: m["type"] == "update" and m["view"].get("match_over"))
        final = clients[0].last["view"]  # type: ignore[index]
        assert final["match_over"] and sum(final["scores"]) == 0
    finally:
        for c in clients:
            with contextlib.suppress(Exception):
                c.close()
        server.stop()


def test_restart_resumes_match_sqlite(tmp_path: Path) -> None:
    run_restart(str(tmp_path / "restart.db"), tmp_path)


def test_restart_resumes_match_postgres(tmp_path: Path) -> None:
    if not PG_URL:
        pytest.skip("LAIZI_TEST_PG_URL is not set (run scripts/start_postgres.sh and export its URL)")
    from laizi.server import db

    eng = db.make_engine(PG_URL)
    db.Base.metadata.drop_all(eng)  # a clean schema: the server creates it on start
    eng.dispose()
    run_restart(PG_URL, tmp_path)
