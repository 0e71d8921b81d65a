# consumer_cuda_arch.cmake: the GPU architectures of a consumer's program, then a build of it
# (one architecture, 86) that links the installed CUDA runtime, run on the C back end.
# Where the project chose none, CMake takes the compiler's default (75 for CUDA 12 and 13)
# and fpo_add_program gives the kernels 80;90 instead; a -D, or CUDAARCHS at the first
# configure, is the project's choice and is kept, also when later configures lack CUDAARCHS.
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")
file(REMOVE_RECURSE "${WORK}")

function(expect_archs what want bin)
  ext_configure_command(cmd "${SOURCE}" "${bin}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}" ${ARGN})
  ext_run("configuring (${what})" log ${cmd})
  if(NOT log MATCHES "blur: CUDA_ARCHITECTURES=([^\n]*)")
    message(FATAL_ERROR "${what}: the project did not print its architectures:\n${log}")
  endif()
  if(NOT CMAKE_MATCH_1 STREQUAL "${want}")
    message(FATAL_ERROR "${what}: the kernels get '${CMAKE_MATCH_1}', not '${want}'")
  endif()
  message("${what}: ${CMAKE_MATCH_1}")
endfunction()

set(ENV{CUDAARCHS} "")
expect_archs("no choice" "80;90" "${WORK}/default")
expect_archs("no choice, configured again" "80;90" "${WORK}/default")
expect_archs("-DCMAKE_CUDA_ARCHITECTURES=86 later" "86" "${WORK}/default"
             -DCMAKE_CUDA_ARCHITECTURES=86)
set(ENV{CUDAARCHS} "89")
expect_archs("CUDAARCHS=89" "89" "${WORK}/env")
set(ENV{CUDAARCHS} "")
expect_archs("CUDAARCHS=89, configured again without it" "89" "${WORK}/env")

# The build folder configured for 86 last: nvcc compiles the kernels once, the program links
# FPO::runtime_cuda from the package, and its C back end runs (FPO_BACKEND unset: "c").
ext_build("${WORK}/default" log)
if(NOT log MATCHES "Building CUDA object")
  message(FATAL_ERROR "the consumer's kernels were not compiled:\n${log}")
endif()
set(ENV{FPO_BACKEND} "")
ext_run("running the consumer" log "${WORK}/default/consumer_cuda")
if(NOT log MATCHES "consumer: OK")
  message(FATAL_ERROR "the consumer did not print its OK line:\n${log}")
endif()
message("built against FPO::runtime_cuda and run: ${log}")
