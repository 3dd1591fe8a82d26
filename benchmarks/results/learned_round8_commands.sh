#!/usr/bin/env bash
# Round 8 of the learned bot (docs/learned.md, "Round 8: variance-cut labels"): every
# command, in order, from the repository root. One core (--workers 1, nice -n 10).
# /tmp/r8 held the run's data (not kept: 759 shards, ~60 MB); the weights, logs and
# summaries are the learned_round8_* files beside this one.
set -euo pipefail

# the compiled build (mypyc) in .venv-compiled, and numpy for the script
nice -n 10 bash scripts/build_compiled.sh dev
.venv-compiled/bin/python -m pip install -q numpy

# teacher data with the draw luck recorded (seed 30, true world only, 27 minutes)
nice -n 10 .venv-compiled/bin/python scripts/train_policy.py --phase gen --out /tmp/r8/run \
  --workers 1 --games 4 --worlds 1 --discard-share 0.3 --label-cv --seed 30 --gen-minutes 27 \
  > /tmp/r8/gen.log 2>&1
cp /tmp/r8/gen.log benchmarks/results/learned_round8_gen.log

# both heads trained twice on the same shards: variance-cut labels (cv) and raw labels (raw)
R=benchmarks/results
for kind in cv raw; do
  mkdir -p /tmp/r8/train_$kind
  ln -sfn /tmp/r8/run/shards /tmp/r8/train_$kind/shards
  extra=""; [ $kind = cv ] && extra="--label-cv"
  nice -n 10 .venv/bin/python scripts/train_policy.py --phase train --out /tmp/r8/train_$kind \
    --heads discard,claim --seed 30 --worlds 1 --discard-share 0.3 $extra \
    --export $R/learned_round8_weights_${kind}_both.json \
    --plot $R/learned_round8_curve_${kind}.png > $R/learned_round8_train_${kind}.log 2>&1
  cp /tmp/r8/train_$kind/summary.json $R/learned_round8_train_${kind}_summary.json
done
# the claim-only files (the shipped bot's shape: its discards are expert's)
.venv/bin/python - <<'PY'
import json
from pathlib import Path

R = Path("benchmarks/results")
for kind in ("cv", "raw"):
    both = json.loads((R / f"learned_round8_weights_{kind}_both.json").read_text())
    claim = {**both, "heads": {"claim": both["heads"]["claim"]}}
    (R / f"learned_round8_weights_{kind}_claim.json").write_text(
        json.dumps(claim, separators=(",", ":")) + "\n")
PY

# the heads on the held-out shards, raw and cut labels
cp src/laizi/data/learned_policy.json /tmp/r8/ship_w.json
.venv/bin/python benchmarks/results/learned_round8_heads.py > benchmarks/results/learned_round8_heads.txt

# the race on the tuning seed 2895 (500 deals, the shipped bot and three claim variants)
nice -n 10 .venv-compiled/bin/python scripts/train_policy.py --phase paired --out /tmp/r8/tune_2895 \
  --export /tmp/r8/ship_w.json --workers 1 \
  --tune-variants benchmarks/results/learned_round8_tune_variants.json \
  --paired-seeds 2895 --paired-deals 500 > /tmp/r8/tune_2895.log 2>&1
cp /tmp/r8/tune_2895.log benchmarks/results/learned_round8_tune_2895.log
mkdir -p benchmarks/results/learned_round8_tune_2895
cp /tmp/r8/tune_2895/paired_summary.json benchmarks/results/learned_round8_tune_2895/

# the fresh seeds 2900 and 2901 (4,000 deals each): cv_claim_m10 beside the shipped bot
nice -n 10 .venv-compiled/bin/python scripts/train_policy.py --phase paired --out /tmp/r8/fresh \
  --export /tmp/r8/ship_w.json --workers 1 \
  --tune-variants benchmarks/results/learned_round8_fresh_variants.json \
  --paired-seeds 2900,2901 --paired-deals 4000 > /tmp/r8/fresh.log 2>&1
cp /tmp/r8/fresh.log benchmarks/results/learned_round8_fresh.log
mkdir -p benchmarks/results/learned_round8_fresh
cp /tmp/r8/fresh/paired_summary.json benchmarks/results/learned_round8_fresh/

# the wall-shuffle probe (seed 31, 7 minutes; not raced)
nice -n 10 .venv-compiled/bin/python scripts/train_policy.py --phase gen --out /tmp/r8/shuf \
  --workers 1 --games 4 --worlds 4 --wall-shuffles --discard-share 0.3 --label-cv --seed 31 \
  --gen-minutes 7 > /tmp/r8/shuf.log 2>&1
cp /tmp/r8/shuf.log benchmarks/results/learned_round8_shuffle_gen.log
nice -n 10 .venv/bin/python scripts/train_policy.py --phase train --out /tmp/r8/shuf \
  --heads discard,claim --seed 31 --worlds 4 --discard-share 0.3 --label-cv \
  --export /tmp/r8/shuf_w.json --plot "" > benchmarks/results/learned_round8_shuffle_train.log 2>&1
cp /tmp/r8/shuf/summary.json benchmarks/results/learned_round8_shuffle_train_summary.json

# (afterwards each JSON summary got a "command" key naming the command that made it)
