#!/usr/bin/env bash
# run-on-device.sh: every check of the CUDA back end that needs a GPU, in one go, for a lent
# GPU machine that has the CUDA driver but not this project's build dependencies (no MPI, no
# Jansson): build here, stage the programs, carry them, run them there.
#
#   tests/gpu/run-on-device.sh --stage build/default    # here: copies what runs into .gpu/
#   tests/gpu/run-on-device.sh                          # there: runs everything in .gpu/
#
# It runs the gpu-labelled test (tests/cuda: the CUDA back end against the C back end, bit for
# bit, every variant, and the refusals) at two sizes, then the GPU benchmark (fpo_cuda_bench:
# chain and transport step on the GPU, fused and unfused, against the C back end on all the
# machine's cores, the device triad, the host time of a run), and the kernel-shape sweep where
# it was built (fpo_cuda_bench_<tag>, FPO_CUDA_SWEEP=ON): each tag's chain and tp_step lines,
# then a table of their times. Prints everything; exits non-zero if a check failed.
set -u -o pipefail
if [ "${1:-}" = "--stage" ]; then
    build=${2:?usage: run-on-device.sh --stage BUILD_DIR}
    mkdir -p .gpu
    cp "$build/tests/cuda/cuda_check_gpu" "$build/tests/cuda/fpo_cuda_bench" .gpu/
    # the kernel-shape sweep, where it was built (FPO_CUDA_SWEEP=ON)
    for b in "$build"/tests/cuda/fpo_cuda_bench_*; do
        [ -x "$b" ] && cp "$b" .gpu/
    done
    gomp=$(gcc -print-file-name=libgomp.so.1)   # the OpenMP runtime the C back end links
    [ -f "$gomp" ] && cp -L "$gomp" .gpu/
    grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
    ls -l .gpu
    exit 0
fi
dir=${1:-.gpu}
export LD_LIBRARY_PATH="$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fail=0
echo "== machine"
date -u
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv
grep -m1 'model name' /proc/cpuinfo
echo "cores: $(nproc)"
echo "== cuda_gpu.check 40 x 43 x 16, every variant"
"$dir/cuda_check_gpu" 40 43 16 || fail=1
for size in "96 99 30" "192 192 8"; do
    echo "== cuda_gpu.check $size, every variant"
    "$dir/cuda_check_gpu" $size | grep -v " 0 differ fused, 0 unfused" || fail=1
done
echo "== fpo_cuda_bench 192 x 192 x 80"
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close "$dir/fpo_cuda_bench" 192 80 20 || fail=1
echo "== fpo_cuda_bench 384 x 384 x 80"
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close "$dir/fpo_cuda_bench" 384 80 10 || fail=1
sweep=$(mktemp)
for b in "$dir"/fpo_cuda_bench_*; do
    [ -x "$b" ] || continue
    tag=${b##*/fpo_cuda_bench_}
    echo "== $(basename "$b") 192 x 192 x 80 (the 1x1 layout's variant)"
    OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close "$b" 192 80 20 | grep -E '^(chain|tp_step)' |
        sed "s/^/$tag /" | tee -a "$sweep" || fail=1
done
if [ -s "$sweep" ]; then
    echo "== kernel shapes, 192 x 192 x 80: CUDA ms, fused and unfused"
    printf '%-14s %13s %13s %13s %13s\n' shape "chain fused" unfused "tp_step fused" unfused
    awk '{ t[$1] = 1; f[$1, $2] = $5; u[$1, $2] = $8 }
         END { for (k in t) printf "%-14s %13s %13s %13s %13s\n", k, f[k, "chain:"],
                                   u[k, "chain:"], f[k, "tp_step:"], u[k, "tp_step:"] }' "$sweep" |
        sort
fi
rm -f "$sweep"
echo "== done: $([ $fail = 0 ] && echo all passed || echo FAILED)"
exit $fail
