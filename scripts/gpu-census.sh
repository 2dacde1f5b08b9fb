#!/usr/bin/env bash
# The GPU census engine on a machine with a GPU, the CUDA driver and NVRTC but no Rust: run
# with the release binary built elsewhere (the device tool carries target/release/sprague).
# Writes everything under $OUT (default ./gpu-out); each mode fits one 10-minute call. Reads
# the committed results from $RESULTS (default results).
# Every manifest.json it writes notes the GPU, the compile and table-fill times and the
# census kernels' time and rate (the engine's own figures); times.tsv has whole processes.
#
#   scripts/gpu-census.sh validate
#       nvidia-smi; small sizes (2x2..5x6, 8x3) --device gpu against --device cpu on this
#       machine, then 6x6, 5x7 and 6x7 against the committed CPU files (results/wall/census),
#       byte for byte (summary.csv, distribution.csv, mismatches.csv), and 7x6, 8x5 and 8x4
#       against the committed 6x7, 5x8 and 4x8 transposed (rows and cols swapped); whole-process wall time
#       of every GPU run in $OUT/times.tsv. Exit 1 at the first difference.
#   scripts/gpu-census.sh shards SIZE N [SECONDS]
#       the shards of N of SIZE (e.g. 7x7 1) with --device gpu into $OUT/SIZE/shards/K, one
#       after another: a shard finished in $RESULTS/wall/census/SIZE/shards/K is skipped (refused,
#       exit 2, when its manifest is of another shard count), one
#       with only a checkpoint there is resumed from it; the running shard is stopped (SIGTERM;
#       its checkpoint is at most 30 s old) when SECONDS (default 540) have passed since the
#       script began. Bring $OUT/SIZE/shards/* back into results/wall/census/SIZE/shards/
#       (finished ones and checkpoints alike) and merge when all are there (docs/census.md).
#       Every process fills the tables again (66 GiB for 7x7): on one GPU, take N = 1.
#   scripts/gpu-census.sh session SIZE N [SECONDS]
#       validate, then shards SIZE N within the same SECONDS: a first session's single call.
set -euo pipefail
# field, finished, refuse.
source "$(dirname "${BASH_SOURCE[0]}")/lib/shard.sh"
# refuse MESSAGE: lib/shard.sh's, with the error in $out/log.txt as well.
refuse() { echo "error: $1" | tee -a "$out/log.txt" >&2; exit 2; }
cd "$(dirname "$0")/.."
bin=${SPRAGUE:-$PWD/target/release/sprague}
out=${OUT:-$PWD/gpu-out}
results=${RESULTS:-results}
mkdir -p "$out"
# NVRTC lives beside the toolkit, which need not be on the loader's path.
for lib in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [[ -d $lib ]] && export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done

# now: seconds since the epoch, to the microsecond (EPOCHREALTIME is bash 5's).
now() { if [[ -n ${EPOCHREALTIME:-} ]]; then echo "$EPOCHREALTIME"; else date +%s.%N; fi; }

# census NAME SIZE ENGINE [options...]: one run into $out/NAME, its wall time in times.tsv
# (stopped by SIGTERM after $TIMEOUT seconds when set; then the status is 124). Its error
# output goes to $out/log.txt, and on a failure (not the stop at TIMEOUT) its last lines to
# stderr as well.
census() {
  local name=$1 size=$2 engine=$3 status=0 logged=0
  shift 3
  local start
  start=$(now)
  [[ -f $out/log.txt ]] && logged=$(wc -c <"$out/log.txt")
  timeout -s TERM "${TIMEOUT:-0}" "$bin" census wall --size "$size" --device "$engine" --quiet --out "$out/$name" ${1+"$@"} \
    2>>"$out/log.txt" || status=$?
  awk -v a="$start" -v b="$(now)" -v n="$name" -v s="$size" -v e="$engine" -v x="$status" \
    'BEGIN { printf "%s\t%s\t%s\t%.3f s\texit %s\n", n, s, e, b - a, x }' | tee -a "$out/times.tsv"
  if [[ $status != 0 && $status != 124 ]]; then
    { echo "$name: its last error lines (all in $out/log.txt):"; tail -c +$((logged + 1)) "$out/log.txt" | tail -n 20; } >&2
  fi
  return "$status"
}

# same A B: the three CSV files of two run directories are identical.
same() {
  for file in summary.csv distribution.csv mismatches.csv; do
    cmp "$1/$file" "$2/$file" || { echo "DIFFERENT: $1/$file $2/$file" | tee -a "$out/log.txt"; exit 1; }
  done
  echo "identical: $1 $2" | tee -a "$out/log.txt"
}

# same_transposed A B: the run in A (one size HxW) is the run in B (WxH) transposed: summary.csv
# and distribution.csv equal with the rows and cols columns swapped, mismatches.csv equal.
same_transposed() {
  for file in summary.csv distribution.csv; do
    cmp <(awk -F, -v OFS=, 'NR > 1 { t = $3; $3 = $4; $4 = t } { print }' "$1/$file") "$2/$file" \
      || { echo "DIFFERENT: $1/$file $2/$file (transposed)" | tee -a "$out/log.txt"; exit 1; }
  done
  cmp "$1/mismatches.csv" "$2/mismatches.csv" || { echo "DIFFERENT: $1/mismatches.csv $2/mismatches.csv" | tee -a "$out/log.txt"; exit 1; }
  echo "identical transposed: $1 $2" | tee -a "$out/log.txt"
}

validate() {
  nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
  for size in 2x2 3x3 2x7 4x4 3x6 4x5 5x4 5x5 4x6 8x3 5x6; do
    census "gpu-$size" "$size" gpu
    census "cpu-$size" "$size" cpu
    same "$out/gpu-$size" "$out/cpu-$size"
  done
  # One command a line: errexit does not stop at the left side of an `&&`.
  census gpu-6x6 6x6 gpu
  same "$out/gpu-6x6" "$results/wall/census"
  census gpu-5x7 5x7 gpu
  same "$out/gpu-5x7" "$results/wall/census/5x7"
  census gpu-6x7 6x7 gpu
  same "$out/gpu-6x7" "$results/wall/census/6x7"
  # The other way round: a different loop (and 8 rows, which only the GPU engine takes).
  census gpu-7x6 7x6 gpu
  same_transposed "$out/gpu-7x6" "$results/wall/census/6x7"
  census gpu-8x5 8x5 gpu
  same_transposed "$out/gpu-8x5" "$results/wall/census/5x8"
  census gpu-8x4 8x4 gpu
  same_transposed "$out/gpu-8x4" "$results/wall/census/4x8"
  echo "OK: the GPU engine's files equal the CPU engine's" | tee -a "$out/log.txt"
}

# shards SIZE N BUDGET: as the usage above says.
shards() {
  local size=${1,,} n=$2 budget=$3 k
  [[ $size =~ ^[0-9]+x[0-9]+$ && $n =~ ^[1-9][0-9]*$ && $budget =~ ^[0-9]+$ ]] \
    || { echo "usage: $0 shards SIZE N [SECONDS], e.g. 7x7 1 540" >&2; exit 2; }
  for k in $(seq 1 "$n"); do
    local committed=$results/wall/census/$size/shards/$k name=$size/shards/$k resume=
    if finished "$committed" "$size" "$k/$n"; then
      echo "shard $k/$n: finished earlier" | tee -a "$out/log.txt"
      continue
    fi
    if [[ -f $committed/checkpoint.json ]]; then
      mkdir -p "$out/$name" && cp "$committed"/* "$out/$name"/ && resume=--resume
    fi
    local left=$((budget - SECONDS))
    (( left >= 30 )) || { echo "budget spent before shard $k/$n" | tee -a "$out/log.txt"; break; }
    local status=0
    TIMEOUT=$left census "$name" "$size" gpu --shard "$k/$n" ${resume:+"$resume"} || status=$?
    case $status in
      0) ;;
      124) echo "shard $k/$n: stopped at the budget; its checkpoint is in $out/$name" | tee -a "$out/log.txt"
           break ;;
      *) echo "shard $k/$n: FAILED (exit $status); see $out/log.txt" | tee -a "$out/log.txt"
         exit "$status" ;;
    esac
  done
}

case ${1:-} in
  validate)
    validate
    ;;
  shards)
    [[ $# -ge 3 ]] || { echo "usage: $0 shards SIZE N [SECONDS]" >&2; exit 2; }
    shards "$2" "$3" "${4:-540}"
    ;;
  session)
    [[ $# -ge 3 ]] || { echo "usage: $0 session SIZE N [SECONDS]" >&2; exit 2; }
    validate
    shards "$2" "$3" "${4:-540}"
    ;;
  *)
    echo "usage: $0 validate | shards SIZE N [SECONDS] | session SIZE N [SECONDS]" >&2
    exit 2
    ;;
esac
