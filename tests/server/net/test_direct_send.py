"""Frames written straight to the socket (laizi.server.net.wsdirect) keep their order when a
slow reader makes them wait in the queue, and every frame still arrives."""

from __future__ import annotations

import contextlib
import re
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect as ws_connect

from laizi.server.common.delta import Mirror
from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import Client, LiveServer, choose


def _metric(srv: LiveServer, name: str) -> float:
    with urllib.request.urlopen(f"{srv.url}/metrics", timeout=10) as r:
        text = r.read().decode()
    m = re.search(rf"^{re.escape(name)} ([0-9.e+]+)$", text, re.M)
    return float(m.group(1)) if m else 0.0


class SlowReader:
    """A spectator on a socket with a tiny receive buffer that reads only when told."""

    def __init__(self, port: int) -> None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        self._stack = contextlib.ExitStack()  # (websockets wants connect() entered)
        self.ws = self._stack.enter_context(ws_connect(
            f"ws://127.0.0.1:{port}/ws", sock=sock, max_size=2**22, max_queue=4,
            ping_interval=None, close_timeout=1))
        self.mirror = Mirror()
        self.frames: list[dict[str, Any]] = []

    def send(self, msg: dict[str, Any]) -> None:
        import json

        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float) -> dict[str, Any]:
        import json

        # Mirror.take raises Gap on a frame out of order or missing
        m: dict[str, Any] = self.mirror.take(json.loads(self.ws.recv(timeout=timeout)))
        self.frames.append(m)
        return m


@pytest.mark.slow
def test_frames_keep_their_order_through_a_stall(tmp_path: Path) -> None:
    srv = LiveServer(str(tmp_path / "direct.db"), tmp_path, bot_delay=0.0, hand_pause=0.0,
                     send_queue_max=50_000, send_queue_bytes=1 << 25).start()
    host = Client(srv.port, "host")
    host.ws.close_timeout = 1  # (its unread frames: no close handshake to wait for at the end)
    slow = SlowReader(srv.port)
    try:
        code = host.bot_table(max_hands=400, rounds=16)
        slow.send({"type": "hello", "proto": PROTOCOL, "nickname": "sloth"})
        assert slow.recv(10)["type"] == "welcome"
        slow.send({"type": "join", "room": code, "spectate": True})
        slow.recv(10)
        host.send({"type": "start"})
        # The spectator does not read: its socket fills, the transport pauses, and the frames
        # wait in the server's queue (the queued path, after the direct ones).
        deadline = time.monotonic() + 120
        while _metric(srv, 'laizi_send_queue_frames{stat="max"}') < 20:
            assert time.monotonic() < deadline, "the slow reader's frames never queued"
            time.sleep(0.1)
        # Now it reads: every update follows the version before it, through the frames
        # that waited in the queue and on to the ones written directly again.
        deadline = time.monotonic() + 180
        while _metric(srv, 'laizi_send_queue_frames{stat="max"}') > 0:
            assert time.monotonic() < deadline, "the queue did not drain"
            for _ in range(50):
                slow.recv(30)
        for _ in range(200):  # the table goes on: frames written directly after the queued
            slow.recv(30)
        updates = [f for f in slow.frames if f["type"] == "update"]
        assert len(updates) > 300
        stats = srv.get("/healthz")[1]["stats"]
        assert stats["conns_direct"] >= 2  # the host and the spectator wrote directly
        assert stats["conns_dropped"] == 0
    finally:
        srv.stop()  # first: the clients' close handshakes would wait behind unread frames
        slow._stack.close()
        host.close()


def _start_against_bots(host: Client) -> None:
    """A one-hand table: ``host`` on seat 0, three random bots, started."""
    host.send({"type": "create", "settings": {"max_hands": 1}})
    host.until("joined")
    for s in range(1, 4):
        host.send({"type": "bot", "seat": s, "level": "random"})
    host.send({"type": "sit", "seat": 0})
    host.until(lambda m: m["type"] == "room" and sum(bool(x["bot"]) for x in m["room"]["seats"]) == 3)
    host.send({"type": "start"})


def test_a_server_without_direct_frames_plays_the_same(tmp_path: Path) -> None:
    """``direct_send=False``: every frame takes the queue, and the table plays as before."""
    srv = LiveServer(str(tmp_path / "queued.db"), tmp_path, direct_send=False).start()
    host = Client(srv.port, "host")
    try:
        _start_against_bots(host)
        host.until(lambda m: m["type"] in ("snapshot", "update"), timeout=30)
        assert srv.get("/healthz")[1]["stats"]["conns_direct"] == 0
    finally:
        host.close()
        srv.stop()


def test_an_action_s_update_and_ack_take_one_write(tmp_path: Path) -> None:
    """The frames one turn of the event loop sends a connection are written together: a
    player's action sends it the update and the ack in one write (one system call)."""
    srv = LiveServer(str(tmp_path / "writes.db"), tmp_path, bot_delay=0.0, hand_pause=0.0).start()
    host = Client(srv.port, "host")
    try:
        _start_against_bots(host)
        acked = 0
        deadline = time.monotonic() + 120
        seen: list[dict[str, Any]] = []  # the frames read while an ack was awaited

        def to_act(m: dict[str, Any]) -> bool:
            return m["type"] in ("snapshot", "update") and bool(
                m["view"].get("legal") or m["view"].get("match_over"))

        def answer(m: dict[str, Any]) -> bool:
            seen.append(m)
            return m["type"] in ("ack", "error")

        while acked < 8:
            assert time.monotonic() < deadline, "the host's moves were not acknowledged"
            # (a claim's update, the host now to discard, may come before the claim's ack:
            # acted on at once, not left to the turn's deadline)
            ready = [m for m in seen if to_act(m)]
            m = ready[-1] if ready else host.until(to_act, timeout=60)
            seen.clear()
            if m["view"].get("match_over"):
                break
            host.seq += 1
            host.send({"type": "action", "seq": host.seq, "action": choose(m["view"]["legal"]),
                       "version": m["v"]})
            if host.until(answer, timeout=30)["type"] == "ack":
                acked += 1
        assert acked >= 3
        stats = srv.get("/healthz")[1]["stats"]
        # each acknowledged action: at least its update and its ack in one write
        assert stats["frames_direct"] - stats["writes_direct"] >= acked, stats
        assert _metric(srv, "laizi_writes_direct_total") >= stats["writes_direct"] > 0
    finally:
        host.close()
        srv.stop()
