#!/usr/bin/env bash
# Submits `sprague census wall --size SIZE` to Slurm as array jobs of N shards (shard K runs
# `--shard K/N` into OUT/shards/K) and a merge job that starts once every shard succeeded
# (`--dependency=afterok`) and writes OUT/merged. See docs/cluster.md.
# Usage: scripts/slurm-census.sh SIZE N OUT [extra sbatch options...]
# Env: SPRAGUE   binary on a filesystem every node sees (default: ./target/release/sprague)
#      CPUS      cores per shard (default 8)          MEM   memory per shard (default 16G)
#      TIME      time limit per shard (default 04:00:00)
#      GPU=1     one GPU per shard: --gres=gpu:1 and `census --device gpu` (default: CPU engine)
#      MAX_ARRAY the cluster's MaxArraySize (default: `scontrol show config`, else Slurm's
#                default 1001): array indices stay below it, so N above MAX_ARRAY - 1 is
#                submitted as several array jobs, each shard K as index K - OFFSET of one of them.
#      DRY_RUN=1 print the sbatch commands and job scripts instead of submitting.
# OUT must be on a shared filesystem. Resubmitting the same command resumes: finished shards
# are skipped and interrupted ones continue from their checkpoint.json (--resume).
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 SIZE N OUT [extra sbatch options...]" >&2
  exit 2
fi
size=${1,,} n=$2 out=$3
shift 3
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "error: SIZE must be HxW, e.g. 6x6, not '$size'" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive number of shards, not '$n'" >&2; exit 2; }
sprague=$(realpath -m "${SPRAGUE:-target/release/sprague}")
[[ -x $sprague || ${DRY_RUN:-0} == 1 ]] || { echo "error: no executable sprague at $sprague (set SPRAGUE)" >&2; exit 2; }
out=$(realpath -m "$out")
max_array=${MAX_ARRAY:-$(scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" { print $3 }' || true)}
max_array=${max_array:-1001}
[[ $max_array =~ ^[0-9]+$ && $max_array -ge 2 ]] || { echo "error: this cluster allows no job arrays (MaxArraySize '$max_array')" >&2; exit 2; }
chunk=$((max_array - 1))
[[ ${DRY_RUN:-0} == 1 ]] || mkdir -p "$out/shards" "$out/logs"

# One shard; runs as array task SLURM_ARRAY_TASK_ID of the array job of shards CENSUS_OFFSET + 1...
# It carries the text of lib/shard.sh (field, finished), since Slurm runs a copy of it on another
# node.
shard_script='#!/usr/bin/env bash
set -euo pipefail
'"$(<"$(dirname "${BASH_SOURCE[0]}")/lib/shard.sh")"'
k=$((CENSUS_OFFSET + SLURM_ARRAY_TASK_ID))
dir=$CENSUS_OUT/shards/$k
if finished "$dir" "$CENSUS_SIZE" "$k/$CENSUS_N" "move it away or choose another OUT"; then
  echo "shard $k/$CENSUS_N already finished in $dir"
  exit 0
fi
resume=
[[ -f $dir/checkpoint.json ]] && resume=--resume
exec "$CENSUS_SPRAGUE" census wall --size "$CENSUS_SIZE" --shard "$k/$CENSUS_N" --device "$CENSUS_ENGINE" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet --out "$dir" ${resume:+"$resume"}
'

# The merge; runs once, after every array task ended with exit code 0.
merge_script='#!/usr/bin/env bash
set -euo pipefail
dirs=()
for k in $(seq 1 "$CENSUS_N"); do dirs+=("$CENSUS_OUT/shards/$k"); done
exec "$CENSUS_SPRAGUE" merge ${dirs[@]+"${dirs[@]}"} --out "$CENSUS_OUT/merged"
'

engine=cpu gres=
if [[ ${GPU:-0} == 1 ]]; then engine=gpu gres=--gres=gpu:1; fi
export CENSUS_SIZE=$size CENSUS_N=$n CENSUS_OUT=$out CENSUS_SPRAGUE=$sprague CENSUS_ENGINE=$engine
common=(--parsable --export=ALL,CENSUS_SIZE,CENSUS_N,CENSUS_OUT,CENSUS_SPRAGUE,CENSUS_ENGINE,CENSUS_OFFSET)
merge=(sbatch "${common[@]}" --job-name="census-$size-merge" --cpus-per-task=1 --mem=1G
  --time=00:30:00 --output="$out/logs/merge.out" ${1+"$@"})

# One array job per CHUNK shards: shards OFFSET + 1 ... OFFSET + COUNT as indices 1 ... COUNT;
# the log of shard K is OUT/logs/shard-K.out (shard-OFFSET+I.out beyond the first array job).
ids=() ranges=()
for ((offset = 0; offset < n; offset += chunk)); do
  count=$((n - offset < chunk ? n - offset : chunk))
  log=shard-%a.out
  ((offset == 0)) || log=shard-$offset+%a.out
  command=(sbatch "${common[@]}" --job-name="census-$size" --array="1-$count" --cpus-per-task="${CPUS:-8}"
    --mem="${MEM:-16G}" --time="${TIME:-04:00:00}" --output="$out/logs/$log" ${gres:+"$gres"} ${1+"$@"})
  if [[ ${DRY_RUN:-0} == 1 ]]; then
    echo "# shards $((offset + 1))-$((offset + count)) of $n:"
    printf 'CENSUS_OFFSET=%q ' "$offset"; printf '%q ' "${command[@]}"; printf '<<EOF\n%sEOF\n' "$shard_script"
    ids+=("ARRAY_JOB_ID$((${#ids[@]} + 1))")
  else
    id=$(CENSUS_OFFSET=$offset "${command[@]}" <<<"$shard_script")
    ids+=("${id%%;*}")
  fi
  ranges+=("$((offset + 1))-$((offset + count))")
done
dependency=afterok$(printf ':%s' ${ids[@]+"${ids[@]}"})
if [[ ${DRY_RUN:-0} == 1 ]]; then
  printf '%q ' "${merge[@]}" --dependency="$dependency"; printf '<<EOF\n%sEOF\n' "$merge_script"
  exit 0
fi
merge_id=$(CENSUS_OFFSET=0 "${merge[@]}" --dependency="$dependency" <<<"$merge_script")
merge_id=${merge_id%%;*}
jobs=$(for i in "${!ids[@]}"; do printf ', job %s (array of shards %s)' "${ids[$i]}" "${ranges[$i]}"; done)
echo "submitted shards: ${jobs#, }; merge: job $merge_id (after all shards succeed)"
echo "results: $out/merged (logs in $out/logs)"
