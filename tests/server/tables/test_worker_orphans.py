"""A killed server leaves no worker process behind. Against a real ``laizi serve``: a finished
match's replay is fetched (built in the server's spawned worker process), the server is
killed with SIGKILL (no shutdown: a crash, the OOM killer), and its worker must end by
itself (laizi.server.common.workers) instead of waiting on its queue for ever — before the
watch, every killed server of the suite left one such orphan."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

from laizi.server.common.protocol import PROTOCOL
from support.srvhelpers import LiveServer

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids = (task / "children").read_text().split()
        out.update(int(k) for k in kids)
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is gone too


def _finished_match(s: LiveServer) -> int:
    with websockets_sync.connect(s.ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "proto": PROTOCOL, "nickname": "orphans"}))
        ws.send(json.dumps({"type": "create", "settings": {"max_hands": 1}}))
        for i in range(4):
            ws.send(json.dumps({"type": "bot", "seat": i, "level": "random"}))
        ws.send(json.dumps({"type": "start"}))
        deadline = time.time() + 120
        while time.time() < deadline:
            m = json.loads(ws.recv(timeout=max(0.01, deadline - time.time())))
            if m.get("type") == "room" and m["room"]["status"] == "finished":
                return int(m["room"]["match_id"])
    raise AssertionError("the match did not finish")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_a_killed_servers_replay_worker_ends_by_itself(tmp_path: Path) -> None:
    s = LiveServer.plain(tmp_path, args=["--bot-delay", "0", "--hand-pause", "0"]).start()
    try:
        mid = _finished_match(s)
        before = _children(s.proc.pid)
        with urllib.request.urlopen(f"{s.url}/api/matches/{mid}/replay", timeout=60) as r:
            assert r.status == 200
        workers = _children(s.proc.pid) - before
        assert workers, "the replay was built without a worker process"
        s.kill()
        deadline = time.time() + 60
        while any(_alive(w) for w in workers):
            assert time.time() < deadline, f"orphaned workers still alive: {sorted(workers)}"
            time.sleep(0.2)
    finally:
        s.stop()
