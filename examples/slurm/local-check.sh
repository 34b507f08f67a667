#!/usr/bin/env bash
# Runs a small sharded report through Slurm (submit.sh: job array + dependent merge job),
# waits for it, and checks that the merged summary and charts equal one unsharded report.
# Needs a running cluster (local-cluster.sh) and target/release/playtest.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work=$(mktemp -d)
export PLAYTEST="$root/target/release/playtest" VARIANT="$root/variants/penny-badger/standard.toml"
export SHARDS=4 GAMES=20000 SEED=3 COMMAND=report OUT="$work/out"
cd "$work"
"$root/examples/slurm/submit.sh"
while [ -n "$(squeue -h)" ]; do sleep 2; done
"$PLAYTEST" report "$VARIANT" --games "$GAMES" --seed "$SEED" --out "$work/whole" > /dev/null
strip() { grep -v games_per_second "$1"; }
diff <(strip "$work/whole/summary.json") <(strip "$OUT/merged/summary.json")
for f in "$work"/whole/*.png; do cmp "$f" "$OUT/merged/$(basename "$f")"; done
echo "slurm check passed: merged report of $SHARDS array tasks equals the unsharded report ($work)"
