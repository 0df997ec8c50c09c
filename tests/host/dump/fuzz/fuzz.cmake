# dump_fuzz: libFuzzer (clang, -fsanitize=fuzzer,address,undefined) on the dump decoders and the
# report writers (symbols: the test fixtures' synthetic table), for a bounded number of executions
# (PMU_FUZZ_RUNS: the same work on a fast or a slow machine, a few seconds here), starting from the
# checked-in corpus (corpus/). Longer runs: the fuzzer binary by hand, e.g. -max_total_time=600.
# elf_fuzz: the same on the --elf input (ELF reader, libelf/libdw, identity check, profile),
# seeded with the test ELFs and fuzz/elf_corpus/ (a DWARF string table libdw once over-read; the
# i386 test ELF with its CIE's CFA at esp+0, whose return address rule the unwinder once read
# below its stack copy for a dump with 8-byte addresses).
# Built only when clang++ is found; the project itself is built with GCC, so these compile with
# clang directly. New inputs go to the build tree, never into the source corpus. The report
# sources include the registered PMUs' generated catalogs (tools/report/CMakeLists.txt).
set(PMU_FUZZ_RUNS 50000 CACHE STRING "Executions per fuzz test")
find_program(PMU_CLANGXX NAMES clang++ clang++-14)
if(NOT PMU_CLANGXX)
  message(STATUS "dump tests: clang++ not found, no fuzz tests")
  return()
endif()
file(GLOB _fuzz_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/tools/dumpread/*.cpp ${PROJECT_SOURCE_DIR}/tools/report/*.cpp)
file(GLOB _fuzz_headers CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/tools/dumpread/*.hpp ${PROJECT_SOURCE_DIR}/tools/report/*.hpp
  ${PROJECT_SOURCE_DIR}/profiler/dump/*.hpp)

# pmu_add_fuzz(<name> SOURCES <extra .cpp> [HEADERS ...] [LIBS -l...] [ARGS <fuzzer options>]
#              SEEDS <dirs>): builds fuzz/<name>_fuzzer.cpp with the decoders and report writers,
# and a test <name>_fuzz of PMU_FUZZ_RUNS executions.
function(pmu_add_fuzz name)
  cmake_parse_arguments(F "" "" "SOURCES;HEADERS;LIBS;ARGS;SEEDS" ${ARGN})
  set(exe ${CMAKE_CURRENT_BINARY_DIR}/${name}_fuzzer)
  set(main ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${name}_fuzzer.cpp)
  set(fixtures ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.cpp)
  add_custom_command(
    OUTPUT ${exe}
    COMMAND ${PMU_CLANGXX} -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined
            -fno-sanitize-recover=undefined -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}
            -I${CMAKE_CURRENT_SOURCE_DIR} -I${CMAKE_BINARY_DIR}/generated ${main} ${fixtures} ${F_SOURCES}
            ${_fuzz_sources} ${F_LIBS}
            -o ${exe}
    DEPENDS ${main} ${fixtures} ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.hpp ${F_SOURCES} ${F_HEADERS}
            ${_fuzz_sources} ${_fuzz_headers} ${CMAKE_BINARY_DIR}/generated/pmukit_catalogs.hpp
    COMMENT "Building the ${name} fuzzer with clang"
    VERBATIM)
  add_custom_target(${name}_fuzzer_build ALL DEPENDS ${exe})
  set(work ${CMAKE_CURRENT_BINARY_DIR}/${name}_fuzz_corpus)
  file(MAKE_DIRECTORY ${work})
  add_test(NAME ${name}_fuzz
           COMMAND ${exe} -runs=${PMU_FUZZ_RUNS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                   ${F_ARGS} -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/${name}_fuzz_crash- ${work}
                   ${F_SEEDS})
  set_tests_properties(${name}_fuzz PROPERTIES TIMEOUT 120 LABELS fuzz)
endfunction()

pmu_add_fuzz(dump ARGS -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/dump.dict
             SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/corpus)

# The ELF reader, with libelf and libdw as the tool links them, and the unwinder (libdw's CFI; the
# LLVM helper program is not run per input).
if(TARGET dump_test_elfs)
  pmu_add_fuzz(elf
    SOURCES ${PROJECT_SOURCE_DIR}/tools/elf/elf_symbols.cpp ${PROJECT_SOURCE_DIR}/tools/elf/image_check.cpp
            ${PROJECT_SOURCE_DIR}/tools/elf/unwind.cpp ${PROJECT_SOURCE_DIR}/tools/elf/unwind_llvm.cpp
    HEADERS ${PROJECT_SOURCE_DIR}/tools/elf/elf_symbols.hpp ${PROJECT_SOURCE_DIR}/tools/elf/image_check.hpp
    LIBS -ldw -lelf
    SEEDS ${PMU_TEST_ELF_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/elf_corpus)
endif()
