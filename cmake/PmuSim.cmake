# pmusim (tools/sim/): firmware on Unicorn with the project's PMU models attached. A host program,
# so a cross preset builds it with the host compiler (the models are header-only) and its firmware
# tests run the target's images under it.
#
#   pmu_add_sim_test(<test> FIRMWARE <name> PASS <regex> [FAIL <regex>] [STDERR <regex>] [EXPECT_EXIT <n>])
#       runs <name>.elf under pmusim (60 s limit); judged like pmu_add_qemu_test, and STDERR must
#       match pmusim's own messages where given. Not registered,
#       with a note, where Unicorn's header or a host compiler is missing.
find_path(PMU_UNICORN_INCLUDE unicorn/unicorn.h PATHS /usr/include NO_CMAKE_FIND_ROOT_PATH)
# Every machine's source in tools/sim/ (run.cpp picks the machine from the ELF), no list to keep.
file(GLOB PMU_SIM_LIB_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/sim/*.cpp)
list(REMOVE_ITEM PMU_SIM_LIB_SOURCES ${PROJECT_SOURCE_DIR}/tools/sim/pmusim.cpp)
list(SORT PMU_SIM_LIB_SOURCES)
set(PMU_SIM_SOURCES ${PROJECT_SOURCE_DIR}/tools/sim/pmusim.cpp ${PMU_SIM_LIB_SOURCES})

# A cross preset can run a pmusim built elsewhere from the same tree instead of compiling its own:
# scripts/test.sh passes the host preset's through the environment, once for all presets.
set(PMU_SIM_EXECUTABLE "$ENV{PMUKIT_PMUSIM}" CACHE FILEPATH
    "pmusim for a cross preset's firmware tests (empty: build one with the host compiler)")

# A cross target without a pmusim machine (SIM none, cmake/targets.cmake) has nothing to run there.
set(_pmu_sim_machine "")
if(CMAKE_CROSSCOMPILING AND PMU_THIS_TARGET)
  pmu_target_get(${PMU_THIS_TARGET} SIM _pmu_sim_machine)
endif()
if(_pmu_sim_machine STREQUAL "none")
  message(STATUS "pmusim: target ${PMU_THIS_TARGET} has no pmusim machine, pmusim not built here")
elseif(PMU_UNICORN_INCLUDE AND NOT CMAKE_CROSSCOMPILING)
  add_executable(pmusim ${PMU_SIM_SOURCES})
  target_link_libraries(pmusim PRIVATE pmukit unicorn pmu_warnings)
  set(PMU_SIM $<TARGET_FILE:pmusim>)
elseif(PMU_UNICORN_INCLUDE AND PMU_SIM_EXECUTABLE AND EXISTS "${PMU_SIM_EXECUTABLE}")
  set(PMU_SIM ${PMU_SIM_EXECUTABLE})
elseif(PMU_UNICORN_INCLUDE)
  find_program(PMU_HOST_CXX NAMES g++ c++ NO_CMAKE_FIND_ROOT_PATH)
  if(PMU_HOST_CXX)
    file(GLOB_RECURSE _sim_deps CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tools/sim/*.hpp
         ${PROJECT_SOURCE_DIR}/hal/*.hpp)
    set(PMU_SIM ${CMAKE_BINARY_DIR}/pmusim)
    add_custom_command(OUTPUT ${PMU_SIM}
      COMMAND ${PMU_HOST_CXX} -std=c++20 -O2 -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}
              ${PMU_SIM_SOURCES} -lunicorn -o ${PMU_SIM}
      DEPENDS ${PMU_SIM_SOURCES} ${_sim_deps}
      COMMENT "pmusim with the host compiler" VERBATIM)
    add_custom_target(pmusim_host ALL DEPENDS ${PMU_SIM})
  endif()
endif()

function(pmu_add_sim_test test)
  cmake_parse_arguments(T "" "FIRMWARE;PASS;FAIL;STDERR;EXPECT_EXIT" "" ${ARGN})
  if(NOT PMU_SIM OR NOT PMU_TIMEOUT)
    message(STATUS "pmusim: Unicorn, a host compiler or timeout not found, test ${test} not registered")
    return()
  endif()
  if(NOT DEFINED T_EXPECT_EXIT)
    set(T_EXPECT_EXIT 0)
  endif()
  set(fail)
  if(DEFINED T_FAIL)
    set(fail FAIL "${T_FAIL}")
  endif()
  pmu_firmware_test(${test} RUNNER ${PMU_SIM} FIRMWARE ${T_FIRMWARE} PASS "${T_PASS}" ${fail} STDERR "${T_STDERR}"
    EXPECT_EXIT "${T_EXPECT_EXIT}" LABELS pmusim)
endfunction()
