"""Play a short match, save its event log as JSON lines, read it back and replay it.

The replayed match is the same state (same hash); the log also proves the deal was
fair (every hand's wall derives from its revealed seed and matches its commitment).
Run: python examples/replay_log.py [LOG.jsonl]   (with a file: replay that log instead)
"""

import sys
import tempfile
from pathlib import Path

from laizi.bots import make_bot
from laizi.game import Match
from laizi.game.play import play_match
from laizi.game.replay import dump_log, load_log, replay_all
from laizi.game.verify import verify_events
from laizi.rules import RuleSet
from laizi.sim import bot_policy

if len(sys.argv) > 1:
    path = Path(sys.argv[1])
    original = None
else:
    original = Match(RuleSet.preset("qipisilai"), seed=b"example", max_hands=3)
    play_match(original, bot_policy([make_bot("greedy", seed) for seed in range(4)]))
    path = Path(tempfile.mkdtemp()) / "match.jsonl"
    path.write_text(dump_log(original.log), encoding="utf-8")

events = load_log(str(path))
print(f"{path.name}: {len(events)} events")
for game in replay_all(events):
    print(repr(game))
    if original is not None:
        print("same state as the original:", game.hash() == original.hash())
report = verify_events(events)
print("fair deals:", report.ok, "-", report.summary())
