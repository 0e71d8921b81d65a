# same_bits.cmake: runs the example model's C driver (C_DRIVER) and another driver of its step
# (DRIVER: a command, '|'-separated) on 6 ranks with ARGS, and requires the same h fingerprint
# from both (ctest -P). Needs MPIEXEC, NPFLAG, PREFLAGS, POSTFLAGS (FindMPI's; lists '|'-separated).
cmake_minimum_required(VERSION 3.25)
foreach(v DRIVER ARGS PREFLAGS POSTFLAGS)
  string(REPLACE "|" ";" ${v} "${${v}}")
endforeach()

function(fingerprint out)
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} 6 ${PREFLAGS} ${ARGN} ${POSTFLAGS} ${ARGS}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT o MATCHES "h fingerprint ([0-9a-f]+)")
    message(FATAL_ERROR "same_bits: ${ARGN} failed (${rc}):\n${o}\n${e}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

fingerprint(c ${C_DRIVER})
fingerprint(other ${DRIVER})
message("C driver: h fingerprint ${c}\n${DRIVER}: h fingerprint ${other}")
if(NOT c STREQUAL other)
  message(FATAL_ERROR "same_bits: the drivers' h differ")
endif()
