"""Round 7: pool the per-deal margins of the fresh-seed paired runs (docs/learned.md).

python benchmarks/results/learned_round7_pool.py NAME 2890 2891 > benchmarks/results/learned_round7_fresh_summary.json

(NAME: the variant raced beside the shipped bot, as named in
learned_round7_fresh_variants.json; the shipped bot is the run's setting with neither
round 7 knob set.)
"""

import json
import sys
from pathlib import Path

import numpy as np


def ci(x: np.ndarray) -> dict[str, float]:
    m, h = float(x.mean()), float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))
    return {"mean": round(m, 3), "lo": round(m - h, 3), "hi": round(m + h, 3)}


def shipped(knobs: dict[str, object]) -> bool:
    return (knobs.get("special_timing", "expert") == "expert"
            and int(knobs.get("fold_distance", 99)) >= 99)


def main(name: str, seeds: list[str]) -> None:
    inc: list[float] = []
    var: list[float] = []
    for s in seeds:
        path = Path(f"benchmarks/results/learned_round7_fresh_{s}/tune_cache.jsonl")
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            knobs = json.loads(r["key"].split("|", 2)[2])
            (inc if shipped(knobs) else var).extend(r["margins"])
    a, b = np.asarray(inc), np.asarray(var)
    out = {"command": f"python benchmarks/results/learned_round7_pool.py {name} " + " ".join(seeds),
           "source": "the per-deal margins in benchmarks/results/learned_round7_fresh_SEED/tune_cache.jsonl",
           "seeds": seeds, "deals": len(a), "variant": name,
           "shipped_vs_expert": ci(a), f"{name}_vs_expert": ci(b), f"{name}_vs_shipped": ci(b - a),
           "deals_differing": int(((b - a) != 0).sum()),
           "units": "points/hand (a deal's four rotations averaged), 95 % normal interval"}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
