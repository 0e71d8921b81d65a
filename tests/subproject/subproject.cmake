# subproject.cmake: configure, build and run tests/subproject/project, which adds FPO with
# add_subdirectory; a second build must do nothing.
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")
file(REMOVE_RECURSE "${WORK}")
ext_configure_command(cmd "${SOURCE}" "${WORK}" "-DFPO_SOURCE_DIR=${FPO_SOURCE_DIR}"
                      -DFPO_ENABLE_MPI=OFF)
ext_run("configuring ${SOURCE}" log ${cmd})
ext_build("${WORK}" log)
ext_run("running the consumer" log "${WORK}/consumer")
if(NOT log MATCHES "consumer: OK")
  message(FATAL_ERROR "the consumer did not print its OK line:\n${log}")
endif()
ext_build("${WORK}" log)
if(GENERATOR MATCHES "Ninja" AND NOT log MATCHES "no work to do")
  message(FATAL_ERROR "the second build was not a no-op:\n${log}")
endif()
message("subproject: built and ran blur with FPO in-tree")
