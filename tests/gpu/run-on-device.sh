#!/usr/bin/env bash
# run-on-device.sh: every check of the CUDA back end that needs a GPU, in one go, for a lent
# GPU machine that has the CUDA driver but not this project's build dependencies (no MPI, no
# Jansson, no NetCDF): build here, stage the programs and the shared libraries they load (Open
# MPI's launcher and plugins included), carry them, run them there.
#
#   tests/gpu/run-on-device.sh --stage build/default [SWEEP_BUILD...]
#                                   # here: fills .gpu/ (ignored by git); the sweep's benchmarks
#                                   # from each SWEEP_BUILD (other build folders) when given,
#                                   # those of the shapes its CMakeCache names
#   tests/gpu/run-on-device.sh                          # there: runs everything in .gpu/
#   ninja -C B $(tests/gpu/run-on-device.sh --targets B) # here: builds in B only what --stage
#                                   # takes from it (its sweep's benchmarks too)
#
# There it runs: the gpu-labelled checks (tests/cuda: the CUDA back end against the C back end,
# bit for bit, every variant, and the refusals) at three sizes; the builtins against the C
# library's in ulp (builtins_check); the halo library on device
# memory (halo_test_cuda on 6 and 24 ranks); the halo statements on device memory
# (tests/codepaths' halo_stmts on 6 ranks, fused and unfused: device packing, staging, device
# corner fills, the host callback); --instrument on the GPU (tests/optimizer's checks_run,
# cuda-check on a faulting kernel, kcheck_run's bounds); the example model on 6 and 24 ranks sharing the GPU against
# the C back end (the same h fingerprint; its NetCDF file written); the shallow-water model on
# 6 ranks, fused and unfused on the GPU against the C back end (one fingerprint of h, u, v;
# the time per step of each at N = 24, 192, 384), and again under NVIDIA's MPS where the
# machine has it (with the example model at N = 384, and in each kernel shape of the sweep's
# FPO_EXAMPLE_SWEEP_SHAPES that was built: fpo_example_model_<tag>); the GPU benchmark
# (fpo_cuda_bench: chain and transport step fused and unfused, the device triad, the C back end
# on all the machine's cores, the host time of a run, the chain written by hand as one kernel
# in eight shapes) at three sizes and every
# fpo_cuda_bench_<tag> of the kernel-shape sweep that was built (FPO_CUDA_SWEEP=ON), with a
# table of their times; with FPO_GPU_PROFILE, Nsight Compute's view of the chain's, the
# transport step's and the hand-written chain's kernels; with FPO_GPU_SOURCE, their source
# counters (a CSV a SASS instruction, under $OUT).
# Prints everything, a summary last; exits non-zero if a check failed. With OUT set, the whole
# log is also written to $OUT/gpu.log; with FPO_GPU_ONLY (a regex), only the checks whose
# names match it run.
set -u -o pipefail
stage_bins="tests/cuda/cuda_check_gpu tests/cuda/builtins_check_gpu tests/cuda/fpo_cuda_bench
    example_model/fpo_example_model example_model/fpo_sw_model
    example_model/fpo_sw_model_gpu_unfused tests/codepaths/cp_halo_gpu_fused
    tests/codepaths/cp_halo_gpu_unfused tests/optimizer/opt_checks_cuda_run_nan
    tests/optimizer/opt_checks_cuda_run_neg tests/optimizer/opt_checks_cuda_run_trace
    tests/optimizer/opt_kcheck_cuda_gpu_run_fused tests/optimizer/opt_kcheck_cuda_gpu_run_unfused
    tests/halo/halo_test_cuda"
# The sweep's benchmarks build $1 is configured for (FPO_CUDA_SWEEP=ON: one per tag of its
# FPO_CUDA_SWEEP_SHAPES), one name a line: those of other shapes left in it are stale.
sweep_benches() {
    local shapes
    shapes=$(sed -n 's/^FPO_CUDA_SWEEP:BOOL=ON$/on/p' "$1/CMakeCache.txt")
    [ -z "$shapes" ] || sed -n 's/^FPO_CUDA_SWEEP_SHAPES:STRING=//p' "$1/CMakeCache.txt" |
        tr ';' '\n' | sed 's/|.*//; s/^/fpo_cuda_bench_/'
}
# The example model's shapes the same build has (FPO_EXAMPLE_SWEEP_SHAPES), as sweep_benches.
sweep_models() {
    local shapes
    shapes=$(sed -n 's/^FPO_CUDA_SWEEP:BOOL=ON$/on/p' "$1/CMakeCache.txt")
    [ -z "$shapes" ] || sed -n 's/^FPO_EXAMPLE_SWEEP_SHAPES:STRING=//p' "$1/CMakeCache.txt" |
        tr ';' '\n' | sed 's/|.*//; /^$/d; s/^/fpo_example_model_/'
}
if [ "${1:-}" = "--targets" ]; then   # the ninja targets of --stage's programs in build $2
    for b in $stage_bins; do printf '%s\n' "${b##*/}"; done
    sweep_benches "${2:?usage: --targets BUILD_DIR}"
    sweep_models "$2"
    exit 0
fi
if [ "${1:-}" = "--stage" ]; then
    build=${2:?usage: run-on-device.sh --stage BUILD_DIR [SWEEP_BUILD_DIR...]}
    sweeps=("${@:3}")
    [ ${#sweeps[@]} -gt 0 ] || sweeps=("$build")
    rm -rf .gpu
    mkdir -p .gpu/rt/bin .gpu/rt/lib .gpu/rt/ompi/bin .gpu/rt/pmix
    bins=()
    for b in $stage_bins; do
        bins+=("$build/$b")
    done
    for sweep in "${sweeps[@]}"; do
        for t in $(sweep_benches "$sweep"); do
            bins+=("$sweep/tests/cuda/$t")
        done
        for t in $(sweep_models "$sweep"); do
            bins+=("$sweep/example_model/$t")
        done
    done
    for f in "${bins[@]}"; do
        [ -x "$f" ] && [ -f "$f" ] && strip "$f" -o ".gpu/rt/bin/${f##*/}"
    done
    # Open MPI's launcher, its plugins and PMIx's, their help texts (OPAL_PREFIX relocates them)
    ompi=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
    pmix=/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
    cp -L /usr/bin/orterun /usr/bin/orted .gpu/rt/ompi/bin/
    mkdir -p ".gpu/rt/ompi/lib/x86_64-linux-gnu/openmpi/lib" .gpu/rt/ompi/share .gpu/rt/share
    cp -r "$ompi" ".gpu/rt/ompi/lib/x86_64-linux-gnu/openmpi/lib/"
    cp "$pmix"/*.so .gpu/rt/pmix/
    cp -r /usr/share/openmpi .gpu/rt/ompi/share/
    [ -d /usr/share/pmix ] && cp -r /usr/share/pmix .gpu/rt/share/
    # every shared library they load but the C library's own
    for f in .gpu/rt/bin/* .gpu/rt/ompi/bin/* "$ompi"/*.so "$pmix"/*.so; do
        ldd "$f" 2>/dev/null | awk '$3 ~ /^\// {print $3}'
    done | sort -u | grep -v -E '/(libc|libm|libpthread|libdl|librt|libresolv)\.so|ld-linux' |
        while read -r lib; do cp -L "$lib" .gpu/rt/lib/; done
    gomp=$(gcc -print-file-name=libgomp.so.1)   # the OpenMP runtime the C back end links
    [ -f "$gomp" ] && cp -L "$gomp" .gpu/rt/lib/
    ls -l .gpu/rt/bin
    du -sh .gpu/rt
    tar cJf .gpu/rt.tar.xz -C .gpu rt && rm -rf .gpu/rt   # the 64 MiB a device call carries
    grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
    ls -l .gpu
    exit 0
fi

dir=$(cd "${1:-.gpu}" && pwd)
if [ -n "${OUT:-}" ]; then   # the whole log under $OUT too
    exec > >(tee "$OUT/gpu.log") 2>&1
fi
rt=/tmp/fpo-gpu-rt
rm -rf "$rt" && mkdir -p "$rt"
if ! tar xJf "$dir/rt.tar.xz" -C "$rt" --strip-components=1; then   # (no xz: Python's lzma)
    rm -rf "$rt" /tmp/rt
    python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
        "$dir/rt.tar.xz" /tmp && mv /tmp/rt "$rt"
fi
export LD_LIBRARY_PATH="$rt/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPAL_PREFIX="$rt/ompi" PATH="$rt/ompi/bin:$PATH"
export OMPI_MCA_mca_base_component_path="$rt/ompi/lib/x86_64-linux-gnu/openmpi/lib/openmpi3"
export PMIX_MCA_mca_base_component_path="$rt/pmix" PMIX_INSTALL_PREFIX="$rt"
export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_btl=self,vader
export OMPI_MCA_pml=ob1 OMPI_MCA_osc=^ucx OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun="timeout 180 orterun --oversubscribe --bind-to none"   # (no launch hangs the run)
bin=$rt/bin
fail=0
summary=""
note() { summary="$summary$1"$'\n'; }
check() {   # check NAME COMMAND...: runs it, notes pass or FAIL (FPO_GPU_ONLY: a regex, only
            # the checks whose names match it)
    local name=$1
    shift
    if [ -n "${FPO_GPU_ONLY:-}" ] && ! [[ $name =~ $FPO_GPU_ONLY ]]; then
        return 0
    fi
    echo "== $name"
    local t0=$SECONDS
    if "$@"; then
        note "pass  $name ($((SECONDS - t0)) s, at $SECONDS s)"
    else
        note "FAIL  $name ($((SECONDS - t0)) s, at $SECONDS s)"
        fail=1
    fi
}

echo "== machine"
date -u
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.mem --format=csv
grep -m1 'model name' /proc/cpuinfo
echo "cores: $(nproc)"

check "cuda_gpu.check 40 x 43 x 16, every variant" "$bin/cuda_check_gpu" 40 43 16
# builtins the C library and CUDA compute each their own way: within their ulp tolerances
[ -x "$bin/builtins_check_gpu" ] &&
    check "builtins on the GPU within their ulp tolerances (f64 and f32)" "$bin/builtins_check_gpu" 256 256
for size in "96 99 30" "192 192 8"; do
    check "cuda_gpu.check $size, every variant" \
        bash -o pipefail -c "'$bin/cuda_check_gpu' $size | grep -v ' 0 differ fused, 0 unfused'"
done

# the halo library on device memory: every kind of item, split exchanges, device corner fills
if [ -x "$bin/halo_test_cuda" ]; then
    check "halo_cuda_1x1 (6 ranks)" bash -o pipefail -c "$mpirun -n 6 '$bin/halo_test_cuda' 12 1 1 | grep 'halo_test: all checks passed'"
    check "halo_cuda_2x2 (24 ranks)" bash -o pipefail -c "$mpirun -n 24 '$bin/halo_test_cuda' 12 2 2 | grep 'halo_test: all checks passed'"
fi

# halo statements on the GPU: fields in device memory, packing on the program's stream
for form in fused unfused; do
    [ -x "$bin/cp_halo_gpu_$form" ] || continue
    check "halo statements on the GPU ($form), 6 ranks" \
        bash -o pipefail -c "FPO_BACKEND=cuda $mpirun -n 6 '$bin/cp_halo_gpu_$form' | grep -E 'halo_stmts: 6 ranks .*agree with the owners'"
done

# --instrument on the GPU: the C back end's messages from device memory; cuda-check names the
# stencil of a faulting kernel (b's level stride points 8 TB past its allocation)
if [ -x "$bin/opt_checks_cuda_run_nan" ]; then
    export FPO_BACKEND=cuda
    check "instrument nan on the GPU" \
        "$bin/opt_checks_cuda_run_nan" nan "checks: NaN in 'b' at (i=3, j=2, k=1), written by stencil 'root'"
    check "instrument nan on the GPU, clean input" "$bin/opt_checks_cuda_run_nan" clean ok
    check "instrument negative:c on the GPU" \
        "$bin/opt_checks_cuda_run_neg" negative "checks: negative value in 'c' at (i=2, j=1, k=0)"
    check "instrument trace, progress, timers on the GPU" \
        bash -o pipefail -c "'$bin/opt_checks_cuda_run_trace' clean ok 2>&1 | tee /dev/stderr | grep \"fpo trace: checks: b(1, 1, 0) = 2 after stencil 'root'\""
    check "instrument cuda-check on the GPU: a faulting kernel named" \
        "$bin/opt_checks_cuda_run_nan" wild "checks_run: launching stencil root ("
    unset FPO_BACKEND
fi
# --instrument bounds: the kernels' record of a level outside its field's (kcheck_run.c)
for form in fused unfused; do
    [ -x "$bin/opt_kcheck_cuda_gpu_run_$form" ] || continue
    export FPO_BACKEND=cuda
    check "instrument bounds on the GPU ($form), an absolute K index" \
        "$bin/opt_kcheck_cuda_gpu_run_$form" abs "kcheck: level 7 outside 0 .. 5 read from 'q' by stencil 'pick' at "
    check "instrument bounds on the GPU ($form), a variable K offset" \
        "$bin/opt_kcheck_cuda_gpu_run_$form" var "kcheck: level 5 outside 0 .. 5 read from 'q' by stencil 'pick' at "
    check "instrument bounds on the GPU ($form), the second call of one kernel" \
        "$bin/opt_kcheck_cuda_gpu_run_$form" second "kcheck: level 7 outside 0 .. 5 read from 'w' by stencil 'pick' at "
    check "instrument bounds on the GPU ($form), a FORWARD walk's column" \
        "$bin/opt_kcheck_cuda_gpu_run_$form" column "kcheck: level 7 outside 0 .. 5 read from 'q' by stencil 'climb' at "
    check "instrument bounds on the GPU ($form), clean input" "$bin/opt_kcheck_cuda_gpu_run_$form" clean ok
    unset FPO_BACKEND
done

# the example model on 6 ranks sharing the GPU: the C back end's h, bit for bit
model() {   # model NP BACKEND ARGS...: prints its output, leaves it in $model_out (EM: the
            # program, fpo_example_model by default)
    local np=$1 be=$2
    shift 2
    model_out=$(OMP_NUM_THREADS=$(( $(nproc) / np > 0 ? $(nproc) / np : 1 )) \
                $mpirun -n "$np" "$bin/${EM:-fpo_example_model}" -b "$be" "$@" 2>&1)
    echo "$model_out"
}
model_same() {   # model_same NP ARGS...: C and CUDA give one fingerprint; notes their times
                 # (and keeps them in model_c, model_cuda_time for model_shape)
    local np=$1 c g ct gt
    shift
    model_c= model_cuda_time=
    model "$np" c "$@" && c=$(echo "$model_out" | sed -n 's/^h fingerprint //p') &&
        ct=$(echo "$model_out" | sed -n 's/^time per step after the first //p') &&
        model "$np" cuda "$@" && g=$(echo "$model_out" | sed -n 's/^h fingerprint //p') &&
        gt=$(echo "$model_out" | sed -n 's/^time per step after the first //p') &&
        echo "$model_out" | grep -q '^backend: cuda' &&
        note "      model $* on $np ranks${CUDA_MPS_PIPE_DIRECTORY:+ (MPS)}: time per step after the first: C (all cores) $ct, CUDA $gt" &&
        { echo "fingerprints: c $c, cuda $g"; [ -n "$c" ] && [ "$c" = "$g" ]; } &&
        model_c=$c model_cuda_time=$gt
}
# the model's step built in the sweep's other shapes (fpo_example_model_<tag>) after a
# model_same of the same arguments: the C back end's fingerprint, and the time against it
model_shape() {   # model_shape PROGRAM NP ARGS...
    local em=$1 np=$2 g gt
    shift 2
    EM=$em model "$np" cuda "$@" || return 1
    g=$(echo "$model_out" | sed -n 's/^h fingerprint //p')
    gt=$(echo "$model_out" | sed -n 's/^time per step after the first //p')
    note "      model $* on $np ranks${CUDA_MPS_PIPE_DIRECTORY:+ (MPS)}, ${em#fpo_example_model_}: CUDA $gt (the defaults: ${model_cuda_time:-?})"
    echo "fingerprints: c ${model_c:-?}, cuda $g"
    echo "$model_out" | grep -q '^backend: cuda' && [ -n "$g" ] && [ "$g" = "${model_c:-}" ]
}
model_shapes() {   # model_shapes NP ARGS...: model_shape of each shape staged
    local m
    for m in "$bin"/fpo_example_model_*; do
        [ -x "$m" ] || continue
        check "example model in shape ${m##*/fpo_example_model_}, CUDA vs C, $1 ranks${CUDA_MPS_PIPE_DIRECTORY:+ (MPS)}, ${*:2}" \
            model_shape "${m##*/}" "$@"
    done
}
if [ -x "$bin/fpo_example_model" ]; then
    check "example model, C vs CUDA, 6 ranks, N 24, 5 levels, 1 day" model_same 6 -n 24 -d 1
    check "example model, C vs CUDA, 24 ranks, N 24, 5 levels, 1 day" model_same 24 -n 24 -d 1
    check "example model on the GPU writes its NetCDF file (6 ranks, each its part)" \
        bash -o pipefail -c "$mpirun -n 6 '$bin/fpo_example_model' -b cuda -n 24 -d 1 -f /tmp/fpo_gpu_model.nc | grep '^wrote /tmp/fpo_gpu_model.nc'"
    check "example model, C vs CUDA, 6 ranks, N 192, 32 levels, 6 hours" \
        model_same 6 -n 192 -z 32 -d 0.25
    check "example model, C vs CUDA, 6 ranks, N 384, 32 levels, 10 steps" \
        model_same 6 -n 384 -z 32 -d 0.05
    # (the shapes under MPS, below, where the machine has it)
    command -v nvidia-cuda-mps-control > /dev/null || model_shapes 6 -n 384 -z 32 -d 0.05
fi

# the shallow-water model (sw_step, c_sw + d_sw) on 6 ranks sharing the GPU: the C back end's
# bits from the fused step and the unfused one (fpo_sw_model_gpu_unfused, layout 1x1); the
# time per step of each, the C back end's on all the machine's cores
sw() {   # sw EXE BACKEND ARGS...: 6 ranks; prints the output, leaves it in $sw_out
    local exe=$1 be=$2
    shift 2
    sw_out=$(OMP_NUM_THREADS=$(( $(nproc) / 6 > 0 ? $(nproc) / 6 : 1 )) \
             $mpirun -n 6 "$bin/$exe" -B "$be" "$@" 2>&1)
    echo "$sw_out"
}
sw_fp() { echo "$sw_out" | sed -n 's/.* fingerprint \([0-9a-f]*\) .*/\1/p'; }
sw_ms() { echo "$sw_out" | sed -n 's/.*(\([0-9.]*\) ms\/step after the first).*/\1/p'; }
sw_same() {   # sw_same ARGS...: C fused, CUDA fused (and unfused where staged): one fingerprint
    local c g u=none ct gt ut=-
    sw fpo_sw_model c "$@" && c=$(sw_fp) && ct=$(sw_ms) &&
        sw fpo_sw_model cuda "$@" && g=$(sw_fp) && gt=$(sw_ms) &&
        echo "$sw_out" | grep -q '^backend: cuda' || return 1
    if [ -x "$bin/fpo_sw_model_gpu_unfused" ]; then
        sw fpo_sw_model_gpu_unfused cuda "$@" && u=$(sw_fp) && ut=$(sw_ms) || return 1
    fi
    note "      shallow water $* on 6 ranks${CUDA_MPS_PIPE_DIRECTORY:+ (MPS)}, ms/step after the first: C fused (all cores) $ct, CUDA fused $gt, CUDA unfused $ut"
    echo "fingerprints: c $c, cuda fused $g, cuda unfused $u"
    [ -n "$c" ] && [ "$c" = "$g" ] && { [ "$u" = none ] || [ "$c" = "$u" ]; }
}
if [ -x "$bin/fpo_sw_model" ]; then
    check "shallow-water model, C vs CUDA fused and unfused, 6 ranks, N 24, half a day, del-4" \
        sw_same -n 24 -d 0.5 -r 1
    check "shallow-water model, C vs CUDA fused and unfused, 6 ranks, N 24, half a day, del-8" \
        sw_same -n 24 -d 0.5 -r 3
    check "shallow-water model, C vs CUDA fused and unfused, 6 ranks, N 192, 49 steps" \
        sw_same -n 192 -d 0.05
    check "shallow-water model, C vs CUDA fused and unfused, 6 ranks, N 384, 49 steps" \
        sw_same -n 384 -d 0.025
fi

# The same ranks under NVIDIA's Multi-Process Service, where the machine has it: one server
# runs the six processes' kernels side by side instead of giving each its time slice in turn
# (each rank's step waits for its halo copies several times)
mps=$(command -v nvidia-cuda-mps-control || true)
if [ -n "$mps" ] && [ -x "$bin/fpo_sw_model" ]; then
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/fpo-mps CUDA_MPS_LOG_DIRECTORY=/tmp/fpo-mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    if "$mps" -d; then
        echo "== MPS: started ($mps)"
        check "under MPS: shallow-water model, C vs CUDA fused and unfused, 6 ranks, N 192, 49 steps" \
            sw_same -n 192 -d 0.05
        check "under MPS: shallow-water model, C vs CUDA fused and unfused, 6 ranks, N 384, 49 steps" \
            sw_same -n 384 -d 0.025
        check "under MPS: example model, C vs CUDA, 6 ranks, N 384, 32 levels, 10 steps" \
            model_same 6 -n 384 -z 32 -d 0.05
        model_shapes 6 -n 384 -z 32 -d 0.05
        echo quit | "$mps"
        cat "$CUDA_MPS_LOG_DIRECTORY"/control.log 2>/dev/null | tail -5
    else
        echo "== MPS: nvidia-cuda-mps-control -d failed; not measured"
        model_shapes 6 -n 384 -z 32 -d 0.05   # (time slices, after the run without MPS)
    fi
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
else
    echo "== MPS: no nvidia-cuda-mps-control on this machine; not measured"
fi

bench() {
    OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close "$@"
}
check "fpo_cuda_bench 192 x 192 x 80" bench "$bin/fpo_cuda_bench" 192 80 20
check "fpo_cuda_bench 384 x 384 x 80" bench "$bin/fpo_cuda_bench" 384 80 10
# a rank's domain as large as one GPU takes (16 times 192 x 192's columns: does the chain's
# walk, one thread a column, then have the warps to approach the triad?)
check "fpo_cuda_bench 768 x 768 x 80" bench "$bin/fpo_cuda_bench" 768 80 5
sweep=$(mktemp)
for size in 192 384; do
    for b in "$bin"/fpo_cuda_bench_*; do
        [ -x "$b" ] || continue
        tag=${b##*/fpo_cuda_bench_}
        check "sweep $tag, $size x $size x 80 (the 1x1 layout's variant)" \
            bash -o pipefail -c "OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close '$b' $size 80 10 | grep -E '^(chain|tp_step)' | sed 's/^/$tag@$size /' | tee -a '$sweep'"
    done
done
if [ -s "$sweep" ]; then
    echo "== kernel shapes: CUDA ms, fused and unfused (shape@size)"
    printf '%-18s %13s %13s %13s %13s %13s %13s\n' shape "chain fused" unfused "pool in L2" \
        "tp_step fused" unfused "pool in L2"
    awk '$2 ~ /:$/ { t[$1] = 1; f[$1, $2] = $5; u[$1, $2] = $8 }
         $2 ~ /,$/ && $6 == "L2:" { l[$1, $2] = $9 }   # "STEP, its pool in L2: CUDA fused MS"
         END { for (k in t) printf "%-18s %13s %13s %13s %13s %13s %13s\n", k, f[k, "chain:"],
                                   u[k, "chain:"], l[k, "chain,"], f[k, "tp_step:"],
                                   u[k, "tp_step:"], l[k, "tp_step,"] }' "$sweep" |
        sort -t@ -k2n -k1
fi
rm -f "$sweep"

# Where a step's time goes: each kernel of the chain and of the transport step, fused and
# unfused, under Nsight Compute (its own clocks left alone), for the shapes named in
# FPO_GPU_PROFILE (e.g. "base 0before"), at FPO_GPU_PROFILE_SIZE (192 by default) and for the
# steps of FPO_GPU_PROFILE_STEPS (default "chain tp_step hand"); the L2 hit rate says how much
# a kernel reads back from L2 (the chain's walk kernel: `cp` and `dp` right after its FORWARD
# walk wrote them);
# `hand`: the chain written by hand as one kernel (chain_hand.cu), in each block shape
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
mkdir -p "$rt/gomp" && cp "$rt/lib/libgomp.so.1" "$rt/gomp/" 2>/dev/null
psize=${FPO_GPU_PROFILE_SIZE:-192}
for tag in ${FPO_GPU_PROFILE:-}; do
    b="$bin/fpo_cuda_bench_$tag"
    [ -x "$b" ] && [ -n "$ncu" ] || continue
    for step in ${FPO_GPU_PROFILE_STEPS:-chain tp_step hand}; do
        if ! grep -qa 'STEP: %s only' "$b"; then   # (a build from before the STEP argument)
            [ $step = chain ] || continue
            step=
        fi
        [ "$step" != hand ] || grep -qa 'chain by hand' "$b" || continue
        echo "== Nsight Compute: the ${step:-chain}'s kernels ($tag, $psize x $psize x 80, fused runs then unfused)"
        csvf=${OUT:-/tmp}/ncu_${tag}_${step:-chain}_$psize.csv
        launches=200   # (a build of both steps: the chain's launches are its first 60)
        [ -n "$step" ] || launches=60
        env -u LD_LIBRARY_PATH "$ncu" --clock-control none -k 'regex:__all_|chain_hand' --launch-count $launches --csv --print-units base \
            --metrics gpu__time_duration.sum,dram__bytes.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct \
            env LD_LIBRARY_PATH="$rt/gomp" OMP_NUM_THREADS=4 "$b" "$psize" 80 1 $step > "$csvf" 2>&1
        env -u LD_LIBRARY_PATH python3 "$(dirname "$0")/ncu_table.py" "$csvf" || tail -5 "$csvf"
    done
done

# Where in a kernel the time goes: Nsight Compute's source counters (instructions executed and
# warp stall samples at each SASS instruction) of the transport step's segment kernels and the
# chain's kernel, for the shapes named in FPO_GPU_SOURCE (e.g. "base"), written to
# $OUT/src_<tag>_<step>.csv (and the report beside it) for reading back on a machine without a
# GPU: the same .cu (the bench's variant, `all`) built there with -lineinfo gives each
# instruction its line (tests/gpu/ncu_source.py), since -lineinfo leaves the code as it is.
# FPO_GPU_SOURCE_STEPS (default "tp_step chain") names the steps read that way.
for tag in ${FPO_GPU_SOURCE:-}; do
    b="$bin/fpo_cuda_bench_$tag"
    [ -x "$b" ] && [ -n "$ncu" ] && grep -qa 'STEP: %s only' "$b" || continue
    for spec in "tp_step __all_seg 6" "chain __all_(seg|walk|fed)[0-9] 2"; do   # (launches: a run's and more)
        set -- $spec
        [[ " ${FPO_GPU_SOURCE_STEPS:-tp_step chain} " == *" $1 "* ]] || continue
        rep=${OUT:-/tmp}/src_${tag}_$1
        echo "== Nsight Compute source counters: the $1's $2 kernels ($tag, 192 x 192 x 80) -> ${rep##*/}.csv"
        # (a report is read even where the program failed a check of its own)
        env -u LD_LIBRARY_PATH "$ncu" --clock-control none -k "regex:$2" --launch-count "$3" \
            --section SourceCounters --section WarpStateStats -f -o "$rep" \
            env LD_LIBRARY_PATH="$rt/gomp" OMP_NUM_THREADS=4 "$b" 192 80 1 "$1" > "$rep.log" 2>&1 ||
            tail -5 "$rep.log"
        [ -s "$rep.ncu-rep" ] || continue
        env -u LD_LIBRARY_PATH "$ncu" --import "$rep.ncu-rep" --page source --csv \
            --print-source sass > "$rep.csv" 2>&1 ||
            env -u LD_LIBRARY_PATH "$ncu" --import "$rep.ncu-rep" --page source --csv > "$rep.csv" 2>&1
        echo "$(wc -l < "$rep.csv") lines"; head -2 "$rep.csv" | cut -c1-400
        # each kernel's warp states (what its warps wait for, on average) and hottest lines
        env -u LD_LIBRARY_PATH "$ncu" --import "$rep.ncu-rep" --page details 2>&1 | head -200
    done
done

echo "== summary"
printf '%s' "$summary"
echo "== done: $([ $fail = 0 ] && echo all passed || echo FAILED)"
exit $fail
