# FPO.cmake: fpo_add_program(), which plans a program's outputs with fpo-gen at configure
# time and generates and compiles them at build time. Works in-tree and from an installed FPO.
include_guard(GLOBAL)
set(_FPO_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")
cmake_policy(PUSH)
cmake_policy(VERSION 3.20...3.25)   # CMP0116: Ninja rewrites DEPFILE paths for us

set(FPO_MODE "fused" CACHE STRING "fpo_add_program's default MODE: fused or unfused")
# Generated code is compiled for the machine that builds it (one installation per machine, as
# the C and CUDA sources are compiled once per installation); set FPO_ARCH_FLAGS to "" or to a
# portable -march for an installation that runs elsewhere.
if(NOT DEFINED FPO_ARCH_FLAGS)
  include(CheckCCompilerFlag)
  check_c_compiler_flag(-march=native _fpo_has_march_native)
  if(_fpo_has_march_native)
    set(_fpo_arch "-march=native")
  else()
    set(_fpo_arch "")
  endif()
  set(FPO_ARCH_FLAGS "${_fpo_arch}" CACHE STRING
      "Compiler flags for the generated code's target machine (default -march=native)")
endif()
option(FPO_WERROR_GENERATED
       "Compile generated programs with -Wall -Wextra -Warray-bounds=2 -Werror (CI)" OFF)
set(FPO_INSTRUMENT "" CACHE STRING
    "fpo_add_program's default INSTRUMENT list (nan;negative:FIELD;trace:I,J,K;progress;timers;bounds)")

# In-tree, the generator is a target of this build; it also gets the FPO:: name, and its path
# is written out so a bootstrap build of this project (below) can tell where it put it.
if(TARGET fpo-gen AND NOT TARGET FPO::fpo-gen)
  add_executable(FPO::fpo-gen ALIAS fpo-gen)
  file(GENERATE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/fpo-gen-location.txt"
       CONTENT "$<TARGET_FILE:fpo-gen>")
  set_property(GLOBAL PROPERTY _FPO_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/..")
  set_property(GLOBAL PROPERTY _FPO_BINARY_DIR "${CMAKE_CURRENT_BINARY_DIR}")
endif()

# Set `out` to a generator that can run now, at configure time. Installed, that is the imported
# FPO::fpo-gen. In-tree, the fpo-gen target is not built yet, so FPO's own sources are built
# once into _fpo_bootstrap (generator only) and kept up to date on each configure.
function(_fpo_plan_generator out)
  if(NOT TARGET FPO::fpo-gen)
    message(FATAL_ERROR "FPO: no fpo-gen: use find_package(FPO) or add FPO with add_subdirectory")
  endif()
  get_target_property(imported FPO::fpo-gen IMPORTED)
  if(imported)
    get_target_property(exe FPO::fpo-gen LOCATION)
    set(${out} "${exe}" PARENT_SCOPE)
    return()
  endif()
  get_property(exe GLOBAL PROPERTY _FPO_BOOTSTRAP_GENERATOR)
  if(exe)
    set(${out} "${exe}" PARENT_SCOPE)
    return()
  endif()
  get_property(source_dir GLOBAL PROPERTY _FPO_SOURCE_DIR)
  get_property(binary_dir GLOBAL PROPERTY _FPO_BINARY_DIR)
  set(dir "${binary_dir}/_fpo_bootstrap")
  if(NOT EXISTS "${dir}/CMakeCache.txt")
    message(STATUS "FPO: bootstrapping fpo-gen in ${dir}")
    execute_process(
      COMMAND "${CMAKE_COMMAND}" -S "${source_dir}" -B "${dir}" -G "${CMAKE_GENERATOR}"
              "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}" "-DCMAKE_C_COMPILER=${CMAKE_C_COMPILER}"
              -DCMAKE_BUILD_TYPE=Release -DFPO_BUILD_TESTS=OFF -DFPO_BUILD_EXAMPLE=OFF
              -DFPO_ENABLE_MPI=OFF
      RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(rc)
      file(REMOVE "${dir}/CMakeCache.txt")
      message(FATAL_ERROR "FPO: configuring the bootstrap fpo-gen failed:\n${log}")
    endif()
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${dir}" --target fpo-gen
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(rc)
    message(FATAL_ERROR "FPO: building the bootstrap fpo-gen failed:\n${log}")
  endif()
  file(READ "${dir}/fpo-gen-location.txt" exe)
  set_property(GLOBAL PROPERTY _FPO_BOOTSTRAP_GENERATOR "${exe}")
  set(${out} "${exe}" PARENT_SCOPE)
endfunction()

# The GPU architectures of a program's kernels, in `var`: empty where the project chose them
# (CMAKE_CUDA_ARCHITECTURES from a -D, a preset, the CUDAARCHS environment variable or a set()
# before enable_language), "80;90" (A100; H100, H200, as FPO's own build) where CMake took the
# compiler's default (75 for CUDA 12 and 13: kernels the driver would compile again, at every
# process's first launch, on those devices). CMake writes both the default and CUDAARCHS into
# the cache with one help string, and CUDAARCHS is read at the first configure only, so the
# value CMake chose is remembered then (empty where the project chose): the same value later is
# still CMake's, another one the project's.
function(_fpo_cuda_architectures var)
  if(NOT DEFINED CACHE{_FPO_CUDA_ARCHS_CMAKE})
    get_property(help CACHE CMAKE_CUDA_ARCHITECTURES PROPERTY HELPSTRING)
    set(chosen_by_cmake "")
    if(help STREQUAL "CUDA architectures" AND "$ENV{CUDAARCHS}" STREQUAL "")
      set(chosen_by_cmake "${CMAKE_CUDA_ARCHITECTURES}")
    endif()
    set(_FPO_CUDA_ARCHS_CMAKE "${chosen_by_cmake}" CACHE INTERNAL
        "CMAKE_CUDA_ARCHITECTURES as CMake chose it (fpo_add_program gives its kernels 80;90)")
  endif()
  set(${var} "" PARENT_SCOPE)
  if(NOT CMAKE_CUDA_ARCHITECTURES OR
     (_FPO_CUDA_ARCHS_CMAKE AND CMAKE_CUDA_ARCHITECTURES STREQUAL _FPO_CUDA_ARCHS_CMAKE))
    set(${var} "80;90" PARENT_SCOPE)
  endif()
endfunction()

#[=======================================================================[
fpo_add_program(<name> SOURCES <file.fpo>... [PROGRAM <program>] [DEFINES <NAME=VALUE>...]
                [BACKENDS c [cuda]] [CUDA_EMULATION] [CUDA_NESTS <n>] [CUDA_LEVELS <n>] [CUDA_THREADS <n>] [CUDA_UNROLL <n>] [CUDA_ROWS <n>] [CUDA_SHARED <KiB>] [CUDA_SLACK <n>] [CUDA_FED ON|OFF] [CUDA_BLOCKS <n>] [CUDA_AHEAD <n>] [CUDA_RING ON|OFF] [CUDA_PREFETCH <n>] [CUDA_LDG ON|OFF] [CUDA_WALK_ROWS <n>] [CUDA_WALK_BLOCKS <n>] [CUDA_CHUNKS <n>] [CUDA_RIM off|nests|all] [LAYOUTS <NxM | any>...] [HALO <depth>] [OUTPUT_DIR <dir>] [MODE fused|unfused]
                [DISABLE_PASSES <pass>...] [ENABLE_PASSES <pass>...] [INSTRUMENT <check>...]
                [FORTRAN] [PYTHON] [PYTHON_DESTINATION <dir>])

Creates the static library target <name> from the program <program> (default: the only
program in the sources) of the .fpo files SOURCES, with the generated header on its include
path; with FORTRAN also <name>_fortran (module <program>_fpo), with PYTHON also <name>_python
(lib<program>.so beside the module <program>.py). See docs/cmake.md and docs/frontdoors.md.
#]=======================================================================]
function(fpo_add_program name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "CUDA_EMULATION;FORTRAN;PYTHON"
                        "PROGRAM;OUTPUT_DIR;MODE;HALO;CUDA_NESTS;CUDA_LEVELS;CUDA_THREADS;CUDA_UNROLL;CUDA_ROWS;CUDA_SHARED;CUDA_SLACK;CUDA_FED;CUDA_BLOCKS;CUDA_AHEAD;CUDA_RING;CUDA_PREFETCH;CUDA_LDG;CUDA_WALK_ROWS;CUDA_WALK_BLOCKS;CUDA_CHUNKS;CUDA_RIM;PYTHON_DESTINATION"
                        "SOURCES;DEFINES;BACKENDS;LAYOUTS;DISABLE_PASSES;ENABLE_PASSES;INSTRUMENT")
  set(where "fpo_add_program(${name})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${where}: SOURCES is required (the .fpo files)")
  endif()
  if(NOT arg_BACKENDS)
    set(arg_BACKENDS c)
  endif()
  set(cuda OFF)
  foreach(backend IN LISTS arg_BACKENDS)
    if(backend STREQUAL "cuda")
      set(cuda ON)
    elseif(NOT backend STREQUAL "c")
      message(FATAL_ERROR "${where}: unknown back end '${backend}' (known: c, cuda)")
    endif()
  endforeach()
  # CUDA sources are compiled by the project's CUDA language, or, with CUDA_EMULATION, as C
  # whose kernels run as loops on the host (to check them without a GPU; runs are slow).
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(cuda AND NOT arg_CUDA_EMULATION AND NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "${where}: BACKENDS cuda needs the CUDA language: "
                        "project(... LANGUAGES C CUDA) or enable_language(CUDA), and a CUDA "
                        "compiler (FPO's own build: FPO_ENABLE_CUDA=ON); or add CUDA_EMULATION")
  endif()
  if(cuda AND NOT arg_CUDA_EMULATION AND NOT TARGET FPO::runtime_cuda)
    message(FATAL_ERROR "${where}: BACKENDS cuda: this FPO was built without its CUDA runtime "
                        "(FPO_ENABLE_CUDA=OFF)")
  endif()
  if(NOT arg_OUTPUT_DIR)
    set(arg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/fpo/${name}")
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
             NORMALIZE OUTPUT_VARIABLE outdir)

  set(sources "")
  foreach(src IN LISTS arg_SOURCES)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    if(NOT EXISTS "${src}")
      message(FATAL_ERROR "${where}: source ${src} does not exist")
    endif()
    list(APPEND sources "${src}")
  endforeach()

  # The arguments the plan and the build share; each define is one argument, spaces and all.
  set(args -o "${outdir}")
  if(arg_PROGRAM)
    list(APPEND args -p "${arg_PROGRAM}")
  endif()
  foreach(def IN LISTS arg_DEFINES)
    if(NOT def MATCHES "^[A-Za-z_][A-Za-z0-9_]*=")
      message(FATAL_ERROR "${where}: DEFINES entry '${def}' is not NAME=VALUE")
    endif()
    list(APPEND args -D "${def}")
  endforeach()
  foreach(backend IN LISTS arg_BACKENDS)
    list(APPEND args --backend "${backend}")
  endforeach()
  if(arg_FORTRAN)
    if(NOT "Fortran" IN_LIST languages)
      message(FATAL_ERROR "${where}: FORTRAN needs the Fortran language: "
                          "project(... LANGUAGES C Fortran) or enable_language(Fortran)")
    endif()
    list(APPEND args --frontdoor fortran)
  endif()
  if(arg_PYTHON)
    list(APPEND args --frontdoor python)
  endif()
  # Variants: one per edge class the layouts need (default 1x1 and every n x m >= 2).
  if(arg_LAYOUTS)
    foreach(layout IN LISTS arg_LAYOUTS)
      if(NOT layout MATCHES "^([1-9][0-9]*x[1-9][0-9]*|any)$")
        message(FATAL_ERROR "${where}: LAYOUTS entry '${layout}' is not NxM (e.g. 3x3) or any")
      endif()
    endforeach()
    string(JOIN "," layouts ${arg_LAYOUTS})
    list(APPEND args --layouts "${layouts}")
  endif()
  # The CUDA kernels' shape (docs/cuda.md); fpo-gen checks the values.
  foreach(shape NESTS LEVELS THREADS UNROLL ROWS SHARED SLACK FED BLOCKS AHEAD RING PREFETCH LDG
                WALK_ROWS WALK_BLOCKS CHUNKS RIM)
    if(NOT "${arg_CUDA_${shape}}" STREQUAL "")   # (FED's OFF too)
      string(TOLOWER "${shape}" opt)
      string(REPLACE "_" "-" opt "${opt}")
      list(APPEND args --cuda-${opt} "${arg_CUDA_${shape}}")
    endif()
  endforeach()
  if(arg_HALO)
    if(NOT arg_HALO MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "${where}: HALO '${arg_HALO}' is not a depth (1, 2, ...)")
    endif()
    list(APPEND args --halo "${arg_HALO}")
  endif()
  # The optimizer: fused (default, or the cache variable FPO_MODE) or the unfused reference.
  if(NOT arg_MODE)
    set(arg_MODE "${FPO_MODE}")
  endif()
  if(NOT arg_MODE)
    set(arg_MODE fused)
  endif()
  if(NOT arg_MODE MATCHES "^(fused|unfused)$")
    message(FATAL_ERROR "${where}: MODE '${arg_MODE}' is not fused or unfused")
  endif()
  list(APPEND args --mode ${arg_MODE})
  foreach(pass IN LISTS arg_DISABLE_PASSES)
    list(APPEND args --disable-pass "${pass}")
  endforeach()
  foreach(pass IN LISTS arg_ENABLE_PASSES)
    list(APPEND args --enable-pass "${pass}")
  endforeach()
  if(NOT DEFINED arg_INSTRUMENT)
    set(arg_INSTRUMENT ${FPO_INSTRUMENT})
  endif()
  foreach(check IN LISTS arg_INSTRUMENT)
    list(APPEND args --instrument "${check}")
  endforeach()

  # Source paths in the generated code relative to the top source and build directories (the
  # build's map last: it wins where the build is inside the sources), so that checkouts at
  # different paths generate the same bytes; FPO_PREFIX_MAP (OLD=NEW...) replaces these maps.
  if(DEFINED FPO_PREFIX_MAP)
    set(maps ${FPO_PREFIX_MAP})
  else()
    file(REAL_PATH "${CMAKE_SOURCE_DIR}" top_src)
    file(REAL_PATH "${CMAKE_BINARY_DIR}" top_bin)
    set(maps "${top_src}/=" "${top_bin}/=")
  endif()
  foreach(map IN LISTS maps)
    list(APPEND args --prefix-map "${map}")
  endforeach()

  # Configure time: ask the generator what it will write and which files it reads.
  _fpo_plan_generator(plan_gen)
  set(plan "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.fpo-plan.cmake")
  file(MAKE_DIRECTORY "${outdir}")
  execute_process(COMMAND "${plan_gen}" ${args} --plan "${plan}" ${sources}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(rc)
    # Indented lines are printed as they are, so the caret stays under the mistake.
    string(STRIP "${log}" log)
    string(REPLACE "\n" "\n  " log "  ${log}")
    message(FATAL_ERROR "${where}: fpo-gen failed:\n${log}\n")
  endif()
  _fpo_read_plan("${plan}" outputs inputs report uses_halo program)
  message(STATUS "${report} (target ${name}, ${arg_MODE})")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${sources} ${inputs})

  # Build time: generate with the real generator target, so a rebuilt generator regenerates;
  # the depfile adds every imported file as a dependency.
  get_target_property(gen FPO::fpo-gen ALIASED_TARGET)
  if(NOT gen)
    set(gen FPO::fpo-gen)
  endif()
  set(depfile "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.fpo.d")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${gen} ${args} --report --depfile "${depfile}" ${sources}
    DEPENDS ${gen} ${sources}
    DEPFILE "${depfile}"
    COMMENT "fpo-gen: generating program ${name}"
    VERBATIM)

  set(sources_c ${outputs})
  list(FILTER sources_c INCLUDE REGEX "\\.c$")
  set(sources_cu ${outputs})
  list(FILTER sources_cu INCLUDE REGEX "\\.cu$")
  if(arg_CUDA_EMULATION)
    # each .cu through a C file that defines FPO_CUDA_EMULATE first (fpo_cuda_kernels.h)
    foreach(cu IN LISTS sources_cu)
      cmake_path(GET cu FILENAME base)
      set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.emu/${base}.c")
      file(CONFIGURE OUTPUT "${wrapper}" CONTENT
           "/* ${base} emulated on the host: kernels run as loops (fpo_cuda_kernels.h). */\n#define FPO_CUDA_EMULATE 1\n#include \"${cu}\"\n")
      set_source_files_properties("${wrapper}" PROPERTIES OBJECT_DEPENDS "${cu}")
      list(APPEND sources_c "${wrapper}")
    endforeach()
    set(sources_cu "")
  endif()
  set(sources_f90 ${outputs})
  list(FILTER sources_f90 INCLUDE REGEX "\\.f90$")
  add_library(${name} STATIC ${sources_c} ${sources_cu})
  # Headers and manifest are outputs too: listed, so the build knows what makes them (emulated,
  # the .cu sources are not: a directory without the CUDA language could not archive them; the
  # wrappers' OBJECT_DEPENDS name them).
  set(listed ${outputs})
  list(FILTER listed EXCLUDE REGEX "\\.f90$")   # compiled by <name>_fortran
  if(arg_CUDA_EMULATION)
    list(FILTER listed EXCLUDE REGEX "\\.cu$")
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  endif()
  target_sources(${name} PRIVATE ${listed})
  if(cuda AND arg_CUDA_EMULATION)
    target_link_libraries(${name} PUBLIC FPO::runtime_cuda_emu)
  elseif(cuda)
    target_link_libraries(${name} PUBLIC FPO::runtime_cuda)
    # IEEE arithmetic as on the C back end: no contraction into fused multiply-adds (the
    # division and square root are IEEE by default); the host side without C++ exceptions.
    # Warning 550 (set but not used) is nvcc's alone and ignores (void) casts: the C
    # compiler's -Wall checks the same statements in the C sources.
    target_compile_options(${name} PRIVATE
      "$<$<COMPILE_LANGUAGE:CUDA>:--fmad=false;-diag-suppress=550;-Xcompiler=-fno-exceptions,-fno-threadsafe-statics>")
    _fpo_cuda_architectures(archs)
    if(archs)
      set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${archs}")
    endif()
  endif()
  set(manifest "${outdir}/${program}.manifest.json")
  set_target_properties(${name} PROPERTIES FPO_MANIFEST "${manifest}")
  target_include_directories(${name} PUBLIC "${outdir}")
  target_link_libraries(${name} PUBLIC FPO::runtime)
  if(uses_halo)
    if(NOT TARGET FPO::halo)
      message(FATAL_ERROR "${where}: the program has halo statements, which run through "
                          "FPO::halo; this FPO was built without MPI (FPO_ENABLE_MPI=OFF)")
    endif()
    target_link_libraries(${name} PUBLIC FPO::halo)
  endif()
  # The manifest is installed with the consumer's install (not for FPO's own tests).
  if(NOT CMAKE_PROJECT_NAME STREQUAL "FPO")
    include(GNUInstallDirs)
    install(FILES "${manifest}" DESTINATION "${CMAKE_INSTALL_DATADIR}/fpo/manifests"
            RENAME "${name}.manifest.json")
  endif()
  # No floating-point contraction (a * b + c fused into one rounding): fused and unfused
  # forms then give the same bits, whatever loops the compiler vectorizes.
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:C>:-ffp-contract=off>)
  endif()
  # GCC's loop splitting (-fsplit-loops, part of -O3) splits loops again at conditions on the
  # loop index, as in the points the generated code runs one at a time (the edge columns it
  # has already split off): the example model's all-edges variant compiled in 47 s with it and
  # 19 s without, with the same bits and time per step (docs/measurements.md).
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:C>:-fno-split-loops>)
  endif()
  # The target holds the generated sources only: with FPO_WERROR_GENERATED, any warning in
  # generated code stops the build (-Warray-bounds=2 is GCC's, and needs the optimizer).
  if(FPO_WERROR_GENERATED)
    if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${name} PRIVATE
                             "$<$<COMPILE_LANGUAGE:C>:-Wall;-Wextra;-Warray-bounds=2;-Werror>")
    elseif(CMAKE_C_COMPILER_ID MATCHES "Clang")
      target_compile_options(${name} PRIVATE
                             "$<$<COMPILE_LANGUAGE:C>:-Wall;-Wextra;-Warray-bounds;-Werror>")
    endif()
  endif()
  if(FPO_ARCH_FLAGS)
    separate_arguments(_fpo_arch_list UNIX_COMMAND "${FPO_ARCH_FLAGS}")
    target_compile_options(${name} PRIVATE "$<$<COMPILE_LANGUAGE:C>:${_fpo_arch_list}>")
  endif()
  find_package(OpenMP QUIET COMPONENTS C)
  if(OpenMP_C_FOUND)
    target_link_libraries(${name} PUBLIC OpenMP::OpenMP_C)
  endif()
  find_library(FPO_LIBM m)
  mark_as_advanced(FPO_LIBM)
  if(FPO_LIBM)
    target_link_libraries(${name} PUBLIC "${FPO_LIBM}")
  endif()
  if(arg_FORTRAN)
    _fpo_fortran_target(${name} "${sources_f90}" "${outdir}")
  endif()
  if(arg_PYTHON)
    _fpo_python_target(${name} ${program} "${outdir}" "${arg_PYTHON_DESTINATION}")
  endif()
endfunction()

# <name>_fortran: the program's module <program>_fpo (compiled by the project's Fortran, its
# .mod in <outdir>/fortran), on module fpo (runtime/fpo.f90: the project's target fpo_fortran,
# made once).
function(_fpo_fortran_target name source outdir)
  if(NOT TARGET fpo_fortran)
    if(NOT FPO_FORTRAN_SOURCE)
      set(FPO_FORTRAN_SOURCE "${_FPO_CMAKE_DIR}/../runtime/fpo.f90")   # in-tree
    endif()
    add_library(fpo_fortran STATIC "${FPO_FORTRAN_SOURCE}")
    set_target_properties(fpo_fortran PROPERTIES
                          Fortran_MODULE_DIRECTORY "${CMAKE_BINARY_DIR}/fpo_fortran")
    target_include_directories(fpo_fortran PUBLIC "${CMAKE_BINARY_DIR}/fpo_fortran")
  endif()
  add_library(${name}_fortran STATIC "${source}")
  set_target_properties(${name}_fortran PROPERTIES Fortran_MODULE_DIRECTORY "${outdir}/fortran")
  target_include_directories(${name}_fortran PUBLIC "${outdir}/fortran")
  target_link_libraries(${name}_fortran PUBLIC fpo_fortran ${name})
endfunction()

# <name>_python: lib<program>.so in <outdir>, beside the module <program>.py: the whole static
# library, so ctypes finds every function (its objects, FPO's and halo/'s, are PIC). Installed
# (outside FPO's own build) to `destination`, default <libdir>/fpo/python.
function(_fpo_python_target name program outdir destination)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set(unit "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.python.c")
  file(CONFIGURE OUTPUT "${unit}" CONTENT
       "/* lib${program}.so: program ${program} for its Python module ${program}.py. */\nextern int fpo_python_unit_;\n")
  add_library(${name}_python SHARED "${unit}")
  target_link_libraries(${name}_python PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,${name}>")
  set_target_properties(${name}_python PROPERTIES OUTPUT_NAME "${program}" PREFIX "lib"
                        SUFFIX ".so" LIBRARY_OUTPUT_DIRECTORY "${outdir}")
  if(NOT CMAKE_PROJECT_NAME STREQUAL "FPO")
    if(NOT destination)
      include(GNUInstallDirs)
      set(destination "${CMAKE_INSTALL_LIBDIR}/fpo/python")
    endif()
    install(TARGETS ${name}_python LIBRARY DESTINATION "${destination}")
    install(FILES "${outdir}/${program}.py" DESTINATION "${destination}")
  endif()
endfunction()

# Read the plan fpo-gen wrote: the files it will write (`outputs`) and read (`inputs`).
function(_fpo_read_plan plan outputs inputs report uses_halo program)
  include("${plan}")
  set(${report} "${FPO_PLAN_REPORT}" PARENT_SCOPE)
  set(${uses_halo} "${FPO_PLAN_HALO}" PARENT_SCOPE)
  set(${program} "${FPO_PLAN_PROGRAM}" PARENT_SCOPE)
  if(NOT FPO_PLAN_OUTPUTS)
    message(FATAL_ERROR "fpo-gen wrote no outputs in its plan ${plan}")
  endif()
  set(${outputs} "${FPO_PLAN_OUTPUTS}" PARENT_SCOPE)
  set(${inputs} "${FPO_PLAN_INPUTS}" PARENT_SCOPE)
endfunction()

cmake_policy(POP)
