# paths.cmake: fpo-gen on sources in folders with awkward names (cmake -P).
#   GEN, CC, RUNTIME: the generator, the C compiler, runtime/; WORK: a scratch folder;
#   SOURCES: .fpo files, '|'-separated; HALO, MPI_INC ('|'-separated): for programs with halo
#   statements. Each run either succeeds, and then every generated .c compiles with
#   -Wall -Wextra -Werror, no line of the output is a directive made of the name, the depfile
#   says the path in Make's escaping and the plan gives the path back; or it fails with exit 1
#   or 2, a message, and no file written.
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" sources "${SOURCES}")
string(REPLACE "|" ";" mpi_inc "${MPI_INC}")
set(includes "-I${RUNTIME}")
if(HALO)
  list(APPEND includes "-I${HALO}")
  foreach(dir IN LISTS mpi_inc)
    list(APPEND includes "-I${dir}")
  endforeach()
endif()

# Folder names (under WORK/<case>/): a newline and a directive, quotes, a "*/" (two folders)
# and a directive, a space, Make's and printf's and trigraphs' specials. (CMake's file()
# takes a backslash for a separator, so none is tried here.) Only a name with a line break
# may be refused: a depfile cannot hold one.
set(names "line\n#error injected by the path" "say \"hi\" there"
          "star*/#error after a star" "with space" "dollar $x \${y} $(z) %s%n ??/ #hash")
set(instrument --instrument nan --instrument timers --instrument bounds --instrument progress
               --instrument trace:1,1,1)

set(failures 0)
macro(fail msg)
  message(SEND_ERROR "${msg}")
  math(EXPR failures "${failures} + 1")
endmacro()

# Outputs a refused run must not leave.
function(check_nothing_written out depfile what)
  file(GLOB left "${out}/*")
  if(left OR EXISTS "${depfile}")
    message(SEND_ERROR "${what}: refused, but left files: ${left} ${depfile}")
  endif()
endfunction()

function(check_compiles out what)
  file(GLOB cfiles "${out}/*.c")
  file(GLOB hfiles "${out}/*.h")
  if(NOT cfiles)
    message(SEND_ERROR "${what}: no .c file generated")
  endif()
  foreach(f IN LISTS cfiles hfiles)
    file(STRINGS "${f}" directives REGEX "^[ \t]*#[ \t]*(error|warning)")
    if(directives)
      message(SEND_ERROR "${what}: ${f} holds a directive made of the path: ${directives}")
    endif()
  endforeach()
  foreach(f IN LISTS cfiles)
    execute_process(COMMAND "${CC}" -std=c11 -Wall -Wextra -Werror -fsyntax-only "-I${out}"
                            ${includes} "${f}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(rc)
      message(SEND_ERROR "${what}: ${f} does not compile:\n${log}")
    endif()
  endforeach()
endfunction()

set(ran 0)
set(refused 0)
set(k 0)
foreach(name IN LISTS names)
  foreach(src IN LISTS sources)
    math(EXPR k "${k} + 1")
    get_filename_component(base "${src}" NAME)
    set(dir "${WORK}/case${k}/${name}")
    file(REMOVE_RECURSE "${WORK}/case${k}")
    file(MAKE_DIRECTORY "${dir}")
    file(COPY_FILE "${src}" "${dir}/${base}")
    set(fpo "${dir}/${base}")
    string(REPLACE "\n" "\\n" what "${fpo}")
    set(out "${WORK}/out${k}")
    set(depfile "${WORK}/out${k}.d")
    file(REMOVE_RECURSE "${out}" "${depfile}")

    # Generation with a depfile (as the build runs it).
    execute_process(COMMAND "${GEN}" -o "${out}" --depfile "${depfile}" ${instrument} "${fpo}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE err)
    if(rc EQUAL 0)
      math(EXPR ran "${ran} + 1")
      check_compiles("${out}" "${what}")
      # The depfile names the source as Make escapes it ('$' doubled, space and '#' escaped).
      file(REAL_PATH "${fpo}" real)
      file(READ "${depfile}" dep)
      if(NOT real MATCHES "\\\\")
        string(REPLACE "$" "$$" want "${real}")
        string(REPLACE " " "\\ " want "${want}")
        string(REPLACE "#" "\\#" want "${want}")
        string(FIND "${dep}" "  ${want}\n" at)
        if(at LESS 0)
          fail("${what}: the depfile does not name the source as '${want}':\n${dep}")
        endif()
      endif()
    elseif((rc EQUAL 1 OR rc EQUAL 2) AND name MATCHES "\n")
      math(EXPR refused "${refused} + 1")
      if(NOT err MATCHES "error: ")
        fail("${what}: exit ${rc} without a message")
      endif()
      check_nothing_written("${out}" "${depfile}" "${what}")
      message(STATUS "refused (exit ${rc}): ${err}")
      # Without a depfile, the C alone: written and compiling, or refused too.
      execute_process(COMMAND "${GEN}" -o "${out}" ${instrument} "${fpo}"
                      RESULT_VARIABLE rc ERROR_VARIABLE err)
      if(rc EQUAL 0)
        check_compiles("${out}" "${what} (no depfile)")
      elseif(NOT (rc EQUAL 1 OR rc EQUAL 2) OR NOT err MATCHES "error: ")
        fail("${what}: without --depfile, exit ${rc}: ${err}")
      else()
        check_nothing_written("${out}" "${depfile}" "${what} (no depfile)")
      endif()
    else()
      fail("${what}: exit ${rc}: ${err}")
    endif()

    # The plan: CMake reads the path back as it is.
    set(plan "${WORK}/plan${k}.cmake")
    file(REMOVE "${plan}")
    execute_process(COMMAND "${GEN}" -o "${out}" --plan "${plan}" "${fpo}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(rc EQUAL 0)
      unset(FPO_PLAN_INPUTS)
      include("${plan}")
      file(REAL_PATH "${fpo}" real)
      if(NOT FPO_PLAN_INPUTS STREQUAL real)
        fail("${what}: the plan's inputs are '${FPO_PLAN_INPUTS}', not '${real}'")
      endif()
    elseif(NOT (rc EQUAL 1 OR rc EQUAL 2) OR NOT err MATCHES "error: " OR EXISTS "${plan}")
      fail("${what}: --plan: exit ${rc}: ${err}")
    endif()
  endforeach()
endforeach()

if(failures)
  message(FATAL_ERROR "paths: ${failures} failures")
endif()
message("paths: ${ran} runs generated C that compiles, ${refused} refused cleanly")
