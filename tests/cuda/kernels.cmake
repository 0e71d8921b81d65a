# stretches.cmake: which kernels of a run the CUDA back end captures as graphs (docs/cuda.md,
# "Graphs"). The shallow-water step (halo statements between its kernels): each block of
# stencil calls outside an `if` is a stretch of its own, captured at the first run; the damping
# inside `if (nord == n)` is launched plainly (the run's scalars choose it). The chain: one
# graph for the whole run, no stretches. Instrumented: plain launches only.
file(REMOVE_RECURSE "${DIR}")
function(gen out)
  execute_process(COMMAND "${GEN}" --backend c --backend cuda -o "${DIR}/${out}" ${ARGN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fpo-gen ${ARGN}: exit ${rc}\n${err}")
  endif()
endfunction()
function(count text what var)
  string(REGEX MATCHALL "${what}" m "${text}")
  list(LENGTH m n)
  set(${var} ${n} PARENT_SCOPE)
endfunction()

gen(sw --program sw_step "${SRC}/example_model/sw/step.fpo")
file(READ "${DIR}/sw/sw_step.interior.cu" sw)
count("${sw}" "fpo_cuda_stretch\\(fpo__cu, [0-9]+\\)" begins)
count("${sw}" "fpo_cuda_stretch_end\\(fpo__cu, [0-9]+\\)" ends)
count("${sw}" "fpo_cuda_stretches\\(fpo__cu, fpo_key, fpo_n\\)" keyed)
if(NOT begins EQUAL 8 OR NOT ends EQUAL 8 OR NOT keyed EQUAL 1)
  message(FATAL_ERROR "sw_step: ${begins} stretches begun, ${ends} ended, ${keyed} keyed; "
                      "expected 8, 8, 1")
endif()
string(FIND "${sw}" "if (nord == 1) {" damp)
if(damp LESS 0)
  message(FATAL_ERROR "sw_step: no `if (nord == 1)` in the run")
endif()
string(SUBSTRING "${sw}" ${damp} -1 rest)
string(FIND "${rest}" "fpo_cuda_stretch(" next)   # the first stretch after the damping
string(SUBSTRING "${rest}" 0 ${next} damping)
string(FIND "${damping}" "if (nord == 3) {" last)
count("${damping}" "FPO_LAUNCH" launches)
if(next LESS 0 OR last LESS 0 OR launches LESS 3)
  message(FATAL_ERROR "sw_step: the first stretch after `if (nord == 1)` at ${next}, "
                      "`if (nord == 3)` before it at ${last}, ${launches} plain launches in "
                      "between; expected all three damping `if`s (a launch each at least) before it")
endif()

gen(chain "${SRC}/tests/bench/chain.fpo")
file(READ "${DIR}/chain/chain_step.interior.cu" chain)
count("${chain}" "fpo_cuda_stretch" s)
count("${chain}" "fpo_cuda_replay\\(" r)
if(NOT s EQUAL 0 OR NOT r EQUAL 1)
  message(FATAL_ERROR "chain: ${s} stretch calls and ${r} replays; expected 0 and 1")
endif()

gen(checked --instrument nan --program sw_step "${SRC}/example_model/sw/step.fpo")
file(READ "${DIR}/checked/sw_step.interior.cu" checked)
count("${checked}" "fpo_cuda_stretch" s)
if(NOT s EQUAL 0)
  message(FATAL_ERROR "sw_step --instrument nan: ${s} stretch calls; expected none")
endif()
message(STATUS "stretches: sw_step 8 graphs, its damping plain; the chain one graph")
