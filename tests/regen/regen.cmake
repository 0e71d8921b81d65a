# regen.cmake: builds a copy of tests/regen/project, touches its inputs and checks what each
# rebuild does (Ninja's output names every step it runs).
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")

# Check that the build output `log` of `step` matches each regex in WANT and none in NOT.
function(expect step log)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "WANT;NOT")
  foreach(re IN LISTS arg_WANT)
    if(NOT log MATCHES "${re}")
      message(FATAL_ERROR "${step}: expected '${re}' in the build output:\n${log}")
    endif()
  endforeach()
  foreach(re IN LISTS arg_NOT)
    if(log MATCHES "${re}")
      message(FATAL_ERROR "${step}: did not expect '${re}' in the build output:\n${log}")
    endif()
  endforeach()
endfunction()

# Ninja remembers, for a step that left its outputs unchanged (restat), the newest time among
# its inputs; file times advance in ticks of a few milliseconds, so a change made within one
# tick of a build's end would look as old as that build. Let a tick pass before each change,
# as any edit by hand does.
function(later)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 0.05)
endfunction()

file(REMOVE_RECURSE "${WORK}")
# A space in the source path checks quoting through the plan, the depfile and Ninja.
set(src "${WORK}/src dir")
file(COPY "${SOURCE}/" DESTINATION "${src}")
set(bin "${WORK}/build")
ext_configure("${src}" "${bin}")
ext_build("${bin}" log)
expect("first build" "${log}" WANT "generating program regen_main" "generating program regen_other")
ext_run("running regen_app" out "${bin}/regen_app")
expect("regen_app" "${out}" WANT "regen_app: 42")

# Touch the file regen_main imports (not listed in SOURCES): only regen_main is regenerated, and
# since its sources come out the same, fpo-gen leaves them alone and nothing is compiled again.
later()
file(TOUCH "${src}/lib.fpo")
ext_build("${bin}" log)
expect("after touching lib.fpo" "${log}" WANT "generating program regen_main"
       NOT "generating program regen_other" "Building C object" "Linking C executable regen_app")

# Edit it: the new value reaches the program.
later()
file(READ "${src}/lib.fpo" text)
string(REPLACE "41.0" "99.0" text "${text}")
file(WRITE "${src}/lib.fpo" "${text}")
ext_build("${bin}" log)
expect("after editing lib.fpo" "${log}" WANT "generating program regen_main"
       "Linking C executable regen_app")
ext_run("running regen_app" out "${bin}/regen_app")
expect("regen_app after the edit" "${out}" WANT "regen_app: 100")

# Fewer outputs, then more again: regen_main built for one layout (one variant) and back. The
# build files change with them, and the depfile of the build before (naming the outputs then)
# must not stop Ninja (it refuses one naming a path that is not an output of its step); the
# dropped variant's source leaves the output folder.
file(READ "${src}/CMakeLists.txt" lists)
foreach(layouts "LAYOUTS 1x1" "")
  later()
  string(REPLACE "fpo_add_program(regen_main SOURCES main.fpo)"
                 "fpo_add_program(regen_main SOURCES main.fpo ${layouts})" edited "${lists}")
  file(WRITE "${src}/CMakeLists.txt" "${edited}")
  ext_build("${bin}" log)
  expect("after setting '${layouts}'" "${log}" WANT "generating program regen_main"
         NOT "generating program regen_other")
  ext_run("running regen_app" out "${bin}/regen_app")
  expect("regen_app with '${layouts}'" "${out}" WANT "regen_app: 100")
  # the variant the layout drops is gone from the output folder (the manifest before named it)
  set(se "${bin}/fpo/regen_main/regen_main.se.c")
  if(layouts AND EXISTS "${se}")
    message(FATAL_ERROR "with '${layouts}': ${se}, dropped by the layout, was left behind")
  elseif(NOT layouts AND NOT EXISTS "${se}")
    message(FATAL_ERROR "without LAYOUTS: ${se} was not written again")
  endif()
endforeach()

# A newer generator regenerates both programs.
later()
file(TOUCH "${PREFIX}/bin/fpo-gen")
ext_build("${bin}" log)
expect("after touching fpo-gen" "${log}" WANT "generating program regen_main"
       "generating program regen_other")

ext_build("${bin}" log)
if(GENERATOR MATCHES "Ninja")
  expect("no-op build" "${log}" WANT "no work to do" NOT "generating")
endif()
message("regen: every rebuild did what it should")
