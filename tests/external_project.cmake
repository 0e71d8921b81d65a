# external_project.cmake: steps for tests that build a separate project against the FPO
# installed by the `install` test: configure it like the enclosing build, build it, run it.
# Script mode; expects -D GENERATOR, MAKE_PROGRAM, C_COMPILER, BUILD_TYPE, C_FLAGS,
# LINKER_FLAGS, PREFIX, WERROR_GENERATED (the enclosing build's FPO_WERROR_GENERATED).

# Run a command; stop the test with its output when it fails. Its output goes to `out`.
function(ext_run what out)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${log}")
  endif()
  set(${out} "${log}" PARENT_SCOPE)
endfunction()

# The command that configures the project in `src` into `bin` with the enclosing build's
# compiler and flags (so sanitizer builds link), and any further arguments, into `var`.
function(ext_configure_command var src bin)
  set(${var} "${CMAKE_COMMAND}" -S "${src}" -B "${bin}" -G "${GENERATOR}"
      "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
      "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}" "-DCMAKE_C_FLAGS=${C_FLAGS}"
      "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}" "-DCMAKE_PREFIX_PATH=${PREFIX}"
      "-DFPO_WERROR_GENERATED=${WERROR_GENERATED}" ${ARGN}
      PARENT_SCOPE)
endfunction()

# Configure the project in `src` into `bin`; stop the test if that fails.
function(ext_configure src bin)
  ext_configure_command(cmd "${src}" "${bin}")
  ext_run("configuring ${src}" log ${cmd})
endfunction()

# Build `bin`; its output goes to `out`.
function(ext_build bin out)
  ext_run("building ${bin}" log "${CMAKE_COMMAND}" --build "${bin}")
  set(${out} "${log}" PARENT_SCOPE)
endfunction()

# The arguments add_test passes to a script that includes this file.
macro(ext_script_args var)
  set(${var} "-DGENERATOR=${CMAKE_GENERATOR}" "-DMAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}"
      "-DC_COMPILER=${CMAKE_C_COMPILER}" "-DBUILD_TYPE=${CMAKE_BUILD_TYPE}"
      "-DC_FLAGS=${CMAKE_C_FLAGS}" "-DLINKER_FLAGS=${CMAKE_EXE_LINKER_FLAGS}"
      "-DPREFIX=${FPO_TEST_PREFIX}" "-DWERROR_GENERATED=${FPO_WERROR_GENERATED}")
endmacro()
