# One firmware/QEMU helper for every board (examples/<board>/).
#
#   pmu_board(<board> LIBRARY <target> QEMU <qemu-system-*> QEMU_ARGS <args>...
#             [EXIT_STATUS [DEBUG_EXIT]] [LINKER_SCRIPT <file>])
#       declares a board: the library every image of it links (startup, vectors, console, exit,
#       fault catching), how QEMU boots it, and whether QEMU's exit status is the firmware's
#       verdict (EXIT_STATUS: semihosting or UHI exit) or only its console output is. DEBUG_EXIT:
#       the status comes from QEMU's isa-debug-exit device, (code << 1) | 1.
#   pmu_add_firmware(<name> BOARD <board> SOURCES <files>...)
#       <name>.elf and <name>.map, linked against the board; its size printed after the link.
#   pmu_add_qemu_test(<test> FIRMWARE <name> PASS <regex> [FAIL <regex>] [EXPECT_EXIT <n>]
#                     [REPRODUCIBLE] [QEMU_ARGS <extra args>...])
#       boots the image on the board's QEMU (60 s limit); PASS must match, FAIL (default
#       "PROFILE FAIL|CHECK FAIL") must not, and EXPECT_EXIT (default 0 on EXIT_STATUS boards) is
#       the exit status; REPRODUCIBLE: a second run must write the same dump byte for byte. Not
#       registered, with a note, where QEMU or timeout is missing.
#   pmu_add_clang_test(<test> FIRMWARE <name> TESTS <tests>... [SIM_TESTS <tests>...]
#                      [CMAKE_ARGS <-D...>...])
#       the same firmware built by clang 14 (cmake/toolchains/<triple>-clang.cmake) in this build's
#       clang/ tree, configured with this build's PMU_PRESET and CMAKE_ARGS, then TESTS (and
#       SIM_TESTS where pmusim is found) run there: each must be registered and pass
#       (examples/common/clang_profile.sh). Not registered, with a note, where clang++ or the
#       board's QEMU is missing.
find_program(PMU_TIMEOUT timeout)

function(pmu_board board)
  cmake_parse_arguments(B "EXIT_STATUS;DEBUG_EXIT" "LIBRARY;QEMU;LINKER_SCRIPT" "QEMU_ARGS" ${ARGN})
  if(NOT B_LIBRARY OR NOT B_QEMU)
    message(FATAL_ERROR "pmu_board(${board}): LIBRARY and QEMU are required")
  endif()
  find_program(PMU_QEMU_${board} ${B_QEMU})
  set_property(GLOBAL PROPERTY PMU_BOARD_${board}_LIBRARY ${B_LIBRARY})
  set_property(GLOBAL PROPERTY PMU_BOARD_${board}_QEMU_ARGS ${B_QEMU_ARGS})
  set_property(GLOBAL PROPERTY PMU_BOARD_${board}_EXIT_STATUS ${B_EXIT_STATUS})
  set_property(GLOBAL PROPERTY PMU_BOARD_${board}_DEBUG_EXIT ${B_DEBUG_EXIT})
  set_property(GLOBAL PROPERTY PMU_BOARD_${board}_LINKER_SCRIPT "${B_LINKER_SCRIPT}")
endfunction()

function(pmu_add_firmware name)
  cmake_parse_arguments(F "" "BOARD" "SOURCES" ${ARGN})
  get_property(lib GLOBAL PROPERTY PMU_BOARD_${F_BOARD}_LIBRARY)
  if(NOT lib)
    message(FATAL_ERROR "pmu_add_firmware(${name}): unknown board '${F_BOARD}' (pmu_board first)")
  endif()
  get_property(ld GLOBAL PROPERTY PMU_BOARD_${F_BOARD}_LINKER_SCRIPT)
  add_executable(${name} ${F_SOURCES})
  target_link_libraries(${name} PRIVATE ${lib} pmu_warnings)
  # --build-id: the dump carries it (profiler/dump/image.hpp) and `pmukit report --elf` checks it.
  target_link_options(${name} PRIVATE "LINKER:-Map=$<TARGET_FILE_DIR:${name}>/${name}.map"
                      "LINKER:--build-id=sha1")
  set_target_properties(${name} PROPERTIES SUFFIX .elf)
  if(ld)
    set_target_properties(${name} PROPERTIES LINK_DEPENDS ${ld})
  endif()
  if(CMAKE_SIZE)
    add_custom_command(TARGET ${name} POST_BUILD COMMAND ${CMAKE_SIZE} $<TARGET_FILE:${name}> VERBATIM)
  endif()
  set_property(TARGET ${name} PROPERTY PMU_BOARD ${F_BOARD})
endfunction()

function(pmu_add_qemu_test test)
  cmake_parse_arguments(T "REPRODUCIBLE" "FIRMWARE;PASS;FAIL;EXPECT_EXIT" "QEMU_ARGS" ${ARGN})
  get_property(board TARGET ${T_FIRMWARE} PROPERTY PMU_BOARD)
  get_property(args GLOBAL PROPERTY PMU_BOARD_${board}_QEMU_ARGS)
  get_property(exit_status GLOBAL PROPERTY PMU_BOARD_${board}_EXIT_STATUS)
  get_property(debug_exit GLOBAL PROPERTY PMU_BOARD_${board}_DEBUG_EXIT)
  if(NOT PMU_QEMU_${board} OR NOT PMU_TIMEOUT)
    message(STATUS "${board}: QEMU or timeout not found, test ${test} not registered")
    return()
  endif()
  if(exit_status AND NOT DEFINED T_EXPECT_EXIT)
    set(T_EXPECT_EXIT 0)
  endif()
  list(APPEND args ${T_QEMU_ARGS})
  set(fail)
  if(DEFINED T_FAIL)
    set(fail FAIL "${T_FAIL}")
  endif()
  pmu_firmware_test(${test} RUNNER ${PMU_QEMU_${board}} ARGS ${args} ELF_OPTION -kernel
    FIRMWARE ${T_FIRMWARE} PASS "${T_PASS}" ${fail} EXPECT_EXIT "${T_EXPECT_EXIT}"
    DEBUG_EXIT "${debug_exit}" REPRODUCIBLE "${T_REPRODUCIBLE}" LABELS qemu ${board})
endfunction()

function(pmu_add_clang_test test)
  cmake_parse_arguments(T "" "FIRMWARE" "TESTS;SIM_TESTS;CMAKE_ARGS" ${ARGN})
  get_property(board TARGET ${T_FIRMWARE} PROPERTY PMU_BOARD)
  find_program(PMU_CLANG_FOR_FIRMWARE NAMES clang++ clang++-14)
  if(NOT PMU_CLANG_FOR_FIRMWARE OR NOT PMU_QEMU_${board})
    message(STATUS "${board}: clang++ or QEMU not found, test ${test} not registered")
    return()
  endif()
  set(tests ${T_TESTS})
  if(PMU_SIM)
    list(APPEND tests ${T_SIM_TESTS})
  endif()
  add_test(NAME ${test}
    COMMAND bash ${PROJECT_SOURCE_DIR}/examples/common/clang_profile.sh ${PROJECT_SOURCE_DIR}
            ${CMAKE_BINARY_DIR}/clang ${PMU_TARGET_TRIPLE}-clang.cmake ${T_FIRMWARE} "${PMU_SIM}" ${tests}
            -DPMU_PRESET=${PMU_PRESET} ${T_CMAKE_ARGS})
  set_tests_properties(${test} PROPERTIES TIMEOUT 600 LABELS "qemu;clang;${board}"
    PASS_REGULAR_EXPRESSION "100% tests passed")
endfunction()

# The one way a firmware image is run and judged (cmake/run_qemu_test.cmake), for QEMU and pmusim:
#   pmu_firmware_test(<test> RUNNER <program> [ARGS <args>...] [ELF_OPTION <option>]
#                     FIRMWARE <name> PASS <regex> [FAIL <regex>] [EXPECT_EXIT <n>] [DEBUG_EXIT <bool>]
#                     [REPRODUCIBLE <bool>] LABELS <labels>)
# FAIL defaults to "PROFILE FAIL|CHECK FAIL"; no ELF_OPTION: the image is the runner's first argument.
function(pmu_firmware_test test)
  cmake_parse_arguments(T "" "RUNNER;ELF_OPTION;FIRMWARE;PASS;FAIL;STDERR;EXPECT_EXIT;DEBUG_EXIT;REPRODUCIBLE" "ARGS;LABELS"
                        ${ARGN})
  if(NOT DEFINED T_FAIL)
    set(T_FAIL "PROFILE FAIL|CHECK FAIL")
  endif()
  string(REPLACE ";" "\\;" args "${T_ARGS}")
  add_test(NAME ${test}
    COMMAND ${CMAKE_COMMAND}
      -DQEMU=${T_RUNNER} "-DQEMU_ARGS=${args}" "-DELF_OPTION=${T_ELF_OPTION}"
      -DTIMEOUT_PROGRAM=${PMU_TIMEOUT} -DTIMEOUT=60
      -DELF=$<TARGET_FILE:${T_FIRMWARE}> "-DPASS=${T_PASS}" "-DFAIL=${T_FAIL}" "-DSTDERR=${T_STDERR}"
      "-DEXPECT_EXIT=${T_EXPECT_EXIT}" "-DDEBUG_EXIT=${T_DEBUG_EXIT}" "-DREPRODUCIBLE=${T_REPRODUCIBLE}"
      "-DLOG=$<TARGET_FILE:${T_FIRMWARE}>.${test}.log"
      -P ${PROJECT_SOURCE_DIR}/cmake/run_qemu_test.cmake)
  set_tests_properties(${test} PROPERTIES TIMEOUT 90 LABELS "${T_LABELS}")
endfunction()
