#!/usr/bin/env bash
# Runs `sprague census wall --size SIZE` on Kubernetes from scripts/k8s-census.yaml: creates
# the Indexed Job of N shards, waits until it is Complete (exit 1 if it Failed), then creates
# the merge Job and waits for it. Results land in OUT/merged on the volume. See docs/cluster.md.
# Usage: scripts/k8s-census.sh SIZE N OUT
#   OUT is a path inside the shared volume (mounted at /data in the pods), e.g. census/6x6.
# Env: IMAGE        image with `sprague` on its PATH and /bin/sh (default sprague:latest)
#      CLAIM        ReadWriteMany PersistentVolumeClaim for the shards (default sprague-census)
#      PARALLELISM  shard pods at a time (default N)    CPUS  cores per shard (default 8)
#      MEMORY       memory per shard (default 16Gi)     KUBECTL  kubectl command (default kubectl)
#      DRY_RUN=1    print the filled-in manifests and do nothing else.
set -euo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 SIZE N OUT" >&2
  exit 2
fi
size=$1 n=$2 out=${3#/}
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || { echo "error: SIZE must be HxW, e.g. 6x6, not '$size'" >&2; exit 2; }
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "error: N must be a positive number of shards, not '$n'" >&2; exit 2; }
[[ -n $out && $out != *'|'* ]] || { echo "error: OUT must be a path inside the volume, not '$3'" >&2; exit 2; }
name=census-$size
read -r -a kubectl <<<"${KUBECTL:-kubectl}"

manifests=$(sed -e "s|__NAME__|$name|g" -e "s|__SIZE__|$size|g" -e "s|__N__|$n|g" \
  -e "s|__PARALLELISM__|${PARALLELISM:-$n}|g" -e "s|__OUT__|$out|g" -e "s|__CPUS__|${CPUS:-8}|g" \
  -e "s|__MEMORY__|${MEMORY:-16Gi}|g" -e "s|__IMAGE__|${IMAGE:-sprague:latest}|g" \
  -e "s|__CLAIM__|${CLAIM:-sprague-census}|g" "$(dirname "$0")/k8s-census.yaml")
if [[ ${DRY_RUN:-0} == 1 ]]; then
  echo "$manifests"
  exit 0
fi
# Document 1 is the shards Job, document 2 the merge Job.
document() { awk -v want="$1" '/^---$/ { doc++; next } doc + 1 == want' <<<"$manifests"; }

# Waits until job $1 is Complete (returns 0) or Failed (returns 1).
await() {
  local state
  while true; do
    state=$("${kubectl[@]}" get job "$1" -o jsonpath='{.status.conditions[?(@.status=="True")].type}')
    case " $state " in
      *" Complete "*) return 0 ;;
      *" Failed "*) echo "job $1 failed: see kubectl describe job $1" >&2; return 1 ;;
    esac
    sleep 30
  done
}

document 1 | "${kubectl[@]}" apply -f -
await "$name-shards"
document 2 | "${kubectl[@]}" apply -f -
await "$name-merge"
echo "merged census of $size from $n shards in $out/merged on volume ${CLAIM:-sprague-census}"
