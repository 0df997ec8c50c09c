# cmake -DSOURCE=... -DROOT=... -DOUT=... -P writer_cross_compile.cmake
# Compiles SOURCE with every installed cross compiler using the firmware flags; fails on the
# first error. Compilers that are not installed are reported and skipped.
set(_compilers arm-none-eabi-g++ mips-linux-gnu-g++ powerpc-linux-gnu-g++ i686-linux-gnu-g++)
set(_built 0)
foreach(cxx IN LISTS _compilers)
  find_program(_path ${cxx} NO_CACHE)
  if(NOT _path)
    message(STATUS "${cxx}: not installed, skipped")
    continue()
  endif()
  execute_process(
    COMMAND ${_path} -std=c++20 -ffreestanding -fno-exceptions -fno-rtti -O2 -Wall -Wextra -Werror
            -I${ROOT} -c ${SOURCE} -o ${OUT}/writer_freestanding_${cxx}.o
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${cxx}: the dump writer does not compile freestanding:\n${err}")
  endif()
  message(STATUS "${cxx}: ok")
  math(EXPR _built "${_built} + 1")
  unset(_path)
endforeach()
if(_built EQUAL 0)
  message(FATAL_ERROR "no cross compiler found")
endif()
