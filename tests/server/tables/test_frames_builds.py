"""The compiled build and the pure build send the same frames (byte for byte).

Runs in both test passes (scripts/test.sh lists it for the compiled one): this process
plays fixed random matches with the build it loaded, a child process plays them again
with the pure sources (``PYTHONPATH=src`` comes before the installed package), and the
frames of every seat and a spectator must agree. In the pure pass both sides are pure
and the test checks only that the frames are deterministic; in the compiled pass it
caught a whole wait score sent as ``1200.0`` where the pure build sent ``1200``."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MATCHES = 12

# (the same code runs here and in the child: it is this file's own function, by source)
PLAY = '''
import hashlib, sys
from laizi.rules import RuleSet
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.seats import SeatBot

def frames_digest(matches):
    h = hashlib.sha256()
    for m in range(matches):
        g = GameSession(RuleSet(), seed_from_text(f"builds-{m}"), max_hands=4)
        bots = [SeatBot("random", 7 * m + s) for s in range(4)]
        base = dict.fromkeys((0, 1, 2, 3, None))
        while not g.over:
            if g.hand_over:
                g.next_hand()
            else:
                seat = g.to_act()[0]
                g.act(seat, bots[seat].choose(g, seat))
            for s in base:
                b = base[s]
                text = None if b is None else g.view_patch(s, b)
                if text is None:
                    text = g.view_json(s)
                h.update(f"{s} {text}\\n".encode())
                base[s] = g.version
    return h.hexdigest()
'''


def _here(matches: int) -> str:
    ns: dict[str, object] = {}
    exec(PLAY, ns)  # noqa: S102 - this file's own code
    return str(ns["frames_digest"](matches))  # type: ignore[operator]


def test_the_frames_are_the_same_in_this_build_and_the_pure_one() -> None:
    import laizi.compiled as c

    mine = _here(MATCHES)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    child = subprocess.run(
        [sys.executable, "-c", PLAY + f"\nimport laizi.compiled as c\nprint(c.BUILD, frames_digest({MATCHES}))"],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=True)
    build, pure = child.stdout.split()
    assert build == "pure"
    assert mine == pure, f"the {c.BUILD} build's frames differ from the pure build's"
    assert len(hashlib.sha256().hexdigest()) == len(mine)
