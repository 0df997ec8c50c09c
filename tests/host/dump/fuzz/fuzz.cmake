# dump_fuzz: libFuzzer (clang, -fsanitize=fuzzer,address,undefined) on the dump decoders and the
# report writers (symbols: the test fixtures' synthetic table), for a bounded time, starting from
# the checked-in corpus (corpus/).
# elf_fuzz: the same on the --elf input (ELF reader, libelf/libdw, identity check, profile),
# seeded with the test ELFs and fuzz/elf_corpus/ (a DWARF string table libdw once over-read).
# Built only when clang++ is found; the project itself is built with GCC, so these compile with
# clang directly. New inputs go to the build tree, never into the source corpus.
find_program(PMU_CLANGXX NAMES clang++ clang++-14)
if(NOT PMU_CLANGXX)
  message(STATUS "dump tests: clang++ not found, no dump_fuzz test")
  return()
endif()
file(GLOB _fuzz_sources CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/tools/dumpread/*.cpp ${PROJECT_SOURCE_DIR}/tools/report/*.cpp)
file(GLOB _fuzz_headers CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/tools/dumpread/*.hpp ${PROJECT_SOURCE_DIR}/tools/report/*.hpp
  ${PROJECT_SOURCE_DIR}/profiler/dump/*.hpp)
set(_fuzzer ${CMAKE_CURRENT_BINARY_DIR}/dump_fuzzer)
add_custom_command(
  OUTPUT ${_fuzzer}
  COMMAND ${PMU_CLANGXX} -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined
          -fno-sanitize-recover=undefined -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}
          -I${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/dump_fuzzer.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.cpp ${_fuzz_sources} -o ${_fuzzer}
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/dump_fuzzer.cpp ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.hpp ${_fuzz_sources} ${_fuzz_headers}
  COMMENT "Building the dump fuzzer with clang"
  VERBATIM)
add_custom_target(dump_fuzzer_build ALL DEPENDS ${_fuzzer})

set(_work ${CMAKE_CURRENT_BINARY_DIR}/fuzz_corpus)
file(MAKE_DIRECTORY ${_work})
add_test(NAME dump_fuzz
         COMMAND ${_fuzzer} -max_total_time=30 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                 -dict=${CMAKE_CURRENT_SOURCE_DIR}/fuzz/dump.dict
                 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz_crash- ${_work}
                 ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
set_tests_properties(dump_fuzz PROPERTIES TIMEOUT 120 LABELS fuzz)

# The ELF reader, with libelf and libdw as the tool links them.
if(NOT TARGET dump_test_elfs)
  return()
endif()
set(_elf_fuzzer ${CMAKE_CURRENT_BINARY_DIR}/elf_fuzzer)
set(_elf_sources ${PROJECT_SOURCE_DIR}/tools/elf/elf_symbols.cpp ${PROJECT_SOURCE_DIR}/tools/elf/image_check.cpp)
add_custom_command(
  OUTPUT ${_elf_fuzzer}
  COMMAND ${PMU_CLANGXX} -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined
          -fno-sanitize-recover=undefined -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}
          -I${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/elf_fuzzer.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.cpp ${_elf_sources} ${_fuzz_sources} -ldw -lelf -o ${_elf_fuzzer}
  DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/elf_fuzzer.cpp ${CMAKE_CURRENT_SOURCE_DIR}/fixtures.cpp
          ${_elf_sources} ${_fuzz_sources} ${_fuzz_headers} ${PROJECT_SOURCE_DIR}/tools/elf/elf_symbols.hpp
          ${PROJECT_SOURCE_DIR}/tools/elf/image_check.hpp
  COMMENT "Building the ELF fuzzer with clang"
  VERBATIM)
add_custom_target(elf_fuzzer_build ALL DEPENDS ${_elf_fuzzer})
set(_elf_work ${CMAKE_CURRENT_BINARY_DIR}/elf_fuzz_corpus)
file(MAKE_DIRECTORY ${_elf_work})
add_test(NAME elf_fuzz
         COMMAND ${_elf_fuzzer} -max_total_time=30 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/elf_fuzz_crash- ${_elf_work}
                 ${PMU_TEST_ELF_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/elf_corpus)
set_tests_properties(elf_fuzz PROPERTIES TIMEOUT 120 LABELS fuzz)
