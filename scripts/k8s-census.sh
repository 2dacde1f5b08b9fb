#!/usr/bin/env bash
# Runs `sprague census wall --size SIZE` on Kubernetes from scripts/k8s-census.yaml: creates
# the Indexed Job of N shards, waits until it is Complete (exit 1 if it Failed), then creates
# the merge Job and waits for it. Results land in OUT/merged on the volume. See docs/cluster.md.
# Usage: scripts/k8s-census.sh SIZE N OUT
#   OUT is a relative path inside the shared volume (mounted at /data in the pods), e.g.
#   census/6x6; absolute paths and `..` are refused.
# Env: IMAGE        image with `sprague` on its PATH and /bin/sh (default sprague:latest)
#      CLAIM        ReadWriteMany PersistentVolumeClaim for the shards (default sprague-census)
#      PARALLELISM  shard pods at a time (default N)    CPUS  cores (threads) per shard (default 8)
#      MEMORY       memory per shard (default 16Gi)     KUBECTL  kubectl command (default kubectl)
#      WAIT_SECONDS give up waiting for a Job after this long (default 172800, two days)
#      POLL_SECONDS seconds between two looks at a Job (default 30)
#      DRY_RUN=1    print the filled-in manifests and do nothing else.
# Running the same command again after a failure resumes: a Failed Job of the same name is
# deleted first (the shards' files stay on the volume), finished shards are skipped and
# interrupted ones continue from their checkpoint.json.
set -euo pipefail
if [[ $# -ne 3 ]]; then
  echo "usage: $0 SIZE N OUT" >&2
  exit 2
fi
size=${1,,} n=$2 out=$3
fail() { echo "error: $*" >&2; exit 2; }
[[ $size =~ ^[0-9]+x[0-9]+$ ]] || fail "SIZE must be HxW, e.g. 6x6, not '$1'"
[[ $n =~ ^[1-9][0-9]*$ ]] || fail "N must be a positive number of shards, not '$n'"
# OUT: relative, inside the volume, and carried literally into a double-quoted YAML string and
# a container's environment (where `$(NAME)` would be expanded).
[[ -n $out && $out != /* ]] || fail "OUT must be a relative path inside the volume (mounted at /data), not '$out'"
[[ /$out/ != */../* ]] || fail "OUT must stay inside the volume: no '..' components, not '$out'"
[[ $out != *[\"\\\$\`[:cntrl:]]* ]] || fail "OUT must not contain quotes, backslashes, '\$', backquotes or control characters: '$out'"
parallelism=${PARALLELISM:-$n} cpus=${CPUS:-8} memory=${MEMORY:-16Gi}
image=${IMAGE:-sprague:latest} claim=${CLAIM:-sprague-census}
[[ $parallelism =~ ^[1-9][0-9]*$ ]] || fail "PARALLELISM must be a positive number, not '$parallelism'"
[[ $cpus =~ ^[1-9][0-9]*$ ]] || fail "CPUS must be a positive whole number (it is also the shard's --threads), not '$cpus'"
[[ $memory =~ ^[0-9]+(\.[0-9]+)?([KMGTPE]i?|k|m|[eE][0-9]+)?$ ]] || fail "MEMORY must be a Kubernetes quantity such as 6Gi, not '$memory'"
[[ $image =~ ^[A-Za-z0-9][A-Za-z0-9._/:@-]*$ ]] || fail "IMAGE must be an image reference (letters, digits and ._/:@-), not '$image'"
[[ $claim =~ ^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$ ]] || fail "CLAIM must be a PersistentVolumeClaim name (lower-case letters, digits, '-' and '.'), not '$claim'"
wait_seconds=${WAIT_SECONDS:-172800} poll=${POLL_SECONDS:-30}
[[ $wait_seconds =~ ^[0-9]+$ && $poll =~ ^[1-9][0-9]*$ ]] || fail "WAIT_SECONDS and POLL_SECONDS must be whole numbers of seconds"
name=census-$size
read -r -a kubectl <<<"${KUBECTL:-kubectl}"
[[ ${#kubectl[@]} -gt 0 ]] || fail "KUBECTL is empty"

# Fills every __KEY__ of the template with its value, literally (no character of a value is
# special, and a value is never scanned again for placeholders); unknown __WORDS__ stay. The
# lines of a value after its first are indented as the placeholder's line (LIB: the text of
# lib/shard.sh, into the pod script).
manifests=$(K_NAME=$name K_SIZE=$size K_N=$n K_PARALLELISM=$parallelism K_OUT=$out K_CPUS=$cpus \
  K_MEMORY=$memory K_IMAGE=$image K_CLAIM=$claim K_LIB=$(<"$(dirname "$0")/lib/shard.sh") awk '
  {
    line = $0; filled = ""
    indent = line; sub(/[^ ].*/, "", indent)
    while (match(line, /__[A-Z]+__/)) {
      key = "K_" substr(line, RSTART + 2, RLENGTH - 4)
      value = key in ENVIRON ? ENVIRON[key] : substr(line, RSTART, RLENGTH)
      gsub(/\n/, "\n" indent, value)
      filled = filled substr(line, 1, RSTART - 1) value
      line = substr(line, RSTART + RLENGTH)
    }
    print filled line
  }' "$(dirname "$0")/k8s-census.yaml")
if [[ ${DRY_RUN:-0} == 1 ]]; then
  echo "$manifests"
  exit 0
fi
# Document 1 is the shards Job, document 2 the merge Job.
document() { awk -v want="$1" '/^---$/ { doc++; next } doc + 1 == want' <<<"$manifests"; }

# The conditions of job $1 that are True ("Complete", "Failed", ...); empty when it does not exist.
conditions() { "${kubectl[@]}" get job "$1" --ignore-not-found -o jsonpath='{.status.conditions[?(@.status=="True")].type}'; }

# Applies document $2 as job $1; a Job of that name that Failed earlier is deleted first (with
# its pods, waiting until they are gone), since applying the same manifest to it changes nothing.
# The files on the volume stay: finished shards are skipped, interrupted ones resume.
start() {
  if [[ " $(conditions "$1") " == *" Failed "* ]]; then
    echo "job $1 failed earlier: deleting it to run it again (finished shards on the volume are kept and skipped)"
    "${kubectl[@]}" delete job "$1" --cascade=foreground --wait=true
  fi
  document "$2" | "${kubectl[@]}" apply -f -
}

# Waits until job $1 is Complete (returns 0) or Failed (returns 1), printing its progress when it
# changes (and every 10 minutes); gives up (returns 1) after WAIT_SECONDS.
await() {
  local state progress last="" said=$SECONDS begin=$SECONDS
  while true; do
    state=$(conditions "$1") || state="(kubectl get failed)"
    case " $state " in
      *" Complete "*) echo "job $1: Complete"; return 0 ;;
      *" Failed "*)
        echo "job $1 failed: see kubectl describe job $1 (and kubectl logs of its pods: kubectl get pods -l job-name=$1); run the same command again to retry" >&2
        return 1 ;;
    esac
    progress=$("${kubectl[@]}" get job "$1" --ignore-not-found \
      -o jsonpath='{.status.succeeded} succeeded, {.status.active} running, {.status.failed} failed' 2>/dev/null) || progress=""
    if [[ $progress != "$last" || $((SECONDS - said)) -ge 600 ]]; then
      echo "job $1: ${progress:-no status yet} ($(((SECONDS - begin) / 60)) min)"
      last=$progress said=$SECONDS
    fi
    if ((SECONDS - begin >= wait_seconds)); then
      echo "error: job $1 is neither Complete nor Failed after $wait_seconds s (WAIT_SECONDS); inspect it with: kubectl describe job $1; kubectl get pods -l job-name=$1" >&2
      return 1
    fi
    sleep "$poll"
  done
}

start "$name-shards" 1
await "$name-shards"
start "$name-merge" 2
await "$name-merge"
echo "merged census of $size from $n shards in $out/merged on volume $claim"
