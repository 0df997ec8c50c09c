# Runs one firmware image under QEMU and checks both its exit status and its console output.
#   cmake -DQEMU=... -DELF=... -DEXPECT_EXIT=0 -DEXPECT_REGEX=... [-DTIMEOUT_PROGRAM=timeout]
#         [-DTIMEOUT=60] [-DQEMU_ARGS="-M;mainstone;..."] -P run_qemu_test.cmake
foreach(v QEMU ELF EXPECT_EXIT EXPECT_REGEX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_qemu_test: ${v} not set")
  endif()
endforeach()
if(NOT DEFINED TIMEOUT)
  set(TIMEOUT 60)
endif()
if(NOT DEFINED QEMU_ARGS)
  set(QEMU_ARGS -M mainstone -nographic -semihosting -icount shift=0)
endif()

set(cmd ${QEMU} ${QEMU_ARGS} -kernel ${ELF})
if(TIMEOUT_PROGRAM)
  list(PREPEND cmd ${TIMEOUT_PROGRAM} ${TIMEOUT})
endif()
string(JOIN " " shown ${cmd})
message("run: ${shown}")
execute_process(COMMAND ${cmd}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  TIMEOUT ${TIMEOUT} INPUT_FILE /dev/null)
message("${out}")
if(err)
  message("stderr: ${err}")
endif()
if(NOT rc STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_EXIT}")
endif()
if(NOT out MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "output does not match: ${EXPECT_REGEX}")
endif()
