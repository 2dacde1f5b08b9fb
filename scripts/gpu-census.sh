#!/usr/bin/env bash
# The GPU census engine on a machine with a GPU, the CUDA driver and NVRTC but no Rust: run
# with the release binary built elsewhere (the device tool carries target/release/sprague).
# Writes everything under $OUT (default ./gpu-out); each mode fits one 10-minute call.
#
#   scripts/gpu-census.sh validate
#       nvidia-smi; small sizes (2x2..5x6, 8x3) --device gpu against --device cpu on this
#       machine, then 6x6, 5x7 and 6x7 against the committed CPU files (results/wall/census),
#       byte for byte (summary.csv, distribution.csv, mismatches.csv); whole-process wall time
#       of every GPU run in $OUT/times.tsv. Exit 1 at the first difference.
#   scripts/gpu-census.sh shards SIZE N FROM TO [SECONDS]
#       shards FROM..TO of N of SIZE (e.g. 7x7 64 1 8) with --device gpu into
#       $OUT/SIZE/shards/K, one after another, stopping before a shard once SECONDS (default
#       540) have passed; times in $OUT/SIZE/times.tsv. Bring the shard directories back into
#       results/wall/census/SIZE/shards/ and merge them there (docs/census.md, "Running it").
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${SPRAGUE:-$PWD/target/release/sprague}
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
# NVRTC lives beside the toolkit, which need not be on the loader's path.
for lib in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [[ -d $lib ]] && export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done

# census NAME SIZE ENGINE [options...]: one run into $out/NAME, its wall time in times.tsv.
census() {
  local name=$1 size=$2 engine=$3
  shift 3
  local start=$EPOCHREALTIME
  "$bin" census wall --size "$size" --device "$engine" --quiet --out "$out/$name" "$@" 2>>"$out/log.txt"
  awk -v a="$start" -v b="$EPOCHREALTIME" -v n="$name" -v s="$size" -v e="$engine" \
    'BEGIN { printf "%s\t%s\t%s\t%.3f s\n", n, s, e, b - a }' | tee -a "$out/times.tsv"
}

# same A B: the three CSV files of two run directories are identical.
same() {
  for file in summary.csv distribution.csv mismatches.csv; do
    cmp "$1/$file" "$2/$file" || { echo "DIFFERENT: $1/$file $2/$file" | tee -a "$out/log.txt"; exit 1; }
  done
  echo "identical: $1 $2" | tee -a "$out/log.txt"
}

case ${1:-} in
  validate)
    nvidia-smi >"$out/nvidia-smi.txt" 2>&1 || true
    for size in 2x2 3x3 2x7 4x4 3x6 4x5 5x4 5x5 4x6 8x3 5x6; do
      census "gpu-$size" "$size" gpu
      census "cpu-$size" "$size" cpu
      same "$out/gpu-$size" "$out/cpu-$size"
    done
    census gpu-6x6 6x6 gpu && same "$out/gpu-6x6" results/wall/census
    census gpu-5x7 5x7 gpu && same "$out/gpu-5x7" results/wall/census/5x7
    census gpu-6x7 6x7 gpu && same "$out/gpu-6x7" results/wall/census/6x7
    echo "OK: the GPU engine's files equal the CPU engine's" | tee -a "$out/log.txt"
    ;;
  shards)
    [[ $# -ge 5 ]] || { echo "usage: $0 shards SIZE N FROM TO [SECONDS]" >&2; exit 2; }
    size=$2 n=$3 from=$4 to=$5 budget=${6:-540}
    for k in $(seq "$from" "$to"); do
      (( SECONDS < budget )) || { echo "budget spent before shard $k/$n" | tee -a "$out/log.txt"; break; }
      census "$size/shards/$k" "$size" gpu --shard "$k/$n"
    done
    ;;
  *)
    echo "usage: $0 validate | shards SIZE N FROM TO [SECONDS]" >&2
    exit 2
    ;;
esac
