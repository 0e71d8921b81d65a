# convergence.cmake: runs the FPO example model for 12 days at each N of NS (6 ranks, the five
# alphas of test case 1 on five levels) and writes the table of l1, l2, linf, mass drift and
# time per step to OUT as Markdown (cmake -P; the build's `model_table` target runs it).
# Needs MPIEXEC, NPFLAG, PREFLAGS, POSTFLAGS (FindMPI's), EXE, OUT; NS (default 24|48|96), NP
# (6), HORD (for the caption). Lists come separated by '|'.
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
set(rows "")
foreach(n IN LISTS NS)
  message(STATUS "convergence: N = ${n} on ${NP} ranks, 12 days")
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${NP} ${PREFLAGS} ${EXE} ${POSTFLAGS} -n ${n}
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "convergence: the run at N = ${n} failed (${rc}):\n${out}\n${err}")
  endif()
  if(NOT out MATCHES "time per step ([0-9.]+) ms \\(([0-9]+) steps")
    message(FATAL_ERROR "convergence: no time per step in:\n${out}")
  endif()
  set(ms ${CMAKE_MATCH_1})
  set(steps ${CMAKE_MATCH_2})
  string(REGEX MATCHALL "level [0-9]+ alpha=[0-9.]+: l1 [^\n]*" lines "${out}")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "alpha=([0-9.]+): l1 ([^ ]+) l2 ([^ ]+) linf ([^ ]+) mass ([^ ]+)" m "${line}")
    string(APPEND rows "| ${n} | ${CMAKE_MATCH_1} | ${CMAKE_MATCH_2} | ${CMAKE_MATCH_3} | "
                       "${CMAKE_MATCH_4} | ${CMAKE_MATCH_5} | ${steps} | ${ms} |\n")
  endforeach()
endforeach()
cmake_host_system_information(RESULT ncpu QUERY NUMBER_OF_LOGICAL_CORES)
file(WRITE "${OUT}"
  "Test case 1, 12 days, FPO example model, hord ${HORD}, ${NP} MPI ranks on ${ncpu} logical "
  "cores; time per step is the wall time of one step of all five levels (alphas).\n\n"
  "| N | alpha | l1 | l2 | linf | mass drift | steps | ms per step |\n"
  "| --- | --- | --- | --- | --- | --- | --- | --- |\n${rows}")
message(STATUS "convergence: wrote ${OUT}")
