# run_extreme.cmake: one extreme input, made at test time by make_case.py, given to fpo-gen.
#   cmake -DPYTHON=<python3> -DFPO_GEN=<fpo-gen> -DCASE=<name> -DDIR=<work dir>
#         -DEXPECT=<regex | ok> [-DLIMIT=<seconds>] [-DMEMORY=<MiB>] [-DGEN_ARGS="<options>"]
#         -P run_extreme.cmake
# EXPECT ok: fpo-gen succeeds. Otherwise it fails with status 1 and its first line of stderr is
# `<DIR>/.../<file>:LINE:COL: error: ...` matching EXPECT (a message, not a crash: under ASan a
# stack overflow also exits 1). Either way stderr is a few short lines, and fpo-gen takes at
# most LIMIT seconds (default 5; CMakeLists.txt gives 8, 20 under sanitizers) and, where MEMORY
# is given and not 0, runs in an address space of MEMORY MiB (`ulimit -v`: an input that
# needed more fails, for want of memory).
foreach(v PYTHON FPO_GEN CASE DIR EXPECT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_extreme.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT DEFINED LIMIT)
  set(LIMIT 5)
endif()
get_filename_component(here "${CMAKE_CURRENT_LIST_FILE}" DIRECTORY)
file(REMOVE_RECURSE "${DIR}")
execute_process(COMMAND "${PYTHON}" "${here}/make_case.py" "${CASE}" "${DIR}/in"
                RESULT_VARIABLE rc OUTPUT_VARIABLE main OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "make_case.py ${CASE} failed (${rc})")
endif()

separate_arguments(gen_args UNIX_COMMAND "${GEN_ARGS}")
set(args -o "${DIR}/out" ${gen_args})
set(run "${FPO_GEN}")
if(MEMORY)
  math(EXPR kib "${MEMORY} * 1024")
  set(run sh -c "ulimit -v ${kib} && exec \"$0\" \"$@\"" "${FPO_GEN}")
endif()
string(TIMESTAMP t0 "%s%f")
execute_process(COMMAND ${run} ${args} "${main}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP t1 "%s%f")
math(EXPR ms "(${t1} - ${t0}) / 1000")
string(LENGTH "${err}" errlen)
string(SUBSTRING "${err}" 0 600 shown)
set(space "")
if(MEMORY)
  set(space " (address space ${MEMORY} MiB)")
endif()
message(STATUS "${CASE}: exit ${rc} in ${ms} ms${space}, ${errlen} bytes on stderr:\n${shown}")

if(EXPECT STREQUAL "ok")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CASE}: want success, got exit status ${rc}")
  endif()
else()
  if(NOT rc EQUAL 1)
    message(FATAL_ERROR "${CASE}: want exit status 1 (an input error), got ${rc}")
  endif()
  if(NOT err MATCHES "^[^\n]+:[0-9]+:[0-9]+: error: ${EXPECT}")
    message(FATAL_ERROR "${CASE}: want `file:line:col: error: ${EXPECT}` first on stderr")
  endif()
  if(err MATCHES "AddressSanitizer|UndefinedBehaviorSanitizer|runtime error")
    message(FATAL_ERROR "${CASE}: a sanitizer report")
  endif()
endif()
if(errlen GREATER 2000)
  message(FATAL_ERROR "${CASE}: ${errlen} bytes on stderr; a message is a few short lines")
endif()
math(EXPR limit_ms "${LIMIT} * 1000")
if(ms GREATER limit_ms)
  message(FATAL_ERROR "${CASE}: ${ms} ms, more than ${LIMIT} s")
endif()
file(REMOVE_RECURSE "${DIR}")   # passed: its inputs and outputs (tens of MB for some) go
