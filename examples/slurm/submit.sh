#!/usr/bin/env bash
# Submits a sharded playtest run to Slurm: a job array of $SHARDS tasks, then a merge job
# that starts only when every task has succeeded.
#
#   SHARDS=16 GAMES=100000000 OUT=/shared/runs/badger ./examples/slurm/submit.sh
#
# Any variable of shard.sbatch may be set (PLAYTEST, VARIANT, COMMAND, GAMES, SEED, BOTS).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
: "${SHARDS:=8}" "${OUT:=$PWD/runs/playtest-$(date +%Y%m%d-%H%M%S)}"
export SHARDS OUT PLAYTEST VARIANT COMMAND GAMES SEED BOTS
mkdir -p "$OUT"
array=$(sbatch --parsable --array="0-$((SHARDS - 1))" "$here/shard.sbatch")
merge=$(sbatch --parsable --dependency="afterok:${array%%;*}" "$here/merge.sbatch")
echo "submitted array job $array ($SHARDS shards) and merge job $merge; results in $OUT/merged"
