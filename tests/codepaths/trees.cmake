# trees.cmake: two build trees of one consumer project (tests/codepaths/trees), configured, then
# built at the same time with ninja -j 4 each: both builds succeed, each tree holds its own
# generated sources (the same text in both), their programs run, and installing one installs
# the manifests. Script mode; the arguments of external_project.cmake plus SOURCE and WORK.
include("${CMAKE_CURRENT_LIST_DIR}/../external_project.cmake")
file(REMOVE_RECURSE "${WORK}")
foreach(tree a b)
  ext_configure("${SOURCE}" "${WORK}/${tree}")
endforeach()
# Both builds at once, each with ninja -j 4, as two processes (sh runs one in the background).
set(both [=[
"$0" --build "$1" -j 4 > "$1.log" 2>&1 & pa=$!
"$0" --build "$2" -j 4 > "$2.log" 2>&1; rb=$?
wait $pa; echo "$?;$rb"
]=])
execute_process(COMMAND sh -c "${both}" "${CMAKE_COMMAND}" "${WORK}/a" "${WORK}/b"
                OUTPUT_VARIABLE rcs OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rcs STREQUAL "0;0")
  file(READ "${WORK}/a.log" la)
  file(READ "${WORK}/b.log" lb)
  message(FATAL_ERROR "building two trees at once: exit statuses '${rcs}'\n${la}\n${lb}")
endif()
foreach(tree a b)
  file(GLOB_RECURSE gen RELATIVE "${WORK}/${tree}" "${WORK}/${tree}/fpo/*")
  list(SORT gen)
  set(gen_${tree} "${gen}")
  ext_run("running ${tree}" out_${tree} "${WORK}/${tree}/trees_main")
endforeach()
if(NOT gen_a STREQUAL gen_b)
  message(FATAL_ERROR "the trees hold other generated files:\n${gen_a}\n${gen_b}")
endif()
list(FILTER gen_a INCLUDE REGEX "\\.c$")
list(LENGTH gen_a n)
foreach(f IN LISTS gen_a)
  file(READ "${WORK}/a/${f}" ta)
  file(READ "${WORK}/b/${f}" tb)
  if(NOT ta STREQUAL tb)
    message(FATAL_ERROR "${f} differs between the trees")
  endif()
endforeach()
if(NOT out_a STREQUAL out_b OR NOT out_a MATCHES "trees: plain all, west_only all")
  message(FATAL_ERROR "the programs of the trees say:\n${out_a}\n${out_b}")
endif()
ext_run("installing a" log "${CMAKE_COMMAND}" --install "${WORK}/a" --prefix "${WORK}/inst")
foreach(t trees_regions trees_west trees_plain)
  if(NOT EXISTS "${WORK}/inst/share/fpo/manifests/${t}.manifest.json")
    message(FATAL_ERROR "install did not install the manifest of ${t}")
  endif()
endforeach()
message(STATUS "two trees built at once: ${n} generated C sources each, identical; ${out_a}")
