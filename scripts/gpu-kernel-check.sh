#!/usr/bin/env bash
# The GPU census kernels compiled and assembled without a GPU (CI runs this after the tests):
# NVRTC compiles census.h + kernel.cu to PTX through the engine's own code path
# (examples/gpu_ptx.rs, cudarc's NVRTC loaded at run time, as `census wall --device gpu`
# does), then ptxas assembles the PTX for each GPU generation CUDA 13 supports and the check
# fails when an entry point is missing, spills registers to local memory, or needs more
# registers than the engine's threads per block allow (the launch would fail on a GPU).
# NVRTC and ptxas come from the system when present, else from NVIDIA's wheels on PyPI
# (nvidia-cuda-nvrtc and nvidia-cuda-nvcc, pinned below; about 100 MB, cached in
# $SPRAGUE_CUDA_CACHE, default ~/.cache/sprague-cuda). Skips (exit 0, loudly) only when
# neither is available (no pip or no network). Needs target/release/examples/gpu_ptx (built
# by `cargo test --release`, or `cargo build --release --example gpu_ptx`).
# Usage: scripts/gpu-kernel-check.sh [MAJOR.MINOR ...]   (default: 7.5 8.0 8.6 8.9 9.0 10.0 12.0)
set -euo pipefail
cd "$(dirname "$0")/.."
version=13.0.88
archs=("$@")
[[ ${#archs[@]} -gt 0 ]] || archs=(7.5 8.0 8.6 8.9 9.0 10.0 12.0)
skip() { echo "################ SKIPPED: gpu-kernel-check.sh: $* ################" >&2; exit 0; }
ptx_program=$PWD/target/release/examples/gpu_ptx
[[ -x $ptx_program ]] || { echo "error: build $ptx_program first (cargo build --release --example gpu_ptx)" >&2; exit 2; }

# NVRTC and ptxas: the system's, or the pinned wheels' (downloaded once into the cache).
ptxas=$(command -v ptxas || true)
if [[ -z $ptxas ]] || ! ldconfig -p 2>/dev/null | grep -q 'libnvrtc\.so'; then
  cache=${SPRAGUE_CUDA_CACHE:-$HOME/.cache/sprague-cuda}/$version
  if [[ ! -x $cache/bin/ptxas || ! -e $cache/lib/libnvrtc.so.13 ]]; then
    command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1 || skip "needs ptxas and libnvrtc, or python3 -m pip to fetch them"
    wheels=$(mktemp -d)
    trap 'rm -rf "$wheels"' EXIT
    echo "gpu-kernel-check: fetching NVRTC and ptxas $version from PyPI"
    python3 -m pip download -q --no-deps -d "$wheels" "nvidia-cuda-nvrtc==$version" "nvidia-cuda-nvcc==$version" \
      || skip "could not download nvidia-cuda-nvrtc and nvidia-cuda-nvcc $version from PyPI"
    # Unpacked beside the cache and renamed into place, so a killed run leaves no half cache.
    rm -rf "$cache.partial" && mkdir -p "$cache.partial/bin" "$cache.partial/lib"
    python3 - "$wheels" "$cache.partial" <<'EOF'
import pathlib, sys, zipfile
wheels, cache = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
wanted = {"bin/ptxas": "bin", "lib/libnvrtc.so.13": "lib", "lib/libnvrtc-builtins.so.13.0": "lib"}
for wheel in wheels.glob("*.whl"):
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            for tail, folder in wanted.items():
                if name.endswith(tail):
                    target = cache / folder / pathlib.Path(name).name
                    target.write_bytes(z.read(name))
                    target.chmod(0o755)
EOF
    rm -rf "$cache" && mv "$cache.partial" "$cache"
  fi
  ptxas=$cache/bin/ptxas
  export LD_LIBRARY_PATH=$cache/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
echo "gpu-kernel-check: $("$ptxas" --version | tail -1)"

work=$(mktemp -d)
trap 'rm -rf "$work" ${wheels:+"$wheels"}' EXIT
failed=0
for arch in "${archs[@]}"; do
  sm=${arch/./}
  threads=$("$ptx_program" "$arch" "$work/census-$sm.ptx" | sed -n 's/^threads per block: //p') \
    || { echo "gpu-kernel-check: FAILED: NVRTC did not compile the kernels for compute capability $arch" >&2; exit 1; }
  "$ptxas" -arch="sm_$sm" -v "$work/census-$sm.ptx" -o "$work/census-$sm.cubin" 2>"$work/ptxas-$sm.txt" \
    || { cat "$work/ptxas-$sm.txt" >&2; echo "gpu-kernel-check: FAILED: ptxas did not assemble the PTX for sm_$sm" >&2; exit 1; }
  # One line per entry point: name, registers, spill store bytes, spill load bytes.
  awk '/Function properties for/ { name = $NF }
       /bytes spill stores/ { stores[name] = $5; loads[name] = $9 }
       /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") regs[name] = $(i + 1) }
       END { for (n in regs) print n, regs[n], stores[n], loads[n] }' "$work/ptxas-$sm.txt" | sort >"$work/entries-$sm.txt"
  for entry in sg_census sg_fill; do
    read -r name regs stores loads < <(grep "^$entry " "$work/entries-$sm.txt" || echo "$entry - - -")
    verdict=ok
    if [[ $regs == - ]]; then verdict="missing from ptxas's output"
    elif (( regs * threads > 65536 || regs > 255 )); then verdict="$regs registers × $threads threads exceed a block's 65,536"
    elif (( stores + loads > 0 )); then verdict="spills ($stores bytes stored, $loads loaded)"
    fi
    printf 'sm_%s\t%s\t%s registers\t%s\n' "$sm" "$name" "$regs" "$verdict"
    [[ $verdict == ok ]] || failed=1
  done
done
if (( failed )); then
  echo "gpu-kernel-check: FAILED; ptxas said:" >&2
  cat "$work"/ptxas-*.txt >&2
  exit 1
fi
echo "gpu-kernel-check: OK, the kernels compile and assemble for compute capabilities ${archs[*]} with $threads threads a block"
