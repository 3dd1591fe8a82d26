"""Stop 56: what the public part of a version's patch holds (docs/deploy.md, "Private parts
built again only when they may have changed").

python benchmarks/results/public_patch_census.py > benchmarks/results/public_patch_census_2026-12-05.txt

60 matches of 4 hands, `random` bots; after every change, the spectator's public patch from
the version before. An operation is counted as (kind, path), a seat index written ``#``;
kinds: 0 set, 1 delete, 2 append, 3 splice, 4 set rows, 5 append rows.
"""

import collections

import orjson

from laizi.rules import RuleSet
from laizi.server.tables.engine import GameSession, seed_from_text
from laizi.server.tables.frames import VIEW_KEYS
from laizi.server.tables.seats import SeatBot

TAIL = {0: 1, 1: 0, 2: 1, 3: 3, 4: 1, 5: 1}  # values after an operation's path
PLAYERS = VIEW_KEYS.index("players")


def main() -> None:
    census: collections.Counter[object] = collections.Counter()
    versions = nbytes = 0
    for r in range(60):
        g = GameSession(RuleSet(), seed_from_text(f"po{r}"), max_hands=4)
        bots = [SeatBot("random", s) for s in range(4)]
        base = None
        while not g.over:
            if g.hand_over:
                g.next_hand()
            else:
                s = g.to_act()[0]
                g.act(s, bots[s].choose(g, s))
            g.stream(None)
            if base is None:
                g.view_json(None)
            else:
                g.view_patch(None, base)
                ops = g._pub_patches.get(base)
                versions += 1
                if not ops:
                    census["<empty>"] += 1
                else:
                    nbytes += len(ops)
                    for op in orjson.loads(f"[{ops}]"):
                        raw = op[1:len(op) - TAIL[op[0]]]
                        # (a number after "players" is a seat; elsewhere a key's number)
                        path = [x if isinstance(x, int) and i and raw[i - 1] == PLAYERS
                                else VIEW_KEYS[x] if isinstance(x, int) else x
                                for i, x in enumerate(raw)]
                        census[(op[0], *("#" if isinstance(p, int) else p for p in path))] += 1
            base = g.version
            g.trim()
    print("versions", versions, "pub bytes/version", nbytes / versions)
    for k, v in census.most_common(25):
        print(v, k)


if __name__ == "__main__":
    main()
