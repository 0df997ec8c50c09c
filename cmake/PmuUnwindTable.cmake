# Firmware whose stacks are walked on the target with an unwind table (profiler/unwind_table.hpp):
#
#   pmu_add_firmware_with_unwind_table(<name> BOARD <board> SOURCES <files>...)
#       <name>.elf as pmu_add_firmware makes it, linked twice: first with an empty table
#       (<name>_no_unwind_table.elf), whose call frame information pmukit-unwind-table turns into
#       the table (<name>.unwind.S), then with it. The board's linker script puts the table's
#       section (.pmukit_unwind) after the code and read-only data, so no code moves; the tool
#       checks that on <name>.elf after the second link (the same table from it, or the build fails).
#
#   pmu_add_unwind_report_test(<test> RUN <run test> FIRMWARE <name>)
#       <test>: `pmukit report` on the dump <run test>'s console log holds (the example writes one),
#       --format folded, checked frame by frame (scripts/check_unwind_report.py). The host tool:
#       the host build's pmukit_cli, else $PMUKIT_CLI, else the host preset's build/host/tools/pmukit
#       (skipped where there is none).
#
# The tool: the host build's pmukit_unwind_table target; in a cross build $PMUKIT_UNWIND_TABLE
# (a host preset's build/host/tools/pmukit-unwind-table), else one built with the host compiler
# beside its helper pmukit-llvm-cfi (LLVM 14's DWARF library reads the CFI).
set(PMU_UNWIND_TABLE_EXECUTABLE "$ENV{PMUKIT_UNWIND_TABLE}" CACHE FILEPATH
    "pmukit-unwind-table for a cross preset's firmware (empty: build one with the host compiler)")

if(TARGET pmukit_unwind_table)
  set(PMU_UNWIND_TABLE $<TARGET_FILE:pmukit_unwind_table>)
  set(PMU_UNWIND_TABLE_DEPENDS pmukit_unwind_table)
elseif(PMU_UNWIND_TABLE_EXECUTABLE AND EXISTS "${PMU_UNWIND_TABLE_EXECUTABLE}")
  set(PMU_UNWIND_TABLE ${PMU_UNWIND_TABLE_EXECUTABLE})
  set(PMU_UNWIND_TABLE_DEPENDS ${PMU_UNWIND_TABLE_EXECUTABLE})
else()
  find_program(PMU_UNWIND_HOST_CXX NAMES g++ c++ NO_CMAKE_FIND_ROOT_PATH)
  find_program(PMU_LLVM_CONFIG NAMES llvm-config-14 llvm-config NO_CMAKE_FIND_ROOT_PATH)
  if(PMU_UNWIND_HOST_CXX AND PMU_LLVM_CONFIG)
    execute_process(COMMAND ${PMU_LLVM_CONFIG} --includedir OUTPUT_VARIABLE _llvm_inc OUTPUT_STRIP_TRAILING_WHITESPACE)
    execute_process(COMMAND ${PMU_LLVM_CONFIG} --libdir OUTPUT_VARIABLE _llvm_lib OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(_src ${PROJECT_SOURCE_DIR}/tools)
    set(PMU_UNWIND_TABLE ${CMAKE_BINARY_DIR}/unwind_table_tool/pmukit-unwind-table)
    set(_cfi ${CMAKE_BINARY_DIR}/unwind_table_tool/pmukit-llvm-cfi)
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/unwind_table_tool)
    add_custom_command(OUTPUT ${_cfi}
      COMMAND ${PMU_UNWIND_HOST_CXX} -std=c++20 -O2 -I${PROJECT_SOURCE_DIR} -isystem ${_llvm_inc}
              ${_src}/elf/llvm_cfi_main.cpp -L${_llvm_lib} -Wl,-rpath,${_llvm_lib} -lLLVM-14 -o ${_cfi}
      DEPENDS ${_src}/elf/llvm_cfi_main.cpp ${_src}/elf/unwind_llvm.hpp
      COMMENT "pmukit-llvm-cfi with the host compiler" VERBATIM)
    set(_tool_sources ${_src}/elf/unwind_table_main.cpp ${_src}/elf/unwind_table.cpp ${_src}/elf/unwind_llvm.cpp
        ${_src}/report/run_program.cpp)
    add_custom_command(OUTPUT ${PMU_UNWIND_TABLE}
      COMMAND ${PMU_UNWIND_HOST_CXX} -std=c++20 -O2 -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR} ${_tool_sources}
              -o ${PMU_UNWIND_TABLE}
      DEPENDS ${_tool_sources} ${_cfi} ${PROJECT_SOURCE_DIR}/profiler/unwind_table.hpp
              ${_src}/elf/unwind_table.hpp ${_src}/elf/unwind_llvm.hpp
      COMMENT "pmukit-unwind-table with the host compiler" VERBATIM)
    add_custom_target(pmukit_unwind_table_host DEPENDS ${PMU_UNWIND_TABLE} ${_cfi})
    set(PMU_UNWIND_TABLE_DEPENDS pmukit_unwind_table_host ${PMU_UNWIND_TABLE})
  endif()
endif()

function(pmu_add_firmware_with_unwind_table name)
  cmake_parse_arguments(F "" "BOARD" "SOURCES" ${ARGN})
  if(NOT PMU_UNWIND_TABLE)
    message(STATUS "${name}: no host compiler or llvm-config for pmukit-unwind-table, not built")
    return()
  endif()
  get_property(lib GLOBAL PROPERTY PMU_BOARD_${F_BOARD}_LIBRARY)
  # The sources compiled once, linked twice.
  add_library(${name}_objects OBJECT ${F_SOURCES})
  target_link_libraries(${name}_objects PRIVATE ${lib} pmu_warnings)
  set(dir ${CMAKE_CURRENT_BINARY_DIR})
  add_custom_command(OUTPUT ${dir}/${name}.empty_unwind.S
    COMMAND ${PMU_UNWIND_TABLE} --empty ${dir}/${name}.empty_unwind.S
    DEPENDS ${PMU_UNWIND_TABLE_DEPENDS} VERBATIM)
  pmu_add_firmware(${name}_no_unwind_table BOARD ${F_BOARD}
    SOURCES $<TARGET_OBJECTS:${name}_objects> ${dir}/${name}.empty_unwind.S)
  add_custom_command(OUTPUT ${dir}/${name}.unwind.S
    COMMAND ${PMU_UNWIND_TABLE} $<TARGET_FILE:${name}_no_unwind_table> ${dir}/${name}.unwind.S
    DEPENDS ${name}_no_unwind_table ${PMU_UNWIND_TABLE_DEPENDS} VERBATIM)
  pmu_add_firmware(${name} BOARD ${F_BOARD} SOURCES $<TARGET_OBJECTS:${name}_objects> ${dir}/${name}.unwind.S)
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND ${PMU_UNWIND_TABLE} --check $<TARGET_FILE:${name}> ${dir}/${name}.unwind.S VERBATIM)
endfunction()

set(PMU_PMUKIT_EXECUTABLE "$ENV{PMUKIT_CLI}" CACHE FILEPATH
    "pmukit for a cross preset's report tests (empty: the host preset's build/host/tools/pmukit)")

# pmu_host_pmukit(<var>): the host tool a firmware test runs on its output: this build's own, else
# PMU_PMUKIT_EXECUTABLE, else the host preset's (build/host, which scripts/test.sh builds first;
# a test that finds none there skips).
function(pmu_host_pmukit var)
  if(TARGET pmukit_cli)
    set(${var} $<TARGET_FILE:pmukit_cli> PARENT_SCOPE)
  elseif(PMU_PMUKIT_EXECUTABLE)
    set(${var} ${PMU_PMUKIT_EXECUTABLE} PARENT_SCOPE)
  else()
    set(${var} ${PROJECT_SOURCE_DIR}/build/host/tools/pmukit PARENT_SCOPE)
  endif()
endfunction()

function(pmu_add_unwind_report_test test)
  cmake_parse_arguments(T "" "RUN;FIRMWARE" "" ${ARGN})
  pmu_host_pmukit(cli)
  add_test(NAME ${test}
    COMMAND python3 ${PROJECT_SOURCE_DIR}/scripts/check_unwind_report.py ${cli}
            $<TARGET_FILE:${T_FIRMWARE}>.${T_RUN}.log $<TARGET_FILE:${T_FIRMWARE}>)
  set_tests_properties(${test} PROPERTIES DEPENDS ${T_RUN} SKIP_RETURN_CODE 77 TIMEOUT 60
    PASS_REGULAR_EXPRESSION "UNWIND REPORT PASS" LABELS report)
endfunction()
