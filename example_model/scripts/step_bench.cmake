# step_bench.cmake: times the example model's whole time step (em_step: halo update, corner
# fills, the sweeps) fused against unfused, the two builds taking turns ROUNDS times in one
# go, and prints each round's time per step, their ratio and rank 0's memory on huge pages,
# then each build's best round and their ratio (cmake -P; the build's `model_bench` target
# runs it). It fails only when the two builds' h differ in a bit, never on speed. Needs
# MPIEXEC, NPFLAG, PREFLAGS, POSTFLAGS (FindMPI's), EXE, UNFUSED; optional N (96), NZ (64),
# STEPS (40), ROUNDS (3), NP (6). The run lasts STEPS steps of the model's own time step at N
# (12 days in 6 N steps: 1800 s at N = 96). Lists come separated by '|'.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/model_run.cmake)
model_defaults(N:96 NZ:64 STEPS:40 ROUNDS:3 NP:6)
set(ENV{OMP_NUM_THREADS} 1)
# days for STEPS steps of the model's own step, 12 days / (6 N): 2 STEPS / N, to 9 decimals
math(EXPR nano "${STEPS} * 2000000000 / ${N}")
math(EXPR whole "${nano} / 1000000000")
math(EXPR frac "${nano} % 1000000000 + 1000000000")   # leading zeros kept by the 1
string(SUBSTRING "${frac}" 1 9 frac)
set(days "${whole}.${frac}")
macro(step_run exe)
  model_run(step_bench ${exe} -n ${N} -z ${NZ} -s ${STEPS} -d ${days})
endmacro()
message("FPO example model, whole step (em_step), N = ${N}, ${NZ} levels, ${STEPS} steps "
        "(${days} days), ${NP} ranks, 1 thread each, fused and unfused taking turns")
message("| round | fused ms per step | unfused ms per step | fused vs unfused | huge pages, fused / unfused (MB, rank 0) |")
message("| --- | --- | --- | --- | --- |")
foreach(r RANGE 1 ${ROUNDS})
  step_run(${EXE})
  set(ms_f ${ms})
  set(fp_f ${fp})
  set(huge_f ${huge})
  step_run(${UNFUSED})
  if(NOT fp STREQUAL fp_f)
    message(FATAL_ERROR "step_bench: the unfused build's h (${fp}) is not the fused one's "
                        "(${fp_f})")
  endif()
  string(REPLACE "." "" uf "${ms}")
  string(REPLACE "." "" ff "${ms_f}")
  ratio_text(x ${uf} ${ff})
  message("| ${r} | ${ms_f} | ${ms} | ${x} | ${huge_f} / ${huge} |")
  if(r EQUAL 1 OR ff LESS best_f)
    set(best_f ${ff})
    set(best_fs ${ms_f})
  endif()
  if(r EQUAL 1 OR uf LESS best_u)
    set(best_u ${uf})
    set(best_us ${ms})
  endif()
endforeach()
# Each build's best round against the other's: the load that slows some rounds (this machine
# shares its cores) counts less than in any one round.
ratio_text(x ${best_u} ${best_f})
message("| best of ${ROUNDS} | ${best_fs} | ${best_us} | ${x} | |")
message("h fingerprint ${fp} (both builds, every round)")
