# relocated.cmake: install FPO's build BUILD into one prefix, move the tree to another, and
# build and run the consumer (C, Fortran, and Python where PYTHON is set) against the moved
# tree; no installed file names the first prefix, and find_package(FPO 2.0) and (FPO 0.9) are
# refused. Script mode, with consumer.cmake's variables and BUILD.
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")
set(first "${WORK}/first-prefix")
set(moved "${WORK}/elsewhere/moved-prefix")
file(REMOVE_RECURSE "${WORK}")
ext_run("installing into ${first}" log "${CMAKE_COMMAND}" --install "${BUILD}" --prefix "${first}")
file(MAKE_DIRECTORY "${WORK}/elsewhere")
file(RENAME "${first}" "${moved}")

file(GLOB_RECURSE files "${moved}/*")
list(LENGTH files n)
foreach(f IN LISTS files)
  file(STRINGS "${f}" hits REGEX "first-prefix")
  if(hits)
    message(FATAL_ERROR "${f} names the prefix it was installed to: ${hits}")
  endif()
endforeach()
message("relocated: ${n} files moved to ${moved}; none names ${first}")

set(PREFIX "${moved}")
foreach(version 2.0 0.9)
  ext_configure_command(cmd "${SOURCE}" "${WORK}/version-${version}"
                        "-DCMAKE_Fortran_COMPILER=${FORTRAN_COMPILER}"
                        "-DCONSUMER_FPO_VERSION=${version}")
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(rc EQUAL 0 OR NOT log MATCHES "requested version \"${version}\"")
    message(FATAL_ERROR "find_package(FPO ${version}) was not refused (${rc}):\n${log}")
  endif()
  message("relocated: find_package(FPO ${version}) refused")
endforeach()

set(LANGS c fortran)
if(PYTHON)
  list(APPEND LANGS python)
endif()
include("${CMAKE_CURRENT_LIST_DIR}/consumer.cmake")
