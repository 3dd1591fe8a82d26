"""Round 8: the claim and discard heads on the seed-30 held-out shards (the last 15 %),
scored with the raw and the variance-cut labels (β fitted on the training shards).

Command (from the repository root; /tmp/r8/run holds the 739 shards of the gen run,
/tmp/r8/ship_w.json is a copy of the shipped learned_policy.json):

    .venv/bin/python benchmarks/results/learned_round8_heads.py > benchmarks/results/learned_round8_heads.txt
"""
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, "scripts")
import train_policy as tp  # noqa: E402

data = tp.load([Path("/tmp/r8/run")], 0.15)
out = {}
for h in ("claim", "discard"):
    tr, va = data[f"train_{h}"], data[f"val_{h}"]
    mtr, mva = ~np.isnan(tr["Y"]), ~np.isnan(va["Y"])
    beta = tp.cv_fit(tr["Y"], tr["L"], mtr)
    ycv = np.nan_to_num(tp.cv_labels(va["Y"], va["L"], beta))
    yraw = np.nan_to_num(va["Y"])
    files = {"shipped": "/tmp/r8/ship_w.json",
             "cv": "benchmarks/results/learned_round8_weights_cv_both.json",
             "raw": "benchmarks/results/learned_round8_weights_raw_both.json",
             "round1_d": "benchmarks/results/learned_arena_2833_d10/weights_d10.json"}
    for name, f in files.items():
        spec = json.loads(Path(f).read_text())
        head = spec["heads"].get(h)
        if head is None:
            continue
        p = {k: np.asarray(head[k]) for k in ("w1", "b1", "w2", "lin")}
        s, _ = tp.forward(p, (va["X"] - np.asarray(head["mu"])) / np.asarray(head["sd"]))
        for mg in (0.0, 0.5, 1.0, 3.0, 5.0, 10.0, 20.0):
            g1, se1, sh = tp.policy_gain(s, yraw, mva, va["D"], mg)
            g2, se2, _ = tp.policy_gain(s, ycv, mva, va["D"], mg)
            out[f"{h}|{name}|{mg:g}"] = {"override": round(sh, 4), "raw": [round(g1, 2), round(1.96 * se1, 2)],
                                         "cv": [round(g2, 2), round(1.96 * se2, 2)]}
            print(f"{h:7s} {name:8s} margin {mg:4g}: {sh:6.1%} overridden, raw labels {g1:+6.2f} ± {1.96*se1:.2f}, "
                  f"cut labels {g2:+6.2f} ± {1.96*se2:.2f} points/decision (95 %)")
print(json.dumps({"val_decisions": {h: int(len(data[f'val_{h}']['D'])) for h in ('claim', 'discard')}}))
Path("benchmarks/results/learned_round8_heads_heldout.json").write_text(json.dumps({"command": __doc__.split("\n\n")[2].strip(), **out}, indent=1) + "\n")
