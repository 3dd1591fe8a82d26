"""Finding 8: replays are no denial of service. Against a real ``laizi serve``: while six
long matches' replays are fetched at once (cache misses: built in the worker process), a
playing room's action acks stay fast; replays are cached compressed, paged, and the
endpoint is rate-limited per IP (429 with Retry-After)."""

from __future__ import annotations

import gzip
import json
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import LiveServer, tracebacks, viewed

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

LONG_MATCHES = 6


def send(ws: Any, **msg: Any) -> None:
    ws.send(json.dumps(msg))


def until(ws: Any, pred: Any, timeout: float = 30) -> dict[str, Any]:
    deadline = time.time() + timeout
    while True:
        m = viewed(ws, json.loads(ws.recv(timeout=max(0.01, deadline - time.time()))))
        if m.get("type") == "error" and m.get("code") not in ("stale_version",):
            raise AssertionError(m)
        if pred(m):
            return m


def bot_match(ws: Any, max_hands: int) -> int:
    """A finished match of four random bots; returns its id."""
    send(ws, type="create", settings={"max_hands": max_hands, "rounds": 4})
    until(ws, lambda m: m["type"] == "joined")
    for i in range(4):
        send(ws, type="bot", seat=i, level="random")
    send(ws, type="start")
    room = until(ws, lambda m: m["type"] == "room" and m["room"]["status"] == "finished", 120)
    return int(room["room"]["match_id"])


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, list[int]]]:
    s = LiveServer.plain(tmp_path_factory.mktemp("replay"),
                         args=["--bot-delay", "0", "--hand-pause", "0"]).start()
    try:
        mids = []
        for i in range(LONG_MATCHES):  # one builder each (a player may create 5 rooms a minute)
            with websockets_sync.connect(s.ws_url, max_size=2**24) as ws:
                send(ws, type="hello", proto=PROTOCOL, nickname=f"builder{i}")
                until(ws, lambda m: m["type"] == "welcome")
                mids.append(bot_match(ws, 16))
        yield s, mids
    finally:
        s.stop()
        assert tracebacks(s.log_text()) == 0, s.log_text()[-4000:]


def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
    for a in legal:
        if a["type"] in ("tsumo", "ron", "pass"):
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    return discards[-1] if discards else legal[0]


class Player:
    """One human seat (0) against three bots; records the latency of every action's ack."""

    def __init__(self, s: LiveServer) -> None:
        self._cm = websockets_sync.connect(s.ws_url, max_size=2**24)
        self.ws = self._cm.__enter__()
        send(self.ws, type="hello", proto=PROTOCOL, nickname="timed")
        until(self.ws, lambda m: m["type"] == "welcome")
        send(self.ws, type="create", settings={"max_hands": 400, "rounds": 16, "turn_seconds": 600,
                                               "continue_seconds": 0,
                                               "claim_seconds": 120})
        until(self.ws, lambda m: m["type"] == "joined")
        send(self.ws, type="sit", seat=0)
        for i in (1, 2, 3):
            send(self.ws, type="bot", seat=i, level="random")
        send(self.ws, type="start")
        self.seq = 0
        self.sent: dict[int, float] = {}
        self.acks: list[tuple[float, float]] = []  # (time acked, latency)
        self.acted_v: int | None = None
        self.last_sent = 0.0

    def play(self, seconds: float) -> None:
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                m = viewed(self.ws, json.loads(self.ws.recv(timeout=1)))
            except TimeoutError:
                continue
            if m["type"] == "ack":
                t0 = self.sent.pop(m["seq"], None)
                if t0 is not None:
                    now = time.perf_counter()
                    self.acks.append((now, now - t0))
            elif m["type"] == "error":  # e.g. a stale version: take the snapshot that follows
                self.acted_v = None
            elif m["type"] in ("update", "snapshot"):
                legal = m["view"].get("legal") or []
                if legal and m["v"] != self.acted_v:
                    self.acted_v = m["v"]
                    # at most 20 actions a second (the server's per-socket limit is 40)
                    time.sleep(max(0.0, self.last_sent + 0.05 - time.perf_counter()))
                    self.last_sent = time.perf_counter()
                    self.seq += 1
                    self.sent[self.seq] = time.perf_counter()
                    send(self.ws, type="action", seq=self.seq, action=choose(legal), version=m["v"])

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def get(s: LiveServer, path: str, gz: bool = True) -> tuple[int, dict[str, str], bytes]:
    return s.request("GET", path, headers={"Accept-Encoding": "gzip"} if gz else {})


def test_replay_builds_do_not_stall_other_rooms(srv: tuple[LiveServer, list[int]]) -> None:
    s, mids = srv
    p = Player(s)
    try:
        p.play(4.0)
        base = [lat for _, lat in p.acks]
        assert len(base) >= 20, len(base)
        spans: list[tuple[float, float]] = []
        results: list[int] = []

        def fetch(mid: int) -> None:
            t0 = time.perf_counter()
            status, _, _ = get(s, f"/api/matches/{mid}/replay")
            spans.append((t0, time.perf_counter()))
            results.append(status)

        threads = [threading.Thread(target=fetch, args=(mid,)) for mid in mids]
        n0 = len(p.acks)
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            p.play(0.2)
        for t in threads:
            t.join()
        assert results == [200] * LONG_MATCHES
        lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
        during = [lat for t, lat in p.acks[n0:] if lo <= t <= hi]
        assert hi - lo > 1.0  # the builds took real time ...
        assert len(during) >= 10, (len(during), hi - lo)  # ... and the room played meanwhile
        print(f"acks: baseline median {statistics.median(base) * 1000:.1f} ms max "
              f"{max(base) * 1000:.1f} ms; during {len(during)} acks over {hi - lo:.2f} s of "
              f"replay builds median {statistics.median(during) * 1000:.1f} ms max "
              f"{max(during) * 1000:.1f} ms")
        # Fast, measured against the same room's acks just before (the same machine, the same
        # load; bare bounds of 0.1 s / 0.5 s were close on a busy CI machine, where the builds
        # in the worker process take a core from the server): the median no worse than 3× the
        # baseline's (a build on the event loop holds every ack behind it), no ack held 1 s.
        assert statistics.median(during) < max(0.1, 3 * statistics.median(base))
        assert max(during) < max(1.0, 3 * max(base))
    finally:
        p.close()


def test_replays_are_cached_compressed_and_paged(srv: tuple[LiveServer, list[int]]) -> None:
    s, mids = srv
    mid = mids[0]
    status, headers, body = get(s, f"/api/matches/{mid}/replay")
    assert status == 200 and headers["content-encoding"] == "gzip"
    full = json.loads(gzip.decompress(body))
    assert len(body) * 10 < len(gzip.decompress(body))  # stored and sent compressed
    t0 = time.perf_counter()
    status, headers, plain = get(s, f"/api/matches/{mid}/replay", gz=False)  # a cache hit
    assert time.perf_counter() - t0 < 0.5
    assert status == 200 and "content-encoding" not in headers and json.loads(plain) == full
    status, _, body = get(s, f"/api/matches/{mid}/replay?index=1")
    index = json.loads(gzip.decompress(body))
    assert [h["hand"] for h in index["hands"]] == [h["hand"] for h in full["hands"]]
    assert [h["frames"] for h in index["hands"]] == [len(h["frames"]) for h in full["hands"]]
    second = full["hands"][1]
    status, _, body = get(s, f"/api/matches/{mid}/replay?hand={second['hand']}")
    assert json.loads(gzip.decompress(body))["hands"] == [second]
    assert get(s, f"/api/matches/{mid}/replay?hand=9999")[0] == 404
    assert get(s, f"/api/matches/{mid}/replay?hand=x")[0] == 400
    assert get(s, "/api/matches/999999/replay")[0] == 404
    status, _, health = s.request("GET", "/healthz")
    stats = json.loads(health)["stats"]
    assert stats["replay_hits"] >= 3 and stats["replay_entries"] >= 1
    assert 0 < stats["replay_bytes"] <= 64 * 1024 * 1024


def test_replay_endpoint_is_rate_limited_per_ip(srv: tuple[LiveServer, list[int]]) -> None:
    s, mids = srv
    codes = []
    for _ in range(130):
        status, headers, body = get(s, f"/api/matches/{mids[0]}/replay?index=1")
        codes.append(status)
        if status == 429:  # (its code and seconds: the page words it, 操作太频繁：请 N 秒后再试)
            assert int(headers["retry-after"]) >= 1
            refusal = json.loads(body)
            assert refusal["code"] == "rate_limited", refusal
            assert refusal["params"]["wait"] == int(headers["retry-after"]), (refusal, headers)
            break
    assert codes[-1] == 429 and codes.count(200) <= 120
    status, _, out = s.request("GET", "/api/rooms")  # the rest of the server still answers
    assert status == 200
