"""What a server's table frames cost per action with many tables at once (issue 24), in one
process, without sockets, A/B against another source tree in the same run.

    python benchmarks/bench_frames.py --rooms 500 --actions 40000 --ref /path/to/main/src --json

``--rooms`` :class:`~laizi.server.tables.engine.GameSession` tables of ``greedy`` bots take
turns, one action each in turn (as a busy server interleaves its rooms); after every action
the table's five audiences (four seats and a spectator) get their frame as
:meth:`laizi.server.tables.framing.RoomFrames.frame` builds it: the patch since the
audience's last frame (:meth:`GameSession.view_patch`), a snapshot at a match's start. A
finished match is replaced by a new one. Reported: the CPU (process time) of the frames per
action, and the bytes they came to (equal on both sides when the frames are the same);
``--waits``: also the part of it spent on the scored waits of the 听牌 line.

``--ref SRC``: also run the same measurement with ``PYTHONPATH=SRC`` (e.g. a worktree of
main), alternating ``--rounds`` times, each side in its own process; the last line is the
ratio of the medians (this tree / the reference).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

AUDIENCES: tuple[int | None, ...] = (0, 1, 2, 3, None)


def _time_waits(split: dict[str, float]) -> Any:
    """Wrap :func:`laizi.hints._scored_waits` (the 听牌 line's scored waits) so that its CPU
    adds up in ``split``: ``all``, and ``ready_afresh`` for a ready hand scored anew (the
    table's memo missed: the hand, or a seat's melds, changed). Returns the undo."""
    import laizi.hints as hints

    orig = hints._scored_waits

    def timed(view: Any, memo: Any = None) -> Any:
        before = None if memo is None else memo.last.get(view.seat)
        t0 = time.process_time()
        out = orig(view, memo)
        dt = time.process_time() - t0
        split["all"] += dt
        if out and memo is not None and memo.last.get(view.seat) is not before:
            split["ready_afresh"] += dt
        return out

    hints._scored_waits = timed
    return lambda: setattr(hints, "_scored_waits", orig)


def measure(rooms: int, actions: int, level: str, waits: bool = False) -> dict[str, Any]:
    from laizi.rules import RuleSet
    from laizi.server.tables.engine import GameSession, seed_from_text
    from laizi.server.tables.seats import SeatBot

    rules = RuleSet()
    matches = 0

    def new_table(r: int) -> list[Any]:
        nonlocal matches
        matches += 1
        g = GameSession(rules, seed_from_text(f"frames-{r}-{matches}"), max_hands=8)
        return [g, [SeatBot(level, 7 * matches + s) for s in range(4)], dict.fromkeys(AUDIENCES)]

    split = {"all": 0.0, "ready_afresh": 0.0}
    undo = _time_waits(split) if waits else None
    tables = [new_table(r) for r in range(rooms)]
    cpu = 0.0
    done = nbytes = frames = 0
    i = 0
    while done < actions:
        r = i % rooms
        i += 1
        g, bots, base = tables[r]
        if g.over:
            tables[r] = new_table(r)
            continue
        if g.hand_over:
            g.next_hand()
        else:
            seat = g.to_act()[0]
            g.act(seat, bots[seat].choose(g, seat))
            done += 1
        t0 = time.process_time()
        for s in AUDIENCES:
            g.stream(s)
            b = base[s]
            text = None if b is None else g.view_patch(s, b)
            if text is None:
                text = g.view_json(s)
            nbytes += len(text)
            frames += 1
            base[s] = g.version
        g.trim()
        cpu += time.process_time() - t0
    out = {"rooms": rooms, "actions": done, "frames": frames, "matches": matches,
           "frames_cpu_ms_per_action": round(cpu * 1000 / done, 4), "frame_bytes": nbytes}
    if undo is not None:
        undo()
        out["waits_cpu_ms_per_action"] = round(split["all"] * 1000 / done, 4)
        out["ready_waits_scored_afresh_ms_per_action"] = round(split["ready_afresh"] * 1000 / done, 4)
    return out


def _run_side(src: str, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, __file__, "--rooms", str(args.rooms), "--actions", str(args.actions),
           "--bot", args.bot, "--json"]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=500, help="tables playing at once")
    ap.add_argument("--actions", type=int, default=40000, help="actions measured in all")
    ap.add_argument("--bot", default="greedy", help="bot at every seat")
    ap.add_argument("--ref", help="a reference source tree (its src/), measured alternately")
    ap.add_argument("--rounds", type=int, default=2, help="with --ref: runs per side")
    ap.add_argument("--json", action="store_true", help="JSON lines only")
    ap.add_argument("--waits", action="store_true",
                    help="also report the CPU of the frames' scored waits (the 听牌 line), all "
                         "and the part spent scoring ready hands afresh")
    args = ap.parse_args(argv)
    if args.rooms < 1 or args.actions < 1 or args.rounds < 1:
        ap.error("--rooms, --actions and --rounds must be at least 1")
    if not args.ref:
        res = measure(args.rooms, args.actions, args.bot, args.waits)
        print(json.dumps(res) if args.json else "\n".join(f"{k}: {v}" for k, v in res.items()))
        return 0
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    sides = {"this": os.path.realpath(here), "ref": os.path.realpath(args.ref)}
    got: dict[str, list[float]] = {"this": [], "ref": []}
    for n in range(args.rounds):
        for side in ("ref", "this"):
            res = _run_side(sides[side], args)
            got[side].append(res["frames_cpu_ms_per_action"])
            print(json.dumps({"side": side, "round": n + 1, "src": sides[side], "result": res}), flush=True)
    ratio = statistics.median(got["this"]) / statistics.median(got["ref"])
    print(json.dumps({"ratio_this_over_ref": round(ratio, 3), "this_ms": got["this"], "ref_ms": got["ref"]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
