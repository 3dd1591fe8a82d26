"""What compressing the relay between nodes saves and costs (issue 24; docs/deploy.md,
"The relay compressed"), in one process, against the action's own cost in the same run.

    python benchmarks/bench_bus_zip.py --actions 3000 --json

Plays tables of four seats and a spectator on an in-process hub (SQLite in a temporary
directory; ``--bot`` chooses for every seat) and, for each action, takes the frames it
made — the four seats', the spectator's and the ``ack`` — as the owner would publish them
to a node relaying all five connections: one batch (:func:`laizi.server.cluster.bus.encode`,
RS-joined), signed as text (:func:`~laizi.server.cluster.bus.sign`) and compressed
(:func:`~laizi.server.cluster.bus.sign_zipped`), then read back by
:func:`~laizi.server.cluster.bus.verify`. It reports per action: the batch's bytes both
ways and their ratio; the CPU to sign and to check each form, and the extra of the
compressed one (deflate + inflate) as a share of the action's own CPU on the owner's
event loop (``Room.play`` and its frames, measured around the same actions).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_room import open_four  # noqa: E402 - a table of four guests, seated


def _take(conns: list[Any]) -> list[str]:
    """The frames queued on ``conns`` since the last look (taken off their queues)."""
    out = []
    for c in conns:
        while not c.queue.empty():
            text = c.queue.get_nowait()
            if text is not None:
                out.append(text)
        c.queued_bytes = 0
        c.pending = 0
    return out


async def measure(actions: int, level: str) -> dict[str, Any]:
    from laizi.game.actions import Action
    from laizi.server.cluster.bus import RS, channel, encode, sign, sign_zipped, verify
    from laizi.server.common import protocol as p
    from laizi.server.common.config import ServerConfig
    from laizi.server.common.connection import Conn
    from laizi.server.common.protocol import RoomSettings
    from laizi.server.tables.hub import Hub
    from laizi.server.tables.seats import SeatBot

    key = b"k" * 40
    chan = channel("b")
    d = tempfile.mkdtemp()
    hub = Hub(ServerConfig(db_url=f"sqlite:///{d}/bench.db", bot_delay=600.0, turn_seconds=600.0,
                           hand_pause=600.0, disconnect_grace=600.0))
    await hub.start()
    settings = RoomSettings.model_validate({})
    n = 0
    t = {"play": 0.0, "text": 0.0, "zip": 0.0, "read_text": 0.0, "read_zip": 0.0}
    size = {"text": 0, "zip": 0}
    m = 0
    try:
        while n < actions:
            m += 1
            room, pids, conns = await open_four(hub, settings, f"z{m}")
            spec = Conn(None)
            await hub.join(spec, room.code, True)
            conns.append(spec)

            _take(conns)
            bots = [SeatBot(level, 31 * m + s) for s in range(4)]
            seqs = [0, 0, 0, 0]
            while n < actions:
                g = room.game
                assert g is not None
                if g.over:
                    break
                if g.hand_over:
                    async with room.lock:
                        for s in range(4):
                            if room.game is g and g.hand_over and not g.over:
                                await room.press_continue(s)
                    _take(conns)
                    continue
                seat = g.to_act()[0]
                wire = Action.from_json(bots[seat].choose(g, seat).to_json())
                seqs[seat] += 1
                t0 = time.thread_time()
                async with room.lock:
                    res = await room.play(seat, wire, seqs[seat], pids[seat])
                conns[seat].send(p.ack(seqs[seat], res.v, duplicate=res.duplicate))
                t["play"] += time.thread_time() - t0
                batch = RS.join(encode({"k": "out", "n": "a", "c": i, "t": text})
                                for i, text in enumerate(_take(conns)))
                t0 = time.thread_time()
                plain = sign(key, chan, "a", "boot", n + 1, batch)
                t1 = time.thread_time()
                zipped = sign_zipped(key, chan, "a", "boot", n + 1, batch)
                t2 = time.thread_time()
                got_plain = verify(key, chan, plain.encode())
                t3 = time.thread_time()
                got_zip = verify(key, chan, zipped)
                t4 = time.thread_time()
                assert got_plain[4] == batch and got_zip[4] == batch
                t["text"] += t1 - t0
                t["zip"] += t2 - t1
                t["read_text"] += t3 - t2
                t["read_zip"] += t4 - t3
                size["text"] += len(plain.encode())
                size["zip"] += len(zipped)
                n += 1
            for c in conns:
                if hub.room_of(c) is room:
                    await hub.detach(c, room)
    finally:
        await hub.stop()
    us = 1e6 / n
    extra = (t["zip"] - t["text"]) + (t["read_zip"] - t["read_text"])
    return {"actions": n, "bot": level,
            "bytes_per_action_text": round(size["text"] / n), "bytes_per_action_zipped": round(size["zip"] / n),
            "bytes_ratio": round(size["zip"] / size["text"], 3),
            "sign_us_text": round(t["text"] * us, 1), "sign_us_zipped": round(t["zip"] * us, 1),
            "verify_us_text": round(t["read_text"] * us, 1), "verify_us_zipped": round(t["read_zip"] * us, 1),
            "owner_play_us_per_action": round(t["play"] * us, 1),
            "extra_cpu_share_of_play": round(extra / t["play"], 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=3000)
    ap.add_argument("--bot", default="strong")
    ap.add_argument("--json", action="store_true", help="one JSON line")
    args = ap.parse_args(argv)
    if args.actions < 1:
        ap.error("--actions: at least 1")
    res = asyncio.run(measure(args.actions, args.bot))
    if args.json:
        print(json.dumps(res))
    else:
        print(f"{res['actions']} actions ({args.bot}): the relayed batch {res['bytes_per_action_text']} B "
              f"as text, {res['bytes_per_action_zipped']} B compressed (x{res['bytes_ratio']}); "
              f"sign {res['sign_us_text']} / {res['sign_us_zipped']} us, verify {res['verify_us_text']} / "
              f"{res['verify_us_zipped']} us; the extra is {100 * res['extra_cpu_share_of_play']:.1f} % "
              f"of the action's own {res['owner_play_us_per_action']} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
