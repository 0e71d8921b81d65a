# consumer.cmake: configure and build consumer/ (program doors called from C, Fortran and
# Python) against the FPO in PREFIX, and run it in each of LANGS (c, fortran, python): each
# prints '<lang> doors: OK'; Python's from the consumer's installation (module and library
# installed side by side). Script mode, with external_project.cmake's variables and
# FORTRAN_COMPILER, PYTHON (a python3 with NumPy), SOURCE, WORK.
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")
file(REMOVE_RECURSE "${WORK}/build")
ext_configure_command(cmd "${SOURCE}" "${WORK}/build" "-DCMAKE_Fortran_COMPILER=${FORTRAN_COMPILER}")
ext_run("configuring the consumer against ${PREFIX}" log ${cmd})
ext_build("${WORK}/build" log)
foreach(lang IN LISTS LANGS)
  if(lang STREQUAL "python")
    file(REMOVE_RECURSE "${WORK}/installed")
    ext_run("installing the consumer" log "${CMAKE_COMMAND}" --install "${WORK}/build"
            --prefix "${WORK}/installed")
    file(GLOB_RECURSE module "${WORK}/installed/*/doors.py")
    cmake_path(GET module PARENT_PATH dir)
    if(NOT EXISTS "${dir}/libdoors.so")
      message(FATAL_ERROR "the consumer's install has no doors.py beside libdoors.so")
    endif()
    set(run "${CMAKE_COMMAND}" -E env "PYTHONPATH=${dir}" "${PYTHON}" "${SOURCE}/doors_test.py")
  else()
    set(run "${WORK}/build/consumer_${lang}")
  endif()
  ext_run("running the ${lang} consumer" log ${run})
  message("${log}")
  if(NOT log MATCHES "${lang} doors: OK")
    message(FATAL_ERROR "the ${lang} consumer did not print its OK line")
  endif()
endforeach()
