# Every public header must compile on its own, for every target (ETL-style syntax checks):
# one generated translation unit per header, built as part of `all`.
function(pmu_add_header_checks)
  file(GLOB_RECURSE _headers CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
       ${PROJECT_SOURCE_DIR}/hal/*.hpp ${PROJECT_SOURCE_DIR}/profiler/*.hpp)
  # *_impl.hpp are definitions meant for one translation unit that first names what they need
  # (profiler/c_api_impl.hpp needs `pmukit_backend`); they are compiled by their tests instead.
  list(FILTER _headers EXCLUDE REGEX "_impl\\.hpp$")
  # hal/<pmu>/tests/ holds host tests (GoogleTest), not public headers.
  list(FILTER _headers EXCLUDE REGEX "^hal/[^/]+/tests/")
  list(SORT _headers)
  set(_srcs)
  foreach(h IN LISTS _headers)
    string(MAKE_C_IDENTIFIER "${h}" _id)
    set(_src ${CMAKE_CURRENT_BINARY_DIR}/header_checks/${_id}.cpp)
    file(CONFIGURE OUTPUT ${_src} CONTENT "#include \"${h}\"\n#include \"${h}\" // include guard works\n")
    list(APPEND _srcs ${_src})
  endforeach()
  add_library(pmu_header_checks OBJECT ${_srcs})
  target_link_libraries(pmu_header_checks PRIVATE pmukit pmu_warnings pmu_freestanding)
endfunction()

# The same checks with clang (users bring GCC or clang): host builds, when clang++ is installed.
# One ctest, header_checks_clang, compiles every header's check file with -Wall -Wextra -Werror.
function(pmu_add_clang_header_checks)
  if(CMAKE_CROSSCOMPILING)
    return()
  endif()
  find_program(PMU_CLANGXX NAMES clang++ clang++-14)
  if(NOT PMU_CLANGXX)
    message(STATUS "clang++ not found: header_checks_clang not registered")
    return()
  endif()
  get_target_property(_srcs pmu_header_checks SOURCES)
  string(REPLACE ";" "\\;" _srcs "${_srcs}")
  add_test(NAME header_checks_clang
    COMMAND ${CMAKE_COMMAND} -DCLANGXX=${PMU_CLANGXX} -DROOT=${PROJECT_SOURCE_DIR} "-DSOURCES=${_srcs}"
            -P ${PROJECT_SOURCE_DIR}/cmake/run_clang_header_checks.cmake)
  set_tests_properties(header_checks_clang PROPERTIES TIMEOUT 300 LABELS header_checks)
endfunction()
