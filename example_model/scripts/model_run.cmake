# model_run.cmake: included by the model's scripts. model_run(<who> <exe> <args>...) runs the
# FPO example model on NP ranks through FindMPI's launcher (MPIEXEC, NPFLAG, PREFLAGS and
# POSTFLAGS, the last two as lists) and sets in the caller `out` (what it printed), `ms` (time
# per step), `steps`, `fp` (the fingerprint of h) and `huge` (rank 0's memory on huge pages in
# MB, ? where not printed); it stops the script, naming <who>, when the run fails or prints no
# time or fingerprint.
function(model_run who exe)
  execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${NP} ${PREFLAGS} ${exe} ${POSTFLAGS} ${ARGN}
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${who}: ${exe} ${ARGN} failed (${rc}):\n${o}\n${e}")
  endif()
  if(NOT o MATCHES "time per step ([0-9.]+) ms \\(([0-9]+) steps.*h fingerprint ([0-9a-f]+)")
    message(FATAL_ERROR "${who}: no time per step or fingerprint in:\n${o}")
  endif()
  set(out "${o}" PARENT_SCOPE)
  set(ms ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(steps ${CMAKE_MATCH_2} PARENT_SCOPE)
  set(fp ${CMAKE_MATCH_3} PARENT_SCOPE)
  set(huge "?" PARENT_SCOPE)   # rank 0's memory on huge pages, where the system says
  if(o MATCHES "huge pages ([0-9]+) MB")
    set(huge ${CMAKE_MATCH_1} PARENT_SCOPE)
  endif()
endfunction()
