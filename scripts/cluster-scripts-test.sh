#!/usr/bin/env bash
# The cluster scripts without a cluster (CI runs this after the tests; about 10 s): stand-in
# `sbatch`, `scontrol` and `kubectl` on PATH and a temporary copy for census-run.sh, checking
# what once went wrong:
#   - every script passes `bash -n`, the Kubernetes pod scripts and lib/shard.sh `dash -n`; no
#     array that can be empty is expanded as "${a[@]}" (an unbound variable under set -u on
#     bash < 4.4);
#   - k8s-census.sh fills the manifests literally (`&`, `|` in OUT), refuses an OUT outside the
#     volume and values that cannot be carried (exit 2); on a stand-in kubectl that runs the pods
#     here, a failed run is run again by the same command (the Failed Job is deleted, finished
#     shards are skipped) and merges byte-identical to one local run; a Job that never ends is
#     given up after WAIT_SECONDS with a pointer to `kubectl describe job`;
#   - slurm-census.sh splits N shards over array jobs below MaxArraySize (default 1001, or what
#     `scontrol show config` says), and its job scripts, run here as the array tasks, merge
#     byte-identical to one local run; a finished shard of another N is refused;
#   - census-run.sh records only finished shards' rows in times.tsv; gpu-census.sh shows a failed
#     run's error on stderr and refuses a finished shard of another N; SIZE may be upper case.
# The real-scheduler test of the Slurm script is scripts/slurm-test.sh.
# Usage: scripts/cluster-scripts-test.sh   (needs target/release/sprague, or SPRAGUE=BINARY)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin=$(realpath "${SPRAGUE:-target/release/sprague}")
[[ -x $bin ]] || { echo "error: build target/release/sprague first (or set SPRAGUE)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "cluster-scripts-test: FAILED: $*" >&2; exit 1; }
ok() { echo "cluster-scripts-test: ok: $*"; }
# same A B: the three CSV files of two run directories are identical.
same() { for file in summary.csv distribution.csv mismatches.csv; do cmp "$1/$file" "$2/$file" || fail "$1/$file differs from $2/$file"; done; }
# expect CODE TEXT COMMAND...: COMMAND exits with CODE and says TEXT (stdout or stderr).
expect() {
  local code=$1 text=$2 status=0
  shift 2
  "$@" >"$tmp/said" 2>&1 || status=$?
  [[ $status == "$code" ]] || fail "$* exited $status, not $code: $(cat "$tmp/said")"
  grep -qF -- "$text" "$tmp/said" || fail "$* did not say '$text': $(cat "$tmp/said")"
}
"$bin" census wall --size 4x5 --quiet --out "$tmp/whole" >/dev/null 2>&1 || fail "census wall --size 4x5"

scripts=(scripts/slurm-census.sh scripts/k8s-census.sh scripts/shards-local.sh scripts/gpu-census.sh
  scripts/census-run.sh scripts/slurm-test.sh scripts/cluster-scripts-test.sh scripts/lib/shard.sh)
for script in "${scripts[@]}"; do
  bash -n "$script" || fail "bash -n $script"
  # An array assigned empty somewhere must be expanded as ${a[@]+"${a[@]}"} (bash < 4.4).
  for array in $(grep -o '\b[A-Za-z_][A-Za-z0-9_]*=()' "$script" | sed 's/=()//' | sort -u); do
    ! grep -n "[^+]\"\${$array\[@\]}\"" "$script" | grep -v "^[0-9]*: *#" \
      || fail "$script expands the possibly empty array $array as \"\${$array[@]}\""
  done
done
python3 -c 'import yaml' 2>/dev/null && have_yaml=1 || have_yaml=0
if [[ $have_yaml == 1 ]] && command -v dash >/dev/null; then
  python3 -c '
import sys, yaml
for job in yaml.safe_load_all(open("scripts/k8s-census.yaml")):
    print(job["spec"]["template"]["spec"]["containers"][0]["args"][0], end="\0")' |
    while IFS= read -r -d '' pod; do dash -n -c "$pod" || fail "dash -n: the pod script of k8s-census.yaml"; done
fi
if command -v dash >/dev/null; then
  dash -n scripts/lib/shard.sh || fail "dash -n scripts/lib/shard.sh (the Kubernetes pods run it)"
fi
ok "bash -n, dash -n and possibly empty arrays"

# --- Kubernetes ---
k8s=scripts/k8s-census.sh
DRY_RUN=1 IMAGE=registry.example/sprague:1 "$k8s" 4X5 8 'census/a&b|c' >"$tmp/manifests"
grep -qF 'value: "/data/census/a&b|c"' "$tmp/manifests" || fail "OUT with & and | not filled literally: $(grep /data "$tmp/manifests")"
grep -qF 'name: census-4x5-shards' "$tmp/manifests" || fail "SIZE not in lower case in the Job name"
! grep -E '__[A-Z]+__' "$tmp/manifests" | grep -v '^#' || fail "a placeholder left unfilled"
if [[ $have_yaml == 1 ]]; then
  python3 -c '
import sys, yaml
jobs = list(yaml.safe_load_all(open(sys.argv[1])))
assert len(jobs) == 2 and jobs[0]["spec"]["completions"] == 8 and jobs[0]["spec"]["parallelism"] == 8, jobs
assert jobs[0]["spec"]["template"]["spec"]["containers"][0]["image"] == "registry.example/sprague:1"' "$tmp/manifests" \
    || fail "the filled-in manifests do not parse as two Jobs"
fi
for bad in ../../etc /census census/.. 'a/../b' 'a/$(HOME)' 'a"b' 'a\b'; do
  expect 2 error: env DRY_RUN=1 "$k8s" 4x5 8 "$bad"
done
for bad in 'IMAGE=a&b' 'CLAIM=Data|x' 'MEMORY=6Gi&' 'CPUS=500m' 'PARALLELISM=0'; do
  expect 2 error: env DRY_RUN=1 "$bad" "$k8s" 4x5 8 census/x
done
ok "k8s-census.sh fills values literally and refuses OUT outside the volume and odd values"

# A Kubernetes stand-in: scripts/k8s-census.sh against a kubectl that runs the pods here.
if [[ $have_yaml == 1 ]]; then
  mkdir -p "$tmp/k8s/bin" "$tmp/k8s/state" "$tmp/k8s/data"
  cat >"$tmp/k8s/bin/kubectl" <<'PY'
#!/usr/bin/env python3
"""A stand-in `kubectl` for scripts/cluster-scripts-test.sh: just enough of `apply -f -`,
`get job NAME [--ignore-not-found] -o jsonpath=...` and `delete job NAME` for
scripts/k8s-census.sh. `apply` of a new Job runs its pods at once on this machine: each pod's
`/bin/sh -c` script under dash (or sh) with its env, /data being $FAKE_K8S_DATA; an Indexed Job
retries an index up to backoffLimitPerIndex times (exit codes of a FailIndex rule at once),
another Job up to backoffLimit times. Applying a Job that exists changes nothing (as for an
unchanged manifest; a changed one is refused, as its template is immutable). State lives in $FAKE_K8S_STATE. FAKE_K8S_HANG=1: a new Job never ends."""
import json, os, shutil, subprocess, sys
import yaml

state = os.environ["FAKE_K8S_STATE"]
data = os.environ["FAKE_K8S_DATA"]
shell = shutil.which("dash") or "/bin/sh"
args = sys.argv[1:]
path = lambda name: os.path.join(state, name + ".json")


def run_pod(spec, extra):
    container = spec["template"]["spec"]["containers"][0]
    env = dict(os.environ)
    for e in container.get("env", []):
        value = e["value"]
        env[e["name"]] = data + value[len("/data"):] if value.startswith("/data") else value
    env.update(extra)
    script = container["args"][0]
    return subprocess.run([shell, "-c", script], env=env).returncode


def apply(job):
    name = job["metadata"]["name"]
    spec = job["spec"]
    if os.path.exists(path(name)):
        if json.load(open(path(name)))["spec"] != spec:
            sys.exit(f'The Job "{name}" is invalid: spec.template: Invalid value: ...: field is immutable')
        print(f"job.batch/{name} unchanged")
        return
    status = {"succeeded": 0, "failed": 0, "active": 0, "conditions": [], "spec": spec}
    if os.environ.get("FAKE_K8S_HANG") == "1":
        status["active"] = spec.get("parallelism", 1)
    elif spec.get("completionMode") == "Indexed":
        fail_codes = [c for r in spec.get("podFailurePolicy", {}).get("rules", [])
                      if r["action"] == "FailIndex" for c in r["onExitCodes"]["values"]]
        for index in range(spec["completions"]):
            for _ in range(spec.get("backoffLimitPerIndex", 6) + 1):
                code = run_pod(spec, {"JOB_COMPLETION_INDEX": str(index)})
                if code == 0:
                    status["succeeded"] += 1
                    break
                status["failed"] += 1
                if code in fail_codes:
                    break
        status["conditions"] = ["Complete" if status["succeeded"] == spec["completions"] else "Failed"]
    else:
        for _ in range(spec.get("backoffLimit", 6) + 1):
            if run_pod(spec, {}) == 0:
                status["succeeded"] = 1
                break
            status["failed"] += 1
        status["conditions"] = ["Complete" if status["succeeded"] else "Failed"]
    with open(path(name), "w") as f:
        json.dump(status, f)
    print(f"job.batch/{name} created")


if args[:2] == ["apply", "-f"] and args[2] == "-":
    for job in yaml.safe_load_all(sys.stdin):
        apply(job)
elif args[:2] == ["get", "job"]:
    name, jsonpath = args[2], next(a for a in args if a.startswith("jsonpath="))
    if not os.path.exists(path(name)):
        if "--ignore-not-found" in args:
            sys.exit(0)
        print(f'Error from server (NotFound): jobs.batch "{name}" not found', file=sys.stderr)
        sys.exit(1)
    status = json.load(open(path(name)))
    if "conditions" in jsonpath:
        print(" ".join(status["conditions"]), end="")
    else:
        print(f'{status["succeeded"]} succeeded, {status["active"]} running, {status["failed"]} failed', end="")
elif args[:2] == ["delete", "job"]:
    os.remove(path(args[2]))
    print(f'job.batch "{args[2]}" deleted')
else:
    sys.exit(f"fake kubectl: not understood: {args}")
PY
  # sprague in the pods: shard 3 of 8 fails while $tmp/k8s/fail exists.
  cat >"$tmp/k8s/bin/sprague" <<SH
#!/usr/bin/env bash
if [[ " \$* " == *" --shard 3/8 "* && -e $tmp/k8s/fail ]]; then echo "error: stand-in failure of shard 3" >&2; exit 1; fi
exec $bin "\$@"
SH
  chmod +x "$tmp/k8s/bin/kubectl" "$tmp/k8s/bin/sprague"
  kube() {
    PATH=$tmp/k8s/bin:$PATH FAKE_K8S_STATE=$tmp/k8s/state FAKE_K8S_DATA=$tmp/k8s/data \
      KUBECTL=$tmp/k8s/bin/kubectl POLL_SECONDS=1 "$k8s" "$@"
  }
  touch "$tmp/k8s/fail"
  expect 1 "job census-4x5-shards failed: see kubectl describe job census-4x5-shards" kube 4x5 8 census/4x5
  [[ -f $tmp/k8s/data/census/4x5/shards/8/manifest.json && ! -e $tmp/k8s/data/census/4x5/shards/3/manifest.json ]] \
    || fail "k8s: the first run did not leave shards 1-2, 4-8 finished and 3 not"
  rm "$tmp/k8s/fail"
  expect 0 "job census-4x5-shards failed earlier: deleting it" kube 4X5 8 census/4x5
  grep -qF "shard 8/8 already finished" "$tmp/said" || fail "k8s: the rerun did not skip finished shards: $(cat "$tmp/said")"
  same "$tmp/k8s/data/census/4x5/merged" "$tmp/whole"
  # The same OUT with another N: Kubernetes refuses to change the Jobs; once they are deleted,
  # the pods refuse the finished shards of 8 (exit 2, not retried).
  expect 1 "field is immutable" kube 4x5 9 census/4x5
  rm "$tmp/k8s/state/"*
  expect 1 "holds a finished shard 1/8 of 4x5, not shard 1/9 of 4x5" kube 4x5 9 census/4x5
  # A Job that never ends.
  expect 1 "kubectl describe job census-3x3-shards" env FAKE_K8S_HANG=1 WAIT_SECONDS=2 \
    PATH="$tmp/k8s/bin:$PATH" FAKE_K8S_STATE=$tmp/k8s/state FAKE_K8S_DATA=$tmp/k8s/data \
    KUBECTL=$tmp/k8s/bin/kubectl POLL_SECONDS=1 "$k8s" 3x3 2 census/3x3
  grep -qF "job census-3x3-shards: 0 succeeded, 2 running, 0 failed" "$tmp/said" || fail "k8s: no progress shown: $(cat "$tmp/said")"
  ok "k8s-census.sh reruns a failed Job, merges byte-identical to one run, gives up a Job that never ends"
else
  echo "cluster-scripts-test: SKIPPED the Kubernetes stand-in run (needs python3 with PyYAML)" >&2
fi

# --- Slurm: stand-in sbatch and scontrol; the recorded job scripts run here as the tasks ---
mkdir -p "$tmp/slurm/bin" "$tmp/slurm/jobs"
cat >"$tmp/slurm/bin/sbatch" <<SH
#!/usr/bin/env bash
# Records a submission (arguments, CENSUS_OFFSET, script) as job 100, 101, ...; prints its id.
id=\$((100 + \$(ls $tmp/slurm/jobs | wc -l)))
mkdir $tmp/slurm/jobs/\$id
printf '%s\n' "\$@" >$tmp/slurm/jobs/\$id/args
echo "\${CENSUS_OFFSET:-}" >$tmp/slurm/jobs/\$id/offset
cat >$tmp/slurm/jobs/\$id/script
echo "\$id;cluster"
SH
printf '#!/bin/sh\n[ -z "$FAKE_MAX_ARRAY" ] && exit 1\necho "MaxArraySize            = $FAKE_MAX_ARRAY"\n' >"$tmp/slurm/bin/scontrol"
chmod +x "$tmp/slurm/bin/sbatch" "$tmp/slurm/bin/scontrol"
slurm() { PATH=$tmp/slurm/bin:$PATH SPRAGUE=$bin scripts/slurm-census.sh "$@"; }
# No scontrol answer: Slurm's default MaxArraySize 1001, so 1024 shards are 1000 + 24.
FAKE_MAX_ARRAY= DRY_RUN=1 slurm 7X7 1024 "$tmp/slurm/7x7" >"$tmp/said"
[[ $(grep -o -- '--array=[0-9-]*' "$tmp/said" | tr '\n' ' ') == "--array=1-1000 --array=1-24 " ]] \
  || fail "slurm-census.sh 7x7 1024: not split into arrays of 1000 and 24: $(grep -o -- '--array=[0-9-]*' "$tmp/said")"
grep -qF 'CENSUS_OFFSET=1000 ' "$tmp/said" && grep -qF -- "--output=$tmp/slurm/7x7/logs/shard-1000+%a.out" "$tmp/said" \
  && grep -qF -- '--dependency=afterok:ARRAY_JOB_ID1:ARRAY_JOB_ID2' "$tmp/said" && grep -qF 'CENSUS_SIZE' "$tmp/said" \
  || fail "slurm-census.sh 7x7 1024: offset, log name or dependency wrong: $(grep sbatch "$tmp/said")"
# MaxArraySize 4 from scontrol: 8 shards in arrays of 3, 3 and 2; then run them all here.
FAKE_MAX_ARRAY=4 GPU=1 slurm 4X5 8 "$tmp/slurm/out" --partition=test >"$tmp/said"
grep -qF "submitted shards: job 100 (array of shards 1-3), job 101 (array of shards 4-6), job 102 (array of shards 7-8); merge: job 103" "$tmp/said" \
  || fail "slurm-census.sh 4x5 8 with MaxArraySize 4: $(cat "$tmp/said")"
grep -qx -- '--gres=gpu:1' "$tmp/slurm/jobs/100/args" && grep -qx -- '--partition=test' "$tmp/slurm/jobs/100/args" \
  && grep -qx -- '--dependency=afterok:100:101:102' "$tmp/slurm/jobs/103/args" && ! grep -q gres "$tmp/slurm/jobs/103/args" \
  || fail "slurm-census.sh: options of the submissions wrong"
# The tasks, with the stand-in running --device gpu on the CPU.
printf '#!/usr/bin/env bash\nexec %q "${@/#gpu/cpu}"\n' "$bin" >"$tmp/slurm/gpu-on-cpu"
chmod +x "$tmp/slurm/gpu-on-cpu"
task() {  # task JOB INDEX [N]: runs array task INDEX of the recorded JOB
  env CENSUS_SIZE=4x5 CENSUS_N="${3:-8}" CENSUS_OUT="$tmp/slurm/out" CENSUS_SPRAGUE="$tmp/slurm/gpu-on-cpu" CENSUS_ENGINE=gpu \
    CENSUS_OFFSET="$(cat "$tmp/slurm/jobs/$1/offset")" SLURM_ARRAY_TASK_ID="$2" SLURM_CPUS_PER_TASK=1 \
    bash "$tmp/slurm/jobs/$1/script"
}
for job_count in 100:3 101:3 102:2; do
  for i in $(seq 1 "${job_count#*:}"); do task "${job_count%:*}" "$i" >/dev/null 2>&1 || fail "slurm task ${job_count%:*}_$i"; done
done
[[ -f $tmp/slurm/out/shards/8/manifest.json && ! -e $tmp/slurm/out/shards/9 ]] || fail "slurm tasks did not write shards 1-8"
expect 0 "shard 5/8 already finished" task 101 2
expect 2 "holds a finished shard 5/8 of 4x5, not shard 5/9 of 4x5" task 101 2 9
CENSUS_N=8 CENSUS_OUT=$tmp/slurm/out CENSUS_SPRAGUE=$bin bash "$tmp/slurm/jobs/103/script" >/dev/null 2>&1 || fail "slurm merge job"
same "$tmp/slurm/out/merged" "$tmp/whole"
ok "slurm-census.sh splits arrays below MaxArraySize; its tasks and merge give one run's files; refuses another N's shard"

# --- census-run.sh, in a copy (it writes into results/ of its own tree) ---
mkdir -p "$tmp/run/scripts"
cp -r scripts/census-run.sh scripts/lib "$tmp/run/scripts/"
printf '#!/usr/bin/env bash\nif [[ " $* " == *" --shard 2/3 "* && -e %q ]]; then echo "error: stand-in failure" >&2; exit 3; fi\nexec %q "$@"\n' \
  "$tmp/run/fail" "$bin" >"$tmp/run/sprague"
chmod +x "$tmp/run/sprague"
touch "$tmp/run/fail"
expect 3 "shard 2/3: FAILED (exit 3)" env SPRAGUE="$tmp/run/sprague" THREADS=1 "$tmp/run/scripts/census-run.sh" 4X5 3
times=$tmp/run/results/wall/census/4x5/shards/times.tsv
[[ $(cut -f1 "$times" | tr '\n' ' ') == "shard 1 " ]] || fail "census-run.sh: times.tsv after a failed shard: $(cat "$times")"
rm "$tmp/run/fail"
expect 0 "shard 1/3: finished earlier" env SPRAGUE="$tmp/run/sprague" THREADS=1 "$tmp/run/scripts/census-run.sh" 4x5 3
[[ $(cut -f1 "$times" | tr '\n' ' ') == "shard 1 2 3 " ]] && awk -F '\t' 'NF != 5 { exit 1 }' "$times" \
  || fail "census-run.sh: times.tsv not one row of 5 columns per finished shard: $(cat "$times")"
expect 2 "holds a finished shard 1/3 of 4x5, not shard 1/4 of 4x5" env SPRAGUE="$tmp/run/sprague" "$tmp/run/scripts/census-run.sh" 4x5 4
ok "census-run.sh keeps only finished shards in times.tsv and refuses another N's shard"

# --- gpu-census.sh, with stand-ins for the binary ---
printf '#!/bin/sh\necho "error: --device gpu: stand-in: no CUDA driver" >&2\nexit 2\n' >"$tmp/no-gpu"
chmod +x "$tmp/no-gpu"
expect 2 "stand-in: no CUDA driver" env SPRAGUE="$tmp/no-gpu" OUT="$tmp/gpu-fail" scripts/gpu-census.sh validate
mkdir -p "$tmp/gpu-results/wall/census/4x5/shards"
cp -r "$tmp/run/results/wall/census/4x5/shards/1" "$tmp/gpu-results/wall/census/4x5/shards/"
expect 2 "holds a finished shard 1/3 of 4x5, not shard 1/2 of 4x5" env SPRAGUE="$tmp/slurm/gpu-on-cpu" OUT="$tmp/gpu-out" \
  RESULTS="$tmp/gpu-results" scripts/gpu-census.sh shards 4X5 2 60
expect 0 "shard 1/3: finished earlier" env SPRAGUE="$tmp/slurm/gpu-on-cpu" OUT="$tmp/gpu-out" \
  RESULTS="$tmp/gpu-results" scripts/gpu-census.sh shards 4X5 3 60
ok "gpu-census.sh shows a failed run's error and refuses another N's shard"

expect 0 "OK: 2 shards merged are byte-identical to one run" env SPRAGUE="$bin" JOBS=2 scripts/shards-local.sh 3X3 2
ok "shards-local.sh 3X3"
echo "cluster-scripts-test: OK"
