"""No frame sent to a seat (or a spectator) during whole bot games carries another seat's
concealed tiles, the wall or the seed before the hand ends."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from laizi.server.persistence import db
from support.srvhelpers import connect, game_frame, new_room, room_state

pytestmark = pytest.mark.timeout(180)

HIDDEN_KEYS = {"hand", "hands", "tiles", "seed", "wall"}


def walk(obj: Any, path: str = "") -> Any:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


def strict_loads(text: str) -> Any:
    """``json.loads`` that refuses an object with a repeated key (JSON parsers keep the
    last one silently: a second ``"v"`` would hide the first)."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        dup = {k for k in keys if keys.count(k) > 1}
        assert not dup, f"repeated keys {dup} in {text[:200]}"
        return dict(items)

    return json.loads(text, object_pairs_hook=pairs)


def event_versions(raw: list[str]) -> list[int]:
    """Every event version a socket received in its game frames (strictly parsed)."""
    vs: list[int] = []
    for text in raw:
        frame = strict_loads(text)
        kind = frame.get("type")
        if kind in ("snapshot", "update"):  # protocol 4: numbered by their place, v the last
            assert kind == "snapshot" or frame["e"], text[:200]
            assert all(isinstance(e, list) or "v" not in e for e in frame["e"]), text[:200]
            vs.extend(range(frame["v"] - len(frame["e"]) + 1, frame["v"] + 1))
    return vs


def check_frame(frame: dict[str, Any], seat: int | None, secrets: dict[int, dict[str, Any]]) -> int:
    """Check one game frame; returns the hand number it belongs to."""
    view = frame["view"]
    hand_no = int(view["hand_no"])
    over = view.get("phase") == "over"
    raw = json.dumps(frame, ensure_ascii=False)
    # The hand in play: its seed, wall and every other seat's deal never appear before its end.
    sec = secrets[hand_no]
    if not over:
        assert sec["seed"] not in raw, "seed leaked"
        assert sec["wall"] not in raw, "wall leaked"
        for o, tiles in sec["deals"].items():
            if o != seat:
                assert tiles not in raw, f"seat {o}'s deal leaked to {seat}"
        assert "seed" not in view or view.get("seed") is None
        for p in view.get("players", []):
            assert "hand" not in p, f"concealed tiles of seat {p['seat']} in view of {seat}"
        if seat is None:
            assert "hand" not in view and "legal" not in view
        else:
            assert len(view["hand"]) == view["players"][seat]["concealed"]
    for ev in frame.get("events", []):
        assert ev["type"] != "secret"
        assert ev.get("vis") in ("public", seat), ev
        if ev["type"] in ("deal", "draw") and ev.get("seat") != seat:
            assert "tiles" not in ev and "tile" not in ev, ev
        if ev["type"] == "response":
            assert ev["seat"] == seat
        if ev["type"] == "end_hand":
            pass  # the end reveals everything: allowed
    for path, key, value in walk(frame):
        if key in ("seed", "wall") and value and not over:
            assert ".events" in path and "end_hand" in json.dumps(frame.get("events")), path
    return hand_no


def seated(i: int) -> Callable[[dict[str, Any]], bool]:
    return lambda r: r["seats"][i]["player_id"] is not None


def test_no_frame_leaks_hidden_information(make_app: Any, tmp_path: Any) -> None:
    from starlette.testclient import TestClient

    from support.srvhelpers import close_all

    dbfile = tmp_path / "privacy.db"
    with TestClient(make_app(db_url=str(dbfile))) as client:
        try:
            wss = []
            owner, _ = connect(client, "s0")
            code = new_room(owner, max_hands=3, seed="privacy")
            owner.send(type="sit", seat=0)
            room_state(owner, lambda r: r["seats"][0]["player_id"] is not None)
            wss.append(owner)
            for i in (1, 2, 3):
                ws, _ = connect(client, f"s{i}")
                ws.send(type="join", room=code)
                ws.until("joined")
                ws.send(type="sit", seat=i)
                room_state(ws, seated(i))
                ws.send(type="ready")
                room_state(ws, lambda r, i=i: r["seats"][i]["ready"])
                wss.append(ws)
            spec, _ = connect(client, "spectator")
            spec.send(type="join", room=code, spectate=True)
            spec.until("joined")
            owner.send(type="start")
            for ws in wss:
                game_frame(ws, lambda m: m["type"] == "snapshot")
                ws.send(type="auto", on=True)  # every seat played by its bot
            for ws in [*wss, spec]:
                game_frame(ws, lambda m: m["view"].get("match_over"), timeout=120)
            mid = wss[0].frames[-1]["match_id"]
        finally:
            close_all()
    # The server's full log: seeds, walls and deals of every hand.
    eng = db.make_engine(str(dbfile))
    with Session(eng) as s:
        events = [r.data for r in s.scalars(select(db.EventRow).where(db.EventRow.match_id == mid)
                                            .order_by(db.EventRow.n))]
        row = s.get(db.MatchRow, mid)
        assert row is not None
        match_seed = row.seed
    secrets: dict[int, dict[str, Any]] = {}
    for ev in events:
        if ev["type"] == "secret":
            secrets[ev["hand"]] = {"seed": ev["seed"], "wall": ev["wall"], "deals": {}}
        if ev["type"] == "deal":
            secrets[max(secrets)]["deals"][ev["seat"]] = ev["tiles"]
    assert len(secrets) == 3
    hands_seen = set()
    for seat, ws in [(0, wss[0]), (1, wss[1]), (2, wss[2]), (3, wss[3]), (None, spec)]:
        frames = [f for f in ws.frames if f["type"] in ("update", "snapshot")]
        assert frames
        for f in frames:
            assert f["seat"] == seat
            hands_seen.add(check_frame(f, seat, secrets))
        for text in ws.raw:
            assert match_seed not in text
        # The stream is gap-free per seat.
        vs = [e["v"] for f in frames if f["type"] == "update" for e in f["events"]]
        assert vs == sorted(vs) and len(vs) == len(set(vs))
        # Each event carries one version, the seat's own: 1, 2, 3, … up to the frame's "v",
        # no other counter (a global index would count the hidden claim answers).
        received = event_versions(ws.raw)
        assert sorted(set(received)) == list(range(1, frames[-1]["v"] + 1)), seat
    assert hands_seen == {1, 2, 3}
