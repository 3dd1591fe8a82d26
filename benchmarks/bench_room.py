"""What a server's rooms cost per action in one process, without sockets (issue 24), A/B
against another source tree in the same run.

    python benchmarks/bench_room.py --rooms 200 --actions 20000 --ref /path/to/main/src --json

Starts a :class:`~laizi.server.tables.hub.Hub` on a database of its own (SQLite in a
temporary directory; ``--pg``: a private PostgreSQL, :mod:`benchsvc`), opens ``--rooms``
tables of four guest players, each with a connection (:class:`~laizi.server.common.connection.Conn`
without a socket: its frames are taken from its queue and counted), and plays them all at
once, one asyncio task per table, as the socket handler does: the seat to act chooses with a
``--bot`` (:class:`~laizi.server.tables.seats.SeatBot`), then, under the room's lock,
:meth:`~laizi.server.tables.room.Room.play` (the move, the journal written by the database
writer and awaited, the frames built and queued, the timer rearmed) and the ``ack``. Between
hands each seat presses 继续; a finished match's table is replaced by a new one.

What it measures is everything of an action but the network layer (parsing the client's
frame, the WebSocket framing and the socket writes): after ``--warm`` actions, the CPU of
the event loop's thread (``loop_cpu_ms_per_action``, the bots' choices left out: they are
the clients' work) and of the database writer's (``writer_cpu_ms_per_action``), and the
frames' bytes. Live runs (``bench_server_threads.py``) spread by ±15 % from one run to the
next; this one, with the same deals on both sides, separates a few per cent.

``--ref SRC``: also run the same measurement with ``PYTHONPATH=SRC`` (e.g. a worktree of
main), alternating ``--rounds`` times, each side in its own process; the last line is the
ratio of the medians (this tree / the reference). ``--ref-python PY`` and ``--python PY``:
the interpreters of the two sides (two builds, e.g. two compiled venvs: then without
``--ref`` each side runs the laizi installed in its venv).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from laizi.server.common.connection import Conn
    from laizi.server.common.protocol import RoomSettings
    from laizi.server.tables.hub import Hub
    from laizi.server.tables.room import Room

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


from bench_server_threads import thread_cpu  # noqa: E402 - CPU seconds of each thread


def _cpu(tids: list[int]) -> float:
    """CPU seconds (user + system) of threads ``tids`` of this process (Linux)."""
    now = thread_cpu(os.getpid())
    return sum(now.get(t, 0.0) for t in tids)


def _writer_tids() -> list[int]:
    return [t.native_id for t in threading.enumerate()
            if t.name.startswith("laizi-db-writer") and t.native_id is not None]


async def open_four(hub: Hub, settings: RoomSettings, tag: str) -> tuple[Room, list[str], list[Conn]]:
    """A table of four guests ``{tag}-0`` … ``{tag}-3`` opened on ``hub``, each seated with a
    connection without a socket (:class:`~laizi.server.common.connection.Conn`: its frames
    wait in its queue): ``(room, player ids, connections)``."""
    from laizi.server.common.connection import Conn
    from laizi.server.tables.seating import Seating, player_seat

    pids = []
    for s in range(4):
        guest = await hub.guest(None, f"{tag}-{s}")
        pids.append(guest["player_id"])
    room = await hub.open_table(settings, Seating(tuple(
        player_seat(pid, f"{tag}-{s}") for s, pid in enumerate(pids))))
    assert room is not None
    conns = []
    for pid in pids:
        c = Conn(None)
        c.player_id = pid
        await hub.join(c, room.code, False)
        conns.append(c)
    return room, pids, conns


async def measure(db_url: str, rooms: int, actions: int, warm: int, level: str) -> dict[str, Any]:
    from laizi.game.actions import Action
    from laizi.server.common import protocol as p
    from laizi.server.common.config import ServerConfig
    from laizi.server.common.protocol import RoomSettings
    from laizi.server.tables.hub import Hub
    from laizi.server.tables.seats import SeatBot

    hub = Hub(ServerConfig(db_url=db_url, bot_delay=600.0, turn_seconds=600.0, hand_pause=600.0,
                           disconnect_grace=600.0))
    await hub.start()
    settings = RoomSettings.model_validate({"rounds": 1})
    counts = {"actions": 0, "frames": 0, "bytes": 0, "matches": 0, "hands": 0}
    mark: dict[str, float] = {}
    done = asyncio.Event()
    loop_tid = threading.get_native_id()

    def take(conns: list[Any]) -> None:
        for c in conns:
            q = c.queue
            while not q.empty():
                text = q.get_nowait()
                if text is not None:
                    counts["frames"] += 1
                    counts["bytes"] += len(text)
            c.queued_bytes = 0
            c.pending = 0

    def tick() -> None:
        counts["actions"] += 1
        n = counts["actions"]
        if n == warm:
            mark["loop"] = _cpu([loop_tid])
            mark["writer"] = _cpu(_writer_tids())
            mark["bots"] = 0.0
            mark["frames"], mark["bytes"] = counts["frames"], counts["bytes"]
        elif n == warm + actions:
            mark["loop_end"] = _cpu([loop_tid])
            mark["writer_end"] = _cpu(_writer_tids())
            mark["frames_end"], mark["bytes_end"] = counts["frames"], counts["bytes"]
            done.set()

    async def table(r: int) -> None:
        m = 0
        while not done.is_set():
            m += 1
            counts["matches"] += 1
            room, pids, conns = await open_four(hub, settings, f"b{r}")
            take(conns)
            bots = [SeatBot(level, 7919 * r + 31 * m + s) for s in range(4)]
            seqs = [0, 0, 0, 0]
            while not done.is_set():
                g = room.game
                assert g is not None
                if g.over:
                    break
                if g.hand_over:
                    counts["hands"] += 1
                    async with room.lock:
                        for s in range(4):
                            if room.game is g and g.hand_over and not g.over:
                                await room.press_continue(s)
                    take(conns)
                    await asyncio.sleep(0)
                    continue
                seat = g.to_act()[0]
                t0 = time.thread_time()
                action = bots[seat].choose(g, seat).to_json()
                if counts["actions"] >= warm:
                    mark["bots"] += time.thread_time() - t0
                wire = Action.from_json(action)  # (the handler reads the client's action)
                seqs[seat] += 1
                async with room.lock:
                    res = await room.play(seat, wire, seqs[seat], pids[seat])
                conns[seat].send(p.ack(seqs[seat], res.v, duplicate=res.duplicate))
                take(conns)
                tick()
            for c in conns:
                if hub.room_of(c) is room:
                    await hub.detach(c, room)
            take(conns)

    tasks = [asyncio.create_task(table(r)) for r in range(rooms)]
    failed: list[BaseException] = []

    def ended(t: asyncio.Task[None]) -> None:  # a table that fails ends the run with its error
        if not t.cancelled() and t.exception() is not None:
            failed.append(t.exception())  # type: ignore[arg-type]
            done.set()

    for t in tasks:
        t.add_done_callback(ended)
    await done.wait()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await hub.stop()
    if failed:
        raise failed[0]
    n = actions
    loop_cpu = mark["loop_end"] - mark["loop"] - mark["bots"]
    from laizi.compiled import BUILD
    return {"rooms": rooms, "actions": n, "bot": level, "build": BUILD,
            "loop_cpu_ms_per_action": round(1000 * loop_cpu / n, 4),
            "writer_cpu_ms_per_action": round(1000 * (mark["writer_end"] - mark["writer"]) / n, 4),
            "bots_cpu_ms_per_action": round(1000 * mark["bots"] / n, 4),
            "frames_per_action": round((mark["frames_end"] - mark["frames"]) / n, 3),
            "frame_bytes": int(mark["bytes_end"] - mark["bytes"]),
            "matches": counts["matches"], "hands": counts["hands"]}


def _run_side(python: str, src: str | None, args: argparse.Namespace,
              db_url: str | None) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if src is not None:
        env["PYTHONPATH"] = src
    cmd = [python, os.path.abspath(__file__), "--rooms", str(args.rooms), "--actions",
           str(args.actions), "--warm", str(args.warm), "--bot", args.bot, "--json", "--one"]
    if db_url is not None:
        cmd += ["--db", db_url]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    res: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rooms", type=int, default=200, help="tables playing at once")
    ap.add_argument("--actions", type=int, default=20000, help="actions measured")
    ap.add_argument("--warm", type=int, default=2000, help="actions before the measure")
    ap.add_argument("--bot", default="random", help="the players' bot (their choices not counted)")
    ap.add_argument("--pg", action="store_true", help="on a private PostgreSQL (else SQLite)")
    ap.add_argument("--db", help=argparse.SUPPRESS)  # a side's database (with --ref)
    ap.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--ref", help="a reference source tree (its src/), measured alternately")
    ap.add_argument("--ref-python", help="the reference side's interpreter (another build)")
    ap.add_argument("--python", help="this side's interpreter with --ref or --ref-python")
    ap.add_argument("--rounds", type=int, default=2, help="with --ref: runs per side")
    ap.add_argument("--json", action="store_true", help="JSON lines only")
    args = ap.parse_args(argv)
    if args.actions < 1 or args.rooms < 1 or args.warm < 1:
        ap.error("--rooms, --actions and --warm must be at least 1")

    pg = None
    tmp = tempfile.TemporaryDirectory(prefix="bench_room_")
    try:
        if args.pg and not args.one:
            import benchsvc
            pg = benchsvc.Postgres().start()

        def db_for(name: str) -> str:
            if args.db:
                return str(args.db)
            if pg is not None:
                return str(pg.fresh_db(name))
            return os.path.join(tmp.name, f"{name}.db")

        def show(res: dict[str, Any]) -> None:
            if args.json:
                print(json.dumps(res), flush=True)
            else:
                print(f"[{res.get('side', 'this')}, {res['build']}] {res['rooms']} rooms, {res['actions']} actions "
                      f"({res['bot']}): event loop {res['loop_cpu_ms_per_action']} ms/action, "
                      f"writer {res['writer_cpu_ms_per_action']} ms, "
                      f"{res['frames_per_action']} frames and "
                      f"{res['frame_bytes'] / res['actions']:.0f} B per action", flush=True)

        if args.one or not (args.ref or args.ref_python):
            res = asyncio.run(measure(db_for("one"), args.rooms, args.actions, args.warm, args.bot))
            show(res)
            return 0
        here = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src")
        sides: dict[str, list[dict[str, Any]]] = {"ref": [], "this": []}
        plan: tuple[tuple[str, str, str | None], ...]
        if args.ref_python and not args.ref:  # two builds, each its installed laizi
            plan = (("ref", args.ref_python, None), ("this", args.python or sys.executable, None))
        else:
            plan = (("ref", args.ref_python or sys.executable, args.ref),
                    ("this", args.python or sys.executable, here))
        for i in range(args.rounds):
            for side, python, src in plan:
                res = _run_side(python, src, args, db_for(f"{side}{i}"))
                res["side"] = side
                sides[side].append(res)
                show(res)
        ratio = {}
        for k in ("loop_cpu_ms_per_action", "writer_cpu_ms_per_action"):
            a = statistics.median(r[k] for r in sides["this"])
            b = statistics.median(r[k] for r in sides["ref"])
            ratio[k] = round(a / b, 3) if b else None
        summary = {"ratio_this_over_ref": ratio,
                   "same_bytes": len({r["frame_bytes"] for s in sides.values() for r in s}) == 1}
        print(json.dumps(summary) if args.json else f"this / ref (medians): {summary}")
        return 0
    finally:
        if pg is not None:
            pg.stop()
        tmp.cleanup()


if __name__ == "__main__":
    raise SystemExit(main())
