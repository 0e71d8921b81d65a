# FPOInstall.cmake: install rules for FPO's targets, headers and CMake files, the FPOTargets
# export set (namespace FPO::) and the package's FPOConfig.cmake / FPOConfigVersion.cmake.
include_guard(GLOBAL)
include(CMakePackageConfigHelpers)

set(FPO_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/FPO" CACHE STRING
    "Where FPO's CMake package files are installed, relative to the prefix")
mark_as_advanced(FPO_INSTALL_CMAKEDIR)

# The generator is installed as FPO::fpo-gen (its target is defined in generator/).
install(TARGETS fpo-gen EXPORT FPOTargets RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

install(EXPORT FPOTargets NAMESPACE FPO:: FILE FPOTargets.cmake
        DESTINATION "${FPO_INSTALL_CMAKEDIR}")

# The Fortran front door's module fpo, compiled in each consumer by its own Fortran compiler.
set(FPO_INSTALL_FORTRANDIR "${CMAKE_INSTALL_DATADIR}/fpo/fortran")
install(FILES "${PROJECT_SOURCE_DIR}/runtime/fpo.f90" DESTINATION "${FPO_INSTALL_FORTRANDIR}")

# The config file asks for MPI only where halo/ was built and installed. Every path it names
# is relative to its own place (PACKAGE_INIT), so the installed tree may be moved.
set(FPO_WITH_HALO ${FPO_ENABLE_MPI})
configure_package_config_file("${CMAKE_CURRENT_LIST_DIR}/FPOConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/FPOConfig.cmake"
                              INSTALL_DESTINATION "${FPO_INSTALL_CMAKEDIR}"
                              PATH_VARS FPO_INSTALL_FORTRANDIR)
# find_package(FPO 1.0) takes any 1.x at or above 1.0 (SameMajorVersion).
write_basic_package_version_file("${PROJECT_BINARY_DIR}/FPOConfigVersion.cmake"
                                 VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMajorVersion)
install(FILES "${PROJECT_BINARY_DIR}/FPOConfig.cmake" "${PROJECT_BINARY_DIR}/FPOConfigVersion.cmake"
              "${CMAKE_CURRENT_LIST_DIR}/FPO.cmake"
        DESTINATION "${FPO_INSTALL_CMAKEDIR}")
