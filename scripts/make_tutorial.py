"""Write the 新手教程's hand (``src/laizi/web/tutorial-hand.json``): one fixed, announced deal
(seed ``tutorial-95``, the kaikoufan preset) played by the engine — the learner's seat 0 by the
``strong`` bot's choices, the other three by ``greedy`` bots — recorded as seat 0's frames (the
server's own ``frame_view``: its hand, legal actions, scored waits, every seat's 番) with the
action taken after each. The page (``js/tutorial.js``) shows the frames and waits for the learner
to make seat 0's recorded move at each of its turns; ``tests/web/test_tutorial.py`` replays the
recorded actions on the engine and checks every frame.

    PYTHONPATH=src python scripts/make_tutorial.py [--check]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from laizi.bots import make_bot
from laizi.game import Action, Match
from laizi.rules import RuleSet
from laizi.server.tables.frames import frame_view
from laizi.views import match_view, seat_view

SEED = b"tutorial-95"
PRESET = "kaikoufan"
OUT = Path(__file__).resolve().parent.parent / "src/laizi/web/tutorial-hand.json"
DROP = ("history", "rules", "commitment")  # the same in every frame, or not needed by the page


def frame(m: Match, rules_json: dict[str, Any]) -> dict[str, Any]:
    v = frame_view(match_view(m, 0), rules_json)
    return {k: x for k, x in v.items() if k not in DROP}


def record(actions: list[tuple[int, Action]] | None = None) -> dict[str, Any]:
    """The tutorial's steps: with ``actions`` given, those are replayed (the check); else the
    bots choose them."""
    rules = RuleSet.preset(PRESET)
    rules_json = rules.model_dump(mode="json")
    m = Match(rules, seed=SEED, max_hands=1)
    bots = [make_bot("strong", 0)] + [make_bot("greedy", s) for s in (1, 2, 3)]
    steps: list[dict[str, Any]] = []
    queue = list(actions) if actions is not None else None
    while not m.over:
        hand = m.hand
        assert hand is not None
        for seat in m.to_act():
            if m.over or seat not in m.to_act():
                continue
            if queue is not None:
                s, a = queue.pop(0)
                assert s == seat, (s, seat)
            else:
                a = bots[seat].act(seat_view(hand, seat))
            steps.append({"view": frame(m, rules_json), "seat": seat, "action": a.to_json()})
            m.apply(seat, a)
    steps.append({"view": frame(m, rules_json), "seat": None, "action": None})
    return {"seed": SEED.decode(), "preset": PRESET, "rules": rules_json, "steps": steps}


def actions_of(data: dict[str, Any]) -> list[tuple[int, Action]]:
    return [(int(s["seat"]), Action.from_json(s["action"])) for s in data["steps"] if s["action"] is not None]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="replay the file's actions and compare")
    args = ap.parse_args()
    if args.check:
        data = json.loads(OUT.read_text(encoding="utf-8"))
        ok = record(actions_of(data)) == data
        print("tutorial hand: " + ("matches the engine" if ok else "DIFFERS from the engine"))
        return 0 if ok else 1
    data = record()
    OUT.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(data['steps'])} steps, {OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
