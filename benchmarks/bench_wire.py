"""What the table's frames cost, in one process, without sockets (issue 24, lean wire).

    python benchmarks/bench_wire.py --matches 20 --json

Bots (``greedy``) play whole matches on a :class:`laizi.server.tables.engine.GameSession`;
after every action each of the five audiences (four seats, a spectator) gets its frame,
built the way :meth:`laizi.server.tables.room.Room.frame` builds it:

- **protocol 1** (laizi up to 30cc857): the seat's new events plus its whole view;
- **protocol 3** (now; "p2" in the output, the deltas' side): the new events ``e`` and the
  view's patch ``p`` since the frame before (:meth:`GameSession.view_patch`, keys by number);
  a snapshot when the match starts. (Protocol 2, laizi up to 51901d2, sent ``from``, the
  events numbered and the patch with its keys as text: run this script on that tree.)

Reported: the bytes one client receives per hand and per action, raw and with
permessage-deflate (a zlib stream per connection, context kept, a sync flush per frame —
what uvicorn's ``--ws-deflate`` does), the CPU to build the frames per action (both
protocols, on twin sessions fed the same moves) and the CPU deflate adds per frame. The
Python applier (:class:`laizi.server.common.delta.Mirror`) checks on every frame that the
patched view is the snapshot's.
"""

from __future__ import annotations

import argparse
import json
import time
import zlib
from typing import Any

from laizi.rules import RuleSet
from laizi.server.common.delta import Mirror, canonical
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.framing import SHAPES_JSON, VIEW_KEYS_JSON
from laizi.server.tables.seats import SeatBot

AUDIENCES: tuple[int | None, ...] = (0, 1, 2, 3, None)


def _deflater() -> Any:
    return zlib.compressobj(6, zlib.DEFLATED, -15)


def play(n_matches: int, hands: int) -> dict[str, Any]:
    rules = RuleSet()
    raw = {1: 0, 2: 0}
    packed = {1: 0, 2: 0}
    build = {1: 0.0, 2: 0.0}
    deflate_s = {1: 0.0, 2: 0.0}
    frames = actions = n_hands = checked = 0
    for m in range(n_matches):
        seed = seed_from_text(f"wire-{m}")
        g1 = GameSession(rules, seed, max_hands=hands)
        g2 = GameSession(rules, seed, max_hands=hands)
        bots = [SeatBot("greedy", 7 * m + s) for s in range(4)]
        sent = {s: 0 for s in AUDIENCES}
        base: dict[int | None, int | None] = {s: None for s in AUDIENCES}
        z = {p: {s: _deflater() for s in AUDIENCES} for p in (1, 2)}
        mirrors = {s: Mirror(check=True) for s in AUDIENCES}
        while not g1.over:
            if g1.hand_over:
                g1.next_hand()
                g2.next_hand()
                n_hands += 1
            else:
                seat = g1.to_act()[0]
                action = bots[seat].choose(g1, seat)
                g1.act(seat, action)
                g2.act(seat, action)
                actions += 1
            for s in AUDIENCES:
                stream = g1.stream(s)
                v = stream.v
                if v == sent[s]:
                    continue
                events = ",".join(stream.since(sent[s]) or [])
                whole = ",".join(stream.last(v - sent[s]))  # numbered, as protocol 1 sent them
                g2.stream(s)
                t0 = time.perf_counter()
                f1 = f'{{"type":"update","v":{v},"view":{g1.view_json(s)},"events":[{whole}]}}'
                t1 = time.perf_counter()
                b = base[s]
                patch = None if b is None else g2.view_patch(s, b)
                if patch is None:
                    f2 = (f'{{"type":"snapshot","v":{v},"view":{g2.view_json(s)},"keys":{VIEW_KEYS_JSON},'
                          f'"shapes":{SHAPES_JSON},'
                          f'"events":[{whole}]}}')
                else:
                    f2 = f'{{"type":"update","v":{v},"p":{patch},"e":[{events}]}}'
                t2 = time.perf_counter()
                build[1] += t1 - t0
                build[2] += t2 - t1
                for p, text in ((1, f1), (2, f2)):
                    data = text.encode()
                    raw[p] += len(data)
                    t3 = time.perf_counter()
                    out = z[p][s].compress(data) + z[p][s].flush(zlib.Z_SYNC_FLUSH)
                    deflate_s[p] += time.perf_counter() - t3
                    packed[p] += len(out) - 4  # permessage-deflate drops the 00 00 ff ff tail
                msg = mirrors[s].take(json.loads(f2))
                if msg["type"] == "update" and mirrors[s].view is not None:
                    want = json.loads(f'{{"v":{g2.view_json(s)}}}')["v"]
                    if canonical(mirrors[s].view) != canonical(want):
                        raise SystemExit(f"match {m}: seat {s}'s patched view differs at version {v}")
                    checked += 1
                base[s] = g2.version
                sent[s] = v
                frames += 1
        n_hands += 1
    clients = len(AUDIENCES)
    per = {}
    for p in (1, 2):
        per[f"p{p}"] = {
            "client_bytes_per_hand": round(raw[p] / clients / n_hands),
            "client_bytes_per_hand_deflated": round(packed[p] / clients / n_hands),
            "bytes_per_action_4_seats": round(raw[p] * 4 / clients / actions),
            "bytes_per_action_4_seats_deflated": round(packed[p] * 4 / clients / actions),
            "build_ms_per_action": round(build[p] * 1000 / actions, 4),
            "deflate_ms_per_action_4_seats": round(deflate_s[p] * 4 / clients * 1000 / actions, 4),
        }
    return {"matches": n_matches, "hands": n_hands, "actions": actions, "frames": frames,
            "patches_checked": checked, **per,
            "bytes_ratio_p2_p1": round(raw[2] / raw[1], 3),
            "build_cpu_ratio_p2_p1": round(build[2] / build[1], 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matches", type=int, default=20)
    ap.add_argument("--hands", type=int, default=4, help="hands per match")
    ap.add_argument("--json", action="store_true", help="one JSON line")
    args = ap.parse_args(argv)
    res = play(args.matches, args.hands)
    if args.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
