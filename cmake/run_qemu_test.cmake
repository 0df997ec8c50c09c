# Runs one firmware image under QEMU and judges it by its exit status and its console output.
#   cmake -DQEMU=... -DQEMU_ARGS="-M;mainstone;..." -DELF=... -DPASS=<regex> [-DFAIL=<regex>]
#         [-DEXPECT_EXIT=<n> [-DDEBUG_EXIT=ON]] [-DTIMEOUT_PROGRAM=timeout] [-DTIMEOUT=60] [-DLOG=<file>] -P run_qemu_test.cmake
# LOG keeps the console output (e.g. for `pmukit report LOG --elf ELF`). REPRODUCIBLE=ON runs the
# image a second time and requires the same dump (its @PMUD text frames) byte for byte: what a
# `pmukit diff` gate on an emulator relies on.
# EXPECT_EXIT is checked only when given (a board whose QEMU exit status carries the firmware's
# verdict, e.g. ARM semihosting); PASS must match the output and FAIL must not. DEBUG_EXIT: QEMU's
# isa-debug-exit device ended the run, with status (code << 1) | 1; any even status (a timeout, a
# QEMU error, a shutdown by other means) carries no firmware verdict and fails.
foreach(v QEMU QEMU_ARGS ELF PASS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_qemu_test: ${v} not set")
  endif()
endforeach()
if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 60)
endif()

# ELF_OPTION: how the runner takes the image (QEMU: -kernel; defined empty: as its first argument).
if(NOT DEFINED ELF_OPTION)
  set(ELF_OPTION -kernel)
endif()
set(cmd ${QEMU} ${QEMU_ARGS} ${ELF_OPTION} ${ELF})
if(TIMEOUT_PROGRAM)
  list(PREPEND cmd ${TIMEOUT_PROGRAM} ${TIMEOUT})
endif()
string(JOIN " " shown ${cmd})
message("run: ${shown}")
execute_process(COMMAND ${cmd}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT ${TIMEOUT} INPUT_FILE /dev/null)
message("${out}")
if(LOG)
  file(WRITE "${LOG}" "${out}")
endif()
if(err)
  message("stderr: ${err}")
endif()
if(DEBUG_EXIT AND rc MATCHES "^[0-9]+$")
  math(EXPR odd "${rc} % 2")
  if(NOT odd)
    message(FATAL_ERROR "exit status ${rc}: not through isa-debug-exit, no firmware verdict")
  endif()
  math(EXPR rc "(${rc} - 1) / 2")
endif()
if(DEFINED EXPECT_EXIT AND NOT EXPECT_EXIT STREQUAL "" AND NOT rc STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_EXIT}")
endif()
if(NOT out MATCHES "${PASS}")
  message(FATAL_ERROR "output does not match: ${PASS}")
endif()
if(DEFINED STDERR AND NOT STDERR STREQUAL "" AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "standard error does not match: ${STDERR}")
endif()
if(DEFINED FAIL AND NOT FAIL STREQUAL "" AND out MATCHES "${FAIL}")
  message(FATAL_ERROR "output matches the failure pattern: ${FAIL}")
endif()
if(REPRODUCIBLE)
  execute_process(COMMAND ${cmd} OUTPUT_VARIABLE again ERROR_QUIET TIMEOUT ${TIMEOUT} INPUT_FILE /dev/null)
  string(REGEX MATCHALL "@PMUD [^\n]*" first "${out}")
  string(REGEX MATCHALL "@PMUD [^\n]*" second "${again}")
  if(NOT first)
    message(FATAL_ERROR "REPRODUCIBLE: the first run wrote no dump to compare")
  endif()
  if(NOT first STREQUAL second)
    message(FATAL_ERROR "REPRODUCIBLE: a second identical run wrote a different dump (is -icount sleep=off set?)")
  endif()
  list(LENGTH first lines)
  message("reproducible: the second run wrote the same dump (${lines} text-frame lines)")
endif()
