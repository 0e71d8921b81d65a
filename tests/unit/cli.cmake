# cli.cmake: fpo-gen's command line, run with
#   cmake -DFPO_GEN=<fpo-gen> -DSRC=<tests/unit> -DWORK=<scratch dir> -P cli.cmake
# Checks --help, --version, usage errors (exit 2), --prefix-map, --plan, --depfile, --emit-ir / --from-ir
# (the C generated from the IR is byte-identical), -D, and that a failed run leaves nothing.
foreach(v FPO_GEN SRC WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "cli.cmake: -D${v}=... is required")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(fail msg)
  message(SEND_ERROR "${msg}")
endfunction()

# run(<expected exit status> args...): sets out/err in the caller.
macro(run want)
  execute_process(COMMAND "${FPO_GEN}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL ${want})
    fail("fpo-gen ${ARGN}: exit status ${rc}, want ${want}\nstdout: ${out}\nstderr: ${err}")
  endif()
endmacro()

macro(expect_in text what)
  string(FIND "${${text}}" "${what}" _pos)
  if(_pos EQUAL -1)
    fail("expected '${what}' in ${text}:\n${${text}}")
  endif()
endmacro()

set(slice "${SRC}/slice.fpo")
get_filename_component(slice_real "${slice}" REALPATH)

run(0 --help)
expect_in(out "--emit-ir FILE")
expect_in(out "-p, --program NAME")
run(0 --version)
expect_in(out "fpo-gen ")
run(2)
expect_in(err "fpo-gen: error: no input file")
run(2 --bogus "${slice}")
expect_in(err "unknown option '--bogus'")
run(2 --backend hip "${slice}")
expect_in(err "unknown back end 'hip' (this fpo-gen has: c, cuda)")
# a --cuda-* option's value out of its range: OPTION|VALUE|what the message expects
foreach(case "nests|0|a count" "levels|17|a count from 1 to 16"
             "threads|100|a multiple of 32 from 64 to 1024" "unroll|x|a count from 1 to 16"
             "rows|3|1, 2, 4, 8, 16 or 32" "rows|64|1, 2, 4, 8, 16 or 32"
             "shared|228|a count from 16 to 227" "fed|maybe|on or off" "ring|yes|on or off"
             "ahead|33|a count from 0 to 32" "prefetch|65|a count from 0 to 64" "ldg|1|on or off"
             "blocks|0|a count from 1 to 32" "walk-rows|0|1, 2, 4, 8, 16 or 32"
             "walk-rows|12|1, 2, 4, 8, 16 or 32" "walk-blocks|33|a count from 1 to 32"
             "chunks|0|a count from 1 to 16" "rim|some|off, nests or all")
  string(REPLACE "|" ";" c "${case}")
  list(GET c 0 opt)
  list(GET c 1 value)
  list(GET c 2 want)
  run(2 --cuda-${opt} ${value} "${slice}")
  expect_in(err "--cuda-${opt} '${value}': expected ${want}")
endforeach()
run(2 --cuda-blocks 9 "${slice}")
expect_in(err "--cuda-blocks 9: blocks of --cuda-threads make more than the 2048 threads")
run(2 --cuda-blocks 17 --cuda-threads 128 "${slice}")
expect_in(err "--cuda-blocks 17: blocks of --cuda-threads make more than the 2048 threads")
run(2 --cuda-walk-blocks 9 --cuda-walk-rows 8 "${slice}")   # 9 blocks of 32 x 8
expect_in(err "--cuda-walk-blocks 9: blocks of --cuda-walk-rows make more than the 2048 threads")
run(2 --layouts 3y3 "${slice}")
expect_in(err "--layouts: '3y3' is not a layout")
run(2 --halo 0 "${slice}")
expect_in(err "--halo '0': expected a depth")
run(2 -o)
expect_in(err "option '-o' needs a value")
run(2 --prefix-map nothing "${slice}")
expect_in(err "option '--prefix-map' needs OLD=NEW")
run(2 --prefix-map =x "${slice}")
expect_in(err "option '--prefix-map' needs OLD=NEW")
# A map reaches #line: the source's folder written as "src", the real path nowhere.
get_filename_component(slice_dir "${slice_real}" DIRECTORY)
run(0 -o "${WORK}/mapped" --prefix-map "${slice_dir}=src" "${slice}")
file(GLOB mapped_c "${WORK}/mapped/*.c")
set(mapped "")
foreach(f IN LISTS mapped_c)
  file(READ "${f}" text)
  string(APPEND mapped "${text}")
endforeach()
expect_in(mapped "\"src/slice.fpo\"\n")
string(FIND "${mapped}" "${slice_dir}/" at)
if(NOT at EQUAL -1)
  fail("the generated C names ${slice_dir} despite --prefix-map")
endif()
run(2 -D NOEQUALS "${slice}")
expect_in(err "expected NAME=VALUE")
run(2 --from-ir x.json "${slice}")
expect_in(err "--from-ir reads no .fpo files")
run(1 "${WORK}/missing.fpo")
expect_in(err "cannot open")

# --plan: CMake syntax, outputs in -o, inputs are real paths.
run(0 -o "${WORK}/gen" --plan "${WORK}/plan.cmake" "${slice}")
include("${WORK}/plan.cmake")
set(g "${WORK}/gen")
if(NOT FPO_PLAN_OUTPUTS STREQUAL
   "${g}/step.h;${g}/step.impl.h;${g}/step.c;${g}/step.all.c;${g}/step.manifest.json")
  fail("plan outputs: '${FPO_PLAN_OUTPUTS}'")
endif()
if(NOT FPO_PLAN_REPORT STREQUAL "step: 10 classes, 1 distinct variant")
  fail("plan report: '${FPO_PLAN_REPORT}'")
endif()
if(NOT FPO_PLAN_INPUTS STREQUAL "${slice_real}" OR NOT FPO_PLAN_PROGRAM STREQUAL "step")
  fail("plan inputs/program: '${FPO_PLAN_INPUTS}' '${FPO_PLAN_PROGRAM}'")
endif()
if(EXISTS "${WORK}/gen/step.c")
  fail("--plan generated the outputs")
endif()
# --backend cuda: a .cu source per variant beside the C ones.
run(0 -o "${WORK}/gen" --backend cuda --plan "${WORK}/plan_cuda.cmake" "${slice}")
include("${WORK}/plan_cuda.cmake")
if(NOT FPO_PLAN_OUTPUTS STREQUAL
   "${g}/step.h;${g}/step.impl.h;${g}/step.c;${g}/step.all.c;${g}/step.manifest.json;${g}/step.all.cu")
  fail("plan outputs with --backend cuda: '${FPO_PLAN_OUTPUTS}'")
endif()
# --frontdoor: the Python module and the Fortran module after the back ends' outputs, once
# each; a name Fortran cannot tell from another is an input error.
run(2 --frontdoor rust "${slice}")
expect_in(err "unknown front door 'rust' (this fpo-gen has: fortran, python)")
run(0 -o "${WORK}/gen" --frontdoor python --frontdoor fortran --frontdoor python
    --plan "${WORK}/plan_doors.cmake" "${slice}")
include("${WORK}/plan_doors.cmake")
if(NOT FPO_PLAN_OUTPUTS STREQUAL
   "${g}/step.h;${g}/step.impl.h;${g}/step.c;${g}/step.all.c;${g}/step.manifest.json;${g}/step.py;${g}/step_fpo.f90")
  fail("plan outputs with --frontdoor python --frontdoor fortran: '${FPO_PLAN_OUTPUTS}'")
endif()
file(WRITE "${WORK}/cases.fpo" "stencil c(qa: field<f64>, Qa: field<f64>) {\n"
     "    computation(PARALLEL) { Qa = qa; }\n}\n"
     "program cases(qa: field<f64>, Qa: field<f64>) {\n    c(qa, Qa);\n}\n")
run(1 -o "${WORK}/gen" --frontdoor fortran --plan "${WORK}/plan_cases.cmake" "${WORK}/cases.fpo")
expect_in(err "cases.fpo:4:")
expect_in(err "error: Fortran does not tell 'Qa' from 'qa' (names ignore case)")
run(0 -o "${WORK}/gen" --frontdoor python --plan "${WORK}/plan_cases.cmake" "${WORK}/cases.fpo")
run(1 -o "${WORK}/gen" --frontdoor python --plan "${WORK}/plan_cb.cmake"
    "${SRC}/../../docs/examples/callback.fpo")
expect_in(err "the Python front door does not take programs with host callbacks")

# Generation with a depfile listing imports too.
set(features "${SRC}/features.fpo")
get_filename_component(lib_real "${SRC}/features_lib.fpo" REALPATH)
run(0 -p main2 -o "${WORK}/gen" --depfile "${WORK}/main2.d" "${features}")
file(READ "${WORK}/main2.d" dep)
expect_in(dep "${WORK}/gen/main2.h ${WORK}/gen/main2.impl.h ${WORK}/gen/main2.c ${WORK}/gen/main2.all.c ${WORK}/gen/main2.manifest.json:")
expect_in(dep "${lib_real}")
file(GLOB leftovers "${WORK}/gen/*tmp*")
if(leftovers)
  fail("temporary files left: ${leftovers}")
endif()

# The IR round trip through files: same JSON, byte-identical C.
run(0 -p main2 --emit-ir "${WORK}/main2.json" "${features}")
run(0 --from-ir "${WORK}/main2.json" --emit-ir "${WORK}/main2.again.json")
file(READ "${WORK}/main2.json" j1)
file(READ "${WORK}/main2.again.json" j2)
if(NOT j1 STREQUAL j2)
  fail("the IR differs after --from-ir / --emit-ir")
endif()
run(0 --from-ir "${WORK}/main2.json" -o "${WORK}/from-ir")
foreach(f main2.h main2.c)
  file(READ "${WORK}/gen/${f}" a)
  file(READ "${WORK}/from-ir/${f}" b)
  if(NOT a STREQUAL b)
    fail("${f} generated from the IR differs from ${f} generated from the .fpo files")
  endif()
endforeach()
run(0 -p main2 --emit-ir - "${features}")
if(NOT out STREQUAL j1)
  fail("--emit-ir - differs from --emit-ir FILE")
endif()
run(1 -p other --from-ir "${WORK}/main2.json" -o "${WORK}/x")
expect_in(err "the IR holds program 'main2', not 'other'")
file(WRITE "${WORK}/bad.json" "{\"fpo_ir\": 1, \"program\": 3}")
run(1 --from-ir "${WORK}/bad.json" -o "${WORK}/x")
expect_in(err "bad.json: error:")

# -D changes the folded value; a failed run leaves the previous outputs untouched.
run(0 -p main2 -D NITER=7 -o "${WORK}/gen" "${features}")
file(READ "${WORK}/gen/main2.all.c" c7)
expect_in(c7 "< 7")
file(TIMESTAMP "${WORK}/gen/main2.all.c" before "%s")
run(1 -p main2 -D NITER=x -o "${WORK}/gen" --depfile "${WORK}/fail.d" "${features}")
expect_in(err "-D NITER=x: 'x' is not a valid i32 value")
file(READ "${WORK}/gen/main2.all.c" still)
if(NOT still STREQUAL c7 OR EXISTS "${WORK}/fail.d")
  fail("a failed run changed the outputs or wrote a depfile")
endif()
run(1 -o "${WORK}/gen" "${features}")
expect_in(err "the files hold 2 programs; choose one with -p NAME")

# A program temporary read where no call writes it: a warning naming the rows, exit 0, the
# outputs written; a program whose calls cover what is read is quiet.
run(0 -o "${WORK}/narrow" "${SRC}/narrow.fpo")
expect_in(err "narrow.fpo:12:5: warning: 'g' is read at j = -1 .. ny, but the program's calls write it only at j = 0 .. ny")
if(NOT EXISTS "${WORK}/narrow/narrow.all.c")
  fail("a warning stopped the outputs")
endif()
run(0 -o "${WORK}/rows" "${SRC}/../programs/rows.fpo")
if(err MATCHES "warning")
  fail("rows.fpo: unexpected warning:\n${err}")
endif()
