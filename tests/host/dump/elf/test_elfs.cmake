# Small ELFs for the symbolization tests, built with each installed cross compiler: ARM
# (little-endian ELF32, Thumb entry points), MIPS and PowerPC (big-endian ELF32), i386. For each
# also `nm -C` output, the independent source of the expected addresses and names.
# Missing compilers are skipped (the tests then skip that target).
set(PMU_TEST_ELF_DIR ${CMAKE_CURRENT_BINARY_DIR}/elfs)
file(MAKE_DIRECTORY ${PMU_TEST_ELF_DIR})
set(_src ${CMAKE_CURRENT_SOURCE_DIR}/elf/sample.cpp)
set(_common -O1 -g -ffreestanding -fno-exceptions -fno-rtti -nostdlib -Wl,-e,entry)
set(_targets
  "arm|arm-none-eabi|-mcpu=xscale,-marm"
  "mips|mips-linux-gnu|-march=mips32r2,-EB,-mabi=32,-mno-abicalls,-fno-pic,-G0,-static"
  "ppc|powerpc-linux-gnu|-mcpu=8548,-msoft-float,-fno-pic,-no-pie,-static"
  "i386|i686-linux-gnu|-march=pentium4,-fno-pic,-no-pie,-static"
  # i386 keeping the frame pointer, as the PC examples do: the unwind table's frame-record rule.
  "i386fp|i686-linux-gnu|-march=pentium4,-fno-pic,-no-pie,-static,-fno-omit-frame-pointer")
set(_outputs)
foreach(t IN LISTS _targets)
  string(REPLACE "|" ";" t "${t}")
  list(GET t 0 name)
  list(GET t 1 triple)
  list(GET t 2 flags)
  string(REPLACE "," ";" flags "${flags}")
  find_program(PMU_${name}_GXX ${triple}-g++)
  find_program(PMU_${name}_NM ${triple}-nm)
  if(NOT PMU_${name}_GXX OR NOT PMU_${name}_NM)
    message(STATUS "dump tests: no ${triple}-g++/nm, skipping the ${name} ELF")
    continue()
  endif()
  set(elf ${PMU_TEST_ELF_DIR}/${name}.elf)
  add_custom_command(
    OUTPUT ${elf} ${elf}.nm ${PMU_TEST_ELF_DIR}/${name}-nodebug.elf ${PMU_TEST_ELF_DIR}/${name}-stripped.elf
    COMMAND ${PMU_${name}_GXX} ${flags} ${_common} ${_src} -o ${elf}
    COMMAND ${PMU_${name}_NM} -C --defined-only ${elf} > ${elf}.nm
    COMMAND ${PMU_${name}_GXX} ${flags} ${_common} -g0 ${_src} -o ${PMU_TEST_ELF_DIR}/${name}-nodebug.elf
    COMMAND ${PMU_${name}_GXX} ${flags} ${_common} -s ${_src} -o ${PMU_TEST_ELF_DIR}/${name}-stripped.elf
    DEPENDS ${_src}
    COMMENT "Building the ${name} test ELFs"
    VERBATIM)
  list(APPEND _outputs ${elf})
endforeach()
add_custom_target(dump_test_elfs ALL DEPENDS ${_outputs})
