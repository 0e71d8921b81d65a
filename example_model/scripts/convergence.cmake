# convergence.cmake: runs the FPO example model for 12 days at each N of NS (6 ranks, the five
# alphas of test case 1 on five levels) and writes the table of l1, l2, linf, mass drift and
# time per step to OUT as Markdown (cmake -P; the build's `model_table` target runs it). With
# UNFUSED (the unfused build) it runs that too, adds its time per step and requires its h to
# be the same bits. Needs MPIEXEC, NPFLAG, PREFLAGS, POSTFLAGS (FindMPI's), EXE, OUT; NS
# (default 24|48|96), NP (6), HORD (for the caption). Lists come separated by '|'.
cmake_minimum_required(VERSION 3.25)
if(NOT NS)
  set(NS 24|48|96)
endif()
if(NOT NP)
  set(NP 6)
endif()
foreach(v NS PREFLAGS POSTFLAGS)
  string(REPLACE "|" ";" ${v} "${${v}}")
endforeach()
set(ENV{OMP_NUM_THREADS} 1)
include(${CMAKE_CURRENT_LIST_DIR}/model_run.cmake)
# Run `exe` at N = n for 12 days (model_run's results in this scope).
macro(convergence_run exe n)
  message(STATUS "convergence: ${exe} at N = ${n} on ${NP} ranks, 12 days")
  model_run(convergence ${exe} -n ${n})
endmacro()

set(rows "")
foreach(n IN LISTS NS)
  set(ms_u "")
  if(UNFUSED)
    convergence_run(${UNFUSED} ${n})
    set(ms_u " ${ms} |")
    set(fp_u ${fp})
  endif()
  convergence_run(${EXE} ${n})
  if(UNFUSED AND NOT fp STREQUAL fp_u)
    message(FATAL_ERROR "convergence: at N = ${n} the unfused build's h (${fp_u}) is not ${fp}")
  endif()
  string(REGEX MATCHALL "level [0-9]+ alpha=[0-9.]+: l1 [^\n]*" lines "${out}")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "alpha=([0-9.]+): l1 ([^ ]+) l2 ([^ ]+) linf ([^ ]+) mass ([^ ]+)" m "${line}")
    string(APPEND rows "| ${n} | ${CMAKE_MATCH_1} | ${CMAKE_MATCH_2} | ${CMAKE_MATCH_3} | "
                       "${CMAKE_MATCH_4} | ${CMAKE_MATCH_5} | ${steps} | ${ms} |${ms_u}\n")
  endforeach()
endforeach()
cmake_host_system_information(RESULT ncpu QUERY NUMBER_OF_LOGICAL_CORES)
set(head "| N | alpha | l1 | l2 | linf | mass drift | steps | ms per step |")
set(rule "| --- | --- | --- | --- | --- | --- | --- | --- |")
if(UNFUSED)
  string(REPLACE "ms per step |" "ms per step (fused) | ms per step (unfused) |" head "${head}")
  string(APPEND rule " --- |")
endif()
file(WRITE "${OUT}"
  "Test case 1, 12 days, FPO example model, hord ${HORD}, ${NP} MPI ranks on ${ncpu} logical "
  "cores; time per step is the wall time of one step of all five levels (alphas).\n\n"
  "${head}\n${rule}\n${rows}")
message(STATUS "convergence: wrote ${OUT}")
