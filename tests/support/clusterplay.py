"""Helpers of the cluster tests: protocol clients that follow their room across nodes,
play it, and check every frame they receive."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from websockets.exceptions import ConnectionClosed

from support.srvhelpers import Client, choose


def frame_ok(frame: dict[str, Any], seat: int | None) -> None:
    """Nothing of another seat on this wire: the frame is this seat's, no concealed tiles
    of others, no private event of others (the end of a hand reveals all: allowed)."""
    assert frame.get("seat") == seat, f"a frame of seat {frame.get('seat')} reached seat {seat}"
    view = frame["view"]
    over = view.get("phase") == "over"
    if not over:
        for p in view.get("players", []):
            assert "hand" not in p, f"concealed tiles of seat {p.get('seat')} seen by {seat}"
        if seat is not None:
            assert len(view["hand"]) == view["players"][seat]["concealed"]
        assert not view.get("seed") and not view.get("wall")
    for ev in frame.get("events", []):
        assert ev["type"] != "secret"
        assert ev.get("vis") in ("public", seat), ev
        if ev["type"] in ("deal", "draw") and ev.get("seat") != seat:
            assert "tiles" not in ev and "tile" not in ev, ev
        if ev["type"] == "response":
            assert ev["seat"] == seat, ev


class Player:
    """A seated protocol client that acts on its legal moves, remembers every ack, and
    reconnects (through ``port``) when its socket goes."""

    def __init__(self, port: int, name: str) -> None:
        self.port = port
        self.c = Client(port, name)
        self.token = self.c.token
        self.pid = self.c.pid
        self.seat: int | None = None
        self.room = ""
        self.acked: set[int] = set()
        self.seq = 0
        self.frames = 0
        self.snapshots = 0
        self.last: dict[str, Any] | None = None
        self.acted_v: int | None = None
        self.continued: int | None = None
        self.reconnects = 0
        self.auto_cancelled = 0  # 托管 switched off on coming back (as 取消托管 on the table)
        self._auto_v: int | None = None
        self.last_frame_at = 0.0
        self.last_snapshot_at = 0.0
        self.seen: list[str] = []  # the types of the last frames (for failure messages)

    def send(self, msg: dict[str, Any]) -> None:
        try:
            self.c.send(msg)
        except Exception:  # noqa: BLE001 - the node went away: reconnect, the move is not acked
            self.reconnect()

    def reconnect(self, port: int | None = None) -> None:
        with contextlib.suppress(Exception):
            self.c.close()
        self.reconnects += 1
        end = time.monotonic() + 20
        while True:
            try:
                self.c = Client(port or self.port, token=self.token)
                break
            except Exception:  # noqa: BLE001 - the proxy has not yet noticed the dead node
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)
        if self.room:
            self.c.send({"type": "join", "room": self.room})

    def handle(self, m: dict[str, Any]) -> None:
        t = m["type"]
        self.seen.append(t if t != "error" else f"error:{m.get('code')}")
        del self.seen[:-40]
        if t == "ack" and not m.get("duplicate"):
            self.acked.add(int(m["seq"]))
        elif t == "joined":
            self.seat = m["seat"]
        elif t in ("update", "snapshot"):
            frame_ok(m, self.seat)
            self.frames += 1
            self.last_frame_at = time.monotonic()
            if t == "snapshot":
                self.snapshots += 1
                self.last_snapshot_at = self.last_frame_at
                self.seq = max(self.seq, int(m.get("last_seq") or 0))
                self.acted_v = None  # a resync: a move sent before it may never have arrived
            self.last = m

    def pump(self, wait: float = 0.01) -> None:
        """Read what is there (reconnecting if the socket went)."""
        try:
            while True:
                m = self.c.mirror.take(json.loads(self.c.ws.recv(timeout=wait)))
                self.handle(m)  # its checks' failures are the test's: not caught here
        except TimeoutError:
            return
        except (ConnectionClosed, OSError, EOFError):  # the node died or drained
            self.reconnect()

    def next(self, pred: Any, timeout: float = 10) -> dict[str, Any]:
        """The next frame matching ``pred``, every frame on the way handled."""
        end = time.monotonic() + timeout
        while True:
            m = self.c.mirror.take(json.loads(self.c.ws.recv(timeout=max(0.01, end - time.monotonic()))))
            self.handle(m)
            if pred(m):
                return m

    def play(self) -> bool:
        """Act once if it is this seat's move; False when the match is over."""
        v = (self.last or {}).get("view") or {}
        if v.get("match_over"):
            return False
        if v.get("phase") == "over" and self.continued != v.get("hand_no"):
            self.continued = v.get("hand_no")
            self.send({"type": "continue"})
        auto = v.get("auto") or []
        if (self.seat is not None and self.seat < len(auto) and auto[self.seat]
                and self.last is not None and self._auto_v != self.last["v"]):
            # Away longer than the disconnect grace (a reconnect through a failover on a busy
            # machine): the server played the seat; back, the player taps 取消托管.
            self._auto_v = self.last["v"]
            self.auto_cancelled += 1
            self.send({"type": "auto", "on": False})
            return True
        legal = v.get("legal") or []
        if legal and self.last is not None and self.acted_v != self.last["v"]:
            self.acted_v = self.last["v"]
            self.seq += 1
            self.send({"type": "action", "seq": self.seq, "action": choose(legal),
                       "version": self.last["v"]})
        return True

    def close(self) -> None:
        self.c.close()


def seat_players(owner_port: int, other_ports: list[int], bots: int = 2,
                 **settings: Any) -> tuple[list[Player], str]:
    """A started room: its creator on ``owner_port``, one more player on each of
    ``other_ports``, bots on the remaining seats."""
    ps = [Player(owner_port, "p0"), *(Player(p, f"p{i + 1}") for i, p in enumerate(other_ports))]
    c0 = ps[0].c
    c0.send({"type": "create", "settings": {"turn_seconds": 600, "claim_seconds": 120, **settings}})
    code = c0.until("joined", 20)["room"]["code"]
    for i, p in enumerate(ps):
        p.room = code
        if i:
            p.c.send({"type": "join", "room": code})
            p.c.until("joined", 20)
        p.c.send({"type": "sit", "seat": i})
        p.c.until(lambda m, i=i, pid=p.pid: m["type"] == "room"
                  and m["room"]["seats"][i]["player_id"] == pid, 20)
        p.c.send({"type": "ready"})
        p.c.until(lambda m, i=i: m["type"] == "room" and m["room"]["seats"][i]["ready"], 20)
    for s in range(len(ps), len(ps) + bots):
        c0.send({"type": "bot", "seat": s, "level": "random"})
        c0.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"], 20)
    c0.send({"type": "start"})
    for p in ps:
        p.seat = ps.index(p)
        snap = p.c.until("snapshot", 20)
        p.handle(snap)
    return ps, code


def check_database(pg_url: str, acked: dict[str, set[int]]) -> dict[str, int]:
    """Every match as stored: its journal and event log numbered without a gap, the event
    log exactly what replaying the journal gives (nothing applied twice, nothing lost in
    between), no client action stored twice, and every acknowledged action (``acked``:
    player id → seqs) stored. Returns totals."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from laizi.rules import RuleSet
    from laizi.server.persistence import db
    from laizi.server.tables.engine import GameSession

    eng = db.make_engine(pg_url)
    totals = {"matches": 0, "actions": 0, "events": 0, "acked": 0}
    stored: dict[str, set[int]] = {}
    try:  # one snapshot of the database (rooms may still be playing)
        with eng.connect() as conn, Session(
                bind=conn.execution_options(isolation_level="REPEATABLE READ")) as s:
            for m in s.scalars(select(db.MatchRow)):
                acts = list(s.scalars(select(db.ActionRow).where(db.ActionRow.match_id == m.id)
                                      .order_by(db.ActionRow.n)))
                evs = list(s.scalars(select(db.EventRow).where(db.EventRow.match_id == m.id)
                                     .order_by(db.EventRow.n)))
                assert [a.n for a in acts] == list(range(1, len(acts) + 1)), f"match {m.id}: gap in actions"
                assert [e.n for e in evs] == list(range(1, len(evs) + 1)), f"match {m.id}: gap in events"
                seen: set[tuple[str, int]] = set()
                for a in acts:
                    if a.player_id is not None and a.client_seq is not None:
                        key = (a.player_id, int(a.client_seq))
                        assert key not in seen, f"match {m.id}: action {key} stored twice"
                        seen.add(key)
                        stored.setdefault(a.player_id, set()).add(int(a.client_seq))
                g = GameSession.rebuild(RuleSet(**m.rules), bytes.fromhex(m.seed),
                                        [a.action for a in acts], max_hands=m.max_hands)
                want = [json.dumps(e, sort_keys=True) for e in g.log]
                got = [json.dumps(e.data, sort_keys=True) for e in evs]
                assert got == want[:len(got)] and len(want) == len(got), \
                    f"match {m.id}: the stored events are not the replay of its journal"
                totals["matches"] += 1
                totals["actions"] += len(acts)
                totals["events"] += len(evs)
    finally:
        eng.dispose()
    for pid, seqs in acked.items():
        missing = seqs - stored.get(pid, set())
        assert not missing, f"acknowledged actions of {pid} not in the database: {sorted(missing)}"
        totals["acked"] += len(seqs)
    return totals


ARGS = ["--bot-delay", "0.05", "--hand-pause", "0.3"]


def lease_owner(r: Any, code: str) -> str | None:
    v = r.get(f"laizi:lease:{code}")
    return None if v is None else v.decode().rpartition("|")[0]


def pump(players: list[Player], rounds: int = 1) -> None:
    for _ in range(rounds):
        for p in players:
            p.pump(0.005)
            if p.seat is not None:
                p.play()


def bot_room(port: int, hands: int = 6) -> tuple[Player, str]:
    """Four bots; the creator (through the proxy) watches."""
    host = Player(port, "host")
    c = host.c
    c.send({"type": "create", "settings": {"max_hands": hands}})
    code = c.until("joined", 20)["room"]["code"]
    host.room = code
    for s in range(4):
        c.send({"type": "bot", "seat": s, "level": "random"})
        c.until(lambda m, s=s: m["type"] == "room" and m["room"]["seats"][s]["bot"], 20)
    c.send({"type": "start"})
    host.handle(c.until("snapshot", 20))
    return host, code
