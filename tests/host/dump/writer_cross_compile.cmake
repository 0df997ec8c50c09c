cmake_minimum_required(VERSION 3.25)
# cmake -DSOURCE=... -DROOT=... -DOUT=... -P writer_cross_compile.cmake
# Compiles SOURCE for every target (cmake/targets.cmake) whose GNU cross compiler is installed, with
# the target's CPU flags and the firmware flags; fails on the first error. Compilers that are not
# installed are reported and skipped.
include(${ROOT}/cmake/PmuTargets.cmake)
set(_built 0)
foreach(t IN LISTS PMU_TARGETS)
  pmu_target_get(${t} TOOLCHAIN cxx)
  pmu_target_get(${t} FLAGS flags)
  set(cxx ${cxx}-g++)
  find_program(_path ${cxx} NO_CACHE)
  if(NOT _path)
    message(STATUS "${cxx}: not installed, skipped")
    continue()
  endif()
  execute_process(
    COMMAND ${_path} -std=c++20 -ffreestanding -fno-exceptions -fno-rtti -O2 -Wall -Wextra -Werror
            ${flags} -I${ROOT} -c ${SOURCE} -o ${OUT}/writer_freestanding_${t}.o
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${t} (${cxx} ${flags}): the dump writer does not compile freestanding:\n${err}")
  endif()
  message(STATUS "${t} (${cxx} ${flags}): ok")
  math(EXPR _built "${_built} + 1")
  unset(_path)
endforeach()
if(_built EQUAL 0)
  message(FATAL_ERROR "no cross compiler found")
endif()
