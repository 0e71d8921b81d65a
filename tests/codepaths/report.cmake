# report.cmake: fpo-gen's plan for several programs and layouts: the one-line build report
# (classes and distinct variants), one output per distinct variant, and the same run signature
# in every variant. Run with cmake -P, -D GEN=<fpo-gen> SRC=<this folder> WORK=<scratch>.
function(fail msg)
  message(FATAL_ERROR "FAIL: ${msg}")
endfunction()

# plan(<file.fpo> <layouts or ""> <expected report> <expected number of variant sources>)
function(plan fpo layouts want nvariants)
  set(args "")
  if(layouts)
    set(args --layouts "${layouts}")
  endif()
  file(REMOVE_RECURSE "${WORK}/gen")
  execute_process(COMMAND "${GEN}" ${args} -o "${WORK}/gen" --plan "${WORK}/plan.cmake"
                          "${SRC}/${fpo}"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    fail("fpo-gen --plan ${fpo} ${layouts}: ${err}")
  endif()
  include("${WORK}/plan.cmake")
  if(NOT FPO_PLAN_REPORT STREQUAL want)
    fail("${fpo} ${layouts}: report '${FPO_PLAN_REPORT}', want '${want}'")
  endif()
  set(variants ${FPO_PLAN_OUTPUTS})
  list(FILTER variants INCLUDE REGEX "/${FPO_PLAN_PROGRAM}\\.[a-z]+\\.c$")
  list(LENGTH variants n)
  if(NOT n EQUAL nvariants)
    fail("${fpo} ${layouts}: ${n} variant sources in the plan, want ${nvariants}: ${variants}")
  endif()
  message(STATUS "${fpo} [${layouts}]: ${FPO_PLAN_REPORT}")
endfunction()

file(MAKE_DIRECTORY "${WORK}")
plan(regions.fpo "" "regions: 10 classes, 10 distinct variants" 10)
plan(regions.fpo "2x2" "regions: 4 classes, 4 distinct variants" 4)
plan(regions.fpo "1x1" "regions: 1 class, 1 distinct variant" 1)
plan(regions.fpo "1x4" "regions: 3 classes, 3 distinct variants" 3)
plan(regions.fpo "2x2,3x3" "regions: 9 classes, 9 distinct variants" 9)
plan(west_only.fpo "" "west_only: 10 classes, 2 distinct variants" 2)
plan(west_only.fpo "4x1" "west_only: 3 classes, 2 distinct variants" 2)
plan(plain.fpo "" "plain: 10 classes, 1 distinct variant" 1)
plan(guard.fpo "2x2" "guarded: 4 classes, 4 distinct variants" 4)

# Every variant of west_only takes the same arguments (only the name differs), also the one
# whose `west` stencil pruning emptied.
execute_process(COMMAND "${GEN}" -o "${WORK}/gen" "${SRC}/west_only.fpo" RESULT_VARIABLE rc)
if(rc)
  fail("generating west_only")
endif()
file(GLOB sources "${WORK}/gen/west_only.*.c")
set(first "")
foreach(src IN LISTS sources)
  file(STRINGS "${src}" sig REGEX "^fpo_status west_only__run_")
  string(REGEX REPLACE "__run_[a-z]+" "__run_X" sig "${sig}")
  if(NOT sig)
    fail("no run function in ${src}")
  elseif(NOT first)
    set(first "${sig}")
  elseif(NOT sig STREQUAL first)
    fail("variants differ in their arguments: '${sig}' and '${first}'")
  endif()
endforeach()
message(STATUS "west_only: every variant is '${first}'")

# A halo update is split: it starts as soon as its fields are final (before `count`, though
# written after it), the unrelated stage `count` runs, and it finishes before `cross`, the first
# stage reading its fields (unfused form: one call a stage).
execute_process(COMMAND "${GEN}" --mode unfused -o "${WORK}/halo" "${SRC}/halo_stmts.fpo"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  fail("generating halo_stmts: ${err}")
endif()
file(READ "${WORK}/halo/halo_stmts.all.c" c)
string(REGEX MATCH "stencil_copy_in\\([^\n]*\n.*/\\* start halo_update\\(t, r\\)[^\n]*\n.*fpo_halo_start\\(p->plan\\[0\\][^\n]*\n.*stencil_count\\([^\n]*\n.*fpo_halo_finish\\(p->plan\\[0\\][^\n]*\n.*stencil_cross\\(" split "${c}")
if(NOT split)
  fail("halo_update(t, r) is not split around count")
endif()
message(STATUS "halo_stmts: start, count, finish, cross")
