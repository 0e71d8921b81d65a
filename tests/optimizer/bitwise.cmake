# bitwise.cmake: run UNFUSED once and FUSED at 1, 2 and 3 OpenMP threads, each appending its
# output arrays to a file (TG_DUMP); every fused file must equal the unfused one byte for byte.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
function(run exe threads out)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env "TG_DUMP=${out}" "OMP_NUM_THREADS=${threads}"
                          OMP_WAIT_POLICY=passive "${exe}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(rc)
    message(FATAL_ERROR "${exe} (${threads} threads) failed (${rc}):\n${log}")
  endif()
  if(NOT EXISTS "${out}")
    file(WRITE "${out}" "")   # a driver that compares no array (open's errors): both empty
  endif()
endfunction()
run("${UNFUSED}" 2 "${DIR}/unfused.bin")
foreach(t 1 2 3)
  run("${FUSED}" ${t} "${DIR}/fused_${t}.bin")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${DIR}/unfused.bin"
                          "${DIR}/fused_${t}.bin" RESULT_VARIABLE diff)
  if(diff)
    message(FATAL_ERROR "fused (${t} threads) and unfused outputs differ: ${DIR}")
  endif()
endforeach()
file(SIZE "${DIR}/unfused.bin" bytes)
message(STATUS "fused (1, 2, 3 threads) == unfused, ${bytes} bytes of outputs")
