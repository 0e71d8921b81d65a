# model_run.cmake: included by the models' scripts. model_defaults(<NAME:default>...) gives
# each NAME the caller did not define its default and splits the '|'-separated PREFLAGS and
# POSTFLAGS into lists; ratio_text(<out> <num> <den>) writes num / den to two decimals and an x.
# model_run(<who> <exe> <args>...) runs the
# FPO example model on NP ranks through FindMPI's launcher (MPIEXEC, NPFLAG, PREFLAGS and
# POSTFLAGS, the last two as lists) and sets in the caller `out` (what it printed), `ms` (time
# per step), `steps`, `fp` (the fingerprint of h) and `huge` (rank 0's memory on huge pages in
# MB, ? where not printed); it stops the script, naming <who>, when the run fails or prints no
# time or fingerprint.
macro(model_defaults)
  foreach(_kv IN ITEMS ${ARGN})
    string(REPLACE ":" ";" _kv "${_kv}")
    list(GET _kv 0 _k)
    list(GET _kv 1 _d)
    if(NOT DEFINED ${_k})
      set(${_k} ${_d})
    endif()
  endforeach()
  foreach(_v PREFLAGS POSTFLAGS)
    string(REPLACE "|" ";" ${_v} "${${_v}}")
  endforeach()
endmacro()

function(ratio_text out num den)
  math(EXPR ratio "(${num} * 100 + ${den} / 2) / ${den}")
  math(EXPR ri "${ratio} / 100")
  math(EXPR rf "${ratio} % 100")
  if(rf LESS 10)
    set(rf "0${rf}")
  endif()
  set(${out} "${ri}.${rf}x" PARENT_SCOPE)
endfunction()

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
