# cmake --install: what a firmware project needs to use pmukit without this source tree.
#   <prefix>/include/pmukit/{hal,profiler}/...      the headers (drivers, models, buses, profiler)
#   <prefix>/bin/pmukit                             the host tool, where this build made it
#   <prefix>/share/cmake/pmukit/pmukitConfig.cmake  find_package(pmukit): pmukit::hal,
#                                                   pmukit::profiler, pmukit::<pmu> per PMU, and
#                                                   under a cross toolchain pmukit::board::<board>
#                                                   and pmukit_add_firmware (PmukitBoards.cmake)
#   <prefix>/share/pmukit/src/examples/<dir>/board  the boards' sources, built in the user's project
#   <prefix>/share/pmukit/toolchains/               the presets' toolchain files
# The headers are target-independent: a host build's install serves every toolchain.
include(CMakePackageConfigHelpers)

set(PMUKIT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_DATADIR}/cmake/pmukit
    CACHE STRING "Where cmake --install puts pmukitConfig.cmake (relative to the prefix)")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/hal ${PROJECT_SOURCE_DIR}/profiler
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/pmukit
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h"
        PATTERN "tests" EXCLUDE)

get_property(_pmu_list GLOBAL PROPERTY PMU_LIST)
set(_pmu_targets pmukit_hal pmukit_profiler)
foreach(pmu IN LISTS _pmu_list)
  list(APPEND _pmu_targets pmukit_${pmu})
endforeach()
install(TARGETS ${_pmu_targets} EXPORT pmukitTargets)
install(EXPORT pmukitTargets NAMESPACE pmukit:: DESTINATION ${PMUKIT_INSTALL_CMAKEDIR})

# The boards: sources, not objects (the user's toolchain builds them), and the module that defines
# them (cmake/PmukitBoards.cmake), with the toolchain files that build for them.
file(GLOB _pmu_board_files RELATIVE ${PROJECT_SOURCE_DIR}/examples ${PROJECT_SOURCE_DIR}/examples/*/board/pmukit_board.cmake)
foreach(_f IN LISTS _pmu_board_files)
  string(REGEX REPLACE "/board/pmukit_board.cmake$" "" _dir ${_f})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/${_dir}/board
          DESTINATION ${CMAKE_INSTALL_DATADIR}/pmukit/src/examples/${_dir})
endforeach()
# arm_task_switch.h: the ARM boards' board/task_switch.S include it.
install(FILES ${PROJECT_SOURCE_DIR}/examples/common/console.hpp ${PROJECT_SOURCE_DIR}/examples/common/runtime.cpp
        ${PROJECT_SOURCE_DIR}/examples/common/arm_task_switch.h
        DESTINATION ${CMAKE_INSTALL_DATADIR}/pmukit/src/examples/common)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/common/libc DESTINATION ${CMAKE_INSTALL_DATADIR}/pmukit/src/examples/common)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/PmukitBoards.cmake DESTINATION ${PMUKIT_INSTALL_CMAKEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/cmake/toolchains DESTINATION ${CMAKE_INSTALL_DATADIR}/pmukit)

set(PMUKIT_PMUS ${_pmu_list})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/pmukitConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pmukitConfig.cmake
                              INSTALL_DESTINATION ${PMUKIT_INSTALL_CMAKEDIR})
# Header-only: one package serves every architecture (ARCH_INDEPENDENT). Until 1.0 a minor
# version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pmukitConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/pmukitConfig.cmake ${PROJECT_BINARY_DIR}/pmukitConfigVersion.cmake
        DESTINATION ${PMUKIT_INSTALL_CMAKEDIR})

if(TARGET pmukit_cli)
  install(TARGETS pmukit_cli pmukit_llvm_cfi pmukit_unwind_table RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
