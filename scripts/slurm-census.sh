#!/usr/bin/env bash
# Submits `sprague census wall --size SIZE` to Slurm as an array job of N shards (task K runs
# `--shard K/N` into OUT/shards/K) and a merge job that starts once every shard succeeded
# (`--dependency=afterok`) and writes OUT/merged. See docs/cluster.md.
# Usage: scripts/slurm-census.sh SIZE N OUT [extra sbatch options...]
# Env: SPRAGUE   binary on a filesystem every node sees (default: ./target/release/sprague)
#      CPUS      cores per shard (default 8)          MEM   memory per shard (default 16G)
#      TIME      time limit per shard (default 04:00:00)
#      GPU=1     one GPU per shard: --gres=gpu:1 and `census --device gpu` (default: CPU engine)
#      DRY_RUN=1 print the sbatch commands and job scripts instead of submitting.
# OUT must be on a shared filesystem. Resubmitting the same command resumes: finished shards
# are skipped and interrupted ones continue from their checkpoint.json (--resume).
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 SIZE N OUT [extra sbatch options...]" >&2
  exit 2
fi
size=$1 n=$2 out=$3
shift 3
[[ $size =~ ^[0-9]+[xX][0-9]+$ ]] || { echo "error: SIZE must be HxW, e.g. 6x6, not '$size'" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive number of shards, not '$n'" >&2; exit 2; }
sprague=$(realpath -m "${SPRAGUE:-target/release/sprague}")
[[ -x $sprague || ${DRY_RUN:-0} == 1 ]] || { echo "error: no executable sprague at $sprague (set SPRAGUE)" >&2; exit 2; }
out=$(realpath -m "$out")
[[ ${DRY_RUN:-0} == 1 ]] || mkdir -p "$out/shards" "$out/logs"

# One shard; runs as array task SLURM_ARRAY_TASK_ID with the variables exported below.
shard_script='#!/usr/bin/env bash
set -euo pipefail
k=$SLURM_ARRAY_TASK_ID
dir=$CENSUS_OUT/shards/$k
if [[ -f $dir/manifest.json && ! -f $dir/checkpoint.json ]]; then
  echo "shard $k/$CENSUS_N already finished in $dir"
  exit 0
fi
resume=()
[[ -f $dir/checkpoint.json ]] && resume=(--resume)
exec "$CENSUS_SPRAGUE" census wall --size "$CENSUS_SIZE" --shard "$k/$CENSUS_N" --device "$CENSUS_ENGINE" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet --out "$dir" "${resume[@]}"
'

# The merge; runs once, after every array task ended with exit code 0.
merge_script='#!/usr/bin/env bash
set -euo pipefail
dirs=()
for k in $(seq 1 "$CENSUS_N"); do dirs+=("$CENSUS_OUT/shards/$k"); done
exec "$CENSUS_SPRAGUE" merge "${dirs[@]}" --out "$CENSUS_OUT/merged"
'

engine=cpu gres=()
if [[ ${GPU:-0} == 1 ]]; then engine=gpu gres=(--gres=gpu:1); fi
export CENSUS_SIZE=$size CENSUS_N=$n CENSUS_OUT=$out CENSUS_SPRAGUE=$sprague CENSUS_ENGINE=$engine
common=(--parsable --export=ALL,CENSUS_SIZE,CENSUS_N,CENSUS_OUT,CENSUS_SPRAGUE,CENSUS_ENGINE)
shards=(sbatch "${common[@]}" --job-name="census-$size" --array="1-$n" --cpus-per-task="${CPUS:-8}"
  --mem="${MEM:-16G}" --time="${TIME:-04:00:00}" --output="$out/logs/shard-%a.out" "${gres[@]}" "$@")
merge=(sbatch "${common[@]}" --job-name="census-$size-merge" --cpus-per-task=1 --mem=1G
  --time=00:30:00 --output="$out/logs/merge.out" "$@")

if [[ ${DRY_RUN:-0} == 1 ]]; then
  printf '%q ' "${shards[@]}"; printf '<<EOF\n%sEOF\n' "$shard_script"
  printf '%q ' "${merge[@]}" --dependency=afterok:ARRAY_JOB_ID; printf '<<EOF\n%sEOF\n' "$merge_script"
  exit 0
fi
array_id=$("${shards[@]}" <<<"$shard_script")
array_id=${array_id%%;*}
merge_id=$("${merge[@]}" --dependency="afterok:$array_id" <<<"$merge_script")
merge_id=${merge_id%%;*}
echo "submitted shards: job $array_id (array 1-$n), merge: job $merge_id (after all shards succeed)"
echo "results: $out/merged (logs in $out/logs)"
