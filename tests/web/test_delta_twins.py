"""The wire's two appliers agree: ``web/js/delta.js`` (run by Node) and
``laizi.server.common.delta`` make the same whole frames of the same stream — a snapshot,
then the ``update`` frames of a match played in process (draws, discards, claims, kongs,
wins, hand boundaries), for every seat and a spectator (issue 24, protocol 3)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from laizi.rules import RuleSet
from laizi.server.common.delta import Mirror, canonical
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.frames import EVENT_SHAPES
from laizi.server.tables.framing import SHAPES_JSON, VIEW_KEYS_JSON
from laizi.server.tables.seats import SeatBot
from support.srvhelpers import bot_step

NODE = shutil.which("node")
DELTA_JS = Path(__file__).resolve().parents[2] / "src" / "laizi" / "web" / "js" / "delta.js"
AUDIENCES: tuple[int | None, ...] = (0, 1, 2, 3, None)

RUNNER = """
const d = await import(process.argv[1]);
const fs = await import("fs");
const streams = JSON.parse(fs.readFileSync(0, "utf8"));
const out = streams.map(frames => {
  const held = d.newHeld();
  return frames.map(m => {
    const whole = m.type === "snapshot" ? d.takeSnapshot(held, m) : d.takeUpdate(held, m);
    if (whole === null) throw new Error("gap");
    return whole;
  });
});
process.stdout.write(JSON.stringify(out));
"""


def _same_numbers(x: Any) -> Any:
    """JSON as JavaScript reads it: 8.0 is 8."""
    if isinstance(x, float) and x.is_integer():
        return int(x)
    if isinstance(x, list):
        return [_same_numbers(v) for v in x]
    if isinstance(x, dict):
        return {k: _same_numbers(v) for k, v in x.items()}
    return x


KONGS = ("kong", "ankong", "laizi_kong", "special_kong", "peng", "chi")


def _streams(seed: str, hands: int, kongs: int | None = None) -> list[list[dict[str, Any]]]:
    """Each audience's frames of a match of greedy bots; ``kongs``: of random moves that take
    a kong or a claim when they can (a seed), and lay a laizi or 红中 aside as a discard now
    and then."""
    g = GameSession(RuleSet(), seed_from_text(seed), max_hands=hands)
    bots = [SeatBot("greedy", 11 + s) for s in range(4)]
    rng = random.Random(kongs)
    frames: dict[int | None, list[str]] = {s: [] for s in AUDIENCES}
    sent = dict.fromkeys(AUDIENCES, 0)
    base: dict[int | None, int | None] = dict.fromkeys(AUDIENCES)
    while not g.over:
        if kongs is None or g.hand_over:
            bot_step(g, bots)
        else:
            seat = g.to_act()[0]
            legal = g.legal(seat)
            best = [a for a in legal if a.type in KONGS]
            g.act(seat, rng.choice(best if best and rng.random() < 0.8 else legal))
        for s in AUDIENCES:
            stream = g.stream(s)
            if stream.v == sent[s]:
                continue
            b = base[s]
            patch = None if b is None else g.view_patch(s, b)
            if patch is None:
                frames[s].append(f'{{"type":"snapshot","v":{stream.v},"view":{g.view_json(s)},'
                                 f'"keys":{VIEW_KEYS_JSON},"shapes":{SHAPES_JSON},"seat":{json.dumps(s)},'
                                 f'"events":[{",".join(stream.last(40))}]}}')
            else:
                frames[s].append(f'{{"type":"update","v":{stream.v},"p":{patch},'
                                 f'"e":[{",".join(stream.since(sent[s]) or [])}]}}')
            base[s], sent[s] = g.version, stream.v
    return [[json.loads(f) for f in frames[s]] for s in AUDIENCES]


@pytest.mark.skipif(NODE is None, reason="needs node")
@pytest.mark.parametrize("kongs", [None, 5])
def test_the_js_applier_makes_the_frames_the_python_one_makes(kongs: int | None) -> None:
    streams = _streams("twins", 2, kongs)
    assert all(len(f) > 50 for f in streams)
    shapes = [s[0] for s in EVENT_SHAPES]
    kinds = {shapes[e[0]] if isinstance(e, list) else e["type"] + ("/as" if e.get("as") else "")
             for m in streams[-1] for e in m.get("e", [])}  # (the spectator's: every public event)
    assert {"discard", "draw", "peng", "special_kong", "laizi_kong"} <= kinds, kinds
    if kongs is not None:  # what protocol 5's clients apply themselves, every kind
        assert {"chi", "kong", "ankong", "discard/as"} <= kinds, kinds
    js = subprocess.run([str(NODE), "--input-type=module", "-e", RUNNER,
                         DELTA_JS.as_uri()], input=json.dumps(streams), capture_output=True, text=True,
                        timeout=120, check=True)
    got = json.loads(js.stdout)
    ops = set()
    for s, frames in enumerate(streams):
        mirror = Mirror()
        for i, m in enumerate(frames):
            ops.update(op[0] for op in m.get("p", []))
            want = mirror.take(json.loads(json.dumps(m)))
            assert canonical(got[s][i]) == canonical(_same_numbers(want)), (AUDIENCES[s], i)
    assert {0, 2, 3, 5} <= ops  # set, append, splice, rows: the forms a match uses
