# sw_bench.cmake: times the shallow-water step (program sw_step) fused against unfused on NP
# ranks, the two builds taking turns ROUNDS times, and prints each run's time per step, each
# build's best and their ratio (cmake -P; the build's `sw_bench` target runs it). It fails only
# when the two builds' fingerprints differ, never on speed. Needs MPIEXEC, NPFLAG, PREFLAGS,
# POSTFLAGS (FindMPI's), EXE, UNFUSED; optional N (48), STEPS (60), ROUNDS (3), NP (6). Lists
# come separated by '|'.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/model_run.cmake)
model_defaults(N:48 STEPS:60 ROUNDS:3 NP:6)
set(ENV{OMP_NUM_THREADS} 1)
# days for STEPS steps of about 16800 / N s (the gravity-wave limit's 350 s at N = 48), to
# 6 decimals
math(EXPR udays "${STEPS} * 16800 * 1000000 / (${N} * 86400)")
math(EXPR whole "${udays} / 1000000")
math(EXPR frac "${udays} % 1000000 + 1000000")
string(SUBSTRING "${frac}" 1 6 frac)
set(days "${whole}.${frac}")

# One run of `exe`: its time per step in microseconds to `us`, its fingerprint to `fp`.
function(sw_time exe us fp)
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${NP} ${PREFLAGS} ${exe} ${POSTFLAGS}
                          -t 2 -n ${N} -d ${days} -s ${STEPS} -e 1000000
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT o MATCHES "fingerprint ([0-9a-f]+)  \\(([0-9]+)\\.([0-9]+) ms/step after the first\\)")
    message(FATAL_ERROR "sw_bench: ${exe} failed (${rc}):\n${o}\n${e}")
  endif()
  set(${fp} ${CMAKE_MATCH_1} PARENT_SCOPE)
  math(EXPR t "${CMAKE_MATCH_2} * 1000 + ${CMAKE_MATCH_3}")
  set(${us} ${t} PARENT_SCOPE)
endfunction()

function(sw_ms out us)   # microseconds as milliseconds, 3 decimals
  math(EXPR whole "${us} / 1000")
  math(EXPR frac "${us} % 1000 + 1000")
  string(SUBSTRING "${frac}" 1 3 frac)
  set(${out} "${whole}.${frac}" PARENT_SCOPE)
endfunction()

set(best_f 0)
set(best_u 0)
foreach(round RANGE 1 ${ROUNDS})
  sw_time(${EXE} tf fpf)
  sw_time(${UNFUSED} tu fpu)
  if(NOT fpf STREQUAL fpu)
    message(FATAL_ERROR "sw_bench: fused ${fpf} and unfused ${fpu} differ")
  endif()
  if(best_f EQUAL 0 OR tf LESS best_f)
    set(best_f ${tf})
  endif()
  if(best_u EQUAL 0 OR tu LESS best_u)
    set(best_u ${tu})
  endif()
  sw_ms(a ${tf})
  sw_ms(b ${tu})
  message("round ${round}: fused ${a} ms/step, unfused ${b} ms/step")
endforeach()
ratio_text(x ${best_u} ${best_f})
sw_ms(a ${best_f})
sw_ms(b ${best_u})
message("shallow-water step, N = ${N}, ${NP} ranks, ${STEPS} steps: best fused ${a} ms/step, "
        "unfused ${b} ms/step: unfused / fused = ${x}")
