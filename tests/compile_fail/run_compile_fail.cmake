# Runs one must-fail compile case: cmake -DCASE=<case file> -DMODE=misuse|control -P this file.
# The case file (written at configure time by CMakeLists.txt) sets CF_NAME, CF_SOURCE,
# CF_COMMAND (compiler and flags, a list) and CF_EXPECT (regular expressions, a list).
#
# MODE=control: the source compiles without PMU_MISUSE.
# MODE=misuse:  the control compiles AND the source with -DPMU_MISUSE fails AND every CF_EXPECT
#               regex matches the compiler output. Only then the line PMU_COMPILE_FAIL_PASS is
#               printed, which the test's PASS_REGULAR_EXPRESSION waits for; any other outcome
#               (including an unrelated error in the control) fails the test.
cmake_minimum_required(VERSION 3.25)
include(${CASE})
set(ENV{LC_ALL} C)  # plain ASCII diagnostics

function(cf_compile misuse out_result out_output)
  set(cmd ${CF_COMMAND})
  if(misuse)
    list(APPEND cmd -DPMU_MISUSE)
  endif()
  list(APPEND cmd ${CF_SOURCE})
  execute_process(COMMAND ${cmd} RESULT_VARIABLE r OUTPUT_VARIABLE o ERROR_VARIABLE o)
  list(JOIN cmd " " shown)
  set(${out_result} "${r}" PARENT_SCOPE)
  set(${out_output} "$ ${shown}\n${o}" PARENT_SCOPE)
endfunction()

cf_compile(OFF control_result control_output)
if(NOT control_result EQUAL 0)
  message("${control_output}")
  message(FATAL_ERROR "${CF_NAME}: the control (without PMU_MISUSE) does not compile, so the "
                      "must-fail case would prove nothing")
endif()
if(MODE STREQUAL "control")
  message("${CF_NAME}: control compiles")
  return()
endif()

cf_compile(ON misuse_result misuse_output)
message("${misuse_output}")
if(misuse_result EQUAL 0)
  message(FATAL_ERROR "${CF_NAME}: compiled with PMU_MISUSE, but the misuse must be rejected")
endif()
set(missing "")
foreach(re IN LISTS CF_EXPECT)
  if(NOT misuse_output MATCHES "${re}")
    string(APPEND missing "\n  ${re}")
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "${CF_NAME}: compilation failed, but not with the expected message; "
                      "no match for:${missing}")
endif()
message("PMU_COMPILE_FAIL_PASS ${CF_NAME}")
