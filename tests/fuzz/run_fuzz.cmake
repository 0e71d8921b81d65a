# run_fuzz.cmake: one short fuzzing run, started fresh (the corpus of new inputs lives under
# WORK/corpus, artifacts of findings under WORK/), seeded from SEEDS; fails on any finding.
#   cmake -DFUZZ=<fuzz_fpo> -DDICT=<fpo.dict> -DSEEDS=<dir> -DWORK=<dir> -DSECONDS=<n> -P run_fuzz.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/corpus")
execute_process(
  COMMAND "${FUZZ}" "-dict=${DICT}" "-max_total_time=${SECONDS}" -timeout=5 -rss_limit_mb=2048
          -max_len=8192 -print_final_stats=1 "-artifact_prefix=${WORK}/"
          "${WORK}/corpus" "${SEEDS}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "#[0-9]+[ \t]+DONE[^\n]*" done "${err}")
message(STATUS "fuzz_fpo: ${done}")
if(NOT rc EQUAL 0)
  string(LENGTH "${err}" len)
  if(len GREATER 20000)
    math(EXPR from "${len} - 20000")
    string(SUBSTRING "${err}" ${from} -1 err)
  endif()
  message(FATAL_ERROR "fuzz_fpo found a problem (exit status ${rc}); the input is under "
                      "${WORK}/:\n${err}")
endif()
