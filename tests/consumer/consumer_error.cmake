# consumer_error.cmake: a mistake in a .fpo file stops the consumer's configure with the
# generator's own `file:line:col: error:` message, the source line and a caret.
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")
file(REMOVE_RECURSE "${WORK}")
ext_configure_command(cmd "${SOURCE}" "${WORK}" -DCONSUMER_BROKEN=ON)
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(rc EQUAL 0)
  message(FATAL_ERROR "configuring with broken.fpo succeeded:\n${log}")
endif()
set(want "fpo_add_program\\(broken\\): fpo-gen failed:.*broken.fpo:7:19: error: [^\n]+\n"
         "[^\n]*out = q \\+ nope;")
string(CONCAT want ${want})
if(NOT log MATCHES "${want}")
  message(FATAL_ERROR "the configure error lacks the generator's message:\n${log}")
endif()
string(REGEX MATCH "broken.fpo:7:19: error: [^\n]*" line "${log}")
message("consumer_error: configure stopped with: ${line}")
