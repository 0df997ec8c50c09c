# dump_fuzz: libFuzzer (clang, -fsanitize=fuzzer,address,undefined) on the dump decoders and the
# report writers (symbols: the test fixtures' synthetic table), for a bounded time, starting from the checked-in corpus (corpus/). Built only
# when clang++ is found; the project itself is built with GCC, so this compiles with clang
# directly. New inputs go to the build tree, never into the source corpus.
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
